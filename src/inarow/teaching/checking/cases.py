"""The cases a student's search is checked on: the textbooks' trees, seeded random trees, 一字棋 positions.

- **Trees of the textbooks and the course** (:data:`TEXTBOOK_TREES`): Russell and Norvig's Figure 5.5 and
  the Explain panel's presets, searched to their leaves, Max at the root.
- **Seeded random trees** (:func:`random_tree`): 2 to 4 levels, 1 to 4 children a node, leaves at
  different depths, small values with ties on purpose (a leaf often copies its left sibling, so that a
  value equal to α or β, the cut-off ``≥`` decides, comes up); some searched short of their leaves, an
  inner node at the horizon then taking its minimax value as its e(P).
- **一字棋 (tic-tac-toe) positions** (:data:`BOARDS`) with the textbook e(P) (lines open for MAX minus lines
  open for MIN, ±∞ for a won or lost position), 1 to 4 plies deep, X or O to move, and once with MAX the
  side *not* to move (the root a Min node).
- **A window at the root** (:data:`WINDOWS`): α-β is right for any window it is called with, not only
  (−∞, +∞), so a tree and a board are searched once more from a narrow one. (Only such a call tells "α and
  β not passed down" from "the window not narrowed": from (−∞, +∞) both search every child with it.)

The same ``seed`` gives the same cases; every algorithm is checked on every case its frame has a use for:
MAX not to move only in the minimax frame, a window at the root only in the α-β family.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, replace
from typing import Literal

from inarow.engines.textbook import Algorithm, State
from inarow.evaluation.lines import Evaluation, evaluation_named
from inarow.rules.game import Side
from inarow.rules.notation import parse_position
from inarow.teaching.abstract import Leaves, parse_leaves

CaseKind = Literal["tree", "random", "board"]

TEXTBOOK_TREES: dict[str, Leaves] = {
    "russell-norvig": [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
    "binary-3": [[[3, 17], [2, 12]], [[15, 25], [0, 2]]],
    "binary-4": [[[[10, 11], [9, 12]], [[14, 15], [13, 14]]], [[[5, 2], [4, 1]], [[3, 22], [20, 21]]]],
    "unbalanced": [[5, [6, 7], 4], [[3, 3], 8], [-2, [9, 1, 5]]],
}
"""The textbooks' and the course's trees of leaf values, Max at the root: Russell and Norvig's Figure 5.5,
and the Explain panel's presets (``web/static/js/leaves.js``)."""

RANDOM_SHAPES = ((2, 2), (3, 3), (3, 2), (4, 4), (4, 3), (3, 3))
"""The random trees: (levels, depth searched) each; a depth short of the levels stops at a horizon."""

BOARDS: tuple[tuple[str, int, Side | None], ...] = (
    ("", 2, None),
    ("x../.o./...", 3, None),
    ("x../.../...", 2, None),
    ("xo./.x./...", 1, None),
    ("x../.o./..x", 4, None),
    ("xx./oo./...", 3, None),
    ("x../.o./...", 2, "o"),
)
"""The 一字棋 positions: (position, depth, MAX), MAX None for the side to move."""

WINDOWS: tuple[tuple[str, int, str, int, float, float], ...] = (
    ("russell-norvig", 0, "", 2, 2, 5),
    ("random", 7, "", 3, 3, 6),
    ("board", 0, "x../.o./...", 3, 0, 2),
)
"""The searches from a window: (what, the random tree's index, the position, depth, α, β); the textbook
tree is searched to its leaves."""

EVALUATION = "open-lines"
"""The textbook e(P) of the board cases."""


