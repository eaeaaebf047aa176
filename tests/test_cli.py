"""The ``inarow`` command as a user types it: exact output, JSON lines, batches and errors."""

from __future__ import annotations

import io
import itertools
import json
import random
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import inarow
from inarow import Game, __version__
from inarow.base.i18n import language
from inarow.cli import app
from inarow.cli.console import ConsoleGame
from inarow.cli.output import BIG_BOARD_TIME, limits_for
from inarow.engines.limits import Limits
from inarow.engines.policy import solvable

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


def test_the_version_is_the_installed_distribution_s_as_pyproject_says() -> None:
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert __version__ == project["project"]["version"]


PUBLIC_NAMES = [
    "LEVELS",
    "Analysis",
    "BookError",
    "Choice",
    "EvaluationCodeError",
    "Game",
    "IllegalMoveError",
    "InarowError",
    "InvalidGameError",
    "InvalidLimitError",
    "InvalidMatchError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Limits",
    "MoveValue",
    "Position",
    "ServerBusyError",
    "SessionError",
    "StaleMoveError",
    "StoppedError",
    "StoreError",
    "TreeTooLargeError",
    "UnknownAlgorithmError",
    "UnknownEvaluationError",
    "UnknownExampleError",
    "UnknownGameError",
    "UnknownPlayerError",
    "__version__",
    "analyze",
    "describe",
    "format_moves",
    "load_engine",
    "parse_game",
    "parse_moves",
    "parse_position",
    "player",
]
"""What ``import inarow`` offers (a contract: a name leaves only with a deprecation)."""


def test_every_public_name_is_listed_and_importable_from_inarow_and_no_other() -> None:
    assert sorted(inarow.__all__) == sorted(PUBLIC_NAMES)
    for name in PUBLIC_NAMES:
        assert getattr(inarow, name) is not None, name
    assert set(PUBLIC_NAMES) <= set(dir(inarow))
    with pytest.raises(AttributeError, match="no attribute 'Solver'"):
        _ = inarow.Solver
    everything: dict[str, Any] = {}
    exec("from inarow import *", everything)
    assert everything["parse_position"] is inarow.parse_position
    assert everything["InarowError"].__module__ == "inarow.base.errors"


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
    lines = ["b2 b2", "xxx/oo./...", "hello", "x.o/.x./..o"]
    result = runner.invoke(app, ["analyze", "--json"], input="\n".join(lines) + "\n")
    assert result.exit_code == 2  # bad input, as on every command; the batch went on
    out = [json.loads(line) for line in result.output.splitlines()]
    assert [o["position"] for o in out] == lines
    assert out[0] == {
        "position": "b2 b2",
        "error": "move 2 of 'b2 b2': illegal move 'b2' in '.../.x./...': cell is taken",
    }
    assert (out[1]["result"], out[1]["to_move"], out[1]["moves"]) == ("x", None, [])
    assert "invalid cell 'hello'" in out[2]["error"]
    assert out[3]["best"] == ["c2"]


def test_blank_lines_of_a_batch_are_skipped_not_read_as_the_empty_board() -> None:
    """A blank line (or one of spaces) between positions, or at the end, asks for nothing: on Connect
    Four it used to start a solve of the empty board that ran for minutes."""
    result = runner.invoke(app, ["analyze", "--json"], input="\nb2 a1 c3\n   \n\nx.o/.x./..o\n\n")
    assert result.exit_code == 0
    assert [json.loads(line)["position"] for line in result.output.splitlines()] == [
        "b2 a1 c3",
        "x.o/.x./..o",
    ]


def test_the_empty_board_is_still_analyzed_when_given_as_an_argument() -> None:
    data = json.loads(runner.invoke(app, ["analyze", "", "--json"]).output)
    assert (data["position"], data["value"], data["plies"]) == ("", 0, 9)


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
    # x holds a1 and a2, so o has blocked on a3, which x then tries.
    assert "a3 is taken: choose an empty cell" in result.output
    assert "you (X) win" not in result.output
    assert "you 0 won" in result.output


