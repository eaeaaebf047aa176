"""Opening suites for engine matches: a few stones already on the board, so that deterministic players do
not play the same game over and over.

A match with openings plays each opening twice, the players swapping colours, so that neither player is
favoured by an opening; the openings are distinct up to the board's symmetries, so no game is played
twice. They come either from a file (one move list a line, :func:`read_openings`) or are drawn at random
from a seed (:func:`balanced_openings`):

- the stones of a drawn opening are played alternately by the two sides, starting with the side that moves
  first, on the central cells (the middle 5×5 of boards of 9 or more columns and rows; any cell of a smaller
  board; any column with gravity);
- a drawn opening is *balanced* if a short search (:data:`OPENING_DEPTH` plies, no clock, so that the same
  seed draws the same openings on every machine) finds no proven win for either side; of a pool of
  :data:`POOL_FACTOR` times as many distinct candidates as asked for, the ones whose evaluation is nearest
  0 are kept (a proven draw counts as 0), in the order they were drawn.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from inarow.base.errors import InarowError, InvalidMatchError
from inarow.base.i18n import N_
from inarow.engines.gomoku.search import supports as gomoku_board
from inarow.engines.limits import Limits
from inarow.engines.policy import analyze
from inarow.rules.game import Game, Position
from inarow.rules.notation import split_moves
from inarow.rules.symmetry import symmetries

Opening = tuple[int, ...]
"""An opening: the cell bits of its stones in the order they are played."""

MAX_OPENINGS = 1000
"""The most openings one match may have."""

POOL_FACTOR = 3
"""Candidates drawn per opening asked for; the most balanced of them are kept."""

CENTRE = 5
"""The side of the central square the stones of a drawn opening go on, on boards of 9 or more."""

OPENING_DEPTH = 2
"""Plies of the search that judges a drawn opening on the Gomoku engine's boards."""

SMALL_OPENING_DEPTH = 6
"""Plies of that search on the other boards (a small board is solved outright within them)."""

TRIES_PER_OPENING = 200
"""Random draws per candidate before the generator gives up (small boards have few distinct openings)."""


def opening_stones(game: Game) -> int:
    """How many stones a drawn opening has: 3 on boards of five in a row or more without gravity (as the
    seeded three-stone openings of Gomoku engine matches), else 2."""
    return 3 if game.k >= 5 and not game.gravity else 2


def _cells(game: Game) -> list[int]:
    """The cells (or, with gravity, the columns as their bottom cells) an opening's stones may go on."""
    if game.gravity:
        return list(range(game.columns))
    if game.columns >= 9 and game.rows >= 9:
        left, bottom = (game.columns - CENTRE) // 2, (game.rows - CENTRE) // 2
        return [game.bit(left + c, bottom + r) for c in range(CENTRE) for r in range(CENTRE)]
    return [game.bit(c, r) for c in range(game.columns) for r in range(game.rows)]


def draw(game: Game, stones: int, rng: random.Random) -> tuple[Position, Opening] | None:
    """One random opening of ``stones`` stones with its moves, or None if a stone had no room or the
    game ended."""
    position, moves, cells = Position.start(game), [], _cells(game)
    for _ in range(stones):
        legal = position.legal_bits()
        if game.gravity:
            choices = [b for b in legal if game.coordinates(b)[0] in cells]
        else:
            choices = sorted(set(cells).intersection(legal))
        if not choices:
            return None
        moves.append(rng.choice(choices))
        position = position.play(moves[-1])
        if position.is_over:
            return None
    return position, tuple(moves)


def _imbalance(position: Position) -> int | None:
    """How far from even a short search finds the opening: 0 for a proven draw, the evaluation's size
    otherwise, None for a proven win of either side."""
    depth = OPENING_DEPTH if gomoku_board(position.game) else SMALL_OPENING_DEPTH
    analysis = analyze(position, Limits(depth=depth))
    if analysis.exact:
        return 0 if analysis.value == 0 else None
    return abs(analysis.score or 0)


def balanced_openings(game: Game, count: int, seed: int, stones: int | None = None) -> list[Opening]:
    """``count`` balanced openings of ``stones`` stones (by default :func:`opening_stones`), distinct up to
    the board's symmetries, drawn from ``seed`` (see the module docstring).

    Raises :class:`InvalidMatchError` if ``count`` is out of range or the board has fewer distinct
    balanced openings than asked for.
    """
    check_openings(count)
    stones = opening_stones(game) if stones is None else stones
    rng = random.Random(seed)
    symmetry = symmetries(game)
    seen: set[int] = set()
    pool: list[tuple[int, Opening]] = []
    wanted = count * POOL_FACTOR
    for _ in range(wanted * TRIES_PER_OPENING):
        if len(pool) >= wanted:
            break
        drawn = draw(game, stones, rng)
        if drawn is None:
            continue
        position, moves = drawn
        key = symmetry.canonical_key(position.x, position.o)
        if key in seen:
            continue
        seen.add(key)
        imbalance = _imbalance(position)
        if imbalance is not None:
            pool.append((imbalance, moves))
    if len(pool) < count:
        raise InvalidMatchError(
            N_(
                "only {found} distinct balanced openings of {stones} stones on {game}: {count} were asked for"
            ),
            found=len(pool),
            stones=stones,
            game=game.name,
            count=count,
        )
    kept = sorted(range(len(pool)), key=lambda i: (pool[i][0], i))[:count]
    return [pool[i][1] for i in sorted(kept)]


def check_openings(count: int) -> None:
    """Raise :class:`InvalidMatchError` unless a match may have ``count`` openings."""
    if not 1 <= count <= MAX_OPENINGS:
        raise InvalidMatchError(
            N_("invalid number of openings {count!r}: expected 1 to {limit:,}"),
            count=count,
            limit=MAX_OPENINGS,
        )


def read_openings(game: Game, path: Path) -> list[Opening]:
    """The openings of a file, one move list a line (blank lines and lines starting with ``#`` are
    skipped).

    Raises :class:`InvalidMatchError` naming the line for a file that cannot be read, a line that is
    not a move list of ``game`` (a diagram does not say the order the stones were played in), an opening
    that ends the game or repeats an earlier line's position (up to the board's symmetries); and for a
    file without openings.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidMatchError(
            N_("cannot read the openings file {path!r}: {problem}"), path=str(path), problem=str(error)
        ) from None
    symmetry = symmetries(game)
    seen: dict[int, int] = {}
    openings: list[Opening] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where: dict[str, Any] = {"number": number, "path": str(path), "text": text}
        if "/" in text:
            raise InvalidMatchError(
                N_("line {number} of {path!r}: {text!r} is a diagram; an opening is a move list"), **where
            )
        position, moves = Position.start(game), []
        try:
            for move in split_moves(text, game):
                moves.append(position.move_bit(move))
                position = position.play(moves[-1])
        except InarowError as error:
            raise InvalidMatchError(
                N_("line {number} of {path!r}: move {move}: {error}"),
                **where,
                move=len(moves) + 1,
                error=error,
            ) from None
        if position.is_over:
            raise InvalidMatchError(
                N_("line {number} of {path!r}: the opening {text!r} ends the game"), **where
            )
        key = symmetry.canonical_key(position.x, position.o)
        if key in seen:
            raise InvalidMatchError(
                N_("line {number} of {path!r}: the opening {text!r} repeats line {earlier}"),
                **where,
                earlier=seen[key],
            )
        seen[key] = number
        openings.append(tuple(moves))
    if not openings:
        raise InvalidMatchError(N_("the openings file {path!r} has no openings"), path=str(path))
    check_openings(len(openings))
    return openings
