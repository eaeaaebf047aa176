"""Which exact engine solves a position, loading it, and the weak decision level ``perfect`` plays.

Two engines answer the same question (:class:`ExactSolver`: a position's exact score, or with ``weak``
only its sign) at very different costs: the pure-Python reference engine
(:mod:`inarow.engines.exact.reference`),
which costs nothing to start, and the compiled one (:mod:`inarow.engines.exact.compiled`), which costs numba's
import and a compilation (or a load from its cache) before its first search. :func:`engine_for` says
which one, :func:`load_engine` and :func:`prepare_engine` pay for the compiled one ahead of a search, and
:func:`exact_solver` hands one over. The compiled engine is imported inside those functions, not at the
top, so that a process that never needs it never imports numba.

The order in which the books, these engines and the depth-limited search answer a user is
:mod:`inarow.engines.policy`'s.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Literal, Protocol

from inarow.engines.exact.reference import Engine
from inarow.engines.limits import Budget
from inarow.engines.scores import exact_score, sign
from inarow.rules.game import Game, Position

EngineName = Literal["reference", "compiled"]

REFERENCE_MAX_EMPTY = 12
"""Positions with at most this many empty cells are solved by the pure-Python engine, whatever the board:
all of 3×3 (milliseconds), and tens of milliseconds at most on 4×4, 5×5 and Connect Four, less than loading
the compiled engine costs (importing numba 0.3 s, then 0.1–0.2 s from its cache). With more empty cells
the pure-Python engine's answers grow past that: a whole analysis of the empty 4×4 board takes it about a
second, the compiled engine 0.4 s to load and 10 ms to answer."""

REFERENCE_MAX_CELLS = 16
"""The largest board the pure-Python engine is expected to solve exactly in seconds (4×4 takes half a one)."""

CONNECT4 = Game(7, 6, 4, gravity=True)
"""The board :func:`load_engine` and :func:`prepare_engine` prepare when given none."""

Loading = Callable[[bool], AbstractContextManager[object]]
"""What :func:`load_engine` calls around loading the compiled engine, to show progress: it is given
whether numba will compile (seconds, once per install) rather than load its cache (a fraction of one)."""


class ExactSolver(Protocol):
    """What an exact search offers (the pure-Python engine, or a compiled one): ``solve(cur, opp)`` is the
    exact score of the position whose side to move has the stones ``cur`` and the other side ``opp``
    (with ``weak``: 1, 0 or -1 only), on the scale of :mod:`inarow.engines.scores`; it raises
    :class:`~inarow.engines.limits.SearchAborted` when ``budget`` runs out."""

    budget: Budget

    def solve(self, cur: int, opp: int, weak: bool = False) -> int: ...


def forced_engine() -> str:
    """``INAROW_ENGINE``: ``reference`` or ``compiled`` to force one engine where it can play, else
    ``auto``."""
    return os.environ.get("INAROW_ENGINE", "auto")


def compiled_supports(game: Game) -> bool:
    """Whether the compiled engine plays ``game``: the same rule as :func:`compiled.supports`, without
    importing numba to ask."""
    return game.columns * game.height <= 64


def compiled_loaded(game: Game | None = None) -> bool:
    """Whether this process has loaded (and compiled) the compiled search of ``game`` already (with no
    game: of any board). Each board has its own (see :mod:`inarow.engines.compiling`)."""
    module = sys.modules.get("inarow.engines.exact.compiled")
    return module is not None and bool(module.is_warm(game))


def engine_for(game: Game, empty: int | None = None, *, loaded: bool | None = None) -> EngineName:
    """Which exact engine solves a position of ``game`` with ``empty`` empty cells (all, when None);
    ``loaded`` says whether the board's compiled search is loaded in the process (None: ask the process).

    The rule, by measured cost: the pure-Python reference engine for positions with at most
    :data:`REFERENCE_MAX_EMPTY` empty cells, where it answers faster than the compiled engine can be
    loaded (so 3×3 never loads it); the compiled engine for the other positions of boards whose layout
    fits 64 bits; the reference engine beyond. Once the compiled search of a board is loaded in the
    process, it solves every position of that board. ``INAROW_ENGINE=reference`` (or ``compiled``) forces
    one engine where it can play.
    """
    forced = forced_engine()
    if forced == "reference" or not compiled_supports(game):
        return "reference"
    if forced == "compiled" or (compiled_loaded(game) if loaded is None else loaded):
        return "compiled"
    empty = game.cells if empty is None else empty
    return "reference" if empty <= REFERENCE_MAX_EMPTY else "compiled"


def solvable(game: Game) -> bool:
    """Whether an exact search of ``game`` can be expected to end: a board the compiled engine plays (its
    early Connect Four positions may still take minutes), or one small enough for the reference engine."""
    if game.cells <= REFERENCE_MAX_CELLS:
        return True
    return forced_engine() != "reference" and compiled_supports(game)


def load_engine(loading: Loading | None = None, game: Game | None = None) -> float:
    """Load the compiled search of ``game`` (default: Connect Four) into this process (importing numba,
    then compiling the search or loading it from numba's cache), calling ``loading`` around it; the
    seconds it took, 0 if already loaded.

    This is what a worker calls before its first big-board search so that the search does not pay for it.
    """
    board = game or CONNECT4
    if compiled_loaded(board):
        return 0.0
    start = time.perf_counter()
    from inarow.engines.exact import compiled  # numba, only when a search needs it

    with loading(not compiled.cached(board)) if loading is not None else nullcontext():
        compiled.warm_up(board)
    return time.perf_counter() - start


def prepare_engine(game: Game | None = None) -> bool:
    """Make sure the compiled search of ``game`` (default: Connect Four) is compiled, in a separate,
    short-lived process, without importing numba into this one; whether it had to compile.

    A server calls this at start: its processes then load the search from numba's cache when a search
    first needs it (a fraction of a second), and an idle server does not hold numba and the machine
    code in every process (about 110 MB each).
    """
    from inarow.engines import compiling

    return compiling.unit(game or CONNECT4).compile_elsewhere()


def exact_solver(game: Game, budget: Budget, empty: int | None = None) -> ExactSolver:
    """The exact engine :func:`engine_for` picks for a position of ``game`` with ``empty`` empty cells.

    Loads the compiled engine if it is picked and not loaded yet (see :func:`load_engine`). The compiled
    engine searches on the process's table for the game, so it finds what the game's earlier searches in
    the process proved (see :mod:`inarow.engines.exact.compiled`).
    """
    if engine_for(game, empty) == "reference":
        return Engine(game, budget)
    from inarow.engines.exact import compiled  # numba, only when a search needs it

    return compiled.CompiledEngine(game, budget)


def child_score(position: Position, bit: int, solver: ExactSolver, weak: bool) -> int:
    """The exact score of playing ``bit`` in ``position``, for the side that plays it (with ``weak``: 1,
    0 or -1)."""
    child = position.play(bit)
    if child.winner is not None:
        return 1 if weak else exact_score(position.game, position.ply)
    if child.is_over:
        return 0
    return -solver.solve(*child.sides(), weak)


def decide(position: Position, solver: ExactSolver) -> tuple[int, int, dict[int, int]]:
    """The value of ``position`` for the side to move (1 win, 0 draw, -1 loss) and a move that keeps it,
    proven by weak searches (win, draw or loss only) on ``solver``: a stone that wins at once; else the
    position's value, then its moves centre first until one keeps it (a won position needs one proof; for
    a draw, the moves tried before the drawing one are proven to lose). In a lost position, the first move
    after which the opponent cannot win with its next stone, if there is one. Also each move searched with
    its value for the side that plays it. Raises :class:`SearchAborted` when the solver's budget runs out.

    ``position`` must go on (not be over)."""
    assert not position.is_over, position.diagram()
    game = position.game
    legal = set(position.legal_bits())
    order = [bit for bit in game.cell_order if bit in legal]
    for bit in order:
        if position.play(bit).winner is not None:
            return 1, bit, {bit: 1}
    value = sign(solver.solve(*position.sides(), True))
    if value < 0:
        children = {bit: position.play(bit) for bit in order}
        safe = [bit for bit, child in children.items() if child.is_over or not wins_next(child)]
        bit = (safe or order)[0]
        return -1, bit, {bit: -1}
    tried: dict[int, int] = {}
    for bit in order:
        tried[bit] = child_score(position, bit, solver, True)
        if tried[bit] == value:
            return value, bit, tried
    raise AssertionError("no move keeps the value of the position")  # pragma: no cover


def wins_next(position: Position) -> bool:
    """Whether the side to move in ``position`` can complete a line with its next stone."""
    mover, _ = position.sides()
    playable = sum(1 << bit for bit in position.legal_bits())
    return bool(position.game.winning_cells(mover, playable))
