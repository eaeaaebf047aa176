"""Minimax, as the textbooks write it: a Max node takes the largest of its children's values, a Min node
the smallest, every value from MAX's standpoint."""

from __future__ import annotations

from inarow.base.i18n import N_
from inarow.engines.textbook.algorithm import Algorithm, Game
from inarow.engines.textbook.records import State


def minimax(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
    """The minimax value of ``state`` searched ``depth`` plies (the window is not used)."""
    value = game.leaf(state, depth)
    if value is not None:
        return value
    values = [game.search(move, child, depth - 1, alpha, beta) for move, child in game.children(state, depth)]
    return max(values) if game.maximizing(state) else min(values)


MINIMAX = Algorithm(
    name="minimax",
    frame="minimax",
    window="none",
    title=N_("minimax"),
    summary=N_(
        "every node searched; a Max node takes the largest of its children's values, a Min node the smallest"
    ),
    run=minimax,
    family="minimax",
)
