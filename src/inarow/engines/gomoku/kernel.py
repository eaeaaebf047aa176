"""The Gomoku engine's α-β search compiled by numba: the board of :mod:`inarow.engines.gomoku.board` as
arrays, its line patterns kept up to date as stones are played and taken back, the candidate moves, the
pattern evaluation, α-β with principal variation search, late move reductions (by a table of depth and
move number), killer moves, aspiration windows at the root and a transposition table kept across
searches (which threads searching at once may share: see :func:`_check`), a quiescence search over fours
at the horizon (:func:`quiesce`; or a short VCF), and the root's threat searches: VCF (:func:`vcf_line`)
and VCT (:func:`vct_line`).

Everything here is ``@njit(cache=True)``: compiled on first use in a process, or loaded from numba's cache
beside this file; :func:`root` runs without the GIL (``nogil=True``), so that threads search at once.
:mod:`inarow.engines.gomoku.driver` builds the arrays (:class:`Board`, :class:`Buffers`, :class:`Table`)
and drives the search from Python (the iterative deepening, the clock); the root's threat-space proofs are
driven by :mod:`inarow.engines.gomoku.search` and :mod:`inarow.engines.gomoku.threats`.

Layout
======
Cells are indexed as :class:`~inarow.engines.gomoku.board.GomokuBoard`'s: a flat board with a margin of
``PAD`` = 5 off-board cells on every side, ``W = columns + 10`` cells a row; for 15×15 (``W`` = 25)::

    index   0 ...                                                ... 24
            3 3 3 3 3  3 3 3 3 3 3 3 3 3 3 3 3 3 3 3  3 3 3 3 3    <- rows 0-4: off the board (3)
            ...
            3 3 3 3 3  0 0 0 0 0 0 0 0 0 0 0 0 0 0 0  3 3 3 3 3    <- a1 = 5 * W + 5 = 130
            ...                                                       cell (c, r) = (r + 5) * W + c + 5
            3 3 3 3 3  0 0 0 0 0 0 0 0 0 0 0 0 0 0 0  3 3 3 3 3    <- a15 = 19 * W + 5
            3 3 3 3 3  3 3 3 3 3 3 3 3 3 3 3 3 3 3 3  3 3 3 3 3    <- rows 20-24: off the board

    direction d        0 (row)   1 (column)   2 (diagonal)   3 (anti-diagonal)
    steps[d]           1         W            W + 1          W - 1

so that every cell of a window (five cells each way, see below) is an index of the array. A cell's line
code along direction ``d`` is the base-4 number of the ten cells around it (0 empty, 1 X, 2 O, 3 off the
board; see :mod:`inarow.engines.gomoku.patterns`)::

    window slot    0  1  2  3  4  [i]  5  6  7  8  9        code = sum of cell * 4 ** slot
    offsets[m]    -5 -4 -3 -2 -1        1  2  3  4  5        weights[m] = 4 ** slot of offset -offsets[m]

and ``patterns[side, code]`` is the pattern kind ``side`` makes by playing there (:data:`NONE` …
:data:`FIVE`), whose worth and counts ``kinds[kind, :5]`` holds (the first five columns below).

The position's arrays (:class:`Board`), ``s`` a side (1 X, 2 O; row 0 unused), ``i`` a cell::

    cells[i]          0 empty, 1 X, 2 O, 3 off the board
    codes[d, i]       the line code around i along direction d
    sums[s, i, :]     | SUM_WORTH | SUM_FOURS | SUM_THREES | SUM_FIVES | SUM_CODE | SUM_MOVER | SUM_WAITER |
                      |      summed over the four directions of i's kinds      | the code's worth (*)   |
    value[s, i]       an empty cell's worth to s: SUM_WORTH plus the double-threat bonus
    flags[s, i]       bits of an empty cell, what s makes there: FIVE_BIT, FOUR_BIT, WIN_BIT (an open four
                      or two fours), THREE_BIT (an open three)
    counts[s, bit]    how many empty cells have each bit of flags
    near[i]           stones within NEAR cells of i (0: no candidate)
    state[S_...]      the scalars (see STATE_SIZE)
    hash[0]           the position's Zobrist key, zobrist[s, i] each stone's word

(*) ``SUM_CODE`` is the cell's pattern code (its kinds' steps, see :mod:`inarow.engines.gomoku.weights`),
``SUM_MOVER`` and ``SUM_WAITER`` that code's worth to the side to move and to the side that waits
(``evals[EVAL_MOVER]``, ``evals[EVAL_WAITER]``; 0 on a taken cell), summed over the board in
``state[S_WORTH + 2 * s]`` and ``state[S_WORTH + 2 * s + 1]``. A cell's seven sums lie side by side: the
stone's update touches them together (see :func:`_refresh`).

The search's scratch (:class:`Buffers`), one row per ply below the root (:data:`ROWS`)::

    moves[row, k], scores[row, k]   a node's candidate moves, best first
    path[row, :]                    a VCF's step: | move | reply or first five | second five | PATH_... |
    killers[row, :2]                the last two moves that cut off at this ply
    lines[row, 0], lines[row, 1:]   a VCT's line below this level: its length, its moves

and the transposition table (:class:`Table`), one entry a slot: ``keys`` (xored with :func:`_check`),
``depths``, ``lowers``, ``uppers``, ``moves``, ``generations``.
"""

# mypy: disable-error-code="no-any-return"
# (the kernel returns its arrays' elements, which numpy types as Any)
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple, TypeAlias, cast

import numpy as np
from numba import njit

from inarow.engines import table as shared_table
from inarow.engines.gomoku.patterns import B1, B2, B3, B4, F1, F2, F3, F4, FIVE, NONE

Array: TypeAlias = np.ndarray[Any, Any]
"""A numpy array of the kernel (its shape and dtype in the module's layout)."""
Int: TypeAlias = int | np.integer[Any]
"""An integer argument: a Python int from the caller, numba's int64 inside the compiled code."""


class Board(NamedTuple):
    """One position as the kernel reads and updates it (the module's layout); built by
    :class:`inarow.engines.gomoku.driver.CompiledBoard`. The fields from ``zobrist`` on are read only:
    the board's geometry and the evaluation's tables.

    A NamedTuple, not a jitclass: numba passes it as it passed the plain tuple it replaced (the same nodes
    a second, measured), and it cannot cache a function that takes a jitclass (numba issues 6522 and 9659),
    where the kernel's cache saves half a minute of compiling in every new process."""

    cells: Array
    codes: Array
    sums: Array
    value: Array
    flags: Array
    counts: Array
    near: Array
    state: Array
    hash: Array
    zobrist: Array
    patterns: Array
    """``patterns[side, code]``: the pattern kind (:func:`pattern_table`)."""
    kinds: Array
    """``kinds[kind, :5]``: each kind's worth, fours (an open four counts two), open threes, fives and step
    of the pattern code, added to a cell's :data:`SUM_WORTH` … :data:`SUM_CODE`."""
    steps: Array
    offsets: Array
    weights: Array
    neighbours: Array
    """The index steps to the cells within :data:`inarow.engines.gomoku.board.NEAR` of a cell."""
    evals: Array
    """:attr:`inarow.engines.gomoku.weights.Tables.array` (its rows :data:`EVAL_MOVER` …
    :data:`EVAL_ORDER_THEIRS`)."""


