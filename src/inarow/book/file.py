"""The opening book file: the exact score of every position of a game up to a number of plies — or, for a
strategy book (:mod:`inarow.book.strategy`), the value and a move that keeps it of every position a
perfect player can meet.

The file (little-endian throughout):

======================  =========================================================================
``INAROWBK``            8 bytes of magic (``INAROWSB`` for a strategy book)
version                 uint16, :data:`VERSION`
game name length        uint16, then the game's name in UTF-8 (``connect4``, read by ``Game.parse``)
plies                   uint16: every position with at most this many stones is in the book
count                   uint64: how many positions
keys                    ``count`` uint64, sorted (:func:`inarow.book.keys.key`: one per symmetry class)
scores                  ``count`` int8, the exact score of each key's position for the side to move
                        (a strategy book: its value and move, see :func:`inarow.book.strategy.encode`)
checksum                uint32, CRC-32 of every byte before it
======================  =========================================================================

Positions whose game is over are not in the book (their value needs no search). A file that is not a
book, of another version, truncated or damaged is refused with :class:`~inarow.errors.BookError`.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from inarow.book.keys import key, keyable
from inarow.errors import BookError, InvalidGameError
from inarow.i18n import N_
from inarow.rules import Game

MAGIC = b"INAROWBK"
STRATEGY_MAGIC = b"INAROWSB"
BookKind = Literal["scores", "strategy"]
_MAGICS: dict[BookKind, bytes] = {"scores": MAGIC, "strategy": STRATEGY_MAGIC}
VERSION = 1
_HEAD = struct.Struct("<8sHH")
_SIZES = struct.Struct("<HQ")
_CHECKSUM = struct.Struct("<I")
TRUNCATED_HEADER = N_("it is truncated: {size} bytes, less than its header")


def _refused(path: Path | str, problem: str, **params: object) -> BookError:
    """The book at ``path`` cannot be used, because of ``problem`` (a catalog entry with ``params``)."""
    return BookError(N_("cannot use the book {path!r}: {reason}"), reason=problem, path=str(path), **params)


@dataclass(frozen=True, kw_only=True, eq=False)
class Book:
    """The exact scores of every position of ``game`` with at most ``plies`` stones whose game goes on."""

    game: Game
    plies: int
    keys: np.ndarray = field(repr=False)
    """The positions' keys, sorted (``uint64``)."""
    scores: np.ndarray = field(repr=False)
    """Each key's exact score for the side to move (``int8``); in a strategy book, its code."""
    kind: BookKind = "scores"
    """``scores`` (an opening book) or ``strategy`` (a strategy book: each key's value and move)."""

    def __post_init__(self) -> None:
        assert keyable(self.game), f"{self.game.name}: no keys"
        assert len(self.keys) == len(self.scores)

    def __len__(self) -> int:
        return len(self.keys)

    def score(self, cur: int, opp: int) -> int | None:
        """The exact score of the position (``cur`` to move, ``opp`` the opponent), None if not in it."""
        if (cur | opp).bit_count() > self.plies or not len(self.keys):
            return None
        return self.score_of(key(self.game, cur, opp))

    def score_of(self, value: int) -> int | None:
        """The score stored under the key ``value``, None if it is not in the book."""
        wanted = np.uint64(value)
        index = int(np.searchsorted(self.keys, wanted))
        if index < len(self.keys) and self.keys[index] == wanted:
            return int(self.scores[index])
        return None

    def same(self, other: Book) -> bool:
        """Whether ``other`` holds the same game, depth, positions and scores."""
        return (
            self.game == other.game
            and self.kind == other.kind
            and self.plies == other.plies
            and np.array_equal(self.keys, other.keys)
            and np.array_equal(self.scores, other.scores)
        )

    # --------------------------------------------------------------------------------- the file
    def to_bytes(self) -> bytes:
        """The file's bytes (see the module's docstring)."""
        name = self.game.name.encode()
        body = b"".join(
            (
                _HEAD.pack(_MAGICS[self.kind], VERSION, len(name)),
                name,
                _SIZES.pack(self.plies, len(self)),
                self.keys.astype("<u8").tobytes(),
                self.scores.astype("i1").tobytes(),
            )
        )
        return body + _CHECKSUM.pack(zlib.crc32(body))

    def save(self, path: Path | str) -> None:
        """Write the book to ``path`` (through a temporary file beside it, so a reader never sees half)."""
        target = Path(path)
        temporary = target.with_name(target.name + ".tmp")
        temporary.write_bytes(self.to_bytes())
        os.replace(temporary, target)

    @classmethod
    def from_bytes(cls, data: bytes, path: Path | str = "<bytes>") -> Book:
        """The book in ``data`` (an opening book or a strategy book, by its magic); raises
        :class:`BookError` naming ``path`` and what is wrong."""
        kinds = {magic: kind for kind, magic in _MAGICS.items()}
        kind = kinds.get(data[: len(MAGIC)])
        if kind is None:
            raise _refused(
                path,
                N_("it is not an inarow book (it does not start with {magic})"),
                magic=" or ".join(magic.decode() for magic in _MAGICS.values()),
            )
        if len(data) < _HEAD.size:
            raise _refused(path, TRUNCATED_HEADER, size=len(data))
        _, version, name_length = _HEAD.unpack_from(data)
        if version != VERSION:
            raise _refused(
                path,
                N_(
                    "it has format version {version} and this inarow reads version {supported}: build"
                    " it again"
                ),
                version=version,
                supported=VERSION,
            )
        start = _HEAD.size + name_length
        if len(data) < start + _SIZES.size:
            raise _refused(path, TRUNCATED_HEADER, size=len(data))
        plies, count = _SIZES.unpack_from(data, start)
        start += _SIZES.size
        expected = start + 9 * count + _CHECKSUM.size
        if len(data) != expected:
            wrong = (
                N_(
                    "it is truncated: {size} bytes where its header announces {count} positions in "
                    "{expected} bytes"
                )
                if len(data) < expected
                else N_(
                    "it is too long: {size} bytes where its header announces {count} positions in "
                    "{expected} bytes"
                )
            )
            raise _refused(path, wrong, size=len(data), count=count, expected=expected)
        (checksum,) = _CHECKSUM.unpack_from(data, expected - _CHECKSUM.size)
        if zlib.crc32(data[: expected - _CHECKSUM.size]) != checksum:
            raise _refused(path, N_("it is damaged: its checksum does not match its contents"))
        try:
            game = Game.parse(data[_HEAD.size : _HEAD.size + name_length].decode())
        except (UnicodeDecodeError, InvalidGameError):
            raise _refused(path, N_("its game is not one this inarow knows")) from None
        if not keyable(game):
            raise _refused(path, N_("{game} has no book keys"), game=game.name)
        keys = np.frombuffer(data, dtype="<u8", count=count, offset=start).astype(np.uint64)
        scores = np.frombuffer(data, dtype="i1", count=count, offset=start + 8 * count).astype(np.int8)
        if count > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise _refused(path, N_("it is damaged: its keys are not sorted"))
        return cls(game=game, plies=plies, keys=keys, scores=scores, kind=kind)

    @classmethod
    def load(cls, path: Path | str) -> Book:
        """The book in the file ``path``; raises :class:`BookError` if it cannot be read or used."""
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise _refused(path, "{why}", why=error.strerror or str(error)) from None
        return cls.from_bytes(data, path)

    @classmethod
    def of(cls, game: Game, plies: int, scores: dict[int, int], kind: BookKind = "scores") -> Book:
        """The book of ``game`` to ``plies`` plies holding ``scores`` (key → exact score, or for a strategy
        book key → code)."""
        keys = np.array(sorted(scores), dtype=np.uint64)
        values = np.array([scores[int(k)] for k in keys], dtype=np.int8)
        return cls(game=game, plies=plies, keys=keys, scores=values, kind=kind)

    def for_game(self, game: Game, path: Path | str) -> Book:
        """This book, checked to be ``game``'s (else :class:`BookError` naming ``path``)."""
        if game != self.game:
            raise _refused(
                path, N_("it is a book of {book}, not of {game}"), book=self.game.name, game=game.name
            )
        return self
