"""Reading the 12-ply Connect Four database of BitBully into a leaf book of inarow's own format.

Source: the PyPI package ``bitbully-databases`` (Markus Thill, MIT licence; a dependency of inarow), file
``assets/book_12ply_distances.dat``: the exact score, with the distance to the end, of the Connect Four
positions of 12 stones (player 1, X, to move) that a search meets — 4,200,899 of them, one of each mirror
pair, in 21 MB. Its format, as the package's own pure-Python reader
(``BitBullyDatabases._readline`` and ``_to_huffman``) reads it:

- one record of 5 bytes per position, sorted by the first four read as a signed big-endian integer;
- bytes 1-4, big-endian: the board's Huffman code, read from its most significant bit, the columns from
  left to right and each from the bottom up: ``10`` a stone of player 1, ``11`` one of player 2, ``0``
  the end of the column (also after a full column); the 12 stones and 7 ends take 31 bits, and a last
  ``0`` pads the code to 32;
- byte 5, signed: 0 a draw; ``v > 0`` player 1 wins with the ``100 - v``-th stone from now; ``v < 0``
  player 2 wins with the ``100 + v``-th.

With 12 stones on the board player 1 is to move, and the winner's stone is stone ``112 - |v|`` of the
game, so the score on inarow's scale (Pons': ``(C + 1 - n) // 2`` for a win with the stone played when
``n`` stones are on the board) is ``sign(v) * ((|v| - 68) // 2)``. Positions where player 1 wins with its
next stone are not in the database (nor need they be: the search sees them before it looks).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from importlib import metadata, resources
from pathlib import Path

import numpy as np

from inarow.base.errors import BookError
from inarow.base.i18n import N_
from inarow.engines.books.file import About, Book
from inarow.rules.game import Game

PACKAGE = "bitbully-databases"
"""The PyPI distribution that holds the database."""
ASSET = "assets/book_12ply_distances.dat"
"""The database's file inside the package ``bitbully_databases``."""
LICENCE = "MIT"
PLIES = 12
CONNECT4 = Game(7, 6, 4, gravity=True)
_RECORD = 5


def database_path() -> Path:
    """The database file of the installed ``bitbully-databases``; raises :class:`BookError` if it is not
    installed."""
    try:
        found = resources.files("bitbully_databases").joinpath(ASSET)
    except ModuleNotFoundError:
        found = None
    if found is None or not found.is_file():
        raise BookError(
            N_("cannot import the book of {source}: {reason}"),
            reason=N_("the package is not installed (pip install bitbully-databases)"),
            source=PACKAGE,
        )
    return Path(str(found))


def source_name() -> str:
    """``bitbully-databases`` and its installed version."""
    try:
        return f"{PACKAGE} {metadata.version(PACKAGE)}"
    except metadata.PackageNotFoundError:
        return PACKAGE


def _refused(path: Path, problem: str, **params: object) -> BookError:
    return BookError(
        N_("cannot import the book {path!r}: {reason}"), reason=problem, path=str(path), **params
    )