class Buffers(NamedTuple):
    """The search's scratch arrays (the module's layout) and two tables of its settings."""

    moves: Array
    scores: Array
    path: Array
    killers: Array
    lines: Array
    failed_keys: Array
    """The VCT's table of failed positions (2 ** :data:`FAILED_BITS` slots): the key, the threats that
    failed, the VCT's stamp (``state[S_VCT_STAMP]``) when it was written."""
    failed_depths: Array
    failed_stamps: Array
    reductions: Array
    """:func:`lmr_table`: the plies a late quiet move is reduced by, by depth and move number."""
    prune_counts: Array
    """:func:`prune_counts`: the quiet moves searched at a node, by its depth."""


class Table(NamedTuple):
    """The transposition table: one entry a slot (see :func:`_store`)."""

    keys: Array
    depths: Array
    lowers: Array
    uppers: Array
    moves: Array
    generations: Array


probe = cast(Callable[..., tuple[bool, int]], njit(cache=True)(shared_table.probe))
"""The transposition table's probe (:func:`inarow.engines.table.probe`, one text for every engine),
compiled."""

DEBUG = False
"""Whether the compiled functions assert their preconditions (as Pons' solver asserts its own): a stone
goes on an empty on-board cell and is taken back from a cell of its side, the side is 1 or 2, the window is
not empty, ``ply`` lies within the move buffers and the stones within the board. numba reads a module
constant when it compiles: with False the checks are folded away and the machine code is the same as
without them; set it to True (before the first compile, with numba's cache off) to compile a checking
engine (a failed check raises AssertionError out of the kernel)."""

EXACT = 1_000_000
INFINITY = EXACT * 1000

WEIGHTS = (0, 10, 0, 3, 125, 149, 366, 374, 600, 8000)
"""As :data:`inarow.engines.gomoku.board.WEIGHTS` (the tests check they agree)."""
DOUBLE_THREAT = 600
DOUBLE_THREE = 3
"""As :mod:`inarow.engines.gomoku.board`'s (the tests check they agree)."""

EMPTY, OFF = 0, 3
"""What a cell holds (``cells[i]``) besides a stone of a side (1 X, 2 O)."""

SUM_WORTH, SUM_FOURS, SUM_THREES, SUM_FIVES, SUM_CODE, SUM_MOVER, SUM_WAITER = range(7)
"""The columns of ``sums[side, i]`` (the module's layout); the first five are ``kinds``' columns."""
KIND_SUMS = 5
"""The columns a pattern kind adds to (``kinds[kind, :KIND_SUMS]``)."""

EVAL_MOVER, EVAL_WAITER, EVAL_THREATS, EVAL_ORDER_MINE, EVAL_ORDER_THEIRS = range(5)
"""The rows of ``evals``: a pattern code's worth to the side to move and to the side that waits, the
waiting side's two threat terms (:data:`THREAT_WIN`, :data:`THREAT_FOUR`), the move order's keys for the
side to move and for the opponent."""
THREAT_WIN, THREAT_FOUR = 0, 1
"""The columns of ``evals[EVAL_THREATS]``: the term for a win (an open four or two fours) of the side that
waits, and for its four."""

FIVE_BIT, FOUR_BIT, WIN_BIT, THREE_BIT = 0, 1, 2, 3
F_FIVE, F_FOUR, F_WIN, F_THREE = 1, 2, 4, 8
"""The bits of ``flags[side, i]`` and their masks: a five, a four, a win (an open four or two fours), an
open three."""

PATH_FIVE, PATH_DOUBLE, PATH_FOUR = 1, 2, 3
"""The tag of a VCF's step (``path[row, PATH_TAG]``): a five (the move in column 0), a four that makes two
fives (the four, then both fives), a four and its one reply (the VCF goes on in the next row)."""
PATH_TAG = 3

MAX_PLY = 60
"""How far below the root forced replies may extend the search (as the Python engine)."""
ROWS = 200
"""Rows of the move buffers: one per ply of the α-β search and of a VCF below it."""
LAST_ROW = 180
"""The deepest row the α-β search and its quiescence search use (a VCF below it takes the rest)."""
MOVES = 400
"""Room for every cell of a 19×19 board in a move list."""

LMR_FIRST = 3
"""Moves searched at full depth at a quiet node before the late quiet ones are searched a ply shallower
(late move reductions), then searched again at full depth if they beat α."""
LMR_DEEPER = 8
"""From this move on, the late quiet moves are searched two plies shallower (at depth 4 or more)."""
LMR_DEPTH = 2
"""The least depth at which moves are reduced."""
QUIET = F_FOUR | F_WIN | F_THREE
"""A move is quiet unless it makes a four or an open three, or takes the opponent's four or open-four cell."""


def lmr_reduction(depth: int, number: int, divisor: float = 2.0) -> int:
    """The plies a late quiet move (the ``number``-th, from 0) is reduced by at ``depth`` with the table of
    reductions (``Style.lmr``): grows with the logarithms of both, as Rapfi's and Stockfish's reduction
    tables do (``initReductionLUT`` in Rapfi's search.cpp), at least 1, leaving at least a ply."""
    r = int(0.5 + math.log(depth) * math.log(number + 1) / divisor)
    return max(1, min(r, depth - 1))


def lmr_table(divisor: float) -> Array:
    """:func:`lmr_reduction` by depth and move number (both up to 63), for the compiled search (the
    driver puts it in :attr:`Buffers.reductions`)."""
    return np.array(
        [[lmr_reduction(max(d, 1), k, divisor) for k in range(64)] for d in range(64)], dtype=np.int64
    )


ASPIRATION = 800
ASPIRATION_DEPTH = 4
"""From this depth on, an iteration searches the root within this many points of the last
iteration's value first (an aspiration window), and again with the whole window if it falls outside."""

LEAF_VCF_FOURS = 4
LEAF_VCF_NODES = 60
"""The short VCF at the horizon (without the quiescence search): at most this many fours and nodes."""

