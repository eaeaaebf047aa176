"""The compiled exact engine: Pascal Pons' Connect Four solver, for every board whose layout fits 64 bits.

It plays the same algorithm as the reference :class:`inarow.engines.exact.reference.Engine` (whose
:meth:`solve` contract and score scale it shares, and which the tests compare it with) on ``numpy.uint64``
bitboards in a loop compiled by numba (``@njit(cache=True)``): any ``m × n`` board with ``columns * (rows + 1)
<= 64``, any k, with or without gravity (tic-tac-toe, 4x4, 5x5, Connect Four 7x6, 8x7).

Bit layout
==========
The layout of :mod:`inarow.rules.game`, column by column with a spare bit on top of every column; for Connect
Four (7 columns, 6 rows, 49 bits)::

     .  .  .  .  .  .  .       6 13 20 27 34 41 48    <- spare row, always 0 in a stone bitboard
     x  x  x  x  x  x  x       5 12 19 26 33 40 47
     x  x  x  x  x  x  x       4 11 18 25 32 39 46
     x  x  x  x  x  x  x       3 10 17 24 31 38 45
     x  x  x  x  x  x  x       2  9 16 23 30 37 44
     x  x  x  x  x  x  x       1  8 15 22 29 36 43
     x  x  x  x  x  x  x       0  7 14 21 28 35 42    <- bottom row: bit c * (rows + 1)

``cur`` holds the stones of the side to move, ``opp`` those of its opponent, ``filled = cur | opp``. A
layout of at most 64 bits means bit 63, if it is in the layout at all, is the spare bit of the last
column, so it is never a stone: the table uses it as its "entry in use" flag for boards without gravity.

A table entry is two words with gravity (the key ``cur + filled + bottom``, then the data) and three
without (the least symmetric images of ``cur`` and of ``opp`` with bit 63 set, then the data)::

    data word   63 ........... 32 31 .... 24 23 ...... 16 15 ....... 8 7 ........ 0
                   generation       unused    move id + 1  upper + 128  lower + 128

Scores fit a byte with the offset (at most 32 in size on 64 cells); a move id is a column with gravity, a
cell bit without, 0 meaning none; an entry whose generation is not the engine's is empty for it.

Search (Pons' tutorial, parts 4 to 12, and three ideas of our own)
==================================================================
- negamax with α-β, scores on the scale of :mod:`inarow.engines.exact.reference` (a win with the stone played
when
  ``n`` stones are on a board of ``C`` cells scores ``(C + 1 - n) // 2``);
- :meth:`CompiledEngine.solve` narrows the score interval with null-window searches (iterative
  bisection, biased towards 0 as Pons does), inside the compiled code, entered by one call with four
  ints (see :func:`inarow.engines.exact.kernel_template.solve`);
- only non-losing moves: a single opponent threat is blocked at once, two are a loss at once, and with
  gravity no stone goes right under an opponent threat;
- moves ordered by the number of threats they create, ties centre first (Pons' ``MoveSorter``);
- a transposition table of lower *and* upper bounds, hashed, always-replace, shared by the searches of
  one game in a process (see "A table that remembers" below);
- **ours**: the table keeps the move that last refuted a null window, tried first next time (the
  bisection searches the same tree several times): about 0.5 % fewer positions on Pons' sets;
- **ours**: enhanced transposition cutoffs where more than
:data:`inarow.engines.exact.kernel_template.ETC_MIN_EMPTY`
  cells are empty: before searching, each child is looked up; one whose upper bound refutes beta cuts
  off at once (and the cut is stored), and one whose lower bound shows it cannot raise alpha is not
  searched. About 10 to 25 % fewer positions on Pons' sets;
- **ours**: a move after which the opponent cannot stop a win with our next stone (two cells he would have
  to block; with gravity also one he must block right under another of ours, or none but every cell he
  may play lies under one of ours) ends the search with the best score left, a win with the stone after
  next, without a call for the child: found from the threats the move ordering computes anyway. Pons'
  solver calls the child, which finds its loss at its first look. 9 to 31 % fewer positions on his sets;
- **ours**: when no move wins that way, the best score left is a win with the stone after that
  (``(C - 3 - ply) // 2``), so a window above it fails low at once, where Pons' solver calls every child,
  each of which fails low at its first look (its lower bound, that it cannot lose with our next stone,
  is at or above its window). The same bound as his ``beta > max`` test, one ply deeper thanks to the
  threats above: a further 17 to 43 % fewer positions on his sets. Every call of the negamax is counted
  as a position explored, as he counts; positions settled without a call (by these two rules, by the
  enhanced transposition cutoffs) are not;
- **ours**: near the end (at most
  :data:`inarow.engines.exact.kernel_template.FULL_WINDOW_EMPTY` empty cells) a solve is one search on the
  whole score interval rather than the bisection's several null windows: on Pons' easiest set (1 to 13
  empty cells) 21 positions explored a line instead of 32, and 5 % fewer on the next (14 to 27); a weak
  solve keeps its window ``[-1, 1]``;
- **ours**, boards without gravity: symmetric positions share one table entry (the least image under the
  board's 4 or 8 symmetries); the stored move is kept in the frame of that image and mapped back. With
  gravity the left-right mirror was measured and dropped: no fewer positions on Pons' sets (symmetric
  positions are rare past the first moves), and about 20 % slower.

Memory traffic: the table (128 MB for Connect Four) is larger than the caches, so a probe of a new position
goes to memory. A node asks for its own entry's line (a prefetch) before it computes the threats, and for
all its children's lines at once before the enhanced transposition cutoffs look at them. A fresh engine
(a generation of its own) knows which entries it has stored, so that its look at a position it has not
stored costs a bit in a cached line instead of a trip to memory: for its first 256 stores (a small search)
a summary in its state array, one bit per group of entries, and the list of those stores; past them, the
table's filter, one bit per entry (1 MB for Connect Four's table, which a big search keeps in the
second-level cache). On Pons' deeper sets most of a node's time went to waiting for the table on the
children's probes of the enhanced transposition cutoffs, nearly all of them positions not stored (see the
research log, issue 53); on the smallest, searches of a few dozen positions, the table's lines are all cold
after a big search. A fresh engine clears the filter when it is made (the blocks its summary says were
written to: a few microseconds, outside a solve, as Pons' solver resets its table before one), and a
later fresh engine clears it again: a clear bit only ever sends a search on as if the table did not hold
the position, so what an engine's entries could save may be lost, never a score.

Invariants, checked in the compiled entry (AssertionError on the Python side): ``cur & opp == 0``, no
stone off the board; and the negamax is only entered when the side to move cannot win with its next
stone (Pons' precondition, which the non-losing move filter keeps true for every child).

A table that remembers
======================
Every entry of the table is a proven bound on the score of the position its key identifies, whatever
search stored it and whatever window that search had. So the searches of one game in a process (the
moves of a game, its hints, analyses and reviews) share one generation of the table: a follow-up position
finds what the searches of the positions before it proved (on Pons' sets a position searched after its
parent explores about a quarter of the positions a fresh table would). ``CompiledEngine(..., fresh=True)``
starts a new generation instead, an empty table at no cost: what a benchmark wants for honest per-position
figures. Games of the same table shape (say Connect Four and 6×7 with gravity) have generations of their
own, so one never reads the other's entries; they only evict each other's.

Compilation and caching
=======================
Importing this module costs what importing numpy and numba costs (about 0.3 s); nothing is compiled then,
and :mod:`inarow` imports it only when a board needs it (see :func:`inarow.engines.policy.engine_for`). Each
board has its own compiled search, :mod:`inarow.engines.exact.kernel_template` specialised with the board's
constants by
:mod:`inarow.engines.compiling`: the board's masks, move order, symmetries and line test are constants of the
machine code, and nothing but the position, the window, the table and the scratch arrays is passed down
the recursion. The first engine of a board in a process compiles that board's search (:func:`warm_up`,
which a server or ``inarow warm-up`` may call earlier): a few seconds on the project's 2-core machine, once
per install and board, as numba keeps the machine code (``cache=True``) beside the board's kernel module
(see :func:`inarow.engines.compiling.kernel_folder`); later processes load it in a fraction of a second
(:func:`cached` says which of the two the next warm-up will do). Where the package folder is not writable
(a read-only install), the kernels go to ``NUMBA_CACHE_DIR`` if set, else to the temporary folder.

Memory
======
A table is sized to its game (:func:`table_bits_for`: ``2 ** cells`` entries from ``2 ** 12`` up to
``2 ** 23``, so a 3×3 or 4×4 solve takes kilobytes to a megabyte and Connect Four 128 MB) and allocated
when the game's first search needs it, never at start or at warm-up. It is zeroed by the system page by
page as the search touches it, not filled; beside it, its filter (one bit per entry: 1 MB beside Connect
Four's 128 MB, not counted in the bound below). The environment variable ``INAROW_MEMORY`` (megabytes;
``inarow --memory MB`` and ``inarow serve --memory MB`` set it) bounds all the tables of a process
together: each table is sized to fit it, and a new table first releases the process's tables of other
shapes when they would not fit beside it.

Time limits: numba cannot read the clock, so the search runs in slices of a node budget sized from the
measured speed (at most :data:`SLICE_SECONDS` each, or the engine's ``slice_seconds``); between slices
Python checks the :class:`~inarow.engines.limits.Budget` and raises
:class:`~inarow.engines.limits.SearchAborted`. An aborted slice stores nothing in the table, and the next
slice resumes from what the table already holds. Without a time or node limit the search is one call.
"""

