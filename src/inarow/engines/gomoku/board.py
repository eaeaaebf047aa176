"""The Gomoku engine's board: stones, line patterns and threat cells kept up to date move by move.

Layout
======
The board is a flat list with a margin of :data:`PAD` off-board cells on every side, so that the ten
cells of a window (see :mod:`inarow.engines.gomoku.patterns`) around any board cell are always in the list. A
cell ``(column c, row r)`` is index ``(r + PAD) * width + c + PAD`` with ``width = columns + 2 * PAD``; the
four line directions are the steps 1 (along a row), ``width`` (along a column) and ``width ± 1`` (the two
diagonals). Cells hold 0 (empty), 1 (X), 2 (O) or 3 (off the board).

Invariants, for every board cell ``i`` and direction ``d``: ``codes[d][i]`` is the line code of the window
of ``i`` along ``d``; for every empty board cell and side, the threat sets and ``value`` reflect the
patterns of those codes; :meth:`play` then :meth:`undo` restores every one of them exactly. The side to
move is not stored: the searches pass it along.
"""

from __future__ import annotations

import random

from inarow.engines.gomoku.patterns import B4, F3, F4, FIVE, NONE, pattern, slot_weight
from inarow.engines.gomoku.weights import CODE_STEPS, IN_USE, Tables, every_code
from inarow.rules.game import Game, Position

PAD = 5
"""Off-board cells around the board: a window reaches five cells from its centre."""

WEIGHTS = (0, 10, 0, 3, 125, 149, 366, 374, 600, 8000)
"""What making each pattern kind is worth on a cell (see :data:`inarow.engines.gomoku.patterns.NONE` … FIVE):
the search tries a quiet node's moves in the order of their worth (see :data:`ORDER_MINE`). Closed one … four
are fitted to the moves Rapfi chose in its games against itself by ``bench/gomoku_order.py`` (an open four
and a five never stand on a quiet node's cells and keep hand-set worths above the rest; the open one,
fitted a little below 0, is held at 0: a line's worth is packed unsigned)."""

DOUBLE_THREAT = 600
"""Extra worth of a cell that makes two fours, or a four and an open three: a threat that wins."""

DOUBLE_THREE = 3
"""Extra worth of a cell that makes two open threes (fitted with :data:`WEIGHTS`: its two open threes are
worth what Rapfi's choices say already)."""

ORDER_MINE, ORDER_THEIRS = 4, 3
"""The lines order: a quiet node's candidates ranked by ``ORDER_MINE`` times a cell's worth to the side to
move plus ``ORDER_THEIRS`` times its worth to the opponent (fitted with :data:`WEIGHTS`). The search reads
the order keys of its tables (:mod:`inarow.engines.gomoku.weights`): those in use are fitted by code, from
these (``bench/gomoku_order.py --write``)."""

NEAR = 2
"""Candidate moves are the empty cells within this many steps (in every direction) of a stone."""


