"""How unfinished positions are scored, from the standpoint of the side to move.

An evaluation sees the bitboards of the side to move (``mine``) and of its opponent (``theirs``) and
returns an integer: positive is good for the side to move. Won and lost positions are the search's
business, not the evaluation's: these functions only look at lines still open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inarow.rules import Game

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
