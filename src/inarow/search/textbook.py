"""Textbook game-tree search: minimax, negamax and α-β as taught, each with a record of the tree it drew.

These are for learning and for checking the engine: plain recursion over immutable :class:`Position`
values, a depth limit, and the textbook evaluation e(P) at the leaves (:func:`inarow.evaluation.static_value`:
``+inf`` for a won position, ``-inf`` for a lost one, the named evaluation otherwise). Nothing here is
clever about speed; :mod:`inarow.search.engine` is.

Whose standpoint a value takes
==============================
- ``minimax``, ``alphabeta`` and ``alphabeta-soft`` are written with separate Max and Min functions, as in
  the textbooks: **X is Max** and every value in their tree is from X's standpoint. When O is to move at
  the root, the root is a Min node.
- ``negamax`` scores every node from the standpoint of **the side to move at that node**; a parent takes
  the largest of its children's values negated.

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
there, and the steps at which the search entered and left it (for a step-by-step replay). The search only
records: drawing the tree is :mod:`inarow.drawing`'s. :attr:`SearchResult.nodes` counts visited nodes, the
root and every terminal node included, whether or not the tree is kept; full-depth minimax on the empty
3×3 board visits 549,946.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from inarow.errors import InvalidLimitError, UnknownAlgorithmError
from inarow.evaluation import EVALUATIONS, Evaluation, evaluation_named, static_value
from inarow.rules import Position, Side
from inarow.search.limits import Budget

ALGORITHMS = ("minimax", "negamax", "alphabeta", "alphabeta-soft")
"""The textbook algorithms by name."""

Role = Literal["max", "min", "negamax"]
LeafReason = Literal["won", "lost", "draw", "depth", "table"]

_CHECK_EVERY = 1023
"""Nodes between looks at the clock (a mask)."""


def check_algorithm(name: str) -> str:
    """``name`` normalised, if it is one of :data:`ALGORITHMS`. Raises :class:`UnknownAlgorithmError`."""
    key = name.strip().lower()
    if key not in ALGORITHMS:
        raise UnknownAlgorithmError(f"unknown algorithm {name!r}: expected one of {', '.join(ALGORITHMS)}")
    return key


@dataclass(frozen=True, kw_only=True)
class Node:
    """One visited node of a recorded search tree.

    ``alpha`` and ``beta`` are the window on entry (None for minimax and negamax). ``value`` is in the
    algorithm's frame (see the module docstring). ``leaf`` says why the node is a leaf (None inside).
    ``pruned`` lists the moves (cell bits) a cut-off left unsearched, and ``cut`` the two values that met
    there, ``(α, β)`` with α ≥ β (None without a cut-off). ``enter`` and ``exit`` are the steps, from 0, at
    which the search entered and left the node.
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
    enter: int
    exit: int

    @property
    def cutoff(self) -> bool:
        """Whether a cut-off ended this node's search early."""
        return self.cut is not None


@dataclass(frozen=True, kw_only=True)
class Tree:
    """The record of one search: every visited node in the order the search entered it (``nodes[0]`` is
    the root), and the number of steps (two a node: entering and leaving)."""

    nodes: tuple[Node, ...]
    steps: int

    @property
    def root(self) -> Node:
        """The root node."""
        return self.nodes[0]


class Recorder:
    """Records one search as it runs: every node when ``keep``, else only the count and the deepest depth.

    With a ``budget``, every visited node counts against it and :class:`~inarow.search.limits.SearchAborted`
    is raised when it runs out. :meth:`finish` gives the :class:`Tree`.
    """

    def __init__(self, keep: bool = True, budget: Budget | None = None) -> None:
        self.keep = keep
        self.budget = budget
        self.nodes: list[Node] = []
        self._children: list[list[int]] = []
        self.count = 0
        self.max_depth = 0
        self.steps = 0
        self.level = 0
        self.root_best: int | None = None

    def enter(
        self,
        parent: int,
        move: int | None,
        role: Role,
        position: Position,
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
                enter=self._step(),
                exit=-1,
            )
        )
        return node_id

    def leave(
        self, node: int, value: float, best: int | None = None, leaf: LeafReason | None = None
    ) -> float:
        """Record the value a node returns (and its best move, or why it is a leaf); returns ``value``."""
        self.level -= 1
        if self.level == 0:
            self.root_best = best
        if node >= 0:
            self.nodes[node] = replace(
                self.nodes[node],
                value=value,
                best=best,
                leaf=leaf,
                children=tuple(self._children[node]),
                exit=self._step(),
            )
        return value

    def cut(self, node: int, unsearched: list[int], alpha: float, beta: float) -> None:
        """Record a cut-off at ``node``: the moves left unsearched and the values that met (α ≥ β)."""
        if node >= 0:
            self.nodes[node] = replace(self.nodes[node], cut=(alpha, beta), pruned=tuple(unsearched))

    def _step(self) -> int:
        self.steps += 1
        return self.steps - 1

    def finish(self) -> Tree | None:
        """The recorded tree (None when not keeping)."""
        return Tree(nodes=tuple(self.nodes), steps=self.steps) if self.keep else None


