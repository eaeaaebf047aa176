"""What the exact searches consult before searching: the opening books and the remembered solutions.

- **Books**: the files named by the environment variable :data:`BOOK_VARIABLE` (paths separated by ``:``), the
  books kept in the user's data folder (:func:`user_folder`: where ``inarow book import`` puts them, and where
  the first use imports Connect Four's 12-ply book unless :data:`IMPORT_VARIABLE` says not to), and the books
  shipped in the package for the game (``inarow/engines/books/data/GAME.book``, Connect Four's opening book;
  in a wheel also ``GAME-N.book``, its 12-ply book, see :func:`shipped_leaf_paths`); each book
  answers for its own game. ``INAROW_BOOK=off`` turns every book off. A book is memory-mapped once per
  process, when a position of its game is first asked about. The deepest of a game's books is also the exact
  engines' leaf book (:func:`leaf_book`): their compiled search probes it wherever it reaches that book's last
  ply, so that every earlier position is solved by a shallow search. Strategy books (``GAME.strategy`` in the
  package, or named in the same variable) are not consulted for scores: level ``perfect`` asks them for its
  move (:func:`strategies`, :mod:`inarow.engines.books.strategy`).
- **Remembered solutions**: within :func:`remembering`, the scores given (the server passes those its store
  keeps for the position and what follows it) answer too, and every exact score the search computes that
  cost at least ``min_nodes`` positions (default :data:`REMEMBER_MIN_NODES`) is collected, for the caller
  to keep.

:class:`Recalling` wraps an exact engine: it answers from these first and searches only what they do not
know. The analysis (:func:`inarow.engines.policy.analyze`) goes through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

from inarow.engines.books.keys import key, keyable, position_key, position_of
from inarow.engines.exact.solver import ExactSolver
from inarow.engines.limits import Budget, SearchAborted
from inarow.engines.scores import sign
from inarow.rules.game import Game, Position, other
from inarow.rules.symmetry import symmetries
from inarow.values.answers import Source

if TYPE_CHECKING:
    from inarow.engines.books.file import Book

BOOK_VARIABLE = "INAROW_BOOK"
"""Extra book files to consult (paths separated by ``:``), or ``off``: none, not even the shipped one."""

IMPORT_VARIABLE = "INAROW_BOOK_IMPORT"
"""``off`` (or ``0``, ``no``): the book that ``inarow book import`` brings is not imported on its own when a
command, ``inarow warm-up`` or the server first needs it (:func:`to_import`)."""

REMEMBER_MIN_NODES = 20_000
"""An exact score is collected for remembering only if its search explored at least this many positions
(a few milliseconds): cheaper ones cost less to find again than to keep."""


def shipped_path(game: Game, suffix: str = ".book") -> Path | None:
    """The book shipped in the package for ``game`` (with ``suffix=".strategy"``: its strategy book), if
    there is one."""
    name = game.name.replace(":", "_") + suffix
    found = Path(__file__).parent / "data" / name
    return found if found.is_file() else None


def shipped_leaf_paths(game: Game) -> list[Path]:
    """The leaf books a wheel ships for ``game`` (``data/GAME-N.book``: Connect Four's 12-ply book, converted
    from ``bitbully-databases`` when the wheel is built, so that a fresh install needs no import), deepest
    first; none in a checkout, which imports it into the user's data folder on first use instead."""
    stem = game.name.replace(":", "_") + "-"
    found = (Path(__file__).parent / "data").glob(f"{stem}*.book")
    return sorted(found, key=lambda path: path.name, reverse=True)


def user_folder() -> Path:
    """The folder of the books kept for every command and the server: ``books`` in the user's data folder
    (``platformdirs.user_data_dir("inarow")``, on Linux ``$XDG_DATA_HOME/inarow/books``)."""
    return Path(platformdirs.user_data_dir("inarow", appauthor=False)) / "books"


def user_path(game: Game, plies: int) -> Path:
    """Where the book of ``game`` at ``plies`` plies is kept in :func:`user_folder`."""
    return user_folder() / f"{game.name.replace(':', '_')}-{plies}.book"


def _kept(game: Game) -> list[str]:
    """The books of :func:`user_folder` named for ``game``, deepest first."""
    folder = user_folder()
    stem = game.name.replace(":", "_") + "-"
    try:
        found = [p for p in folder.iterdir() if p.name.startswith(stem) and p.suffix == ".book"]
    except OSError:
        return []
    return [str(p) for p in sorted(found, key=lambda p: p.name, reverse=True)]


@cache
def _load(path: str) -> Book:
    from inarow.engines.books.file import Book  # numpy, only once there is a book to read

    return Book.load(path)


def books(game: Game) -> tuple[Book, ...]:
    """The books consulted for positions of ``game``: those of :data:`BOOK_VARIABLE`, then the shipped one.

    Raises :class:`~inarow.base.errors.BookError` when a file named cannot be used."""
    return tuple(b for b in _books(game, os.environ.get(BOOK_VARIABLE, "").strip()) if b.kind == "scores")