@dataclass(frozen=True)
class Case:
    """One case: its ``name`` (``russell-norvig``, ``random-3``, ``board-2``), its ``kind``, the ``root``
    searched ``depth`` plies with MAX ``max_side``; ``leaves`` the tree as JSON (trees), ``position`` the
    board's diagram (boards), ``seed`` the random tree's."""

    name: str
    kind: CaseKind
    root: State
    depth: int
    max_side: Side
    evaluation: Evaluation
    leaves: str | None = None
    position: str | None = None
    seed: int | None = None
    alpha: float = -math.inf
    beta: float = math.inf

    @property
    def windowed(self) -> bool:
        """Whether the root is searched with a window narrower than (−∞, +∞)."""
        return self.alpha != -math.inf or self.beta != math.inf

    @property
    def levels(self) -> int:
        """How deep the tree goes (a board: to the end of the game)."""
        return self.root.game.cells - self.root.ply


def _tree_case(name: str, kind: CaseKind, leaves: Leaves, depth: int | None, seed: int | None) -> Case:
    root = parse_leaves(json.dumps(leaves, separators=(",", ":")))
    levels = root.game.cells
    if depth is not None and depth < levels:
        root = root.estimating()
    return Case(
        name=name,
        kind=kind,
        root=root,
        depth=levels if depth is None else depth,
        max_side="x",
        evaluation=evaluation_named(EVALUATION),
        leaves=root.game.text,
        seed=seed,
    )


def random_tree(seed: int, levels: int) -> Leaves:
    """A random tree of leaf values ``levels`` deep: 1 to 4 children a node (at least 2 at the root), a
    node above the last level a leaf now and then, values from 0 to 9 with ties (a leaf copies its left
    sibling's value one time in three)."""
    generator = random.Random(seed)

    def node(level: int) -> Leaves:
        if level == levels or (level >= 2 and generator.random() < 0.15):
            return generator.randint(0, 9)
        kids: list[Leaves] = []
        for _ in range(generator.randint(2 if level == 0 else 1, 4)):
            kid = node(level + 1)
            twin = kids and not isinstance(kid, list) and not isinstance(kids[-1], list)
            if twin and generator.random() < 1 / 3:
                kid = kids[-1]
            kids.append(kid)
        return kids

    tree = node(0)
    assert isinstance(tree, list), "the root has children"
    return tree


def cases(seed: int = 1, algorithm: Algorithm | None = None) -> tuple[Case, ...]:
    """Every case for ``seed``, in the order they are checked; for ``algorithm`` (None: all), without the
    cases its frame has no use for (MAX not to move, in the negamax frame)."""
    found: list[Case] = [_tree_case(name, "tree", tree, None, None) for name, tree in TEXTBOOK_TREES.items()]
    for index, (levels, depth) in enumerate(RANDOM_SHAPES, start=1):
        tree_seed = seed * 1000 + index
        found.append(
            _tree_case(f"random-{index}", "random", random_tree(tree_seed, levels), depth, tree_seed)
        )
    for index, (diagram, depth, max_side) in enumerate(BOARDS, start=1):
        position = parse_position(diagram)
        if max_side is not None and algorithm is not None and algorithm.frame == "negamax":
            continue
        found.append(
            Case(
                name=f"board-{index}",
                kind="board",
                root=position,
                depth=depth,
                max_side=position.turn if max_side is None else max_side,
                evaluation=evaluation_named(EVALUATION),
                position=position.diagram(),
            )
        )
    if algorithm is None or algorithm.windowed:
        for what, index, diagram, depth, alpha, beta in WINDOWS:
            if what == "russell-norvig":
                case = _tree_case(what, "tree", TEXTBOOK_TREES[what], None, None)
            elif what == "random":
                tree_seed = seed * 1000 + index
                case = _tree_case(
                    f"random-{index}", "random", random_tree(tree_seed, depth), depth, tree_seed
                )
            else:
                position = parse_position(diagram)
                case = Case(
                    name=f"board-{len(BOARDS) + 1}",
                    kind="board",
                    root=position,
                    depth=depth,
                    max_side=position.turn,
                    evaluation=evaluation_named(EVALUATION),
                    position=position.diagram(),
                )
            name = f"{case.name}-window" if what == "russell-norvig" else case.name
            found.append(replace(case, name=name, alpha=alpha, beta=beta))
    return tuple(found)