@dataclass(frozen=True, kw_only=True)
class SearchResult:
    """What a textbook search returns.

    Two standpoints, kept apart by name: ``frame_value`` is the root's value in the algorithm's own frame
    (X's standpoint for minimax and both α-β forms, the side to move's for negamax), as the tree shows it;
    ``mover_value`` is the same value from the standpoint of the side to move at the root, comparable
    between all algorithms. Both are on the evaluation's scale, ``+inf``/``-inf`` for a forced win/loss
    (unlike :class:`inarow.analysis.Analysis`, whose ``value`` is 1/0/-1 and ``score`` the exact score).

    ``move`` is the first best move in the order searched (None at a finished position or depth 0).
    ``nodes`` counts every visited node, ``max_depth`` the deepest one. ``tree`` is the record when the
    search was asked to keep it, else None.
    """

    algorithm: str
    position: Position
    depth: int
    evaluation: str
    frame_value: float
    mover_value: float
    move: int | None
    nodes: int
    max_depth: int
    seconds: float
    tree: Tree | None

    @property
    def move_name(self) -> str | None:
        """The best move's name, e.g. ``b2``."""
        return None if self.move is None else self.position.game.cell_name(self.move)


def evaluation_name(evaluation: Evaluation) -> str:
    """The name of a named evaluation, else the function's own name."""
    for name, function in EVALUATIONS.items():
        if function is evaluation:
            return name
    return getattr(evaluation, "__name__", "evaluation")


