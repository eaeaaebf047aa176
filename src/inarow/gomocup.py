"""The Gomocup protocol: inarow as a ``pbrain`` engine that Gomoku managers (Piskvork, and the others that
speak the protocol) drive over standard input and output, one command a line.

Commands answered: ``START n`` and ``RECTSTART w,h`` (``OK`` or ``ERROR …``), ``RESTART`` (``OK``),
``BEGIN`` (our first move), ``TURN x,y`` (the opponent's move; we answer ours), ``BOARD`` then lines
``x,y,who`` (1 ours, 2 theirs, 3 a stone of a continuous game, taken as theirs) and ``DONE`` (we answer a
move), ``TAKEBACK x,y`` (``OK``), ``INFO key value`` (``timeout_turn``, ``timeout_match``, ``time_left``
and ``max_memory`` in milliseconds and bytes, ``rule``: bit 1 is exactly five, bit 4 Renju), ``ABOUT`` and ``END``.
Anything else gets ``UNKNOWN …``; a move we cannot read gets ``ERROR …``.

Coordinates are ``x,y`` from 0 with ``y`` counted from the top, as managers send them; inarow's cells count
rows from the bottom. Time: a move may take the turn's timeout, and no more than the time left in the match
shared over the moves still to come, less a margin for the manager's own work.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

from inarow.analysis import analyze
from inarow.errors import InarowError
from inarow.rules import MAX_SIDE, Game, Position
from inarow.search.gomoku import prepare
from inarow.search.limits import Limits

NAME = "inarow"

SAFETY = 0.15
"""Seconds of every move's time left to the manager and to the answer's trip."""

LEAST_TIME = 0.05
"""The shortest think time a move gets, whatever the clocks say."""

DEFAULT_TURN = 5.0
"""Seconds a move may take when the manager gives no limit."""

MOVES_LEFT = 25
"""How many more moves of ours the match's time left is shared over."""

EXACT_FIVE = 1
"""The bit of ``INFO rule`` that asks for exactly five (the standard rule)."""

RENJU_RULE = 4
"""The bit of ``INFO rule`` that asks for Renju (:mod:`inarow.renju`; we are Black when we move first)."""

_PAIR = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")
_TRIPLE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*")


@dataclass
class Brain:
    """The state of one protocol session: the board size, the stones (ours and theirs, as ``(x, y)`` pairs
    of the protocol), the rule and the clocks. :meth:`handle` takes one line and returns the lines to send.
    """

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
    finished: bool = False
    _board: list[str] | None = None

    # ---------------------------------------------------------------------------------- session
    def handle(self, line: str) -> list[str]:
        """The answer to one line from the manager (no line for ``INFO``, ``END`` or a blank line)."""
        text = line.strip()
        if self._board is not None:
            if text.upper() == "DONE":
                return self._board_done()
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
            self._info(rest)
            return []
        if command == "ABOUT":
            from inarow import __version__

            return [f'name="{NAME}", version="{__version__}", author="inarow", country="-"']
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
        if command == "BOARD":
            self._board = []
            return []
        return [f"UNKNOWN command {command!r}"]

    def _start(self, width: str, height: str) -> list[str]:
        if not (width.strip().isdigit() and height.strip().isdigit()):
            return [
                f"ERROR unsupported board {width.strip()!r}x{height.strip()!r}: expected sizes in numbers"
            ]
        columns, rows = int(width), int(height)
        if not 5 <= min(columns, rows) <= max(columns, rows) <= MAX_SIDE:
            return [
                f"ERROR unsupported size {columns}x{rows}: inarow plays boards from 5 to {MAX_SIDE} a side"
            ]
        self.columns, self.rows, self.ours, self.theirs = columns, rows, [], []
        prepare()  # the compiled search loaded now, not in the first move's time
        return ["OK"]

    def _info(self, rest: str) -> None:
        key, _, value = rest.strip().partition(" ")
        key = key.lower()
        try:
            number = int(value.strip())
        except ValueError:
            return
        if key == "timeout_turn":
            self.timeout_turn = number / 1000
        elif key == "timeout_match":
            self.timeout_match = number / 1000
        elif key == "time_left":
            self.time_left = number / 1000
        elif key == "max_memory":
            self.max_memory = number
        elif key == "rule":
            self.exact = bool(number & EXACT_FIVE)
            self.renju = bool(number & RENJU_RULE)

    def _cell(self, text: str, empty: bool = True) -> tuple[int, int] | str:
        match = _PAIR.fullmatch(text)
        if not match:
            return f"ERROR invalid move {text.strip()!r}: expected x,y"
        cell = (int(match[1]), int(match[2]))
        if not (cell[0] < self.columns and cell[1] < self.rows):
            return f"ERROR invalid move {text.strip()!r}: off the {self.columns}x{self.rows} board"
        if empty and (cell in self.ours or cell in self.theirs):
            return f"ERROR illegal move {text.strip()!r}: cell is taken"
        return cell

    def _board_done(self) -> list[str]:
        lines, self._board = self._board or [], None
        self.ours, self.theirs = [], []
        for line in lines:
            match = _TRIPLE.fullmatch(line)
            if not match:
                return [f"ERROR invalid board line {line!r}: expected x,y,who"]
            cell = self._cell(f"{match[1]},{match[2]}")
            if isinstance(cell, str):
                return [cell]
            (self.ours if match[3] == "1" else self.theirs).append(cell)
        return [self._reply()]

    # ------------------------------------------------------------------------------------ moves
    @property
    def game(self) -> Game:
        """The game being played: the board size with five in a row, exactly five or Renju by ``INFO rule``."""
        return Game(self.columns, self.rows, 5, exact=self.exact or self.renju, renju=self.renju)

    def position(self) -> Position:
        """Our stones and theirs as a position with us to move (we are X when the counts are equal)."""
        game = self.game

        def bits(cells: list[tuple[int, int]]) -> int:
            return sum(1 << game.bit(x, self.rows - 1 - y) for x, y in cells)

        ours, theirs = bits(self.ours), bits(self.theirs)
        if len(self.ours) == len(self.theirs):
            return Position(game, ours, theirs)
        return Position(game, theirs, ours)

    def think_time(self) -> float:
        """Seconds this move may take: the turn's limit, within the match's time left over the moves to
        come, less :data:`SAFETY`."""
        limits = [DEFAULT_TURN if not self.timeout_turn else self.timeout_turn]
        if self.time_left is not None and self.timeout_match:
            limits.append(self.time_left / MOVES_LEFT)
        return max(LEAST_TIME, min(limits) - SAFETY)

    def _reply(self) -> str:
        if len(self.theirs) not in (len(self.ours), len(self.ours) + 1):
            return (
                f"ERROR impossible position: {len(self.ours)} stones of ours and {len(self.theirs)} of theirs"
            )
        try:
            position = self.position()
            if position.is_over:
                return "ERROR the game is over"
            analysis = analyze(position, Limits(time=self.think_time()))
        except InarowError as error:
            return f"ERROR {error}"
        bit = position.move_bit(analysis.best[0])
        column, row = position.game.coordinates(bit)
        cell = (column, self.rows - 1 - row)
        self.ours.append(cell)
        return f"{cell[0]},{cell[1]}"


def serve(lines: Iterable[str] = sys.stdin, out: TextIO = sys.stdout) -> None:
    """Answer the manager's lines until ``END`` or the end of input."""
    brain = Brain()
    for line in lines:
        for answer in brain.handle(line):
            out.write(answer + "\n")
            out.flush()
        if brain.finished:
            break
