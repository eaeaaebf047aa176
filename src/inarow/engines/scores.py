"""The score scale shared by every exact search, and the scale of the depth-limited search's values.

Exact scores (one scale for every game, Pascal Pons' Connect Four convention generalised)
======================================================================================
A side that wins by playing its stone when ``n`` stones are already on a board of ``C`` cells scores
``(C + 1 - n) // 2``; its opponent scores the negative; a draw scores 0. Faster wins score higher and
slower losses score higher (less negative). Every score is from the standpoint of the side to move.

Depth-limited values
====================
The depth-limited search returns exact scores multiplied by :data:`EXACT`, so a value ``v`` with
``abs(v) >= EXACT`` is a proven result (:func:`proven_score` recovers the exact score) and anything
smaller is an evaluation.
"""

from __future__ import annotations

from inarow.rules.game import Game

EXACT = 1_000_000
"""Heuristic values lie strictly between -EXACT and EXACT; proven results are exact scores times EXACT."""


def exact_score(game: Game, ply: int) -> int:
    """The score of the side that wins by playing its stone when ``ply`` stones are on the board."""
    return (game.cells + 1 - ply) // 2


def plies_to_end(game: Game, ply: int, score: int) -> int:
    """How many plies from a position with ``ply`` stones until the game ends, given its exact score.

    A win of score ``s`` by the side to move is played with ``n`` stones on the board where
    ``(C + 1 - n) // 2 == s`` and ``n`` has the parity of ``ply``; a loss, with the other parity; a draw
    fills the board.
    """
    cells = game.cells
    if score == 0:
        return cells - ply
    s = abs(score)
    parity = ply % 2 if score > 0 else (ply + 1) % 2
    n = cells + 1 - 2 * s if (cells + 1 - 2 * s) % 2 == parity else cells - 2 * s
    return n - ply + 1


def proven_score(value: int) -> int | None:
    """The exact score of a depth-limited value that is a proven result, else None."""
    if value >= EXACT:
        return value // EXACT
    if value <= -EXACT:
        return -(-value // EXACT)
    return None


def sign(score: int) -> int:
    """1 for a win, 0 for a draw, -1 for a loss."""
    return (score > 0) - (score < 0)
