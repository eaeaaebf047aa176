"""The read-only board an e(P) written as code is handed (see :mod:`inarow.evaluation.student`).

Kept apart from the code that loads and calls the function, so that the child process running a student's
file (:mod:`inarow.evaluation.sandbox`) needs nothing else of inarow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from inarow.rules.game import Position, Side, other


@cache
def _line_cells(columns: int, rows: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every line of k cells as indexes into the rows joined top to bottom: rows from the top, then
    columns from the left, then the diagonals going down-right, then those going up-right."""

    def index(row: int, column: int) -> int:
        return row * columns + column

    found: list[tuple[int, ...]] = []
    for row in range(rows):
        for column in range(columns - k + 1):
            found.append(tuple(index(row, column + i) for i in range(k)))
    for column in range(columns):
        for row in range(rows - k + 1):
            found.append(tuple(index(row + i, column) for i in range(k)))
    for row in range(rows - k + 1):
        for column in range(columns - k + 1):
            found.append(tuple(index(row + i, column + i) for i in range(k)))
    for row in range(k - 1, rows):
        for column in range(columns - k + 1):
            found.append(tuple(index(row - i, column + i) for i in range(k)))
    return tuple(found)


@dataclass(frozen=True)
class Board:
    """The position an e(P) written as code is asked about, read-only.

    ``rows``: the rows from the top, each a string of ``x``, ``o`` and ``.`` from left to right; ``k``: how
    many in a row win; ``max``: the side whose standpoint e(P) takes (``x`` or ``o``), ``min`` the other.
    """

    rows: tuple[str, ...]
    k: int
    max: Side
    _flat: str = field(repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "_flat", "".join(self.rows))

    @property
    def min(self) -> Side:
        """The opponent of :attr:`max`."""
        return other(self.max)

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.rows)

    def lines(self) -> tuple[str, ...]:
        """Every line of k cells as a string of ``x``, ``o`` and ``.``: rows from the top, then columns from
        the left (each read from the top), then the diagonals."""
        flat = self._flat
        return tuple(
            "".join(flat[i] for i in cells) for cells in _line_cells(self.width, self.height, self.k)
        )

    def __str__(self) -> str:
        return "/".join(self.rows)


def board_view(position: Position, side: Side) -> Board:
    """``position`` as the :class:`Board` an e(P) for ``side`` (Max) receives."""
    return Board(tuple(position.diagram().split("/")), position.game.k, side)