def play_in_terminal(game: str, answers: list[str], you: str | None = None, level: str | None = None) -> str:
    """What the terminal game prints (the prompts left out) when the player types ``answers``."""
    typed = iter(answers)
    printed = Console(record=True, width=200)
    ConsoleGame(Game.parse(game), printed, seed=3, read=lambda _: next(typed)).run(you, "you", level)
    return printed.export_text()


def test_the_terminal_game_asks_for_what_was_not_given_and_refuses_nonsense() -> None:
    answers = iter(["purple", "o", "computer", "perfect", "9", "hello", "h", "u", "1", "q"])
    printed = Console(record=True, width=100)
    ConsoleGame(Game.parse("tictactoe"), printed, seed=3, read=lambda _: next(answers)).run(None, None, None)
    text = printed.export_text()
    assert "please answer one of x, o" in text
    assert "the computer plays" in text
    assert "'hello' is not a cell: type a cell from a1 to c3\n" in text
    assert "hint: " in text
    assert "bye — you 0 won · 0 drawn · 0 lost" in text


def test_a_taken_cell_is_named_with_why_and_no_diagram() -> None:
    """
    . . .
    . X .     the player's b2, then b2 again: the message names the cell, not the board's diagram.
    O . .     (the computer answers a1 or another corner)
    """
    text = play_in_terminal("tictactoe", ["b2", "b2", "q"], you="x", level="perfect")
    assert "\nb2 is taken: choose an empty cell\n" in text
    assert "/" not in text.split("b2 is taken")[1].splitlines()[0]


def test_an_empty_line_at_the_prompt_asks_again_without_an_error() -> None:
    text = play_in_terminal("tictactoe", ["", "   ", "q"], you="x", level="perfect")
    assert text.endswith("    a b c\n\nbye — you 0 won · 0 drawn · 0 lost\n")
    assert "error" not in text and "invalid" not in text


def test_the_connect_four_prompt_asks_for_a_column_and_refuses_a_cell_saying_so() -> None:
    """
    . . . . . . .
    . . . . . . .    6 rows; column 4 filled to the top by the moves below, then 4 once more.
    """
    text = play_in_terminal("connect4", ["b2", "4", "4", "4", "4", "9", "q"], you="x", level="medium")
    assert (
        "Connect Four, level medium.\nYour move: a column number from 1 to 7; h for a hint, u to undo, q to quit.\n"
        in text
    )
    assert "cell" not in text
    assert "\n'b2' is not a column: type a number from 1 to 7\n" in text
    assert "\n'9' is not a column: type a number from 1 to 7\n" in text


def test_a_full_column_is_named() -> None:
    text = play_in_terminal("3x2:3:gravity", ["1", "1", "1", "q"], you="x", level="medium")
    assert "\ncolumn 1 is full: choose another column\n" in text


def test_the_tictactoe_prompt_names_the_cells_and_the_keypad() -> None:
    text = play_in_terminal("tictactoe", ["q"], you="x", level="easy")
    assert text.startswith(
        "Tic-tac-toe, level easy.\n"
        "Your move: a cell from a1 to c3, or 1-9 as on the numeric keypad; h for a hint, u to undo, q to quit.\n"
    )


