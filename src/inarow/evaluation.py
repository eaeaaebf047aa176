"""How unfinished positions are scored, from the standpoint of the side to move.

An evaluation sees the bitboards of the side to move (``mine``) and of its opponent (``theirs``) and
returns an integer: positive is good for the side to move. Won and lost positions are the search's
business, not the evaluation's: these functions only look at lines still open.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from inarow.errors import UnknownEvaluationError
from inarow.rules import Game, Position, Side, other

Evaluation = Callable[[Game, int, int], int]

ENGINE_WEIGHTS = (0, 1, 4, 16, 64, 256, 1024, 4096, 16384)
"""Weights of an open line by how many stones it holds (capped at the last entry), used by the engine."""


def line_score(game: Game, mine: int, theirs: int, weights: Sequence[int]) -> int:
    """Σ over the lines with no opponent stone of ``weights[stones in it]``, minus the same for the opponent.

    A line that holds stones of both sides is dead and counts for neither; an empty line counts for both
    and so cancels out.
    """
    top = len(weights) - 1
    score = 0
    for line in game.lines:
        a, b = mine & line, theirs & line
        if a:
            if not b:
                score += weights[min(a.bit_count(), top)]
        elif b:
            score -= weights[min(b.bit_count(), top)]
    return score


def engine_evaluation(game: Game, mine: int, theirs: int) -> int:
    """The engine's evaluation: open lines weighted 1, 4, 16, … by how many stones they hold."""
    return line_score(game, mine, theirs, ENGINE_WEIGHTS)


# ------------------------------------------------------------------------ named evaluations
# The evaluations a user picks by name (``--eval``, the web app's menu, ``minimax:2:open-lines``). They
# follow the contract above; :func:`static_value` adds the textbook's ±∞ for won and lost positions.


def open_lines(game: Game, mine: int, theirs: int) -> int:
    """The textbook e(P): lines (rows, columns, diagonals of k cells) with no opponent stone, minus the
    lines with none of one's own stones.

    An empty line counts on both sides and cancels out, so only lines holding stones of one side matter.
    """
    score = 0
    for line in game.lines:
        if not theirs & line:
            score += 1
        if not mine & line:
            score -= 1
    return score


def weighted(game: Game, mine: int, theirs: int) -> int:
    """Open lines weighted by the stones they hold: 1 for one stone, 3 for two, 9 for three, … (a full
    line is a win, which :func:`static_value` scores ∞)."""
    return line_score(game, mine, theirs, WEIGHTED_WEIGHTS)


def completed_lines(game: Game, mine: int, theirs: int) -> int:
    """Completed lines only: k-in-a-row lines of one's own minus the opponent's (0 on unfinished boards;
    with :func:`static_value` this is the plain won / lost / unknown evaluation)."""
    return sum((mine & line == line) - (theirs & line == line) for line in game.lines)


WEIGHTED_WEIGHTS = (0, 1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049, 177147, 531441, 1594323)
"""Weights of :func:`weighted` by stones in an open line: 3 to the power of stones - 1."""

EVALUATIONS: dict[str, Evaluation] = {
    "open-lines": open_lines,
    "weighted": weighted,
    "lines": completed_lines,
}
"""The evaluations by name, each valid on any board."""


def evaluation_named(name: str) -> Evaluation:
    """The evaluation called ``name`` (one of :data:`EVALUATIONS`). Raises :class:`UnknownEvaluationError`."""
    key = name.strip().lower()
    if key in EVALUATIONS:
        return EVALUATIONS[key]
    raise UnknownEvaluationError(f"unknown evaluation {name!r}: expected one of {', '.join(EVALUATIONS)}")


def static_value(position: Position, side: Side, evaluation: Evaluation) -> float:
    """The textbook e(P) of ``position`` from ``side``'s standpoint: ``math.inf`` when ``side`` has won,
    ``-math.inf`` when it has lost, else ``evaluation`` of the stones (a full board without a line is
    scored by ``evaluation`` too, and each named evaluation gives it 0)."""
    if position.winner is not None:
        return math.inf if position.winner == side else -math.inf
    mine, theirs = position.stones(side), position.stones(other(side))
    return evaluation(position.game, mine, theirs)
