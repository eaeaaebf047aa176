"""Abstract game trees given as nested lists of leaf values, for exam questions:
``[[3,12,8],[2,4,6],[14,5,2]]`` is Russell and Norvig's tree, Max to move at the root, each inner list a
node, each number a leaf's value from Max's standpoint.

:func:`parse_leaves` reads the JSON; the :class:`AbstractState` it returns is searched by every textbook
algorithm (:func:`inarow.engines.textbook.search`) like a board. Moves are named as the textbooks label
them: the root's children ``a``, ``b``, ``c``…, their children ``a1``, ``a2``…, and deeper ``a1.1``….
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace

from inarow.base.errors import InvalidPositionError
from inarow.base.i18n import N_
from inarow.rules.game import Side

Leaves = float | list["Leaves"]

MAX_ABSTRACT_NODES = 10_000
"""The largest abstract tree read."""


@dataclass(frozen=True)
class AbstractGame:
    """The shape of an abstract tree: every node's label, children and leaf value, by preorder id."""

    text: str
    labels: tuple[str, ...]
    kids: tuple[tuple[int, ...], ...]
    values: tuple[float | None, ...]
    depths: tuple[int, ...]
    minimax: tuple[float, ...] = ()
    """Every node's minimax value from Max's standpoint (a leaf's own value)."""
    estimates: bool = False
    """Whether an inner node reached at the horizon (iterative deepening) or scored to order moves takes
    its minimax value as its e(P); without it, a search must go to the leaves."""

    @property
    def name(self) -> str:
        return "tree"

    @property
    def cells(self) -> int:
        """The depth of the deepest leaf: the deepest a search can go."""
        return max(self.depths)

    def cell_name(self, bit: int) -> str:
        """A node's label: ``a``, ``b2``, ``a1.3``."""
        return self.labels[bit]


@dataclass(frozen=True)
class AbstractState:
    """A node of an abstract tree: Max to move at even depths (shown as x), Min at odd ones (o)."""

    game: AbstractGame
    id: int = 0

    @property
    def ply(self) -> int:
        return self.game.depths[self.id]

    @property
    def turn(self) -> Side:
        return "x" if self.ply % 2 == 0 else "o"

    @property
    def winner(self) -> Side | None:
        return None

    @property
    def is_over(self) -> bool:
        return self.game.values[self.id] is not None

    def children(self) -> Iterator[tuple[int, AbstractState]]:
        for kid in self.game.kids[self.id]:
            yield kid, AbstractState(self.game, kid)

    def estimating(self) -> AbstractState:
        """The same node of the same tree, in which an inner node can be scored by its minimax value
        (:attr:`AbstractGame.estimates`): what iterative deepening and move ordering need."""
        return AbstractState(replace(self.game, estimates=True), self.id)

    def leaf_value(self, side: Side) -> float:
        """The leaf's value from ``side``'s standpoint (the tree gives Max's, and x is Max); an inner
        node's minimax value when the tree :attr:`~AbstractGame.estimates`. Raises
        :class:`InvalidPositionError` for an inner node otherwise."""
        value = self.game.values[self.id]
        if value is None and self.game.estimates:
            value = self.game.minimax[self.id]
        if value is None:
            raise InvalidPositionError(
                N_(
                    "invalid tree {text!r}: node {label!r} is not a leaf, and an abstract tree is "
                    "searched to its leaves: leave out the depth"
                ),
                text=self.game.text,
                label=self.game.labels[self.id],
            )
        return value if side == "x" else -value

    def diagram(self) -> str:
        return self.game.text


def parse_leaves(text: str) -> AbstractState:
    """The root of the abstract tree ``text`` (JSON nested lists of numbers, at least one list deep).
    Raises :class:`InvalidPositionError` naming what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidPositionError(
            N_("invalid tree {text!r}: not JSON ({msg})"), text=text, msg=error.msg
        ) from None
    if not isinstance(data, list) or not data:
        raise InvalidPositionError(
            N_(
                "invalid tree {text!r}: expected nested lists of leaf values such as "
                "[[3,12,8],[2,4,6],[14,5,2]]"
            ),
            text=text,
        )
    labels: list[str] = []
    kids: list[tuple[int, ...]] = []
    values: list[float | None] = []
    depths: list[int] = []

    def add(item: object, label: str, depth: int) -> int:
        if len(labels) >= MAX_ABSTRACT_NODES:
            raise InvalidPositionError(
                N_("invalid tree: more than {limit:,} nodes"),
                limit=MAX_ABSTRACT_NODES,
            )
        node = len(labels)
        labels.append(label)
        depths.append(depth)
        kids.append(())
        if isinstance(item, bool) or not isinstance(item, int | float | list):
            raise InvalidPositionError(
                N_("invalid tree {text!r}: {item} at {label} is neither a number nor a list"),
                text=text,
                item=json.dumps(item),
                label=label or "the root",
            )
        if isinstance(item, list):
            if not item:
                raise InvalidPositionError(
                    N_("invalid tree {text!r}: the node {label} is an empty list"),
                    text=text,
                    label=label or "root",
                )
            values.append(None)
            children = []
            for index, child in enumerate(item):
                if depth == 0:
                    name = _letters(index)
                elif depth == 1:
                    name = f"{label}{index + 1}"
                else:
                    name = f"{label}.{index + 1}"
                children.append(add(child, name, depth + 1))
            kids[node] = tuple(children)
        else:
            values.append(float(item))
        return node

    add(data, "", 0)
    compact = json.dumps(data, separators=(",", ":"))
    backed: list[float] = [0.0] * len(labels)
    for node in reversed(range(len(labels))):  # children come after their parent in preorder
        leaf = values[node]
        if leaf is not None:
            backed[node] = leaf
        else:
            below = [backed[kid] for kid in kids[node]]
            backed[node] = max(below) if depths[node] % 2 == 0 else min(below)
    game = AbstractGame(compact, tuple(labels), tuple(kids), tuple(values), tuple(depths), tuple(backed))
    return AbstractState(game)


def _letters(index: int) -> str:
    """a, b, …, z, aa, ab, …"""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("a") + rest) + name
    return name
