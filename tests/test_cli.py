"""The ``inarow`` command as a user types it: exact output, JSON lines, batches and errors."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from inarow import Game, __version__
from inarow.analysis import solvable
from inarow.cli import app
from inarow.console import ConsoleGame

runner = CliRunner()

JSON_KEYS = {
    "position",
    "to_move",
    "result",
    "exact",
    "value",
    "score",
    "plies",
    "best",
    "pv",
    "moves",
    "nodes",
    "seconds",
}


def test_version_prints_the_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"inarow {__version__}\n"


def test_best_names_the_move_and_why_from_the_side_to_moves_standpoint() -> None:
    """
    x . o
    . x .      x to move: c2 is the only move that does not lose.
    . . o
    """
    assert runner.invoke(app, ["best", "x.o/.x./..o"]).output == "c2 — draw with best play\n"
    assert runner.invoke(app, ["best", "xx./oo./..."]).output == "c3 — wins in 1 move with best play\n"
    assert runner.invoke(app, ["best", "b2 a2"]).output == "b1 — wins in 3 moves with best play\n"


def test_best_on_a_lost_position_says_how_long_it_holds_out() -> None:
    """
    o . .
    . x x      o to move: x threatens a2 and b3 at once, so o loses on x's next move.
    o x .
    """
    assert runner.invoke(app, ["best", "b2 c1 b1 a3 c2"]).output == "a2 — loses in 1 move with best play\n"
    # . . .
    # o . .    x to move must block a3, then o's b2 threatens c2 and c3 at once.
    # o x x
    assert runner.invoke(app, ["best", "b1 a1 c1 a2"]).output == "a3 — loses in 2 moves with best play\n"


def test_analyze_json_prints_one_object_with_every_key() -> None:
    result = runner.invoke(app, ["analyze", "b2 a1 c3", "--json"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert set(data) >= JSON_KEYS
    assert data["position"] == "b2 a1 c3"
    assert (data["to_move"], data["result"], data["exact"], data["value"], data["score"]) == (
        "o",
        None,
        True,
        0,
        0,
    )
    assert data["best"] == ["a3", "c1"]
    assert data["plies"] == 6 and len(data["pv"]) == 6
    assert {m["move"]: m["score"] for m in data["moves"]} == {
        "a2": -2,
        "a3": 0,
        "b1": -2,
        "b3": -2,
        "c1": 0,
        "c2": -2,
    }


def test_analyze_reads_a_batch_from_stdin_and_goes_on_after_a_bad_line() -> None:
    lines = ["", "b2 b2", "xxx/oo./...", "hello", "x.o/.x./..o"]
    result = runner.invoke(app, ["analyze", "--json"], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.output.splitlines()]
    assert [o["position"] for o in out] == lines
    assert out[0]["value"] == 0 and out[0]["plies"] == 9
    assert out[1] == {
        "position": "b2 b2",
        "error": "move 2 of 'b2 b2': illegal move 'b2' in '.../.x./...': cell is taken",
    }
    assert (out[2]["result"], out[2]["to_move"], out[2]["moves"]) == ("x", None, [])
    assert "invalid cell 'hello'" in out[3]["error"]
    assert out[4]["best"] == ["c2"]


def test_analyze_in_text_shows_the_board_the_value_and_every_move() -> None:
    result = runner.invoke(app, ["analyze", "b2 a1 c3"])
    assert result.exit_code == 0
    assert "  3 · · X\n  2 · X ·\n  1 O · ·\n    a b c\n" in result.output
    assert "value   draw with best play  (score +0, exact)" in result.output
    assert "best    a3 c1" in result.output


def test_analyze_with_a_depth_says_the_answer_is_not_exact() -> None:
    result = runner.invoke(app, ["analyze", "", "--game", "4x4", "--depth", "1", "--json"])
    data = json.loads(result.output)
    assert data["exact"] is False and data["value"] is None and data["depth"] == 1


def test_analyze_weak_gives_only_win_draw_or_loss() -> None:
    result = runner.invoke(app, ["analyze", "b1 a1 c1 a2", "--weak", "--json"])
    data = json.loads(result.output)
    assert data["score"] == -1 and data["value"] == -1 and data["plies"] is None
    assert data["exact"] and data["winner"] == "o" and data["outcome"] == "loss"
    assert data["description"] == "o wins with best play"
    assert {m["move"]: m["score"] for m in data["moves"]} == {
        "a3": -1,
        "b2": -1,
        "b3": -1,
        "c2": -1,
        "c3": -1,
    }


def test_a_connect4_position_is_read_from_its_digits() -> None:
    result = runner.invoke(
        app, ["analyze", "--game", "connect4", "--json"], input="2252576253462244111563365343671351441 -1\n"
    )
    assert "error" in json.loads(result.output)
    result = runner.invoke(
        app, ["analyze", "2252576253462244111563365343671351441", "--game", "connect4", "--json"]
    )
    assert json.loads(result.output)["score"] == -1


def test_bad_options_print_an_error_and_exit_2_without_a_traceback() -> None:
    for args, message in [
        (["best", "b2", "--game", "chess"], "error: unknown game 'chess'"),
        (["best", "b2", "--depth", "-3"], "error: invalid depth -3"),
        (["best", "xxx/oo./..."], "error: no move in 'xxx/oo./...': the game is over (x)"),
        (["analyze", "b2", "--time", "0"], "error: invalid time 0"),
        (["best", "q1"], "error: move 1 of 'q1': invalid cell 'q1'"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith(message), (args, result.stderr)
        assert "Traceback" not in result.output + result.stderr


def test_solve_prints_the_counts_of_the_whole_table() -> None:
    result = runner.invoke(app, ["solve"])
    assert result.exit_code == 0
    assert "tictactoe: draw with perfect play (score +0)" in result.output
    for label, count in [
        ("positions reachable (empty board included)", "5,478"),
        ("terminal positions", "958"),
        ("games (move sequences to the end)", "255,168"),
        ("games won by x", "131,184"),
        ("games won by o", "77,904"),
        ("games drawn", "46,080"),
        ("positions up to symmetry", "765"),
        ("games up to symmetry", "26,830"),
    ]:
        assert any(line.split() == [*label.split(), count] for line in result.output.splitlines()), label


def test_solve_on_a_board_too_big_for_a_table_gives_the_value_of_the_empty_board() -> None:
    result = runner.invoke(app, ["solve", "--game", "4x4:3"])
    assert result.exit_code == 0
    assert result.output.startswith("4x4:3: x wins in ")
    assert "whole tables are built for boards of at most 12 cells" in result.output


def test_a_terminal_game_against_perfect_cannot_be_won() -> None:
    moves = "\n".join(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"] * 3)
    result = runner.invoke(
        app,
        ["play", "--you", "x", "--first", "you", "--level", "perfect", "--seed", "1"],
        input=moves + "\nn\n",
    )
    assert result.exit_code == 0
    assert "cell is taken; try again" in result.output
    assert "you win" not in result.output
    assert "you 0 won" in result.output


def test_the_terminal_game_asks_for_what_was_not_given_and_refuses_nonsense() -> None:
    answers = iter(["purple", "o", "computer", "perfect", "9", "hello", "h", "u", "1", "q"])
    printed = Console(record=True, width=100)
    ConsoleGame(Game.parse("tictactoe"), printed, seed=3, read=lambda _: next(answers)).run(None, None, None)
    text = printed.export_text()
    assert "please answer one of x, o" in text
    assert "the computer plays" in text
    assert "invalid cell 'hello'" in text
    assert "hint: " in text
    assert "bye — you 0 won · 0 drawn · 0 lost" in text


def test_keypad_digits_follow_the_numeric_keypad_on_3x3() -> None:
    answers = iter(["7", "q"])
    printed = Console(record=True, width=100)
    game = ConsoleGame(Game.parse("tictactoe"), printed, seed=1, read=lambda _: next(answers))
    game.rng = random.Random(1)
    game.run("x", "you", "easy")
    assert "  3 X" in printed.export_text()


def test_bad_play_options_are_refused() -> None:
    result = runner.invoke(app, ["play", "--level", "genius"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: invalid level 'genius': expected one of easy, medium, hard, perfect"
    )


def test_with_no_limit_a_board_too_big_to_solve_gets_the_default_think_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import inarow.cli

    monkeypatch.setattr(inarow.cli, "BIG_BOARD_TIME", 0.3)
    result = runner.invoke(app, ["best", "h8", "--game", "gomoku"])
    assert result.exit_code == 0
    assert result.output.endswith("not solved within the limits\n")


def test_boards_are_solvable_where_an_exact_search_can_end() -> None:
    assert (
        solvable(Game.parse("tictactoe")) and solvable(Game.parse("connect4")) and solvable(Game.parse("5x5"))
    )
    assert not solvable(Game.parse("gomoku")) and not solvable(Game.parse("9x9:5"))