# The slots of ``state``.
S_STONES = 0
"""Stones on the board."""
S_NODES = 1
"""Nodes searched."""
S_LIMIT = 2
"""The node limit."""
S_ABORT = 3
"""1 once the node limit was passed: the search unwinds and stores nothing."""
S_CELLS = 4
"""Cells on the board (5 to 7 unused)."""
S_VCF = 8
"""1: a short VCF at the horizon (without the quiescence search)."""
S_WIDTH = 9
"""Candidate moves tried at a quiet node."""
S_CUT = 10
"""1 when a VCF was cut at its depth (a deeper one may find more)."""
S_VCF_LIMIT = 11
"""The VCF's node limit."""
S_EXHAUSTED = 12
"""1 when the VCF ran out of nodes."""
S_GEN = 13
"""The transposition table's generation."""
S_PRUNE = 14
"""Move-count pruning on (its counts in :attr:`Buffers.prune_counts`, see :func:`prune_counts`)."""
S_MASK = 15
"""The transposition table's index mask."""
S_QUIESCE = 16
"""The fours the horizon's quiescence search may play (0: the short VCF instead)."""
S_VCT_LIMIT = 17
"""The VCT's node limit."""
S_VCT_OUT = 18
"""1 when the VCT ran out of nodes."""
S_VCT_STAMP = 19
"""The VCT's stamp in its table of failed positions (20 unused)."""
S_LMR = 21
"""Late move reductions by :func:`lmr_reduction` (0: one or two plies, see :data:`LMR_DEEPER`)."""
S_WORTH = 20
"""``state[S_WORTH + 2 * side]``: the sum of ``sums[side, :, SUM_MOVER]`` over the board; ``+ 1``: of
``sums[side, :, SUM_WAITER]`` (slots 22 to 25)."""
STATE_SIZE = 26

PRUNE_DEPTHS = 64
"""Depths of the move-count pruning's table (deeper nodes read its last entry)."""

VCF_NODES = 3000
"""The most nodes one VCF inside a VCT may take (as :data:`inarow.engines.gomoku.threats.VCF_NODES`)."""
LINE = 160
"""Room for a VCT's line in a row of the line buffer (its length in column 0)."""
FAILED_BITS = 16
"""The VCT's table of failed positions holds 2 ** FAILED_BITS entries (always replaced)."""

QUIESCE_FOURS = 8
"""The most fours of the side to move the quiescence search at the horizon plays in a row (see
:func:`quiesce`)."""
NEAR_SQUARE = 2
NEAR_LINE = 4
"""After its first four, the quiescence search plays only fours within ``NEAR_SQUARE`` cells (in both
directions) of the attacker's last four, or on one of its lines within ``NEAR_LINE`` cells (Rapfi's
``RANGE_SQUARE2_LINE4`` for its QVCF moves)."""


def prune_counts(base: int, power: float) -> Array:
    """Move-count pruning (Rapfi's ``futilityMoveCount``, ``Rapfi/search/ab/parameter.h``): at a quiet
    node ``depth`` plies above the horizon, the quiet moves after the first ``base + depth ** power`` (entry
    ``depth`` of the result) are not searched; the moves that make a four or an open three, or block the
    opponent's four or open-four cell, always are (the driver puts the counts in
    :attr:`Buffers.prune_counts`)."""
    return np.array([base + int(d**power) for d in range(PRUNE_DEPTHS)], dtype=np.int64)


@njit(cache=True)
def pattern_table(exact: bool) -> Array:
    """``table[side, code]``: the pattern kind (:data:`NONE` … :data:`FIVE`, as
    :func:`inarow.engines.gomoku.patterns.pattern` classifies it) ``side`` makes by playing the cell whose
    window is ``code``, for every base-4 code of the ten window cells."""
    views = 59049  # 3 ** 10: each window cell empty, own or blocked
    kinds = np.zeros(views, dtype=np.uint8)
    power = np.ones(10, dtype=np.int64)
    for s in range(1, 10):
        power[s] = power[s - 1] * 3
    line = np.zeros(11, dtype=np.int64)
    # One more own stone makes the next kind up, so views are classified from the most own stones down.
    for own in range(10, -1, -1):
        for v in range(views):
            x = v
            count = 0
            for s in range(10):
                digit = x % 3
                x //= 3
                line[s if s < 5 else s + 1] = digit
                if digit == 1:
                    count += 1
            if count != own:
                continue
            line[5] = 1
            start = 5
            while start > 0 and line[start - 1] == 1:
                start -= 1
            end = 5
            while end < 10 and line[end + 1] == 1:
                end += 1
            run = end - start + 1
            if run == 5 or (run > 5 and not exact):
                kinds[v] = FIVE
                continue
            if run > 5:
                kinds[v] = NONE
                continue
            fives = 0
            best = NONE
            for s in range(10):
                if line[s if s < 5 else s + 1] != 0:
                    continue
                kind = kinds[v + power[s]]
                if kind == FIVE:
                    fives += 1
                elif kind > best:
                    best = kind
            # One more stone makes the next kind up: an open four means this is an open three, and so on.
            if fives >= 2:
                kinds[v] = F4
            elif fives == 1:
                kinds[v] = B4
            elif best == F4:
                kinds[v] = F3
            elif best == B4:
                kinds[v] = B3
            elif best == F3:
                kinds[v] = F2
            elif best == B3:
                kinds[v] = B2
            elif best == F2:
                kinds[v] = F1
            elif best == B2:
                kinds[v] = B1
            else:
                kinds[v] = NONE
    codes = 1 << 20
    table = np.zeros((3, codes), dtype=np.uint8)
    for side in range(1, 3):
        for code in range(codes):
            v = 0
            x = code
            for s in range(10):
                digit = x & 3
                x >>= 2
                if digit == side:
                    v += power[s]
                elif digit != 0:
                    v += 2 * power[s]
            table[side, code] = kinds[v]
    return table


@njit(cache=True, inline="always")
def _refresh(
    j: Int, s: Int, sums: Array, value: Array, flags: Array, counts: Array, state: Array, evals: Array
) -> None:
    """Recompute the worth and flags of the empty cell ``j`` for side ``s`` from its sums. Inlined into
    :func:`place` and :func:`setup` (numba's ``inline="always"``): it runs about 45 times a stone, and a
    call that passes seven arrays cost more than its body (the search explores a quarter more nodes a
    second, with the cells' sums laid out together, see the module)."""
    worth = sums[s, j, SUM_WORTH]
    fours = sums[s, j, SUM_FOURS]
    threes = sums[s, j, SUM_THREES]
    mover = evals[EVAL_MOVER, sums[s, j, SUM_CODE]]
    waiter = evals[EVAL_WAITER, sums[s, j, SUM_CODE]]
    if fours >= 2 or (fours > 0 and threes > 0):
        worth += DOUBLE_THREAT
    elif threes >= 2:
        worth += DOUBLE_THREE
    new = 0
    if sums[s, j, SUM_FIVES] > 0:
        new |= F_FIVE
    if fours > 0:
        new |= F_FOUR
    if fours >= 2:
        new |= F_WIN
    if threes > 0:
        new |= F_THREE
    value[s, j] = worth
    state[S_WORTH + 2 * s] += mover - sums[s, j, SUM_MOVER]
    state[S_WORTH + 2 * s + 1] += waiter - sums[s, j, SUM_WAITER]
    sums[s, j, SUM_MOVER] = mover
    sums[s, j, SUM_WAITER] = waiter
    old = flags[s, j]
    if old != new:
        changed = old ^ new
        for bit in range(4):
            if changed >> bit & 1:
                if new >> bit & 1:
                    counts[s, bit] += 1
                else:
                    counts[s, bit] -= 1
        flags[s, j] = new


