"""What the game is: m×n boards with k in a row, with or without gravity, and immutable positions.

Bit layout
==========
A board of ``columns × rows`` cells is stored column by column with one spare bit on top of every
column, as in Pascal Pons' Connect Four solver. For a 4-column, 3-row board::

    .  .  .  .      3  7 11 15    <- spare row: always 0, it stops lines wrapping from one column
    a3 b3 c3 d3     2  6 10 14       into the next
    a2 b2 c2 d2     1  5  9 13
    a1 b1 c1 d1     0  4  8 12

Cell ``(column c, row r)``, both from 0, is bit ``c * (rows + 1) + r``. The four line directions are the
shifts 1 (up), ``rows + 1`` (right), ``rows + 2`` (up-right) and ``rows`` (down-right); a run of k set
bits in a direction is a line, and a run through a spare bit can never be all set. Python integers have
no width, so the same code serves 3×3 and 19×19.

Invariants of a :class:`Position`: ``x & o == 0``; no bit outside :attr:`Game.board_mask`; the side that
moves first (:attr:`Game.first`, X unless the game says O) has as many stones as the other or one more.

Renju (``renju``, :attr:`Game.renju`) is Gomoku in which the side that moves first — Black — wins only with
exactly five and may not play a forbidden point (:mod:`inarow.rules.renju`), while White wins with five or
more: the forbidden points are not among a position's legal moves, and playing one raises
:class:`IllegalMoveError` with the reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal, NoReturn

from inarow.base.errors import GameName, IllegalMoveError, InvalidGameError, InvalidMoveError, Items, Term
from inarow.base.i18n import N_
from inarow.rules.renju import Forbidden, forbidden_points

Side = Literal["x", "o"]
Result = Literal["x", "o", "draw"]

MAX_SIDE = 19
"""The largest number of columns or rows a board may have."""

PRESETS: dict[str, tuple[int, int, int, bool]] = {
    "tictactoe": (3, 3, 3, False),
    "4x4": (4, 4, 4, False),
    "5x5": (5, 5, 4, False),
    "connect4": (7, 6, 4, True),
    "gomoku": (15, 15, 5, False),
}
O_FIRST = ":o-first"
"""The suffix of a game's name in which O moves first: ``tictactoe:o-first``, ``7x6:4:gravity:o-first``."""

KEYPAD: dict[str, tuple[int, int]] = {
    "7": (0, 2), "8": (1, 2), "9": (2, 2),
    "4": (0, 1), "5": (1, 1), "6": (2, 1),
    "1": (0, 0), "2": (1, 0), "3": (2, 0),
}  # fmt: skip
"""On 3×3, the digit keys as (column, row) laid out as on the numeric keypad: 7 8 9 on top, 1 2 3 below."""

_CELL_NAME = re.compile(r"([a-z])([0-9]{1,2})")
_ROW_COLUMN = re.compile(r"\(\s*([0-9]{1,2})\s*,\s*([0-9]{1,2})\s*\)|([0-9]{1,2}),([0-9]{1,2})")
EXACT_PRESETS: dict[str, tuple[int, int, int, bool]] = {
    "gomoku-standard": (15, 15, 5, False),
}
"""Presets played by the standard rule: exactly k in a row wins, a longer line (an overline) does not."""
RENJU = "renju"
"""The preset of Renju: 15×15, Black's forbidden points, exactly five for Black, five or more for White."""
_CUSTOM = re.compile(r"([0-9]+)x([0-9]+)(?::([0-9]+))?(:gravity)?(:exact)?(:renju)?")
FORBIDDEN_REASONS: dict[Forbidden, str] = {
    "overline": N_("a forbidden point for black: an overline"),
    "double-four": N_("a forbidden point for black: a double four"),
    "double-three": N_("a forbidden point for black: a double three"),
}
"""Why Black may not play a point of Renju, as the reason of the :class:`IllegalMoveError`."""
COLUMN_LETTERS = "abcdefghijklmnopqrs"
"""The letters that name columns from the left, one per column up to :data:`MAX_SIDE`."""


