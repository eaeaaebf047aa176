"""The record of a textbook search: every visited :class:`Node` and every step (:class:`Event`) of one
search, kept by a :class:`Recorder`, and what a search returns (:class:`SearchResult`).

A :class:`Recorder` follows the search; the :class:`Tree` it gives keeps every visited :class:`Node` in the
order the search entered it: its path of moves from the root, its depth, α and β on entry (α-β only), its
value, whether it was a leaf and why, whether it cut off, which children it pruned and the values that met
there, and the steps at which the search entered and left it; and every step as an :class:`Event` with
fields (enter, α rises / β falls / best so far, cut-off, return) for a step-by-step replay.

The algorithms never call the recorder: :mod:`inarow.engines.textbook.walk` records them from outside, by
the game interface they search through (:class:`inarow.engines.textbook.algorithm.Game`).

Searches run on boards (:class:`~inarow.rules.game.Position`) or on abstract trees of leaf values
(:mod:`inarow.teaching.abstract`), both seen through the small :class:`State` protocol.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol, Self

from inarow.base.errors import Items, UnknownAlgorithmError
from inarow.engines.limits import Budget
from inarow.rules.game import Side

Role = Literal["max", "min", "negamax"]
LeafReason = Literal["won", "lost", "draw", "depth", "table", "leaf"]
OrderReason = Literal["columns", "rows", "evaluation", "previous-best", "forcing"]
EventKind = Literal["enter", "update", "cutoff", "return"]
Bound = Literal["alpha", "beta", "best"]

_CHECK_EVERY = 1023
"""Nodes between looks at the clock (a mask)."""


class GameNames(Protocol):
    """What a search needs of a game: its name, its size (the deepest a search can go) and move names."""

    @property
    def name(self) -> str: ...

    @property
    def cells(self) -> int: ...

    def cell_name(self, bit: int) -> str: ...


class State(Hashable, Protocol):
    """What a textbook search needs of a position: :class:`inarow.rules.game.Position`, or an abstract tree of
    leaf values (:mod:`inarow.teaching.abstract`)."""

    @property
    def game(self) -> GameNames: ...

    @property
    def turn(self) -> Side: ...

    @property
    def ply(self) -> int: ...

    @property
    def winner(self) -> Side | None: ...

    @property
    def is_over(self) -> bool: ...

    def children(self) -> Iterator[tuple[int, Self]]: ...

    def diagram(self) -> str: ...


class Scored(State, Protocol):
    """A state that scores itself (an abstract tree's leaf): its value from ``side``'s standpoint."""

    def leaf_value(self, side: Side) -> float: ...


def one_of(name: str, known: Sequence[str], refusal: str) -> str:
    """``name`` normalised (trimmed, lower case), if it is in ``known``; else :class:`UnknownAlgorithmError`
    with the catalog entry ``refusal``."""
    key = name.strip().lower()
    if key not in known:
        raise UnknownAlgorithmError(refusal, name=name, known=Items(known))
    return key


@dataclass(frozen=True, kw_only=True)
class Node:
    """One visited node of a recorded search tree.

    ``alpha`` and ``beta`` are the window on entry (None for minimax and negamax; for negamax-alphabeta
    the window in the node's own frame, (−β, −α) of its parent's). ``value`` is in the algorithm's frame
    (see the module docstring). ``leaf`` says why the node is a leaf (None inside). ``pruned`` lists the
    moves (cell bits) a cut-off left unsearched, and ``cut`` the two values that met there, ``(α, β)``
    with α ≥ β (None without a cut-off). ``seen`` is the best value its children returned when it
    differs from ``value`` (fail-hard α-β clamps to the window). ``order`` says why its children were
    searched in the order of ``children``; ``extended`` marks a node at the horizon that quiescence
    searched further. ``enter`` and ``exit`` are the steps (indexes of :attr:`Tree.events`) at which the
    search entered and left the node. ``state`` is the position at the node.
    """

    id: int
    parent: int | None
    move: int | None
    path: tuple[int, ...]
    depth: int
    role: Role
    to_move: Side
    alpha: float | None
    beta: float | None
    value: float
    leaf: LeafReason | None
    cut: tuple[float, float] | None
    pruned: tuple[int, ...]
    children: tuple[int, ...]
    best: int | None
    seen: float | None = None
    order: OrderReason = "columns"
    extended: bool = False
    enter: int
    exit: int
    state: State

    @property
    def cutoff(self) -> bool:
        """Whether a cut-off ended this node's search early."""
        return self.cut is not None


@dataclass(frozen=True, kw_only=True)
class Event:
    """One step of a recorded search, as fields (the words are made where they are shown).

    - ``enter``: the search enters ``node`` with the window ``alpha``, ``beta`` (α-β only);
    - ``return``: ``node`` returns ``value`` to its parent (``move`` is its own move);
    - ``update``: at ``node``, the child ``move`` made ``bound`` (``alpha`` rises, ``beta`` falls, or the
      ``best`` value so far for minimax and negamax) become ``value``; ``alpha``/``beta`` the window after;
    - ``cutoff``: at ``node``, the child ``move`` returned ``value``, which met the ``bound`` (``beta`` at
      a Max or negamax node: value ≥ β; ``alpha`` at a Min node: value ≤ α), so ``pruned`` are left.
    """

    kind: EventKind
    node: int
    move: int | None = None
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    bound: Bound | None = None
    pruned: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Tree:
    """The record of one search: every visited node in the order the search entered it (``nodes[0]`` is
    the root), and every step in order (``events``; ``steps`` is their number)."""

    nodes: tuple[Node, ...]
    events: tuple[Event, ...]

    @property
    def steps(self) -> int:
        """How many steps a replay has: one an event."""
        return len(self.events)

    @property
    def root(self) -> Node:
        """The root node."""
        return self.nodes[0]


class Recorder:
    """Records one search as it runs: every node and step when ``keep``, else only the count and the
    deepest depth.

    With a ``budget``, every visited node counts against it and :class:`~inarow.engines.limits.SearchAborted`
    is raised when it runs out. :meth:`finish` gives the :class:`Tree`.
    """

    def __init__(self, keep: bool = True, budget: Budget | None = None) -> None:
        self.keep = keep
        self.budget = budget
        self.nodes: list[Node] = []
        self.events: list[Event] = []
        self._children: list[list[int]] = []
        self.count = 0
        self.max_depth = 0
        self.level = 0
        self.root_best: int | None = None

    def enter(
        self,
        parent: int,
        move: int | None,
        role: Role,
        position: State,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> int:
        """Count a node and, when keeping, record it; returns its id (-1 when not keeping)."""
        depth = self.level
        self.level += 1
        self.count += 1
        self.max_depth = max(self.max_depth, depth)
        budget = self.budget
        if budget is not None:
            budget.nodes += 1
            if budget.nodes & _CHECK_EVERY == 0 or budget.max_nodes is not None:
                budget.check()
        if not self.keep:
            return -1
        node_id = len(self.nodes)
        path: tuple[int, ...] = ()
        if parent >= 0:
            self._children[parent].append(node_id)
            above = self.nodes[parent].path
            path = (*above, move) if move is not None else above
        self._children.append([])
        self.nodes.append(
            Node(
                id=node_id,
                parent=parent if parent >= 0 else None,
                move=move,
                path=path,
                depth=depth,
                role=role,
                to_move=position.turn,
                alpha=alpha,
                beta=beta,
                value=math.nan,
                leaf=None,
                cut=None,
                pruned=(),
                children=(),
                best=None,
                enter=len(self.events),
                exit=-1,
                state=position,
            )
        )
        self.events.append(Event(kind="enter", node=node_id, move=move, alpha=alpha, beta=beta))
        return node_id

    def leave(
        self,
        node: int,
        value: float,
        best: int | None = None,
        leaf: LeafReason | None = None,
        seen: float | None = None,
    ) -> float:
        """Record the value a node returns (and its best move, or why it is a leaf, and the best value its
        children returned when the node returns another); returns ``value``."""
        self.level -= 1
        if self.level == 0:
            self.root_best = best
        if node >= 0:
            record = self.nodes[node]
            self.nodes[node] = replace(
                record,
                value=value,
                best=best,
                leaf=leaf,
                seen=None if seen is None or seen == value else seen,
                children=tuple(self._children[node]),
                exit=len(self.events),
            )
            self.events.append(Event(kind="return", node=node, move=record.move, value=value))
        return value

    def update(
        self,
        node: int,
        bound: Bound,
        value: float,
        move: int,
        alpha: float | None = None,
        beta: float | None = None,
    ) -> None:
        """Record that the child ``move`` raised α, lowered β, or gave the best value so far at ``node``."""
        if node >= 0:
            self.events.append(
                Event(kind="update", node=node, move=move, value=value, bound=bound, alpha=alpha, beta=beta)
            )

    def cut(
        self,
        node: int,
        move: int,
        value: float,
        bound: Bound,
        unsearched: list[int],
        alpha: float,
        beta: float,
    ) -> None:
        """Record a cut-off at ``node``: the child ``move`` returned ``value`` and met ``bound``; the moves
        left unsearched and the values that met (α ≥ β)."""
        if node >= 0:
            self.nodes[node] = replace(self.nodes[node], cut=(alpha, beta), pruned=tuple(unsearched))
            self.events.append(
                Event(
                    kind="cutoff",
                    node=node,
                    move=move,
                    value=value,
                    bound=bound,
                    alpha=alpha,
                    beta=beta,
                    pruned=tuple(unsearched),
                )
            )

    def note(self, node: int, order: OrderReason, extended: bool = False) -> None:
        """Record why ``node``'s children come in their order, and whether quiescence extended it."""
        if node >= 0:
            self.nodes[node] = replace(self.nodes[node], order=order, extended=extended)

    def finish(self) -> Tree | None:
        """The recorded tree (None when not keeping)."""
        return Tree(nodes=tuple(self.nodes), events=tuple(self.events)) if self.keep else None


@dataclass(frozen=True, kw_only=True)
class SearchResult:
    """What a textbook search returns.

    Two standpoints, kept apart by name: ``frame_value`` is the root's value in the algorithm's own frame
    (MAX's standpoint, :attr:`max_side`, for an algorithm in the minimax frame, the side to move's for
    one in the negamax frame), as the tree shows it; ``mover_value`` is the same value from the standpoint of
    the side to move at the root, comparable between all algorithms. Both are on the evaluation's scale,
    ``+inf``/``-inf`` for a forced win/loss (unlike :class:`inarow.engines.policy.Analysis`, whose ``value``
    is
    1/0/-1 and ``score`` the exact score).

    ``move`` is the first best move in the order searched (None at a finished position or depth 0).
    ``nodes`` counts every visited node, ``max_depth`` the deepest one. ``tree`` is the record when the
    search was asked to keep it, else None. ``order`` is the order children were generated in.
    """

    algorithm: str
    position: State
    depth: int
    evaluation: str
    frame_value: float
    mover_value: float
    move: int | None
    nodes: int
    max_depth: int
    seconds: float
    tree: Tree | None
    order: str = "columns"
    quiescence: bool = False
    max_side: Side = "x"
    """MAX: the side whose standpoint the values of a minimax-frame tree take (the side to move at the
    root unless the search was told otherwise)."""

    @property
    def move_name(self) -> str | None:
        """The best move's name, e.g. ``b2``."""
        return None if self.move is None else self.position.game.cell_name(self.move)