def test_the_winner_is_named_with_the_mark_the_board_draws() -> None:
    """The player (X) types every cell in board order, twice over; perfect O wins or draws each game, and
    the verdict names O with the capital the board draws, never a lower-case "o wins"."""
    text = play_in_terminal(
        "tictactoe",
        [*["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] * 2, "n"],
        you="x",
        level="perfect",
    )
    verdicts = [
        line for line in text.splitlines() if line.startswith(("the computer (", "you (")) or line == "draw"
    ]
    assert verdicts and all(line in ("the computer (O) wins", "draw") for line in verdicts)
    assert "o wins" not in text


def test_level_medium_explains_its_move_without_engine_figures() -> None:
    text = play_in_terminal("tictactoe", ["b2", "q"], you="x", level="medium")
    plays = [line for line in text.splitlines() if line.startswith("the computer plays")]
    assert plays and all("looking 2 moves ahead" in line for line in plays)
    assert "evaluation" not in text and "depth" not in text and "not solved" not in text


def test_the_computer_s_note_is_said_in_a_player_s_words() -> None:
    from inarow.words import phrases

    assert (
        phrases.computer_note(outcome=None, plies=None, depth=2, score=-9, exact=False)
        == "looking 2 moves ahead, it thinks you stand better"
    )
    assert (
        phrases.computer_note(outcome=None, plies=None, depth=2, score=4, exact=False)
        == "looking 2 moves ahead, it thinks it stands better"
    )
    assert (
        phrases.computer_note(outcome=None, plies=None, depth=2, score=0, exact=False)
        == "looking 2 moves ahead, the game looks even"
    )
    assert phrases.computer_note(outcome="win", plies=3, depth=None, score=4, exact=True) == (
        "it wins in 2 moves with best play"
    )
    assert (
        phrases.computer_note(outcome="draw", plies=6, depth=None, score=0, exact=True)
        == "a draw with best play"
    )


def test_a_one_by_one_board_is_refused_with_a_sensible_message() -> None:
    result = runner.invoke(app, ["best", "", "--game", "1x1"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: game '1x1' is too small: a board needs at least 2 cells in a row, so that a line of 2 can be "
        "made\n"
    )


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


def test_with_no_limit_a_board_too_big_to_solve_gets_the_default_think_time() -> None:
    gomoku, connect4 = Game.parse("gomoku"), Game.parse("connect4")
    assert limits_for(None, None, None, gomoku, big_board_time=0.3) == Limits(time=0.3)
    assert limits_for(None, None, None, gomoku) == Limits(time=BIG_BOARD_TIME)
    assert limits_for(2, None, None, gomoku, big_board_time=0.3) == Limits(depth=2)
    assert limits_for(None, None, None, connect4, big_board_time=0.3) == Limits()
    assert limits_for(None, None, None, None, big_board_time=0.3) == Limits()


def test_a_search_of_a_board_too_big_to_solve_stopped_by_its_time_says_it_was_not_solved() -> None:
    result = runner.invoke(app, ["best", "h8", "--game", "gomoku", "--time", "0.3"])
    assert result.exit_code == 0
    assert result.output.endswith("not solved within the limits\n")


def test_boards_are_solvable_where_an_exact_search_can_end() -> None:
    assert (
        solvable(Game.parse("tictactoe")) and solvable(Game.parse("connect4")) and solvable(Game.parse("5x5"))
    )
    assert not solvable(Game.parse("gomoku")) and not solvable(Game.parse("9x9:5"))


def test_weak_answers_are_exact_only_when_solved_and_say_so_alike_in_text_and_json() -> None:
    """--weak proves win, draw or loss only: exact, with a value and an outcome, no plies, and a
    description that never says "not solved"; the text says the same phrases."""
    positions = ["b1 a1 c1 a2", "b2 a1 c3", "x.o/.x./..o", "xx./oo./..."]
    lines = runner.invoke(app, ["analyze", "--weak", "--json", *positions]).output.splitlines()
    text = runner.invoke(app, ["analyze", "--weak", *positions]).output
    for line in lines:
        data = json.loads(line)
        assert data["exact"] is True and data["value"] in (-1, 0, 1) and data["outcome"] is not None
        assert data["plies"] is None and data["score"] == data["value"]
        assert "not solved" not in data["description"]
        assert all(m["exact"] and m["plies"] is None and m["score"] in (-1, 0, 1) for m in data["moves"])
        assert f"value   {data['description']}  (score {data['score']:+d}, exact, win/draw/loss only)" in text


def test_a_depth_limited_weak_answer_is_not_exact_and_says_so() -> None:
    data = json.loads(
        runner.invoke(app, ["analyze", "", "--game", "4x4", "--weak", "--depth", "1", "--json"]).output
    )
    assert (data["exact"], data["value"], data["outcome"]) == (False, None, None)
    assert data["description"] == f"not solved: evaluation {data['score']:+d} at depth 1"


def test_text_and_json_say_the_same_of_every_position() -> None:
    for args in (["b2 a1 c3"], ["xx./oo./..."], ["", "--game", "4x4", "--depth", "2"], ["xxx/oo./..."]):
        data = json.loads(runner.invoke(app, ["analyze", *args, "--json"]).output)
        text = runner.invoke(app, ["analyze", *args]).output
        assert data["description"] in text
        if data["result"] is None:
            assert f"best    {' '.join(data['best'])}\n" in text
            assert f"(score {data['score']:+d}, {'exact' if data['exact'] else 'not exact'})" in text


GOMOKU_WIN_IN_ONE = "h8 h9 g8 h10 f8 h11 o15 h12 e8"
"""
   . . . . . .
   . . . . . .   13      o to move: o's four on h9-h12 is open at h13 (h8 is x's),
   . . . O . .   12      and x's four on e8-h8 cannot be finished first.
   . . . O . .   11
   . . . O . .   10
   . . . O . .    9
   X X X X . .    8
   e f g h i j
"""


def test_a_win_in_one_on_gomoku_is_exact() -> None:
    assert runner.invoke(app, ["best", GOMOKU_WIN_IN_ONE, "--game", "gomoku"]).output == (
        "h13 — wins in 1 move with best play\n"
    )
    data = json.loads(runner.invoke(app, ["analyze", GOMOKU_WIN_IN_ONE, "--game", "gomoku", "--json"]).output)
    assert (data["exact"], data["value"], data["outcome"], data["plies"], data["winner"]) == (
        True,
        1,
        "win",
        1,
        "o",
    )
    assert data["best"] == ["h13"] and data["description"] == "white wins in 1 move" and data["depth"] is None


def test_a_loss_in_one_on_gomoku_is_exact() -> None:
    """
    . . . . . . . .
    . . . . . . . O   12      o has h9-h12 open at both ends (h8 and h13):
    . . . . . . . O   11      whatever x plays, o completes five.
    . . . . . . . O   10
    . . . . . . . O    9
    X . X . X . X .    1
    a b c d e f g h
    """
    data = json.loads(
        runner.invoke(app, ["analyze", "a1 h9 c1 h10 e1 h11 g1 h12", "--game", "gomoku", "--json"]).output
    )
    assert (data["exact"], data["value"], data["outcome"], data["plies"], data["winner"]) == (
        True,
        -1,
        "loss",
        2,
        "o",
    )
    assert all(m["outcome"] == "loss" and m["plies"] == 2 for m in data["moves"])
    assert data["pv"][1] in ("h8", "h13")


def test_loading_is_reported_apart_from_search_time() -> None:
    data = json.loads(runner.invoke(app, ["analyze", "b2 a1 c3", "--json"]).output)
    assert data["load_seconds"] == 0.0 and data["seconds"] >= 0.0
    text = runner.invoke(app, ["analyze", "b2 a1 c3"]).output
    assert f"nodes   {data['nodes']:,} positions in " in text and "load" not in text


def test_best_on_3x3_does_not_import_numba() -> None:
    """The pure-Python engine answers 3×3 in milliseconds; numba (and numpy) are for bigger boards."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "inarow", "best", "x.o/.x./..o"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout == "c2 — draw with best play\n"
    imported = {line.split("|")[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "inarow.engines.policy" in imported
    assert not {"numba", "numpy", "inarow.engines.exact.compiled"} & imported


def test_help_has_no_type_placeholders_and_no_paragraph_broken_mid_sentence() -> None:
    verbs = ["analyze", "best", "solve", "play", "warm-up", "serve", "tree", "compare", "match"]
    for verb in ["", *verbs]:
        text = runner.invoke(app, [verb, "--help"] if verb else ["--help"], terminal_width=100).output
        assert "<" not in text and "{" not in text.splitlines()[0], verb
    text = runner.invoke(app, ["analyze", "--help"]).output
    assert "Usage: root analyze [OPTIONS] [POSITION]..." in text
    description = text.split("\n\n")[1:4]
    assert " ".join(description[1].split()).startswith(
        "With --algo, a textbook search (minimax, negamax, alphabeta, alphabeta-hard, negamax-alphabeta, "
        "negamax-alphabeta-hard, pvs) --depth plies deep (to the end without --depth) with"
    )
    for paragraph in description:
        lines = paragraph.splitlines()
        assert all(len(line) > 60 for line in lines[:-1]), paragraph


def test_solve_prints_its_table_aligned_with_nothing_before_it_and_nothing_on_stderr() -> None:
    result = runner.invoke(app, ["solve"])
    lines = result.output.splitlines()
    assert lines[0] == "tictactoe: draw with perfect play (score +0)"
    assert len({len(line) for line in lines[1:]}) == 1, "the counts end in one column"
    assert lines[1].startswith("positions reachable (empty board included)") and lines[1].endswith(" 5,478")
    assert result.stderr == ""


def test_match_prints_nothing_before_its_results_when_piped() -> None:
    result = runner.invoke(app, ["match", "random", "rules", "--games", "2", "--seed", "1"])
    assert result.output.startswith("random against rules on tictactoe: 2 games (seed 1)\n")
    assert result.stderr == ""


def test_a_bad_memory_limit_is_refused() -> None:
    result = runner.invoke(app, ["--memory", "0", "best", "b2"])
    assert result.exit_code == 2
    assert result.stderr == "error: invalid memory 0.0: expected a positive number of megabytes\n"


def test_the_cli_defaults_are_the_library_s() -> None:
    import inarow.cli.output
    import inarow.cli.teaching
    from inarow.teaching.explain import COMPARE_MAX_NODES, MAX_TREE_NODES

    assert (inarow.cli.teaching.COMPARE_MAX_NODES, inarow.cli.teaching.MAX_TREE_NODES) == (
        COMPARE_MAX_NODES,
        MAX_TREE_NODES,
    )


def test_on_a_terminal_long_work_shows_its_progress_on_standard_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same commands as above, with standard error a terminal: the bar or spinner goes there (and is
    wiped when the work ends), the answers to standard output unchanged."""
    import io

    import inarow.cli.output
    import inarow.cli.teaching

    screen = io.StringIO()
    monkeypatch.setattr(inarow.cli.output, "err", Console(file=screen, force_terminal=True, width=100))
    result = runner.invoke(app, ["solve"])
    assert result.output.startswith("tictactoe: draw with perfect play (score +0)\n")
    assert "solving tictactoe" in screen.getvalue()
    result = runner.invoke(app, ["analyze", "--json"], input="b2\n\nb2 a1\n")
    assert [json.loads(line)["position"] for line in result.output.splitlines()] == ["b2", "b2 a1"]
    assert "analyzing b2 a1 (tictactoe)" in screen.getvalue()


def test_first_o_lets_o_begin_in_every_verb() -> None:
    """
    o . .      O moved first (a3) and X answered in the centre: O has one more stone, as it may when it
    . x .      began; the same diagram is impossible when X begins.
    o . .
    """
    diagram = "o../.x./o.."
    refused = runner.invoke(app, ["best", diagram])
    assert (
        refused.exit_code == 2 and "x moves first, so x has as many stones as o or one more" in refused.output
    )
    answer = json.loads(runner.invoke(app, ["analyze", diagram, "--first", "o", "--json"]).output)
    assert (answer["game"], answer["to_move"]) == ("tictactoe:o-first", "x")
    assert answer["best"] == ["a2"], "x must block the column at once"
    assert runner.invoke(app, ["best", diagram, "--first", "o"]).output.startswith("a2 — ")
    assert runner.invoke(app, ["best", diagram, "--game", "tictactoe:o-first"]).output.startswith("a2 — ")
    solved = runner.invoke(app, ["solve", "--first", "o"]).output
    assert solved.startswith("tictactoe:o-first: draw with perfect play")
    assert ["games", "won", "by", "o", "131,184"] in [line.split() for line in solved.splitlines()]
    tree = runner.invoke(app, ["tree", "o../.x./...", "--first", "o", "-d", "1"]).output
    assert tree.startswith(
        "alphabeta, depth 1, open-lines evaluation on 'o../.x./...' (tictactoe:o-first, o to move)"
    )
    bad = runner.invoke(app, ["best", "", "--first", "z"])
    assert bad.exit_code == 2 and bad.output == "error: invalid first side 'z': expected x or o\n"


def test_in_an_o_first_game_the_player_who_starts_plays_o() -> None:
    answers = "\n".join(["x", "you", "easy", "q"]) + "\n"
    played = runner.invoke(app, ["play", "--game", "tictactoe:o-first", "--seed", "1"], input=answers)
    assert played.exit_code == 0
    assert "(you play O: O moves first)" in played.output
    assert "Tic-tac-toe, O moves first, level easy." in played.output


def test_warm_up_loads_the_compiled_engines_once_connect_four_then_gomoku() -> None:
    first = runner.invoke(app, ["warm-up"])
    assert first.exit_code == 0
    # Not on a terminal, each load that starts says so on a line of its own (or it was loaded before).
    lines = [line for line in first.output.splitlines() if not line.endswith("…")]
    starts = [line for line in first.output.splitlines() if line.endswith("…")]
    assert len(lines) == 2 and "engine" in lines[0] and "Gomoku search" in lines[1], lines
    assert all(line.startswith(("compiling ", "loading ")) for line in starts), starts
    again = runner.invoke(app, ["warm-up"])
    assert (
        again.output
        == "the compiled engine was already loaded\nthe compiled Gomoku search was already loaded\n"
    )


@pytest.mark.parametrize(
    ("typed", "ascii"),
    [("５", "5"), ("（2，2）", "(2,2)"), ("２，２", "2,2"), ("ｂ２　ａ１", "b2 a1"), ("b2、a1", "b2 a1")],
)
def test_best_reads_a_position_as_a_chinese_input_method_types_it(typed: str, ascii: str) -> None:
    """Full-width digits, letters, commas, brackets and spaces, and the ideographic comma 、, read as their
    ASCII forms."""
    said = runner.invoke(app, ["best", typed])
    assert said.exit_code == 0, said.output
    assert said.output == runner.invoke(app, ["best", ascii]).output


@pytest.mark.parametrize("typed", ["٥", "(٢,٢)", "b²", "۵"])
def test_best_refuses_digits_other_than_0_to_9_with_a_clear_error(typed: str) -> None:
    said = runner.invoke(app, ["best", typed])
    assert said.exit_code == 2
    assert said.output.startswith("error: invalid digit ")
    assert "write numbers with the digits 0-9" in said.output
    assert "Traceback" not in said.output


def test_q_at_another_game_is_no() -> None:
    """The player (x) types the cells in board order, over and over, until the game ends; then q."""
    cells = itertools.cycle(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"])
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return "q" if prompt.startswith("Another game?") else next(cells)

    printed = Console(record=True, width=200)
    ConsoleGame(Game.parse("tictactoe"), printed, seed=3, read=read).run("x", "you", "perfect")
    assert [prompt for prompt in asked if prompt.startswith("Another")] == ["Another game? [yes/no] (yes) "]
    assert "please answer" not in printed.export_text()


def test_in_chinese_the_questions_show_their_choices_in_chinese_and_take_answers_in_both() -> None:
    answers = iter(["o", "电脑", "hard", "q"])
    printed = Console(record=True, width=200)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    with language("zh_CN"):
        ConsoleGame(Game.parse("tictactoe"), printed, seed=3, read=read).run(None, None, None)
    assert prompts[:3] == [
        "你执 [x/o] (x) ",
        "谁先走 [你/电脑/随机] (你) ",
        "难度 [简单/中等/困难/完美] (完美) ",
    ]
    assert "井字棋，难度 困难。" in printed.export_text()


def test_in_chinese_a_refused_answer_lists_the_choices_with_the_chinese_list_separator() -> None:
    answers = iter(["purple", "x", "q"])
    printed = Console(record=True, width=200)
    with language("zh_CN"):
        ConsoleGame(Game.parse("tictactoe"), printed, seed=3, read=lambda _: next(answers)).run(
            None, "you", "easy"
        )
    assert "请回答以下之一：x、o" in printed.export_text()


def test_the_connect_four_hint_is_proven_where_perfect_play_is_known() -> None:
    """After 4 and perfect o's reply the hint comes from level perfect's decision (books or weak searches),
    so it names a proven value instead of "not certain"."""
    text = play_in_terminal("connect4", ["4", "h", "q"], you="x", level="perfect")
    hints = [line for line in text.splitlines() if line.startswith("hint: ")]
    assert hints and "not certain" not in hints[0]
    assert "with best play" in hints[0]


def test_warm_up_says_each_compiled_engine_once_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal, the first warm-up (numba compiling both engines) says "compiled …" once per engine:
    the spinner goes, only warm-up's own line stays."""
    import inarow.cli.output
    import inarow.engines.policy
    from inarow.engines import compiling
    from inarow.engines.gomoku import driver

    terminal = Console(record=True, force_terminal=True, width=200)
    monkeypatch.setattr(inarow.cli.output, "err", terminal)

    def load_engine(loading: Any, game: Any = None) -> float:
        with loading(True):
            return 9.5

    monkeypatch.setattr(inarow.engines.policy, "load_engine", load_engine)
    monkeypatch.setattr(driver, "warm_up", lambda: 8.5)
    monkeypatch.setattr(driver, "_warm", [])  # not loaded yet in this process, as in a fresh one
    monkeypatch.setattr(compiling, "gomoku_unit", lambda: compiling.Unit("never-compiled", ""))
    said = runner.invoke(app, ["warm-up"])
    assert said.exit_code == 0, said.output
    everything = said.output + terminal.export_text()
    assert everything.count("compiled the search engine in ") == 1, everything
    assert "compiled the search engine in 9.5 s" in everything
    assert everything.count("compiled the Gomoku search in 8.5 s") == 1, everything


def test_a_gomoku_analysis_right_after_an_install_compiles_the_search_first_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled Gomoku search never compiled nor loaded: a one-shot ``inarow analyze`` loads it first
    (compiling it, with its line on a terminal), counted as ``load_seconds``, and then answers with the
    α-β search, rather than with the static order at depth 0 while it compiles elsewhere."""
    import inarow.cli.output
    from inarow.engines import compiling
    from inarow.engines.gomoku import driver

    terminal = Console(file=io.StringIO(), record=True, force_terminal=True, width=200)
    monkeypatch.setattr(inarow.cli.output, "err", terminal)
    monkeypatch.setattr(compiling, "gomoku_unit", lambda: compiling.Unit("never-compiled", ""))
    monkeypatch.setattr(driver, "_warm", [])

    def warm_up() -> float:  # what the real one says, without the minute of compiling
        if driver._warm:
            return 0.0
        driver._warm.append(7.5)
        return 7.5

    monkeypatch.setattr(driver, "warm_up", warm_up)
    said = runner.invoke(app, ["analyze", "h8 h9 i8", "--game", "gomoku", "--nodes", "20000", "--json"])
    assert said.exit_code == 0, said.output
    data = json.loads(said.stdout)
    assert data["load_seconds"] == 7.5
    assert data["depth"] >= 2 and data["nodes"] > 1000, (data["depth"], data["nodes"])
    assert terminal.export_text().count("compiled the search engine in ") == 1


def test_analyze_refuses_an_evaluation_without_a_textbook_search_instead_of_ignoring_it() -> None:
    said = runner.invoke(app, ["analyze", "b2", "--eval", "weights:1,2"])
    assert said.exit_code == 2
    assert said.stderr.startswith("error: --eval 'weights:1,2' is used only with --algo")


def test_analyze_without_a_position_on_a_terminal_says_it_reads_standard_input_before_any_spinner() -> None:
    """In a pseudo-terminal: the first thing on the screen is what the command waits for, not a spinner."""
    import os
    import select
    import subprocess
    import sys

    leader, follower = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LANG": "C.UTF-8"}
    command = [sys.executable, "-m", "inarow", "analyze"]
    waiting = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    screen = b""
    try:
        while b"\n" not in screen:
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, f"nothing on the screen after a minute: {screen!r}"
            screen += os.read(leader, 4096)
    finally:
        waiting.kill()
        waiting.wait()
        os.close(leader)
    first = screen.decode("utf-8", errors="replace").splitlines()[0]
    assert first == "reading positions from standard input, one a line (Ctrl-D ends)…"


@pytest.mark.parametrize(
    ("args", "english", "chinese"),
    [
        (
            ["best", "--dpth", "2", "b2"],
            "no such option: --dpth (did you mean --depth?)",
            "没有这个选项：--dpth",
        ),
        (["best"], "missing 'POSITION'", "缺少 'POSITION'"),
        (
            ["best", "--depth", "x", "b2"],
            "invalid value for '--depth' / '-d': 'x' is not a whole number",
            "的值无效",
        ),
        (["bogus"], "no such command: bogus", "没有这个命令：bogus"),
    ],
)
def test_a_command_line_typer_cannot_read_is_said_as_inarow_says_its_errors_in_the_command_s_language(
    args: list[str], english: str, chinese: str
) -> None:
    """Read through typer's public exception classes (``typer.BadParameter`` and its base): the usage, where
    to look, ``error: …``, status 2, in English and in Chinese."""
    said = runner.invoke(app, args, env={"LANG": "C", "LANGUAGE": ""}, prog_name="inarow")
    assert said.exit_code == 2
    assert said.output.startswith("Usage: inarow ")
    assert said.output.endswith(f"--help' for help.\n\nerror: {english}\n")
    chinese_said = runner.invoke(app, ["--lang", "zh", *args], prog_name="inarow")
    assert chinese_said.exit_code == 2
    assert chinese_said.output.startswith("用法：inarow ")
    assert "错误：" in chinese_said.output and chinese in chinese_said.output


def test_on_a_typer_without_the_internals_of_the_quick_reading_commands_read_their_values_through_typer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The quick reading (``cli/app.py``, typer's one private API inarow uses) is an optimisation: without
    it, the same answers, and a bad value is still an ``error: …`` line with status 2 (in typer's words)."""
    quick = runner.invoke(app, ["best", "--depth", "3", "b2 a1 c3"], env={"LANG": "C", "LANGUAGE": ""})
    monkeypatch.setattr(sys.modules["inarow.cli.app"], "_reader_class", lambda: None)
    plain = runner.invoke(app, ["best", "--depth", "3", "b2 a1 c3"], env={"LANG": "C", "LANGUAGE": ""})
    assert (plain.exit_code, plain.output) == (quick.exit_code, quick.output) == (0, quick.output)
    bad = runner.invoke(app, ["best", "--depth", "x", "b2"], env={"LANG": "C", "LANGUAGE": ""})
    assert bad.exit_code == 2
    assert "\nerror: invalid value for '--depth' / '-d': " in bad.output
    assert "is not a whole number" not in bad.output


def test_the_help_lists_each_command_with_its_first_sentence_whole() -> None:
    """A full stop inside a file name (``mine.py``) once ended ``example``'s summary at "mine"."""
    for lang in ("en", "zh"):
        listed = " ".join(runner.invoke(app, ["--lang", lang, "--help"]).output.split())
        assert "mine.py:e" in listed and "mine.py:alphabeta" in listed, lang