def strategies(game: Game) -> tuple[Book, ...]:
    """The strategy books of ``game``: those of :data:`BOOK_VARIABLE`, then the shipped one."""
    return tuple(b for b in _books(game, os.environ.get(BOOK_VARIABLE, "").strip()) if b.kind == "strategy")


def _books(game: Game, setting: str) -> tuple[Book, ...]:
    # the kept books are listed at every call, so that a book imported by another process is seen
    return _books_of(game, setting, () if _off(setting) or not keyable(game) else tuple(_kept(game)))


def _off(setting: str) -> bool:
    return setting.lower() in ("off", "none", "0")


@cache
def _books_of(game: Game, setting: str, kept: tuple[str, ...]) -> tuple[Book, ...]:
    if _off(setting) or not keyable(game):
        return ()
    paths = [p for p in setting.split(os.pathsep) if p]
    paths += kept
    paths += [str(path) for path in shipped_leaf_paths(game)]
    for suffix in (".book", ".strategy"):
        shipped = shipped_path(game, suffix)
        if shipped is not None:
            paths.append(str(shipped))
    return tuple(book for book in map(_load, paths) if book.game == game)


def leaf_book(game: Game) -> Book | None:
    """The book the exact engines of ``game`` probe inside their search: the one of :func:`books` that
    reaches the most plies, if it reaches past the first two."""
    found = max(books(game), key=lambda book: book.plies, default=None)
    return found if found is not None and found.plies > 2 else None


IMPORTABLE = {Game(7, 6, 4, gravity=True): 12}
"""The books ``inarow book import`` can bring, by game: their ply."""


def importable_book(position: Position) -> int | None:
    """The ply of the book ``inarow book import`` would bring for ``position``'s game, when that book is
    not installed and would answer this position by a shallow search (it has fewer stones); else None."""
    game = position.game
    ply = IMPORTABLE.get(Game(game.columns, game.rows, game.k, gravity=game.gravity))
    if ply is None or position.ply >= ply or not keyable(game):
        return None
    leaf = leaf_book(game)
    return ply if leaf is None or leaf.plies < ply else None


def to_import(game: Game) -> int | None:
    """The ply of the book that ``inarow book import`` brings for ``game``, when it is to be imported on
    first use: it is not there, books are not turned off (:data:`BOOK_VARIABLE`), its import is not
    (:data:`IMPORT_VARIABLE`) and its source is installed; else None."""
    plain = Game(game.columns, game.rows, game.k, gravity=game.gravity)
    ply = IMPORTABLE.get(plain)
    if ply is None or game != plain or _off(os.environ.get(BOOK_VARIABLE, "").strip()):
        return None
    if os.environ.get(IMPORT_VARIABLE, "").strip().lower() in ("off", "0", "no", "false"):
        return None
    leaf = leaf_book(game)
    if leaf is not None and leaf.plies >= ply:
        return None
    from importlib.util import find_spec

    return ply if find_spec("bitbully_databases") is not None else None


def attach_leaf_book(game: Game, solver: object) -> bool:
    """Give ``solver`` :func:`leaf_book`'s positions to probe, if it can (a compiled engine's
    ``use_book``) and there is one; whether it did."""
    use = getattr(solver, "use_book", None)
    book = leaf_book(game) if use is not None else None
    if book is None or use is None:
        return False
    use(book.keys, book.scores, book.plies)
    return True


@dataclass(kw_only=True)
class Memory:
    """Scores known for positions of ``game`` beyond the books (``known``, key → score), and those the
    searches found while it was in use (``learned``): those whose search explored at least ``min_nodes``
    positions."""

    game: Game
    known: Mapping[int, int] = field(default_factory=dict)
    learned: dict[int, int] = field(default_factory=dict)
    min_nodes: int = REMEMBER_MIN_NODES


_memory: ContextVar[Memory | None] = ContextVar("inarow_memory", default=None)


@contextmanager
def remembering(
    game: Game, known: Mapping[int, int] | None = None, min_nodes: int = REMEMBER_MIN_NODES
) -> Iterator[Memory]:
    """Within the block, searches of ``game`` answer from ``known`` (key → score) too, and collect what they
    solve with at least ``min_nodes`` positions explored in the :class:`Memory` yielded."""
    memory = Memory(game=game, known=dict(known or {}), min_nodes=min_nodes)
    token = _memory.set(memory)
    try:
        yield memory
    finally:
        _memory.reset(token)


def recall(game: Game, cur: int, opp: int) -> int | None:
    """The exact score of the position for the side to move (``cur``), if a book or the memory knows it."""
    found = from_book(game, cur, opp)
    return _remembered(game, cur, opp) if found is None else found