from __future__ import annotations

import os
import threading
import time
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from inarow.engines import compiling
from inarow.engines.exact import kernel_template
from inarow.engines.exact.kernel_template import (
    ABORTED,
    BITMAP,
    BLOCK_SHIFT,
    BOOK_COUNT,
    BOOK_KEYS,
    BOOK_PLY,
    BOOK_SCORES,
    FILTER,
    FILTER_HEADER,
    FILTER_SUMMARY_WORDS,
    FILTERED,
    GENERATION,
    IDS,
    LIMIT,
    LIMITED,
    OWNER,
    RESUME,
    SCRATCH,
    STATE,
    TABLE,
    TABLE_SHIFT,
    UNLIMITED,
    WEAK,
)
from inarow.engines.exact.kernel_template import SCORE_OFFSET as _SCORE_OFFSET
from inarow.engines.limits import Budget
from inarow.rules.game import Game

LAYOUT_BITS = compiling.LAYOUT_BITS
"""The widest layout (``columns * (rows + 1)`` bits) the engine plays: one ``uint64`` per side."""

TABLE_BITS = 23
"""The largest transposition table has ``2 ** TABLE_BITS`` entries (16 bytes each with gravity, 24
without); :func:`table_bits_for` sizes each game's below it."""

MIN_TABLE_BITS = 12
"""The smallest table a game gets: ``2 ** 12`` entries (64 or 96 KB)."""

