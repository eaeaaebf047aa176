"""The terms of game-tree search as the course material names them, for the glossary of the web app and of
``inarow glossary``: each term and a one-line meaning, translated where they are shown."""

from __future__ import annotations

from dataclasses import dataclass

from inarow.base.i18n import N_, gettext


@dataclass(frozen=True, kw_only=True)
class Term:
    """A term: ``key`` stays the same in every language; ``name`` and ``meaning`` are catalog messages."""

    key: str
    name: str
    meaning: str

    def said(self) -> tuple[str, str]:
        """The name and the meaning in the current language."""
        return gettext(self.name), gettext(self.meaning)


TERMS = (
    Term(
        key="game-tree",
        name=N_("game tree"),
        meaning=N_("every position reachable from the root, each move an edge from a position to the next"),
    ),
    Term(key="ply", name=N_("ply"), meaning=N_("one move of one side: a level of the game tree")),
    Term(
        key="max-min",
        name=N_("Max node / Min node"),
        meaning=N_("a position where the side whose standpoint we take moves (Max) or its opponent (Min)"),
    ),
    Term(
        key="minimax",
        name=N_("minimax search"),
        meaning=N_("Max takes the largest value of its children, Min the smallest, back up to the root"),
    ),
    Term(
        key="evaluation",
        name=N_("evaluation function e(P)"),
        meaning=N_("a score for a position where the search stops, e.g. open lines for Max minus for Min"),
    ),
    Term(
        key="backed-up",
        name=N_("backed-up value"),
        meaning=N_("the value a node gets from its children's values, not from the evaluation"),
    ),
    Term(
        key="alpha-beta",
        name=N_("α-β pruning"),
        meaning=N_("skipping the moves that cannot change the result, found by the bounds α and β"),
    ),
    Term(
        key="cut-off",
        name=N_("α cut-off / β cut-off"),
        meaning=N_("at a Min node, a value ≤ α (α cut-off); at a Max node, a value ≥ β (β cut-off)"),
    ),
    Term(
        key="deepening",
        name=N_("iterative deepening"),
        meaning=N_("searching to depth 1, 2, 3 … in turn, each depth's best move tried first at the next"),
    ),
    Term(
        key="quiescence",
        name=N_("quiescence search"),
        meaning=N_("searching on past the depth limit while a move must be answered, e.g. a threat to win"),
    ),
    Term(
        key="transposition-table",
        name=N_("transposition table"),
        meaning=N_("a table of positions already searched, reached again by other move orders"),
    ),
    Term(
        key="move-ordering",
        name=N_("move ordering"),
        meaning=N_("trying the most promising moves first, so that α-β prunes more"),
    ),
)
"""The glossary, in the order a course meets the terms."""