def as_typed(text: str) -> str:
    """``text`` as a Chinese (or Japanese) input method types it, read as ASCII: NFKC-normalised, so
    full-width digits, letters, commas, brackets and spaces (``（２，２）``) become ``(2,2)``, and the
    ideographic comma ``、`` separates like ``,``.

    Raises :class:`InvalidMoveError` for a digit that is neither ``0-9`` nor full-width ``０-９``
    (Arabic-Indic ``٥``, superscript ``²``): read as a number it would be a guess.
    """
    for char in text:
        if char.isdigit() and not ("0" <= char <= "9" or "０" <= char <= "９"):
            raise InvalidMoveError(
                N_("invalid digit {digit!r} in {text!r}: write numbers with the digits 0-9"),
                digit=char,
                text=text,
            )
    return unicodedata.normalize("NFKC", text).replace("、", ",")


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return "o" if side == "x" else "x"


@dataclass(frozen=True)
class Game:
    """A member of the k-in-a-row family: ``columns × rows`` cells, ``k`` in a row wins, ``first`` moves
    first (X unless the game is named with ``:o-first``, as some course programs let O begin).

    With ``gravity`` a stone falls to the lowest empty cell of its column (Connect Four). More than k in a
    row wins too (freestyle), unless ``exact``: then only a line of exactly k wins (Gomoku's standard rule,
    where an overline of six or more does not). With ``renju`` (five in a row without gravity, and
    ``exact``) the side that moves first is Black: it wins with exactly five and has forbidden points
    (:mod:`inarow.rules.renju`), the other side wins with five or more (:meth:`exact_for`). Build one with
    :meth:`parse` to get the checks; the constructor trusts you.
    """

    columns: int
    rows: int
    k: int
    gravity: bool = False
    exact: bool = False
    first: Side = "x"
    renju: bool = False

    @classmethod
    def parse(cls, text: str) -> Game:
        """Read a preset name (``tictactoe``, ``4x4``, ``5x5``, ``connect4``, ``gomoku``,
        ``gomoku-standard``, ``renju``) or ``COLSxROWS:K`` with an optional ``:gravity``, an optional
        ``:exact`` (exactly k in a row wins) and an optional ``:renju`` (Renju's rules: k = 5, no gravity);
        ``COLSxROWS`` alone means k = min(cols, rows). Either may end with ``:o-first`` for a game in which
        O moves first.

        Raises :class:`InvalidGameError` naming what is wrong.
        """
        name = text.strip().lower()
        if name.endswith(O_FIRST):
            return replace(cls.parse(name.removesuffix(O_FIRST)), first="o")
        if name in PRESETS:
            return cls(*PRESETS[name])
        if name in EXACT_PRESETS:
            return cls(*EXACT_PRESETS[name], exact=True)
        if name == RENJU:
            return cls(15, 15, 5, exact=True, renju=True)
        match = _CUSTOM.fullmatch(name)
        if not match:
            presets = Items([*PRESETS, *EXACT_PRESETS, RENJU])
            raise InvalidGameError(
                N_(
                    "unknown game {text!r}: expected one of {presets} or "
                    "COLSxROWS:K[:gravity][:exact][:renju], e.g. '6x4:4:gravity'"
                ),
                text=text,
                presets=presets,
            )
        columns, rows = int(match[1]), int(match[2])
        k = int(match[3]) if match[3] else min(columns, rows)
        for what, size in ((Term(N_("columns")), columns), (Term(N_("rows")), rows)):
            if not 1 <= size <= MAX_SIDE:
                raise InvalidGameError(
                    N_("game {text!r} has {size} {what}: boards go from 1 to {limit}"),
                    text=text,
                    size=size,
                    what=what,
                    limit=MAX_SIDE,
                )
        if max(columns, rows) < 2:
            raise InvalidGameError(
                N_(
                    "game {text!r} is too small: a board needs at least 2 cells in a row, so that a "
                    "line of 2 can be made"
                ),
                text=text,
            )
        if not 2 <= k <= max(columns, rows):
            raise InvalidGameError(
                N_(
                    "game {text!r} asks for {k} in a row: k must be from 2 to {longest} on a "
                    "{columns}x{rows} board"
                ),
                text=text,
                k=k,
                longest=max(columns, rows),
                columns=columns,
                rows=rows,
            )
        if match[6] and (k != 5 or match[4]):
            raise InvalidGameError(
                N_("game {text!r}: renju is five in a row without gravity"),
                text=text,
            )
        return cls(
            columns, rows, k, gravity=bool(match[4]), exact=bool(match[5] or match[6]), renju=bool(match[6])
        )

    @property
    def name(self) -> str:
        """The preset name, or ``COLSxROWS:K[:gravity][:exact]``, then ``:o-first`` when O moves first;
        :meth:`parse` reads it back."""
        first = O_FIRST if self.first == "o" else ""
        if self.renju:
            return (
                RENJU if (self.columns, self.rows) == (15, 15) else f"{self.columns}x{self.rows}:5:renju"
            ) + first
        spec = (self.columns, self.rows, self.k, self.gravity)
        for preset, preset_spec in (EXACT_PRESETS if self.exact else PRESETS).items():
            if preset_spec == spec:
                return preset + first
        suffix = (":gravity" if self.gravity else "") + (":exact" if self.exact else "")
        return f"{self.columns}x{self.rows}:{self.k}{suffix}{first}"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[type[Game], tuple[int, int, int, bool, bool, Side, bool]]:
        # Pickled as its fields: the cached tables (one holds generated code) are rebuilt on demand.
        return (Game, (self.columns, self.rows, self.k, self.gravity, self.exact, self.first, self.renju))

    @property
    def second(self) -> Side:
        """The side that moves second."""
        return other(self.first)

    @property
    def black_and_white(self) -> bool:
        """Whether players name the sides black (the side that moves first) and white: the Gomoku family,
        five in a row without gravity (Gomoku, its standard rule, Renju). ``x`` and ``o`` stay the sides'
        names in the JSON and the diagrams."""
        return self.k == 5 and not self.gravity

    def exact_for(self, side: Side) -> bool:
        """Whether ``side`` wins only with exactly k in a row: with :attr:`exact`, except White in Renju."""
        return self.exact and not (self.renju and side != self.first)

    # ----------------------------------------------------------------------------------- geometry
    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.columns * self.rows

    @property
    def height(self) -> int:
        """Bits per column in the layout: the rows and the spare bit."""
        return self.rows + 1

    def bit(self, column: int, row: int) -> int:
        """The bit index of the cell in ``column`` and ``row``, both counted from 0."""
        return column * (self.rows + 1) + row

    def coordinates(self, bit: int) -> tuple[int, int]:
        """The ``(column, row)`` of a bit index."""
        return divmod(bit, self.rows + 1)

    @cached_property
    def board_mask(self) -> int:
        """Every cell of the board set."""
        column = (1 << self.rows) - 1
        return sum(column << (c * self.height) for c in range(self.columns))

    @cached_property
    def bottom_mask(self) -> int:
        """The bottom cell of every column set."""
        return sum(1 << (c * self.height) for c in range(self.columns))

    @cached_property
    def column_masks(self) -> tuple[int, ...]:
        """For each column, its cells set."""
        column = (1 << self.rows) - 1
        return tuple(column << (c * self.height) for c in range(self.columns))

    @cached_property
    def directions(self) -> tuple[int, ...]:
        """The bit shifts of the four line directions that fit k in a row on this board."""
        dirs = []
        if self.k <= self.rows:
            dirs.append(1)
        if self.k <= self.columns:
            dirs.append(self.height)
        if self.k <= self.rows and self.k <= self.columns:
            dirs += [self.height + 1, self.height - 1]
        return tuple(dirs)

    @cached_property
    def lines(self) -> tuple[int, ...]:
        """Every line of k cells as a mask, each once."""
        found = []
        for c in range(self.columns):
            for r in range(self.rows):
                for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    ec, er = c + dc * (self.k - 1), r + dr * (self.k - 1)
                    if 0 <= ec < self.columns and 0 <= er < self.rows:
                        found.append(sum(1 << self.bit(c + dc * i, r + dr * i) for i in range(self.k)))
        return tuple(found)

    @cached_property
    def lines_through(self) -> dict[int, tuple[int, ...]]:
        """For each cell bit, the lines that contain it."""
        return {
            bit: tuple(line for line in self.lines if line >> bit & 1)
            for bit in range(self.columns * self.height)
            if self.board_mask >> bit & 1
        }

    @cached_property
    def cell_order(self) -> tuple[int, ...]:
        """Cell bits from the centre outwards: a good first guess for the order to try moves in."""
        cc, rc = (self.columns - 1) / 2, (self.rows - 1) / 2
        bits = [self.bit(c, r) for c in range(self.columns) for r in range(self.rows)]
        return tuple(
            sorted(
                bits, key=lambda b: (abs(self.coordinates(b)[0] - cc) + abs(self.coordinates(b)[1] - rc), b)
            )
        )

    def has_line(self, stones: int, exact: bool | None = None) -> bool:
        """Whether ``stones`` hold k in a row (exactly k with ``exact``, by default :attr:`exact`)."""
        if self.exact if exact is None else exact:
            return self._has_exact_line(stones)
        for d in self.directions:
            run = stones
            for i in range(1, self.k):
                run &= stones >> (d * i)
                if not run:
                    break
            else:
                return True
        return False

    def _has_exact_line(self, stones: int) -> bool:
        # A run of exactly k: k in a row starting at a stone with no stone of the same side just before it
        # and none just after the k-th.
        for d in self.directions:
            run = stones
            for i in range(1, self.k):
                run &= stones >> (d * i)
            if run & ~(stones << d) & ~(stones >> (d * self.k)):
                return True
        return False

    def winning_cells(self, stones: int, empty: int, exact: bool | None = None) -> int:
        """The cells of ``empty`` where one more stone would give ``stones`` k in a row (exactly k with
        ``exact``, by default :attr:`exact`)."""
        found = self._winning_cells(stones, empty)
        if self.exact if exact is None else exact:
            for bit in range(found.bit_length()):
                if found >> bit & 1 and not self._has_exact_line(stones | 1 << bit):
                    found &= ~(1 << bit)
        return found

    @cached_property
    def _winning_cells(self) -> Callable[[int, int], int]:
        # The hottest function of the search, so it is written out for this board's k and directions:
        # for each direction d, ahead_i marks the cells with i own stones just after them, behind_i those
        # with i just before them; a cell with j behind and k-1-j ahead completes a line.
        k, body = self.k, ["def winning_cells(s, empty):", "    found = 0"]
        for d in self.directions:
            for i in range(1, k):
                prev_a, prev_b = (f"ahead{i - 1} & " if i > 1 else ""), (f"behind{i - 1} & " if i > 1 else "")
                body.append(f"    ahead{i} = {prev_a}(s >> {d * i})")
                body.append(f"    behind{i} = {prev_b}(s << {d * i})")
            terms = [f"ahead{k - 1}", f"behind{k - 1}"]
            terms += [f"(behind{j} & ahead{k - 1 - j})" for j in range(1, k - 1)]
            body.append("    found |= " + " | ".join(terms))
        body.append("    return found & empty")
        namespace: dict[str, Callable[[int, int], int]] = {}
        exec("\n".join(body), namespace)
        return namespace["winning_cells"]

    # -------------------------------------------------------------------------------- cell names
    def cell_name(self, bit: int) -> str:
        """``a1`` for the bottom-left cell; in gravity games a move is named by its column, ``1`` … ``7``."""
        column, row = self.coordinates(bit)
        return str(column + 1) if self.gravity else f"{COLUMN_LETTERS[column]}{row + 1}"

    def square_name(self, bit: int) -> str:
        """The cell's letter-and-row name, ``d1``, in every game (gravity games name moves by column)."""
        column, row = self.coordinates(bit)
        return f"{COLUMN_LETTERS[column]}{row + 1}"

    def column_label(self, column: int) -> str:
        """How a column is labelled on a drawn board: its letter, or its number in gravity games."""
        return str(column + 1) if self.gravity else COLUMN_LETTERS[column]

    @property
    def keypad(self) -> bool:
        """Whether the digits 1–9 name the cells as on a numeric keypad: 3×3 without gravity."""
        return (self.columns, self.rows, self.gravity) == (3, 3, False)

    def parse_cell(self, text: str) -> int:
        """The bit of a cell written as course material writes it (any game; ignores gravity):

        - its name, column letter and row from the bottom: ``b2``;
        - ``row,column`` counted from 1 at the top left, with or without brackets: ``1,1`` or ``(1, 1)`` is
          ``a3`` on 3×3;
        - on 3×3, a digit as on the numeric keypad: ``7 8 9`` on top, ``1 2 3`` at the bottom, ``5`` = ``b2``.

        Raises :class:`InvalidMoveError` naming what is expected.
        """
        token = as_typed(text).strip().lower()
        if self.keypad and token in KEYPAD:
            return self.bit(*KEYPAD[token])
        match = _CELL_NAME.fullmatch(token)
        if match:
            column, row = COLUMN_LETTERS.find(match[1]), int(match[2]) - 1
            if 0 <= column < self.columns and 0 <= row < self.rows:
                return self.bit(column, row)
        match = _ROW_COLUMN.fullmatch(token)
        if match:
            row, column = int(match[1] or match[3]), int(match[2] or match[4])
            if 1 <= row <= self.rows and 1 <= column <= self.columns:
                return self.bit(column - 1, self.rows - row)
        last = f"{COLUMN_LETTERS[self.columns - 1]}{self.rows}"
        raise InvalidMoveError(
            N_(
                "invalid cell {text!r}: expected a cell name from a1 to {last}, a key 1-9 as on the numeric "
                "keypad, or row,column from 1,1 at the top left to {rows},{columns} on {name}"
            )
            if self.keypad
            else N_(
                "invalid cell {text!r}: expected a cell name from a1 to {last} or row,column from 1,1 at the "
                "top left to {rows},{columns} on {name}"
            ),
            text=text,
            last=last,
            rows=self.rows,
            columns=self.columns,
            name=GameName(self.name),
        )

    def parse_column(self, text: str) -> int:
        """The 0-based column of a 1-based column number such as ``4``. Raises InvalidMoveError."""
        token = as_typed(text).strip()
        if token.isascii() and token.isdigit() and 1 <= int(token) <= self.columns:
            return int(token) - 1
        raise InvalidMoveError(
            N_("invalid move {text!r}: expected a column number from 1 to {columns} on {name}"),
            text=text,
            columns=self.columns,
            name=GameName(self.name),
        )


