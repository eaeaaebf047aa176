"""Seeing the search think: the tree of a textbook search, the depth-limited value of every move, and the
work of each algorithm side by side. Each service takes a parsed :class:`Position` and returns a frozen
result whose ``to_json`` is its one JSON form, for the command line and the web app alike (±∞ are the
strings ``"inf"`` and ``"-inf"`` there, because JSON has no infinity: :func:`json_value`).

- :func:`explain_tree` → :class:`Explanation`: every node of a minimax, negamax or α-β search, with α/β,
  values, cut-offs and the layout to draw it (:func:`inarow.drawing.layout`);
- :func:`analyze_moves` → :class:`MoveValues`: the value a textbook search backs up for each legal move, to
  check a hand calculation;
- :func:`compare_algorithms` → :class:`Comparison`: nodes visited, time and effective branching factor of
  minimax, α-β, α-β with move ordering, with a transposition table, with both, and the engine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from typing_extensions import TypedDict

from inarow import words
from inarow.analysis import PositionJSON, position_json
from inarow.drawing import Spot, cut_reason, layout
from inarow.errors import InarowError, TreeTooLargeError
from inarow.rules import Position, Side
from inarow.search.heuristic import HeuristicSearch
from inarow.search.limits import Budget, Limits, SearchAborted
from inarow.search.textbook import (
    LeafReason,
    Role,
    SearchResult,
    Tree,
    check_algorithm,
    move_scores,
    search,
)

MAX_TREE_NODES = 5_000
"""The largest tree :func:`explain_tree` records unless told otherwise: more is no longer readable."""

COMPARE_MAX_NODES = 1_000_000
"""The nodes each algorithm of :func:`compare_algorithms` may visit unless told otherwise."""

JsonValue = int | float | str | None
"""A textbook value in JSON: a number (integers stay integers), ``"inf"``/``"-inf"`` for ±∞, or null."""


def json_value(value: float | None) -> JsonValue:
    """A value for JSON: integers stay integers, ±∞ become ``"inf"`` / ``"-inf"``, None and NaN null."""
    if value is None or math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


# ------------------------------------------------------------------------------------- the tree
class NodeJSON(TypedDict):
    """One node of a recorded search, as :meth:`Explanation.to_json` writes it."""

    id: int
    parent: int | None
    move: str | None
    path: list[str]
    depth: int
    role: Role
    to_move: Side
    alpha: JsonValue
    beta: JsonValue
    value: JsonValue
    leaf: LeafReason | None
    cutoff: bool
    reason: str | None
    pruned: list[str]
    children: list[int]
    best: str | None
    enter: int
    exit: int
    x: float
    y: float


class PrunedSpotJSON(TypedDict):
    """Where the layout places a child that a cut-off at node ``parent`` pruned."""

    parent: int
    move: str
    x: float
    y: float


class ExplanationJSON(TypedDict):
    """``inarow tree --format json`` and ``POST /api/explain``."""

    algorithm: str
    position: str
    game: str
    to_move: Side
    depth: int
    evaluation: str
    frame: Literal["x", "to_move"]
    value: JsonValue
    score: JsonValue
    move: str | None
    nodes_visited: int
    max_depth: int
    seconds: float
    steps: int
    nodes: list[NodeJSON]
    pruned_spots: list[PrunedSpotJSON]


@dataclass(frozen=True, kw_only=True)
class Explanation:
    """A textbook search with its recorded ``tree`` and the ``layout`` that places every node and pruned
    child for drawing."""

    search: SearchResult
    tree: Tree
    layout: tuple[Spot, ...]

    def to_json(self) -> ExplanationJSON:
        """The search (``value`` in the algorithm's frame, which ``frame`` names: ``"x"``, or ``"to_move"``
        for negamax; ``score`` for the side to move at the root), then ``nodes`` in the order the search
        entered them: ``path`` and ``pruned`` are move names, ``leaf`` why a node is a leaf (won, lost,
        draw, depth, table; null inside), ``reason`` why it cut off (``α=3 ≥ β=2``), ``enter``/``exit`` the
        steps of a replay, ``x``/``y`` its place; ``pruned_spots`` places the pruned children."""
        result, game = self.search, self.search.position.game
        where = {(spot.node, spot.pruned): spot for spot in self.layout}

        def name(bit: int | None) -> str | None:
            return None if bit is None else game.cell_name(bit)

        return {
            "algorithm": result.algorithm,
            "position": result.position.diagram(),
            "game": game.name,
            "to_move": result.position.turn,
            "depth": result.depth,
            "evaluation": result.evaluation,
            "frame": "to_move" if result.algorithm == "negamax" else "x",
            "value": json_value(result.frame_value),
            "score": json_value(result.mover_value),
            "move": result.move_name,
            "nodes_visited": result.nodes,
            "max_depth": result.max_depth,
            "seconds": round(result.seconds, 6),
            "steps": self.tree.steps,
            "nodes": [
                {
                    "id": node.id,
                    "parent": node.parent,
                    "move": name(node.move),
                    "path": [game.cell_name(bit) for bit in node.path],
                    "depth": node.depth,
                    "role": node.role,
                    "to_move": node.to_move,
                    "alpha": json_value(node.alpha),
                    "beta": json_value(node.beta),
                    "value": json_value(node.value),
                    "leaf": node.leaf,
                    "cutoff": node.cutoff,
                    "reason": cut_reason(node),
                    "pruned": [game.cell_name(bit) for bit in node.pruned],
                    "children": list(node.children),
                    "best": name(node.best),
                    "enter": node.enter,
                    "exit": node.exit,
                    "x": where[node.id, None].x,
                    "y": where[node.id, None].y,
                }
                for node in self.tree.nodes
            ],
            "pruned_spots": [
                {"parent": spot.node, "move": game.cell_name(spot.pruned), "x": spot.x, "y": spot.y}
                for spot in self.layout
                if spot.pruned is not None
            ],
        }


def explain_tree(
    position: Position,
    algorithm: str = "alphabeta",
    depth: int | None = 2,
    evaluation: str = "open-lines",
    *,
    max_nodes: int = MAX_TREE_NODES,
) -> Explanation:
    """A textbook search of ``position`` by ``algorithm`` ``depth`` plies deep (None: to the end) with
    ``evaluation`` at the leaves, its tree recorded and laid out.

    Raises :class:`~inarow.errors.InarowError` subclasses for a bad algorithm, evaluation or depth, and
    :class:`TreeTooLargeError` for a tree of more than ``max_nodes`` nodes.
    """
    algorithm = check_algorithm(algorithm)
    try:
        result = search(position, algorithm, depth, evaluation, budget=Budget(Limits(nodes=max_nodes + 1)))
    except SearchAborted:
        plies = "to the end" if depth is None else f"of depth {depth}"
        raise TreeTooLargeError(
            f"the {algorithm} tree {plies} of {position.diagram()!r} has more than {max_nodes:,} nodes: "
            "lower the depth or raise the node limit"
        ) from None
    assert result.tree is not None, "search records its tree by default"
    return Explanation(search=result, tree=result.tree, layout=layout(result.tree))


# ------------------------------------------------------------------------------- move values
class MoveValueJSON(TypedDict):
    """One move of :class:`MoveValuesJSON`, with the keys of a move of ``inarow analyze --json``."""

    move: str
    exact: bool
    value: None
    score: JsonValue
    plies: None
    outcome: None


class MoveValuesJSON(PositionJSON):
    """``inarow analyze --algo … --json``: the keys of ``inarow analyze --json`` and ``algorithm`` and
    ``evaluation``."""

    outcome: None
    exact: bool
    value: None
    score: JsonValue
    plies: None
    best: list[str]
    pv: list[str]
    moves: list[MoveValueJSON]
    description: str
    depth: int | None
    algorithm: str
    evaluation: str
    nodes: int
    seconds: float


@dataclass(frozen=True, kw_only=True)
class MoveValue:
    """A legal move (a cell bit) and the value a textbook search backs up for it, from the standpoint of
    the side to move, which plays it."""

    move: int
    mover_value: float


@dataclass(frozen=True, kw_only=True)
class MoveValues:
    """The answer of :func:`analyze_moves`. Values are for the side to move at ``position``, on the
    evaluation's scale (±inf: a win/loss it can force within the depth); none of them is exact.

    ``mover_value`` is the top value (None when the game is over), ``best`` the moves that reach it, ``pv``
    the line each side's first best move makes.
    """

    position: Position
    algorithm: str
    evaluation: str
    depth: int | None
    mover_value: float | None
    moves: tuple[MoveValue, ...]
    best: tuple[int, ...]
    pv: tuple[int, ...]
    nodes: int
    seconds: float

    def describe(self) -> str:
        """The result in words: ``minimax to depth 2 with open-lines: +1 for x``, or the finished game's."""
        position = self.position
        if position.result is not None:
            return words.finished(position.result)
        return words.textbook_value(
            self.algorithm, self.depth, self.evaluation, self.mover_value, position.turn
        )

    def to_json(self, text: str | None = None) -> MoveValuesJSON:
        """The keys of ``inarow analyze --json`` (``exact`` false, ``value``/``plies``/``outcome`` null,
        ``score`` the textbook value) and ``algorithm`` and ``evaluation``; ``text`` is the position as
        the user wrote it."""
        position, game = self.position, self.position.game
        return {
            **position_json(position, text, position.winner),
            "outcome": None,
            "exact": False,
            "value": None,
            "score": json_value(self.mover_value),
            "plies": None,
            "best": [game.cell_name(bit) for bit in self.best],
            "pv": [game.cell_name(bit) for bit in self.pv],
            "moves": [
                {
                    "move": game.cell_name(move.move),
                    "exact": False,
                    "value": None,
                    "score": json_value(move.mover_value),
                    "plies": None,
                    "outcome": None,
                }
                for move in self.moves
            ],
            "description": self.describe(),
            "depth": self.depth,
            "algorithm": self.algorithm,
            "evaluation": self.evaluation,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyze_moves(
    position: Position,
    algorithm: str = "minimax",
    depth: int | None = 2,
    evaluation: str = "open-lines",
    limits: Limits | None = None,
) -> MoveValues:
    """The value a ``depth``-ply textbook search backs up for every legal move of ``position``, from the
    standpoint of the side to move, the best moves and the expected line. ``limits`` bounds the nodes
    and the time.

    Raises :class:`~inarow.errors.InarowError` subclasses for a bad algorithm or evaluation and
    :class:`TreeTooLargeError` when the limits stop the search.
    """
    algorithm = check_algorithm(algorithm)
    budget = Budget(limits or Limits())
    start = time.perf_counter()
    if position.is_over:
        return MoveValues(
            position=position,
            algorithm=algorithm,
            evaluation=evaluation,
            depth=depth,
            mover_value=None,
            moves=(),
            best=(),
            pv=(),
            nodes=0,
            seconds=0.0,
        )
    try:
        scores, nodes = move_scores(position, algorithm, depth, evaluation, budget)
        top = max(scores.values())
        best = tuple(bit for bit, value in scores.items() if value == top)
        line = _line(position, best[0], algorithm, depth, evaluation, budget)
    except SearchAborted:
        raise TreeTooLargeError(
            f"the {algorithm} search of {position.diagram()!r} was stopped by the limits after "
            f"{budget.nodes:,} nodes: lower the depth or raise the limits"
        ) from None
    return MoveValues(
        position=position,
        algorithm=algorithm,
        evaluation=evaluation,
        depth=depth,
        mover_value=top,
        moves=tuple(MoveValue(move=bit, mover_value=value) for bit, value in scores.items()),
        best=best,
        pv=line,
        nodes=nodes,
        seconds=time.perf_counter() - start,
    )


def _line(
    position: Position, first: int, algorithm: str, depth: int | None, evaluation: str, budget: Budget
) -> tuple[int, ...]:
    """The expected line: ``first``, then each side's first best move with the plies left of ``depth``."""
    line, current = [first], position.play(first)
    left = None if depth is None else depth - 1
    while not current.is_over and (left is None or left > 0):
        scores, _ = move_scores(current, algorithm, left, evaluation, budget)
        top = max(scores.values())
        line.append(next(bit for bit, value in scores.items() if value == top))
        current, left = current.play(line[-1]), None if left is None else left - 1
    return tuple(line)


# ------------------------------------------------------------------------------- comparisons
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


class ComparisonRowJSON(TypedDict):
    """One algorithm of :class:`ComparisonJSON`."""

    name: str
    label: str
    complete: bool
    nodes: int
    value: JsonValue
    value_text: str
    move: str | None
    seconds: float
    branching: float | None


class ComparisonJSON(TypedDict):
    """``inarow compare --json`` and ``POST /api/compare``."""

    position: str
    game: str
    to_move: Side
    depth: int
    evaluation: str
    max_nodes: int
    rows: list[ComparisonRowJSON]


@dataclass(frozen=True, kw_only=True)
class ComparisonRow:
    """What one algorithm of :func:`compare_algorithms` did.

    ``complete`` is False when the node limit stopped it (``nodes`` is then the limit). ``mover_value`` is
    the value it found for the side to move: the textbook value, or for the engine its proven result
    (``proven``: +inf a win, -inf a loss, 0 a draw); None when stopped, or when the engine only reached a
    heuristic ``engine_evaluation`` on its own scale. ``branching`` is the effective branching factor.
    """

    name: str
    label: str
    complete: bool
    nodes: int
    seconds: float
    mover_value: float | None
    proven: bool = False
    engine_evaluation: int | None = None
    move: int | None
    branching: float | None

    def value_text(self) -> str:
        """The value for people: ``+1``, ``-∞``, ``0 (a draw)``, ``+∞ (proven)``, ``eval +12 (its scale)``."""
        return words.comparison_value(self.mover_value, self.proven, self.engine_evaluation)


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """The answer of :func:`compare_algorithms`: ``position`` searched ``depth`` plies deep with
    ``evaluation``, each algorithm allowed ``max_nodes`` nodes, one row an algorithm."""

    position: Position
    depth: int
    evaluation: str
    max_nodes: int
    rows: tuple[ComparisonRow, ...]

    def to_json(self) -> ComparisonJSON:
        """The comparison with each row's ``value`` in JSON form and its ``value_text`` for people."""
        game = self.position.game
        return {
            "position": self.position.diagram(),
            "game": game.name,
            "to_move": self.position.turn,
            "depth": self.depth,
            "evaluation": self.evaluation,
            "max_nodes": self.max_nodes,
            "rows": [
                {
                    "name": row.name,
                    "label": row.label,
                    "complete": row.complete,
                    "nodes": row.nodes,
                    "value": json_value(row.mover_value),
                    "value_text": row.value_text(),
                    "move": None if row.move is None else game.cell_name(row.move),
                    "seconds": round(row.seconds, 6),
                    "branching": row.branching,
                }
                for row in self.rows
            ],
        }


def compare_algorithms(
    position: Position,
    depth: int | None = None,
    evaluation: str = "open-lines",
    *,
    max_nodes: int = COMPARE_MAX_NODES,
    progress: Callable[[str], None] | None = None,
) -> Comparison:
    """Search ``position`` ``depth`` plies deep (None: to the end) with each algorithm of :data:`COMPARED`
    and with the engine (:meth:`inarow.search.engine.Engine.search`: α-β with threat detection, move
    ordering, a table and symmetry, its own evaluation), each allowed ``max_nodes`` nodes.
    ``progress(label)`` is called before each search.

    Raises :class:`~inarow.errors.InarowError` subclasses for a bad evaluation or a finished position.
    """
    if position.is_over:
        raise InarowError(f"nothing to compare in {position.diagram()!r}: the game is over")
    remaining = position.game.cells - position.ply
    plies = remaining if depth is None else min(depth, remaining)
    rows: list[ComparisonRow] = []
    for name, label, algorithm, options in COMPARED:
        if progress is not None:
            progress(label)
        budget = Budget(Limits(nodes=max_nodes + 1))
        start = time.perf_counter()
        try:
            result = search(position, algorithm, plies, evaluation, record=False, budget=budget, **options)
        except SearchAborted:
            complete, nodes, value, move = False, max_nodes, None, None
        else:
            complete, nodes, value, move = True, result.nodes, result.mover_value, result.move
        rows.append(
            ComparisonRow(
                name=name,
                label=label,
                complete=complete,
                nodes=nodes,
                seconds=time.perf_counter() - start,
                mover_value=value,
                move=move,
                branching=effective_branching_factor(nodes, plies) if complete else None,
            )
        )
    if progress is not None:
        progress("engine")
    rows.append(_engine_row(position, plies, max_nodes))
    return Comparison(
        position=position, depth=plies, evaluation=evaluation, max_nodes=max_nodes, rows=tuple(rows)
    )


def _engine_row(position: Position, plies: int, max_nodes: int) -> ComparisonRow:
    """The engine's depth-limited search of ``position``: a proven result when it found one, else its
    heuristic value on its own scale."""
    budget = Budget(Limits(nodes=max_nodes + 1))
    searcher = HeuristicSearch(position.game, budget)
    start = time.perf_counter()
    try:
        found = searcher.search(*position.sides(), plies)
    except SearchAborted:
        return ComparisonRow(
            name="engine",
            label="engine",
            complete=False,
            nodes=max_nodes,
            seconds=0.0,
            mover_value=None,
            move=None,
            branching=None,
        )
    score = found.score
    proven = None if score is None else math.copysign(math.inf, score) if score else 0.0
    return ComparisonRow(
        name="engine",
        label="engine",
        complete=True,
        nodes=budget.nodes,
        seconds=time.perf_counter() - start,
        mover_value=proven,
        proven=proven is not None,
        engine_evaluation=found.value if proven is None else None,
        move=None,
        branching=effective_branching_factor(budget.nodes, plies),
    )
