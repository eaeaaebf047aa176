"""Textbook game-tree search: minimax, negamax, α-β and PVS as taught, each with a record of the tree it
drew.

These are for learning and for checking the engine: plain recursion over immutable :class:`Position`
values, a depth limit, and the textbook evaluation e(P) at the leaves
(:func:`inarow.evaluation.lines.static_value`: ``+inf`` for a won position, ``-inf`` for a lost one, the
named evaluation otherwise). Nothing here is clever about speed; :mod:`inarow.engines.exact.reference` is.

The layout
==========
- :mod:`~inarow.engines.textbook.algorithm`: what an algorithm is (one pure function over a small game
  interface) and what it declares (its frame, its window rule, its name and words);
- one module an algorithm: :mod:`~inarow.engines.textbook.minimax`, :mod:`~inarow.engines.textbook.negamax`,
  :mod:`~inarow.engines.textbook.alphabeta` (fail-soft and fail-hard),
  :mod:`~inarow.engines.textbook.negamax_alphabeta`, :mod:`~inarow.engines.textbook.pvs`;
- :mod:`~inarow.engines.textbook.registry`: the algorithms by name;
- :mod:`~inarow.engines.textbook.records`: the record (nodes, steps) and the result;
- :mod:`~inarow.engines.textbook.walk`: running an algorithm on a position, recording it from outside.

Whose standpoint a value takes
==============================
- An algorithm in the **minimax frame** (``minimax``, ``alphabeta``, ``alphabeta-hard``) has Max and Min
  nodes, as the textbooks draw them: every value is from **MAX**'s standpoint, and MAX is the side whose
  standpoint the student takes: the side to move at the root unless ``max_side`` says otherwise, so the
  root is a Max node for either side.
- An algorithm in the **negamax frame** (``negamax``, ``negamax-alphabeta``, ``pvs``) scores every node
  from the standpoint of **the side to move at that node**; a parent takes the largest of its children's
  values negated, and a child is searched with (−β, −α).

:attr:`SearchResult.frame_value` is the root's value in the algorithm's own frame;
:attr:`SearchResult.mover_value` is the same value from the standpoint of the side to move at the root,
comparable between all algorithms.

α-β comes in two forms. **Fail-soft** (``alphabeta``, the textbooks' form and the default) returns the best
value it saw, which may lie outside the window and is then a bound: at least the true value after a cut-off
at a Max node, at most it at a Min node. **Fail-hard** (``alphabeta-hard``, ``--window fail-hard``) never
returns a value outside the window it was given. Both give the root the minimax value. Two options show
what real programs add: ``ordering`` tries the children best-first by their static evaluation, and
``table`` remembers the values of positions already searched (a transposition table with lower and upper
bounds). A position is always searched to the same remaining depth in one search (its stone count fixes
the ply), so the table never changes a value, only the work. :attr:`SearchResult.nodes` counts visited
nodes, the root and every terminal node included, whether or not the tree is kept; full-depth minimax on
the empty 3×3 board visits 549,946.
"""

from __future__ import annotations

from inarow.engines.textbook.algorithm import Algorithm, Frame, Game, Window
from inarow.engines.textbook.records import (
    Bound,
    Event,
    EventKind,
    GameNames,
    LeafReason,
    Node,
    OrderReason,
    Recorder,
    Role,
    Scored,
    SearchResult,
    State,
    Tree,
)
from inarow.engines.textbook.registry import (
    ALGORITHMS,
    ALIASES,
    REGISTRY,
    WINDOWS,
    algorithm_named,
    check_algorithm,
    check_window,
    with_window,
)
from inarow.engines.textbook.walk import (
    ORDERS,
    SIDES,
    Walker,
    alphabeta,
    check_order,
    check_side,
    deepen,
    evaluation_name,
    forcing_moves,
    minimax,
    move_scores,
    negamax,
    search,
)

__all__ = [
    "ALGORITHMS",
    "ALIASES",
    "ORDERS",
    "REGISTRY",
    "SIDES",
    "WINDOWS",
    "Algorithm",
    "Bound",
    "Event",
    "EventKind",
    "Frame",
    "Game",
    "GameNames",
    "LeafReason",
    "Node",
    "OrderReason",
    "Recorder",
    "Role",
    "Scored",
    "SearchResult",
    "State",
    "Tree",
    "Walker",
    "Window",
    "algorithm_named",
    "alphabeta",
    "check_algorithm",
    "check_order",
    "check_side",
    "check_window",
    "deepen",
    "evaluation_name",
    "forcing_moves",
    "minimax",
    "move_scores",
    "negamax",
    "search",
    "with_window",
]
