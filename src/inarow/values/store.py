"""The game history: every game and every move, kept in SQLite.

One row per game in ``games`` (the game's rules by name, the mode, the level, which side the person plays)
and one row per move in ``moves``, written in its own transaction the moment it is played, so a process
killed mid-game loses nothing. A position is never stored: it is replayed from the moves. Beside the games,
``solutions`` remembers the exact scores the server's searches found (see :meth:`Store.remember`).

The database runs in WAL mode with ``synchronous=NORMAL``: a commit survives the process being killed
(only a power cut can lose the last commits), and readers never wait for the writer. The schema carries
its version in ``PRAGMA user_version``; :data:`MIGRATIONS` takes any older file up to :data:`SCHEMA_VERSION`.

A :class:`Store` is safe to share between threads: one connection, one lock, short transactions. A store
opened ``exclusive`` (the web server's) holds an ``flock`` on the database file itself for as long as it is
open: the lock belongs to the file (its device and inode), not to the name it was opened by, so a second
server on the same file refuses to start whether it names it by the same path, a symbolic link or a hard
link, and a failed start leaves nothing behind. It also checks the file page by page (``PRAGMA
quick_check``) before serving from it: a damaged file is refused at start, in one line.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from inarow.base.errors import StaleMoveError, StoreError, UnknownGameError
from inarow.base.i18n import N_

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's own locking is all there is
    fcntl = None  # type: ignore[assignment]

Mode = Literal["computer", "humans", "computers"]
"""``computer``: a person against the engine; ``humans``: two people on one device; ``computers``: the
engine against itself, to watch."""

By = Literal["human", "computer"]

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        game        TEXT NOT NULL,                 -- Game.name, read back by Game.parse
        mode        TEXT NOT NULL CHECK (mode IN ('computer', 'humans', 'computers')),
        level       TEXT NOT NULL,                 -- the computer's level (unused with two people)
        human       TEXT CHECK (human IN ('x', 'o')),  -- the side the person plays, x moving first
        symbol      TEXT NOT NULL CHECK (symbol IN ('x', 'o')),  -- the mark the person chose to see
        first       TEXT NOT NULL,                 -- who was asked to move first: you, computer, random
        seed        INTEGER NOT NULL,              -- the computer's moves replay from it
        created     REAL NOT NULL,
        updated     REAL NOT NULL,
        result      TEXT CHECK (result IN ('x', 'o', 'draw'))  -- kept in step with the moves
    );
    CREATE TABLE moves (
        game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply         INTEGER NOT NULL CHECK (ply >= 1),
        move        TEXT NOT NULL,
        by          TEXT NOT NULL CHECK (by IN ('human', 'computer')),
        note        TEXT NOT NULL DEFAULT '',
        played      REAL NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_update ON games (updated DESC);
    """,
    """
    -- Computer against computer with two different players: each side's player by name, as
    -- inarow.play.players.player reads it. NULL in older games and in the other modes: the level plays.
    ALTER TABLE games ADD COLUMN x_player TEXT;
    ALTER TABLE games ADD COLUMN o_player TEXT;
    """,
    """
    -- Remembered solutions: the exact score of a position the server solved, for the side to move, so
    -- that the next player to reach it (or a symmetric image) is answered without a search. The oldest
    -- rows go first once there are more than MAX_SOLUTIONS.
    CREATE TABLE solutions (
        game        TEXT NOT NULL,                 -- Game.name
        key         INTEGER NOT NULL,              -- inarow.engines.books.keys.key: one per symmetry class
        score       INTEGER NOT NULL, UNIQUE (game, key)
    );
    """,
    """
    -- The class board: what a student's browser graded and sent (inarow.teaching.grading.grade_choices
    -- scored the moves it sent, and the source is text shown to the teacher, never run). One row per class
    -- and name: a new submission replaces the old.
    CREATE TABLE submissions (
        class       TEXT NOT NULL DEFAULT '',      -- the class code given ('' for none)
        name        TEXT NOT NULL,
        evaluation  TEXT NOT NULL,                 -- the function's name
        algorithm   TEXT NOT NULL,
        depth       INTEGER,                       -- NULL: to the end of the game
        game        TEXT NOT NULL,
        kept        INTEGER NOT NULL,
        positions   INTEGER NOT NULL,
        source      TEXT NOT NULL,
        report      TEXT NOT NULL,                 -- the grade's fields as JSON (blunders and all)
        submitted   REAL NOT NULL, PRIMARY KEY (class, name)
    );
    """,
    """
    -- The class board as a history (inarow.values.classboard): a student is a name in a class, claimed by
    -- the browser that first submitted under it (the SHA-256 of the secret it was given), on a roster or
    -- not, with the last error its e(P) met. Every submission is kept, with the moves and values the
    -- browser posted and the teacher's check of them. Older boards keep their rows, unclaimed, compared by
    -- their name in lower case.
    CREATE TABLE students (
        class       TEXT NOT NULL DEFAULT '',      -- inarow.values.names.class_code
        key         TEXT NOT NULL,                 -- inarow.values.names.name_key of the name
        name        TEXT NOT NULL,                 -- as shown
        number      TEXT NOT NULL DEFAULT '',      -- the roster's student number ('' when on none)
        secret      TEXT,                          -- SHA-256 of the claim's secret, hex (NULL: not claimed)
        error       TEXT,                          -- the last error of the student's e(P), as said
        error_at    REAL,
        PRIMARY KEY (class, key)
    );
    ALTER TABLE submissions RENAME TO submissions_before_history;
    CREATE TABLE submissions (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        class       TEXT NOT NULL DEFAULT '',
        key         TEXT NOT NULL,
        name        TEXT NOT NULL,                 -- as shown when submitted
        evaluation  TEXT NOT NULL,
        algorithm   TEXT NOT NULL,
        depth       INTEGER,
        game        TEXT NOT NULL,
        kept        INTEGER NOT NULL,
        positions   INTEGER NOT NULL,
        source      TEXT NOT NULL,
        report      TEXT NOT NULL,
        submitted   REAL NOT NULL,
        moves       TEXT NOT NULL DEFAULT '',      -- the moves posted, one per graded position
        value_list  TEXT NOT NULL DEFAULT '[]',    -- the values posted with them, as JSON
        verified    TEXT NOT NULL DEFAULT 'no' CHECK (verified IN ('no', 'yes', 'flagged')),
        checked     INTEGER NOT NULL DEFAULT 0,    -- positions the teacher's browser ran the source on
        differing   INTEGER NOT NULL DEFAULT 0,    -- of those, where it chose another move than posted
        FOREIGN KEY (class, key) REFERENCES students (class, key) ON DELETE CASCADE
    );
    CREATE INDEX submissions_by_student ON submissions (class, key, id);
    INSERT OR IGNORE INTO students (class, key, name)
        SELECT class, lower(name), name FROM submissions_before_history ORDER BY submitted;
    INSERT INTO submissions (class, key, name, evaluation, algorithm, depth, game, kept, positions, source,
                             report, submitted)
        SELECT class, lower(name), name, evaluation, algorithm, depth, game, kept, positions, source, report,
               submitted FROM submissions_before_history ORDER BY submitted;
    DROP TABLE submissions_before_history;
    """,
    """
    -- A class's settings, chosen by the teacher: whether its students see the ranking (names and figures,
    -- never sources). A class without a row has every setting off.
    CREATE TABLE classes (
        class       TEXT PRIMARY KEY,              -- inarow.values.names.class_code
        ranking     INTEGER NOT NULL DEFAULT 0 CHECK (ranking IN (0, 1))
    );
    """,
    """
    -- A student's own search, checked node by node in their browser (inarow.teaching.checking): the
    -- latest check's algorithm, how many cases were exact of how many, and the first failing case's fields
    -- as JSON (NULL when every case was exact), as the student's page posted them.
    ALTER TABLE students ADD COLUMN search_algorithm TEXT;
    ALTER TABLE students ADD COLUMN search_passed INTEGER;
    ALTER TABLE students ADD COLUMN search_total INTEGER;
    ALTER TABLE students ADD COLUMN search_failed TEXT;
    ALTER TABLE students ADD COLUMN search_at REAL
    """,
)
"""Migration ``i`` takes a database from schema version ``i`` to ``i + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)

MAX_SOLUTIONS = 500_000

_PLAYED = "EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id)"
"""The games listed in the history: those with a move played."""
"""The most remembered solutions kept (about 30 MB of file); beyond, the oldest are dropped."""

_SQL_VARIABLES = 500
"""Keys asked for per query (SQLite limits the variables of one statement)."""

_INSERT_GAME = """
    INSERT INTO games (id, game, mode, level, human, symbol, first, seed, created, updated, result,
                       x_player, o_player)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