class GomokuBoard:
    """A position of a five-in-a-row game on which the searches play and take back stones.

    ``fives[s]``, ``fours[s]``, ``wins[s]`` and ``threes[s]`` (``s`` 1 for X, 2 for O) are the empty
    cells where side ``s`` would make a five; a four (or an open four); an open four or two fours at once
    (a threat that wins unless answered by a five); an open three. ``value[s][i]`` is what cell ``i`` is
    worth to ``s`` (the order moves are tried in), and ``mover_total[s]`` and ``waiter_total[s]`` the sums
    over the board of its terms of the evaluation as the side to move's and as the waiting side's.
    """

    def __init__(self, game: Game, tables: Tables = IN_USE) -> None:
        """An empty board of ``game``, evaluated with ``tables`` (:mod:`inarow.engines.gomoku.weights`)."""
        self.game = game
        self.tables = tables
        self._derived = _DERIVED.setdefault(tables, {})
        self.exact = game.exact
        self.columns, self.rows = game.columns, game.rows
        self.width = width = game.columns + 2 * PAD
        size = width * (game.rows + 2 * PAD)
        self.steps = (1, width, width + 1, width - 1)
        self.cells = [3] * size
        self.board_cells = [self.index(c, r) for r in range(game.rows) for c in range(game.columns)]
        for i in self.board_cells:
            self.cells[i] = 0
        centre_c, centre_r = (game.columns - 1) / 2, (game.rows - 1) / 2
        self.centre = self.index(game.columns // 2, game.rows // 2)
        self.closeness = [0.0] * size
        for r in range(game.rows):
            for c in range(game.columns):
                self.closeness[self.index(c, r)] = -max(abs(c - centre_c), abs(r - centre_r))
        self.codes = [[0] * size for _ in self.steps]
        for d, step in enumerate(self.steps):
            for i in self.board_cells:
                self.codes[d][i] = sum(self.cells[i + k * step] * slot_weight(k) for k in range(-5, 6) if k)
        updates = [[(k * step, slot_weight(-k)) for k in range(-5, 6) if k] for step in self.steps]
        self.neighbours = [
            dr * width + dc for dr in range(-NEAR, NEAR + 1) for dc in range(-NEAR, NEAR + 1) if dr or dc
        ]
        self.near = [0] * size
        rng = random.Random(20261122)
        self.zobrist = [[0] * size, *([rng.getrandbits(64) for _ in range(size)] for _ in (1, 2))]
        self.hash = 0
        self.stones = 0
        self.history: list[int] = []
        self.fives: list[set[int]] = [set(), set(), set()]
        self.fours: list[set[int]] = [set(), set(), set()]
        self.wins: list[set[int]] = [set(), set(), set()]
        self.threes: list[set[int]] = [set(), set(), set()]
        self.value = [[0] * size, [0] * size, [0] * size]
        self._sets: list[tuple[set[int], ...]] = [
            (self.fives[side], self.fours[side], self.wins[side], self.threes[side]) for side in (0, 1, 2)
        ]
        self._info = _INFO[self.exact]
        self.packed = [[(0, 0)] * size for _ in self.steps]
        self._lines = list(zip(self.codes, self.packed, updates, strict=True))
        self.counts = [[0] * size, [0] * size, [0] * size]
        self.flags = [[0] * size, [0] * size, [0] * size]
        # Each empty cell's terms of the evaluation for each side, as the side to move's and as the
        # waiting side's, and their sums over the board.
        self.mover = [[0] * size, [0] * size, [0] * size]
        self.waiter = [[0] * size, [0] * size, [0] * size]
        self.mover_total = [0, 0, 0]
        self.waiter_total = [0, 0, 0]
        for d, line in enumerate(self.codes):
            for i in self.board_cells:
                contribution = self._info.get(line[i]) or _contribution(line[i], self.exact)
                self._info[line[i]] = contribution
                self.packed[d][i] = contribution
                self.counts[1][i] += contribution[0]
                self.counts[2][i] += contribution[1]
        for i in self.board_cells:
            self._refresh(i)

    @classmethod
    def from_position(cls, position: Position, tables: Tables = IN_USE) -> GomokuBoard:
        """The board of ``position`` (its stones are played X, O, X, … in board order)."""
        board = cls(position.game, tables)
        for side, stones in ((1, position.x), (2, position.o)):
            for bit in range(stones.bit_length()):
                if stones >> bit & 1:
                    board.play(board.from_bit(bit), side)
        return board

    # --------------------------------------------------------------------------------- geometry
    def index(self, column: int, row: int) -> int:
        """The list index of a board cell."""
        return (row + PAD) * self.width + column + PAD

    def from_bit(self, bit: int) -> int:
        """The list index of a cell bit of :mod:`inarow.rules.game`."""
        column, row = self.game.coordinates(bit)
        return self.index(column, row)

    def to_bit(self, i: int) -> int:
        """The cell bit of :mod:`inarow.rules.game` of a list index."""
        row, column = divmod(i, self.width)
        return self.game.bit(column - PAD, row - PAD)

    # ------------------------------------------------------------------------------------ moves
    def play(self, i: int, side: int) -> None:
        """Put a stone of ``side`` on the empty cell ``i``."""
        self._place(i, side, 1)
        self.history.append(i)

    def undo(self) -> None:
        """Take back the last stone played."""
        i = self.history.pop()
        self._place(i, self.cells[i], -1)

    def rewind(self, length: int) -> None:
        """Take back stones until ``length`` are left in :attr:`history` (after a search was aborted
        part-way down its line)."""
        while len(self.history) > length:
            self.undo()

    def _place(self, i: int, side: int, sign: int) -> None:
        cells, info, exact = self.cells, self._info, self.exact
        self.hash ^= self.zobrist[side][i]
        if sign > 0:
            cells[i] = side
            self.stones += 1
        else:
            cells[i] = 0
            self.stones -= 1
        x_counts, o_counts = self.counts[1], self.counts[2]
        x_touched, o_touched = set(), set()
        delta = sign * side
        for line, contributions, updates in self._lines:
            for offset, weight in updates:
                j = i + offset
                code = line[j] + delta * weight
                line[j] = code
                if cells[j] == 3:
                    continue
                new = info.get(code)
                if new is None:
                    new = info[code] = _contribution(code, exact)
                old = contributions[j]
                if new is not old:
                    contributions[j] = new
                    if new[0] != old[0]:
                        x_counts[j] += new[0] - old[0]
                        x_touched.add(j)
                    if new[1] != old[1]:
                        o_counts[j] += new[1] - old[1]
                        o_touched.add(j)
        near = self.near
        for offset in self.neighbours:
            near[i + offset] += sign
        if sign > 0:
            self._clear(i)
        else:
            self._refresh(i)
        for side_touched, touched_side in ((x_touched, 1), (o_touched, 2)):
            for j in side_touched:
                if cells[j] == 0:
                    self._refresh_side(j, touched_side)

    @property
    def candidates(self) -> set[int]:
        """The empty cells within :data:`NEAR` steps of a stone."""
        near, cells = self.near, self.cells
        return {j for j in self.board_cells if near[j] and not cells[j]}

    def _clear(self, i: int) -> None:
        for side in (1, 2):
            self.flags[side][i] = 0
            self.fives[side].discard(i)
            self.fours[side].discard(i)
            self.wins[side].discard(i)
            self.threes[side].discard(i)
            self.value[side][i] = 0
            self.mover_total[side] -= self.mover[side][i]
            self.mover[side][i] = 0
            self.waiter_total[side] -= self.waiter[side][i]
            self.waiter[side][i] = 0

    def _refresh(self, i: int) -> None:
        """Recompute the threat sets and worth of the empty cell ``i`` for both sides from its counts."""
        self._refresh_side(i, 1)
        self._refresh_side(i, 2)

    def _refresh_side(self, i: int, side: int) -> None:
        """Recompute the threat sets and worth of the empty cell ``i`` for ``side`` from its counts."""
        count = self.counts[side][i]
        derived = self._derived.get(count)
        if derived is None:
            derived = self._derived[count] = _derive(count, self.tables)
        worth, flags, mover, waiter = derived
        values = self.value[side]
        values[i] = worth
        terms = self.mover[side]
        if mover != terms[i]:
            self.mover_total[side] += mover - terms[i]
            terms[i] = mover
        terms = self.waiter[side]
        if waiter != terms[i]:
            self.waiter_total[side] += waiter - terms[i]
            terms[i] = waiter
        side_flags = self.flags[side]
        old = side_flags[i]
        if flags == old:
            return
        side_flags[i] = flags
        changed = flags ^ old
        for bit, cells in enumerate(self._sets[side]):
            if changed >> bit & 1:
                if flags >> bit & 1:
                    cells.add(i)
                else:
                    cells.discard(i)

    # ---------------------------------------------------------------------------------- reading
    def evaluate(self, side: int) -> int:
        """The static worth of the position for ``side``, to move: every empty cell's pattern code as the
        side to move's and as the waiting side's, and the waiting side's threats to come (see
        :mod:`inarow.engines.gomoku.weights`)."""
        waiter = 3 - side
        value = self.mover_total[side] + self.waiter_total[waiter]
        if self.wins[waiter]:
            value += self.tables.waiter_wins
        if self.fours[waiter]:
            value += self.tables.waiter_fours
        return value

    def code(self, i: int, side: int) -> int:
        """The pattern code of the empty cell ``i`` for ``side`` (see :mod:`inarow.engines.gomoku.weights`),
        as its counts keep it."""
        return self.counts[side][i] >> 32

    def order_key(self, i: int, side: int) -> int:
        """The order key of the empty cell ``i`` for ``side`` to move (see
        :mod:`inarow.engines.gomoku.weights`)."""
        return self.tables.order_mine[self.code(i, side)] + self.tables.order_theirs[self.code(i, 3 - side)]

    def is_win(self, i: int, side: int) -> bool:
        """Whether the stone just played on ``i`` by ``side`` completed a five (patterns are of empty
        cells, so this looks along the lines)."""
        for step in self.steps:
            run = 1
            for sign in (1, -1):
                j = i + sign * step
                while self.cells[j] == side:
                    run += 1
                    j += sign * step
            if run == 5 or (run > 5 and not self.exact):
                return True
        return False

    def kind(self, i: int, side: int, d: int) -> int:
        """The pattern kind ``side`` makes on empty cell ``i`` along direction ``d``."""
        if self.cells[i] != 0:
            return NONE
        return pattern(self.codes[d][i], side, self.exact)

    def __str__(self) -> str:
        rows = []
        for r in reversed(range(self.rows)):
            rows.append("".join(".xo"[self.cells[self.index(c, r)]] for c in range(self.columns)))
        return "/".join(rows)


_INFO: dict[bool, dict[int, tuple[int, int]]] = {False: {}, True: {}}
"""Each rule's line codes seen so far with their contributions (see :func:`_contribution`)."""


_DERIVED: dict[Tables, dict[int, tuple[int, int, int, int]]] = {}
"""For each evaluation's tables, each cell count seen so far (see :func:`_contribution`) with its worth,
flags and evaluation terms (see :func:`_derive`)."""


def doubles(kinds: tuple[int, ...]) -> tuple[bool, bool]:
    """Whether a cell whose lines make ``kinds`` is a double threat (two fours, or a four and an open
    three), and whether it is two open threes without one."""
    fours = sum(2 if kind == F4 else 1 if kind == B4 else 0 for kind in kinds)
    threes = sum(kind == F3 for kind in kinds)
    threat = fours >= 2 or (fours > 0 and threes > 0)
    return threat, not threat and threes >= 2


def worth(kinds: tuple[int, ...]) -> int:
    """What a cell whose lines make ``kinds`` is worth to a side (:data:`WEIGHTS` and the double-threat
    bonuses), as the board counts it."""
    threat, double_three = doubles(kinds)
    bonus = DOUBLE_THREAT if threat else DOUBLE_THREE if double_three else 0
    return sum(WEIGHTS[kind] for kind in kinds) + bonus


def lines_order() -> dict[int, tuple[int, int]]:
    """Each pattern code's keys in the lines order (:data:`ORDER_MINE`), for the side to move and for the
    opponent."""
    return {
        code: (ORDER_MINE * worth(kinds), ORDER_THEIRS * worth(kinds)) for code, kinds in every_code().items()
    }


def _derive(count: int, tables: Tables) -> tuple[int, int, int, int]:
    """A side's worth of a cell, its flags (bit 0 a five, 1 a four, 2 an open four or two fours, 3 an open
    three) and its terms of the evaluation as the side to move's and as the waiting side's, from the cell's
    count, the sum of its four lines' contributions."""
    worth, fours, threes, code = count & 0xFFFFF, count >> 20 & 15, count >> 24 & 15, count >> 32
    if fours >= 2 or (fours and threes):
        worth += DOUBLE_THREAT
    elif threes >= 2:
        worth += DOUBLE_THREE
    flags = (count >> 28 & 15 > 0) | (fours > 0) << 1 | (fours >= 2) << 2 | (threes > 0) << 3
    return worth, flags, tables.mover[code], tables.waiter[code]


def _contribution(code: int, exact: bool) -> tuple[int, int]:
    """What one line through a cell adds to the cell's counts for X and for O, each packed as worth (bits
    0-19), fours (20-23; an open four counts two), open threes (24-27), fives (28-31) and the kind's step of
    the cell's pattern code (32 on, see :data:`inarow.engines.gomoku.weights.CODE_STEPS`)."""
    packed = []
    for side in (1, 2):
        kind = pattern(code, side, exact)
        fours = 2 if kind == F4 else 1 if kind == B4 else 0
        packed.append(
            WEIGHTS[kind] | fours << 20 | (kind == F3) << 24 | (kind == FIVE) << 28 | CODE_STEPS[kind] << 32
        )
    return packed[0], packed[1]
