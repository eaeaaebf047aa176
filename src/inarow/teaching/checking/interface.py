"""The node a student's search is written against, and the trail of what a search did with it.

A student writes ``minimax(node, depth)``, ``alphabeta(node, depth, alpha, beta)`` or a negamax form against
:class:`Node`, a thin face of the game interface the textbook registry's algorithms see
(:class:`inarow.engines.textbook.Game`)::

    node.children()     the children, in the order to search them (a list of nodes)
    node.is_terminal()  whether the game is over here (in a tree of leaf values: a leaf)
    node.evaluate()     e(P) here: from MAX's standpoint in the minimax frame, from the side to move's in
                        the negamax frame; +inf for a won position, -inf for a lost one
    node.is_max()       whether MAX is to move here (a Max node); MAX is the side whose standpoint the
                        minimax frame takes, the side to move at the root unless the case says otherwise
    node.turn           the side to move here, "x" or "o"
    node.move           the move that led here ("b2"; a tree's label "a1"), None at the root

``depth`` counts the plies left: the root is searched with the case's depth, a child with one less, and a
node is a leaf when the game is over there or the depth left is 0. The function returns the node's value, or
a pair ``(value, move)`` (the move a child node or its name).

The :class:`Trail` records what a search did, as :class:`Step` values, the same way for the student's
search (through :class:`Node` and the student's own functions, wrapped: :func:`instrument`) and for the
registry's algorithm (through :class:`Tracer`, the registry's game interface): a node **expanded** (counted
when the search first touches one of its children, so listing the children of a leaf costs nothing), a
leaf **evaluated** (the first e(P) call of a node), a node **entered** (a call of the search on it, with
its depth and window where the function's parameters are named ``depth``, ``alpha``, ``beta``) and a
value **returned**. Nodes are named by their path of moves from the root, so that two ways to one board
are two nodes, as they are in the tree.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from inarow.engines.textbook import Algorithm, State
from inarow.evaluation.lines import Evaluation, static_value
from inarow.evaluation.sandbox import shown
from inarow.rules.game import Position, Side
from inarow.teaching.abstract import AbstractState

if TYPE_CHECKING:
    from typing import Self

    from inarow.engines.textbook import GameNames

Path = tuple[int, ...]
"""A node of a case's tree: the moves from the root (cell bits; an abstract tree's node ids)."""

StepKind = Literal["expand", "evaluate", "enter", "return"]


@dataclass(frozen=True)
class Spot:
    """A node of a case's tree: the ``state`` there and the ``path`` of moves that reach it. It is a
    :class:`~inarow.engines.textbook.State`, so the registry's algorithms search it."""

    state: State
    path: Path = ()

    @property
    def game(self) -> GameNames:
        return self.state.game

    @property
    def turn(self) -> Side:
        return self.state.turn

    @property
    def ply(self) -> int:
        return self.state.ply

    @property
    def winner(self) -> Side | None:
        return self.state.winner

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def children(self) -> Iterator[tuple[int, Self]]:
        for move, child in self.state.children():
            yield move, type(self)(child, (*self.path, move))

    def diagram(self) -> str:
        return self.state.diagram()


def node_name(root: State, path: Path) -> str:
    """How a node is named to people (and on the Explain tree, ``data-path``): an abstract tree's label
    (``b2``), a board's moves from the root (``b2 a1``); ``""`` for the root."""
    if isinstance(root, AbstractState):
        return root.game.labels[path[-1]] if path else ""
    return " ".join(root.game.cell_name(move) for move in path)


def move_name(root: State, path: Path) -> str | None:
    """The move that led to the node: a label (``b2``) or a cell (``c1``); None at the root."""
    if not path:
        return None
    if isinstance(root, AbstractState):
        return root.game.labels[path[-1]]
    return root.game.cell_name(path[-1])


def static(state: State, side: Side, evaluation: Evaluation) -> float:
    """e(P) of ``state`` from ``side``'s standpoint: the textbook e(P) of a board (±∞ for a won or lost
    one), an abstract tree's leaf value (an inner node's minimax value in a tree that estimates)."""
    if isinstance(state, Position):
        return static_value(state, side, evaluation)
    assert isinstance(state, AbstractState), "cases are boards or abstract trees"
    return state.leaf_value(side)


@dataclass(frozen=True)
class Step:
    """One thing a search did (see the module docstring). ``depth``, ``alpha``, ``beta`` of an ``enter``
    and ``value`` of a ``return`` are None where they cannot be seen."""

    kind: StepKind
    path: Path
    depth: int | None = None
    alpha: float | None = None
    beta: float | None = None
    value: float | None = None


class TooLong(BaseException):
    """Raised inside a search whose trail passed its limit (a BaseException, so that a student's ``except
    Exception`` does not swallow it)."""


