"""The HTTP API, route by route, with every error it answers (TestClient, searches inline, seeded)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from inarow import Limits, analyze, parse_position
from inarow.engines.policy import Analysis
from inarow.rules.game import Position
from inarow.sessions import Sessions, service
from inarow.values.store import Store
from inarow.words import phrases


def new_game(client: TestClient, **choices: str) -> dict[str, Any]:
    response = client.post("/api/games", json={"level": "perfect", **choices})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def play(client: TestClient, game_id: str, move: str | None = None, reply: bool = True) -> Any:
    body = {} if move is None else {"move": move, "reply": reply}
    return client.post(f"/api/games/{game_id}/moves", json=body)


# --------------------------------------------------------------------------------- POST /api/analyze
def test_analyze_answers_the_fields_of_the_analyze_command(client: TestClient) -> None:
    """
    . . .
    . x .
    o . .      x to move: a draw with best play, whatever x plays
    """
    response = client.post("/api/analyze", json={"game": "tictactoe", "position": "b2 a1"})
    assert response.status_code == 200
    answer = response.json()
    expected = phrases.analysis_json(analyze(parse_position("b2 a1"), Limits(time=1.0)), "b2 a1")
    for key in (
        "position",
        "game",
        "diagram",
        "to_move",
        "result",
        "exact",
        "value",
        "score",
        "plies",
        "best",
    ):
        assert answer[key] == expected[key], key
    assert answer["moves"] == expected["moves"]
    assert answer["description"] == "draw with best play"
    assert set(answer) >= {"pv", "nodes", "seconds", "depth"}


def test_analyze_finds_the_win_in_one_on_a_diagram(client: TestClient) -> None:
    """
    x x .
    o o .
    . . .      x to move wins at c3
    """
    answer = client.post("/api/analyze", json={"position": "xx./oo./..."}).json()
    assert answer["best"] == ["c3"]
    winning = next(m for m in answer["moves"] if m["move"] == "c3")
    assert (winning["value"], winning["plies"]) == (1, 1)


def test_analyze_with_a_depth_is_not_exact_on_connect_four(client: TestClient) -> None:
    answer = client.post("/api/analyze", json={"game": "connect4", "position": "", "depth": 2}).json()
    assert answer["exact"] is False and answer["depth"] == 2
    assert len(answer["moves"]) == 7


def test_analyze_caps_the_time_at_the_servers_think_time(client: TestClient) -> None:
    answer = client.post("/api/analyze", json={"game": "gomoku", "position": "h8", "time": 3600}).json()
    assert answer["exact"] is False


@pytest.mark.slow
def test_the_service_never_gives_a_search_more_than_the_think_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Limits] = []

    def recording(position: Position, limits: Limits) -> Analysis:
        calls.append(limits)
        return analyze(position, limits)

    monkeypatch.setattr(service, "analyze_position", recording)
    sessions = Sessions(Store(":memory:"), think_time=1.5)
    sessions.analyze(parse_position("h8", "gomoku"), seconds=3600)
    sessions.analyze(parse_position("h8", "gomoku"), seconds=0.5)
    sessions.analyze(parse_position("h8", "gomoku"), depth=1)
    assert calls == [Limits(time=1.5), Limits(time=0.5), Limits(depth=1, time=1.5)]


def test_analyze_refuses_bad_input_with_a_message_that_names_it(client: TestClient) -> None:
    cases = [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "20x20"}, "20 columns: boards go from 1 to 19"),
        ({"game": "19x20:5"}, "20 rows"),
        ({"position": "b2 b2"}, "move 2 of 'b2 b2'"),
        ({"position": "z9"}, "invalid cell 'z9'"),
        ({"position": "xxx/xxx/xxx"}, "impossible position"),
    ]
    for body, message in cases:
        response = client.post("/api/analyze", json=body)
        assert response.status_code == 400, body
        assert message in response.json()["detail"], (body, response.json())


def test_a_body_of_the_wrong_shape_gets_a_422_naming_the_field(client: TestClient) -> None:
    response = client.post("/api/analyze", json={"position": 5})
    assert response.status_code == 422
    assert response.json()["detail"] == "invalid request: 'position': Input should be a valid string"
    response = client.post("/api/analyze", json={"position": "b2", "colour": "red"})
    assert (
        response.status_code == 422
        and "'colour': Extra inputs are not permitted" in response.json()["detail"]
    )
    response = client.post("/api/analyze", json=["b2"])
    assert response.status_code == 422 and "'body'" in response.json()["detail"]


def test_malformed_json_gets_a_422_that_says_so(client: TestClient) -> None:
    response = client.post(
        "/api/analyze", content=b'{"position": ', headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("invalid request: the body is not valid JSON")


def test_an_oversized_body_gets_a_413(client: TestClient) -> None:
    body = json.dumps({"position": "b2", "padding": "x" * 70_000})
    response = client.post("/api/analyze", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["detail"] == "request body too large: at most 65536 bytes"


def test_an_oversized_body_sent_in_chunks_without_a_length_gets_a_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"position": "'
        for _ in range(20):
            yield b"a" * 8192
        yield b'"}'

    response = client.post("/api/analyze", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_a_position_string_over_the_limit_gets_a_422(client: TestClient) -> None:
    response = client.post("/api/analyze", json={"position": "b2 " * 2000})
    assert response.status_code == 422 and "'position'" in response.json()["detail"]


def test_moves_typed_by_a_chinese_input_method_are_read_as_their_ascii_forms(client: TestClient) -> None:
    answers = [
        client.post("/api/analyze", json={"position": typed}).json()["best"]
        for typed in ("５", "（2，2）", "２，２", "b2")
    ]
    assert answers == [["a1", "a3", "c1", "c3"]] * 4
    game = new_game(client, mode="humans")
    response = client.post(f"/api/games/{game['id']}/moves", json={"move": "ｂ２", "ply": 1})
    assert response.status_code == 200, response.text
    assert [move["cell"] for move in response.json()["moves"]] == ["b2"]
    refused = [
        (client.post("/api/analyze", json={"position": typed}), message)
        for typed, message in [
            ("²", "invalid digit '²' in '²': write numbers with the digits 0-9"),
            ("a²", "invalid digit '²' in 'a²'"),
            ("b2中", "invalid cell 'b2中'"),
        ]
    ]
    refused.append(
        (client.post(f"/api/games/{game['id']}/moves", json={"move": "٥", "ply": 2}), "invalid digit '٥'")
    )
    for response, message in refused:
        assert response.status_code == 400, response.text
        assert message in response.json()["detail"]


def test_unicode_digits_overflowing_numbers_and_booleans_get_a_4xx_naming_the_field(
    client: TestClient,
) -> None:
    new_game(client)
    cases: list[tuple[str, str, dict[str, Any], str]] = [
        ("POST", "/api/games", {"level": "minimax:²"}, "'level': 'minimax:²' holds '²'"),
        (
            "POST",
            "/api/analyze",
            {"position": "b2", "depth": False},
            "'depth': expected a number, not false",
        ),
        ("POST", "/api/analyze", {"position": "b2", "depth": -1}, "'depth': Input should be greater than"),
        ("POST", "/api/analyze", {"position": "b2", "depth": 2**70}, "'depth'"),
        ("POST", "/api/analyze", {"position": "b2", "time": 0}, "'time': Input should be greater than 0"),
        ("POST", "/api/compare", {"depth": True}, "'depth': expected a number, not true"),
        ("POST", "/api/analyze", {"game": "tic tac toe"}, "'game': String should match pattern"),
    ]
    for method, path, body, message in cases:
        response = client.request(method, path, json=body)
        assert response.status_code == 422, (body, response.text)
        assert message in response.json()["detail"], (body, response.json())
    response = client.get("/api/games", params={"offset": 9223372036854775808})
    assert response.status_code == 422 and "'offset'" in response.json()["detail"]
    response = client.post(
        "/api/analyze", content=b'{"time": NaN}', headers={"content-type": "application/json"}
    )
    assert response.status_code == 422 and "'time'" in response.json()["detail"]


def test_a_chunked_body_over_the_limit_changes_nothing(client: TestClient) -> None:
    """A first chunk that is a whole move, then padding past the limit: 413, and the move is not played."""
    game = new_game(client)

    def chunks() -> Iterator[bytes]:
        yield b'{"move": "b2"}'
        for _ in range(10):
            yield b" " * 8192

    path = f"/api/games/{game['id']}/moves"
    response = client.post(path, content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


# ----------------------------------------------------------------------------------- POST /api/games
def test_a_new_game_waits_for_your_first_move(client: TestClient) -> None:
    game = new_game(client)
    assert game["position"] == "" and game["waiting_for"] == "you" and game["to_move"] == "x"
    assert game["you"] == "x" and game["symbols"] == {"x": "x", "o": "o"} and game["reply"] is None
    assert (game["columns"], game["rows"], game["k"], game["gravity"]) == (3, 3, 3, False)


def test_when_the_computer_starts_its_move_comes_with_the_new_game(client: TestClient) -> None:
    game = new_game(client, you="x", first="computer")
    assert game["you"] == "o", "the side that moves second"
    assert game["symbols"] == {"x": "o", "o": "x"}, "but it is shown as the X the person chose"
    assert game["first_mover"] == "computer"
    assert game["reply"]["ply"] == 1 and game["position"] == game["reply"]["move"]
    assert game["waiting_for"] == "you" and game["to_move"] == "o"


def test_a_random_first_move_is_drawn_and_reported(client: TestClient) -> None:
    movers = {new_game(client, first="random")["first_mover"] for _ in range(12)}
    assert movers == {"you", "computer"}


def test_new_game_refuses_unknown_choices(client: TestClient) -> None:
    cases = [
        ({"level": "grandmaster"}, "unknown player 'grandmaster'"),
        ({"you": "z"}, "invalid you 'z': expected one of x, o"),
        ({"first": "later"}, "invalid first 'later'"),
        ({"mode": "online"}, "invalid mode 'online'"),
        ({"game": "30x30:5"}, "30 columns"),
        ({"game": "3x3:9"}, "asks for 9 in a row"),
    ]
    for body, message in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, body
        assert message in response.json()["detail"], (body, response.json())


# ------------------------------------------------------------------------- POST /api/games/{id}/moves
def test_a_move_gets_the_computers_reply_in_the_same_answer(client: TestClient) -> None:
    game = new_game(client)
    answer = play(client, game["id"], "b2").json()
    assert answer["moves"][0] == {
        "ply": 1,
        "move": "b2",
        "cell": "b2",
        "side": "x",
        "by": "human",
        "note": None,
    }
    assert answer["reply"]["ply"] == 2 and answer["reply"]["by"] == "computer"
    # Why it played so, as fields the page words in the reader's language: a draw with best play.
    note = answer["reply"]["note"]
    assert (note["kind"], note["exact"], note["winner"]) == ("analysis", True, None)
    assert answer["position"] == f"b2 {answer['reply']['move']}" and answer["waiting_for"] == "you"


def test_a_move_without_reply_leaves_the_computer_to_move_then_it_plays_on_request(
    client: TestClient,
) -> None:
    game = new_game(client)
    answer = play(client, game["id"], "a1", reply=False).json()
    assert answer["waiting_for"] == "computer" and answer["reply"] is None
    early = play(client, game["id"], "c3")
    assert early.status_code == 400
    assert "it is the computer's move, not yours" in early.json()["detail"]
    answer = play(client, game["id"]).json()
    assert answer["reply"]["move"] == "b2", "the only move that does not lose against a corner"
    again = play(client, game["id"])
    assert again.status_code == 400 and "it is not the computer's move" in again.json()["detail"]


def test_an_illegal_move_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client)
    after = play(client, game["id"], "b2").json()
    response = play(client, game["id"], "b2")
    assert response.status_code == 400
    assert response.json() == {
        "detail": f"illegal move 'b2' in '{after['diagram']}': cell is taken",
        "reason": "cell is taken",
    }
    assert client.get(f"/api/games/{game['id']}").json()["position"] == after["position"]


def test_errors_speak_the_language_the_request_accepts_and_english_by_default(client: TestClient) -> None:
    game = new_game(client)
    after = play(client, game["id"], "b2").json()
    chinese = client.post(
        f"/api/games/{game['id']}/moves",
        json={"move": "b2", "reply": False},
        headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"},
    )
    assert chinese.status_code == 400
    assert chinese.json() == {
        "detail": f"局面 '{after['diagram']}' 中的非法走法 'b2'：该格已有棋子",
        "reason": "该格已有棋子",
    }
    english = client.post(
        f"/api/games/{game['id']}/moves",
        json={"move": "b2", "reply": False},
        headers={"Accept-Language": "fr"},
    )
    assert english.json()["reason"] == "cell is taken"
    unknown = client.get("/api/games/nope", headers={"Accept-Language": "zh-CN"})
    assert unknown.status_code == 404
    assert unknown.json()["detail"] == "未知的对局 'nope'：没有保存这个编号的对局"
    body = client.post(
        "/api/analyze", content=b"{", headers={"Accept-Language": "zh", "Content-Type": "application/json"}
    )
    assert body.status_code == 422 and body.json()["detail"].startswith("无效的请求：请求体不是有效的 JSON")


def test_a_malformed_move_is_refused_with_what_was_expected(client: TestClient) -> None:
    game = new_game(client)
    response = play(client, game["id"], "k10")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "invalid cell 'k10': expected a cell name from a1 to c3, a key 1-9 as on the numeric keypad, or "
        "row,column from 1,1 at the top left to 3,3 on tictactoe"
    )
    assert play(client, game["id"], "x" * 17).status_code == 422


def test_a_move_in_a_full_connect_four_column_is_refused(client: TestClient) -> None:
    game = new_game(client, game="connect4", mode="humans")
    for _ in range(6):
        assert play(client, game["id"], "1").status_code == 200
    response = play(client, game["id"], "1")
    assert response.status_code == 400 and response.json()["detail"].endswith("column 1 is full")
    response = play(client, game["id"], "8")
    assert "expected a column number from 1 to 7" in response.json()["detail"]


def test_a_move_after_the_end_is_refused(client: TestClient) -> None:
    """
    x x x
    o o .
    . . .      two people; x has won
    """
    game = new_game(client, mode="humans")
    for move in ("a3", "a2", "b3", "b2", "c3"):
        last = play(client, game["id"], move).json()
    assert (
        last["result"] == "x" and last["winning_line"] == ["a3", "b3", "c3"] and last["waiting_for"] is None
    )
    response = play(client, game["id"], "c1")
    assert response.status_code == 400 and response.json()["detail"].endswith(": the game is over")
    response = play(client, game["id"])
    assert response.status_code == 400 and "is over" in response.json()["detail"]


def test_a_move_sent_twice_for_the_same_ply_gets_a_409_and_changes_nothing(client: TestClient) -> None:
    """
    . . .
    . x .      x plays b2 at ply 1 and o replies; the same click again (ply 1) is stale
    . . .
    """
    game = new_game(client)
    path = f"/api/games/{game['id']}/moves"
    first = client.post(path, json={"move": "b2", "ply": 1})
    assert first.status_code == 200 and len(first.json()["moves"]) == 2
    again = client.post(path, json={"move": "b2", "ply": 1})
    assert again.status_code == 409
    assert again.json() == {
        "detail": f"move 'b2' was sent for ply 1 of game {game['id']!r}, which is at ply 3 now: reload the game",
        "reason": "the game has moved on: reload the game",
    }
    free = first.json()["legal_moves"][0]
    later = client.post(path, json={"move": free, "ply": 5})
    assert later.status_code == 409
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == first.json()["moves"]
    assert client.post(path, json={"move": free, "ply": 3}).status_code == 200


def test_the_store_refuses_a_move_that_would_leave_a_gap(tmp_path: Any) -> None:
    from inarow.base.errors import StaleMoveError

    store = Store(tmp_path / "games.sqlite3")
    store.create_game("g", "tictactoe", "humans", "medium", None, "x", "you", 1)
    store.add_move("g", 1, "b2", "human", "", None)
    with pytest.raises(StaleMoveError, match="move 3 of game 'g' was already played: reload the game"):
        store.add_move("g", 3, "a1", "human", "", None)
    with pytest.raises(StaleMoveError):
        store.add_move("g", 1, "a1", "human", "", None)
    assert [m.ply for m in store.load("g").moves] == [1]


def test_a_move_for_an_unknown_game_gets_a_404(client: TestClient) -> None:
    response = play(client, "no-such-game", "b2")
    assert response.status_code == 404
    assert response.json()["detail"] == "unknown game 'no-such-game': no game with this id is stored"


def test_a_computer_against_computer_game_plays_one_move_per_request(client: TestClient) -> None:
    game = new_game(client, mode="computers", level="perfect")
    assert game["waiting_for"] == "computer" and game["you"] is None
    for ply in range(1, 10):
        answer = play(client, game["id"]).json()
        assert answer["reply"]["ply"] == ply
        if answer["result"]:
            break
    assert answer["result"] == "draw", "perfect against perfect"
    refused = play(client, game["id"], "b2")
    assert refused.status_code == 400


# ------------------------------------------------------------------------------------- undo and get
def test_undo_takes_back_your_move_and_the_reply(client: TestClient) -> None:
    game = new_game(client)
    play(client, game["id"], "b2")
    after = play(
        client,
        game["id"],
        "a1" if "a1" not in client.get(f"/api/games/{game['id']}").json()["position"] else "c3",
    )
    assert len(after.json()["moves"]) == 4
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert len(undone["moves"]) == 2 and undone["waiting_for"] == "you"
    assert client.get(f"/api/games/{game['id']}").json()["position"] == undone["position"]


def test_undo_when_the_computer_started_keeps_its_first_move(client: TestClient) -> None:
    game = new_game(client, first="computer")
    refused = client.post(f"/api/games/{game['id']}/undo")
    assert refused.status_code == 400
    assert refused.json()["detail"] == f"nothing to undo in game {game['id']!r}: you have not moved yet"
    move = next(m for m in game["legal_moves"])
    play(client, game["id"], move)
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["position"] == game["position"]


def test_undo_after_the_end_reopens_the_game(client: TestClient) -> None:
    game = new_game(client, mode="humans")
    for move in ("a3", "a2", "b3", "b2", "c3"):
        play(client, game["id"], move)
    undone = client.post(f"/api/games/{game['id']}/undo").json()
    assert undone["result"] is None and undone["position"] == "a3 a2 b3 b2"
    assert undone["waiting_for"] == "human" and undone["to_move"] == "x"


def test_undo_with_two_people_and_no_move_is_refused(client: TestClient) -> None:
    game = new_game(client, mode="humans")
    response = client.post(f"/api/games/{game['id']}/undo")
    assert response.status_code == 400 and "no move has been played" in response.json()["detail"]
    assert client.post("/api/games/nope/undo").status_code == 404


def test_get_returns_the_game_as_it_stands_and_404_for_an_unknown_id(client: TestClient) -> None:
    game = new_game(client)
    play(client, game["id"], "b2")
    got = client.get(f"/api/games/{game['id']}").json()
    assert got["id"] == game["id"] and got["moves"][0]["move"] == "b2" and got["reply"] is None
    assert client.get("/api/games/nope").status_code == 404


# ----------------------------------------------------------------------------------- history, review
def test_the_history_lists_games_most_recent_first_with_the_scores(client: TestClient) -> None:
    first = new_game(client, mode="humans")
    for move in ("a3", "a2", "b3", "b2", "c3"):
        play(client, first["id"], move)
    second = new_game(client)
    play(client, second["id"], "b2")
    history = client.get("/api/games").json()
    assert history["total"] == 2
    assert [g["id"] for g in history["games"]] == [second["id"], first["id"]]
    assert history["games"][1]["plies"] == 5 and history["games"][1]["result"] == "x"
    assert history["scores"] == [], "games between two people do not count"
    page = client.get("/api/games", params={"limit": 1, "offset": 1}).json()
    assert [g["id"] for g in page["games"]] == [first["id"]]
    assert client.get("/api/games", params={"limit": 0}).status_code == 422
    assert client.get("/api/games", params={"limit": "many"}).status_code == 422


def test_scores_count_your_wins_draws_and_losses_per_kind_of_game(client: TestClient) -> None:
    """Against easy, with the seed fixed, play the first legal move until the end: a known result."""
    outcomes = []
    for _ in range(3):
        game = new_game(client, level="easy")
        while game["waiting_for"] == "you":
            game = play(client, game["id"], game["legal_moves"][0]).json()
        outcomes.append(game["outcome"])
    scores = client.get("/api/scores").json()
    assert scores == [
        {
            "game": "tictactoe",
            "wins": outcomes.count("win"),
            "draws": outcomes.count("draw"),
            "losses": outcomes.count("loss"),
        }
    ]


def test_the_review_marks_the_move_that_turned_a_draw_into_a_loss(client: TestClient) -> None:
    """
    . . .
    . x .
    . o .      o answered the centre on an edge: x now wins
    """
    game = new_game(client, mode="humans")
    for move in ("b2", "b1"):
        play(client, game["id"], move)
    review = client.get(f"/api/games/{game['id']}/review").json()
    assert review["mistakes"] == 1
    first, second = review["plies"]
    assert (first["move"], first["mistake"], first["description"]) == ("b2", False, "draw")
    assert (second["move"], second["mistake"], second["verdict"]) == ("b1", True, "turned a draw into a loss")
    assert second["before"] == ".../.x./..." and second["best_description"] == "draw"
    assert set(second["best"]) == {"a1", "a3", "c1", "c3"}
    assert len(second["moves"]) == 8
    assert client.get("/api/games/nope/review").status_code == 404


# -------------------------------------------------------------------------------------- the page
def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'data-testid="status"' in page.text
    for path in ("/static/style.css", "/static/js/main.js", "/static/js/board.js", "/static/js/api.js"):
        assert client.get(path).status_code == 200, path
    assert client.get("/static/nope.js").status_code == 404


def test_the_openapi_description_lists_every_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/analyze", "/api/games", "/api/games/{game_id}", "/api/games/{game_id}/moves"} <= set(paths)
    assert {"/api/games/{game_id}/undo", "/api/games/{game_id}/review", "/api/scores"} <= set(paths)
    assert {"/api/explain", "/api/compare", "/api/menus"} <= set(paths)
    assert client.get("/docs").status_code == 200


@pytest.mark.slow
def test_no_request_of_a_thousand_random_ones_gets_a_500(client: TestClient) -> None:
    rng = random.Random(1)
    game = new_game(client, game="5x5", level="easy", mode="humans")
    values: list[Any] = [None, 0, -1, 3.5, "", "b2", "a0", "zz99", "\x00", "é", [], {}, True, "9" * 40, "1x1"]
    keys = ["game", "position", "depth", "time", "move", "reply", "you", "first", "level", "mode", "x"]
    keys += ["algorithm", "evaluation", "x_player", "o_player"]
    routes = [
        ("POST", "/api/analyze"),
        ("POST", "/api/explain"),
        ("POST", "/api/compare"),
        ("POST", "/api/games"),
        ("POST", f"/api/games/{game['id']}/moves"),
        ("POST", f"/api/games/{game['id']}/undo"),
        ("GET", f"/api/games/{game['id']}"),
        ("GET", "/api/games/%00"),
        ("POST", "/api/games/../moves"),
    ]
    for _ in range(1000):
        method, path = rng.choice(routes)
        body = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 3))}
        if rng.random() < 0.1:
            response = client.request(method, path, content=bytes(rng.getrandbits(8) for _ in range(20)))
        else:
            response = client.request(method, path, json=body)
        # A 503 with Retry-After is an answer by design (the workers busy, or the search stopped at the
        # server's cap, which a loaded machine reaches sooner); any other 5xx is a fault.
        designed = response.status_code == 503 and "Retry-After" in response.headers
        assert response.status_code < 500 or designed, (method, path, body, response.text)
        assert "detail" in response.json() or response.status_code < 300


def test_every_route_describes_its_answer_in_the_openapi_schema(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            answers = {
                code: answer for code, answer in operation["responses"].items() if code.startswith("2")
            }
            assert answers, (method, path)
            for answer in answers.values():
                (schema,) = [
                    kind["schema"] for kind in answer["content"].values()
                ]  # JSON, or the board's CSV
                assert schema.get("$ref") or schema.get("type") or schema.get("anyOf"), (method, path, schema)
            errors = {code for code in operation["responses"] if code.startswith("4")}
            assert "403" in errors, (method, path)  # the trust boundary guards every route
            if operation.get("parameters") or operation.get("requestBody"):
                assert "422" in errors, (method, path)
            for code in errors:
                schema = operation["responses"][code]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorAnswer"}, (method, path, code)