@njit(cache=True)
def place(i: Int, side: Int, sign: Int, b: Board) -> None:
    """Put a stone of ``side`` on the empty cell ``i`` (``sign`` 1), or take it back (``sign`` -1)."""
    # Every field read into a local first: reading ``b.hash`` and ``b.neighbours`` where they are used cost
    # 8 % of the search's nodes a second (measured).
    cells, codes, sums, value, flags = b.cells, b.codes, b.sums, b.value, b.flags
    counts, near, state, hashes, zobrist = b.counts, b.near, b.state, b.hash, b.zobrist
    patterns, kinds, steps, offsets = b.patterns, b.kinds, b.steps, b.offsets
    weights, neighbours, evals = b.weights, b.neighbours, b.evals
    if DEBUG:
        assert side == 1 or side == 2, "a side is 1 or 2"
        assert cells[i] == (EMPTY if sign > 0 else side), "a stone on a taken cell, or taken from another's"
    hashes[0] ^= zobrist[side, i]
    if sign > 0:
        cells[i] = side
        state[S_STONES] += 1
    else:
        cells[i] = EMPTY
        state[S_STONES] -= 1
    delta = sign * side
    for d in range(4):
        step = steps[d]
        for m in range(10):
            j = i + offsets[m] * step
            old = codes[d, j]
            new = old + delta * weights[m]
            codes[d, j] = new
            c = cells[j]
            if c == OFF:
                continue
            for s in range(1, 3):
                ko = patterns[s, old]
                kn = patterns[s, new]
                if ko != kn:
                    # the KIND_SUMS columns, written out (a loop here costs speed)
                    sums[s, j, SUM_WORTH] += kinds[kn, SUM_WORTH] - kinds[ko, SUM_WORTH]
                    sums[s, j, SUM_FOURS] += kinds[kn, SUM_FOURS] - kinds[ko, SUM_FOURS]
                    sums[s, j, SUM_THREES] += kinds[kn, SUM_THREES] - kinds[ko, SUM_THREES]
                    sums[s, j, SUM_FIVES] += kinds[kn, SUM_FIVES] - kinds[ko, SUM_FIVES]
                    sums[s, j, SUM_CODE] += kinds[kn, SUM_CODE] - kinds[ko, SUM_CODE]
                    if c == EMPTY:
                        _refresh(j, s, sums, value, flags, counts, state, evals)
    for m in range(neighbours.shape[0]):
        near[i + neighbours[m]] += sign
    if sign > 0:
        for s in range(1, 3):
            old_flags = flags[s, i]
            for bit in range(4):
                if old_flags >> bit & 1:
                    counts[s, bit] -= 1
            flags[s, i] = 0
            value[s, i] = 0
            state[S_WORTH + 2 * s] -= sums[s, i, SUM_MOVER]
            state[S_WORTH + 2 * s + 1] -= sums[s, i, SUM_WAITER]
            sums[s, i, SUM_MOVER] = 0
            sums[s, i, SUM_WAITER] = 0
    else:
        _refresh(i, 1, sums, value, flags, counts, state, evals)
        _refresh(i, 2, sums, value, flags, counts, state, evals)


@njit(cache=True)
def setup(b: Board, board: Array) -> None:
    """Fill the line codes, sums, worth and flags of an empty board (its ``cells`` :data:`EMPTY` on the
    board, :data:`OFF` off it; ``board`` its on-board cells); stones are then played with :func:`place`."""
    cells, codes, sums, value, flags = b.cells, b.codes, b.sums, b.value, b.flags
    counts, state, patterns, kinds, evals = b.counts, b.state, b.patterns, b.kinds, b.evals
    steps, offsets, weights = b.steps, b.offsets, b.weights
    for d in range(4):
        step = steps[d]
        for k in range(board.shape[0]):
            i = board[k]
            code = 0
            for m in range(10):
                # The cell offsets[m] steps away holds weight weights[m] in the window of the cell it
                # updates; seen from i, the cell -offsets[m] steps away has that weight.
                code += cells[i - offsets[m] * step] * weights[m]
            codes[d, i] = code
            for s in range(1, 3):
                kind = patterns[s, code]
                for q in range(KIND_SUMS):
                    sums[s, i, q] += kinds[kind, q]
    for k in range(board.shape[0]):
        _refresh(board[k], 1, sums, value, flags, counts, state, evals)
        _refresh(board[k], 2, sums, value, flags, counts, state, evals)


@njit(cache=True)
def _first(s: Int, bit: Int, b: Board, board: Array) -> int:
    """The first cell of ``board`` (in board order) whose ``flags[s]`` has ``bit``, or -1."""
    flags = b.flags
    for k in range(board.shape[0]):
        j = board[k]
        if flags[s, j] >> bit & 1:
            return j
    return -1


@njit(cache=True)
def _last(s: Int, bit: Int, b: Board, board: Array) -> int:
    """The last cell of ``board`` whose ``flags[s]`` has ``bit``, or -1."""
    flags = b.flags
    for k in range(board.shape[0] - 1, -1, -1):
        j = board[k]
        if flags[s, j] >> bit & 1:
            return j
    return -1


@njit(cache=True)
def evaluate(side: Int, b: Board) -> int:
    """The static worth for ``side``, to move (as :meth:`GomokuBoard.evaluate`), within the open interval
    of evaluations."""
    counts, state, evals = b.counts, b.state, b.evals
    v = state[S_WORTH + 2 * side] + state[S_WORTH + 2 * (3 - side) + 1]
    if counts[3 - side, WIN_BIT] > 0:
        v += evals[EVAL_THREATS, THREAT_WIN]
    if counts[3 - side, FOUR_BIT] > 0:
        v += evals[EVAL_THREATS, THREAT_FOUR]
    return max(-EXACT + 1, min(EXACT - 1, v))


@njit(cache=True)
def _win(n: Int, state: Array) -> int:
    """The value of a win by the stone played when ``n`` stones are on the board (faster wins higher)."""
    return (state[S_CELLS] + 1 - n) // 2 * EXACT


@njit(cache=True)
def _insert(moves: Array, scores: Array, row: Int, q: Int, move: Int, score: Int) -> None:
    """Put ``move`` worth ``score`` into row ``row`` of the move buffers, kept best first (ties in the
    order they come): at slot ``q`` or above, the worse moves from there shifted one slot down (the one
    in slot ``q`` is overwritten: the caller passes the first free slot, or the last one it keeps)."""
    while q > 0 and scores[row, q - 1] < score:
        moves[row, q] = moves[row, q - 1]
        scores[row, q] = scores[row, q - 1]
        q -= 1
    moves[row, q] = move
    scores[row, q] = score


