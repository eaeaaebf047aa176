"""The Gomoku engine's compiled α-β search (:mod:`inarow.engines.gomoku.kernel`), driven from Python.

:class:`CompiledBoard` holds the arrays of one position; :func:`iterate` runs the iterative deepening of
:class:`inarow.engines.gomoku.search.GomokuSearch` on it (depth 1, then even depths) under the search's
:class:`~inarow.engines.limits.Budget`. numba cannot read the clock, so each call of the kernel gets a slice
of nodes sized from the measured speed (at most :data:`SLICE_SECONDS`); between slices the budget is
checked. A slice that runs out stores nothing in the table, and the next slice of the same depth resumes
from what the table already holds. A search limited by time alone may have helper threads beside it
(:class:`_Helper`, lazy SMP), which share its table.

Importing this module imports numpy and numba (about 0.3 s); the kernels are compiled on their first use
in a process (:func:`warm_up`; about half a minute on the project's 2-core machine, once per install, as
numba caches the machine code beside the kernel module) or loaded from numba's cache (a fraction of a
second). :mod:`inarow.engines.gomoku.search` imports this module only when a Gomoku search reaches its α-β
search.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from inarow.engines.compiling import gomoku_unit
from inarow.engines.gomoku import kernel
from inarow.engines.gomoku.board import NEAR, PAD, WEIGHTS
from inarow.engines.gomoku.patterns import B4, F3, F4, FIVE
from inarow.engines.gomoku.weights import CODE_STEPS, IN_USE, Tables
from inarow.engines.limits import Budget, SearchAborted
from inarow.rules.game import Game

SLICE_SECONDS = 0.05
"""The longest stretch of compiled search between two looks at the clock."""

FIRST_RATE = 50_000.0
"""Nodes a second assumed before the first slice is measured."""

MIN_SLICE = 500
"""The fewest nodes a slice explores, however little time is left."""

UNLIMITED = 1 << 62
"""A slice's node limit when the budget has none (and the first depth's, which always finishes)."""

HELPER_DEPTH = 4
"""The main search's depth from which the helper threads search beside it (the shallow iterations take
milliseconds)."""

TABLE_BITS = 19
"""The transposition table holds 2 ** TABLE_BITS entries (36 bytes each: 18 MB)."""


def _kind_sums() -> np.ndarray[Any, Any]:
    """``kinds[kind, column]``: what each pattern kind adds to a cell's sums (the kernel's columns
    :data:`~inarow.engines.gomoku.kernel.SUM_WORTH` … :data:`~inarow.engines.gomoku.kernel.SUM_CODE`): its
    worth, fours (an open four counts two), open threes, fives, and its step of the cell's pattern code (see
    :mod:`inarow.engines.gomoku.weights`)."""
    kinds = np.zeros((FIVE + 1, kernel.KIND_SUMS), dtype=np.int32)
    for kind in range(FIVE + 1):
        kinds[kind, kernel.SUM_WORTH] = WEIGHTS[kind]
        kinds[kind, kernel.SUM_FOURS] = 2 if kind == F4 else 1 if kind == B4 else 0
        kinds[kind, kernel.SUM_THREES] = kind == F3
        kinds[kind, kernel.SUM_FIVES] = kind == FIVE
        kinds[kind, kernel.SUM_CODE] = CODE_STEPS[kind]
    return kinds


_KINDS = _kind_sums()


@cache
def patterns(exact: bool) -> np.ndarray[Any, Any]:
    """The pattern table of a rule (see :func:`inarow.engines.gomoku.kernel.pattern_table`)."""
    return kernel.pattern_table(exact)


@cache
def _lmr_table(divisor: float) -> np.ndarray[Any, Any]:
    return kernel.lmr_table(divisor)


@cache
def _prune_counts(base: int, power: float) -> np.ndarray[Any, Any]:
    return kernel.prune_counts(base, power)


def new_table(size: int) -> kernel.Table:
    """An empty transposition table of ``size`` entries, as the kernel reads it (keys checked, see
    :func:`inarow.engines.gomoku.kernel._store`)."""
    return kernel.Table(
        keys=np.zeros(size, dtype=np.uint64),
        depths=np.zeros(size, dtype=np.int32),
        lowers=np.zeros(size, dtype=np.int64),
        uppers=np.zeros(size, dtype=np.int64),
        moves=np.zeros(size, dtype=np.int32),
        generations=np.zeros(size, dtype=np.int64),
    )


class _Tables:
    """Transposition tables, one per search running at once, kept across searches: every search of the
    same kind (the same game and :class:`Style`: the moves of one game, say) reads and writes one
    generation of its own, so the next move starts from what the last one stored (the keys are the whole
    position); a search of another kind sees none of it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: list[tuple[Hashable, kernel.Table]] = []
        self._generations: dict[Hashable, int] = {}

    def take(self, kind: Hashable, fresh: bool = False) -> tuple[kernel.Table, int]:
        """A table (the one ``kind`` used last, if it is free) and ``kind``'s generation (with ``fresh``, a
        new one: the search sees nothing searched before it)."""
        with self._lock:
            if fresh or kind not in self._generations:
                self._generations[kind] = max(self._generations.values(), default=0) + 1
            generation = self._generations[kind]
            if self._free:
                index = next((k for k, (last, _) in enumerate(self._free) if last == kind), -1)
                return self._free.pop(index)[1], generation
        return new_table(1 << TABLE_BITS), generation

    def give_back(self, kind: Hashable, table: kernel.Table) -> None:
        with self._lock:
            self._free.append((kind, table))

    def forget(self) -> None:
        """Give every kind a new generation: the next searches start from empty tables."""
        with self._lock:
            start = max(self._generations.values(), default=0)
            for offset, kind in enumerate(self._generations, 1):
                self._generations[kind] = start + offset


