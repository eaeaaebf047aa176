"""The grade's headline: the share kept on the positions e(P) decides, beside ``e ≡ 0`` and a random e(P).

Four e(P) files (tests/data/evaluations/: the textbook's open lines, its sign reversed, ``return 0``, a good
weighted one) are graded by ``inarow grade --json`` at depths 1 and 2, and every figure of the headline is
recounted here by a search written apart from inarow's: brute_force.py's boards and exact values, a plain
depth-limited minimax with ties going to the first move in a1, a2, a3, b1… order, and a board view of its
own for the e(P)s to read.
"""

from __future__ import annotations

import json
import math
import runpy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import brute_force
from inarow.cli import app
from inarow.rules.game import Game
from inarow.rules.notation import parse_position
from inarow.teaching.grading import (
    RandomEvaluation,
    grade_choices,
    is_decisive,
    perfect_values,
    positions_to_grade,
)

runner = CliRunner()
TICTACTOE = Game.parse("tictactoe")
FILES = Path(__file__).parent / "data" / "evaluations"
NAMES = ("weighted", "textbook", "zero", "reversed")
Board = brute_force.Board


@dataclass(frozen=True)
class View:
    """What an e(P) reads (rows from the top, k, max, min, lines()), made here from a brute-force board."""

    board: Board
    max: str

    k = 3

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple(reversed(self.board))

    @property
    def min(self) -> str:
        return "o" if self.max == "x" else "x"

    def lines(self) -> list[str]:
        return ["".join(self.board[r][c] for c, r in line) for line in brute_force.lines(3, 3, 3)]


def other(side: str) -> str:
    return "o" if side == "x" else "x"


def file_evaluation(name: str) -> Callable[[View], float]:
    function: Callable[[View], float] = runpy.run_path(str(FILES / f"{name}.py"))["e"]
    return function


def random_evaluation(view: View) -> float:
    """inarow's random baseline e(P), handed the stones as the bitboards it reads (cell (c, r) is bit
    ``c * 4 + r`` on 3×3); only the search around it is written here."""
    mine = sum(1 << c * 4 + r for r, row in enumerate(view.board) for c, s in enumerate(row) if s == view.max)
    theirs = sum(
        1 << c * 4 + r for r, row in enumerate(view.board) for c, s in enumerate(row) if s == view.min
    )
    return RandomEvaluation()(TICTACTOE, mine, theirs)


EVALUATIONS: dict[str, Callable[[View], float]] = {name: file_evaluation(name) for name in NAMES}
EVALUATIONS["random"] = random_evaluation


@cache
def searched(name: str, board: Board, mover: str, max_side: str, depth: int) -> float:
    """The depth-limited minimax value of ``board`` for ``max_side``: ±inf for a game won, e(P) at the
    horizon and on a full board."""
    won = brute_force.winner(board, 3)
    if won is not None:
        return math.inf if won == max_side else -math.inf
    cells = brute_force.moves(board, 3, False)
    if depth == 0 or not cells:
        return float(EVALUATIONS[name](View(board, max_side)))
    values = [
        searched(name, brute_force.play(board, cell, mover), other(mover), max_side, depth - 1)
        for cell in cells
    ]
    return max(values) if mover == max_side else min(values)


def root_values(name: str, board: Board, depth: int) -> dict[str, float]:
    """Each move's value for the side to move, in a1, a2, a3, b1… order."""
    side = brute_force.to_move(board)
    return {
        brute_force.cell_name(cell, False): searched(
            name, brute_force.play(board, cell, side), other(side), side, depth - 1
        )
        for cell in brute_force.moves(board, 3, False)
    }


def played(name: str, board: Board, depth: int) -> str:
    values = root_values(name, board, depth)
    best = max(values.values())
    return next(move for move, value in values.items() if value == best)


@cache
def exact(board: Board) -> dict[str, int]:
    """Each move's exact outcome (1, 0, -1) for the side that plays it."""
    return {move: (s > 0) - (s < 0) for move, s in brute_force.move_scores(board, 3, False).items()}


def keeps(board: Board, move: str) -> bool:
    outcomes = exact(board)
    return outcomes[move] == max(outcomes.values())


