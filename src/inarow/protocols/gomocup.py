"""The Gomocup protocol: inarow as a ``pbrain`` engine that Gomoku managers (Piskvork, and the others that
speak the protocol) drive over standard input and output, one command a line.

Commands answered: ``START n`` and ``RECTSTART w,h`` (``OK`` or ``ERROR …``), ``RESTART`` (``OK``),
``BEGIN`` (our first move), ``TURN x,y`` (the opponent's move; we answer ours), ``BOARD`` then lines
``x,y,who`` (1 ours, 2 theirs, 3 a stone of a continuous game, taken as theirs) and ``DONE`` (we answer a
move), ``SWAP2BOARD`` then lines ``x,y`` (or ``x,y,who``, the colours still by order) and ``DONE`` (the
swap2 opening rule, :mod:`inarow.play.swap2`: with no stone we answer three, ``x1,y1 x2,y2 x3,y3``; with
the opener's three we answer ``SWAP`` to take Black, a move to take White, or two stones, a white and a
black, to leave the choice to the opener; with five we answer ``SWAP`` or White's move), ``TAKEBACK x,y``
(``OK``), ``INFO key value`` (``timeout_turn``, ``timeout_match``, ``time_left`` and ``max_memory`` in
milliseconds and bytes, ``rule``: bit 1 is exactly five, bit 4 Renju, ``thread_num``: the most threads a
move's search may use, as Rapfi reads it; 0 counts as 1), ``ABOUT`` and ``END``.
Anything else gets ``UNKNOWN …``; a move we cannot read gets ``ERROR …``.

Coordinates are ``x,y`` from 0 with ``y`` counted from the top, as managers send them; inarow's cells count
rows from the bottom. Time: a move may take the turn's timeout, and no more than the time left in the match
shared over the moves still to come, less a margin for the manager's own work; without any ``INFO`` a move
takes :data:`DEFAULT_TURN`, and ``INFO timeout_turn 0`` (the protocol's "as fast as possible") takes
:data:`FAST_TURN`. The moves are chosen by a level of :mod:`inarow.play.players` (``perfect`` unless told).

Numbers are read in ASCII digits only and at most :data:`MAX_DIGITS` of them; every line that cannot be
used (a bad number, an unknown ``who``, a move off the board) is answered ``ERROR …`` and the session goes
on, whatever came before.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

import inarow
from inarow.base.errors import InarowError, UnknownPlayerError
from inarow.base.i18n import N_
from inarow.engines.gomoku.search import prepare
from inarow.engines.limits import Limits, threads
from inarow.play import swap2
from inarow.play.players import LEVELS, Player, player
from inarow.rules.game import MAX_SIDE, Game, Position

NAME = "inarow"

SAFETY = 0.15
"""Seconds of every move's time left to the manager and to the answer's trip."""

LEAST_TIME = 0.05
"""The shortest think time a move gets, whatever the clocks say."""

DEFAULT_TURN = 2.0
"""Seconds a move may take when the manager gives no limit."""

FAST_TURN = 0.25
"""Seconds a move may take at ``INFO timeout_turn 0``: as fast as possible, yet still searched."""

MAX_DIGITS = 12
"""The most digits a number of the protocol may have (milliseconds up to about 30 years)."""

QUOTED = 40
"""The most characters of a bad line quoted back in an ``ERROR`` answer."""

MOVES_LEFT = 25
"""How many more moves of ours the match's time left is shared over."""

EXACT_FIVE = 1
"""The bit of ``INFO rule`` that asks for exactly five (the standard rule)."""

RENJU_RULE = 4
"""The bit of ``INFO rule`` that asks for Renju (:mod:`inarow.rules.renju`; we are Black when we move
first)."""

_NUMBER = f"([0-9]{{1,{MAX_DIGITS}}})"
_PAIR = re.compile(rf"\s*{_NUMBER}\s*,\s*{_NUMBER}\s*")
_TRIPLE = re.compile(rf"\s*{_NUMBER}\s*,\s*{_NUMBER}\s*,\s*{_NUMBER}\s*")