_tables = _Tables()


def forget() -> None:
    """Start every kind of search from an empty table (for figures that must not depend on what was
    searched before)."""
    _tables.forget()


@dataclass(frozen=True)
class _Geometry:
    size: int
    width: int
    board: np.ndarray[Any, Any]
    steps: np.ndarray[Any, Any]
    offsets: np.ndarray[Any, Any]
    weights: np.ndarray[Any, Any]
    neighbours: np.ndarray[Any, Any]
    zobrist: np.ndarray[Any, Any]


@cache
def _geometry(columns: int, rows: int) -> _Geometry:
    width = columns + 2 * PAD
    size = width * (rows + 2 * PAD)
    board = np.array(
        [(r + PAD) * width + c + PAD for r in range(rows) for c in range(columns)], dtype=np.int64
    )
    offsets = [k for k in range(-5, 6) if k]
    weights = [1 << 2 * ((-k) + 5 if -k < 0 else (-k) + 4) for k in offsets]
    rng = random.Random(20261122)
    zobrist = np.zeros((3, size), dtype=np.uint64)
    for side in (1, 2):
        zobrist[side] = [rng.getrandbits(64) for _ in range(size)]
    return _Geometry(
        size=size,
        width=width,
        board=board,
        steps=np.array([1, width, width + 1, width - 1], dtype=np.int64),
        offsets=np.array(offsets, dtype=np.int64),
        weights=np.array(weights, dtype=np.int32),
        neighbours=np.array(
            [dr * width + dc for dr in range(-NEAR, NEAR + 1) for dc in range(-NEAR, NEAR + 1) if dr or dc],
            dtype=np.int64,
        ),
        zobrist=zobrist,
    )


