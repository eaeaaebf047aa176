"""Reading and writing positions: board diagrams, move lists and Connect Four digit strings.

Three ways to write a position, tried in this order:

- a diagram, rows from the top separated by ``/``, cells ``x``, ``o``, ``.`` (any case): ``x.o/.x./..o``
  (a board of one row has no ``/``: ``x.o..``);
- in gravity games on boards of at most 9 columns, a string of 1-based column digits: ``4453``;
- a move list from the empty board, separated by spaces or commas: ``b2 a1 c3`` (``4 4 5 3`` with gravity);
  each move in any notation of :meth:`inarow.rules.game.Game.parse_cell`: ``5 1 9`` on the keypad of 3×3, or
  ``(2,2) (3,1)`` as row,column from the top left.

Input is read as typed on any keyboard (:func:`inarow.rules.game.as_typed`): full-width ``（２，２）``, ``５``
and the commas ``，``/``、`` read as ``(2,2)``, ``5`` and ``,``.

The empty string is the empty board. Parsing checks syntax first, then that the position can arise in play.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from inarow.base.errors import GameName, InarowError, InvalidPositionError
from inarow.base.i18n import N_
from inarow.rules.game import Game, Position, as_typed

MAX_INPUT = 4096
"""The longest position string read; a 19×19 move list fits with room to spare."""

_MOVE = re.compile(r"[^\s,]+")
_CELL_OR_MOVE = re.compile(r"\(\s*[0-9]{1,2}\s*,\s*[0-9]{1,2}\s*\)|[0-9]{1,2},[0-9]{1,2}(?![0-9])|[^\s,]+")
"""Moves of a move list, separated by spaces or commas; without gravity a ``row,column`` pair, or one in
brackets, is one move."""

_REACHABILITY_BUDGET = 200_000
"""How many stone-removal states the gravity play-order check may visit before it gives the benefit of
the doubt. No real position comes near it; it only bounds the time spent on contrived ones."""


def parse_game(game: Game | str) -> Game:
    """A :class:`Game` as it is, or parsed from its name."""
    return game if isinstance(game, Game) else Game.parse(game)


def parse_position(text: str, game: Game | str = "tictactoe") -> Position:
    """Read a position in any of the three notations (see the module docstring).

    Raises :class:`~inarow.base.errors.InvalidPositionError` for a string that cannot be read or a board that
    cannot arise in play, :class:`~inarow.base.errors.InvalidMoveError` /
    :class:`~inarow.base.errors.IllegalMoveError`
    (with the move's number) for a bad move in a move list.
    """
    game = parse_game(game)
    if len(text) > MAX_INPUT:
        raise InvalidPositionError(
            N_("position of {length} characters is too long: at most {limit}"),
            length=len(text),
            limit=MAX_INPUT,
        )
    stripped = as_typed(text).strip()
    if "/" in stripped or (game.rows == 1 and stripped and set(stripped.lower()) <= set("xo.")):
        return parse_diagram(stripped, game)
    return parse_moves(split_moves(stripped, game), game, text)


def split_moves(text: str, game: Game) -> list[str]:
    """The moves of a move list, in order: its digits for a gravity game of at most 9 columns written
    as one number (``4453``), else its words separated by spaces or commas (a ``row,column`` pair is one
    move without gravity). Nothing is checked: :func:`parse_moves` plays them."""
    stripped = text.strip()
    if game.gravity and game.columns <= 9 and stripped.isascii() and stripped.isdigit():
        return list(stripped)
    tokens = _MOVE if game.gravity else _CELL_OR_MOVE
    return tokens.findall(stripped)


def parse_moves(
    moves: Iterable[str | int], game: Game | str = "tictactoe", source: str | None = None
) -> Position:
    """Play ``moves`` (names or cell bits) from the empty board."""
    position = Position.start(parse_game(game))
    for number, move in enumerate(moves, start=1):
        try:
            position = position.play(move)
        except InarowError as error:
            if source is None:
                raise type(error)(
                    N_("move {number}: {error}"), reason=error, number=number, error=error
                ) from None
            raise type(error)(
                N_("move {number} of {source!r}: {error}"),
                reason=error,
                number=number,
                source=source,
                error=error,
            ) from None
    return position


def parse_diagram(text: str, game: Game | str = "tictactoe") -> Position:
    """Read a diagram such as ``x.o/.x./..o`` and check that the board can arise in play."""
    game = parse_game(game)
    rows = [row.strip().lower() for row in text.strip().split("/")]
    if len(rows) != game.rows:
        raise InvalidPositionError(
            N_("invalid diagram {text!r}: {name} has {rows} rows separated by '/', got {count}"),
            text=text,
            name=GameName(game.name),
            rows=game.rows,
            count=len(rows),
        )
    x = o = 0
    for number, row in enumerate(rows):
        r = game.rows - 1 - number
        if len(row) != game.columns or set(row) - set("xo."):
            raise InvalidPositionError(
                N_(
                    "invalid diagram {text!r}: row {number} from the top {row!r} must be {columns} "
                    "cells of 'x', 'o' or '.'"
                ),
                text=text,
                number=number + 1,
                row=row,
                columns=game.columns,
            )
        for c, cell in enumerate(row):
            if cell == "x":
                x |= 1 << game.bit(c, r)
            elif cell == "o":
                o |= 1 << game.bit(c, r)
    check_reachable(game, x, o, text)
    return Position(game, x, o)


def check_reachable(game: Game, x: int, o: int, text: str) -> None:
    """Raise :class:`InvalidPositionError` unless the stones ``x`` and ``o`` can arise in play."""
    first, second = game.first, game.second
    stones = {"x": x, "o": o}
    leader, follower = stones[first], stones[second]
    n1, n2 = leader.bit_count(), follower.bit_count()
    if n1 not in (n2, n2 + 1):
        raise InvalidPositionError(
            N_(
                "impossible position {text!r}: {first} has {n1} stones and {second} has {n2}; "
                "{first} moves first, so {first} has as many stones as {second} or one more"
            ),
            text=text,
            first=first,
            n1=n1,
            second=second,
            n2=n2,
        )
    filled = x | o
    if game.gravity and (filled + game.bottom_mask) & filled:
        raise InvalidPositionError(
            N_("impossible position {text!r}: a stone floats above an empty cell"), text=text
        )
    x_won, o_won = game.has_line(x), game.has_line(o)
    if x_won and o_won:
        raise InvalidPositionError(
            N_("impossible position {text!r}: both x and o have {k} in a row"), text=text, k=game.k
        )
    winner = "x" if x_won else "o" if o_won else None
    if winner == first and n1 != n2 + 1:
        raise InvalidPositionError(
            N_("impossible position {text!r}: {first} has won, so {second} cannot have moved since"),
            text=text,
            first=first,
            second=second,
        )
    if winner == second and n1 != n2:
        raise InvalidPositionError(
            N_("impossible position {text!r}: {second} has won, so {first} cannot have moved since"),
            text=text,
            second=second,
            first=first,
        )
    if winner is not None:
        won = stones[winner]
        last = [b for b in _bits(won) if not game.has_line(won & ~(1 << b))]
        if game.gravity:
            last = [b for b in last if not filled >> (b + 1) & 1]
        if not last:
            raise InvalidPositionError(
                N_("impossible position {text!r}: {winner} has lines that no single last move completed"),
                text=text,
                winner=winner,
            )
        if game.gravity and not any(
            _gravity_order_exists(game, leader & ~(1 << b), follower)
            if winner == first
            else _gravity_order_exists(game, leader, follower & ~(1 << b))
            for b in last
        ):
            raise InvalidPositionError(
                N_("impossible position {text!r}: no order of play stacks these columns"), text=text
            )
    elif game.gravity and not _gravity_order_exists(game, leader, follower):
        raise InvalidPositionError(
            N_("impossible position {text!r}: no order of play stacks these columns"), text=text
        )


def _bits(mask: int) -> list[int]:
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


def _gravity_order_exists(game: Game, leader: int, follower: int) -> bool:
    """Whether alternate moves, ``leader`` first, can stack the columns: take top stones off, last mover's
    first."""
    seen: set[int] = set()
    stack = [(leader, follower)]
    while stack:
        leader, follower = stack.pop()
        if not leader | follower:
            return True
        if len(seen) > _REACHABILITY_BUDGET:
            return True
        follower_moved_last = leader.bit_count() == follower.bit_count()
        side = follower if follower_moved_last else leader
        filled = leader | follower
        for column in game.column_masks:
            stack_bits = filled & column
            if not stack_bits:
                continue
            top = 1 << (stack_bits.bit_length() - 1)
            if side & top:
                child = (leader, follower & ~top) if follower_moved_last else (leader & ~top, follower)
                key = child[0] << game.board_mask.bit_length() | child[1]
                if key not in seen:
                    seen.add(key)
                    stack.append(child)
    return False


def format_moves(game: Game, bits: Iterable[int]) -> str:
    """A move list for cell bits: ``b2 a1 c3``, or column digits ``4453`` in gravity games up to 9 columns."""
    names = [game.cell_name(b) for b in bits]
    if game.gravity and game.columns <= 9:
        return "".join(names)
    return " ".join(names)


def play_order(position: Position) -> list[int]:
    """Cell bits that, played in order from the empty board, reach ``position``: a move list for a board
    set up as a diagram. Before the last move nobody has won, and in gravity games each stone lands on the
    one below it. Raises :class:`InvalidPositionError` when no order is found within
    :data:`_REACHABILITY_BUDGET` states (no board that can arise in play comes near it)."""
    game = position.game
    seen: set[tuple[int, int]] = set()

    def earlier(x: int, o: int) -> list[int] | None:
        """An order reaching (x, o), found by taking the last mover's stones off one at a time."""
        if not x | o:
            return []
        if (x, o) in seen or len(seen) > _REACHABILITY_BUDGET:
            return None
        seen.add((x, o))
        stones = {"x": x, "o": o}
        follower = "o" if game.first == "x" else "x"
        last = follower if stones[game.first].bit_count() == stones[follower].bit_count() else game.first
        filled = x | o
        for bit in _bits(stones[last]):
            if game.gravity and filled >> (bit + 1) & 1:
                continue  # a stone lies on it: it was not the last one played in its column
            before = (x & ~(1 << bit), o) if last == "x" else (x, o & ~(1 << bit))
            if game.has_line(before[0]) or game.has_line(before[1]):
                continue  # the game would have ended before this stone
            found = earlier(*before)
            if found is not None:
                return [*found, bit]
        return None

    order = earlier(position.x, position.o)
    if order is None:
        raise InvalidPositionError(
            N_("impossible position {text!r}: no order of play reaches it"), text=position.diagram()
        )
    return order
