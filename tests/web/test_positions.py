"""Positions set up by hand (``POST /api/positions``) and the history's housekeeping (``DELETE``)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from inarow.rules.census import reachable
from inarow.rules.game import Game
from inarow.rules.notation import parse_moves, parse_position, play_order


def test_every_3x3_position_is_reached_by_its_play_order() -> None:
    """All 5,478 positions of tic-tac-toe: the order found replays to the same board, nobody winning early."""
    game = Game.parse("tictactoe")
    positions = reachable(game)
    assert len(positions) == 5478
    for position in positions:
        assert parse_moves(play_order(position), game) == position


def test_a_connect_four_diagram_is_reached_with_each_stone_on_the_one_below() -> None:
    position = parse_position(
        "....... / ....... / ....... / ....... / ..xo... / ..ooxx.".replace(" ", ""), "connect4"
    )
    assert parse_moves(play_order(position), "connect4") == position


def test_a_position_typed_as_chinese_keyboards_type_it_is_read_with_its_moves(client: TestClient) -> None:
    answer = client.post("/api/positions", json={"game": "tictactoe", "position": "５ （3，1）"}).json()
    assert answer == {
        "game": "tictactoe",
        "diagram": ".../.x./o..",
        "moves": ["b2", "a1"],
        "to_move": "x",
        "result": None,
    }


def test_a_diagram_is_answered_with_moves_that_reach_it(client: TestClient) -> None:
    answer = client.post("/api/positions", json={"game": "tictactoe", "position": "xxx/oo./..."}).json()
    assert answer["result"] == "x" and answer["to_move"] is None
    assert parse_moves(answer["moves"], "tictactoe") == parse_position("xxx/oo./...")


def test_an_impossible_position_is_a_400_naming_it(client: TestClient) -> None:
    response = client.post("/api/positions", json={"game": "tictactoe", "position": "xxx/.../..."})
    assert response.status_code == 400
    assert "impossible position 'xxx/.../...'" in response.json()["detail"]


def test_a_game_deleted_is_gone_from_the_history_and_a_second_delete_is_404(client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "humans"}).json()
    client.post(f"/api/games/{game['id']}/moves", json={"move": "b2"})
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [game["id"]]
    assert client.delete(f"/api/games/{game['id']}").json() == {"deleted": game["id"]}
    assert client.get("/api/games").json()["games"] == []
    assert client.delete(f"/api/games/{game['id']}").status_code == 404


def test_a_game_with_no_move_is_not_listed_in_the_history(client: TestClient) -> None:
    for _ in range(3):
        client.post("/api/games", json={"mode": "humans"})
    played = client.post("/api/games", json={"mode": "humans"}).json()
    client.post(f"/api/games/{played['id']}/moves", json={"move": "a1"})
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [played["id"]]


def test_a_reviewed_move_with_equal_best_moves_has_a_line_after_each() -> None:
    """
    . . .
    . X .     o to move after b2: the four corners draw, the edges lose; the review gives a line after
    . . .     up to three of the equal corners, each starting with its corner and replaying legally.
    """
    from inarow.sessions.review import MAX_LINES, review_move

    before = parse_position("b2")
    reviewed = review_move(before, "b1", "human", 1.0)
    assert set(reviewed.best) == {"a1", "a3", "c1", "c3"}
    assert len(reviewed.lines) == MAX_LINES
    assert [line[0] for line in reviewed.lines] == [
        reviewed.pv[0],
        *[m for m in reviewed.best if m != reviewed.pv[0]][:2],
    ]
    for line in reviewed.lines:
        position = before
        for move in line:
            position = position.play(move)
        assert position.result == "draw", "each line is best play to the end: a draw"
