"""The compiled exact engine: Pascal Pons' Connect Four solver, for every board whose layout fits 64 bits.

It plays the same algorithm as the reference :class:`inarow.search.engine.Engine` (whose :meth:`solve`
contract and score scale it shares, and which the tests compare it with) on ``numpy.uint64`` bitboards in
a loop compiled by numba (``@njit(cache=True)``): any ``m × n`` board with ``columns * (rows + 1) <= 64``,
any k, with or without gravity (tic-tac-toe, 4x4, 5x5, Connect Four 7x6, 8x7).

Bit layout
==========
The layout of :mod:`inarow.rules`, column by column with a spare bit on top of every column; for Connect
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
- negamax with α-β, scores on the scale of :mod:`inarow.search.engine` (a win with the stone played when
  ``n`` stones are on a board of ``C`` cells scores ``(C + 1 - n) // 2``);
- :meth:`CompiledEngine.solve` narrows the score interval with null-window searches (iterative
  bisection, biased towards 0 as Pons does), inside the compiled code;
- only non-losing moves: a single opponent threat is blocked at once, two are a loss at once, and with
  gravity no stone goes right under an opponent threat;
- moves ordered by the number of threats they create, ties centre first (Pons' ``MoveSorter``);
- a transposition table of lower *and* upper bounds, hashed, always-replace, fresh for each engine;
- **ours**: the table keeps the move that last refuted a null window, tried first next time (the
  bisection searches the same tree several times): about 0.5 % fewer positions on Pons' sets;
- **ours**: enhanced transposition cutoffs where more than :data:`_ETC_MIN_EMPTY` cells are empty: before
  searching, each child is looked up; one whose upper bound refutes beta cuts off at once (and the cut is
  stored), and one whose lower bound shows it cannot raise alpha is not searched. About 10 to 25 % fewer
  positions on Pons' sets;
- **ours**, boards without gravity: symmetric positions share one table entry (the least image under the
  board's 4 or 8 symmetries); the stored move is kept in the frame of that image and mapped back. With
  gravity the left-right mirror was measured and dropped: no fewer positions on Pons' sets (symmetric
  positions are rare past the first moves), and about 20 % slower.

Invariants, asserted on the Python side: ``cur & opp == 0``, no stone off the board, and the negamax is
only entered when the side to move cannot win with its next stone (Pons' precondition, which the
non-losing move filter keeps true for every child).

Compilation and caching
=======================
Importing this module costs what importing numpy and numba costs (about 0.3 s); nothing is compiled
then, and :mod:`inarow` imports it only when a board needs it (see :func:`inarow.analysis.engine_for`).
The first :class:`CompiledEngine` of a process compiles the search (by calling :func:`warm_up`, which a
server or ``inarow warm-up`` may call earlier): about 8 seconds on the project's 2-core machine.
numba writes the machine code to ``__pycache__`` next to this file (``cache=True``, about 2 MB of
``.nbi``/``.nbc`` files), so every later process only loads it: about 0.15 s (:func:`cached` says which of
the two the next warm-up will do). numba recompiles by itself when this file, numba or the CPU changes;
where ``__pycache__`` is not writable (a read-only install), set ``NUMBA_CACHE_DIR``. Later engines cost a
few microseconds: they share the compiled code, the tables and each game's constant arrays, which one
:class:`_Shared` object per process owns.

Memory: the table is sized to the board (:func:`table_bits_for`: ``2 ** cells`` entries from ``2 ** 12`` up to
``2 ** 23``, so a 3×3 or 4×4 solve takes kilobytes to a megabyte and Connect Four 128 MB) and bounded by
the environment variable ``INAROW_MEMORY`` (megabytes; ``inarow --memory MB`` sets it). It is allocated
zeroed by the system, page by page as the search touches it, not filled at start.

Time limits: numba cannot read the clock, so the search runs in slices of a node budget sized from the
measured speed (at most :data:`SLICE_SECONDS` each, or the engine's ``slice_seconds``); between slices
Python checks the :class:`~inarow.search.limits.Budget` and raises
:class:`~inarow.search.limits.SearchAborted`. An aborted slice stores nothing in the table, and the next
slice resumes from what the table already holds.
"""

