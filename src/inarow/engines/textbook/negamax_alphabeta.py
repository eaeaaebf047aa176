"""α-β in negamax form: every value from the side to move at the node, each node's window in its own frame,
a child searched with (−β, −α) and its value negated; fail-soft (the textbooks' form) and fail-hard."""

from __future__ import annotations

import math

from inarow.base.i18n import N_
from inarow.engines.textbook.algorithm import Algorithm, Game
from inarow.engines.textbook.records import State


def negamax_alphabeta_soft(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """Fail-soft negamax α-β: the best value seen, at least β after a cut-off."""
    value = game.leaf(state, depth)
    if value is not None:
        return value
    value = -math.inf
    for move, child in game.children(state, depth):
        value = max(value, -game.search(move, child, depth - 1, -beta, -alpha))
        if value >= beta:
            break
        alpha = max(alpha, value)
    return value


def negamax_alphabeta_hard(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """Fail-hard negamax α-β: the value clamped to [α, β]; a value reaching β returns β."""
    value = game.leaf(state, depth)
    if value is not None:
        return value
    for move, child in game.children(state, depth):
        value = -game.search(move, child, depth - 1, -beta, -alpha)
        if value >= beta:
            return beta
        alpha = max(alpha, value)
    return alpha


NEGAMAX_ALPHABETA = Algorithm(
    name="negamax-alphabeta",
    frame="negamax",
    window="fail-soft",
    title=N_("α-β, negamax form"),
    summary=N_(
        "α-β with every value from the side to move; a child searched with (−β, −α), its value negated"
    ),
    run=negamax_alphabeta_soft,
    family="negamax-alphabeta",
)

NEGAMAX_ALPHABETA_HARD = Algorithm(
    name="negamax-alphabeta-hard",
    frame="negamax",
    window="fail-hard",
    title=N_("α-β, negamax form, fail-hard"),
    summary=N_("negamax α-β that never returns a value outside its window"),
    run=negamax_alphabeta_hard,
    family="negamax-alphabeta",
)
