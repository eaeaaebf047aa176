"""The tree of a textbook search, node by node, with α/β, values, cut-offs and the layout to draw it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NotRequired, Protocol

from typing_extensions import TypedDict

from inarow.base.errors import TreeTooLargeError
from inarow.base.i18n import N_
from inarow.engines.limits import Budget, Limits, SearchAborted
from inarow.engines.textbook import (
    Bound,
    EventKind,
    GameNames,
    LeafReason,
    Node,
    OrderReason,
    Role,
    SearchResult,
    State,
    Tree,
    Window,
    algorithm_named,
    check_algorithm,
    check_order,
    check_side,
    search,
)
from inarow.evaluation.lines import Evaluation, evaluation_named, evaluation_of, line_counts
from inarow.rules.game import Position, Side
from inarow.teaching.abstract import AbstractState
from inarow.teaching.drawing import Spot, cut_reason, in_mover_frame, layout, standpoint, to_svg, value_bounds
from inarow.teaching.explain.values import JsonValue, json_value

MAX_TREE_NODES = 5_000
"""The largest tree :func:`explain_tree` records unless told otherwise: more is no longer readable."""


class BreakdownJSON(TypedDict):
    """How a weight-list evaluation scored a leaf, for ``side`` (the frame's standpoint): ``mine[n]`` and
    ``theirs[n]`` count the lines with exactly n stones of that side (of the other) and none of the other
    (of that side); the totals are Σ weights[n]·count, and e(P) = ``mine_total`` − ``theirs_total``."""

    side: Side
    weights: list[JsonValue]
    mine: list[int]
    theirs: list[int]
    mine_total: JsonValue
    theirs_total: JsonValue
    value: JsonValue


class EventJSON(TypedDict):
    """One step of the replay (:class:`inarow.engines.textbook.Event`), as fields: the page makes the
    words."""

    kind: EventKind
    node: int
    move: str | None
    value: JsonValue
    alpha: JsonValue
    beta: JsonValue
    bound: Bound | None
    pruned: list[str]


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
    seen: JsonValue
    order: OrderReason
    extended: bool
    board: str | None
    breakdown: BreakdownJSON | None
    bound: NotRequired[str | None]
    """``≤`` or ``≥`` when the value is a bound (fail-soft α-β after a cut-off), else null."""


class PrunedSpotJSON(TypedDict):
    """Where the layout places a child that a cut-off at node ``parent`` pruned."""

    parent: int
    move: str
    x: float
    y: float
    value: JsonValue


class DepthJSON(TypedDict):
    """One depth of iterative deepening: the move searched first (the previous depth's best), the best
    move found, the root's value in the tree's frame, the nodes and the time."""

    depth: int
    first: str | None
    move: str | None
    value: JsonValue
    nodes: int
    seconds: float


class ExplanationJSON(TypedDict):
    """``inarow tree --format json`` and ``POST /api/explain``."""

    algorithm: str
    position: str
    game: str
    to_move: Side
    depth: int
    evaluation: str
    frame: Literal["x", "o", "to_move"]
    max: Side
    window: Window
    abstract: bool
    order: str
    quiescence: bool
    asked_depth: int | None
    max_nodes: int
    deepening: list[DepthJSON]
    value: JsonValue
    score: JsonValue
    move: str | None
    nodes_visited: int
    max_depth: int
    seconds: float
    steps: int
    events: list[EventJSON]
    nodes: list[NodeJSON]
    pruned_spots: list[PrunedSpotJSON]


def _name(game: GameNames, bit: int | None) -> str | None:
    return None if bit is None else game.cell_name(bit)


@dataclass(frozen=True, kw_only=True)
class Explanation:
    """A textbook search with its recorded ``tree`` and the ``layout`` that places every node and pruned
    child for drawing."""

    search: SearchResult
    tree: Tree
    layout: tuple[Spot, ...]
    asked_depth: int | None = None
    max_nodes: int = 0
    deepening: tuple[SearchResult, ...] = ()
    evaluation: Evaluation | None = None
    """The evaluation searched with (None: the one ``search`` names)."""

    def _repr_svg_(self) -> str:
        """The tree in a Jupyter notebook, as ``inarow tree --format svg`` draws it."""
        return to_svg(self.search, evaluation=self.evaluation)

    def _node_json(self, node: Node, spot: Spot) -> NodeJSON:
        """One node of :meth:`to_json`'s ``nodes``, drawn at ``spot``."""
        game = self.search.position.game
        return {
            "id": node.id,
            "parent": node.parent,
            "move": _name(game, node.move),
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
            "best": _name(game, node.best),
            "enter": node.enter,
            "exit": node.exit,
            "x": spot.x,
            "y": spot.y,
            "seen": json_value(node.seen),
            "order": node.order,
            "extended": node.extended,
            "board": node.state.diagram() if isinstance(node.state, Position) else None,
            "breakdown": self._breakdown(node),
        }

    def _breakdown(self, node: Node) -> BreakdownJSON | None:
        """How e(P) scored a leaf at the horizon, line by line (None elsewhere)."""
        result, state = self.search, node.state
        if node.leaf != "depth" or not isinstance(state, Position):
            return None
        side: Side = standpoint(result, node)
        used = self.evaluation if self.evaluation is not None else evaluation_named(result.evaluation)
        counts = line_counts(state, side, used)
        if counts is None:
            return None
        return {
            "side": side,
            "weights": [json_value(weight) for weight in counts.weights],
            "mine": list(counts.mine),
            "theirs": list(counts.theirs),
            "mine_total": json_value(counts.mine_total),
            "theirs_total": json_value(counts.theirs_total),
            "value": json_value(counts.value),
        }

    def to_json(self) -> ExplanationJSON:
        """The search (``value`` in the algorithm's frame, which ``frame`` names: ``"x"``, or ``"to_move"``
        for negamax; ``score`` for the side to move at the root), then ``nodes`` in the order the search
        entered them: ``path`` and ``pruned`` are move names, ``leaf`` why a node is a leaf (won, lost,
        draw, depth, table; null inside), ``reason`` why it cut off (``α=3 ≥ β=2``), ``enter``/``exit`` the
        steps of a replay, ``x``/``y`` its place; ``pruned_spots`` places the pruned children."""
        result, game = self.search, self.search.position.game
        where = {(spot.node, spot.pruned): spot for spot in self.layout}
        mover_frame = in_mover_frame(result)
        marks = value_bounds(result)
        root = result.position
        abstract = isinstance(root, AbstractState)

        def leaf_value(bit: int) -> JsonValue:
            return json_value(root.game.values[bit]) if isinstance(root, AbstractState) else None

        return {
            "algorithm": result.algorithm,
            "position": result.position.diagram(),
            "game": game.name,
            "to_move": result.position.turn,
            "depth": result.depth,
            "evaluation": result.evaluation,
            "frame": "to_move" if mover_frame else result.max_side,
            "max": result.max_side,
            "window": algorithm_named(result.algorithm).window,
            "abstract": abstract,
            "order": result.order,
            "quiescence": result.quiescence,
            "asked_depth": result.depth if self.asked_depth is None else self.asked_depth,
            "max_nodes": self.max_nodes,
            "deepening": [
                {
                    "depth": row.depth,
                    "first": None if index == 0 else self.deepening[index - 1].move_name,
                    "move": row.move_name,
                    "value": json_value(row.frame_value),
                    "nodes": row.nodes,
                    "seconds": round(row.seconds, 6),
                }
                for index, row in enumerate(self.deepening)
            ],
            "value": json_value(result.frame_value),
            "score": json_value(result.mover_value),
            "move": result.move_name,
            "nodes_visited": result.nodes,
            "max_depth": result.max_depth,
            "seconds": round(result.seconds, 6),
            "steps": self.tree.steps,
            "events": [
                {
                    "kind": event.kind,
                    "node": event.node,
                    "move": _name(game, event.move),
                    "value": json_value(event.value),
                    "alpha": json_value(event.alpha),
                    "beta": json_value(event.beta),
                    "bound": event.bound,
                    "pruned": [game.cell_name(bit) for bit in event.pruned],
                }
                for event in self.tree.events
            ],
            "nodes": [
                {**self._node_json(node, where[node.id, None]), "bound": marks.get(node.id)}
                for node in self.tree.nodes
            ],
            "pruned_spots": [
                {
                    "parent": spot.node,
                    "move": game.cell_name(spot.pruned),
                    "x": spot.x,
                    "y": spot.y,
                    "value": leaf_value(spot.pruned),
                }
                for spot in self.layout
                if spot.pruned is not None
            ],
        }


def explain_tree(
    position: State,
    algorithm: str = "alphabeta",
    depth: int | None = 2,
    evaluation: Evaluation | str = "open-lines",
    *,
    max_nodes: int = MAX_TREE_NODES,
    order: str = "columns",
    ordering: bool = False,
    quiescence: bool = False,
    first: int | None = None,
    fit: bool = False,
    deepen: bool = False,
    max_side: str | None = None,
) -> Explanation:
    """A textbook search of ``position`` (a board, or an abstract tree) by ``algorithm`` ``depth`` plies
    deep (None: to the end) with ``evaluation`` at the leaves, its tree recorded and laid out.
    ``order``, ``ordering``, ``quiescence``, ``first`` and ``max_side`` (MAX, the side whose standpoint the
    values take; None: the side to move) go to :func:`~inarow.engines.textbook.search`.
    With ``deepen``, iterative deepening: depths 1, 2, … are searched first, each trying the previous
    depth's best move first, and the tree drawn is the last depth's (``deepening`` holds every depth).

    A tree of more than ``max_nodes`` nodes raises :class:`TreeTooLargeError`, or with ``fit`` is drawn
    at the deepest depth whose tree fits (``asked_depth`` keeps the depth asked for). Raises
    :class:`~inarow.base.errors.InarowError` subclasses for a bad algorithm, evaluation or depth.
    """
    algorithm = check_algorithm(algorithm)
    check_order(order)
    if max_side is not None:
        max_side = check_side(max_side)
    function = evaluation_of(evaluation)
    if isinstance(position, AbstractState) and (deepen or ordering):
        position = position.estimating()
    remaining = position.game.cells - position.ply
    asked = remaining if depth is None else depth

    def searched(plies: int, before: int | None) -> SearchResult:
        return search(
            position,
            algorithm,
            plies,
            function,
            budget=Budget(Limits(nodes=max_nodes + 1)),
            order=order,
            ordering=ordering,
            quiescence=quiescence,
            first=before,
            max_side=max_side,
        )

    # Iterative deepening searches depth 1, 2, … up to the depth asked, each trying the previous depth's
    # best move first; without it the depth asked is searched at once. With ``fit``, a tree too large is
    # replaced by the deepest that fits, found going up from depth 1 (a deeper tree holds a shallower one),
    # so that a search to the end of a big board costs a few small trees, not one attempt per depth.
    rows: list[SearchResult] = []
    try:
        if deepen:
            for shallower in range(1, asked):
                rows.append(searched(shallower, rows[-1].move if rows else first))
        result = searched(asked, rows[-1].move if rows else first)
    except SearchAborted:
        if fit and not deepen and asked > 1:
            for shallower in range(1, asked):
                try:
                    rows.append(searched(shallower, first))
                except SearchAborted:
                    break
        if not fit or not rows:
            messages = {
                (True, True): N_(
                    "the {algorithm} tree to the end of this {game} position has more than {limit:,} nodes, "
                    "too many to draw: lower the depth"
                ),
                (True, False): N_(
                    "the {algorithm} tree to the end of this {game} position has more than {limit:,} nodes, "
                    "too many to draw: lower the depth or raise the node limit"
                ),
                (False, True): N_(
                    "the {algorithm} tree to depth {depth} of this {game} position has more than {limit:,} "
                    "nodes, too many to draw: lower the depth"
                ),
                (False, False): N_(
                    "the {algorithm} tree to depth {depth} of this {game} position has more than {limit:,} "
                    "nodes, too many to draw: lower the depth or raise the node limit"
                ),
            }
            raise TreeTooLargeError(
                messages[depth is None, fit],
                algorithm=algorithm,
                game=position.game.name,
                depth=asked,
                limit=max_nodes,
            ) from None
        result = rows.pop()
        if not deepen:
            rows = []
    assert result.tree is not None, "search records its tree by default"
    return Explanation(
        search=result,
        tree=result.tree,
        layout=layout(result.tree),
        asked_depth=asked,
        max_nodes=max_nodes,
        deepening=(*rows, result) if deepen else (),
        evaluation=function,
    )


EXPLAIN_MAX_NODES = 2_000
"""The largest tree a page draws (``POST /api/explain``, with a named or a pasted e(P)): beyond it a page
can no longer show it usefully."""


class TreeAsked(Protocol):
    """The choices of the tree a page asks for: the fields of the web app's explain requests."""

    @property
    def algorithm(self) -> str: ...
    @property
    def depth(self) -> int | None: ...
    @property
    def order(self) -> str: ...
    @property
    def ordering(self) -> bool: ...
    @property
    def quiescence(self) -> bool: ...
    @property
    def deepen(self) -> bool: ...


def page_tree(
    position: State, asked: TreeAsked, evaluation: Evaluation | str, max_side: str | None = None
) -> Explanation:
    """The tree of the search ``asked`` for, with ``evaluation`` at the leaves, as a page draws it: at most
    :data:`EXPLAIN_MAX_NODES` nodes, at the deepest depth that fits (see :func:`explain_tree`, whose
    errors it raises), ``max_side`` MAX (None: the side to move). A module-level function, so that a
    process pool can run it."""
    return explain_tree(
        position,
        asked.algorithm,
        asked.depth,
        evaluation,
        max_nodes=EXPLAIN_MAX_NODES,
        order=asked.order,
        ordering=asked.ordering,
        quiescence=asked.quiescence,
        deepen=asked.deepen,
        fit=True,
        max_side=max_side,
    )
