"""Negamax: every value from the standpoint of the side to move at the node; a node takes the largest of
its children's values negated."""

from __future__ import annotations

from inarow.base.i18n import N_
from inarow.engines.textbook.algorithm import Algorithm, Game
from inarow.engines.textbook.records import State


def negamax(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """The negamax value of ``state`` for the side to move there (the window is not used)."""
    value = game.leaf(state, depth)
    if value is not None:
        return value
    return max(
        -game.search(move, child, depth - 1, -beta, -alpha) for move, child in game.children(state, depth)
    )


NEGAMAX = Algorithm(
    name="negamax",
    frame="negamax",
    window="none",
    title=N_("negamax"),
    summary=N_("every node searched; each takes the largest of its children's values negated"),
    run=negamax,
    family="negamax",
)
