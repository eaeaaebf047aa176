"""``inarow best --algo A --depth D --eval E``: the move a textbook search chooses for the side to move
(Max), with the value it backs up, as the search itself returns them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from inarow.cli import app
from inarow.engines.textbook import ALGORITHMS, search
from inarow.rules.notation import parse_position

runner = CliRunner()
EXAMPLE = (
    Path(__file__).resolve().parents[1] / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py"
)
TEXTBOOK = "weights:1,1,1,inf"


def best(*args: str) -> str:
    result = runner.invoke(app, ["--lang", "en", "best", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_best_with_alphabeta_at_depth_2_from_the_empty_board_is_b2_worth_one_for_x() -> None:
    assert best("", "--algo", "alphabeta", "--depth", "2", "--eval", TEXTBOOK) == (
        "b2 — +1 for X (Max) by alphabeta at depth 2 with weights:1,1,1,inf, 36 nodes\n"
    )


def test_best_with_the_students_file_says_what_the_weights_say() -> None:
    mine = best("", "--algo", "minimax", "--depth", "2", "--eval", f"{EXAMPLE}:e")
    assert mine == f"b2 — +1 for X (Max) by minimax at depth 2 with {EXAMPLE}:e, 82 nodes\n"
    assert mine.replace(f"{EXAMPLE}:e", TEXTBOOK) == best(
        "", "--algo", "minimax", "--depth", "2", "--eval", TEXTBOOK
    )


@pytest.mark.parametrize("algo", ALGORITHMS)
@pytest.mark.parametrize("moves", ["b2", "b2 a1", "a1 b2 c3"])
def test_best_takes_the_standpoint_of_the_side_to_move_with_every_algorithm(algo: str, moves: str) -> None:
    """X . .          after b2 O is Max, after b2 a1 X again: the move and value are the search's own,
    . X .          from the side to move's standpoint (mover_value), whatever the algorithm's frame
    . . .
    """
    position = parse_position(moves)
    result = search(position, algo, 3, TEXTBOOK, record=False)
    value = {1: "+1", 0: "0", -1: "−1"}.get(int(result.mover_value), f"{int(result.mover_value):+d}")
    side = position.to_move.upper() if position.to_move else "?"
    said = best(moves, "--algo", algo, "--depth", "3", "--eval", TEXTBOOK)
    assert said.startswith(f"{result.move_name} — {value} for {side} (Max) by {result.algorithm} at depth 3 ")
    assert said.endswith(f", {result.nodes:,} nodes\n")


def test_best_without_depth_searches_to_the_end_and_finds_the_draw() -> None:
    assert best("b2", "--algo", "alphabeta-soft").startswith("a1 — 0 for O (Max) by alphabeta to the end")


def test_best_speaks_chinese() -> None:
    result = runner.invoke(app, ["--lang", "zh", "best", "", "--algo", "alphabeta", "--depth", "2"])
    assert result.stdout == "b2 — X（极大方）的值为 +1：alphabeta 搜索 2 层，估价函数 open-lines，36 个节点\n"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--eval", TEXTBOOK], "error: --eval 'weights:1,1,1,inf' is used only with --algo"),
        (["--algo", "nope"], "error: unknown algorithm 'nope'"),
        (["--algo", "minimax", "--depth", "9", "--nodes", "100"],
         "error: the minimax search of '.../.../...' was stopped by the limits after 100 nodes"),
        (["--algo", "minimax", "--eval", "no/such.py:e"], "error: cannot read the evaluation file 'no/such.py'"),
    ],
)  # fmt: skip
def test_best_refuses_what_it_cannot_search_with_one_line_and_exit_2(args: list[str], said: str) -> None:
    result = runner.invoke(app, ["--lang", "en", "best", "", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(said) and result.stderr.count("\n") == 1
