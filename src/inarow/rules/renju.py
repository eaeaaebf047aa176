"""Renju's forbidden moves: the points where Black (the side that moves first) may not play.

Renju is Gomoku with rules that take away Black's advantage of the first move: Black wins with exactly
five in a row, White with five or more, and Black may not play a *forbidden point* — one that makes an
overline, a double four or a double three — unless the same stone makes exactly five, which wins. These
are the definitions of the Renju International Federation's rules (articles 9.1–9.3 and the notes on
threes), implemented as stated:

- a **five** is an unbroken row of exactly five stones; an **overline** one of six or more;
- a **four** is a row of four stones that one more stone turns into a five. A four is counted by its four
  stones: ``.XXXX.`` (a *straight four*, two points make five) is one four; ``X.XXX.X`` with the new stone
  in the middle is two fours in one line (its two five points complete five with different stones);
- a **three** is a row of three stones that one more stone turns into a *straight four* — four in an
  unbroken row whose two ends are both empty and both make exactly five — **provided that stone is not
  itself on a forbidden point** (so whether a three is real is decided recursively, on the board with the
  new stone);
- a move is a **double four** if it makes two or more fours, a **double three** if it makes two or more
  threes (in different lines; a line with a four through the new stone counts as a four, not a three), and
  an **overline** if it makes six or more in a row; a move that makes exactly five is never forbidden.

Only the stones through the new one count: a three or four elsewhere on the board does not. White has no
forbidden points.

This module sits below :mod:`inarow.rules.game` (which asks it which points are forbidden) and knows only its
bit layout: cell ``(column c, row r)`` is bit ``c * (rows + 1) + r``.
"""

from __future__ import annotations

from typing import Literal

Forbidden = Literal["overline", "double-four", "double-three"]
"""Why a point is forbidden to Black."""

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four line directions as (column, row) steps."""

EMPTY, BLACK, WHITE, OFF = 0, 1, 2, 3


class Board:
    """Black's and White's stones on a ``columns × rows`` board, with one point at a time added for the
    recursive look at threes. Not a position: no side to move, no checks."""

    def __init__(self, black: int, white: int, columns: int, rows: int) -> None:
        self.black, self.white, self.columns, self.rows = black, white, columns, rows

    def bit(self, column: int, row: int) -> int:
        return column * (self.rows + 1) + row

    def at(self, column: int, row: int) -> int:
        """``EMPTY``, ``BLACK``, ``WHITE``, or ``OFF`` the board."""
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            return OFF
        bit = self.bit(column, row)
        if self.black >> bit & 1:
            return BLACK
        if self.white >> bit & 1:
            return WHITE
        return EMPTY

    def with_black(self, column: int, row: int) -> Board:
        return Board(self.black | 1 << self.bit(column, row), self.white, self.columns, self.rows)

    def run(self, column: int, row: int, dc: int, dr: int) -> tuple[int, int]:
        """The unbroken row of black stones through ``(column, row)`` (black itself) in one direction: its
        first and last steps from the point (``-back``, ``ahead``)."""
        back = 0
        while self.at(column - (back + 1) * dc, row - (back + 1) * dr) == BLACK:
            back += 1
        ahead = 0
        while self.at(column + (ahead + 1) * dc, row + (ahead + 1) * dr) == BLACK:
            ahead += 1
        return -back, ahead

    def length(self, column: int, row: int, dc: int, dr: int) -> int:
        low, high = self.run(column, row, dc, dr)
        return high - low + 1


def forbidden(black: int, white: int, bit: int, columns: int, rows: int) -> Forbidden | None:
    """Why Black may not play the empty point ``bit`` (see the module docstring), or None if it may."""
    column, row = divmod(bit, rows + 1)
    return _forbidden(Board(black, white, columns, rows), column, row)


def forbidden_points(black: int, white: int, columns: int, rows: int) -> dict[int, Forbidden]:
    """Every empty point Black may not play, with why, as cell bits of :mod:`inarow.rules.game`' layout."""
    board = Board(black, white, columns, rows)
    found: dict[int, Forbidden] = {}
    if black.bit_count() < 3:
        return found  # two threes or fours need at least three black stones beside the new one
    for column in range(columns):
        for row in range(rows):
            if board.at(column, row) == EMPTY and _may_be_forbidden(board, column, row):
                why = _forbidden(board, column, row)
                if why is not None:
                    found[board.bit(column, row)] = why
    return found


def _may_be_forbidden(board: Board, column: int, row: int) -> bool:
    """A cheap necessary condition: two lines each with two black stones within four points, or one with
    four (two fours in one line, or an overline)."""
    busy = 0
    for dc, dr in DIRECTIONS:
        near = sum(
            board.at(column + i * dc, row + i * dr) == BLACK for i in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)
        )
        if near >= 4:
            return True
        busy += near >= 2
    return busy >= 2


def _forbidden(board: Board, column: int, row: int) -> Forbidden | None:
    after = board.with_black(column, row)
    lengths = [after.length(column, row, dc, dr) for dc, dr in DIRECTIONS]
    if 5 in lengths:
        return None
    if max(lengths) > 5:
        return "overline"
    fours = [_fours(after, column, row, dc, dr) for dc, dr in DIRECTIONS]
    if sum(fours) >= 2:
        return "double-four"
    threes = sum(
        1
        for (dc, dr), count in zip(DIRECTIONS, fours, strict=True)
        if not count and _three(after, column, row, dc, dr)
    )
    if threes >= 2:
        return "double-three"
    return None


def _fives_through(board: Board, column: int, row: int, dc: int, dr: int) -> list[frozenset[int]]:
    """For each empty point on the line within four steps of ``(column, row)`` (a black stone) where one
    more black stone makes exactly five with it, the four stones of that five besides the new one."""
    found = []
    for step in (-4, -3, -2, -1, 1, 2, 3, 4):
        c, r = column + step * dc, row + step * dr
        if board.at(c, r) != EMPTY:
            continue
        completed = board.with_black(c, r)
        low, high = completed.run(c, r, dc, dr)
        if high - low + 1 == 5 and low <= -step <= high:
            found.append(frozenset(completed.bit(c + i * dc, r + i * dr) for i in range(low, high + 1) if i))
    return found


def _fours(board: Board, column: int, row: int, dc: int, dr: int) -> int:
    """How many fours through ``(column, row)`` (a black stone) lie in one line: their distinct sets of
    four stones (a straight four's two five points share one set)."""
    return len(set(_fives_through(board, column, row, dc, dr)))


def _three(board: Board, column: int, row: int, dc: int, dr: int) -> bool:
    """Whether ``(column, row)`` (a black stone) is in a three of this line: a point on it where Black may
    play and make a straight four with it."""
    for step in (-4, -3, -2, -1, 1, 2, 3, 4):
        c, r = column + step * dc, row + step * dr
        if board.at(c, r) != EMPTY:
            continue
        after = board.with_black(c, r)
        low, high = after.run(c, r, dc, dr)
        if high - low + 1 != 4 or not low <= -step <= high:
            continue
        ends = ((c + (low - 1) * dc, r + (low - 1) * dr), (c + (high + 1) * dc, r + (high + 1) * dr))
        if (
            all(
                after.at(ec, er) == EMPTY and after.with_black(ec, er).length(ec, er, dc, dr) == 5
                for ec, er in ends
            )
            and _forbidden(board, c, r) is None
        ):
            return True
    return False
