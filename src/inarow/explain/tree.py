"""The tree of a textbook search, node by node, with α/β, values, cut-offs and the layout to draw it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from typing_extensions import TypedDict

from inarow.drawing import Spot, cut_reason, layout
from inarow.errors import TreeTooLargeError
from inarow.explain.values import JsonValue, json_value
from inarow.rules import Position, Side
from inarow.search.limits import Budget, Limits, SearchAborted
from inarow.search.textbook import (
    LeafReason,
    Role,
    SearchResult,
    Tree,
    check_algorithm,
    search,
)

MAX_TREE_NODES = 5_000
"""The largest tree :func:`explain_tree` records unless told otherwise: more is no longer readable."""


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