@njit(cache=True)
def _quiet(side: Int, move: Int, flags: Array) -> bool:
    """Whether ``move`` is quiet for ``side`` (see :data:`QUIET`), a move late move reductions may
    reduce."""
    return not flags[side, move] & QUIET and not flags[3 - side, move] & (F_FOUR | F_WIN)


@njit(cache=True)
def _fours(side: Int, row: Int, b: Board, board: Array, buf: Buffers) -> int:
    """Every cell where ``side`` makes a four, into row ``row`` of the move buffers, the worthiest first;
    returns how many."""
    value, flags = b.value, b.flags
    moves, scores = buf.moves, buf.scores
    n = 0
    for k in range(board.shape[0]):
        j = board[k]
        if flags[side, j] & F_FOUR:
            _insert(moves, scores, row, n, j, value[side, j])
            n += 1
    return n


@njit(cache=True)
def _moves(side: Int, width: Int, row: Int, b: Board, board: Array, buf: Buffers) -> int:
    """The moves worth trying for ``side`` (no five to make, none of the opponent's to block) into row
    ``row`` of the buffers, best first; returns how many."""
    cells, sums, value, flags = b.cells, b.sums, b.value, b.flags
    counts, near, evals = b.counts, b.near, b.evals
    moves, scores = buf.moves, buf.scores
    opp = 3 - side
    n = 0
    if counts[opp, WIN_BIT] > 0:
        # An open three (or a four-three) of the opponent: answer on its line, or play a four.
        for k in range(board.shape[0]):
            j = board[k]
            if flags[opp, j] & F_FOUR or flags[side, j] & F_FOUR:
                score = value[side, j] + value[opp, j]
                _insert(moves, scores, row, n, j, score)
                n += 1
        return n
    for k in range(board.shape[0]):
        j = board[k]
        if near[j] == 0 or cells[j] != EMPTY:
            continue
        score = (
            evals[EVAL_ORDER_MINE, sums[side, j, SUM_CODE]] + evals[EVAL_ORDER_THEIRS, sums[opp, j, SUM_CODE]]
        )
        if n == width and scores[row, n - 1] >= score:
            continue
        _insert(moves, scores, row, n if n < width else width - 1, j, score)
        if n < width:
            n += 1
    return n


@njit(cache=True)
def _vcf_line(a: Int, depth: Int, row: Int, b: Board, board: Array, buf: Buffers) -> int:
    """The length in plies of a VCF of ``a`` (to move) with at most ``depth`` fours, up to its five
    included, or -1; its steps into ``path`` from ``row`` on (see :data:`PATH_FIVE`)."""
    flags, counts, state = b.flags, b.counts, b.state
    moves, path = buf.moves, buf.path
    if counts[a, FIVE_BIT] > 0:
        path[row, 0] = _first(a, FIVE_BIT, b, board)
        path[row, PATH_TAG] = PATH_FIVE
        return 1
    if depth <= 0:
        state[S_CUT] = 1
        return -1
    if state[S_NODES] > state[S_VCF_LIMIT]:
        state[S_EXHAUSTED] = 1
        return -1
    d = 3 - a
    n = 0
    if counts[d, FIVE_BIT] > 0:
        if counts[d, FIVE_BIT] > 1:
            return -1
        block = _first(d, FIVE_BIT, b, board)
        if flags[a, block] & F_FOUR:
            moves[row, 0] = block
            n = 1
    else:
        n = _fours(a, row, b, board, buf)
    for k in range(n):
        move = moves[row, k]
        state[S_NODES] += 1
        if state[S_NODES] >= state[S_LIMIT]:
            state[S_ABORT] = 1
            return -1
        place(move, a, 1, b)
        found = -1
        fives = counts[a, FIVE_BIT]
        if fives >= 2:
            found = 3
            path[row, 0] = move
            path[row, 1] = _first(a, FIVE_BIT, b, board)
            path[row, 2] = _last(a, FIVE_BIT, b, board)
            path[row, PATH_TAG] = PATH_DOUBLE
        elif fives == 1:
            reply = _first(a, FIVE_BIT, b, board)
            if not flags[d, reply] & F_FIVE and row + 1 < ROWS:
                place(reply, d, 1, b)
                rest = _vcf_line(a, depth - 1, row + 1, b, board, buf)
                if rest > 0:
                    found = 2 + rest
                    path[row, 0] = move
                    path[row, 1] = reply
                    path[row, PATH_TAG] = PATH_FOUR
                place(reply, d, -1, b)
        place(move, a, -1, b)
        if found > 0:
            return found
        if state[S_ABORT] or state[S_EXHAUSTED]:
            return -1
    return -1


@njit(cache=True)
def vcf(a: Int, max_fours: Int, max_nodes: Int, row: Int, b: Board, board: Array, buf: Buffers) -> int:
    """The length of the shortest VCF of ``a`` found within ``max_nodes`` nodes, or -1 (no proof of
    anything); sets the abort flag when the search's own node limit is passed."""
    state = b.state
    state[S_VCF_LIMIT] = state[S_NODES] + max_nodes
    state[S_EXHAUSTED] = 0
    for depth in range(1, max_fours + 1):
        state[S_CUT] = 0
        length = _vcf_line(a, depth, row, b, board, buf)
        if length > 0:
            return length
        if state[S_ABORT] or state[S_EXHAUSTED] or not state[S_CUT]:
            return -1
    return -1


@njit(cache=True)
def _vcf_into(a: Int, max_fours: Int, row: Int, out_row: Int, b: Board, board: Array, buf: Buffers) -> bool:
    """Look for a VCF of ``a`` (see :func:`vcf`, within what the VCT has left, at most
    :data:`VCF_NODES`) with its rows from ``row``; if found, its line into ``lines[out_row]`` (length in
    column 0) and True."""
    state = b.state
    lines, path = buf.lines, buf.path
    left = state[S_VCT_LIMIT] - state[S_NODES]
    nodes = max(1, min(VCF_NODES, left))
    length = vcf(a, max_fours, nodes, row, b, board, buf)
    if length <= 0:
        return False
    n = 0
    r = row
    while n < length:
        tag = path[r, PATH_TAG]
        if tag == PATH_FIVE:
            lines[out_row, 1 + n] = path[r, 0]
            n += 1
            break
        if tag == PATH_DOUBLE:
            lines[out_row, 1 + n] = path[r, 0]
            lines[out_row, 2 + n] = path[r, 1]
            lines[out_row, 3 + n] = path[r, 2]
            n += 3
            break
        lines[out_row, 1 + n] = path[r, 0]
        lines[out_row, 2 + n] = path[r, 1]
        n += 2
        r += 1
    lines[out_row, 0] = n
    return True