from __future__ import annotations

import os
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from inarow.rules import Game
from inarow.search.limits import Budget
from inarow.symmetry import CHUNK, symmetries

Int: TypeAlias = int | np.integer[Any]
"""An integer in the compiled code: a Python int from the caller, a numpy one inside."""

LAYOUT_BITS = 64
"""The widest layout (``columns * (rows + 1)`` bits) the engine plays: one ``uint64`` per side."""

TABLE_BITS = 23
"""The largest transposition table has ``2 ** TABLE_BITS`` entries (16 bytes each with gravity, 24
without); :func:`table_bits_for` sizes each game's below it."""

MIN_TABLE_BITS = 12
"""The smallest table a game gets: ``2 ** 12`` entries (64 or 96 KB)."""

MEMORY_VARIABLE = "INAROW_MEMORY"
"""The environment variable that bounds one table, in megabytes (``inarow --memory MB`` sets it)."""

SLICE_SECONDS = 0.1
"""With a deadline, the longest stretch (at the estimated speed) between two looks at the clock: the
default of :class:`CompiledEngine`'s ``slice_seconds``."""

_FIRST_RATE = 2_000_000.0
"""Nodes per second assumed before the first measurement: on the slow side, so a first slice ends early."""

_RATE_MIN_NODES = 20_000
"""Slices shorter than this say little about the speed and do not update the estimate."""

_ETC_MIN_EMPTY = 6
"""Enhanced transposition cutoffs are tried where more cells than this are empty: nearer the end, the
child probes cost more time than the nodes they save (measured on Pons' sets: 3 saves a few more nodes
but is slower, 10 saves fewer)."""

MIN_SLICE = 1_000
"""The fewest nodes a slice with a deadline explores (a few hundred microseconds)."""

_UNLIMITED = 1 << 62
"""The node limit of a slice when the budget has none."""

# ------------------------------------------------------------------------ packed table entry
# One uint64 word per entry holds the two bounds and the move; scores lie in [-32, 32] on 64 cells.
_SCORE_OFFSET = 128
"""Added to a score to store it in 8 unsigned bits."""
_LOWER_SHIFT = 0
_UPPER_SHIFT = 8
_MOVE_SHIFT = 16
"""Bits 16-23 hold the move id plus one (0: no move): a column with gravity, a cell bit without."""
_GENERATION_SHIFT = 32
"""Bits 32-63 hold the generation of the engine that wrote the entry (see :meth:`_Shared.table`)."""
_GENERATION_LIMIT = 1 << 32
_BYTE = 0xFF
_IN_USE = 1 << 63
"""Set in the second key word of an entry in use (boards without gravity: bit 63 is never a stone)."""
_HASH_MULTIPLIER = 0x9E3779B97F4A7C15
"""Fibonacci hashing: 2**64 divided by the golden ratio, odd; the top bits of key * it index the table."""
_HASH_MIX = 0xC2B2AE3D27D4EB4F
"""A second odd constant that mixes the opponent's bitboard into the key before hashing."""
_CHUNK = CHUNK
"""Bits mapped per lookup when applying a symmetry to a bitboard (tables of 256 images)."""

# ------------------------------------------------------------------------ index of _state array
_NODES = 0
_LIMIT = 1
_ABORTED = 2
_LOW = 3
_HIGH = 4
_TABLE_SHIFT = 5
"""64 minus log2 of the table size: the hash's top bits index the table."""
_GENERATION = 6
"""The engine's generation: entries written by another one are empty for it."""
_STATE = 7

# ------------------------------------------------------------------------ the geometry array
# One uint64 array holds every constant of a game that the search reads: fewer arguments make the
# recursive call cheaper (each array argument is a struct of seven words in numba).
_CELLS = 0
_HEIGHT = 1
_WIDTH = 2
_K = 3
_GRAVITY = 4
_NSYM = 5
_NCHUNKS = 6
_KEY_WORDS = 7
"""2 with gravity (one key word and the data), 3 without (two key words and the data)."""
_BOARD = 8
_BOTTOM = 9
_COLUMN0 = 10
"""Every bit of column 0, the spare bit included."""
_NDIRS = 11
_NORDER = 12
_DIRS = 16
"""Four slots: the shifts of the line directions that fit k."""
_ORDER = _DIRS + 4
"""The move masks in the order to try them: columns (gravity) or cells, centre first."""
_ORDER_ID = _ORDER + LAYOUT_BITS
"""The move id of each: its column (gravity) or its cell bit."""
_ID_MASKS = _ORDER_ID + LAYOUT_BITS
"""The mask of each move id."""
_GEOMETRY = _ID_MASKS + LAYOUT_BITS