class _Search:
    """One search of one algorithm: the options, the evaluation and the tree being recorded."""

    def __init__(
        self, evaluation: Evaluation, recorder: Recorder, ordering: bool = False, table: bool = False
    ) -> None:
        self.evaluation = evaluation
        self.recorder = recorder
        self.ordering = ordering
        self.table: dict[Position, tuple[int, float, str]] | None = {} if table else None

    # ----------------------------------------------------------------------------- helpers
    def leaf_reason(self, position: Position, side: Side) -> LeafReason:
        if position.winner is None:
            return "draw" if position.is_over else "depth"
        return "won" if position.winner == side else "lost"

    def children(self, position: Position) -> list[tuple[int, Position]]:
        """The legal moves with the positions they lead to; best-first for the mover when ordering."""
        moves = list(position.children())
        if self.ordering:
            mover = position.turn
            moves.sort(key=lambda pair: -static_value(pair[1], mover, self.evaluation))
        return moves

    # ---------------------------------------------------------------------------- minimax
    def max_value(self, position: Position, depth: int, parent: int = -1, move: int | None = None) -> float:
        """Minimax at a Max node (X to move): the largest of the children's values."""
        node = self.recorder.enter(parent, move, "max", position)
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        value, best = -math.inf, None
        for bit, child in self.children(position):
            child_value = self.min_value(child, depth - 1, node, bit)
            if best is None or child_value > value:
                value, best = child_value, bit
        return self.recorder.leave(node, value, best)

    def min_value(self, position: Position, depth: int, parent: int = -1, move: int | None = None) -> float:
        """Minimax at a Min node (O to move): the smallest of the children's values, X's standpoint."""
        node = self.recorder.enter(parent, move, "min", position)
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        value, best = math.inf, None
        for bit, child in self.children(position):
            child_value = self.max_value(child, depth - 1, node, bit)
            if best is None or child_value < value:
                value, best = child_value, bit
        return self.recorder.leave(node, value, best)

    # ---------------------------------------------------------------------------- negamax
    def negamax(self, position: Position, depth: int, parent: int = -1, move: int | None = None) -> float:
        """Negamax: the value for the side to move is the largest of its children's values negated."""
        node = self.recorder.enter(parent, move, "negamax", position)
        side = position.turn
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, side), leaf=self.leaf_reason(position, side))
        value, best = -math.inf, None
        for bit, child in self.children(position):
            child_value = -self.negamax(child, depth - 1, node, bit)
            if best is None or child_value > value:
                value, best = child_value, bit
        return self.recorder.leave(node, value, best)

    # ------------------------------------------------------------------------ α-β, fail-hard
    def max_hard(
        self,
        position: Position,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Fail-hard α-β at a Max node: the value clamped to [α, β]; a child reaching β returns β."""
        node = self.recorder.enter(parent, move, "max", position, alpha, beta)
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        moves, best = self.children(position), None
        for index, (bit, child) in enumerate(moves):
            value = self.min_hard(child, depth - 1, alpha, beta, node, bit)
            if value >= beta:
                self._cut(node, moves, index, value, beta)
                return self.recorder.leave(node, beta, bit)
            if value > alpha:
                alpha, best = value, bit
        return self.recorder.leave(node, alpha, best)

    def min_hard(
        self,
        position: Position,
        depth: int,
        alpha: float,
        beta: float,
        parent: int = -1,
        move: int | None = None,
    ) -> float:
        """Fail-hard α-β at a Min node: the value clamped to [α, β]; a child falling to α returns α."""
        node = self.recorder.enter(parent, move, "min", position, alpha, beta)
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        moves, best = self.children(position), None
        for index, (bit, child) in enumerate(moves):
            value = self.max_hard(child, depth - 1, alpha, beta, node, bit)
            if value <= alpha:
                self._cut(node, moves, index, alpha, value)
                return self.recorder.leave(node, alpha, bit)
            if value < beta:
                beta, best = value, bit
        return self.recorder.leave(node, beta, best)

    # ------------------------------------------------------------------------ α-β, fail-soft
    def max_soft(
        self,
        position: Position,
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
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        alpha0, moves = alpha, self.children(position)
        value, best = -math.inf, None
        for index, (bit, child) in enumerate(moves):
            child_value = self.min_soft(child, depth - 1, alpha, beta, node, bit)
            if best is None or child_value > value:
                value, best = child_value, bit
            if value >= beta:
                self._cut(node, moves, index, value, beta)
                break
            alpha = max(alpha, value)
        self._store(position, depth, value, alpha0, beta)
        return self.recorder.leave(node, value, best)

    def min_soft(
        self,
        position: Position,
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
        if position.is_over or depth == 0:
            return self.recorder.leave(node, self.e(position, "x"), leaf=self.leaf_reason(position, "x"))
        beta0, moves = beta, self.children(position)
        value, best = math.inf, None
        for index, (bit, child) in enumerate(moves):
            child_value = self.max_soft(child, depth - 1, alpha, beta, node, bit)
            if best is None or child_value < value:
                value, best = child_value, bit
            if value <= alpha:
                self._cut(node, moves, index, alpha, value)
                break
            beta = min(beta, value)
        self._store(position, depth, value, alpha, beta0)
        return self.recorder.leave(node, value, best)

    # ----------------------------------------------------------------------------- shared
    def e(self, position: Position, side: Side) -> float:
        """The textbook e(P) from ``side``'s standpoint."""
        return static_value(position, side, self.evaluation)

    def _cut(
        self, node: int, moves: list[tuple[int, Position]], index: int, alpha: float, beta: float
    ) -> None:
        self.recorder.cut(node, [bit for bit, _ in moves[index + 1 :]], alpha, beta)

    def _probe(self, position: Position, depth: int, alpha: float, beta: float) -> float | None:
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

    def _store(self, position: Position, depth: int, value: float, alpha: float, beta: float) -> None:
        """Remember a fail-soft value searched with the window (α, β): exact inside it, else a bound."""
        if self.table is not None:
            bound = "upper" if value <= alpha else "lower" if value >= beta else "exact"
            self.table[position] = (depth, value, bound)


def search(
    position: Position,
    algorithm: str = "minimax",
    depth: int | None = None,
    evaluation: Evaluation | str = "open-lines",
    *,
    ordering: bool = False,
    table: bool = False,
    record: bool = True,
    budget: Budget | None = None,
) -> SearchResult:
    """Search ``position`` with a textbook ``algorithm`` (one of :data:`ALGORITHMS`) ``depth`` plies deep
    (None: to the end of the game) with ``evaluation`` (a function or a name of
    :data:`~inarow.evaluation.EVALUATIONS`) at the leaves.

    ``ordering`` tries children best-first by their static evaluation; ``table`` (``alphabeta-soft`` only)
    adds a transposition table. With ``record`` the result holds the whole :class:`Tree`; without it only
    the node count is kept. Raises :class:`UnknownAlgorithmError`,
    :class:`~inarow.evaluation.UnknownEvaluationError`, :class:`~inarow.errors.InvalidLimitError` for a
    negative depth, and lets
    :class:`~inarow.search.limits.SearchAborted` through when ``budget`` runs out.
    """
    algorithm = check_algorithm(algorithm)
    function = evaluation_named(evaluation) if isinstance(evaluation, str) else evaluation
    if depth is None:
        depth = position.game.cells - position.ply
    if depth < 0:
        raise InvalidLimitError(f"invalid depth {depth!r}: expected 0 plies or more")
    if table and algorithm != "alphabeta-soft":
        raise ValueError("a transposition table needs fail-soft α-β ('alphabeta-soft')")
    recorder = Recorder(keep=record, budget=budget)
    runner = _Search(function, recorder, ordering=ordering, table=table)
    start = time.perf_counter()
    x_to_move = position.turn == "x"
    value: float
    if algorithm == "minimax":
        value = runner.max_value(position, depth) if x_to_move else runner.min_value(position, depth)
    elif algorithm == "negamax":
        value = runner.negamax(position, depth)
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
    return SearchResult(
        algorithm=algorithm,
        position=position,
        depth=depth,
        evaluation=evaluation_name(function),
        frame_value=value,
        mover_value=value if algorithm == "negamax" or x_to_move else -value,
        move=move,
        nodes=recorder.count,
        max_depth=recorder.max_depth,
        seconds=seconds,
        tree=recorder.finish(),
    )


def minimax(
    position: Position, depth: int | None = None, evaluation: Evaluation | str = "open-lines"
) -> SearchResult:
    """Minimax with separate Max (X) and Min (O) functions; see :func:`search`."""
    return search(position, "minimax", depth, evaluation)


def negamax(
    position: Position, depth: int | None = None, evaluation: Evaluation | str = "open-lines"
) -> SearchResult:
    """Negamax, every value from the side to move's standpoint; see :func:`search`."""
    return search(position, "negamax", depth, evaluation)


def alphabeta(
    position: Position,
    depth: int | None = None,
    evaluation: Evaluation | str = "open-lines",
    *,
    soft: bool = False,
) -> SearchResult:
    """α-β in its fail-hard form, or fail-soft with ``soft``; see :func:`search`."""
    return search(position, "alphabeta-soft" if soft else "alphabeta", depth, evaluation)


def move_scores(
    position: Position,
    algorithm: str = "minimax",
    depth: int | None = None,
    evaluation: Evaluation | str = "open-lines",
    budget: Budget | None = None,
) -> tuple[dict[int, float], int]:
    """The depth-limited value of every legal move from the standpoint of the side that plays it, each
    move searched ``depth - 1`` plies further with a full window, and the nodes visited in all.

    ``depth`` counts from ``position`` (None: to the end), so a move's value is what a ``depth``-ply search
    of ``position`` backs up through that move; hand calculations check against it.
    """
    if depth is None:
        depth = position.game.cells - position.ply
    scores: dict[int, float] = {}
    nodes = 0
    for bit, child in position.children():
        result = search(child, algorithm, max(depth - 1, 0), evaluation, record=False, budget=budget)
        nodes += result.nodes
        scores[bit] = -result.mover_value  # the child's score is from the opponent's standpoint
    return scores, nodes