def read(path: Path | None = None) -> Book:
    """The database at ``path`` (default: :func:`database_path`) as a leaf book of Connect Four at 12
    plies, keyed and scored as inarow's books are. Raises :class:`BookError` for a file that is not such a
    database (its size, a code that is not one of 12 stones, 6 of each player, a score off the scale)."""
    path = path or database_path()
    size = path.stat().st_size
    if size % _RECORD or size == 0 or size > 64 * _RECORD * 1_000_000:
        raise _refused(path, N_("its size, {size} bytes, is not that of 5-byte records"), size=size)
    raw = np.fromfile(path, dtype=np.uint8).reshape(-1, _RECORD)
    code = np.ascontiguousarray(raw[:, :4]).view(">u4").ravel()
    value = raw[:, 4].view(np.int8).astype(np.int64)
    x, o, ok = _decode(code)
    if not bool(ok.all()):
        bad = int(np.argmin(ok))
        raise _refused(path, N_("record {index} is not a board of 12 stones"), index=bad + 1)
    absolute = np.abs(value)
    if not bool(np.all((value == 0) | ((absolute >= 70) & (absolute <= 99)))):
        bad = int(np.argmax(~((value == 0) | ((absolute >= 70) & (absolute <= 99)))))
        raise _refused(path, N_("record {index} has the score {score}"), index=bad + 1, score=int(value[bad]))
    scores = (np.sign(value) * ((absolute - 68) // 2)).astype(np.int8)
    keys = _keys(x, o)  # X moves: X's stones are the side to move's
    order = np.argsort(keys, kind="stable")
    keys, scores = keys[order], scores[order]
    if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise _refused(path, N_("it holds a position twice"))
    about = About(source=source_name(), licence=LICENCE)
    return Book(game=CONNECT4, plies=PLIES, first=PLIES, keys=keys, scores=scores, about=about)


def import_book(
    target: Path | None = None,
    *,
    sample: int = 200,
    seed: int = 0,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[Path, Book]:
    """Read the installed database (:func:`read`), check ``sample`` of its positions against inarow's own
    search (:func:`inarow.engines.books.verify.check`, ``seed``), and save it to ``target`` (default: the
    user's data folder, where every command and the server look): the path and the book. ``progress``
    hears ``(phase, done, total)`` with the phases ``reading`` and ``checking``. Raises
    :class:`BookError` for a database missing or not whole, or a position whose score differs."""
    from inarow.engines.books import verify
    from inarow.engines.books.recall import user_path

    report = progress or (lambda phase, done, total: None)
    report("reading", 0, 1)
    book = read()
    report("reading", 1, 1)
    target = target or user_path(book.game, book.plies)
    checked = verify.check(
        book, target, sample=sample, seed=seed, progress=lambda done, total: report("checking", done, total)
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    checked.save(target)
    return target, checked


FIRST_USE_SAMPLE = 50
"""The positions checked by inarow's own search when the book is imported on first use (about 2 s of the
import's 4; ``inarow book import`` checks 200 unless told otherwise)."""


def import_missing(
    game: Game,
    *,
    progress: Callable[[str, int, int], None] | None = None,
    starting: Callable[[], None] | None = None,
) -> tuple[Path, Book] | None:
    """Import the book into the user's data folder if ``game`` is to have it imported on first use
    (:func:`inarow.engines.books.recall.to_import`), checking :data:`FIRST_USE_SAMPLE` positions: the path
    and the book, or None when there was nothing to do. One process imports at a time (a lock file beside
    the books); the others wait for it, then find the book there. ``starting`` is called when the import
    starts. Raises :class:`BookError` as :func:`import_book` does."""
    from inarow.engines.books.recall import to_import, user_folder

    if to_import(game) is None:
        return None
    folder = user_folder()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".import.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if to_import(game) is None:  # another process imported it meanwhile
            return None
        _sweep(folder)
        if starting is not None:
            starting()
        return import_book(sample=FIRST_USE_SAMPLE, progress=progress)


def _sweep(folder: Path) -> None:
    """Remove the temporary files that a process stopped while saving a book left in ``folder``
    (``<book>.<pid>.tmp``, :meth:`Book.save`) once their process is gone."""
    for leftover in folder.glob("*.tmp"):
        pid = leftover.suffixes[-2][1:] if len(leftover.suffixes) >= 2 else ""
        if pid.isdigit() and not _running(int(pid)):
            leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _decode(code: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Player 1's and player 2's stones (inarow's layout) of each 32-bit Huffman code, and whether the code
    is a board of 6 stones of each: :func:`_decode_codes`, compiled (a second the first time, then loaded
    from numba's cache; a quarter of a second for the whole database)."""
    from numba import njit

    decode = njit(cache=True)(_decode_codes)
    x, o, ok = decode(code.astype(np.uint64), CONNECT4.columns, CONNECT4.height, CONNECT4.rows)
    ok &= (np.bitwise_count(x) == PLIES // 2) & (np.bitwise_count(o) == PLIES // 2)
    return x, o, ok


def _decode_codes(
    code: np.ndarray, columns: int, height: int, rows: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each code read from its most significant bit: ``10`` a stone of player 1 in the current column,
    ``11`` one of player 2, ``0`` the column's end; a code is whole when its seven columns end at bit 31
    (counted from 0) and that bit is 0, with no column over ``rows`` stones."""
    n = len(code)
    x = np.zeros(n, dtype=np.uint64)
    o = np.zeros(n, dtype=np.uint64)
    ok = np.ones(n, dtype=np.bool_)
    one = np.uint64(1)
    for i in range(n):
        bits = code[i]
        at = column = row = 0
        mine = theirs = np.uint64(0)
        whole = True
        while column < columns:
            if at > 31 or ((bits >> np.uint64(31 - at)) & one) == 0:  # the column's end (past 31: none)
                whole = whole and at <= 31
                column, row, at = column + 1, 0, at + 1
                continue
            if at == 31 or row >= rows:  # a stone whose second bit is missing, or a column too high
                whole = False
                break
            placed = one << np.uint64(column * height + row)
            if (bits >> np.uint64(30 - at)) & one:
                theirs |= placed
            else:
                mine |= placed
            row, at = row + 1, at + 2
        x[i], o[i] = mine, theirs
        ok[i] = whole and at == 31 and (bits & one) == 0
    return x, o, ok


def _mirror(bits: np.ndarray) -> np.ndarray:
    height = np.uint64(CONNECT4.height)
    column = np.uint64((1 << CONNECT4.height) - 1)
    out = np.zeros_like(bits)
    last = CONNECT4.columns - 1
    for c in range(CONNECT4.columns):
        out |= ((bits >> (np.uint64(c) * height)) & column) << (np.uint64(last - c) * height)
    return out


def _keys(cur: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """:func:`inarow.engines.books.keys.key` of each position (``cur`` to move), on whole arrays: the least of
    the pair and its mirror image, then Pons' key."""
    mirrored_cur, mirrored_opp = _mirror(cur), _mirror(opp)
    flip = (mirrored_cur < cur) | ((mirrored_cur == cur) & (mirrored_opp < opp))
    cur = np.where(flip, mirrored_cur, cur)
    opp = np.where(flip, mirrored_opp, opp)
    keys: np.ndarray = cur + (cur | opp) + np.uint64(CONNECT4.bottom_mask)
    return keys