class CompiledBoard:
    """One position as the kernel's arrays (cell indices as :class:`GomokuBoard`'s)."""

    def __init__(self, game: Game, stones: Sequence[tuple[int, int]], tables: Tables = IN_USE) -> None:
        """``stones``: (cell index, side) in the order played: each side 1 or 2, each cell on the board
        and taken once (AssertionError otherwise); the position is evaluated with ``tables``."""
        g = _geometry(game.columns, game.rows)
        on_board = {int(i) for i in g.board}
        assert len({i for i, _ in stones}) == len(stones), "two stones on one cell"
        assert all(i in on_board and side in (1, 2) for i, side in stones), (
            "a stone off the board or of no side"
        )
        self.game = game
        self.tables = tables
        size = g.size
        self.cells = np.full(size, kernel.OFF, dtype=np.int32)
        self.cells[g.board] = kernel.EMPTY
        self.state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        self.state[kernel.S_CELLS] = game.cells
        self.state[kernel.S_MASK] = (1 << TABLE_BITS) - 1
        self.arrays = kernel.Board(
            cells=self.cells,
            codes=np.zeros((4, size), dtype=np.int32),
            sums=np.zeros((3, size, kernel.SUM_WAITER + 1), dtype=np.int32),
            value=np.zeros((3, size), dtype=np.int32),
            flags=np.zeros((3, size), dtype=np.int32),
            counts=np.zeros((3, kernel.THREE_BIT + 1), dtype=np.int32),
            near=np.zeros(size, dtype=np.int32),
            state=self.state,
            hash=np.zeros(1, dtype=np.uint64),
            zobrist=g.zobrist,
            patterns=patterns(game.exact),
            kinds=_KINDS,
            steps=g.steps,
            offsets=g.offsets,
            weights=g.weights,
            neighbours=g.neighbours,
            evals=tables.array,
        )
        self.board = g.board
        kernel.setup(self.arrays, self.board)
        for i, side in stones:
            kernel.place(i, side, 1, self.arrays)
        rows, failed = kernel.ROWS, 1 << kernel.FAILED_BITS
        self.buffers = kernel.Buffers(
            moves=np.zeros((rows, kernel.MOVES), dtype=np.int64),
            scores=np.zeros((rows, kernel.MOVES), dtype=np.int64),
            path=np.zeros((rows, kernel.PATH_TAG + 1), dtype=np.int64),
            killers=np.full((rows, 2), -1, dtype=np.int64),
            lines=np.zeros((rows, kernel.LINE), dtype=np.int64),
            failed_keys=np.zeros(failed, dtype=np.uint64),
            failed_depths=np.zeros(failed, dtype=np.int64),
            failed_stamps=np.zeros(failed, dtype=np.int64),
            reductions=kernel.lmr_table(2.0),
            prune_counts=kernel.prune_counts(0, 2.0),
        )
        self.history = [i for i, _ in stones]
        self._line = np.zeros(max(2 * kernel.ROWS + 4, kernel.LINE), dtype=np.int64)

    def follow(self, history: list[int], cells: list[int]) -> None:
        """Take back and play stones until this board's stones are ``history`` (sides from ``cells``)."""
        mine = self.history
        common = 0
        while common < min(len(mine), len(history)) and mine[common] == history[common]:
            common += 1
        while len(mine) > common:
            i = mine.pop()
            kernel.place(i, int(self.cells[i]), -1, self.arrays)
        for i in history[common:]:
            kernel.place(i, cells[i], 1, self.arrays)
            mine.append(i)

    def vcf(self, side: int, max_fours: int, max_nodes: int) -> tuple[list[int] | None, int]:
        """The shortest VCF of ``side`` found (see :func:`inarow.engines.gomoku.kernel.vcf_line`), or None;
        and the nodes it took."""
        self.state[kernel.S_NODES] = 0
        length = kernel.vcf_line(
            side, max_fours, max_nodes, self._line, self.arrays, self.board, self.buffers
        )
        nodes = int(self.state[kernel.S_NODES])
        return ([int(i) for i in self._line[:length]] if length else None), nodes

    def vct(
        self, side: int, max_threats: int, vcf_fours: int, max_nodes: int
    ) -> tuple[list[int] | None, int]:
        """A VCT of ``side`` (see :func:`inarow.engines.gomoku.kernel.vct_line`), or None; and the nodes it
        took."""
        self.state[kernel.S_NODES] = 0
        length = kernel.vct_line(
            side, max_threats, vcf_fours, max_nodes, self._line, self.arrays, self.board, self.buffers
        )
        nodes = int(self.state[kernel.S_NODES])
        return ([int(i) for i in self._line[:length]] if length else None), nodes

    @property
    def value(self) -> np.ndarray[Any, Any]:
        return self.arrays.value

    @property
    def flags(self) -> np.ndarray[Any, Any]:
        return self.arrays.flags


@dataclass(frozen=True, kw_only=True)
class Iterated:
    """What the iterative deepening found: the best value and line (list indices), the root moves'
    values, the deepest depth finished."""

    value: int
    line: list[int]
    values: dict[int, int]
    depth: int


