"""The classic bugs of a student's minimax and α-β, as a table: :data:`BUGS`.

Each bug is planted in the registry's algorithms (:class:`Variant`: a bent body, or a :class:`Twist` of
what one level asks of the next), and named where a student's trail is the planted bug's own: a search
whose every step, up to where it stopped, is what that bug does on the case. So a name is evidence, never a
guess; a trail two bugs explain names both, one no bug explains names none.

=====================  ====================================================  ===========================
name                   the bug                                               where it can happen
=====================  ====================================================  ===========================
``strict-cutoff``      a cut-off tested with ``>`` instead of ``≥``          α-β, both frames, both forms
``window-not-passed``  a child searched with (−∞, +∞), not the window        α-β, both frames
``window-not-narrowed``  α not raised (β not lowered) as children return    α-β, both frames, both forms
``negamax-sign``       a child's value not negated, or (−α, −β) handed down  the negamax frame
``depth-not-decreased``  a child searched with the parent's depth            every algorithm
``same-player``        a child searched as the same kind of node (Max, Max)  the minimax frame
``returns-alpha``      α (β at a Min node) returned where fail-soft returns  fail-soft α-β, both frames
                       the best value
=====================  ====================================================  ===========================
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from inarow.base.i18n import N_
from inarow.engines.textbook import Algorithm, Game, State
from inarow.teaching.checking.interface import Twist

Run = Callable[[Game, State, int, float, float], float]

ALPHABETA_FORMS = ("alphabeta", "alphabeta-hard", "negamax-alphabeta", "negamax-alphabeta-hard")
"""The algorithms a bent α-β body stands for."""


def bent_alphabeta(
    algorithm: Algorithm, *, strict: bool = False, narrow: str = "both", returns: str = "value"
) -> Run:
    """The α-β of ``algorithm`` (one of :data:`ALPHABETA_FORMS`) with a bug planted: ``strict`` cuts only
    when a value passes the bound (``>``), ``narrow`` says which bounds move as children return (``both``
    as written; ``none``; ``max``: α rises at Max nodes but β never falls at Min nodes; ``min``: the other
    way round; a negamax node has only α, which rises unless ``none``), ``returns`` is ``value``
    (as written), ``bound-after-break`` (a fail-soft loop that breaks at the cut-off and returns α, β at a
    Min node) or ``bound`` (α raised before the test, α returned: the best value at a cut-off, α else).
    Unbent, it is the registry's algorithm step for step (a test checks it)."""
    negamax = algorithm.frame == "negamax"
    hard = algorithm.window == "fail-hard"

    def narrows(up: bool) -> bool:
        return narrow == "both" or (narrow != "none" and (negamax or narrow == ("max" if up else "min")))

    def meets(value: float, bound: float, up: bool) -> bool:
        if up:
            return value > bound if strict else value >= bound
        return value < bound if strict else value <= bound

    def run(game: Game, state: State, depth: int, alpha: float, beta: float) -> float:
        value = game.leaf(state, depth)
        if value is not None:
            return value
        up = negamax or game.maximizing(state)
        best = -math.inf if up else math.inf
        for move, child in game.children(state, depth):
            if negamax:
                found = -game.search(move, child, depth - 1, -beta, -alpha)
            else:
                found = game.search(move, child, depth - 1, alpha, beta)
            if hard:
                if meets(found, beta if up else alpha, up):
                    return beta if up else alpha
                if narrows(up):
                    alpha, beta = (max(alpha, found), beta) if up else (alpha, min(beta, found))
                continue
            best = max(best, found) if up else min(best, found)
            if returns == "bound" and narrows(up):
                alpha, beta = (max(alpha, best), beta) if up else (alpha, min(beta, best))
                if meets(alpha if up else beta, beta if up else alpha, up):
                    return best
                continue
            if meets(best, beta if up else alpha, up):
                break
            if narrows(up):
                alpha, beta = (max(alpha, best), beta) if up else (alpha, min(beta, best))
        if hard or returns != "value":
            return alpha if up else beta
        return best

    return run