# ------------------------------------------------------------------------ the scratch array
# Per ply, the sorted moves of the node being searched: their masks, scores and ids.
_MOVES = 0
_SCORES = 1
_IDS = 2

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_UBYTE = np.uint64(_BYTE)
_UIN_USE = np.uint64(_IN_USE)
_UHASH = np.uint64(_HASH_MULTIPLIER)
_UMIX = np.uint64(_HASH_MIX)
_UCHUNK = np.uint64(_CHUNK)


@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True, inline="always")
def _shr(x: np.uint64, n: np.uint64) -> np.uint64:
    """``x >> n`` that gives 0 for shifts of 64 or more (undefined in LLVM)."""
    return x >> n if n < np.uint64(64) else np.uint64(0)


@njit(cache=True, inline="always")
def _shl(x: np.uint64, n: np.uint64) -> np.uint64:
    """``x << n`` that gives 0 for shifts of 64 or more."""
    return x << n if n < np.uint64(64) else np.uint64(0)


@njit(cache=True, inline="always")
def _winning(s: np.uint64, empty: np.uint64, geo: np.ndarray) -> np.uint64:
    """The cells of ``empty`` where one more stone completes k in a row for ``s`` (as Game.winning_cells).

    For each direction ``d``, ``ahead_i`` marks the cells with ``i`` stones of ``s`` just after them and
    ``behind_i`` those with ``i`` just before; a cell with ``j`` behind and ``k - 1 - j`` ahead completes a
    line. Bits shifted past bit 63 are off the board anyway, and the spare bits stop wrapping.
    """
    found = np.uint64(0)
    k = geo[_K]
    for i in range(geo[_NDIRS]):
        d = geo[_DIRS + i]
        if k == 4:  # Connect Four, 4x4, 5x5: written out (Pons' compute_winning_position)
            a1 = s >> d
            a2 = a1 & (s >> (d + d))
            a3 = a2 & (s >> (d + d + d))
            b1 = s << d
            b2 = b1 & (s << (d + d))
            b3 = b2 & (s << (d + d + d))
            found |= a3 | b3 | (b1 & a2) | (b2 & a1)
        else:
            # behind_j & ahead_(k-1-j) for j = 0 .. k-1, with ahead_0 = behind_0 = every cell.
            for j in range(k):
                run = ~np.uint64(0)
                for i1 in range(1, j + 1):
                    run &= _shl(s, d * np.uint64(i1))
                for i2 in range(1, k - j):
                    run &= _shr(s, d * np.uint64(i2))
                found |= run
    return found & empty


@njit(cache=True, inline="always")
def _image(x: np.uint64, tables: np.ndarray, sym: Int, nchunks: Int) -> np.uint64:
    """Bitboard ``x`` mapped through symmetry number ``sym`` (chunk tables of 256 images)."""
    out = np.uint64(0)
    for c in range(nchunks):
        out |= tables[sym, c, (x >> (_UCHUNK * np.uint64(c))) & _UBYTE]
    return out


@njit(cache=True, inline="always")
def _key(
    cur: np.uint64, opp: np.uint64, geo: np.ndarray, tables: np.ndarray
) -> tuple[np.uint64, np.uint64, Int]:
    """The table key ``(word1, word2, symmetry)`` of a position: its least image, and which symmetry.

    With gravity a position is fixed by ``cur + filled + bottom`` (Pons' key: one bit above each column's
    stones marks its height; ``cur``'s bits lie below it), and symmetry is not used (see the module
    docstring). Without gravity the key is the pair of images, the least under the board's symmetries.
    """
    if geo[_GRAVITY]:
        return cur + (cur | opp) + geo[_BOTTOM], _UIN_USE, 0
    best1, best2, best_sym = cur, opp, 0
    nchunks = np.int64(geo[_NCHUNKS])
    for sym in range(1, np.int64(geo[_NSYM])):
        a = _image(cur, tables, sym, nchunks)
        if a > best1:
            continue
        b = _image(opp, tables, sym, nchunks)
        if a < best1 or b < best2:
            best1, best2, best_sym = a, b, sym
    return best1, best2 | _UIN_USE, best_sym