MEMORY_VARIABLE = "INAROW_MEMORY"
"""The environment variable that bounds the tables of a process, in megabytes (``inarow --memory MB``)."""

SLICE_SECONDS = 0.1
"""With a deadline, the longest stretch (at the estimated speed) between two looks at the clock: the
default of :class:`CompiledEngine`'s ``slice_seconds``."""

CONNECT4 = Game(7, 6, 4, gravity=True)
"""The board :func:`warm_up` prepares when it is given none."""

_FIRST_RATE = 2_000_000.0
"""Nodes per second assumed before the first measurement: on the slow side, so a first slice ends early."""

_RATE_MIN_NODES = 20_000
"""Slices shorter than this say little about the speed and do not update the estimate."""

MIN_SLICE = 1_000
"""The fewest nodes a slice with a deadline explores (a few hundred microseconds)."""

_GENERATION_LIMIT = 1 << 32
"""Generations are stored in 32 bits of an entry."""


def supports(game: Game) -> bool:
    """Whether the compiled engine plays ``game``: its padded layout fits one 64-bit word."""
    return game.columns * game.height <= LAYOUT_BITS


def _words(game: Game) -> int:
    """Words per table entry: the key and the data with gravity, two key words and the data without."""
    return 2 if game.gravity else 3


class _Shared:
    """What the engines of one process share, owned in one place.

    - the compiled search of each board played (:func:`inarow.engines.compiling.kernel`);
    - one transposition table per shape, allocated by the first search that needs it, and each game's
      current generation of it (see :meth:`generation`);
    - the measured speed in nodes per second, which sizes the slices of a search with a deadline.

    Lifecycle: one instance per process, made empty by the first call of :func:`_shared` (nothing is
    allocated before a search asks for it) and kept until the process ends. Engines in several threads may
    share it: the compiled search holds the GIL, and a lock guards the tables and generations.
    """

    def __init__(self) -> None:
        self.tables: dict[tuple[int, int], np.ndarray] = {}
        self.filters: dict[tuple[int, int], np.ndarray] = {}
        self.generations: dict[Game, int] = {}
        self.last_generation = 0
        self.rate = _FIRST_RATE
        self.lock = threading.Lock()

    def generation(self, game: Game, fresh: bool) -> int:
        """The generation ``game``'s next engine reads and writes: the game's own, so that its searches
        remember each other's results, or with ``fresh`` a new one of the engine's alone, an empty table
        at no cost (an entry whose stored generation differs is empty for the engine), which leaves the
        game's own untouched. After 2**32 generations the tables are cleared once."""
        with self.lock:
            found = None if fresh else self.generations.get(game)
            if found is None:
                self.last_generation += 1
                if self.last_generation >= _GENERATION_LIMIT:
                    for each in self.tables.values():
                        each.fill(0)
                    for each in self.filters.values():
                        each[OWNER] = 0  # what its bitmap holds is no generation's now: cleared at next use
                    self.generations.clear()
                    self.last_generation = 1
                found = self.last_generation
                if not fresh:
                    self.generations[game] = found
            return found

    def table(self, words: int, bits: int) -> np.ndarray:
        """The process's table of ``2 ** bits`` entries of ``words`` words, allocated on first use."""
        return self.table_and_filter(words, bits)[0]

    def table_and_filter(self, words: int, bits: int) -> tuple[np.ndarray, np.ndarray]:
        """The process's table of ``2 ** bits`` entries of ``words`` words and its filter (see
        :func:`make_filter`), allocated on first use.

        Zeroed by the system page by page as searches touch it: nothing to fill, and a small search keeps
        a small resident set. With a memory limit, tables of other shapes that would not fit beside the
        new one are released first (their engines keep them, and their filters, until they end).
        """
        with self.lock:
            table = self.tables.get((words, bits))
            if table is None:
                limit = memory_limit()
                size = (1 << bits) * words * 8
                if limit is not None:
                    for shape in list(self.tables):
                        if sum(t.nbytes for t in self.tables.values()) + size <= limit:
                            break
                        del self.tables[shape]
                        del self.filters[shape]
                table = self.tables[words, bits] = np.zeros((1 << bits, words), dtype=np.uint64)
                self.filters[words, bits] = make_filter(bits)
            return table, self.filters[words, bits]


