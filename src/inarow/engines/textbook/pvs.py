"""Principal variation search (PVS, NegaScout), in negamax form: the first child is searched with the full
window; every later child is first only *tested* with a window of zero width, (α, α⁺), which asks "is it
better than α?"; only a child that fails high (better than α, worse than β) is searched again with the
window (value, β). With good move ordering most tests fail low and cost less than a full search.

The zero-width window's upper edge α⁺ is the next float above α (:func:`math.nextafter`), so the test is
exact for any leaf values, whole numbers or not (the textbooks' (α, α+1) assumes whole numbers).
"""

from __future__ import annotations

import math

from inarow.base.i18n import N_
from inarow.engines.textbook.algorithm import Algorithm, Game
from inarow.engines.textbook.records import State


def pvs(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """The PVS value of ``state`` for the side to move (fail-soft: a bound outside the window)."""
    value = game.leaf(state, depth)
    if value is not None:
        return value
    best = -math.inf
    for index, (move, child) in enumerate(game.children(state, depth)):
        if index == 0:
            score = -game.search(move, child, depth - 1, -beta, -alpha)
        else:
            score = -game.search(move, child, depth - 1, -math.nextafter(alpha, math.inf), -alpha)
            if alpha < score < beta:
                score = -game.search(move, child, depth - 1, -beta, -score)
        best = max(best, score)
        if best >= beta:
            break
        alpha = max(alpha, best)
    return best


PVS = Algorithm(
    name="pvs",
    frame="negamax",
    window="null-window",
    title=N_("PVS (NegaScout)"),
    summary=N_(
        "the first child with the full window, each later one tested with a zero-width window (α, α⁺) and "
        "searched again only when it fails high"
    ),
    run=pvs,
    family="pvs",
)