def from_book(game: Game, cur: int, opp: int) -> int | None:
    """The exact score of the position for the side to move (``cur``), if a book knows it."""
    if not keyable(game):
        return None
    for book in books(game):
        score = book.score(cur, opp)
        if score is not None:
            return score
    return None


def _remembered(game: Game, cur: int, opp: int) -> int | None:
    """The exact score of the position, if the memory of :func:`remembering` knows it."""
    if not keyable(game):
        return None
    memory = _memory.get()
    if memory is None or memory.game != game:
        return None
    value = key(game, cur, opp)
    found = memory.known.get(value)
    return memory.learned.get(value) if found is None else found


def learn(game: Game, cur: int, opp: int, score: int, nodes: int) -> None:
    """Collect a score found by a search of ``nodes`` positions, when :func:`remembering` and worth it."""
    memory = _memory.get()
    if memory is not None and memory.game == game and nodes >= memory.min_nodes and keyable(game):
        memory.learned[key(game, cur, opp)] = score


def covers(position: Position) -> bool:
    """Whether every move of ``position`` leads to a finished game or to a position whose score is known,
    so that its analysis needs no search."""
    game = position.game
    if not keyable(game) or position.is_over:
        return False
    for _, child in position.children():
        if not child.is_over and recall(game, *child.sides()) is None:
            return False
    return True


def neighbourhood(position: Position, depth: int = 2) -> list[int]:
    """The keys of the positions up to ``depth`` plies after ``position`` (itself excluded) whose game
    goes on: what its analysis asks about first (the moves, then the line of best play)."""
    if not keyable(position.game):
        return []
    found: set[int] = set()
    level = [position]
    for _ in range(depth):
        following = []
        for each in level:
            for _, child in each.children():
                if not child.is_over:
                    found.add(position_key(child))
                    following.append(child)
        level = following
    return sorted(found)


class Recalling:
    """An exact engine that answers from the books and the memory first (see the module's docstring).

    ``make`` builds the engine the first time a position is not known (None: raise SearchAborted instead,
    for an answer from what is known alone); the engine is given the game's :func:`leaf_book` to probe.
    :attr:`source` says where the last score came from."""

    def __init__(self, game: Game, budget: Budget, make: Callable[[], ExactSolver] | None) -> None:
        self.game, self.budget, self._make = game, budget, make
        self._solver: ExactSolver | None = None
        self.source: Source = "search"
        """Where the last score :meth:`solve` gave came from."""

    def solve(self, cur: int, opp: int, weak: bool = False) -> int:
        """The exact score (or with ``weak`` its sign) of a position that is not over."""
        known = from_book(self.game, cur, opp)
        self.source = "book"
        if known is None:
            known = _remembered(self.game, cur, opp)
            self.source = "search"
        if known is not None:
            return sign(known) if weak else known
        if self._solver is None:
            if self._make is None:
                raise SearchAborted
            self._solver = self._make()
            attach_leaf_book(self.game, self._solver)
        before = self.budget.nodes
        score = self._solver.solve(cur, opp, weak)
        if not weak:
            learn(self.game, cur, opp, score, self.budget.nodes - before)
        return score


# ------------------------------------------------------------------------------- strategy books
def encode(value: int, bit: int) -> int:
    """One signed byte for a value (1 win, 0 draw, -1 loss) and a move's cell bit (0 to 63):
    ``64 * value + bit``, from -64 to 127."""
    assert value in (-1, 0, 1) and 0 <= bit < 64, (value, bit)
    return 64 * value + bit


def decode(code: int) -> tuple[int, int]:
    """The value and cell bit of :func:`encode`'s ``code``."""
    return (code + 64) // 64 - 1, (code + 64) % 64


def recall_move(position: Position) -> tuple[int, int] | None:
    """The value of ``position`` for the side to move and a move (cell bit) that keeps it, if a strategy
    book of its game (or of the same board with the other side moving first) holds the position; None
    otherwise."""
    game = position.game
    if not keyable(game) or position.is_over:
        return None
    cur, opp = position.sides()
    # Keys are from the side to move's standpoint: a game where O moves first has the same positions.
    books = strategies(game) or strategies(replace(game, first=other(game.first)))
    for book in books:
        code = book.score(cur, opp)
        if code is None:
            continue
        value, bit = decode(code)
        return value, _mapped(position, bit)
    return None


def _mapped(position: Position, bit: int) -> int:
    """The move of ``position`` that is the move ``bit`` of its keyed image: the one whose position after it
    is, up to symmetry, the image's after ``bit``."""
    game = position.game
    canonical = symmetries(game).canonical_key
    image = position_of(game, position_key(position)).play(bit)
    wanted = canonical(image.x, image.o)
    for move in position.legal_bits():
        after = position.play(move)
        if canonical(after.x, after.o) == wanted:
            return move
    raise AssertionError("the strategy book's move is not a move of the position")  # pragma: no cover