"""


CANNOT_OPEN = N_("cannot open the game history at {path}: {reason}")


@dataclass(frozen=True, kw_only=True)
class MoveRecord:
    """One stored move; ``ply`` counts from 1."""

    ply: int
    move: str
    by: By
    note: str
    played: float


@dataclass(frozen=True, kw_only=True)
class GameRecord:
    """One stored game with its moves in order."""

    id: str
    game: str
    mode: Mode
    level: str
    human: str | None
    symbol: str
    first: str
    seed: int
    created: float
    updated: float
    result: str | None
    moves: tuple[MoveRecord, ...] = ()
    x_player: str | None = None
    """The player of side x in a computer-against-computer game (None: the level plays)."""
    o_player: str | None = None


@dataclass(frozen=True)
class Score:
    """The person's results against the computer in one kind of game."""

    game: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def counted(self, outcome: Literal["win", "draw", "loss"]) -> Score:
        """This score with one more game of ``outcome``."""
        return replace(
            self,
            wins=self.wins + (outcome == "win"),
            draws=self.draws + (outcome == "draw"),
            losses=self.losses + (outcome == "loss"),
        )


class Store:
    """The SQLite file of games at ``path`` (``":memory:"`` for a throwaway one), created on first use."""

    def __init__(self, path: Path | str, *, exclusive: bool = False) -> None:
        """Open (creating it if need be) the file at ``path``; with ``exclusive``, refuse if another process
        holds it exclusively (through any name of the file) and refuse a damaged file. Raises
        :class:`StoreError` naming the path and what is wrong with it."""
        self.path = str(path)
        self._lock = threading.Lock()
        self._lock_file: int | None = None
        try:
            if self.path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                if Path(path).is_dir():
                    raise StoreError(CANNOT_OPEN, reason=N_("it is a folder, not a file"), path=self.path)
                if exclusive:
                    self._lock_file = self._hold_lock()
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
        except OSError as error:
            self._release_lock()
            raise StoreError(
                CANNOT_OPEN, reason="{why}", path=self.path, why=error.strerror or str(error)
            ) from None
        except sqlite3.Error as error:
            self._release_lock()
            raise StoreError(CANNOT_OPEN, reason="{why}", path=self.path, why=str(error)) from None
        try:
            self._db.row_factory = sqlite3.Row
            if exclusive and self.path != ":memory:":
                self._check_pages()
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.Error as error:
            self._db.close()
            self._release_lock()
            raise StoreError(CANNOT_OPEN, reason="{why}", path=self.path, why=str(error)) from None
        except StoreError:
            self._db.close()
            self._release_lock()
            raise

    def _hold_lock(self) -> int | None:
        """An open descriptor of the database file holding an exclusive ``flock`` on it (the file is
        created if need be). ``flock`` locks are independent of SQLite's own (POSIX record locks), and the
        descriptor stays open until :meth:`close`, after SQLite's connection is closed."""
        if fcntl is None:  # pragma: no cover
            return None
        handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            raise StoreError(
                N_(
                    "cannot open the game history at {path}: another inarow serve is using this file "
                    "(under this name or another); stop that one or choose another file with --db"
                ),
                reason=N_("another inarow serve is using it"),
                path=self.path,
            ) from None
        return handle

    def _release_lock(self) -> None:
        if self._lock_file is not None:
            os.close(self._lock_file)
            self._lock_file = None

    def _check_pages(self) -> None:
        """Refuse a file whose pages SQLite finds damaged (``PRAGMA quick_check``), naming the first fault."""
        faults = [str(row[0]) for row in self._db.execute("PRAGMA quick_check(1)").fetchall()]
        if faults != ["ok"]:
            raise StoreError(
                N_(
                    "cannot open the game history at {path}: the file is damaged ({fault}); restore it from "
                    "a copy or choose another file with --db"
                ),
                reason=N_("the file is damaged"),
                path=self.path,
                fault=" ".join(" ".join(faults).split()),
            )

    def close(self) -> None:
        """Close the connection (and release the lock); the store cannot be used afterwards."""
        with self._lock:
            self._db.close()
            self._release_lock()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _migrate(self) -> None:
        with self._transaction() as db:
            version: int = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    N_(
                        "cannot open the game history at {path}: it has schema version {version} and "
                        "this inarow reads up to {supported}: upgrade inarow or choose another file with --db"
                    ),
                    reason=N_("it was written by a newer inarow"),
                    path=self.path,
                    version=version,
                    supported=SCHEMA_VERSION,
                )
            for number in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def schema_version(self) -> int:
        """The version of the schema in the file."""
        with self._lock:
            version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
            return version

    # ----------------------------------------------------------------------------------- writes
    def create_game(
        self,
        id: str,
        game: str,
        mode: Mode,
        level: str,
        human: str | None,
        symbol: str,
        first: str,
        seed: int,
        x_player: str | None = None,
        o_player: str | None = None,
    ) -> GameRecord:
        """Store a new game with no moves yet and return it."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                _INSERT_GAME,
                (id, game, mode, level, human, symbol, first, seed, now, now, x_player, o_player),
            )
        return GameRecord(
            id=id,
            game=game,
            mode=mode,
            level=level,
            human=human,
            symbol=symbol,
            first=first,
            seed=seed,
            created=now,
            updated=now,
            result=None,
            x_player=x_player,
            o_player=o_player,
        )

    def add_move(self, game_id: str, ply: int, move: str, by: By, note: str, result: str | None) -> None:
        """Commit move number ``ply`` of a game and the game's result after it, in one transaction.

        Raises :class:`StaleMoveError`, changing nothing, unless ``ply`` is the next one (two requests raced
        for the same move): a game never has a gap.
        """
        self.add_moves(game_id, ply, [(move, by, note)], result)

    def add_moves(
        self, game_id: str, ply: int, moves: Sequence[tuple[str, By, str]], result: str | None
    ) -> None:
        """Commit ``moves`` (move, by, note) as moves ``ply``, ``ply + 1``… of a game and the game's result
        after them, all in one transaction: a person's move and the computer's reply are stored together
        or not at all.

        Raises :class:`StaleMoveError`, changing nothing, unless ``ply`` is the next one.
        """
        now = time.time()
        try:
            with self._transaction() as db:
                last = db.execute("SELECT MAX(ply) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0]
                if (last or 0) != ply - 1:
                    raise sqlite3.IntegrityError("not the next ply")
                db.executemany(
                    "INSERT INTO moves (game_id, ply, move, by, note, played) VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, ply + n, move, by, note, now) for n, (move, by, note) in enumerate(moves)],
                )
                db.execute("UPDATE games SET updated = ?, result = ? WHERE id = ?", (now, result, game_id))
        except sqlite3.IntegrityError:
            raise StaleMoveError(
                N_("move {ply} of game {game_id!r} was already played: reload the game"),
                ply=ply,
                game_id=game_id,
                reason="the game has moved on: reload the game",
            ) from None

    def remove_moves(self, game_id: str, from_ply: int, result: str | None) -> None:
        """Delete the moves from ``from_ply`` on (undo) and set the result after the moves that remain."""
        with self._transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, from_ply))
            db.execute(
                "UPDATE games SET updated = ?, result = ? WHERE id = ?", (time.time(), result, game_id)
            )

    def remember(self, game: str, scores: Mapping[int, int], limit: int = MAX_SOLUTIONS) -> None:
        """Keep the exact scores of positions of ``game`` (key → score, see :mod:`inarow.engines.books.keys`);
        a key already kept keeps its score (exact scores do not change). At most ``limit`` rows stay: the
        oldest are dropped first."""
        if not scores:
            return
        rows = [(game, key, score) for key, score in scores.items()]
        with self._transaction() as db:
            db.executemany("INSERT OR IGNORE INTO solutions (game, key, score) VALUES (?, ?, ?)", rows)
            db.execute(
                "DELETE FROM solutions WHERE rowid <= (SELECT MAX(rowid) FROM solutions) - ?", (limit,)
            )

    # ------------------------------------------------------------------------------------ reads
    def solutions(self, game: str, keys: Sequence[int]) -> dict[int, int]:
        """The kept scores of the positions ``keys`` of ``game`` that are remembered (key → score)."""
        found: dict[int, int] = {}
        with self._lock:
            for start in range(0, len(keys), _SQL_VARIABLES):
                part = list(keys[start : start + _SQL_VARIABLES])
                marks = ", ".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT key, score FROM solutions WHERE game = ? AND key IN ({marks})", (game, *part)
                ).fetchall()
                found.update((row["key"], row["score"]) for row in rows)
        return found

    def solution_count(self) -> int:
        """How many solutions are remembered, every game together."""
        with self._lock:
            total: int = self._db.execute("SELECT COUNT(*) FROM solutions").fetchone()[0]
            return total

    def load(self, game_id: str) -> GameRecord:
        """The game ``game_id`` with its moves. Raises :class:`UnknownGameError`."""
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGameError(
                    N_("unknown game {game_id!r}: no game with this id is stored"), game_id=game_id
                )
            moves = self._db.execute(
                "SELECT ply, move, by, note, played FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        fields = ("ply", "move", "by", "note", "played")
        return _record(row, tuple(MoveRecord(**{name: m[name] for name in fields}) for m in moves))

    def games(self, limit: int = 50, offset: int = 0) -> list[tuple[GameRecord, int]]:
        """The most recently played games first, each with its number of moves (the moves not loaded).
        A game with no move yet (a page opened, a New game pressed twice) is not one played: left out."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies FROM games g"
                f" WHERE {_PLAYED} ORDER BY g.updated DESC, g.id LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
        return [(_record(row, ()), row["plies"]) for row in rows]

    def delete_game(self, game_id: str) -> None:
        """Forget the game ``game_id`` and its moves. Raises :class:`UnknownGameError`."""
        with self._transaction() as db:
            if db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount == 0:
                raise UnknownGameError(
                    N_("unknown game {game_id!r}: no game with this id is stored"), game_id=game_id
                )
            db.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))

    def count(self) -> int:
        """How many games are stored."""
        with self._lock:
            total: int = self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            return total

    def scores(self) -> list[Score]:
        """Per kind of game, the finished games a person played against the computer: won, drawn, lost."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game,"
                " SUM(result = human) AS wins,"
                " SUM(result = 'draw') AS draws,"
                " SUM(result <> 'draw' AND result <> human) AS losses"
                " FROM games WHERE mode = 'computer' AND result IS NOT NULL GROUP BY game ORDER BY game"
            ).fetchall()
        return [Score(r["game"], r["wins"], r["draws"], r["losses"]) for r in rows]


def _record(row: sqlite3.Row, moves: tuple[MoveRecord, ...]) -> GameRecord:
    columns = ("id", "game", "mode", "level", "human", "symbol", "first", "seed", "created", "updated")
    return GameRecord(
        **{name: row[name] for name in columns},
        result=row["result"],
        moves=moves,
        x_player=row["x_player"],
        o_player=row["o_player"],
    )
