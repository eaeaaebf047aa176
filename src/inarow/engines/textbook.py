"""Textbook game-tree search: minimax, negamax and α-β as taught, each with a record of the tree it drew.

These are for learning and for checking the engine: plain recursion over immutable :class:`Position`
values, a depth limit, and the textbook evaluation e(P) at the leaves
(:func:`inarow.evaluation.lines.static_value`:
``+inf`` for a won position, ``-inf`` for a lost one, the named evaluation otherwise). Nothing here is
clever about speed; :mod:`inarow.engines.exact.reference` is.

Whose standpoint a value takes
==============================
- ``minimax``, ``alphabeta`` and ``alphabeta-soft`` are written with separate Max and Min functions, as in
  the textbooks: **X is Max** and every value in their tree is from X's standpoint. When O is to move at
  the root, the root is a Min node.
- ``negamax`` scores every node from the standpoint of **the side to move at that node**; a parent takes
  the largest of its children's values negated. ``negamax-alphabeta`` is α-β in that form (fail-hard):
  each node's window is in its own frame, and a child is searched with (−β, −α).

:attr:`SearchResult.frame_value` is the root's value in the algorithm's own frame;
:attr:`SearchResult.mover_value` is the same value from the standpoint of the side to move at the root,
comparable between all algorithms.

α-β comes in two forms. **Fail-hard** (``alphabeta``) never returns a value outside the window it was
given: a Max node whose child reaches β returns β, a Min node whose child falls to α returns α. **Fail-soft**
(``alphabeta-soft``) returns the best value it saw, which may lie outside the window and is then a bound:
at most the true value after a cut-off at a Max node, at least it at a Min node. Both give the root the
minimax value. Two options show what real programs add: ``ordering`` tries the children best-first by their
static evaluation, and ``table`` remembers the values of positions already searched (a transposition table
with lower and upper bounds). A position is always searched to the same remaining depth in one search (its
stone count fixes the ply), so the table never changes a value, only the work.

The record
==========
A :class:`Recorder` follows the search; the :class:`Tree` it gives keeps every visited :class:`Node` in the
order the search entered it: its path of moves from the root, its depth, α and β on entry (α-β only), its
value, whether it was a leaf and why, whether it cut off, which children it pruned and the values that met
there, and the steps at which the search entered and left it; and every step as an :class:`Event` with
fields (enter, α rises / β falls / best so far, cut-off, return) for a step-by-step replay.

Searches run on boards (:class:`~inarow.rules.game.Position`) or on abstract trees of leaf values
(:mod:`inarow.teaching.abstract`), both seen through the small :class:`State` protocol. The search only
records: drawing the tree is :mod:`inarow.teaching.drawing`'s. :attr:`SearchResult.nodes` counts visited
nodes, the root and every terminal node included, whether or not the tree is kept; full-depth minimax on the
empty 3×3 board visits 549,946.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol, Self

from inarow.base.errors import InvalidLimitError, Items, UnknownAlgorithmError
from inarow.base.i18n import N_
from inarow.engines.limits import Budget
from inarow.evaluation.lines import BoardFunction, Evaluation, Weights, evaluation_of, static_value
from inarow.evaluation.student import CodeEvaluation
from inarow.rules.game import Position, Side, other

ALGORITHMS = ("minimax", "negamax", "alphabeta", "alphabeta-soft", "negamax-alphabeta")
"""The textbook algorithms by name."""

ORDERS = ("columns", "rows")
"""The orders children are generated in: ``columns`` (a1 a2 a3 b1 …, the engine's board order, the
default) or ``rows`` (row by row from the top, a3 b3 c3 a2 …, as course material draws trees)."""

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


def check_algorithm(name: str) -> str:
    """``name`` normalised, if it is one of :data:`ALGORITHMS`. Raises :class:`UnknownAlgorithmError`."""
    return _one_of(name, ALGORITHMS, N_("unknown algorithm {name!r}: expected one of {known}"))


def _one_of(name: str, known: Sequence[str], refusal: str) -> str:
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
    (X's standpoint for minimax and both α-β forms, the side to move's for negamax and
    negamax-alphabeta), as the tree shows it; ``mover_value`` is the same value from the standpoint of
    the side to move at the root, comparable between all algorithms. Both are on the evaluation's scale,
    ``+inf``/``-inf`` for a forced win/loss (unlike :class:`inarow.engines.policy.Analysis`, whose ``value``
    is 1/0/-1 and ``score`` the exact score).

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

    @property
    def move_name(self) -> str | None:
        """The best move's name, e.g. ``b2``."""
        return None if self.move is None else self.position.game.cell_name(self.move)


