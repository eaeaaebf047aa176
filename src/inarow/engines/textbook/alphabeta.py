"""α-β with separate Max and Min nodes, every value from MAX's standpoint, in its two forms.

**Fail-soft** (the textbooks' form, :data:`ALPHABETA`) returns the best value it saw, which after a cut-off
lies outside the window and is a bound: at most the true value at a Min node (drawn ``≤ v``), at least it at
a Max node (``≥ v``). **Fail-hard** (:data:`ALPHABETA_HARD`) never returns a value outside the window it was
given: a Max node whose child reaches β returns β, a Min node whose child falls to α returns α. Both give
the root the minimax value.
"""

from __future__ import annotations

import math

from inarow.base.i18n import N_
from inarow.engines.textbook.algorithm import Algorithm, Game
from inarow.engines.textbook.records import State


def alphabeta_soft(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """Fail-soft α-β: the best value seen (at least β after a cut-off at a Max node, at most α at a Min
    node); remembered in the game's table, when it keeps one."""
    stored = game.recall(state, depth, alpha, beta)
    if stored is not None:
        return stored
    value = game.leaf(state, depth)
    if value is not None:
        return value
    window = alpha, beta
    if game.maximizing(state):
        value = -math.inf
        for move, child in game.children(state, depth):
            value = max(value, game.search(move, child, depth - 1, alpha, beta))
            if value >= beta:
                break
            alpha = max(alpha, value)
    else:
        value = math.inf
        for move, child in game.children(state, depth):
            value = min(value, game.search(move, child, depth - 1, alpha, beta))
            if value <= alpha:
                break
            beta = min(beta, value)
    game.remember(state, depth, value, *window)
    return value


def alphabeta_hard(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """Fail-hard α-β: the value clamped to [α, β]; a child reaching β returns β at a Max node, a child
    falling to α returns α at a Min node."""
    value = game.leaf(state, depth)
    if value is not None:
        return value
    if game.maximizing(state):
        for move, child in game.children(state, depth):
            value = game.search(move, child, depth - 1, alpha, beta)
            if value >= beta:
                return beta
            alpha = max(alpha, value)
        return alpha
    for move, child in game.children(state, depth):
        value = game.search(move, child, depth - 1, alpha, beta)
        if value <= alpha:
            return alpha
        beta = min(beta, value)
    return beta


ALPHABETA = Algorithm(
    name="alphabeta",
    frame="minimax",
    window="fail-soft",
    title=N_("α-β"),
    summary=N_(
        "α-β as the textbooks draw it (fail-soft): a node returns the best value it saw, a bound (≤ or ≥) "
        "after a cut-off"
    ),
    run=alphabeta_soft,
    family="alphabeta",
    table=True,
)

ALPHABETA_HARD = Algorithm(
    name="alphabeta-hard",
    frame="minimax",
    window="fail-hard",
    title=N_("α-β, fail-hard"),
    summary=N_("α-β that never returns a value outside its window: a cut-off returns the bound it met"),
    run=alphabeta_hard,
    family="alphabeta",
)
