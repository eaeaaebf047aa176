"""Seeing the search think: the tree of a textbook search, the depth-limited value of every move, and the
work of each algorithm side by side. Every function returns a JSON-ready dict, for the command line and
the web app alike (±∞ are the strings ``"inf"`` and ``"-inf"``, see :mod:`inarow.search.tree`).

- :func:`explain_tree`: every node of a minimax, negamax or α-β search, with α/β, values, cut-offs and a
  layout to draw it (and, if asked, the SVG drawn here);
- :func:`analyze_moves`: the value a textbook search backs up for each legal move, to check a hand
  calculation;
- :func:`compare_algorithms`: nodes visited, time and effective branching factor of minimax, α-β,
  α-β with move ordering, with a transposition table, with both, and the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from inarow.errors import InarowError, TreeTooLargeError
from inarow.notation import parse_game, parse_position
from inarow.rules import Game, Position
from inarow.search.heuristic import HeuristicSearch
from inarow.search.limits import Budget, Limits, SearchAborted
from inarow.search.textbook import SearchResult, check_algorithm, format_value, move_scores, search
from inarow.search.tree import json_value, to_dict, to_svg

MAX_TREE_NODES = 5_000
"""The largest tree :func:`explain_tree` records unless told otherwise: more is no longer readable."""

COMPARE_MAX_NODES = 1_000_000
"""The nodes each algorithm of :func:`compare_algorithms` may visit unless told otherwise."""


def _position(game: Game | str, position: Position | str) -> Position:
    return position if isinstance(position, Position) else parse_position(position, parse_game(game))


def record_tree(
    position: Position, algorithm: str, depth: int | None, evaluation: str, max_nodes: int = MAX_TREE_NODES
) -> SearchResult:
    """A textbook search with its tree recorded; raises :class:`TreeTooLargeError` past ``max_nodes``."""
    algorithm = check_algorithm(algorithm)
    try:
        return search(position, algorithm, depth, evaluation, budget=Budget(Limits(nodes=max_nodes + 1)))
    except SearchAborted:
        plies = "to the end" if depth is None else f"of depth {depth}"
        raise TreeTooLargeError(
            f"the {algorithm} tree {plies} of {position.diagram()!r} has more than {max_nodes:,} nodes: "
            "lower the depth or raise the node limit"
        ) from None


def explain_tree(
    game: Game | str,
    position: Position | str,
    algorithm: str = "alphabeta",
    depth: int | None = 2,
    evaluation: str = "open-lines",
    *,
    max_nodes: int = MAX_TREE_NODES,
    svg: bool = False,
) -> dict[str, Any]:
    """Every node of a textbook search of ``position`` (a :class:`Position` or any notation of ``game``).

    The dict is :func:`inarow.search.tree.to_dict`: the result (``value``, ``score``, ``move``,
    ``nodes_visited``, ``frame``: ``"x"`` when values are X's, ``"to_move"`` for negamax), ``nodes`` in the
    order the search entered them (with ``enter``/``exit`` steps to replay it, ``alpha``/``beta`` on entry,
    ``cutoff``, ``reason`` such as ``α=3 ≥ β=2``, ``pruned`` moves, ``x``/``y`` layout) and
    ``pruned_spots`` placing the pruned children. With ``svg`` it also holds the drawing as ``svg``.

    Raises :class:`~inarow.errors.InarowError` subclasses for a bad game, position, algorithm, evaluation
    or depth, and :class:`TreeTooLargeError` for a tree of more than ``max_nodes`` nodes.
    """
    result = record_tree(_position(game, position), algorithm, depth, evaluation, max_nodes)
    answer = to_dict(result)
    if svg:
        answer["svg"] = to_svg(result)
    return answer


def analyze_moves(
    game: Game | str,
    position: Position | str,
    algorithm: str = "minimax",
    depth: int | None = 2,
    evaluation: str = "open-lines",
    limits: Limits | None = None,
) -> dict[str, Any]:
    """The value a ``depth``-ply textbook search backs up for every legal move, from the standpoint of the
    side to move, with the keys of ``inarow analyze --json``: ``moves[].score`` is that value, ``exact`` is
    false, ``best`` the moves of the top value, ``pv`` the line each side's first best move makes, and
    ``algorithm`` and ``evaluation`` say what was run. ``limits`` bounds the nodes and the time.

    Raises :class:`~inarow.errors.InarowError` subclasses for bad input and :class:`TreeTooLargeError`
    when the limits stop the search.
    """
    the_position = _position(game, position)
    algorithm = check_algorithm(algorithm)
    budget = Budget(limits or Limits())
    start = time.perf_counter()
    answer: dict[str, Any] = {
        "position": the_position.diagram(),
        "game": the_position.game.name,
        "diagram": the_position.diagram(),
        "to_move": the_position.to_move,
        "result": the_position.result,
        "exact": False,
        "value": None,
        "score": None,
        "plies": None,
        "best": [],
        "pv": [],
        "moves": [],
        "description": "",
        "depth": depth,
        "algorithm": algorithm,
        "evaluation": evaluation,
        "nodes": 0,
        "seconds": 0.0,
    }
    if the_position.is_over:
        answer["description"] = "draw" if the_position.result == "draw" else f"{the_position.result} has won"
        return answer
    game_ = the_position.game
    try:
        scores, nodes = move_scores(the_position, algorithm, depth, evaluation, budget)
        top_score = max(scores.values())
        first = next(bit for bit, value in scores.items() if value == top_score)
        line = _line(the_position, first, algorithm, depth, evaluation, budget)
    except SearchAborted:
        raise TreeTooLargeError(
            f"the {algorithm} search of {the_position.diagram()!r} was stopped by the limits after "
            f"{budget.nodes:,} nodes: lower the depth or raise the limits"
        ) from None
    answer.update(
        score=json_value(top_score),
        best=[game_.cell_name(bit) for bit, value in scores.items() if value == top_score],
        pv=line,
        moves=[
            {
                "move": game_.cell_name(bit),
                "exact": False,
                "value": None,
                "score": json_value(value),
                "plies": None,
            }
            for bit, value in scores.items()
        ],
        description=f"{algorithm} to depth {'the end' if depth is None else depth} with {evaluation}: "
        f"{format_value(top_score)} for {the_position.turn}",
        nodes=nodes,
        seconds=round(time.perf_counter() - start, 6),
    )
    return answer


def _line(
    position: Position, first: int, algorithm: str, depth: int | None, evaluation: str, budget: Budget
) -> list[str]:
    """The expected line: ``first``, then each side's first best move with the plies left of ``depth``."""
    line, current = [first], position.play(first)
    left = None if depth is None else depth - 1
    while not current.is_over and (left is None or left > 0):
        scores, _ = move_scores(current, algorithm, left, evaluation, budget)
        top = max(scores.values())
        line.append(next(bit for bit, value in scores.items() if value == top))
        current, left = current.play(line[-1]), None if left is None else left - 1
    return [position.game.cell_name(bit) for bit in line]


def effective_branching_factor(nodes: int, depth: int) -> float | None:
    """The b* of a uniform tree of ``depth`` levels below its root holding ``nodes`` nodes, root included:
    ``nodes = 1 + b* + b*² + … + b*^depth`` (Russell and Norvig). None when ``depth`` is 0."""
    if depth <= 0 or nodes <= 1:
        return None

    def size(b: float) -> float:
        return float(depth + 1) if b == 1 else (b ** (depth + 1) - 1) / (b - 1)

    low, high = 0.0, float(nodes)
    for _ in range(200):
        middle = (low + high) / 2
        if size(middle) < nodes:
            low = middle
        else:
            high = middle
    return (low + high) / 2


COMPARED: tuple[tuple[str, str, str, dict[str, bool]], ...] = (
    ("minimax", "minimax", "minimax", {}),
    ("alphabeta", "α-β", "alphabeta", {}),
    ("alphabeta-ordering", "α-β, move ordering", "alphabeta-soft", {"ordering": True}),
    ("alphabeta-table", "α-β, transposition table", "alphabeta-soft", {"table": True}),
    (
        "alphabeta-ordering-table",
        "α-β, ordering and table",
        "alphabeta-soft",
        {"ordering": True, "table": True},
    ),
)
"""The textbook searches :func:`compare_algorithms` runs: name, label, algorithm and options."""


def compare_algorithms(
    game: Game | str,
    position: Position | str,
    depth: int | None = None,
    evaluation: str = "open-lines",
    *,
    max_nodes: int = COMPARE_MAX_NODES,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Search ``position`` ``depth`` plies deep (None: to the end) with each algorithm of :data:`COMPARED`
    and with the engine (:meth:`inarow.search.engine.Engine.search`: α-β with threat detection, move
    ordering, a table and symmetry, its own evaluation), each allowed ``max_nodes`` nodes.

    Returns ``{"position", "game", "to_move", "depth", "evaluation", "max_nodes", "rows"}``; each row has
    ``name``, ``label``, ``complete`` (False when the node limit stopped it), ``nodes``, ``seconds``,
    ``value`` (from the side to move's standpoint; None for the engine's heuristic values, which are on its
    own scale), ``value_text``, ``move`` and ``branching``, the effective branching factor b* with
    ``nodes = 1 + b* + … + b*^depth``. ``progress(label)`` is called before each search.

    Raises :class:`~inarow.errors.InarowError` subclasses for bad input or a finished position.
    """
    the_position = _position(game, position)
    if the_position.is_over:
        raise InarowError(f"nothing to compare in {the_position.diagram()!r}: the game is over")
    remaining = the_position.game.cells - the_position.ply
    plies = remaining if depth is None else min(depth, remaining)
    rows: list[dict[str, Any]] = []
    for name, label, algorithm, options in COMPARED:
        if progress is not None:
            progress(label)
        budget = Budget(Limits(nodes=max_nodes + 1))
        start = time.perf_counter()
        row: dict[str, Any] = {"name": name, "label": label}
        try:
            result = search(
                the_position, algorithm, plies, evaluation, record=False, budget=budget, **options
            )
            row |= {
                "complete": True,
                "nodes": result.nodes,
                "value": json_value(result.score),
                "value_text": format_value(result.score),
                "move": result.move_name,
            }
        except SearchAborted:
            row |= {"complete": False, "nodes": max_nodes, "value": None, "value_text": "", "move": None}
        row["seconds"] = round(time.perf_counter() - start, 6)
        rows.append(row)
    if progress is not None:
        progress("engine")
    rows.append(_engine_row(the_position, plies, max_nodes))
    for row in rows:
        row["branching"] = effective_branching_factor(row["nodes"], plies) if row["complete"] else None
    return {
        "position": the_position.diagram(),
        "game": the_position.game.name,
        "to_move": the_position.turn,
        "depth": plies,
        "evaluation": evaluation,
        "max_nodes": max_nodes,
        "rows": rows,
    }


def _engine_row(position: Position, plies: int, max_nodes: int) -> dict[str, Any]:
    budget = Budget(Limits(nodes=max_nodes + 1))
    searcher = HeuristicSearch(position.game, budget)
    start = time.perf_counter()
    row: dict[str, Any] = {"name": "engine", "label": "engine", "move": None}
    try:
        found = searcher.search(*position.sides(), plies)
    except SearchAborted:
        return row | {"complete": False, "nodes": max_nodes, "value": None, "value_text": "", "seconds": 0.0}
    score = found.score
    if score is None:
        shown, text = None, f"eval {found.value:+d} (its scale)"
    else:
        shown = "inf" if score > 0 else "-inf" if score < 0 else 0
        text = "+∞ (proven)" if score > 0 else "-∞ (proven)" if score < 0 else "0 (a draw)"
    return row | {
        "complete": True,
        "nodes": budget.nodes,
        "value": shown,
        "value_text": text,
        "seconds": round(time.perf_counter() - start, 6),
    }
