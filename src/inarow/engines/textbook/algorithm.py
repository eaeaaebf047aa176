"""What a textbook algorithm is: one small pure function over a small game interface, and what it declares.

An algorithm (:class:`Algorithm`) is a recursive function ``run(game, state, depth, alpha, beta) -> value``
that sees the game only through :class:`Game`: whether a node is a leaf and its value there, its children
in the order to search them, and the value of a child (``game.search``, which calls ``run`` again). It
never records anything. What it declares is all the recording, the drawing and the wording read:

- its **frame** (:data:`Frame`): ``minimax``, every value from MAX's standpoint, Max and Min nodes
  alternating; or ``negamax``, every value from the side to move at that node, a child's value negated;
- its **window rule** (:data:`Window`): ``none`` (no window: minimax, negamax), ``fail-hard`` (α-β that
  never returns a value outside its window), ``fail-soft`` (α-β that returns the best value it saw, a bound
  after a cut-off) or ``null-window`` (fail-soft α-β that tests the later children with a window of zero
  width and searches again those that fail high: PVS/NegaScout);
- its **name** and its **words**: a title and one sentence, translatable.

OpenSpiel's ``alpha_beta_search`` is the model. A new algorithm is one module (the function and its
:class:`Algorithm`), one line in :mod:`inarow.engines.textbook.registry`, and its words in the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from inarow.engines.textbook.records import State

Frame = Literal["minimax", "negamax"]
Window = Literal["none", "fail-hard", "fail-soft", "null-window"]


class Game(Protocol):
    """The game as an algorithm sees it (values in the algorithm's own frame)."""

    def maximizing(self, state: State) -> bool:
        """Whether the node maximises: a Max node in the minimax frame, every node in the negamax frame."""
        ...

    def leaf(self, state: State, depth: int) -> float | None:
        """The node's static value, e(P) in the algorithm's frame, if it is a leaf (the game is over or
        the horizon is reached); None for an inner node."""
        ...

    def children(self, state: State, depth: int) -> Sequence[tuple[int, State]]:
        """The moves to search, with the states they lead to, in the order to search them."""
        ...

    def search(self, move: int, state: State, depth: int, alpha: float, beta: float) -> float:
        """The value of the child reached by ``move``, searched ``depth`` plies with the window
        (``alpha``, ``beta``) in the child's frame (the same algorithm, one level down)."""
        ...

    def recall(self, state: State, depth: int, alpha: float, beta: float) -> float | None:
        """A remembered value that settles the node within the window (a transposition table), if any."""
        ...

    def remember(self, state: State, depth: int, value: float, alpha: float, beta: float) -> None:
        """Remember a fail-soft value searched with the window (``alpha``, ``beta``)."""
        ...


Run = Callable[[Game, State, int, float, float], float]
"""``run(game, state, depth, alpha, beta)``: the node's value in the algorithm's frame."""


@dataclass(frozen=True, kw_only=True)
class Algorithm:
    """A textbook algorithm and what it declares (see the module docstring). ``title`` and ``summary``
    are catalog entries (``N_``); ``family`` groups the window forms of one algorithm (``alphabeta`` for
    its fail-soft and fail-hard forms); ``table`` says whether it can use a transposition table."""

    name: str
    frame: Frame
    window: Window
    title: str
    summary: str
    run: Run
    family: str = ""
    table: bool = False

    @property
    def windowed(self) -> bool:
        """Whether it searches with a window (α, β): the α-β family."""
        return self.window != "none"

    @property
    def clamps(self) -> bool:
        """Whether a value is clamped to the window (fail-hard), so a node may return other than the best
        value its children gave."""
        return self.window == "fail-hard"