@njit(cache=True, inline="always")
def _slot(key1: np.uint64, key2: np.uint64, shift: Int) -> Int:
    """The table index of a key: Fibonacci hashing of the mixed key words."""
    return int(((key1 ^ (key2 * _UMIX)) * _UHASH) >> np.uint64(shift))


@njit(cache=True, inline="always")
def _field(data: np.uint64, shift: Int) -> Int:
    """The byte of a packed table entry at ``shift``, as an int."""
    return np.int64((data >> np.uint64(shift)) & _UBYTE)


@njit(cache=True, inline="always")
def _holds(
    tt: np.ndarray, slot: Int, key1: np.uint64, key2: np.uint64, words: Int, generation: np.uint64
) -> bool:
    """Whether table entry ``slot`` is this engine's entry for the key."""
    return bool(
        tt[slot, 0] == key1
        and (words == 2 or tt[slot, 1] == key2)
        and tt[slot, words - 1] >> np.uint64(_GENERATION_SHIFT) == generation
    )


@njit(cache=True, inline="always")
def _store(
    tt: np.ndarray,
    slot: Int,
    key1: np.uint64,
    key2: np.uint64,
    words: Int,
    generation: np.uint64,
    low: Int,
    high: Int,
    result: Int,
    cut: Int,
) -> None:
    """Record a search result: with ``cut >= 0`` (the refuting move's id, in the key's frame) ``result`` is
    a lower bound, else an upper bound. An entry of the same position keeps its other bound and move; a
    new one starts from the position's own bounds ``[low, high]``.
    """
    if _holds(tt, slot, key1, key2, words, generation):
        data = tt[slot, words - 1]
        lower = _field(data, _LOWER_SHIFT) - _SCORE_OFFSET
        upper = _field(data, _UPPER_SHIFT) - _SCORE_OFFSET
        stored = _field(data, _MOVE_SHIFT) - 1
    else:
        lower, upper, stored = low, high, -1
    if cut >= 0:
        if result > lower:
            lower = result
        stored = cut
    elif result < upper:
        upper = result
    tt[slot, 0] = key1
    if words == 3:
        tt[slot, 1] = key2
    tt[slot, words - 1] = (
        (np.uint64(lower + _SCORE_OFFSET) << np.uint64(_LOWER_SHIFT))
        | (np.uint64(upper + _SCORE_OFFSET) << np.uint64(_UPPER_SHIFT))
        | (np.uint64(stored + 1) << np.uint64(_MOVE_SHIFT))
        | (generation << np.uint64(_GENERATION_SHIFT))
    )