@dataclass(frozen=True)
class Position:
    """A board with the side to move, immutable and hashable; :meth:`play` returns a new one.

    ``x`` and ``o`` are the bitboards of the two sides (see the module docstring for the layout). The side
    to move follows from the stone counts. Build positions with :meth:`start`, :meth:`play` or
    :func:`inarow.rules.notation.parse_position`; the constructor checks only the invariants of the layout.
    """

    game: Game
    x: int = 0
    o: int = 0
    _winner: Side | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mask = self.game.board_mask
        assert self.x & self.o == 0 and (self.x | self.o) & ~mask == 0, "stones overlap or lie off the board"
        winner: Side | None = None
        if self.game.has_line(self.x, self.game.exact_for("x")):
            winner = "x"
        elif self.game.has_line(self.o, self.game.exact_for("o")):
            winner = "o"
        object.__setattr__(self, "_winner", winner)

    @classmethod
    def start(cls, game: Game) -> Position:
        """The empty board of ``game``."""
        return cls(game)

    def __reduce__(self) -> tuple[type[Position], tuple[Game, int, int]]:
        return (Position, (self.game, self.x, self.o))

    def __repr__(self) -> str:
        """Round-trips: ``inarow.parse_position('x.o/.x./..o', 'tictactoe')``."""
        return f"parse_position({self.diagram()!r}, {self.game.name!r})"

    # ---------------------------------------------------------------------------------- state
    @property
    def filled(self) -> int:
        """Every occupied cell."""
        return self.x | self.o

    @property
    def ply(self) -> int:
        """How many stones are on the board."""
        return (self.x | self.o).bit_count()

    @property
    def turn(self) -> Side:
        """The side whose turn it is by the stone count (also defined once the game is over)."""
        game = self.game
        return game.first if self.x.bit_count() == self.o.bit_count() else game.second

    @property
    def to_move(self) -> Side | None:
        """The side to move, or None when the game is over."""
        return None if self.is_over else self.turn

    @property
    def winner(self) -> Side | None:
        """The side with k in a row, if any."""
        return self._winner

    @property
    def is_over(self) -> bool:
        """Whether someone has won or the board is full."""
        return self._winner is not None or self.ply == self.game.cells

    @property
    def result(self) -> Result | None:
        """``"x"`` or ``"o"`` for a win, ``"draw"`` for a full board, None while the game goes on."""
        if self._winner is not None:
            return self._winner
        return "draw" if self.ply == self.game.cells else None

    def stones(self, side: Side) -> int:
        """The bitboard of ``side``."""
        return self.x if side == "x" else self.o

    def sides(self) -> tuple[int, int]:
        """The position seen from the side to move: its stones, then its opponent's (the search's view)."""
        return (self.x, self.o) if self.turn == "x" else (self.o, self.x)

    def stone_at(self, bit: int) -> Side | None:
        """Which side has a stone on cell ``bit``."""
        if self.x >> bit & 1:
            return "x"
        if self.o >> bit & 1:
            return "o"
        return None

    # ---------------------------------------------------------------------------------- moves
    @cached_property
    def forbidden(self) -> dict[int, Forbidden]:
        """The empty cells the side to move may not play, with why: Black's forbidden points in Renju
        (:mod:`inarow.rules.renju`); none in every other game, and none once the game is over."""
        game = self.game
        if not game.renju or self.is_over or self.turn != game.first:
            return {}
        black, white = self.stones(game.first), self.stones(game.second)
        return forbidden_points(black, white, game.columns, game.rows)

    def legal_bits(self) -> list[int]:
        """The cell bits a stone may be played on now, in board order (none once the game is over; in
        Renju, not Black's forbidden points)."""
        if self.is_over:
            return []
        game, filled = self.game, self.x | self.o
        if game.gravity:
            tops = (filled + game.bottom_mask) & game.board_mask
            return [b for b in range(tops.bit_length()) if tops >> b & 1]
        empty = game.board_mask & ~filled
        forbidden = self.forbidden
        return [b for b in range(empty.bit_length()) if empty >> b & 1 and b not in forbidden]

    def legal_moves(self) -> list[str]:
        """The names of the legal moves, in board order."""
        return [self.game.cell_name(b) for b in self.legal_bits()]

    def move_bit(self, move: str | int) -> int:
        """The cell a move puts a stone on: a name (``b2``, or a column number in gravity games) or a bit.

        Raises :class:`InvalidMoveError` for a name that is not a move on this board and
        :class:`IllegalMoveError` for a move that cannot be played here.
        """
        game = self.game
        if isinstance(move, int):
            bit = move
            if not (bit >= 0 and game.board_mask >> bit & 1):
                raise InvalidMoveError(
                    N_("invalid move {move!r}: no such cell on {name}"), move=move, name=GameName(game.name)
                )
        elif game.gravity:
            column = game.parse_column(move)
            top = (self.filled + game.bottom_mask) & game.column_masks[column]
            if not top:
                self._illegal(move, N_("column {column} is full"), column=column + 1)
            bit = top.bit_length() - 1
        else:
            bit = game.parse_cell(move)
        if self.is_over:
            self._illegal(move, N_("the game is over"))
        if self.filled >> bit & 1:
            self._illegal(move, N_("cell is taken"))
        if game.gravity and bit not in self.legal_bits():
            self._illegal(move, N_("the cell below is empty"))
        if bit in self.forbidden:
            self._illegal(move, FORBIDDEN_REASONS[self.forbidden[bit]])
        return bit

    def _illegal(self, move: str | int, reason: str, **params: object) -> NoReturn:
        raise IllegalMoveError(
            N_("illegal move {move!r} in {position!r}: {reason}"),
            reason=reason,
            move=move,
            position=self.diagram(),
            **params,
        )

    def play(self, move: str | int) -> Position:
        """The position after the side to move plays ``move`` (a name or a cell bit)."""
        bit = self.move_bit(move)
        if self.turn == "x":
            return Position(self.game, self.x | 1 << bit, self.o)
        return Position(self.game, self.x, self.o | 1 << bit)

    def children(self) -> Iterator[tuple[int, Position]]:
        """Each legal move's bit with the position it leads to."""
        for bit in self.legal_bits():
            yield bit, self.play(bit)

    def winning_line_bits(self) -> list[int]:
        """The cells of every completed line (empty while nobody has won)."""
        if self._winner is None:
            return []
        stones = self.stones(self._winner)
        cells = 0
        for line in self.game.lines:
            if stones & line == line:
                cells |= line
        return [b for b in range(cells.bit_length()) if cells >> b & 1]

    # ------------------------------------------------------------------------------- notation
    def diagram(self) -> str:
        """Rows from the top separated by ``/``, cells ``x``, ``o`` or ``.``: ``x.o/.x./..o``."""
        game, rows = self.game, []
        for r in reversed(range(game.rows)):
            rows.append("".join(self.stone_at(game.bit(c, r)) or "." for c in range(game.columns)))
        return "/".join(rows)

    def __str__(self) -> str:
        return self.diagram()