def make_filter(bits: int) -> np.ndarray:
    """An empty filter of a table of ``2 ** bits`` entries (see
    :func:`inarow.engines.exact.kernel_template._maybe`): a header, a summary of one bit per block of entries
    and a bitmap of one bit per entry (1 MB for Connect Four's 128 MB table)."""
    return np.zeros(BITMAP + max(1, (1 << bits) // 64), dtype=np.int64)


def block_shift(bits: int) -> int:
    """log2 of the entries per block of the filter of a table of ``2 ** bits`` entries: whole words of the
    bitmap, at most ``FILTER_SUMMARY_WORDS * 64`` blocks."""
    return max(6, bits - (FILTER_SUMMARY_WORDS * 64).bit_length() + 1)


@cache
def _shared() -> _Shared:
    """The process's :class:`_Shared` state, made on first use."""
    return _Shared()


def forget() -> None:
    """Start this process's searches afresh, as a new process starts them: its tables, what they remember
    and the measured speed are dropped (an engine made before keeps what it holds). For running commands
    one after another in one process as separate processes run them: each then explores the positions it
    would explore alone (the docs' outputs, the tests). The boards' searches stay compiled, but count as not
    loaded (:func:`is_warm`), so the exact engine is picked as a new process picks it."""
    _shared.cache_clear()
    _warm.clear()


def memory_limit() -> int | None:
    """The most bytes the tables of a process may take, from :data:`MEMORY_VARIABLE` (megabytes), or None.

    Raises ValueError when the variable is set to something other than a positive number.
    """
    text = os.environ.get(MEMORY_VARIABLE, "").strip()
    if not text:
        return None
    megabytes = float(text)
    if not megabytes > 0:
        raise ValueError(f"{MEMORY_VARIABLE}={text!r}: expected a positive number of megabytes")
    return int(megabytes * (1 << 20))


def table_bits_for(game: Game) -> int:
    """The size of ``game``'s table, as log2 of its entries: one entry per cell-bit of the board
    (``2 ** cells``) between ``2 ** MIN_TABLE_BITS`` and ``2 ** TABLE_BITS``, and no more than the
    memory limit allows (:func:`memory_limit`; at least 2 entries)."""
    bits = min(TABLE_BITS, max(MIN_TABLE_BITS, game.cells))
    limit = memory_limit()
    if limit is not None:
        entry = _words(game) * 8
        bits = max(1, min(bits, (limit // entry).bit_length() - 1))
    return bits


def table_bytes(game: Game) -> int:
    """What ``game``'s table takes in memory (the most; pages never touched cost nothing)."""
    return (1 << table_bits_for(game)) * _words(game) * 8


class CompiledEngine:
    """Exact solving of one game, on the process's table for the game.

    ``fresh``: start a new generation of the table (an empty table) rather than reuse what this game's
    earlier searches in the process proved (see the module docstring). ``table_bits``: the table has
    ``2 ** table_bits`` entries (default: :func:`table_bits_for` of the game); it is allocated by the first
    search that needs it. ``slice_seconds``: with a deadline, the longest stretch (at the estimated speed)
    between two looks at the clock; a search explores at least :data:`MIN_SLICE` positions per slice
    whatever it is.

    The budget's limits are read when the engine is made: without any, a solve is one call of the
    compiled code; with a time or node limit, it runs in slices between which Python looks at the budget.
    Not thread-safe: one engine per search. Raises AssertionError for a game :func:`supports` rejects.
    The first engine of a board in a process compiles its search, or loads it from numba's cache (see
    :func:`warm_up`); later ones cost microseconds.
    """

    def __init__(
        self,
        game: Game,
        budget: Budget,
        *,
        fresh: bool = False,
        table_bits: int | None = None,
        slice_seconds: float = SLICE_SECONDS,
    ) -> None:
        assert supports(game), f"{game.name} needs {game.columns * game.height} bits, more than {LAYOUT_BITS}"
        if table_bits is None:
            table_bits = table_bits_for(game)
        assert 1 <= table_bits <= 32, f"a table of 2 ** {table_bits} entries"
        assert slice_seconds > 0, f"slices of {slice_seconds} seconds"
        self.game = game
        self.budget = budget
        self.slice_seconds = slice_seconds
        self._shared = shared = _shared()
        self._call: Any = _entry(game)
        self._sliced = budget.max_nodes is not None or budget.deadline is not None
        """Whether the search runs in slices between which Python looks at the budget (see :meth:`_run`)."""
        self._words = _words(game)
        self._table_bits = table_bits
        self._tt: np.ndarray | None = None
        width = game.columns if game.gravity else game.cells
        self._buf = np.zeros((game.cells + 1, IDS + 1, width + 1), dtype=np.uint64)
        self._state = state = np.zeros(STATE, dtype=np.int64)
        state[TABLE_SHIFT] = 64 - table_bits
        state[GENERATION] = shared.generation(game, fresh)
        state[FILTERED] = fresh  # a generation of its own: the filter knows every slot it wrote
        state[BLOCK_SHIFT] = block_shift(table_bits)
        state[SCRATCH] = self._buf.ctypes.data
        state[BOOK_PLY] = -1
        self._book: tuple[np.ndarray, np.ndarray] | None = None
        self._filter: np.ndarray | None = None
        self._address = 0
        """The state array's address once the table is attached to it (0 before the first search)."""
        if (self._words, table_bits) in shared.tables:
            self._attach()  # the table exists already: point at it now rather than in the first search

    def use_book(self, keys: np.ndarray, scores: np.ndarray, ply: int) -> None:
        """Probe a leaf book wherever the search reaches ``ply`` stones: ``keys`` (``uint64``, strictly
        increasing, :func:`inarow.engines.books.keys.key` of each position) and ``scores`` (``int8``, each
        position's exact score for the side to move). A position the book holds is not searched; one it lacks
        is.

        The compiled search reads the two arrays through their addresses (see
        :func:`inarow.engines.exact.kernel_template._book`), so the engine keeps them alive; they may be views
        of a memory-mapped file. The book must be exact: its scores become the table's bounds, which the
        game's other engines in the process share."""
        assert keys.dtype == np.uint64 and scores.dtype == np.int8 and len(keys) == len(scores)
        assert keys.flags.c_contiguous and scores.flags.c_contiguous
        assert 0 <= ply <= self.game.cells, f"a book at ply {ply}"
        self._book = (keys, scores)
        state = self._state
        state[BOOK_KEYS], state[BOOK_SCORES] = keys.ctypes.data, scores.ctypes.data
        state[BOOK_COUNT], state[BOOK_PLY] = len(keys), ply

    @property
    def table(self) -> np.ndarray:
        """The engine's transposition table, allocated (for every engine of its shape) on first use."""
        if self._tt is None:
            self._tt, self._filter = self._shared.table_and_filter(self._words, self._table_bits)
        return self._tt

    def _attach(self) -> int:
        """Allocate the table if needed, write its address and its filter's into the state array and return
        the state's."""
        self._state[TABLE] = self.table.ctypes.data
        assert self._filter is not None
        self._state[FILTER] = self._filter.ctypes.data
        if self._state[FILTERED]:
            self._own_filter()
        self._address = self._state.ctypes.data
        return self._address

    def _own_filter(self) -> None:
        """Clear the table's filter for this fresh engine (its generation has no entry yet), as Pons' solver
        resets its table before a solve: the blocks of the bitmap that the summary says were written to,
        then the summary. Another fresh engine made later clears it again: the bits this one set then, and
        with them what its entries could tell its later searches, are lost, never a score (a clear bit only
        sends the search on as if the table did not hold the position)."""
        filter_, generation = self._filter, self._state[GENERATION]
        assert filter_ is not None
        if filter_[OWNER] == generation:
            return
        summary = filter_[FILTER_HEADER:BITMAP]
        if summary.any():
            blocks = np.flatnonzero(np.unpackbits(summary.view(np.uint8), bitorder="little"))
            words = 1 << (int(self._state[BLOCK_SHIFT]) - 6)
            filter_[BITMAP:].reshape(-1, words)[blocks] = 0
            summary.fill(0)
        filter_[OWNER] = generation

    def solve(self, cur: int, opp: int, weak: bool = False) -> int:
        """The exact score of the position for the side to move (``cur``), or with ``weak`` only its sign.

        Same contract as :meth:`inarow.engines.exact.reference.Engine.solve`: the position must not be over;
        the explored positions are added to ``budget.nodes``; raises :class:`SearchAborted` when the budget
        runs out, AssertionError for stones that overlap or lie off the board, and with
        :data:`inarow.engines.exact.kernel_template.DEBUG` (which also compiles the kernel's own checks in)
        for a position already won.

        Without a time or node limit (on the budget when the engine was made) this is one call of the
        compiled code with four ints (the kernel's :func:`~inarow.engines.exact.kernel_template.solve`,
        through numba's wrapper of its one signature, not its type dispatch): the shortest path from Python,
        as a small search after a big one runs it on cold caches.
        """
        game = self.game
        assert not cur & opp and not (cur | opp) & ~game.board_mask, "stones overlap or lie off the board"
        if kernel_template.DEBUG:  # a few microseconds: as much as a whole small search
            assert not game.has_line(cur) and not game.has_line(opp), "the game is already over"
        if self._sliced:
            packed = self._run(cur, opp, weak)
        else:  # ``weak`` is the WEAK bit of the mode (True is 1)
            packed = self._call(cur, opp, weak, self._address or self._attach())
        if packed < 0:
            raise AssertionError("stones overlap or lie off the board")
        self.budget.nodes += packed >> 8
        return (packed & 0xFF) - _SCORE_OFFSET

    def _run(self, cur: int, opp: int, weak: bool) -> int:
        """The bisection in slices, resuming from the table and the interval after each look at the budget;
        answers the last slice's packed result (the earlier slices' positions are counted already)."""
        state, budget, address = self._state, self.budget, self._address or self._attach()
        mode = LIMITED | (WEAK if weak else 0)
        while True:
            state[LIMIT] = budget.slice_nodes(self._shared.rate, self.slice_seconds, MIN_SLICE, UNLIMITED)
            start = time.perf_counter()
            packed: int = self._call(cur, opp, mode, address)
            if packed < 0 or not state[ABORTED]:
                return packed
            nodes = packed >> 8
            budget.nodes += nodes
            mode |= RESUME
            seconds = time.perf_counter() - start
            if nodes >= _RATE_MIN_NODES and seconds > 0:
                self._shared.rate = nodes / seconds
            budget.check()


_warm: dict[Game, float] = {}
"""The boards whose search this process has compiled or loaded, with the seconds it took."""

_WARM_UP_TABLE_BITS = 4
"""The warm-up's table: 16 entries of its own, so warming up allocates no big table."""


_ready: dict[Game, ModuleType] = {}
"""Each game's compiled search once warm in this process, by the game itself (one dictionary look-up)."""


def _kernel(game: Game) -> ModuleType:
    """``game``'s compiled search, compiled or loaded first if this process has not yet (:func:`warm_up`)."""
    found = _ready.get(game)
    if found is None:
        if _key(game) not in _warm:
            warm_up(game)
        found = _ready[game] = compiling.kernel(game)
    return found


_entries: dict[Game, Any] = {}
"""Each game's compiled entry (see :func:`_entry`), by the game itself."""


def _entry(game: Game) -> Any:
    """``game``'s compiled :func:`~inarow.engines.exact.kernel_template.solve` as numba's CPython wrapper of
    its one signature (four int64), called without numba's type dispatch: about 2 µs less per call when the
    caches are cold. Falls back on the dispatcher itself should numba's internals differ."""
    found = _entries.get(game)
    if found is None:
        dispatcher = _kernel(game).solve
        try:
            (signature,) = dispatcher.signatures
            found = dispatcher.overloads[signature].entry_point
        except (AttributeError, KeyError, ValueError):
            found = dispatcher
        _entries[game] = found
    return found


def _key(game: Game) -> Game:
    """The board a search is compiled for: the same for games that differ only in who moves first."""
    return Game(game.columns, game.rows, game.k, gravity=game.gravity)


def warm_up(game: Game | None = None) -> float:
    """Compile ``game``'s search (default: Connect Four's), or load it from numba's cache, now rather than
    in its first real search, and return the seconds it took (0 once done in this process).

    Solves a near-full position on a 16-entry table of its own, not the process's table. The constructor
    of :class:`CompiledEngine` calls this, so calling it by hand only moves the cost earlier (a server, say,
    before its first request).
    """
    key = _key(game or CONNECT4)
    if key in _warm:
        return 0.0
    start = time.perf_counter()
    unit = compiling.unit(key)
    with unit.compiling():
        _search_near_full_position(key)
    unit.mark()
    _warm[key] = seconds = time.perf_counter() - start
    return seconds


def _search_near_full_position(key: Game) -> None:
    """Run ``key``'s search once on a near-full position (compiling it or loading it from numba's cache)."""
    module = compiling.kernel(key)
    tt = np.zeros((1 << _WARM_UP_TABLE_BITS, _words(key)), dtype=np.uint64)
    width = key.columns if key.gravity else key.cells
    buf = np.zeros((key.cells + 1, IDS + 1, width + 1), dtype=np.uint64)
    state = np.zeros(STATE, dtype=np.int64)
    state[TABLE_SHIFT] = 64 - _WARM_UP_TABLE_BITS
    state[TABLE], state[SCRATCH], state[LIMIT] = tt.ctypes.data, buf.ctypes.data, 1000  # 1,000 positions
    state[FILTERED] = 1
    filter_ = make_filter(_WARM_UP_TABLE_BITS)
    state[FILTER], state[BLOCK_SHIFT] = filter_.ctypes.data, block_shift(_WARM_UP_TABLE_BITS)
    state[BOOK_PLY] = -1
    module.solve(0, 0, LIMITED, int(state.ctypes.data))


def is_warm(game: Game | None = None) -> bool:
    """Whether this process has compiled or loaded ``game``'s search already (with no game: any board's)."""
    return bool(_warm) if game is None else _key(game) in _warm


def cache_folder() -> Path:
    """Where the boards' compiled searches are kept (see :func:`inarow.engines.compiling.kernel_folder`)."""
    return compiling.kernel_folder()


def cached(game: Game | None = None) -> bool:
    """Whether ``game``'s search (default: Connect Four's) seems compiled already, so that a warm-up loads
    it (a fraction of a second) rather than compiles it (seconds). A guess: numba may still recompile when
    numba or the CPU has changed."""
    return compiling.unit(_key(game or CONNECT4)).compiled_before()


__all__ = [
    "CONNECT4",
    "LAYOUT_BITS",
    "MEMORY_VARIABLE",
    "MIN_SLICE",
    "MIN_TABLE_BITS",
    "SLICE_SECONDS",
    "TABLE_BITS",
    "CompiledEngine",
    "cache_folder",
    "cached",
    "is_warm",
    "memory_limit",
    "supports",
    "table_bits_for",
    "table_bytes",
    "warm_up",
]