@njit(cache=True)
def _vct(a: Int, depth: Int, vcf_fours: Int, row: Int, b: Board, board: Array, buf: Buffers) -> bool:
    """:meth:`inarow.engines.gomoku.threats.ThreatSearch._vct` and ``_after_threat`` compiled (one function:
    numba's cache does not keep mutually recursive functions): a VCT of ``a`` (to move) with at most ``depth``
    threats into ``lines[row]``; True if found. Rows ``row`` (the threats) and ``row + 1`` (the replies)
    of the move buffers are this level's; the next threat uses ``row + 2``."""
    flags, value, counts, state = b.flags, b.value, b.counts, b.state
    moves, scores, lines = buf.moves, buf.scores, buf.lines
    failed_keys, failed_depths, failed_stamps = buf.failed_keys, buf.failed_depths, buf.failed_stamps
    d = 3 - a
    if counts[a, FIVE_BIT] > 0:
        lines[row, 0] = 1
        lines[row, 1] = _first(a, FIVE_BIT, b, board)
        return True
    if depth <= 0 or row + 3 >= ROWS:
        return False
    key = b.hash[0] ^ np.uint64(a)
    slot = np.int64(key & np.uint64((1 << FAILED_BITS) - 1))
    if (
        failed_stamps[slot] == state[S_VCT_STAMP]
        and failed_keys[slot] == key
        and failed_depths[slot] >= depth
    ):
        return False
    if state[S_NODES] > state[S_VCT_LIMIT]:
        state[S_VCT_OUT] = 1
        return False
    number = 0
    if counts[d, FIVE_BIT] > 0:
        if counts[d, FIVE_BIT] > 1:
            return False
        moves[row, 0] = _first(d, FIVE_BIT, b, board)
        number = 1
    else:
        if _vcf_into(a, min(vcf_fours, 2 * depth), row, row, b, board, buf):
            return True
        if state[S_ABORT]:
            return False
        # the wins first, then the others, each by worth (ties in board order)
        for k in range(board.shape[0]):
            j = board[k]
            f = flags[a, j]
            if not f & (F_WIN | F_FOUR | F_THREE):
                continue
            score = value[a, j] + (1 << 40 if f & F_WIN else 0)
            _insert(moves, scores, row, number, j, score)
            number += 1
    replies = row + 1
    for k in range(number):
        move = moves[row, k]
        state[S_NODES] += 1
        if state[S_NODES] >= state[S_LIMIT]:
            state[S_ABORT] = 1
            return False
        place(move, a, 1, b)
        # The attacker has just played ``move``: the winning line if every defence loses.
        found = False
        answers = -1
        if counts[d, FIVE_BIT] == 0:
            fives = counts[a, FIVE_BIT]
            if fives >= 2:
                lines[row, 0] = 3
                lines[row, 1] = move
                lines[row, 2] = _first(a, FIVE_BIT, b, board)
                lines[row, 3] = _last(a, FIVE_BIT, b, board)
                found = True
            elif fives == 1:
                moves[replies, 0] = _first(a, FIVE_BIT, b, board)
                answers = 1
            elif (
                counts[a, WIN_BIT] > 0
                and not _vcf_into(d, vcf_fours, replies, replies, b, board, buf)
                and not state[S_ABORT]
            ):
                answers = 0
                for q in range(board.shape[0]):
                    j = board[q]
                    if flags[a, j] & (F_WIN | F_FOUR) or flags[d, j] & F_FOUR:
                        moves[replies, answers] = j
                        answers += 1
        if answers > 0:
            longest = -1
            for q in range(answers):
                reply = moves[replies, q]
                if flags[d, reply] & F_FIVE:
                    longest = -1
                    break
                place(reply, d, 1, b)
                held = _vct(a, depth - 1, vcf_fours, row + 2, b, board, buf)
                place(reply, d, -1, b)
                if not held:
                    longest = -1
                    break
                length = lines[row + 2, 0]
                if length + 2 > longest:
                    longest = length + 2
                    lines[row, 0] = longest
                    lines[row, 1] = move
                    lines[row, 2] = reply
                    for m in range(length):
                        lines[row, 3 + m] = lines[row + 2, 1 + m]
            found = longest > 0
        place(move, a, -1, b)
        if found:
            return True
        if state[S_ABORT] or state[S_VCT_OUT]:
            return False
    failed_keys[slot] = key
    failed_depths[slot] = depth
    failed_stamps[slot] = state[S_VCT_STAMP]
    return False


@njit(cache=True)
def vct_line(
    a: Int, max_threats: Int, vcf_fours: Int, max_nodes: Int, out: Array, b: Board, board: Array, buf: Buffers
) -> int:
    """:meth:`inarow.engines.gomoku.threats.ThreatSearch.vct` compiled: a VCT of ``a`` (to move) with at most
    ``max_threats`` threats (a VCF with at most ``vcf_fours`` fours first), shortest depth first, found
    within ``max_nodes`` nodes, into ``out``: returns its length (0: none found) and counts its nodes in
    ``state[S_NODES]``. A line found is a proof (see :mod:`inarow.engines.gomoku.threats`)."""
    state, lines = b.state, buf.lines
    state[S_LIMIT] = 1 << 62
    state[S_ABORT] = 0
    state[S_VCT_OUT] = 0
    state[S_VCT_STAMP] += 1
    state[S_VCT_LIMIT] = state[S_NODES] + max_nodes
    zero = np.int64(0)
    found = _vcf_into(np.int64(a), np.int64(vcf_fours), zero, zero, b, board, buf)
    depth = 2
    while not found and depth <= max_threats and not state[S_VCT_OUT]:
        found = _vct(np.int64(a), np.int64(depth), np.int64(vcf_fours), zero, b, board, buf)
        depth += 1
    if not found:
        return 0
    length = lines[0, 0]
    for q in range(length):
        out[q] = lines[0, 1 + q]
    return length


@njit(cache=True)
def _settled(side: Int, b: Board) -> tuple[bool, Int]:
    """Count a node of the search or of its quiescence search, and settle it when it needs no search:
    ``(True, value)`` once the node limit is passed (0, the abort flag set), when ``side`` (to move) has
    a five to make (a win), the opponent two (a loss) or the board is full (a draw); else ``(False,
    0)``."""
    counts, state = b.counts, b.state
    state[S_NODES] += 1
    if state[S_NODES] >= state[S_LIMIT]:
        state[S_ABORT] = 1
        return True, np.int64(0)
    n = state[S_STONES]
    if counts[side, FIVE_BIT] > 0:
        return True, np.int64(_win(n, state))
    if counts[3 - side, FIVE_BIT] >= 2:
        return True, np.int64(-_win(n + 1, state))
    if n >= state[S_CELLS]:
        return True, np.int64(0)
    return False, np.int64(0)