@dataclass
class Trail:
    """The steps of one search, in order, at most ``limit`` of them (:class:`TooLong` past it)."""

    limit: int
    steps: list[Step] = field(default_factory=list)
    expanded: set[Path] = field(default_factory=set)
    evaluated: set[Path] = field(default_factory=set)
    inside: dict[Path, int] = field(default_factory=dict)
    stopped: bool = False

    def add(self, step: Step) -> None:
        if len(self.steps) >= self.limit:
            self.stopped = True
            raise TooLong
        self.steps.append(step)

    def touch(self, path: Path) -> None:
        """The search looked at the node ``path``: its parent counts as expanded from now on."""
        if path and path[:-1] not in self.expanded:
            self.expanded.add(path[:-1])
            self.add(Step("expand", path[:-1]))

    def evaluate(self, path: Path) -> None:
        self.touch(path)
        if path not in self.evaluated:
            self.evaluated.add(path)
            self.add(Step("evaluate", path))

    def enter(self, path: Path, depth: int | None, alpha: float | None, beta: float | None) -> bool:
        """A call of the search on ``path``; whether it is the outermost on that node (only it counts: a
        helper called with the same node, ``alphabeta`` calling ``max_value``, is the same visit)."""
        self.touch(path)
        calls = self.inside.get(path, 0)
        self.inside[path] = calls + 1
        if calls == 0:
            self.add(Step("enter", path, depth, alpha, beta))
        return calls == 0

    def leave(self, path: Path, value: float | None, outermost: bool) -> None:
        self.inside[path] -= 1
        if outermost and value is not None:
            self.add(Step("return", path, value=value))


# ------------------------------------------------------------------------------ the registry's side
@dataclass(frozen=True)
class Twist:
    """How a planted bug bends what one level of a search asks of the next (the identity: none):
    ``same_depth`` searches a child with the parent's depth, ``full_window`` with (−∞, +∞) whatever the
    window, ``unnegated`` leaves a negamax child's value as it is (its sign not turned), ``swapped`` hands a
    negamax child (−α, −β) instead of (−β, −α), ``same_player`` makes every node the root's kind (Max after
    Max)."""

    same_depth: bool = False
    full_window: bool = False
    unnegated: bool = False
    swapped: bool = False
    same_player: bool = False


class Tracer:
    """The game a registry algorithm searches a case through (:class:`~inarow.engines.textbook.Game`),
    recording its :class:`Trail`; ``run`` is the algorithm's function (or a planted bug's), ``twist``
    bends it (see :class:`Twist`)."""

    def __init__(
        self,
        algorithm: Algorithm,
        evaluation: Evaluation,
        max_side: Side,
        root: Spot,
        limit: int,
        run: Callable[..., float] | None = None,
        twist: Twist | None = None,
    ) -> None:
        self.algorithm = algorithm
        self.evaluation = evaluation
        self.max_side: Side = max_side
        self.root = root
        self.run = run or algorithm.run
        self.twist = twist or Twist()
        self.trail = Trail(limit)

    def maximizing(self, state: State) -> bool:
        if self.algorithm.frame == "negamax":
            return True
        if self.twist.same_player:
            return self.root.turn == self.max_side
        return state.turn == self.max_side

    def leaf(self, state: State, depth: int) -> float | None:
        assert isinstance(state, Spot)
        if not state.is_over and depth > 0:
            return None
        self.trail.evaluate(state.path)
        side = state.turn if self.algorithm.frame == "negamax" else self.max_side
        return static(state.state, side, self.evaluation)

    def children(self, state: State, depth: int) -> Sequence[tuple[int, State]]:
        return list(state.children())

    def search(self, move: int | None, state: State, depth: int, alpha: float, beta: float) -> float:
        assert isinstance(state, Spot)
        twist = self.twist if move is not None else Twist()  # a bug bends what a parent hands a child
        if twist.same_depth:
            depth += 1
        if twist.full_window:
            alpha, beta = -math.inf, math.inf
        if twist.swapped:
            alpha, beta = beta, alpha
        windowed = self.algorithm.windowed
        outermost = self.trail.enter(
            state.path, depth, alpha if windowed else None, beta if windowed else None
        )
        value = self.run(self, state, depth, alpha, beta)
        self.trail.leave(state.path, value, outermost)
        return -value if twist.unnegated else value

    def recall(self, state: State, depth: int, alpha: float, beta: float) -> float | None:
        return None

    def remember(self, state: State, depth: int, value: float, alpha: float, beta: float) -> None:
        return None


# ------------------------------------------------------------------------------- the student's side
class SearchCodeError(Exception):
    """What a student's search did wrong that ends the check (the fields say what, where): it raised,
    returned something that is not a value, or took arguments it should not."""

    def __init__(self, kind: str, **fields: str) -> None:
        super().__init__(kind, fields)
        self.kind = kind
        self.fields = fields