def evaluation_name(evaluation: Evaluation) -> str:
    """The name of a named or weight-list evaluation, or of one written as code (``mine.py:e``), else the
    function's own name."""
    if isinstance(evaluation, Weights | CodeEvaluation):
        return evaluation.text
    return getattr(evaluation, "__name__", "evaluation")


def check_order(name: str) -> str:
    """``name`` normalised, if it is one of :data:`ORDERS`. Raises :class:`UnknownAlgorithmError`."""
    return _one_of(name, ORDERS, N_("unknown move order {name!r}: expected one of {known}"))


def _row_key(position: State, bit: int) -> tuple[int, int]:
    """Row by row from the top, left to right in a row (boards only; other states keep their order)."""
    if not isinstance(position, Position):
        return (0, bit)
    column, row = position.game.coordinates(bit)
    return (-row, column)


def forcing_moves(position: State) -> tuple[list[int], str]:
    """The moves quiescence searches at the horizon: the side to move's wins at once, else the cells it
    must block; ``([], "")`` when there are none (or ``position`` is not a board)."""
    if not isinstance(position, Position) or position.is_over:
        return [], ""
    game, side = position.game, position.turn
    legal = sum(1 << bit for bit in position.legal_bits())
    empty = game.board_mask & ~(position.x | position.o)
    wins = game.winning_cells(position.stones(side), empty) & legal
    if wins:
        return [bit for bit in position.legal_bits() if wins >> bit & 1], "win"
    threats = game.winning_cells(position.stones(other(side)), empty) & legal
    if threats:
        return [bit for bit in position.legal_bits() if threats >> bit & 1], "block"
    return [], ""