class _Helper:
    """A helper thread of the root search (lazy SMP, as Stockfish's threads search): it runs
    its own iterative deepening on a copy of the board, a step deeper than the main search's iteration
    (and deeper again each time it finishes one), and shares the transposition table, so that the main
    search finds the positions it reaches already searched (the table checks its entries, see
    :func:`inarow.engines.gomoku.kernel._check`). What it finds reaches the result only through the table.
    The kernel's ``root`` runs without the GIL, so the threads search on two cores at once."""

    def __init__(self, board: CompiledBoard, me: int, table: kernel.Table, max_depth: int, step: int):
        stones = [(i, int(board.cells[i])) for i in board.history]
        self.board = CompiledBoard(board.game, stones, board.tables)
        state = self.board.state
        for slot in SETTINGS:
            state[slot] = board.state[slot]
        self.board.buffers.reductions[:] = board.buffers.reductions
        self.board.buffers.prune_counts[:] = board.buffers.prune_counts
        self.me, self.table, self.max_depth, self.step = me, table, max_depth, step
        self.nodes = 0
        self._lock = threading.Lock()
        self._stopped = False
        self._order: list[int] = []
        self._depth = 0
        self._thread: threading.Thread | None = None

    def follow(self, order: list[int], depth: int) -> None:
        """The main search starts ``depth`` with the root moves in ``order``: search ahead of it (a thread
        started at its first call)."""
        with self._lock:
            self._order, self._depth = list(order), depth
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        state, board = self.board.state, self.board
        done = 0
        while True:
            with self._lock:
                if self._stopped:
                    return
                depth = max(done, self._depth) + self.step
                moves = np.array(self._order, dtype=np.int64)
                state[kernel.S_NODES] = 0
                state[kernel.S_LIMIT] = UNLIMITED
                state[kernel.S_ABORT] = 0
            if depth > self.max_depth:
                return
            found = np.zeros(len(moves), dtype=np.int64)
            kernel.root(
                self.me,
                moves,
                depth,
                found,
                -kernel.INFINITY,
                kernel.INFINITY,
                board.arrays,
                board.board,
                self.table,
                board.buffers,
            )
            self.nodes += int(state[kernel.S_NODES])
            if state[kernel.S_ABORT]:
                return
            done = depth

    def stop(self) -> int:
        """Stop the thread (at its next node) and wait for it; returns the nodes it searched."""
        with self._lock:
            self._stopped = True
            self.board.state[kernel.S_LIMIT] = 0
        if self._thread is not None:
            self._thread.join()
        return self.nodes


SETTINGS = (
    kernel.S_WIDTH,
    kernel.S_VCF,
    kernel.S_QUIESCE,
    kernel.S_LMR,
    kernel.S_PRUNE,
    kernel.S_GEN,
    kernel.S_MASK,
)
"""The slots of the kernel's ``state`` that say how to search (a helper copies them from the main board)."""


def iterate(
    board: CompiledBoard,
    me: int,
    roots: list[int],
    budget: Budget,
    *,
    width: int,
    max_depth: int,
    vcf: bool,
    start_value: int,
    step: int = 2,
    quiesce: int = 0,
    lmr: bool = False,
    lmr_divisor: float = 2.0,
    prune: int = 0,
    prune_power: float = 2.0,
    threads: int = 1,
    fresh: bool = False,
) -> Iterated:
    """Iterative deepening at the root: depth 1 (always finished), then every ``step`` plies from 2 (even
    depths by default) until the budget runs out, a win or loss is found or ``max_depth`` is reached.
    ``width``: the candidates tried at a quiet node;
    ``quiesce``: the fours the quiescence search at the horizon may play in a row (0: the short VCF of
    ``vcf`` instead); ``lmr``: late move reductions by the table of
    :func:`inarow.engines.gomoku.kernel.lmr_reduction` (``lmr_divisor``: its divisor); ``threads``: with 2
    or more and a budget of time alone, helper threads search beside this one (see :class:`_Helper`);
    ``fresh``: start from an empty table rather than what the last searches of the same kind stored (see
    :class:`_Tables`)."""
    state = board.state
    state[kernel.S_WIDTH] = width
    state[kernel.S_VCF] = int(vcf)
    state[kernel.S_QUIESCE] = quiesce
    state[kernel.S_LMR] = int(lmr)
    state[kernel.S_PRUNE] = prune
    board.buffers.reductions[:] = _lmr_table(lmr_divisor)
    board.buffers.prune_counts[:] = _prune_counts(prune, prune_power)
    kind = (board.game, width, max_depth, vcf, step, quiesce, lmr, lmr_divisor, prune, prune_power, fresh)
    table, generation = _tables.take(kind, fresh)
    state[kernel.S_GEN] = generation
    helpers = []
    if budget.max_nodes is None and budget.deadline is not None:
        helpers = [_Helper(board, me, table, max_depth, step) for _ in range(threads - 1)]
    try:
        return _iterate(board, me, roots, budget, table, max_depth, start_value, step, helpers)
    finally:
        for helper in helpers:
            budget.nodes += helper.stop()
        _tables.give_back(kind, table)