@cache
def decisive(depth: int) -> frozenset[Board]:
    """The positions where the search with e ≡ 0 has both moves that keep the value and moves that lose it
    among its best."""
    found = set()
    for board in brute_force.reachable(3, 3, 3, False):
        if not brute_force.moves(board, 3, False):
            continue
        values = root_values("zero", board, depth)
        best = max(values.values())
        if len({keeps(board, move) for move, value in values.items() if value == best}) == 2:
            found.add(board)
    return frozenset(found)


def recount(name: str, depth: int) -> tuple[int, int]:
    """(kept, positions) on the decisive positions, by the search written here."""
    boards = decisive(depth)
    return sum(keeps(board, played(name, board, depth)) for board in boards), len(boards)


@cache
def report(name: str, depth: int) -> dict[str, Any]:
    result = runner.invoke(
        app, ["grade", "--eval", f"{FILES / name}.py:e", "--depth", str(depth), "--games", "0", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.output)
    return answer


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize("name", NAMES)
def test_the_headline_is_what_a_search_written_apart_finds(name: str, depth: int) -> None:
    """Kept and decisive positions recounted, and every blunder listed lies on a decisive position where
    the search written here plays the same losing move."""
    answer = report(name, depth)
    kept, positions = recount(name, depth)
    assert answer["decisive"] == {"kept": kept, "positions": positions, "share": round(kept / positions, 6)}
    boards = {brute_force.diagram(board): board for board in decisive(depth)}
    lost = {diagram for diagram, board in boards.items() if not keeps(board, played(name, board, depth))}
    assert {blunder["position"] for blunder in answer["blunders"]} == lost
    for blunder in answer["blunders"]:
        assert blunder["move"] == played(name, boards[blunder["position"]], depth)


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2])
def test_the_baselines_are_e_zero_and_the_random_e_on_the_same_positions(depth: int) -> None:
    answer = report("textbook", depth)
    positions = len(decisive(depth))
    zero, _ = recount("zero", depth)
    random, _ = recount("random", depth)
    assert answer["baselines"] == {"zero": round(zero / positions, 6), "random": round(random / positions, 6)}
    assert all(report(name, depth)["baselines"] == answer["baselines"] for name in NAMES)
    assert report("zero", depth)["decisive"]["share"] == answer["baselines"]["zero"]


@pytest.mark.slow
def test_the_headline_orders_the_four_e_p_as_a_class_expects() -> None:
    """Depth 1: weighted > textbook > return 0 > reversed, the reversed sign at most half the textbook's;
    depth 2: weighted > textbook > both others. Overall, the four stay within a few points."""
    one = {name: report(name, 1)["decisive"]["share"] for name in NAMES}
    assert one["weighted"] > one["textbook"] > one["zero"] > one["reversed"]
    assert one["reversed"] <= one["textbook"] / 2
    two = {name: report(name, 2)["decisive"]["share"] for name in NAMES}
    assert two["weighted"] > two["textbook"] > max(two["zero"], two["reversed"])
    assert report("textbook", 2)["baselines"]["zero"] < two["textbook"]


def test_the_guides_worked_position_is_decided_by_e_p_only_within_the_horizon() -> None:
    """Min (O) to move after X took a corner: every O move scores 0 two plies deep with e ≡ 0, only b2
    draws, the others lose; a search to the end sees it, and a position with a win in one is the search's."""
    corner = parse_position(".../.../x..", TICTACTOE)
    assert [TICTACTOE.cell_name(bit) for bit, value in perfect_values(corner).items() if value == 0] == ["b2"]
    assert is_decisive(corner, 1) and is_decisive(corner, 2)
    assert not is_decisive(corner, 8) and not is_decisive(corner, None)
    assert not is_decisive(parse_position("xx./oo./...", TICTACTOE), 2)


def test_a_search_to_the_end_leaves_no_position_to_e_p() -> None:
    positions, _ = positions_to_grade(TICTACTOE)
    best = [max(perfect_values(position).items(), key=lambda pair: pair[1])[0] for position in positions]
    moves = [TICTACTOE.cell_name(bit) for bit in best]
    answer = grade_choices(TICTACTOE, "perfect", None, "alphabeta", moves, [0.0] * len(moves)).to_json()
    assert answer["accuracy"] == 1.0
    assert answer["decisive"] == {"kept": 0, "positions": 0, "share": None}
    assert answer["baselines"] == {"zero": None, "random": None}


def test_the_positions_graded_are_made_once() -> None:
    assert positions_to_grade(TICTACTOE)[0] is positions_to_grade(TICTACTOE)[0]