class _Search:
    """One search of one algorithm: the options, the evaluation and the tree being recorded."""

    def __init__(
        self,
        evaluation: Evaluation,
        recorder: Recorder,
        ordering: bool = False,
        table: bool = False,
        order: str = "columns",
        first: int | None = None,
        quiescence: bool = False,
    ) -> None:
        self.evaluation = evaluation
        self.recorder = recorder
        self.ordering = ordering
        self.order = order
        self.first = first
        self.quiescence = quiescence
        self.table: dict[State, tuple[int, float, str]] | None = {} if table else None

    # ----------------------------------------------------------------------------- helpers
    def leaf_reason(self, position: State, side: Side) -> LeafReason:
        if position.winner is None:
            if position.is_over:
                return "leaf" if hasattr(position, "leaf_value") else "draw"
            return "depth"
        return "won" if position.winner == side else "lost"

    def stop(self, position: State, depth: int, node: int) -> bool:
        """Whether ``position`` is a leaf: the game is over, or the horizon is reached and quiescence
        (when on) finds no forcing move there."""
        if position.is_over:
            return True
        if depth > 0:
            return False
        if self.quiescence and forcing_moves(position)[0]:
            self.recorder.note(node, "forcing", extended=True)
            return False
        return True

    def children(self, position: State, depth: int = 1, node: int = -1) -> list[tuple[int, State]]:
        """The moves searched with the positions they lead to, in the order searched: at the horizon
        (quiescence) only the forcing ones; else board order (columns, or rows from the top), best-first
        for the mover by static evaluation when ordering, and the previous iteration's best move first at
        the root."""
        moves: list[tuple[int, State]] = list(position.children())
        reason: OrderReason = "columns"
        if depth <= 0:
            forcing = set(forcing_moves(position)[0])
            moves = [pair for pair in moves if pair[0] in forcing]
            self.recorder.note(node, "forcing", extended=True)
            return moves
        if self.order == "rows":
            moves.sort(key=lambda pair: _row_key(position, pair[0]))
            reason = "rows"
        if self.ordering:
            mover = position.turn
            moves.sort(key=lambda pair: -self.e(pair[1], mover))
            reason = "evaluation"
        if self.first is not None and position.ply == self.root_ply:
            moves.sort(key=lambda pair: pair[0] != self.first)
            reason = "previous-best"
        self.recorder.note(node, reason)
        return moves

    root_ply = -1

    # ---------------------------------------------------------------------------- minimax
    def max_value(self, position: State, depth: int, parent: int = -1, move: int | None = None) -> float:
        """Minimax at a Max node (X to move): the largest of the children's values."""
        node = self.recorder.enter(parent, move, "max", position)
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        value, best = -math.inf, None
        for bit, child in self.children(position, depth, node):
            child_value = self.min_value(child, depth - 1, node, bit)
            if best is None or child_value > value:
                value, best = child_value, bit
                self.recorder.update(node, "best", value, bit)
        return self.recorder.leave(node, value, best)

    def min_value(self, position: State, depth: int, parent: int = -1, move: int | None = None) -> float:
        """Minimax at a Min node (O to move): the smallest of the children's values, X's standpoint."""
        node = self.recorder.enter(parent, move, "min", position)
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        value, best = math.inf, None
        for bit, child in self.children(position, depth, node):
            child_value = self.max_value(child, depth - 1, node, bit)
            if best is None or child_value < value:
                value, best = child_value, bit
                self.recorder.update(node, "best", value, bit)
        return self.recorder.leave(node, value, best)

    # ---------------------------------------------------------------------------- negamax
    def negamax(self, position: State, depth: int, parent: int = -1, move: int | None = None) -> float:
        """Negamax: the value for the side to move is the largest of its children's values negated."""
        node = self.recorder.enter(parent, move, "negamax", position)
        side = position.turn
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, side), leaf=self.leaf_reason(position, side))
        value, best = -math.inf, None
        for bit, child in self.children(position, depth, node):
            child_value = -self.negamax(child, depth - 1, node, bit)
            if best is None or child_value > value:
                value, best = child_value, bit
                self.recorder.update(node, "best", value, bit)
        return self.recorder.leave(node, value, best)

    def negamax_ab(
        self,
        position: State,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Negamax-form α-β, fail-hard: every value for the side to move; a child is searched with the
        window (−β, −α) and its value negated; a value reaching β returns β."""
        node = self.recorder.enter(parent, move, "negamax", position, alpha, beta)
        side = position.turn
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, side), leaf=self.leaf_reason(position, side))
        moves, best, seen = self.children(position, depth, node), None, -math.inf
        for index, (bit, child) in enumerate(moves):
            value = -self.negamax_ab(child, depth - 1, -beta, -alpha, node, bit)
            seen = max(seen, value)
            if value >= beta:
                self._cut(node, moves, index, bit, value, "beta", value, beta)
                return self.recorder.leave(node, beta, bit, seen=seen)
            if value > alpha:
                alpha, best = value, bit
                self.recorder.update(node, "alpha", value, bit, alpha, beta)
        return self.recorder.leave(node, alpha, best, seen=seen)

    # ------------------------------------------------------------------------ α-β, fail-hard
    def max_hard(
        self,
        position: State,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Fail-hard α-β at a Max node: the value clamped to [α, β]; a child reaching β returns β."""
        node = self.recorder.enter(parent, move, "max", position, alpha, beta)
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        moves, best, seen = self.children(position, depth, node), None, -math.inf
        for index, (bit, child) in enumerate(moves):
            value = self.min_hard(child, depth - 1, alpha, beta, node, bit)
            seen = max(seen, value)
            if value >= beta:
                self._cut(node, moves, index, bit, value, "beta", value, beta)
                return self.recorder.leave(node, beta, bit, seen=seen)
            if value > alpha:
                alpha, best = value, bit
                self.recorder.update(node, "alpha", value, bit, alpha, beta)
        return self.recorder.leave(node, alpha, best, seen=seen)

    def min_hard(
        self,
        position: State,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Fail-hard α-β at a Min node: the value clamped to [α, β]; a child falling to α returns α."""
        node = self.recorder.enter(parent, move, "min", position, alpha, beta)
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        moves, best, seen = self.children(position, depth, node), None, math.inf
        for index, (bit, child) in enumerate(moves):
            value = self.max_hard(child, depth - 1, alpha, beta, node, bit)
            seen = min(seen, value)
            if value <= alpha:
                self._cut(node, moves, index, bit, value, "alpha", alpha, value)
                return self.recorder.leave(node, alpha, bit, seen=seen)
            if value < beta:
                beta, best = value, bit
                self.recorder.update(node, "beta", value, bit, alpha, beta)
        return self.recorder.leave(node, beta, best, seen=seen)

    # ------------------------------------------------------------------------ α-β, fail-soft
    def max_soft(
        self,
        position: State,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Fail-soft α-β at a Max node: the best value seen, which after a cut-off is at least β."""
        node = self.recorder.enter(parent, move, "max", position, alpha, beta)
        stored = self._probe(position, depth, alpha, beta)
        if stored is not None:
            return self.recorder.leave(node, stored, leaf="table")
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        alpha0, moves = alpha, self.children(position, depth, node)
        value, best = -math.inf, None
        for index, (bit, child) in enumerate(moves):
            child_value = self.min_soft(child, depth - 1, alpha, beta, node, bit)
            if best is None or child_value > value:
                value, best = child_value, bit
            if value >= beta:
                self._cut(node, moves, index, bit, child_value, "beta", value, beta)
                break
            if value > alpha:
                alpha = value
                self.recorder.update(node, "alpha", value, bit, alpha, beta)
        self._store(position, depth, value, alpha0, beta)
        return self.recorder.leave(node, value, best)

    def min_soft(
        self,
        position: State,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Fail-soft α-β at a Min node: the best value seen (for Min), which after a cut-off is at most α."""
        node = self.recorder.enter(parent, move, "min", position, alpha, beta)
        stored = self._probe(position, depth, alpha, beta)
        if stored is not None:
            return self.recorder.leave(node, stored, leaf="table")
        if self.stop(position, depth, node):
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        beta0, moves = beta, self.children(position, depth, node)
        value, best = math.inf, None
        for index, (bit, child) in enumerate(moves):
            child_value = self.max_soft(child, depth - 1, alpha, beta, node, bit)
            if best is None or child_value < value:
                value, best = child_value, bit
            if value <= alpha:
                self._cut(node, moves, index, bit, child_value, "alpha", alpha, value)
                break
            if value < beta:
                beta = value
                self.recorder.update(node, "beta", value, bit, alpha, beta)
        self._store(position, depth, value, alpha, beta0)
        return self.recorder.leave(node, value, best)

    # ----------------------------------------------------------------------------- shared
    def e(self, position: State, side: Side) -> float:
        """The textbook e(P) from ``side``'s standpoint (an abstract tree's leaf value, there)."""
        if isinstance(position, Position):
            return static_value(position, side, self.evaluation)
        scored: Scored = position  # type: ignore[assignment]  # only boards and abstract trees are searched
        return scored.leaf_value(side)

    def _cut(
        self,
        node: int,
        moves: list[tuple[int, State]],
        index: int,
        move: int,
        value: float,
        bound: Bound,
        alpha: float,
        beta: float,
    ) -> None:
        self.recorder.cut(node, move, value, bound, [bit for bit, _ in moves[index + 1 :]], alpha, beta)

    def _probe(self, position: State, depth: int, alpha: float, beta: float) -> float | None:
        """A remembered value that settles this node within the window, if the table holds one."""
        if self.table is None:
            return None
        entry = self.table.get(position)
        if entry is None or entry[0] != depth:
            return None
        _, value, bound = entry
        if bound == "exact" or (bound == "lower" and value >= beta) or (bound == "upper" and value <= alpha):
            return value
        return None

    def _store(self, position: State, depth: int, value: float, alpha: float, beta: float) -> None:
        """Remember a fail-soft value searched with the window (α, β): exact inside it, else a bound."""
        if self.table is not None:
            bound = "upper" if value <= alpha else "lower" if value >= beta else "exact"
            self.table[position] = (depth, value, bound)


def search(
    position: State,
    algorithm: str = "minimax",
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    *,
    ordering: bool = False,
    table: bool = False,
    record: bool = True,
    budget: Budget | None = None,
    order: str = "columns",
    first: int | None = None,
    quiescence: bool = False,
) -> SearchResult:
    """Search ``position`` with a textbook ``algorithm`` (one of :data:`ALGORITHMS`) ``depth`` plies deep
    (None: to the end of the game) with ``evaluation`` (a function, a name of
    :data:`~inarow.evaluation.lines.EVALUATIONS` or ``weights:W0,…,Wk``) at the leaves.

    ``order`` (one of :data:`ORDERS`) is the order children are generated in; ``ordering`` then tries
    them best-first by their static evaluation; ``first`` is a root move tried before all others (the
    previous iteration's best, :func:`deepen`); ``quiescence`` searches on at the horizon while the side
    to move can win at once or must block (:func:`forcing_moves`); ``table`` (``alphabeta-soft`` only)
    adds a transposition table. With ``record`` the result holds the whole :class:`Tree`; without it only
    the node count is kept. Raises :class:`UnknownAlgorithmError`,
    :class:`~inarow.evaluation.lines.UnknownEvaluationError`, :class:`~inarow.base.errors.InvalidLimitError`
    for a negative depth, and lets :class:`~inarow.engines.limits.SearchAborted` through when ``budget`` runs
    out.
    """
    algorithm = check_algorithm(algorithm)
    order = check_order(order)
    function = evaluation_of(evaluation)
    if isinstance(function, Weights) and isinstance(position, Position):
        function.for_game(position.game)  # a weight list of the wrong length is refused before searching
    if depth is None:
        depth = position.game.cells - position.ply
    if depth < 0:
        raise InvalidLimitError(N_("invalid depth {depth!r}: expected 0 plies or more"), depth=depth)
    if table and algorithm != "alphabeta-soft":
        raise ValueError("a transposition table needs fail-soft α-β ('alphabeta-soft')")
    recorder = Recorder(keep=record, budget=budget)
    runner = _Search(
        function, recorder, ordering=ordering, table=table, order=order, first=first, quiescence=quiescence
    )
    runner.root_ply = position.ply
    start = time.perf_counter()
    x_to_move = position.turn == "x"
    value: float
    if algorithm == "minimax":
        value = runner.max_value(position, depth) if x_to_move else runner.min_value(position, depth)
    elif algorithm == "negamax":
        value = runner.negamax(position, depth)
    elif algorithm == "negamax-alphabeta":
        value = runner.negamax_ab(position, depth, -math.inf, math.inf)
    elif algorithm == "alphabeta":
        top: Callable[..., float] = runner.max_hard if x_to_move else runner.min_hard
        value = top(position, depth, -math.inf, math.inf)
    else:
        top = runner.max_soft if x_to_move else runner.min_soft
        value = top(position, depth, -math.inf, math.inf)
    seconds = time.perf_counter() - start
    move = recorder.root_best
    if move is None and not position.is_over and depth > 0:
        move = runner.children(position)[0][0]  # every move is as bad as the first (all -∞, say)
    in_mover_frame = algorithm in ("negamax", "negamax-alphabeta")
    return SearchResult(
        algorithm=algorithm,
        position=position,
        depth=depth,
        evaluation=evaluation_name(function),
        frame_value=value,
        mover_value=value if in_mover_frame or x_to_move else -value,
        move=move,
        nodes=recorder.count,
        max_depth=recorder.max_depth,
        seconds=seconds,
        tree=recorder.finish(),
        order=order,
        quiescence=quiescence,
    )


def deepen(
    position: State,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    *,
    record_last: bool = True,
    budget: Budget | None = None,
    **options: bool | str,
) -> tuple[SearchResult, ...]:
    """Iterative deepening: a search to depth 1, 2, …, ``depth`` (None: to the end), each trying the
    previous depth's best move first. One result a depth; the last holds its tree when ``record_last``.
    ``options`` go to :func:`search` (``order``, ``ordering``, ``quiescence``)."""
    if depth is None:
        depth = position.game.cells - position.ply
    results: list[SearchResult] = []
    previous: int | None = None
    for plies in range(1, max(depth, 1) + 1):
        result = search(
            position,
            algorithm,
            plies,
            evaluation,
            record=record_last and plies == depth,
            budget=budget,
            first=previous,
            **options,  # type: ignore[arg-type]  # the options of search, by keyword
        )
        results.append(result)
        previous = result.move
    return tuple(results)


def minimax(
    position: Position, depth: int | None = None, evaluation: Evaluation | BoardFunction | str = "open-lines"
) -> SearchResult:
    """Minimax with separate Max (X) and Min (O) functions; see :func:`search`."""
    return search(position, "minimax", depth, evaluation)


def negamax(
    position: Position, depth: int | None = None, evaluation: Evaluation | BoardFunction | str = "open-lines"
) -> SearchResult:
    """Negamax, every value from the side to move's standpoint; see :func:`search`."""
    return search(position, "negamax", depth, evaluation)


def alphabeta(
    position: Position,
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    *,
    soft: bool = False,
) -> SearchResult:
    """α-β in its fail-hard form, or fail-soft with ``soft``; see :func:`search`."""
    return search(position, "alphabeta-soft" if soft else "alphabeta", depth, evaluation)


def move_scores(
    position: Position,
    algorithm: str = "minimax",
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    budget: Budget | None = None,
    order: str = "columns",
) -> tuple[dict[int, float], int]:
    """The depth-limited value of every legal move from the standpoint of the side that plays it, each
    move searched ``depth - 1`` plies further with a full window, and the nodes visited in all (the root
    not included: it is not searched, only its children are).

    ``depth`` counts from ``position`` (None: to the end), so a move's value is what a ``depth``-ply search
    of ``position`` backs up through that move; hand calculations check against it.
    """
    if depth is None:
        depth = position.game.cells - position.ply
    scores: dict[int, float] = {}
    nodes = 0
    for bit, child in position.children():
        result = search(
            child, algorithm, max(depth - 1, 0), evaluation, record=False, budget=budget, order=order
        )
        nodes += result.nodes
        scores[bit] = -result.mover_value  # the child's score is from the opponent's standpoint
    return scores, nodes
