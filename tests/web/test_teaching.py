"""The teaching routes (explain, compare, menus) and computer-against-computer games with two chosen
players ("Watch"), with every error they answer; and an old database opened by the new schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from inarow import TreeTooLargeError, parse_position
from inarow.engines import limits
from inarow.teaching.explain import explain_tree
from inarow.values.store import MIGRATIONS, SCHEMA_VERSION, Store
from inarow.web.app import EXPLAIN_MAX_NODES, compare_node_limit


def explain(client: TestClient, **body: Any) -> Any:
    return client.post("/api/explain", json=body)


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """In every test here the searches' clock stands still: only their node and depth limits stop them,
    however busy the machine (a tree of 300 nodes once met the 1.25 s cap with every core busy). The
    think-time cap is tested on its own, with :func:`racing_clock`."""
    monkeypatch.setattr(limits, "clock", lambda: 0.0)


@pytest.fixture
def racing_clock(frozen_clock: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The searches' clock moves a second at every look: every think-time cap runs out at once."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(limits, "clock", lambda: float(next(ticks)))


# --------------------------------------------------------------------------------- POST /api/explain
def test_explain_draws_an_alphabeta_tree_with_its_cutoffs(client: TestClient) -> None:
    """
    . . .
    . x .
    . . .      o to move, two plies of α-β: a1 first, then every other reply is cut off early

    O, the side to move, is MAX unless the body names another side (``max``): the root is a Max node
    with O's values; with ``max: "x"`` it is a Min node with X's. A cut-off node's fail-soft value is a
    bound (``bound``: ≥ at a Max node).
    """
    response = explain(client, position="b2", algorithm="alphabeta", depth=2, evaluation="open-lines")
    assert response.status_code == 200, response.text
    tree = response.json()
    assert (tree["algorithm"], tree["depth"], tree["evaluation"], tree["frame"], tree["max"]) == (
        "alphabeta", 2, "open-lines", "o", "o",
    )  # fmt: skip
    assert tree["nodes_visited"] == len(tree["nodes"]) == 23
    root = tree["nodes"][0]
    assert (root["role"], root["alpha"], root["beta"], root["best"]) == ("max", "-inf", "inf", tree["move"])
    assert all(
        node["bound"] == ("≥" if node["role"] == "max" else "≤") for node in tree["nodes"] if node["cutoff"]
    )
    as_x = explain(client, position="b2", algorithm="alphabeta", depth=2, max="x").json()
    assert (as_x["frame"], as_x["nodes"][0]["role"], as_x["value"]) == ("x", "min", -tree["value"])
    cut = [node for node in tree["nodes"] if node["cutoff"]]
    assert cut and all("≥" in node["reason"] and node["pruned"] for node in cut)
    assert len(tree["pruned_spots"]) == sum(len(node["pruned"]) for node in tree["nodes"])
    assert tree["steps"] == len(tree["events"]) > 2 * len(tree["nodes"])
    assert "svg" not in tree, "the page draws the tree itself"


def test_explain_with_minimax_prunes_nothing_and_visits_every_node(client: TestClient) -> None:
    tree = explain(client, position="b2", algorithm="minimax", depth=2).json()
    assert tree["nodes_visited"] == 1 + 8 + 8 * 7
    assert tree["pruned_spots"] == [] and not any(node["cutoff"] for node in tree["nodes"])
    assert {node["role"] for node in tree["nodes"]} == {"max", "min"}


def test_explain_to_the_end_of_the_game_without_a_depth(client: TestClient) -> None:
    """
    x o x
    . o .
    . . .      x to move must block b1; searched to the end the value is a draw
    """
    tree = explain(client, position="xox/.o./...", algorithm="negamax", depth=None).json()
    assert tree["depth"] == 5 and tree["frame"] == "to_move", "to the end: the five empty cells"
    assert tree["move"] == "b1" and tree["value"] == 0


def test_explain_refuses_bad_input_naming_it(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], int, str]] = [
        (
            {"algorithm": "bogo"},
            400,
            "unknown algorithm 'bogo': expected one of minimax, negamax, alphabeta, alphabeta-hard, "
            "negamax-alphabeta, negamax-alphabeta-hard, pvs",
        ),
        (
            {"evaluation": "vibes"},
            400,
            "unknown evaluation 'vibes': expected one of open-lines, weighted, lines, "
            "weights:W0,W1,…,Wk such as weights:1,1,1,inf, or a function in a file, PATH.py:FUNCTION",
        ),
        ({"depth": 10}, 422, "invalid request: 'depth': Input should be less than or equal to 9"),
        ({"depth": -1}, 422, "invalid request: 'depth': Input should be greater than or equal to 0"),
        (
            {"position": "zz"},
            400,
            "move 1 of 'zz': invalid cell 'zz': expected a cell name from a1 to c3, a key 1-9 as on the "
            "numeric keypad, or row,column from 1,1 at the top left to 3,3 on tictactoe",
        ),
        ({"position": "b2 b2"}, 400, "move 2 of 'b2 b2': illegal move 'b2' in '.../.x./...': cell is taken"),
        ({"game": "9x9:0"}, 400, "game '9x9:0' asks for 0 in a row: k must be from 2 to 9 on a 9x9 board"),
        ({"svg": True}, 422, "invalid request: 'svg': Extra inputs are not permitted"),
    ]
    for body, status, detail in cases:
        response = explain(client, **body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["detail"] == detail, body


def test_explain_draws_a_tree_too_large_to_draw_at_the_deepest_depth_that_fits(client: TestClient) -> None:
    response = explain(client, position="", algorithm="minimax", depth=4)
    assert response.status_code == 200
    tree = response.json()
    assert (tree["asked_depth"], tree["depth"], tree["max_nodes"]) == (4, 3, EXPLAIN_MAX_NODES)
    assert tree["nodes_visited"] == 1 + 9 + 9 * 8 + 9 * 8 * 7 <= EXPLAIN_MAX_NODES


def test_explain_on_gomoku_draws_one_ply_and_says_so_without_a_diagram(client: TestClient) -> None:
    response = explain(client, game="gomoku", position="h8", algorithm="alphabeta", depth=2)
    assert response.status_code == 200
    tree = response.json()
    assert (tree["asked_depth"], tree["depth"]) == (2, 1) and tree["nodes_visited"] == 1 + 224


def test_a_tree_too_large_even_at_one_ply_is_refused_in_a_short_message() -> None:
    with pytest.raises(TreeTooLargeError) as caught:
        explain_tree(parse_position("", "gomoku"), "alphabeta", 2, max_nodes=100, fit=True)
    assert str(caught.value) == (
        "the alphabeta tree to depth 2 of this gomoku position has more than 100 nodes, too many to "
        "draw: lower the depth"
    )


# --------------------------------------------------------------------------------- POST /api/compare
def test_compare_counts_the_nodes_of_every_algorithm_side_by_side(client: TestClient) -> None:
    response = client.post("/api/compare", json={"position": "b2", "depth": 2, "evaluation": "open-lines"})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["max_nodes"] == compare_node_limit(9) == 44_444
    rows = {row["name"]: row for row in answer["rows"]}
    assert list(rows) == [
        "minimax", "negamax", "alphabeta", "alphabeta-hard", "negamax-alphabeta", "negamax-alphabeta-hard",
        "pvs", "alphabeta-ordering",
        "alphabeta-table", "alphabeta-ordering-table", "engine",
    ]  # fmt: skip
    assert rows["minimax"]["nodes"] == 1 + 8 + 8 * 7
    assert rows["alphabeta"]["nodes"] == 23 < rows["minimax"]["nodes"]
    assert rows["minimax"]["value"] == rows["alphabeta"]["value"], "α-β backs up the minimax value"
    assert all(row["complete"] and row["branching"] > 0 for row in rows.values())


@pytest.mark.slow
def test_compare_marks_a_search_the_node_limit_stopped(client: TestClient) -> None:
    rows = client.post("/api/compare", json={"position": "", "depth": None}).json()["rows"]
    minimax = rows[0]
    assert (minimax["name"], minimax["complete"], minimax["branching"]) == ("minimax", False, None)
    assert minimax["nodes"] == compare_node_limit(9)
    assert rows[-1]["complete"] and rows[-1]["value_text"] == "0 (a draw)"


def test_compare_stops_each_search_at_its_share_of_the_think_time(
    client: TestClient, racing_clock: None
) -> None:
    response = client.post("/api/compare", json={"position": "", "depth": None})
    assert response.status_code == 200, response.text
    rows = response.json()["rows"]
    assert len(rows) == 11 and not any(row["complete"] for row in rows)
    assert all(row["nodes"] < compare_node_limit(9) for row in rows)


def test_an_explanation_past_the_think_time_is_a_503_that_says_so(
    client: TestClient, racing_clock: None
) -> None:
    response = explain(client, game="gomoku", position="h8", algorithm="alphabeta", depth=2)
    assert response.status_code == 503
    assert response.json()["detail"].startswith("the search was stopped after 1.25 s, the server's cap")


def test_compare_refuses_a_finished_game_and_bad_names(client: TestClient) -> None:
    over = client.post("/api/compare", json={"position": "a1 b1 a2 b2 a3"})
    assert over.status_code == 400
    assert over.json()["detail"] == "nothing to compare in 'x../xo./xo.': the game is over"
    bad = client.post("/api/compare", json={"evaluation": "vibes"})
    assert bad.status_code == 400 and bad.json()["detail"].startswith("unknown evaluation 'vibes'")
    deep = client.post("/api/compare", json={"depth": 99})
    assert deep.status_code == 422 and "'depth'" in deep.json()["detail"]


def test_the_compare_node_limit_shrinks_on_big_boards() -> None:
    assert compare_node_limit(9) == 44_444
    assert compare_node_limit(42) == 9_523
    assert compare_node_limit(225) == 1_777
    assert compare_node_limit(19 * 19) == 1_108


# ----------------------------------------------------------------------------------- the schema
def test_the_openapi_schema_describes_the_explain_and_compare_answers(client: TestClient) -> None:
    """Every key of a real answer is a property of the schema of its route's 200 response."""
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]

    def properties(path: str) -> dict[str, Any]:
        content = schema["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]
        name = content["schema"]["$ref"].rsplit("/", 1)[-1]
        found: dict[str, Any] = components[name]["properties"]
        return found

    tree = explain(client, position="b2", depth=2).json()
    assert set(properties("/api/explain")) == set(tree)
    node_schema = properties("/api/explain")["nodes"]["items"]["$ref"].rsplit("/", 1)[-1]
    assert set(components[node_schema]["properties"]) == set(tree["nodes"][0])
    comparison = client.post("/api/compare", json={"position": "b2", "depth": 1}).json()
    assert set(properties("/api/compare")) == set(comparison)
    row_schema = properties("/api/compare")["rows"]["items"]["$ref"].rsplit("/", 1)[-1]
    assert set(components[row_schema]["properties"]) == set(comparison["rows"][0])


# ------------------------------------------------------------------------------------ GET /api/menus
def test_menus_list_what_the_other_routes_accept(client: TestClient) -> None:
    menus = client.get("/api/menus").json()
    assert menus["algorithms"] == [
        "minimax", "negamax", "alphabeta", "alphabeta-hard", "negamax-alphabeta", "negamax-alphabeta-hard", "pvs"
    ]  # fmt: skip
    assert menus["evaluations"] == ["open-lines", "weighted", "lines"]
    assert menus["players"] == ["easy", "medium", "hard", "perfect", "random", "rules"]
    assert (menus["max_depth"], menus["explain_max_nodes"]) == (9, EXPLAIN_MAX_NODES)


# ------------------------------------------------------------------------- Watch: two chosen players
def test_two_chosen_players_play_a_whole_game_each_with_its_own_moves(client: TestClient) -> None:
    game = client.post(
        "/api/games", json={"mode": "computers", "x_player": "rules", "o_player": "minimax:2:open-lines"}
    ).json()
    assert game["players"] == {"x": "rules", "o": "minimax:2:open-lines"}
    assert game["waiting_for"] == "computer"
    for _ in range(9):
        answer = client.post(f"/api/games/{game['id']}/moves", json={}).json()
        if answer["result"]:
            break
    assert answer["result"] is not None
    for move in answer["moves"]:
        note = move["note"]
        if move["side"] == "o":
            assert (note["kind"], note["algorithm"], note["depth"]) == ("search", "minimax", 2)
            assert isinstance(note["value"], int) or note["value"] in ("inf", "-inf")
        else:
            assert note["kind"] == "rule"
            assert note["rule"] in ("win", "block", "corner", "centre", "edge", "any cell")
    history = client.get("/api/games").json()["games"]
    assert history[0]["id"] == game["id"]
    assert history[0]["players"] == {"x": "rules", "o": "minimax:2:open-lines"}
    review = client.get(f"/api/games/{game['id']}/review").json()
    assert [p["move"] for p in review["plies"]] == [m["move"] for m in answer["moves"]]


def test_one_side_left_out_is_played_by_the_level(client: TestClient) -> None:
    game = client.post("/api/games", json={"mode": "computers", "level": "perfect", "o_player": "Random"})
    assert game.json()["players"] == {"x": "perfect", "o": "random"}


def test_the_other_modes_say_who_plays_each_side(client: TestClient) -> None:
    against = client.post("/api/games", json={"you": "x", "first": "computer", "level": "easy"}).json()
    assert against["players"] == {"x": "easy", "o": "you"}
    humans = client.post("/api/games", json={"mode": "humans"}).json()
    assert humans["players"] == {"x": "human", "o": "human"}


def test_chosen_players_are_refused_when_unknown_too_slow_or_out_of_place(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        (
            {"mode": "computers", "x_player": "minimax:9"},
            "invalid x_player 'minimax:9': a 9-ply minimax search on tictactoe could visit 986,410 positions "
            "a move, too many to wait for: choose a smaller depth",
        ),
        (
            {"game": "gomoku", "mode": "computers", "o_player": "alphabeta:2:weighted"},
            "invalid o_player 'alphabeta:2:weighted': a 2-ply alphabeta search on gomoku could visit 50,626 "
            "positions a move, too many to wait for: choose a smaller depth",
        ),
        (
            {"mode": "computer", "x_player": "rules"},
            "invalid x_player 'rules': only a computer-against-computer game (mode 'computers') chooses the "
            "players; the level plays against you",
        ),
        (
            {"level": "minimax:8"},
            "invalid level 'minimax:8': a 8-ply minimax search on tictactoe could visit 623,530 positions a "
            "move, too many to wait for: choose a smaller depth",
        ),
    ]
    for body, detail in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, (body, response.text)
        assert response.json()["detail"] == detail
    unknown = client.post("/api/games", json={"mode": "computers", "x_player": "bogus"})
    assert unknown.status_code == 400 and unknown.json()["detail"].startswith("unknown player 'bogus': ")
    assert client.get("/api/games").json()["total"] == 0, "nothing was stored"


# -------------------------------------------------------------------------------------- the schema
def test_a_database_of_the_first_schema_opens_and_its_games_still_play(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0])
    old.execute(
        "INSERT INTO games (id, game, mode, level, human, symbol, first, seed, created, updated, result)"
        " VALUES ('g1', 'tictactoe', 'computers', 'hard', NULL, 'x', 'you', 3, 0, 0, NULL)"
    )
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    store = Store(path)
    try:
        assert store.schema_version == SCHEMA_VERSION == len(MIGRATIONS)
        record = store.load("g1")
        assert (record.level, record.x_player, record.o_player) == ("hard", None, None)
    finally:
        store.close()