@njit(cache=True)
def _negamax(
    cur: np.uint64,
    opp: np.uint64,
    ply: Int,
    alpha: Int,
    beta: Int,
    geo: np.ndarray,
    tables: np.ndarray,
    perm: np.ndarray,
    tt: np.ndarray,
    buf: np.ndarray,
    state: np.ndarray,
) -> Int:
    """Pons' negamax on a null or wider window; requires that the side to move cannot win at once.

    Counts itself in ``state[_NODES]``; when that reaches ``state[_LIMIT]`` it sets ``state[_ABORTED]``
    and every caller returns at once without touching the table.
    """
    state[_NODES] += 1
    if state[_NODES] >= state[_LIMIT]:
        state[_ABORTED] = 1
        return 0
    cells = np.int64(geo[_CELLS])
    gravity = geo[_GRAVITY]
    board = geo[_BOARD]
    filled = cur | opp
    empty = board & ~filled
    possible = ((filled + geo[_BOTTOM]) & board) if gravity else empty
    threats = _winning(opp, empty, geo)
    forced = possible & threats
    if forced:
        if forced & (forced - _U1):
            return -((cells - ply) // 2)  # two cells to block: one stays open
        possible = forced
    if gravity:
        possible &= ~(threats >> _U1)  # never right under an opponent threat
    if not possible:
        return -((cells - ply) // 2)
    if ply >= cells - 2:
        return 0  # neither side can win with its next stone and only two are left
    low = -((cells - 2 - ply) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - ply) // 2

    key1, key2, sym = _key(cur, opp, geo, tables)
    words = np.int64(geo[_KEY_WORDS])
    slot = _slot(key1, key2, state[_TABLE_SHIFT])
    generation = np.uint64(state[_GENERATION])
    hit = _holds(tt, slot, key1, key2, words, generation)
    best_id: Int = -1
    if hit:
        data = tt[slot, words - 1]
        stored = _field(data, _MOVE_SHIFT) - 1
        if stored >= 0:
            best_id = stored if sym == 0 else perm[1, sym, stored]
        upper = _field(data, _UPPER_SHIFT) - _SCORE_OFFSET
        if upper < high:
            high = upper
        lower = _field(data, _LOWER_SHIFT) - _SCORE_OFFSET
        if lower > alpha:
            alpha = lower
            if alpha >= beta:
                return alpha
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    # Enhanced transposition cutoff (ours), far enough from the end for the probes to pay: a child
    # whose table upper bound already refutes beta cuts at once, and one whose lower bound shows that it
    # cannot raise alpha need not be searched.
    useless = _U0
    if ply < cells - _ETC_MIN_EMPTY:
        for i in range(np.int64(geo[_NORDER])):
            move = possible & geo[_ORDER + i]
            if not move:
                continue
            child1, child2, _ = _key(opp, cur | move, geo, tables)
            child = _slot(child1, child2, state[_TABLE_SHIFT])
            if _holds(tt, child, child1, child2, words, generation):
                data = tt[child, words - 1]
                floor = -(_field(data, _UPPER_SHIFT) - _SCORE_OFFSET)
                if floor >= beta:
                    mid = np.int64(geo[_ORDER_ID + i])
                    _store(
                        tt,
                        slot,
                        key1,
                        key2,
                        words,
                        generation,
                        low,
                        high,
                        floor,
                        mid if sym == 0 else perm[0, sym, mid],
                    )
                    return floor
                if -(_field(data, _LOWER_SHIFT) - _SCORE_OFFSET) <= alpha:
                    useless |= move

    # Moves by threats created (descending), ties in centre-first order; the table's move first.
    moves = buf[ply, _MOVES]
    scores = buf[ply, _SCORES]
    ids = buf[ply, _IDS]
    count = 0
    first: Int = -1
    for i in range(np.int64(geo[_NORDER])):
        move = possible & geo[_ORDER + i]
        if not move or move & useless:
            continue
        mid = np.int64(geo[_ORDER_ID + i])
        if mid == best_id:
            first = mid
            continue
        score: np.uint64 = _popcount(_winning(cur | move, empty & ~move, geo))  # type: ignore[call-arg]
        pos = count
        while pos > 0 and scores[pos - 1] < score:
            moves[pos] = moves[pos - 1]
            scores[pos] = scores[pos - 1]
            ids[pos] = ids[pos - 1]
            pos -= 1
        moves[pos] = move
        scores[pos] = score
        ids[pos] = mid
        count += 1
    if first >= 0:
        for pos in range(count, 0, -1):
            moves[pos] = moves[pos - 1]
            ids[pos] = ids[pos - 1]
        moves[0] = possible & geo[_ID_MASKS + first]
        ids[0] = first
        count += 1

    result = alpha
    cut: Int = -1
    for i in range(count):
        value = -_negamax(opp, cur | moves[i], ply + 1, -beta, -alpha, geo, tables, perm, tt, buf, state)
        if state[_ABORTED]:
            return 0
        if value >= beta:
            result = value
            cut = np.int64(ids[i])
            break
        if value > alpha:
            alpha = value
            result = value

    if cut >= 0:
        cut = cut if sym == 0 else perm[0, sym, cut]
    _store(tt, slot, key1, key2, words, generation, low, high, result, cut)
    return result


@njit(cache=True)
def _bisect(
    cur: np.uint64,
    opp: np.uint64,
    ply: Int,
    geo: np.ndarray,
    tables: np.ndarray,
    perm: np.ndarray,
    tt: np.ndarray,
    buf: np.ndarray,
    state: np.ndarray,
) -> None:
    """Pons' iterative null-window bisection of the interval ``[state[_LOW], state[_HIGH]]``.

    Narrows the interval in ``state`` until it is one score, or until the node limit aborts a search
    (the interval then holds what was proven, and a later call resumes). One call per slice keeps the
    Python-to-numba crossings (several microseconds each) out of the bisection steps.
    """
    state[_NODES] = 0
    state[_ABORTED] = 0
    filled = cur | opp
    possible = ((filled + geo[_BOTTOM]) & geo[_BOARD]) if geo[_GRAVITY] else geo[_BOARD] & ~filled
    if _winning(cur, possible, geo):
        # A win with the next stone: the top of the interval (1 when weak), one position explored.
        state[_LOW] = state[_HIGH]
        state[_NODES] = 1
        state[_ABORTED] = 1 if state[_LIMIT] <= 1 else 0
        return
    low, high = state[_LOW], state[_HIGH]
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and low // 2 < middle:
            middle = low // 2
        elif middle >= 0 and high // 2 > middle:
            middle = high // 2
        value = _negamax(cur, opp, ply, middle, middle + 1, geo, tables, perm, tt, buf, state)
        if state[_ABORTED]:
            break
        if value <= middle:
            high = value
        else:
            low = value
        state[_LOW], state[_HIGH] = low, high


def supports(game: Game) -> bool:
    """Whether the compiled engine plays ``game``: its padded layout fits one 64-bit word."""
    return game.columns * game.height <= LAYOUT_BITS


class _Geometry:
    """The constant arrays of one game that the compiled search reads (built once per game)."""

    def __init__(self, game: Game) -> None:
        assert supports(game), f"{game.name} needs {game.columns * game.height} bits, more than {LAYOUT_BITS}"
        width, height, gravity = game.columns, game.height, game.gravity
        group = symmetries(game)
        nsym = 1 if gravity else len(group)
        nbits = width * height
        nchunks = (nbits + _CHUNK - 1) // _CHUNK
        if gravity:
            # Pons' column order: the centre, then alternately left and right of it.
            ids = [width // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(width)]
            id_masks = list(game.column_masks)
        else:
            ids = list(game.cell_order)
            id_masks = [1 << b for b in range(nbits)]
        geo = [0] * _GEOMETRY
        geo[_CELLS], geo[_HEIGHT], geo[_WIDTH], geo[_K] = game.cells, height, width, game.k
        geo[_GRAVITY], geo[_NSYM], geo[_NCHUNKS] = int(gravity), nsym, nchunks
        geo[_KEY_WORDS] = 2 if gravity else 3
        geo[_BOARD], geo[_BOTTOM], geo[_COLUMN0] = game.board_mask, game.bottom_mask, (1 << height) - 1
        geo[_NDIRS], geo[_NORDER] = len(game.directions), len(ids)
        geo[_DIRS : _DIRS + len(game.directions)] = game.directions
        geo[_ORDER : _ORDER + len(ids)] = [id_masks[i] for i in ids]
        geo[_ORDER_ID : _ORDER_ID + len(ids)] = ids
        geo[_ID_MASKS : _ID_MASKS + len(id_masks)] = id_masks
        self.geo = np.array(geo, dtype=np.uint64)
        # perm[0, s] maps a move id to its image under symmetry s, perm[1, s] back.
        self.perm = np.zeros((2, nsym, LAYOUT_BITS), dtype=np.int64)
        self.tables = np.zeros((nsym, nchunks, 1 << _CHUNK), dtype=np.uint64)
        for s in range(nsym):
            mapping = group.permutations[s]
            for bit, image in mapping.items():
                self.perm[0, s, bit] = image
                self.perm[1, s, image] = bit
            self.tables[s] = np.array(group.chunk_tables[s], dtype=np.uint64)


class _Shared:
    """What the engines of one process share, owned in one place.

    - whether the search is compiled yet (:func:`warm_up`);
    - one transposition table per shape and the generation counter that makes each engine's view of it
      fresh (see :meth:`table`);
    - the constant arrays of each game played (see :class:`_Geometry`);
    - the measured speed in nodes per second, which sizes the slices of a search with a deadline.

    Lifecycle: one instance per process, made empty by the first call of :func:`_shared` (nothing is
    allocated before an engine asks for it) and kept until the process ends. A worker process forked
    from a parent starts with a copy of the parent's. Engines in several threads may share it: the
    compiled search holds the GIL, and a lock makes each engine's generation its own.
    """

    def __init__(self) -> None:
        self.warm = False
        self.tables: dict[tuple[int, int], np.ndarray] = {}
        self.generation = 0
        self.geometries: dict[Game, _Geometry] = {}
        self.rate = _FIRST_RATE
        self.lock = threading.Lock()

    def geometry(self, game: Game) -> _Geometry:
        """The constant arrays of ``game``, built on its first use."""
        found = self.geometries.get(game)
        if found is None:
            found = self.geometries[game] = _Geometry(game)
        return found

    def table(self, words: int, bits: int) -> tuple[np.ndarray, int]:
        """The process's table of ``2 ** bits`` entries of ``words`` words, and a new generation number.

        Clearing a table of 128 MB would cost milliseconds per engine, far more than most solves. So
        engines share one table per shape, and each new engine gets a new generation: an entry whose
        stored generation differs is empty for it, which makes its table fresh at no cost. Engines alive
        together only evict each other's entries (the search holds the GIL, so they never run at the same
        time). After 2**32 generations the tables are cleared once.
        """
        with self.lock:
            table = self.tables.get((words, bits))
            if table is None:
                # Zeroed by the system page by page as the search touches it: nothing to fill at start,
                # and a small search keeps a small resident set.
                table = self.tables[words, bits] = np.zeros((1 << bits, words), dtype=np.uint64)
            self.generation += 1
            if self.generation >= _GENERATION_LIMIT:
                for each in self.tables.values():
                    each.fill(0)
                self.generation = 1
            generation = self.generation
        return table, generation


@cache
def _shared() -> _Shared:
    """The process's :class:`_Shared` state, made on first use."""
    return _Shared()


def memory_limit() -> int | None:
    """The most bytes one table may take, from :data:`MEMORY_VARIABLE` (megabytes), or None.

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
        entry = (2 if game.gravity else 3) * 8
        bits = max(1, min(bits, (limit // entry).bit_length() - 1))
    return bits


def table_bytes(game: Game) -> int:
    """What ``game``'s table takes in memory (the most; pages never touched cost nothing)."""
    return (1 << table_bits_for(game)) * (2 if game.gravity else 3) * 8


class CompiledEngine:
    """Exact solving of one game with one transposition table (kept across :meth:`solve` calls).

    ``table_bits``: the table has ``2 ** table_bits`` entries (default: :func:`table_bits_for` of the
    game), shared with the process's other engines
    of the same shape (see :meth:`_Shared.table`). ``slice_seconds``: with a deadline, the longest
    stretch (at the estimated speed) between two looks at the clock; a search explores at least
    :data:`MIN_SLICE` positions per slice whatever it is.

    Not thread-safe: one engine per search. Raises AssertionError for a game :func:`supports` rejects.
    The first engine of a process compiles the search, or loads it from numba's cache (see
    :func:`warm_up`); later ones cost microseconds.
    """

    def __init__(
        self,
        game: Game,
        budget: Budget,
        *,
        table_bits: int | None = None,
        slice_seconds: float = SLICE_SECONDS,
    ) -> None:
        if table_bits is None:
            table_bits = table_bits_for(game)
        assert 1 <= table_bits <= 32, f"a table of 2 ** {table_bits} entries"
        assert slice_seconds > 0, f"slices of {slice_seconds} seconds"
        self.game = game
        self.budget = budget
        self.slice_seconds = slice_seconds
        self._shared = shared = _shared()
        self._geo = shared.geometry(game)
        self._tt, generation = shared.table(2 if game.gravity else 3, table_bits)
        width = game.columns if game.gravity else game.cells
        self._buf = np.zeros((game.cells + 1, 3, width + 1), dtype=np.uint64)
        self._state = np.zeros(_STATE, dtype=np.int64)
        self._state[_TABLE_SHIFT] = 64 - table_bits
        self._state[_GENERATION] = generation
        warm_up()

    def solve(self, cur: int, opp: int, weak: bool = False) -> int:
        """The exact score of the position for the side to move (``cur``), or with ``weak`` only its sign.

        Same contract as :meth:`inarow.search.engine.Engine.solve`: the position must not be over; the
        explored positions are added to ``budget.nodes``; raises :class:`SearchAborted` when the budget
        runs out.
        """
        game, state = self.game, self._state
        filled = cur | opp
        assert cur & opp == 0 and filled & ~game.board_mask == 0, "stones overlap or lie off the board"
        ply = filled.bit_count()
        if weak:
            state[_LOW], state[_HIGH] = -1, 1
        else:
            state[_LOW], state[_HIGH] = -((game.cells - ply) // 2), (game.cells + 1 - ply) // 2
        self._run(np.uint64(cur), np.uint64(opp), ply)
        low = int(state[_LOW])
        if weak:
            return (low > 0) - (low < 0)
        return low

    def _slice_limit(self) -> int:
        """How many nodes the next slice may explore before Python looks at the budget again."""
        budget, limit = self.budget, _UNLIMITED
        if budget.max_nodes is None and budget.deadline is None:
            return limit
        if budget.max_nodes is not None:
            limit = min(limit, budget.max_nodes - budget.nodes)
        if budget.deadline is not None:
            seconds = min(self.slice_seconds, budget.deadline - time.perf_counter())
            limit = min(limit, max(MIN_SLICE, int(self._shared.rate * seconds)))
        return max(1, limit)

    def _run(self, cur: np.uint64, opp: np.uint64, ply: int) -> None:
        """The bisection in slices, resuming from the table and the interval after each look at the budget."""
        geo, state, budget = self._geo, self._state, self.budget
        while True:
            state[_LIMIT] = self._slice_limit()
            start = time.perf_counter()
            _bisect(cur, opp, ply, geo.geo, geo.tables, geo.perm, self._tt, self._buf, state)
            nodes = int(state[_NODES])
            budget.nodes += nodes
            if not state[_ABORTED]:
                return
            seconds = time.perf_counter() - start
            if nodes >= _RATE_MIN_NODES and seconds > 0:
                self._shared.rate = nodes / seconds
            budget.check()


_WARM_UP_TABLE_BITS = 4
"""The warm-up engine's table: 16 entries of its own shape, so warming up allocates no big table."""


def warm_up() -> float:
    """Compile the search (or load it from numba's cache) now rather than in the first real search, and
    return the seconds it took (0 once done in this process).

    Solves a tiny 3×3 position (a few hundred positions) with a 16-entry table. Only the first call of a
    process does anything; the constructor of :class:`CompiledEngine` calls it, so calling it by hand only
    moves the cost earlier (a server, say, before its first request).
    """
    shared = _shared()
    if shared.warm:
        return 0.0
    start = time.perf_counter()
    shared.warm = True  # first: the warm-up engine's constructor calls this function again
    engine = CompiledEngine(Game(3, 3, 3), Budget(), table_bits=_WARM_UP_TABLE_BITS)
    engine.solve(0b1, 0b10000)  # x on a1, o on b1
    return time.perf_counter() - start


def is_warm() -> bool:
    """Whether this process has compiled or loaded the search already."""
    return _shared().warm


def cache_folder() -> Path:
    """Where numba keeps the machine code of this module: ``NUMBA_CACHE_DIR``, else ``__pycache__``."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) if folder else Path(__file__).parent / "__pycache__"


def cached() -> bool:
    """Whether numba's cache seems to hold the search already, so a warm-up loads it (a fraction of a
    second) rather than compiles it (seconds). A guess from the files present: numba may still recompile
    when this file, numba or the CPU has changed."""
    folder = cache_folder()
    if not folder.is_dir():
        return False
    source = Path(__file__).stat().st_mtime
    return any(index.stat().st_mtime >= source for index in folder.rglob("compiled._bisect-*.nbi"))


__all__ = [
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