def _iterate(
    board: CompiledBoard,
    me: int,
    roots: list[int],
    budget: Budget,
    table: kernel.Table,
    max_depth: int,
    start_value: int,
    step: int,
    helpers: list[_Helper],
) -> Iterated:
    state = board.state
    best_value, best_line = start_value, [roots[0]]
    values: dict[int, int] = {}
    reached = 0
    rate = FIRST_RATE
    order = list(roots)
    line_buffer = np.zeros(max_depth + 2, dtype=np.int64)
    for depth in [1, *range(2, max_depth + 1, step)]:
        if depth >= HELPER_DEPTH:
            for helper in helpers:
                helper.follow(order, depth)
        moves = np.array(order, dtype=np.int64)
        found = np.zeros(len(order), dtype=np.int64)
        done = 0
        value: kernel.Int = 0
        best = -1
        low, high = -kernel.INFINITY, kernel.INFINITY
        if depth >= kernel.ASPIRATION_DEPTH and reached and abs(best_value) < kernel.EXACT:
            low, high = best_value - kernel.ASPIRATION, best_value + kernel.ASPIRATION
        while True:
            state[kernel.S_NODES] = 0
            state[kernel.S_LIMIT] = (  # the first iteration always finishes
                UNLIMITED if depth == 1 else budget.slice_nodes(rate, SLICE_SECONDS, MIN_SLICE, UNLIMITED)
            )
            state[kernel.S_ABORT] = 0
            started = time.perf_counter()
            value, best, done = kernel.root(
                me, moves, depth, found, low, high, board.arrays, board.board, table, board.buffers
            )
            spent = time.perf_counter() - started
            nodes = int(state[kernel.S_NODES])
            budget.nodes += nodes
            if spent > 0.002 and nodes > 200:
                rate = nodes / spent
            if not state[kernel.S_ABORT]:
                if low < value < high or (low, high) == (-kernel.INFINITY, kernel.INFINITY):
                    break
                low, high = -kernel.INFINITY, kernel.INFINITY  # outside the aspiration window: again
                continue
            try:
                budget.check()
            except SearchAborted:
                break
            if budget.remaining == 0:
                break
        if state[kernel.S_ABORT]:
            # The root moves searched before the clock ran out were searched deeper, the previous best
            # first: the best of them is the better guess.
            if done > 0 and best >= 0:
                best_value = int(value)
                length = kernel.principal_line(me, order[best], depth, line_buffer, board.arrays, table)
                best_line = [int(m) for m in line_buffer[:length]]
                values = {**values, **{order[k]: int(found[k]) for k in range(done)}}
            break
        best_value = int(value)
        length = kernel.principal_line(me, order[best], depth, line_buffer, board.arrays, table)
        best_line = [int(m) for m in line_buffer[:length]]
        values = {order[k]: int(found[k]) for k in range(len(order))}
        reached = depth
        order = [order[best]] + [m for m in order if m != order[best]]
        if abs(best_value) >= kernel.EXACT:
            break
    return Iterated(value=best_value, line=best_line, values=values, depth=reached)


_warm: list[float] = []


def is_warm() -> bool:
    """Whether this process has compiled or loaded the kernels already."""
    return bool(_warm)


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernels by searching a small position, and mark them
    compiled (:func:`inarow.engines.compiling.gomoku_unit`); returns the seconds it took (0 once done in this
    process). Processes that compile at once (a test run's workers, a server's) wait for the first one's
    compilation on the unit's lock, then load its machine code."""
    if _warm:
        return 0.0
    started = time.perf_counter()
    unit = gomoku_unit()
    with unit.compiling():
        _search_small_position()
    seconds = time.perf_counter() - started
    _warm.append(seconds)
    unit.mark()
    return seconds


def _search_small_position() -> None:
    game = Game.parse("gomoku")
    centre = int(_geometry(game.columns, game.rows).board[7 * 15 + 7])
    board = CompiledBoard(game, [(centre, 1), (centre + 1, 2)])
    iterate(
        board,
        1,
        [centre - 1, centre + 2],
        Budget(),
        width=4,
        max_depth=2,
        vcf=True,
        start_value=0,
        quiesce=kernel.QUIESCE_FOURS,
    )
    board.vcf(1, 4, 100)
    board.vct(1, 3, 4, 100)
    patterns(True)