def test_explain_deepens_a_depth_at_a_time_each_trying_the_previous_best_first(client: TestClient) -> None:
    response = explain(client, position="b2 a1", algorithm="alphabeta", depth=3, deepen=True)
    assert response.status_code == 200, response.text
    tree = response.json()
    rows = tree["deepening"]
    assert [row["depth"] for row in rows] == [1, 2, 3]
    assert [row["first"] for row in rows] == [None, rows[0]["move"], rows[1]["move"]]
    assert (rows[-1]["move"], rows[-1]["value"], rows[-1]["nodes"]) == (
        tree["move"], tree["value"], tree["nodes_visited"],
    )  # fmt: skip
    assert tree["nodes"][0]["order"] == "previous-best"
    assert explain(client, position="b2 a1").json()["deepening"] == [], "no table unless asked for"


def test_the_exam_route_gives_the_same_printable_sheets_as_the_command_in_the_language_asked(
    client: TestClient,
) -> None:
    """``GET /exam`` is ``inarow exam --format html`` for the web: the same page for the same seeds, in
    Chinese with ``lang=zh``; a count past the limit is a 422 naming the field."""
    from typer.testing import CliRunner

    from inarow.cli import app

    said = CliRunner().invoke(
        app, ["--lang", "zh", "exam", "--format", "html", "--seed", "7", "--count", "2"]
    )
    answer = client.get("/exam", params={"seed": 7, "count": 2, "lang": "zh"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert answer.text == said.stdout and 'data-seed="8"' in answer.text and "姓名" in answer.text
    refused = client.get("/exam", params={"count": 41})
    assert refused.status_code == 422 and "count" in refused.text