class Node:
    """A node of the tree a student's search is checked on (see the module docstring): ``children()``,
    ``is_terminal()``, ``evaluate()``, ``is_max()``, ``turn``, ``move``."""

    __slots__ = ("_kids", "_probe", "_spot")

    def __init__(self, spot: Spot, probe: Probe) -> None:
        self._spot = spot
        self._probe = probe
        self._kids: list[Node] | None = None

    @property
    def move(self) -> str | None:
        """The move that led here: ``b2`` (a tree's label ``a1``); None at the root."""
        return move_name(self._probe.root.state, self._spot.path)

    @property
    def turn(self) -> Side:
        """The side to move here: ``x`` or ``o``."""
        self._probe.trail.touch(self._spot.path)
        return self._spot.turn

    def children(self) -> list[Node]:
        """The children, in the order to search them (none at the end of the game)."""
        self._probe.trail.touch(self._spot.path)
        if self._kids is None:
            self._kids = [Node(child, self._probe) for _, child in self._spot.children()]
        return list(self._kids)

    def is_terminal(self) -> bool:
        """Whether the game is over here (in a tree of leaf values: whether this is a leaf)."""
        self._probe.trail.touch(self._spot.path)
        return self._spot.is_over

    def is_max(self) -> bool:
        """Whether MAX is to move here: a Max node."""
        self._probe.trail.touch(self._spot.path)
        return self._spot.turn == self._probe.max_side

    def evaluate(self) -> float:
        """e(P) here: from MAX's standpoint in the minimax frame, from the side to move's in the negamax
        frame (+inf won, -inf lost)."""
        probe = self._probe
        probe.trail.evaluate(self._spot.path)
        side = self._spot.turn if probe.algorithm.frame == "negamax" else probe.max_side
        return static(self._spot.state, side, probe.evaluation)

    def __repr__(self) -> str:
        name = node_name(self._probe.root.state, self._spot.path)
        return f"Node({name!r})" if name else "Node(root)"


@dataclass
class Probe:
    """One run of a student's search on one case: the root, what the nodes answer, the trail."""

    algorithm: Algorithm
    evaluation: Evaluation
    max_side: Side
    root: Spot
    trail: Trail
    current: list[Path] = field(default_factory=list)


def number(value: object) -> float | None:
    """``value`` as a search value (a real number, ±∞ allowed; not a bool, not NaN), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        result = float(value)
    except (OverflowError, ValueError):
        return None
    return None if math.isnan(result) else result


def value_and_move(result: object) -> tuple[float | None, object]:
    """What a search returned, as (value, move): a number, or a pair (number, move); (None, result) for
    anything else."""
    if isinstance(result, tuple | list) and len(result) == 2:
        return number(result[0]), result[1]
    return number(result), None


WINDOW_NAMES = {"depth": ("depth",), "alpha": ("alpha", "α"), "beta": ("beta", "β")}
"""The parameter names whose arguments an entry records: a search's depth and window."""


def _reader(function: Callable[..., Any]) -> Callable[..., tuple[Any, Any, Any]]:
    """A function that reads the (depth, alpha, beta) a call of ``function`` was given (None where the
    function has no parameter of that name)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return lambda *args, **kwargs: (None, None, None)

    def read(*args: Any, **kwargs: Any) -> tuple[Any, Any, Any]:
        try:
            bound = signature.bind(*args, **kwargs).arguments
        except TypeError:
            return None, None, None
        found = [next((bound[n] for n in names if n in bound), None) for names in WINDOW_NAMES.values()]
        return found[0], found[1], found[2]

    return read


def _as_depth(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def instrument(namespace: dict[str, Any], probe: Callable[[], Probe | None]) -> None:
    """Wrap every function the student's code defines (in ``namespace``) so that a call whose first
    argument is a :class:`Node` of the running check is recorded as an entry and a return; ``probe`` gives
    the running check (None: none). The wrapped function replaces the original in ``namespace``, so the
    search's own recursion goes through it."""
    for name, function in list(namespace.items()):
        if not inspect.isfunction(function) or function.__globals__ is not namespace:
            continue
        namespace[name] = _wrapped(name, function, probe)


def _wrapped(
    name: str, function: Callable[..., Any], probe: Callable[[], Probe | None]
) -> Callable[..., Any]:
    read = _reader(function)

    @functools.wraps(function)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        running = probe()
        first = args[0] if args else next(iter(kwargs.values()), None)
        if running is None or not isinstance(first, Node) or first._probe is not running:
            return function(*args, **kwargs)
        path = first._spot.path
        depth, alpha, beta = read(*args, **kwargs)
        windowed = running.algorithm.windowed
        outermost = running.trail.enter(
            path,
            _as_depth(depth),
            number(alpha) if windowed else None,
            number(beta) if windowed else None,
        )
        running.current.append(path)
        try:
            result = function(*args, **kwargs)
        except BaseException:
            running.trail.inside[path] -= 1
            raise
        value, _ = value_and_move(result)
        if value is None:
            raise SearchCodeError(
                "returned",
                function=name,
                shown=shown(result),
                node=node_name(running.root.state, path),
            )
        running.current.pop()
        running.trail.leave(path, value, outermost)
        return result

    return recorded
