"""Minimax, α-β and its refinements and the engine side by side: nodes, time, effective branching factor."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from typing_extensions import TypedDict

from inarow.base.errors import InarowError
from inarow.base.i18n import N_, in_english
from inarow.engines.heuristic import HeuristicSearch
from inarow.engines.limits import Budget, Limits, SearchAborted
from inarow.engines.textbook import REGISTRY, check_order, evaluation_name, search
from inarow.evaluation.lines import Evaluation, evaluation_of
from inarow.evaluation.student import CodeEvaluation
from inarow.rules.game import Game, Position, Side
from inarow.teaching.explain.values import JsonValue, json_value
from inarow.words import phrases

COMPARE_MAX_NODES = 1_000_000
"""The nodes each algorithm of :func:`compare_algorithms` may visit unless told otherwise."""


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
    *((algorithm.name, algorithm.title, algorithm.name, {}) for algorithm in REGISTRY.values()),
    ("alphabeta-ordering", N_("α-β, move ordering"), "alphabeta", {"ordering": True}),
    ("alphabeta-table", N_("α-β, transposition table"), "alphabeta", {"table": True}),
    (
        "alphabeta-ordering-table",
        N_("α-β, ordering and table"),
        "alphabeta",
        {"ordering": True, "table": True},
    ),
)
"""The textbook searches :func:`compare_algorithms` runs: name, label, algorithm and options (every
registered algorithm by its own words, then what real programs add to α-β)."""


class ComparisonRowJSON(TypedDict):
    """One algorithm of :class:`ComparisonJSON`: ``value`` for the side to move, ``max_value`` for MAX
    (the side to move, the standpoint of the textbook trees); ``engine_evaluation`` the engine's own
    scale, for the side to move."""

    name: str
    label: str
    complete: bool
    nodes: int
    value: JsonValue
    max_value: JsonValue
    engine_evaluation: int | None
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
    order: str
    max_nodes: int
    rows: list[ComparisonRowJSON]


@dataclass(frozen=True, kw_only=True)
class ComparisonRow:
    """What one algorithm of :func:`compare_algorithms` did.

    ``complete`` is False when the node or time limit stopped it (``nodes`` is then how many it visited).
    ``mover_value`` is the value it found for the side to move: the textbook value, or for the engine
    its proven result (``proven``: +inf a win, -inf a loss, 0 a draw); None when stopped, or when the
    engine only reached a heuristic ``engine_evaluation`` on its own scale. ``branching`` is the
    effective branching factor.
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
        return phrases.comparison_value(self.mover_value, self.proven, self.engine_evaluation)

    def max_value_text(self, to_move: Side, max_side: Side | None = None) -> str:
        """The value for people from MAX's standpoint, as the trees give it, when ``to_move`` is the side
        to move at the root (MAX: ``max_side``, by default the side to move, as in the trees)."""
        sign = 1 if max_side is None or to_move == max_side else -1
        value = None if self.mover_value is None else sign * self.mover_value
        evaluation = None if self.engine_evaluation is None else sign * self.engine_evaluation
        return phrases.comparison_value(value, self.proven, evaluation)


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """The answer of :func:`compare_algorithms`: ``position`` searched ``depth`` plies deep with
    ``evaluation``, each algorithm allowed ``max_nodes`` nodes, one row an algorithm."""

    position: Position
    depth: int
    evaluation: str
    max_nodes: int
    rows: tuple[ComparisonRow, ...]
    order: str = "columns"

    def to_json(self) -> ComparisonJSON:
        """The comparison with each row's ``value`` in JSON form and its ``value_text`` for people."""
        game = self.position.game
        return {
            "position": self.position.diagram(),
            "game": game.name,
            "to_move": self.position.turn,
            "depth": self.depth,
            "evaluation": self.evaluation,
            "order": self.order,
            "max_nodes": self.max_nodes,
            "rows": [
                {
                    "name": row.name,
                    "label": row.label,
                    "complete": row.complete,
                    "nodes": row.nodes,
                    "value": json_value(row.mover_value),
                    "max_value": json_value(  # MAX is the side to move, as in the trees
                        None if row.mover_value is None else row.mover_value
                    ),
                    "engine_evaluation": row.engine_evaluation,
                    "value_text": in_english(row.value_text),
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
    evaluation: Evaluation | str = "open-lines",
    *,
    max_nodes: int = COMPARE_MAX_NODES,
    seconds: float | None = None,
    progress: Callable[[str], None] | None = None,
    order: str = "columns",
) -> Comparison:
    """Search ``position`` ``depth`` plies deep (None: to the end) with each algorithm of :data:`COMPARED`
    and with the engine (:meth:`inarow.engines.exact.reference.Engine.search`: α-β with threat detection, move
    ordering, a table and symmetry, its own evaluation), each allowed ``max_nodes`` nodes (and, given
    ``seconds``, an equal share of them), children generated in ``order`` (one of
    :data:`~inarow.engines.textbook.ORDERS`; the engine keeps its own). ``progress(label)`` is called
    before each search.

    Raises :class:`~inarow.base.errors.InarowError` subclasses for a bad evaluation or a finished position.
    """
    order = check_order(order)
    function = evaluation_of(evaluation)
    if position.is_over:
        raise InarowError(
            N_("nothing to compare in {position!r}: the game is over"), position=position.diagram()
        )
    remaining = position.game.cells - position.ply
    plies = remaining if depth is None else min(depth, remaining)
    rows: list[ComparisonRow] = []
    share = None if seconds is None else seconds / (len(COMPARED) + 1)
    for name, label, algorithm, options in COMPARED:
        if progress is not None:
            progress(label)
        budget = Budget(Limits(nodes=max_nodes + 1, time=share))
        # Move ordering evaluates every child before searching it: those evaluations count too.
        scorer = _counted(function, budget) if options.get("ordering") else function
        start = time.perf_counter()
        try:
            result = search(
                position,
                algorithm,
                plies,
                scorer,
                record=False,
                budget=budget,
                ordering=options.get("ordering", False),
                table=options.get("table", False),
                order=order,
            )
        except SearchAborted:
            complete, nodes, value, move = False, min(budget.nodes, max_nodes), None, None
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
        progress(N_("engine"))
    rows.append(_engine_row(position, plies, max_nodes, share))
    return Comparison(
        position=position,
        depth=plies,
        evaluation=evaluation if isinstance(evaluation, str) else evaluation_name(evaluation),
        max_nodes=max_nodes,
        rows=tuple(rows),
        order=order,
    )


def _counted(evaluation: Evaluation, budget: Budget) -> Evaluation:
    """``evaluation`` counting each call as a node of ``budget`` (raising SearchAborted when it is spent)."""

    def count() -> None:
        budget.nodes += 1
        budget.check()

    if isinstance(evaluation, CodeEvaluation):
        return evaluation.with_hook(count)

    def counted(game: Game, mine: int, theirs: int) -> float:
        budget.nodes += 1
        budget.check()
        return evaluation(game, mine, theirs)

    return counted


def _engine_row(position: Position, plies: int, max_nodes: int, seconds: float | None) -> ComparisonRow:
    """The engine's depth-limited search of ``position``: a proven result when it found one, else its
    heuristic value on its own scale."""
    budget = Budget(Limits(nodes=max_nodes + 1, time=seconds))
    searcher = HeuristicSearch(position.game, budget)
    start = time.perf_counter()
    try:
        found = searcher.search(*position.sides(), plies)
    except SearchAborted:
        return ComparisonRow(
            name="engine",
            label=N_("engine"),
            complete=False,
            nodes=min(budget.nodes, max_nodes),
            seconds=0.0,
            mover_value=None,
            move=None,
            branching=None,
        )
    score = found.score
    proven = None if score is None else math.copysign(math.inf, score) if score else 0.0
    return ComparisonRow(
        name="engine",
        label=N_("engine"),
        complete=True,
        nodes=budget.nodes,
        seconds=time.perf_counter() - start,
        mover_value=proven,
        proven=proven is not None,
        engine_evaluation=found.value if proven is None else None,
        move=None,
        branching=effective_branching_factor(budget.nodes, plies),
    )