@njit(cache=True)
def quiesce(
    side: Int, alpha: Int, beta: Int, fours: Int, last: Int, ply: Int, b: Board, board: Array, buf: Buffers
) -> Int:
    """The value of the position for ``side``, to move, at the α-β search's horizon (a quiescence search
    over fours, as Rapfi's ``vcfsearch``/``vcfdefend``): a five or an open four to make wins, a four of the
    opponent is blocked, else the static evaluation stands unless one of ``side``'s fours (at most
    ``fours`` more in a row, after the first only those near ``last``, the attacker's last four, see
    :data:`NEAR_LINE`) does better: each four forces the one reply, so a VCF found is a win, and a four
    that leaves a better position is worth that position. Returns 0 with the abort flag set once the node
    limit is passed."""
    cells, value, flags, counts, state = b.cells, b.value, b.flags, b.counts, b.state
    moves, scores = buf.moves, buf.scores
    settled, known = _settled(side, b)
    if settled:
        return known
    opp = 3 - side
    n = state[S_STONES]
    if counts[opp, FIVE_BIT] == 1:
        if ply >= LAST_ROW:
            return evaluate(side, b)
        block = _first(opp, FIVE_BIT, b, board)
        place(block, side, 1, b)
        v = -quiesce(opp, -beta, -alpha, fours, last, ply + 1, b, board, buf)
        place(block, side, -1, b)
        return v
    if counts[side, WIN_BIT] > 0:
        return _win(n + 2, state)
    stand = evaluate(side, b)
    if stand >= beta or fours <= 0 or counts[side, FOUR_BIT] == 0 or ply >= LAST_ROW:
        return stand
    number = 0
    if last < 0:
        number = _fours(side, ply, b, board, buf)
    else:
        width = b.steps[1]  # a row
        for dr in range(-NEAR_LINE, NEAR_LINE + 1):
            for dc in range(-NEAR_LINE, NEAR_LINE + 1):
                ar = dr if dr >= 0 else -dr
                ac = dc if dc >= 0 else -dc
                if not ((ar <= NEAR_SQUARE and ac <= NEAR_SQUARE) or ar == 0 or ac == 0 or ar == ac):
                    continue
                j = last + dr * width + dc
                if j < 0 or j >= cells.shape[0] or cells[j] != EMPTY or not flags[side, j] & F_FOUR:
                    continue
                score = value[side, j]
                _insert(moves, scores, ply, number, j, score)
                number += 1
    best: Int = stand
    if stand > alpha:
        alpha = stand
    for k in range(number):
        move = moves[ply, k]
        place(move, side, 1, b)
        v = -quiesce(opp, -beta, -alpha, fours - 1, move, ply + 1, b, board, buf)
        place(move, side, -1, b)
        if state[S_ABORT]:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def _check(generation: Int, depth: Int, lower: Int, upper: Int, move: Int) -> np.uint64:
    """The word a table entry's key is stored xored with: a mix of the entry's other fields, so that an
    entry whose fields two search threads wrote at once (see :func:`root`) fails :func:`_entry`'s key
    check instead of pairing one position's key with another's bounds (the lockless table of Hyatt and
    Mann, "A lock-less transposition table implementation for parallel search chess engines", 2002)."""
    h = np.uint64(generation) * np.uint64(0x9E3779B97F4A7C15)
    h ^= np.uint64(depth) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= np.uint64(lower) * np.uint64(0x165667B19E3779F9)
    h ^= np.uint64(upper) * np.uint64(0xD6E8FEB86659FD93)
    h ^= np.uint64(move) * np.uint64(0xFF51AFD7ED558CCD)
    return h


@njit(cache=True)
def _store(
    table: Table, slot: Int, key: np.uint64, generation: Int, depth: Int, lower: Int, upper: Int, move: Int
) -> None:
    """Write an entry into ``slot`` of the table (its key checked, see :func:`_check`)."""
    table.generations[slot] = generation
    table.depths[slot] = depth
    table.lowers[slot] = lower
    table.uppers[slot] = upper
    table.moves[slot] = move
    table.keys[slot] = key ^ _check(generation, depth, lower, upper, move)


@njit(cache=True)
def _entry(table: Table, slot: Int, key: np.uint64, generation: Int) -> tuple[bool, int, int, int, int]:
    """``(found, depth, lower, upper, move)`` of the entry for ``key`` of this ``generation`` in ``slot``;
    ``found`` False when the slot holds another position, another generation or a torn entry."""
    stored_generation = table.generations[slot]
    depth = table.depths[slot]
    lower = table.lowers[slot]
    upper = table.uppers[slot]
    move = table.moves[slot]
    found = stored_generation == generation and table.keys[slot] == key ^ _check(
        stored_generation, depth, lower, upper, move
    )
    return found, depth, lower, upper, move