@dataclass(frozen=True)
class Variant:
    """One way a bug is written: a bent ``body`` for the algorithm (None: its own) and a ``twist``."""

    body: Callable[[Algorithm], Run] | None = None
    twist: Twist = field(default_factory=Twist)


@dataclass(frozen=True)
class Bug:
    """A classic bug: its ``name``, ``title`` and ``meaning`` (catalog entries), the algorithms it can be
    planted in (``algorithms``) and the ways it is written (``variants``)."""

    name: str
    title: str
    meaning: str
    algorithms: tuple[str, ...]
    variants: tuple[Variant, ...]


BUGS = (
    Bug(
        name="strict-cutoff",
        title=N_("cut with > instead of ≥"),
        meaning=N_(
            "a value equal to the bound must cut off too: once α ≥ β nothing below can change the choice "
            "above"
        ),
        algorithms=ALPHABETA_FORMS,
        variants=(Variant(lambda algorithm: bent_alphabeta(algorithm, strict=True)),),
    ),
    Bug(
        name="window-not-passed",
        title=N_("α and β not passed down"),
        meaning=N_("a child is searched with (−∞, +∞) instead of the window its parent has narrowed"),
        algorithms=(*ALPHABETA_FORMS, "pvs"),
        variants=(Variant(twist=Twist(full_window=True)),),
    ),
    Bug(
        name="window-not-narrowed",
        title=N_("the window not narrowed"),
        meaning=N_(
            "α must rise at a Max node (β fall at a Min node) as each child's value comes back, and the "
            "next child is searched with the narrower window"
        ),
        algorithms=ALPHABETA_FORMS,
        variants=(
            Variant(lambda algorithm: bent_alphabeta(algorithm, narrow="none")),
            Variant(lambda algorithm: bent_alphabeta(algorithm, narrow="max")),
            Variant(lambda algorithm: bent_alphabeta(algorithm, narrow="min")),
        ),
    ),
    Bug(
        name="negamax-sign",
        title=N_("negamax's sign"),
        meaning=N_(
            "in the negamax frame a child's value is from the other side's standpoint: negate it, and search "
            "the child with (−β, −α)"
        ),
        algorithms=("negamax", "negamax-alphabeta", "negamax-alphabeta-hard", "pvs"),
        variants=(Variant(twist=Twist(unnegated=True)), Variant(twist=Twist(swapped=True))),
    ),
    Bug(
        name="depth-not-decreased",
        title=N_("depth not decreased"),
        meaning=N_(
            "a child is searched with depth − 1: with the same depth the search never reaches its horizon"
        ),
        algorithms=(
            "minimax",
            "negamax",
            *ALPHABETA_FORMS,
            "pvs",
        ),
        variants=(Variant(twist=Twist(same_depth=True)),),
    ),
    Bug(
        name="same-player",
        title=N_("the same player twice"),
        meaning=N_("the players alternate: below a Max node come Min nodes, below a Min node Max nodes"),
        algorithms=("minimax", "alphabeta", "alphabeta-hard"),
        variants=(Variant(twist=Twist(same_player=True)),),
    ),
    Bug(
        name="returns-alpha",
        title=N_("returning α where fail-soft returns the value"),
        meaning=N_(
            "fail-soft α-β returns the best value it saw, which may lie outside the window; returning α "
            "(β at a Min node) is fail-hard's rule, and it changes the values backed up"
        ),
        algorithms=("alphabeta", "negamax-alphabeta"),
        variants=(
            Variant(lambda algorithm: bent_alphabeta(algorithm, returns="bound-after-break")),
            Variant(lambda algorithm: bent_alphabeta(algorithm, returns="bound")),
        ),
    ),
)
"""The classic bugs, by what a student is told first (see the module docstring)."""

BUG_NAMES = tuple(bug.name for bug in BUGS)


def bugs_for(algorithm: Algorithm) -> tuple[Bug, ...]:
    """The bugs that can be planted in ``algorithm``."""
    return tuple(bug for bug in BUGS if algorithm.name in bug.algorithms)
