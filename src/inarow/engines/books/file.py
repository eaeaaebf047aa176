"""The book file: the exact score of every position of a game between two plies — an opening book (from
the empty board to N plies) or a leaf book (the positions of one ply, which the compiled search probes
wherever it reaches that ply) — or, for a strategy book (:mod:`inarow.engines.books.strategy`), the value and
a move that keeps it of every position a perfect player can meet.

The file (little-endian throughout):

======================  =========================================================================
``INAROWBK``            8 bytes of magic (``INAROWSB`` for a strategy book)
version                 uint16, :data:`VERSION`
game name length        uint16, then the game's name in UTF-8 (``connect4``, read by ``Game.parse``)
first ply               uint16: the fewest stones of a position in the book
plies                   uint16: the most; every position between the two whose game goes on is in it
count                   uint64: how many positions
about length            uint32 (at most :data:`MAX_ABOUT`), then a JSON object in UTF-8: where the
                        book comes from and how it was verified (:class:`About`)
padding                 zero bytes up to a multiple of 8 from the start of the file (the keys are
                        then aligned for a memory map)
keys                    ``count`` uint64, strictly increasing (:func:`inarow.engines.books.keys.key`: one per
                        symmetry class)
scores                  ``count`` int8, the exact score of each key's position for the side to move
                        (a strategy book: its value and move, see
                        :func:`inarow.engines.books.strategy.encode`)
checksum                uint32, CRC-32 of every byte before it
======================  =========================================================================

Positions whose game is over are not in the book (their value needs no search). A file is read through a
memory map (the processes of a server share its pages), after its size is checked against its header: a
file that is not a book, of another version, larger than :data:`MAX_BYTES`, truncated, damaged, or whose
contents break the rules above (plies past the board, a score past the board's scale, keys out of order
or past the game's key bits) is refused with :class:`~inarow.base.errors.BookError` before it is used.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from inarow.base.errors import BookError, InvalidGameError
from inarow.base.i18n import N_
from inarow.engines.books.keys import key, key_bits, keyable
from inarow.rules.game import Game

MAGIC = b"INAROWBK"
STRATEGY_MAGIC = b"INAROWSB"
BookKind = Literal["scores", "strategy"]
_MAGICS: dict[BookKind, bytes] = {"scores": MAGIC, "strategy": STRATEGY_MAGIC}
VERSION = 2
MAX_BYTES = 1 << 30
"""The largest book file read (1 GiB; the 12-ply Connect Four book takes 38 MB): a larger one is refused
from its size alone, before any of it is read."""
MAX_ABOUT = 1 << 16
"""The most bytes of the JSON object that says where a book comes from."""
_HEAD = struct.Struct("<8sHH")
_SIZES = struct.Struct("<HHQI")
_CHECKSUM = struct.Struct("<I")
TRUNCATED_HEADER = N_("it is truncated: {size} bytes, less than its header")
_ALIGN = 8


def _refused(path: Path | str, problem: str, **params: object) -> BookError:
    """The book at ``path`` cannot be used, because of ``problem`` (a catalog entry with ``params``)."""
    return BookError(N_("cannot use the book {path!r}: {reason}"), reason=problem, path=str(path), **params)


@dataclass(frozen=True, kw_only=True)
class About:
    """Where a book comes from and how it was checked (the file's JSON object; fields, no sentences).

    ``source``: ``inarow`` for a book built by ``inarow book build``, else the name and version of what
    it was imported from (``bitbully-databases 0.0.2``); ``licence``: the source's licence, if not
    inarow's; ``checked``: how many of its positions, drawn at random with ``seed``, were solved again by
    inarow's own search and found equal (0: not checked)."""

    source: str = "inarow"
    licence: str = ""
    checked: int = 0
    seed: int | None = None

    def to_json(self) -> bytes:
        return json.dumps(asdict(self), sort_keys=True).encode()

    @classmethod
    def from_json(cls, data: bytes, path: Path | str) -> About:
        """The object in ``data``; raises :class:`BookError` when it is not one."""
        try:
            found = json.loads(data.decode())
        except (UnicodeDecodeError, ValueError):
            found = None
        if not isinstance(found, dict):
            raise _refused(path, N_("it is damaged: what it says of its source is not readable"))
        about = cls()
        text = {"source", "licence"}
        for name, value in found.items():
            expected: tuple[type, ...] = (str,) if name in text else (int, type(None))
            if name not in ("source", "licence", "checked", "seed") or isinstance(value, bool):
                raise _refused(path, N_("it is damaged: what it says of its source is not readable"))
            negative = isinstance(value, int) and value < 0
            if not isinstance(value, expected) or (name == "checked" and (value is None or negative)):
                raise _refused(path, N_("it is damaged: what it says of its source is not readable"))
            about = _with(about, name, value)
        return about


def _with(about: About, name: str, value: object) -> About:
    fields = asdict(about)
    fields[name] = value
    return About(**fields)


@dataclass(frozen=True, kw_only=True, eq=False)
class Book:
    """The exact scores of every position of ``game`` with ``first`` to ``plies`` stones whose game goes on.

    ``keys`` and ``scores`` may be views of a memory-mapped file (read-only); a book keeps the map open as
    long as it lives."""

    game: Game
    plies: int
    keys: np.ndarray = field(repr=False)
    """The positions' keys, strictly increasing (``uint64``)."""
    scores: np.ndarray = field(repr=False)
    """Each key's exact score for the side to move (``int8``); in a strategy book, its code."""
    kind: BookKind = "scores"
    """``scores`` (an opening or leaf book) or ``strategy`` (a strategy book: each key's value and move)."""
    first: int = 0
    """The fewest stones of a position in the book: 0 for an opening book, ``plies`` for a leaf book."""
    about: About = field(default_factory=About)
    """Where it comes from and how it was checked."""

    def __post_init__(self) -> None:
        assert keyable(self.game), f"{self.game.name}: no keys"
        assert len(self.keys) == len(self.scores)
        assert 0 <= self.first <= self.plies

    def __len__(self) -> int:
        return len(self.keys)

    def score(self, cur: int, opp: int) -> int | None:
        """The exact score of the position (``cur`` to move, ``opp`` the opponent), None if not in it."""
        if not self.first <= (cur | opp).bit_count() <= self.plies or not len(self.keys):
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
        """Whether ``other`` holds the same game, plies, positions and scores."""
        return (
            self.game == other.game
            and self.kind == other.kind
            and (self.first, self.plies) == (other.first, other.plies)
            and np.array_equal(self.keys, other.keys)
            and np.array_equal(self.scores, other.scores)
        )

    # --------------------------------------------------------------------------------- the file
    def to_bytes(self) -> bytes:
        """The file's bytes (see the module's docstring)."""
        name = self.game.name.encode()
        about = self.about.to_json()
        head = b"".join(
            (
                _HEAD.pack(_MAGICS[self.kind], VERSION, len(name)),
                name,
                _SIZES.pack(self.first, self.plies, len(self), len(about)),
                about,
            )
        )
        body = b"".join(
            (
                head,
                bytes(-len(head) % _ALIGN),
                self.keys.astype("<u8").tobytes(),
                self.scores.astype("i1").tobytes(),
            )
        )
        return body + _CHECKSUM.pack(zlib.crc32(body))

    def save(self, path: Path | str) -> None:
        """Write the book to ``path`` (through a temporary file beside it, so a reader never sees half)."""
        target = Path(path)
        temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")  # two processes may both save it
        temporary.write_bytes(self.to_bytes())
        os.replace(temporary, target)

    @classmethod
    def from_bytes(cls, data: bytes, path: Path | str = "<bytes>") -> Book:
        """The book in ``data`` (an opening book or a strategy book, by its magic); raises
        :class:`BookError` naming ``path`` and what is wrong."""
        return _parse(memoryview(data), len(data), path)

    @classmethod
    def load(cls, path: Path | str) -> Book:
        """The book in the file ``path``, memory-mapped; raises :class:`BookError` if it cannot be read or
        used. The header is read first and the file's size checked against it (and against
        :data:`MAX_BYTES`) before anything else is."""
        try:
            with open(path, "rb") as file:
                size = os.fstat(file.fileno()).st_size
                if size > MAX_BYTES:
                    raise _refused(
                        path, N_("it is too large: {size} bytes, more than {most}"), size=size, most=MAX_BYTES
                    )
                head = file.read(_HEAD.size + 0xFFFF + _SIZES.size)
                _header(memoryview(head), size, path)  # refuses a file whose size is not its header's
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as error:
            raise _refused(path, "{why}", why=error.strerror or str(error)) from None
        return _parse(memoryview(mapped), size, path)

    @classmethod
    def of(
        cls,
        game: Game,
        plies: int,
        scores: dict[int, int],
        kind: BookKind = "scores",
        *,
        first: int = 0,
        about: About | None = None,
    ) -> Book:
        """The book of ``game`` from ``first`` to ``plies`` plies holding ``scores`` (key → exact score, or
        for a strategy book key → code)."""
        keys = np.array(sorted(scores), dtype=np.uint64)
        values = np.array([scores[int(k)] for k in keys], dtype=np.int8)
        return cls(
            game=game, plies=plies, keys=keys, scores=values, kind=kind, first=first, about=about or About()
        )

    def per_ply(self, path: Path | str) -> list[int]:
        """How many positions of each number of stones the book holds, from 0 to :attr:`plies`; raises
        :class:`BookError` naming ``path`` when a key is that of no position between :attr:`first` and
        :attr:`plies` stones (a check of every key, which loading a book leaves out: such a key is never
        asked for, so it cannot mislead a search)."""
        stones = stones_of(self.game, self.keys)
        if len(stones) and not (int(stones.min()) >= self.first and int(stones.max()) <= self.plies):
            raise _refused(
                path,
                N_("it is damaged: a key is not that of a position of {first} to {plies} stones"),
                first=self.first,
                plies=self.plies,
            )
        return [int(n) for n in np.bincount(stones, minlength=self.plies + 1)]

    def for_game(self, game: Game, path: Path | str) -> Book:
        """This book, checked to be ``game``'s (else :class:`BookError` naming ``path``)."""
        if game != self.game:
            raise _refused(
                path, N_("it is a book of {book}, not of {game}"), book=self.game.name, game=game.name
            )
        return self


def stones_of(game: Game, values: np.ndarray) -> np.ndarray:
    """How many stones the position of each key of ``values`` (``uint64``) holds, -1 for a value that is
    the key of no position (with gravity, a column without its marker bit; without, a cell of both
    sides)."""
    values = values.astype(np.uint64, copy=False)
    if not game.gravity:
        layout = game.columns * game.height
        low = np.uint64((1 << layout) - 1)
        cur, opp = values >> np.uint64(layout), values & low
        count = np.bitwise_count(cur) + np.bitwise_count(opp)
        return np.where((cur & opp) == 0, count.astype(np.int64), -1)
    height = game.height
    # The marker is the highest bit of each column's bits: the stones under it are the column's.
    table = np.array([-(1 << 20)] + [b.bit_length() - 1 for b in range(1, 1 << height)], dtype=np.int64)
    column = np.uint64((1 << height) - 1)
    total = np.zeros(len(values), dtype=np.int64)
    for c in range(game.columns):
        total += table[((values >> np.uint64(c * height)) & column).astype(np.intp)]
    return np.maximum(total, -1)


@dataclass(frozen=True)
class _Header:
    kind: BookKind
    name: bytes
    first: int
    plies: int
    count: int
    about: bytes
    start: int
    """Where the keys begin."""


def _header(data: memoryview, size: int, path: Path | str) -> _Header:
    """The header at the start of ``data`` (a file of ``size`` bytes), checked against ``size``; raises
    :class:`BookError`. ``data`` may hold only the file's first bytes."""
    kinds = {magic: kind for kind, magic in _MAGICS.items()}
    kind = kinds.get(bytes(data[: len(MAGIC)]))
    if kind is None:
        raise _refused(
            path,
            N_("it is not an inarow book (it does not start with {magic})"),
            magic=" or ".join(magic.decode() for magic in _MAGICS.values()),
        )
    if len(data) < _HEAD.size:
        raise _refused(path, TRUNCATED_HEADER, size=size)
    _, version, name_length = _HEAD.unpack_from(data)
    if version != VERSION:
        raise _refused(
            path,
            N_("it has format version {version} and this inarow reads version {supported}: build it again"),
            version=version,
            supported=VERSION,
        )
    start = _HEAD.size + name_length
    if len(data) < start + _SIZES.size:
        raise _refused(path, TRUNCATED_HEADER, size=size)
    name = bytes(data[_HEAD.size : start])
    first, plies, count, about_length = _SIZES.unpack_from(data, start)
    start += _SIZES.size
    if about_length > MAX_ABOUT:
        raise _refused(path, N_("it is damaged: what it says of its source is not readable"))
    about = bytes(data[start : start + about_length])
    start += about_length
    start += -start % _ALIGN
    expected = start + 9 * count + _CHECKSUM.size
    if size != expected:
        wrong = (
            N_(
                "it is truncated: {size} bytes where its header announces {count} positions in "
                "{expected} bytes"
            )
            if size < expected
            else N_(
                "it is too long: {size} bytes where its header announces {count} positions in "
                "{expected} bytes"
            )
        )
        raise _refused(path, wrong, size=size, count=count, expected=expected)
    return _Header(kind, name, first, plies, count, about, start)


def _parse(data: memoryview, size: int, path: Path | str) -> Book:
    """The book in ``data`` (the whole file), every rule of the module's docstring checked."""
    header = _header(data, size, path)
    end = size - _CHECKSUM.size
    (checksum,) = _CHECKSUM.unpack_from(data, end)
    if zlib.crc32(data[:end]) != checksum:
        raise _refused(path, N_("it is damaged: its checksum does not match its contents"))
    try:
        game = Game.parse(header.name.decode())
    except (UnicodeDecodeError, InvalidGameError):
        raise _refused(path, N_("its game is not one this inarow knows")) from None
    if not keyable(game):
        raise _refused(path, N_("{game} has no book keys"), game=game.name)
    about = About.from_json(header.about, path)
    if not header.first <= header.plies <= game.cells:
        raise _refused(
            path,
            N_("it is damaged: it holds positions of {first} to {plies} stones on a board of {cells} cells"),
            first=header.first,
            plies=header.plies,
            cells=game.cells,
        )
    count, start = header.count, header.start
    keys = np.frombuffer(data, dtype="<u8", count=count, offset=start)
    scores = np.frombuffer(data, dtype="i1", count=count, offset=start + 8 * count)
    if count > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise _refused(path, N_("it is damaged: its keys are not sorted"))
    if count and int(keys[-1]) >> key_bits(game):
        raise _refused(path, N_("it is damaged: a key is larger than the keys of {game}"), game=game.name)
    if count and header.kind == "scores":
        most = (game.cells + 1) // 2
        if int(scores.max()) > most or int(scores.min()) < -most:
            raise _refused(
                path,
                N_("it is damaged: a score lies outside -{most} to {most}, the scale of {game}"),
                most=most,
                game=game.name,
            )
    if count and header.kind == "strategy":
        cells = (scores.astype(np.int64) + 64) % 64
        if not bool(np.all((np.uint64(game.board_mask) >> cells.astype(np.uint64)) & np.uint64(1))):
            raise _refused(path, N_("it is damaged: a move lies off the board of {game}"), game=game.name)
    return Book(
        game=game,
        plies=header.plies,
        keys=keys.view(np.uint64),
        scores=scores.view(np.int8),
        kind=header.kind,
        first=header.first,
        about=about,
    )