@njit(cache=True)
def search(
    side: Int, depth: Int, alpha: Int, beta: Int, ply: Int, b: Board, board: Array, table: Table, buf: Buffers
) -> Int:
    """The α-β value of the position for ``side``, to move, ``depth`` plies deep (negamax, principal
    variation search, the table's bounds and best move). Returns 0 with the abort flag set once the node
    limit is passed; an aborted search stores nothing."""
    counts, state = b.counts, b.state
    moves = buf.moves
    if DEBUG:
        assert alpha < beta, "an empty window"
        assert side == 1 or side == 2, "a side is 1 or 2"
        assert 0 <= ply < LAST_ROW, "ply beyond the move buffers"
        assert 0 <= state[S_STONES] <= state[S_CELLS], "more stones than cells"
    settled, known = _settled(side, b)
    if settled:
        return known
    opp = 3 - side
    n = state[S_STONES]
    forced = 0
    if counts[opp, FIVE_BIT] == 1:
        moves[ply, 0] = _first(opp, FIVE_BIT, b, board)
        forced = 1
        if ply < MAX_PLY:
            depth += 1
    elif counts[side, WIN_BIT] > 0:
        return _win(n + 2, state)
    key = b.hash[0] ^ np.uint64(side)
    slot = np.int64(key & np.uint64(state[S_MASK]))
    hint = -1
    found, stored_depth, stored_lower, stored_upper, stored_move = _entry(table, slot, key, state[S_GEN])
    if found:
        hint = stored_move
        decided, stored = probe(stored_depth, stored_lower, stored_upper, depth, alpha, beta)
        if decided:
            return stored
    if depth <= 0 or ply >= LAST_ROW:
        if state[S_QUIESCE] > 0:
            # int64 arguments, as the recursion passes them (see :func:`root`)
            leaf = quiesce(side, alpha, beta, state[S_QUIESCE], np.int64(-1), ply, b, board, buf)
            if state[S_ABORT]:
                return 0
            lower = leaf if leaf > alpha else -INFINITY
            upper = leaf if leaf < beta else INFINITY
            _store(table, slot, key, state[S_GEN], 0, lower, upper, -1)
            return leaf
        leaf = evaluate(side, b)
        if state[S_VCF] and not forced and counts[side, FOUR_BIT] > 0:
            length = vcf(side, LEAF_VCF_FOURS, LEAF_VCF_NODES, ply, b, board, buf)
            if state[S_ABORT]:
                return 0
            if length > 0:
                leaf = _win(n + length - 1, state)
            # A horizon's value is exact at depth 0: kept, so that transpositions skip its VCF.
            _store(table, slot, key, state[S_GEN], 0, leaf, leaf, -1)
        return leaf
    number = forced
    if not forced:
        number = _moves(side, state[S_WIDTH], ply, b, board, buf)
        if number == 0:
            return evaluate(side, b)
    killers = buf.killers
    front = 0
    for wanted in (hint, killers[ply, 0], killers[ply, 1]):
        if wanted < 0:
            continue
        for k in range(front, number):
            if moves[ply, k] == wanted:
                for q in range(k, front, -1):
                    moves[ply, q] = moves[ply, q - 1]
                moves[ply, front] = wanted
                front += 1
                break
    flags = b.flags
    alpha0 = alpha
    best: Int = -INFINITY
    best_move = moves[ply, 0]
    for k in range(number):
        move = moves[ply, k]
        if (
            not forced
            and state[S_PRUNE]
            and k >= buf.prune_counts[min(depth, PRUNE_DEPTHS - 1)]
            and _quiet(side, move, flags)
        ):
            continue
        reduce = 0
        if not forced and k >= LMR_FIRST and depth >= LMR_DEPTH and _quiet(side, move, flags):
            if state[S_LMR]:
                reduce = buf.reductions[min(depth, 63), min(k, 63)]
            else:
                reduce = 2 if k >= LMR_DEEPER and depth >= 4 else 1
        place(move, side, 1, b)
        if k == 0:
            v = -search(opp, depth - 1, -beta, -alpha, ply + 1, b, board, table, buf)
        else:
            v = -search(opp, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, b, board, table, buf)
            if reduce and v > alpha and not state[S_ABORT]:
                v = -search(opp, depth - 1, -alpha - 1, -alpha, ply + 1, b, board, table, buf)
            if alpha < v < beta and not state[S_ABORT]:
                v = -search(opp, depth - 1, -beta, -alpha, ply + 1, b, board, table, buf)
        place(move, side, -1, b)
        if state[S_ABORT]:
            return 0
        if v > best:
            best = v
            best_move = move
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if not forced and killers[ply, 0] != move:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = move
                    break
    lower = best if best > alpha0 else -INFINITY
    upper = best if best < beta else INFINITY
    _store(table, slot, key, state[S_GEN], depth, lower, upper, best_move)
    return best


@njit(cache=True, nogil=True)
def root(
    side: Int,
    roots: Array,
    depth: Int,
    values: Array,
    low: Int,
    high: Int,
    b: Board,
    board: Array,
    table: Table,
    buf: Buffers,
) -> tuple[Int, int, int]:
    """Search the root moves ``roots`` of ``side`` ``depth`` plies deep within the window (``low``,
    ``high``): the first with the whole window, the others with null windows first; ``values[k]`` gets
    each root move's value (the best exact, the others upper bounds). Returns the best value (at most
    ``low`` when every move failed low, then the index is -1; at least ``high`` when one failed high, and
    the search stopped there), its index and how many root moves were searched (fewer than all when the
    node limit was passed or a move failed high)."""
    state = b.state
    if DEBUG:
        assert low < high, "an empty window"
        assert side == 1 or side == 2, "a side is 1 or 2"
        assert depth >= 1, "a root search goes at least one ply deep"
        for k in range(roots.shape[0]):
            assert b.cells[roots[k]] == EMPTY, "a root move on a taken cell"
    # Every argument of the recursive search typed as it calls itself (int64), or numba's cache would
    # keep a second, unresolved specialisation (numba issue 6061).
    alpha: Int = np.int64(low)
    beta = np.int64(high)
    best = -1
    opp = np.int64(3 - side)
    one = np.int64(1)
    below = np.int64(depth - 1)
    for k in range(roots.shape[0]):
        move = roots[k]
        place(move, side, 1, b)
        if k == 0:
            v = -search(opp, below, -beta, -alpha, one, b, board, table, buf)
        else:
            v = -search(opp, below, -alpha - 1, -alpha, one, b, board, table, buf)
            if alpha < v < beta and not state[S_ABORT]:
                v = -search(opp, below, -beta, -alpha, one, b, board, table, buf)
        place(move, side, -1, b)
        if state[S_ABORT]:
            return alpha, best, k
        values[k] = v
        if v > alpha:
            alpha = v
            best = k
            if v >= beta:
                return alpha, best, k + 1
    return alpha, best, roots.shape[0]


@njit(cache=True)
def principal_line(side: Int, first: Int, depth: Int, out: Array, b: Board, table: Table) -> int:
    """The expected line: ``first`` for ``side``, then the table's best moves, at most ``depth`` moves in
    all, into ``out``; returns how many (the board is left as it was)."""
    cells, state = b.cells, b.state
    out[0] = first
    place(first, side, 1, b)
    length = 1
    side = 3 - side
    while length < depth:
        key = b.hash[0] ^ np.uint64(side)
        slot = np.int64(key & np.uint64(state[S_MASK]))
        found, _, _, _, move = _entry(table, slot, key, state[S_GEN])
        if not found:
            break
        if move < 0 or cells[move] != EMPTY:
            break
        out[length] = move
        place(move, side, 1, b)
        length += 1
        side = 3 - side
    for k in range(length - 1, -1, -1):
        place(out[k], cells[out[k]], -1, b)
    return length


@njit(cache=True)
def vcf_line(a: Int, max_fours: Int, max_nodes: Int, out: Array, b: Board, board: Array, buf: Buffers) -> int:
    """The shortest VCF of ``a`` (to move) found with at most ``max_fours`` fours within ``max_nodes``
    nodes, as :meth:`inarow.engines.gomoku.threats.ThreatSearch.vcf` finds it, into ``out``: returns its
    length (0: none found) and counts its nodes in ``state[S_NODES]``."""
    state = b.state
    path = buf.path
    state[S_LIMIT] = 1 << 62
    state[S_ABORT] = 0
    # int64 arguments, as the recursion below passes them (see :func:`root`)
    length = vcf(np.int64(a), np.int64(max_fours), np.int64(max_nodes), np.int64(0), b, board, buf)
    if length <= 0:
        return 0
    n = 0
    row = 0
    while n < length:
        tag = path[row, PATH_TAG]
        if tag == PATH_FIVE:
            out[n] = path[row, 0]
            n += 1
            break
        if tag == PATH_DOUBLE:
            out[n] = path[row, 0]
            out[n + 1] = path[row, 1]
            out[n + 2] = path[row, 2]
            n += 3
            break
        out[n] = path[row, 0]
        out[n + 1] = path[row, 1]
        n += 2
        row += 1
    return n
