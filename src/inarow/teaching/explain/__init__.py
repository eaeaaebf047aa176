"""Seeing the search think: the tree of a textbook search, the depth-limited value of every move, and the
work of each algorithm side by side. Each service takes a parsed :class:`Position` and returns a frozen
result whose ``to_json`` is its one JSON form, for the command line and the web app alike (±∞ are the
strings ``"inf"`` and ``"-inf"`` there, because JSON has no infinity: :mod:`inarow.teaching.explain.values`).

- :func:`explain_tree` → :class:`Explanation`: every node of a minimax, negamax or α-β search, with α/β,
  values, cut-offs and the layout to draw it (:func:`inarow.teaching.drawing.layout`);
- :func:`analyze_moves` → :class:`MoveValues`: the value a textbook search backs up for each legal move, to
  check a hand calculation;
- :func:`compare_algorithms` → :class:`Comparison`: nodes visited, time and effective branching factor of
  minimax, α-β, α-β with move ordering, with a transposition table, with both, and the engine.
"""

from inarow.teaching.explain.compare import (
    COMPARE_MAX_NODES,
    Comparison,
    ComparisonJSON,
    ComparisonRow,
    compare_algorithms,
    effective_branching_factor,
)
from inarow.teaching.explain.moves import MoveValue, MoveValues, MoveValuesJSON, analyze_moves
from inarow.teaching.explain.tree import (
    EXPLAIN_MAX_NODES,
    MAX_TREE_NODES,
    Explanation,
    ExplanationJSON,
    TreeAsked,
    explain_tree,
    page_tree,
)
from inarow.teaching.explain.values import JsonValue, json_value

__all__ = [
    "COMPARE_MAX_NODES",
    "EXPLAIN_MAX_NODES",
    "MAX_TREE_NODES",
    "Comparison",
    "ComparisonJSON",
    "ComparisonRow",
    "Explanation",
    "ExplanationJSON",
    "JsonValue",
    "MoveValue",
    "MoveValues",
    "MoveValuesJSON",
    "TreeAsked",
    "analyze_moves",
    "compare_algorithms",
    "effective_branching_factor",
    "explain_tree",
    "json_value",
    "page_tree",
]