def number(text: str) -> int | None:
    """``text`` (spaces around allowed) as a whole number written in ASCII digits, at most
    :data:`MAX_DIGITS` of them; None for anything else (``²``, ``٥``, ``-1``, ``1e3``, 5,000 digits)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
        return None
    return int(text)


def quoted(text: str) -> str:
    """``text`` quoted for an ``ERROR`` answer, cut to :data:`QUOTED` characters."""
    text = text.strip()
    return repr(text if len(text) <= QUOTED else text[:QUOTED] + "…")


@dataclass
class Brain:
    """The state of one protocol session: the board size, the stones (ours and theirs, as ``(x, y)`` pairs
    of the protocol), the rule, the clocks and the level that plays. :meth:`handle` takes one line and
    returns the lines to send."""

    level: str = "perfect"
    """A level of :data:`inarow.play.players.LEVELS`."""
    seed: int = 0
    """The seed of the random choices of the levels that make them (``easy``; ties)."""
    columns: int = 0
    rows: int = 0
    ours: list[tuple[int, int]] = field(default_factory=list)
    theirs: list[tuple[int, int]] = field(default_factory=list)
    exact: bool = False
    renju: bool = False
    timeout_turn: float | None = None
    timeout_match: float | None = None
    time_left: float | None = None
    max_memory: int | None = None
    thread_num: int | None = None
    """The most threads a move's search may use (``INFO thread_num``); None: as many as it would."""
    finished: bool = False
    _board: list[str] | None = None
    _swap2: bool = False
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        assert self.level in LEVELS, f"unknown level {self.level!r}"
        self._rng = random.Random(self.seed)

    # ---------------------------------------------------------------------------------- session
    def handle(self, line: str) -> list[str]:
        """The answer to one line from the manager (no line for ``INFO`` that is read, ``END`` or a blank
        line; ``ERROR …`` for a line that cannot be used, after which the session goes on)."""
        text = line.strip()
        if self._board is not None:
            if text.upper() == "DONE":
                return self._swap2_done() if self._swap2 else self._board_done()
            if text:
                self._board.append(text)
            return []
        if not text:
            return []
        command, _, rest = text.partition(" ")
        command = command.upper()
        if command == "START":
            return self._start(rest, rest)
        if command == "RECTSTART":
            return self._start(*rest.partition(",")[::2])
        if command == "RESTART":
            self.ours, self.theirs = [], []
            return ["OK"] if self.columns else ["ERROR no board: send START first"]
        if command == "INFO":
            return self._info(rest)
        if command == "ABOUT":
            return [f'name="{NAME}", version="{inarow.__version__}", author="inarow", country="-"']
        if command == "END":
            self.finished = True
            return []
        if not self.columns:
            return ["ERROR no board: send START first"]
        if command == "BEGIN":
            return [self._reply()]
        if command == "TURN":
            cell = self._cell(rest)
            if isinstance(cell, str):
                return [cell]
            self.theirs.append(cell)
            return [self._reply()]
        if command == "TAKEBACK":
            cell = self._cell(rest, empty=False)
            if isinstance(cell, str):
                return [cell]
            for stones in (self.ours, self.theirs):
                if cell in stones:
                    stones.remove(cell)
            return ["OK"]
        if command in ("BOARD", "SWAP2BOARD"):
            self._board, self._swap2 = [], command == "SWAP2BOARD"
            return []
        return [f"UNKNOWN command {quoted(command)}"]

    def _start(self, width: str, height: str) -> list[str]:
        columns, rows = number(width), number(height)
        if columns is None or rows is None:
            return [f"ERROR unsupported board {quoted(width)}x{quoted(height)}: expected sizes in numbers"]
        if not 5 <= min(columns, rows) <= max(columns, rows) <= MAX_SIDE:
            return [
                f"ERROR unsupported size {columns}x{rows}: inarow plays boards from 5 to {MAX_SIDE} a side"
            ]
        self.columns, self.rows, self.ours, self.theirs = columns, rows, [], []
        prepare()  # the compiled search loaded now, not in the first move's time
        return ["OK"]

    def _info(self, rest: str) -> list[str]:
        """Read ``INFO key value``; a key inarow does not use is ignored (the protocol's rule), a value of
        a key it uses that is no number answers ``ERROR``."""
        key, _, value = rest.strip().partition(" ")
        key = key.lower()
        if key not in ("timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "thread_num"):
            return []
        read = number(value)
        if read is None:
            expected = f"expected a whole number of at most {MAX_DIGITS} digits 0-9"
            return [f"ERROR invalid INFO {key} {quoted(value)}: {expected}"]
        if key == "timeout_turn":
            self.timeout_turn = read / 1000
        elif key == "timeout_match":
            self.timeout_match = read / 1000
        elif key == "time_left":
            self.time_left = read / 1000
        elif key == "max_memory":
            self.max_memory = read
        elif key == "thread_num":
            self.thread_num = max(1, read)
        else:
            self.exact = bool(read & EXACT_FIVE)
            self.renju = bool(read & RENJU_RULE)
        return []

    def _cell(self, text: str, empty: bool = True) -> tuple[int, int] | str:
        match = _PAIR.fullmatch(text)
        if not match:
            return f"ERROR invalid move {quoted(text)}: expected x,y"
        cell = (int(match[1]), int(match[2]))
        if not (cell[0] < self.columns and cell[1] < self.rows):
            return f"ERROR invalid move {quoted(text)}: off the {self.columns}x{self.rows} board"
        if empty and (cell in self.ours or cell in self.theirs):
            return f"ERROR illegal move {quoted(text)}: cell is taken"
        return cell

    def _board_done(self) -> list[str]:
        lines, self._board = self._board or [], None
        ours: list[tuple[int, int]] = []
        theirs: list[tuple[int, int]] = []
        for line in lines:
            match = _TRIPLE.fullmatch(line)
            if not match or match[3] not in ("1", "2", "3"):
                return [f"ERROR invalid board line {quoted(line)}: expected x,y,who with who 1, 2 or 3"]
            cell = self._stone("board", line, match, ours + theirs)
            if isinstance(cell, str):
                return [cell]
            (ours if match[3] == "1" else theirs).append(cell)
        self.ours, self.theirs = ours, theirs
        return [self._reply()]

    def _stone(
        self, kind: str, line: str, match: re.Match[str], taken: list[tuple[int, int]]
    ) -> tuple[int, int] | str:
        """The cell of a ``BOARD`` or ``SWAP2BOARD`` line (``kind`` board or swap2) its pattern matched, or
        the ``ERROR`` answer: off the board, or a cell of ``taken``."""
        cell = (int(match[1]), int(match[2]))
        if not (cell[0] < self.columns and cell[1] < self.rows):
            return f"ERROR invalid {kind} line {quoted(line)}: off the {self.columns}x{self.rows} board"
        if cell in taken:
            return f"ERROR invalid {kind} line {quoted(line)}: cell is taken"
        return cell

    def _swap2_done(self) -> list[str]:
        """Our answer at a step of swap2 (see the module docstring); afterwards our stones are those of the
        colour we took, or Black's while the opener is still to choose."""
        lines, self._board, self._swap2 = self._board or [], None, False
        if self.renju:
            return ["ERROR swap2 is not played under Renju: send INFO rule 0 or 1"]
        cells: list[tuple[int, int]] = []
        for line in lines:
            match = _PAIR.fullmatch(line) or _TRIPLE.fullmatch(line)  # x,y,who as Rapfi reads it: who unused
            if not match:
                return [f"ERROR invalid swap2 line {quoted(line)}: expected x,y"]
            cell = self._stone("swap2", line, match, cells)
            if isinstance(cell, str):
                return [cell]
            cells.append(cell)
        if len(cells) not in (0, 3, 5):
            return [f"ERROR swap2 has 0, 3 or 5 stones at a choice: {len(cells)} were sent"]
        blacks, whites = cells[0::2], cells[1::2]
        game = self.game
        position = Position(game, self._bits(blacks), self._bits(whites))
        if position.is_over:
            return ["ERROR the game is over"]
        limits = Limits(time=max(LEAST_TIME, self.think_time() / swap2.ANALYSES))  # each analysis's share
        try:
            with threads(self.thread_num):
                if not cells:
                    opening = swap2.propose(game, self._rng.randrange(2**31), limits)
                    decision = swap2.Decision(stones=opening)
                else:
                    decision = (swap2.respond if len(cells) == 3 else swap2.choose)(position, limits)
        except InarowError as error:
            return [f"ERROR {error}"]
        if decision.swap:
            self.ours, self.theirs = blacks, whites
            return ["SWAP"]
        placed = [self._cell_of(game, move) for move in decision.stones]
        if len(placed) == 1:
            self.ours, self.theirs = [*whites, *placed], blacks
        else:  # our stones are Black's until the choice of colour says otherwise
            stones = [*cells, *placed]
            self.ours, self.theirs = stones[0::2], stones[1::2]
        return [" ".join(f"{x},{y}" for x, y in placed)]

    def _cell_of(self, game: Game, move: str) -> tuple[int, int]:
        column, row = game.coordinates(game.parse_cell(move))
        return column, self.rows - 1 - row

    def _bits(self, cells: list[tuple[int, int]]) -> int:
        return sum(1 << self.game.bit(x, self.rows - 1 - y) for x, y in cells)

    # ------------------------------------------------------------------------------------ moves
    @property
    def game(self) -> Game:
        """The game being played: the board size with five in a row; exactly five, or Renju, by
        ``INFO rule``."""
        return Game(self.columns, self.rows, 5, exact=self.exact or self.renju, renju=self.renju)

    def position(self) -> Position:
        """Our stones and theirs as a position with us to move (we are X when the counts are equal)."""
        ours, theirs = self._bits(self.ours), self._bits(self.theirs)
        if len(self.ours) == len(self.theirs):
            return Position(self.game, ours, theirs)
        return Position(self.game, theirs, ours)

    def think_time(self) -> float:
        """Seconds this move may take: the turn's limit (:data:`DEFAULT_TURN` when none was given,
        :data:`FAST_TURN` at 0), within the match's time left over the moves to come, less
        :data:`SAFETY`; at least :data:`LEAST_TIME`."""
        if self.timeout_turn is None:
            turn = DEFAULT_TURN
        elif self.timeout_turn == 0:
            turn = FAST_TURN
        else:
            turn = self.timeout_turn
        limits = [turn]
        if self.time_left is not None and self.timeout_match:
            limits.append(self.time_left / MOVES_LEFT)
        return max(LEAST_TIME, min(limits) - SAFETY)

    def player(self) -> Player:
        """The level that plays this move, with this move's think time."""
        return player(self.level, self.think_time())

    def _reply(self) -> str:
        if len(self.theirs) not in (len(self.ours), len(self.ours) + 1):
            return (
                f"ERROR impossible position: {len(self.ours)} stones of ours and {len(self.theirs)} of theirs"
            )
        try:
            position = self.position()
            if position.is_over:
                return "ERROR the game is over"
            with threads(self.thread_num):
                choice = self.player().choose(position, self._rng)
            bit = position.move_bit(choice.move)
        except InarowError as error:
            return f"ERROR {error}"
        column, row = position.game.coordinates(bit)
        cell = (column, self.rows - 1 - row)
        self.ours.append(cell)
        return f"{cell[0]},{cell[1]}"


def level_named(name: str) -> str:
    """The level called ``name`` (any case, spaces around allowed). Raises
    :class:`~inarow.base.errors.UnknownPlayerError` for another name."""
    key = name.strip().lower()
    if key not in LEVELS:
        raise UnknownPlayerError(
            N_("unknown level {level!r}: expected one of {known}"), level=name, known=", ".join(LEVELS)
        )
    return key


def serve(lines: Iterable[str] = sys.stdin, out: TextIO = sys.stdout, *, level: str = "perfect") -> None:
    """Answer the manager's lines until ``END`` or the end of input, playing ``level``."""
    brain = Brain(level=level)
    for line in lines:
        for answer in brain.handle(line):
            out.write(answer + "\n")
            out.flush()
        if brain.finished:
            break
