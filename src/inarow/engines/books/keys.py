"""One integer per position up to symmetry: the key of the opening book and of the remembered solutions.

A position is keyed from the side to move's standpoint (``cur``, its stones, and ``opp``, the opponent's,
as :meth:`inarow.rules.game.Position.sides` gives them), after mapping it to its least image under the board's
symmetries (:meth:`inarow.rules.symmetry.Symmetries.canonical`: with gravity the left-right mirror, without it
the 4 or 8 symmetries of the rectangle or square), so that symmetric positions share one key and one entry.

- With gravity, Pascal Pons' key: ``cur + filled + bottom``. In each column the filled cells and the bottom
  bit add up to one bit just above the top stone, under which the side to move's stones stand as they are:
  ``columns × (rows + 1)`` bits, 49 on Connect Four.
- Without gravity, the two bitboards side by side: ``cur << n | opp``, twice the ``n`` bits of the layout.

Keys fit 63 bits (an SQLite integer, a numpy ``uint64``) on the boards :func:`keyable` accepts.
"""

from __future__ import annotations

from inarow.rules.game import Game, Position
from inarow.rules.symmetry import symmetries

KEY_BITS = 63
"""The most bits a key may take: SQLite's integers are signed 64-bit."""


def key_bits(game: Game) -> int:
    """How many bits the keys of ``game`` take."""
    layout = game.columns * game.height
    return layout if game.gravity else 2 * layout


def keyable(game: Game) -> bool:
    """Whether the positions of ``game`` have keys (see :data:`KEY_BITS`): every board up to 8×7 with
    gravity, up to 5×5 without."""
    return key_bits(game) <= KEY_BITS


def key(game: Game, cur: int, opp: int) -> int:
    """The key of the position with ``cur`` the side to move's stones and ``opp`` its opponent's, shared by
    its symmetric images. ``game`` must be :func:`keyable`."""
    cur, opp = symmetries(game).canonical(cur, opp)
    if game.gravity:
        return cur + (cur | opp) + game.bottom_mask
    return cur << (game.columns * game.height) | opp


def position_key(position: Position) -> int:
    """:func:`key` of a position."""
    return key(position.game, *position.sides())


def unkey(game: Game, value: int) -> tuple[int, int]:
    """The ``(cur, opp)`` bitboards of the canonical position with key ``value`` (the inverse of :func:`key`
    on canonical positions)."""
    layout = game.columns * game.height
    if not game.gravity:
        return value >> layout, value & ((1 << layout) - 1)
    cur = filled = 0
    column_bits = (1 << game.height) - 1
    for column in range(game.columns):
        shift = column * game.height
        bits = value >> shift & column_bits
        marker = 1 << (bits.bit_length() - 1)
        filled |= (marker - 1) << shift
        cur |= (bits ^ marker) << shift
    return cur, filled ^ cur


def position_of(game: Game, value: int) -> Position:
    """The canonical position with key ``value``."""
    cur, opp = unkey(game, value)
    ply = (cur | opp).bit_count()
    x_moves = (ply % 2 == 0) == (game.first == "x")
    return Position(game, cur, opp) if x_moves else Position(game, opp, cur)
