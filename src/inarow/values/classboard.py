"""The class board, kept in the store: who each student is, everything they submitted, what the teacher's
check found.

A *student* is a name in a class, compared by its key (:func:`inarow.values.names.name_key`). The first
submission under a name *claims* it: the store keeps the SHA-256 of a secret the server made and gave to
that browser, and every later submission or report under the name must carry the secret, else
:class:`~inarow.base.errors.NameTakenError` and nothing changes. The teacher may *release* a name (the
claim goes, the history stays: the next submission claims it again) or import a *roster* (student
numbers and names), so that the board lists who has not submitted.

Every submission is kept with the moves and the values the browser posted; the board shows each student's
latest and how many there are. The teacher's browser re-runs a submission's source on some of its positions
and stores its verdict: ``verified`` is ``no`` (not checked), ``yes`` (every position checked chose the
move posted) or ``flagged`` (some did not), with the positions ``checked`` and ``differing``.

A student whose e(P) fails (raises, loops, does not compile) may report the error, kept per student with
its time, so that the teacher sees who is stuck. A student who checked their own search
(:mod:`inarow.teaching.checking`) may report the check: the algorithm, the cases exact of how many, the
first failing case; the latest is kept per student.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from inarow.base.errors import InarowError, NameTakenError
from inarow.base.i18n import N_
from inarow.values.store import Store

Verdict = Literal["no", "yes", "flagged"]

SECRET_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""The characters of a claim's secret: capitals and digits a student copies from a screen without mixing
them up (no I, L, O, 0, 1)."""

SECRET_LENGTH = 12
"""Characters of a secret: 12 of 31 are some 59 bits, shown as three groups of four (``ABCD-EFGH-JKMN``)."""

TAKEN = N_(
    "this name is taken: {name!r} was claimed by another browser; type your code for it (shown when you "
    "first submitted), choose another name, or ask the teacher to release it"
)


@dataclass(frozen=True, kw_only=True)
class Submission:
    """One submission to the class board: who (``name`` in ``klass``), the evaluation and how it searched,
    how many of the positions graded its moves kept, its ``source`` (text, never run), the grade's fields
    as JSON text (``report``), when it was submitted (seconds since the epoch), the ``moves`` and the
    ``values`` (JSON text) the browser posted, and the teacher's check. Read from the board, ``id`` is its
    number, ``count`` how many submissions its student has and ``number`` the student's roster number."""

    klass: str
    name: str
    evaluation: str
    algorithm: str
    depth: int | None
    game: str
    kept: int
    positions: int
    source: str
    report: str
    submitted: float
    moves: str = ""
    values: str = "[]"
    id: int = 0
    verified: Verdict = "no"
    checked: int = 0
    differing: int = 0
    count: int = 1
    number: str = ""


@dataclass(frozen=True, kw_only=True)
class Student:
    """A student of a class: the ``name`` shown, its ``key``, the roster's ``number`` (``''``: on none),
    whether a browser has ``claimed`` the name, the last ``error`` its e(P) met and when (``error_at``),
    how many ``submissions`` and the time of the latest (``last``, None without one), and the latest check
    of their own search (``search``, None without one)."""

    klass: str
    key: str
    name: str
    number: str
    claimed: bool
    error: str | None
    error_at: float | None
    submissions: int
    last: float | None
    search: SearchCheck | None = None


@dataclass(frozen=True, kw_only=True)
class SearchCheck:
    """The latest check of a student's own search, as their page posted it: the ``algorithm`` it was
    compared with, ``passed`` cases exact of ``total``, the first failing case's fields as JSON text
    (``failed``, None when every case was exact), when (``at``)."""

    algorithm: str
    passed: int
    total: int
    failed: str | None
    at: float


def new_secret() -> str:
    """A fresh secret of :data:`SECRET_LENGTH` characters of :data:`SECRET_ALPHABET`, from ``secrets``."""
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def plain_secret(text: str) -> str:
    """A secret as typed (``abcd-efgh jkmn``) as it was made: capitals, without dashes and spaces."""
    return "".join(character for character in text.upper() if character not in "- \u00a0\t")


def _digest(secret: str) -> str:
    return hashlib.sha256(plain_secret(secret).encode("utf-8", "surrogatepass")).hexdigest()


_LATEST = """
    SELECT s.*, st.number AS number,
           (SELECT COUNT(*) FROM submissions h WHERE h.class = s.class AND h.key = s.key) AS count
    FROM submissions s JOIN students st ON st.class = s.class AND st.key = s.key
    WHERE s.id = (SELECT MAX(h.id) FROM submissions h WHERE h.class = s.class AND h.key = s.key)
"""


class ClassBoard:
    """The class board of a :class:`~inarow.values.store.Store` (the tables of its fifth migration)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----------------------------------------------------------------------------------- writes
    def submit(self, submission: Submission, key: str, secret: str | None) -> tuple[Submission, str | None]:
        """Keep ``submission`` under the student ``key`` of its class: the stored submission (its ``id``
        and ``count`` filled) and, when this submission claimed the name, the secret made for it (None
        when the name was already this browser's).

        Raises :class:`~inarow.base.errors.NameTakenError`, changing nothing, when the name is claimed and
        ``secret`` is not its secret."""
        fresh: str | None = None
        with self.store._transaction() as db:
            student = db.execute(
                "SELECT secret FROM students WHERE class = ? AND key = ?", (submission.klass, key)
            ).fetchone()
            if student is None or student["secret"] is None:
                fresh = new_secret()
                db.execute(
                    "INSERT INTO students (class, key, name, secret) VALUES (?, ?, ?, ?) ON CONFLICT "
                    "(class, key) DO UPDATE SET secret = excluded.secret",
                    (submission.klass, key, submission.name, _digest(fresh)),
                )
            elif not _same(secret, student["secret"]):
                raise NameTakenError(TAKEN, name=submission.name, reason=N_("this name is taken"))
            db.execute(
                "UPDATE students SET error = NULL, error_at = NULL WHERE class = ? AND key = ?",
                (submission.klass, key),
            )
            cursor = db.execute(
                "INSERT INTO submissions (class, key, name, evaluation, algorithm, depth, game, kept,"
                " positions, source, report, submitted, moves, value_list)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    submission.klass,
                    key,
                    submission.name,
                    submission.evaluation,
                    submission.algorithm,
                    submission.depth,
                    submission.game,
                    submission.kept,
                    submission.positions,
                    submission.source,
                    submission.report,
                    submission.submitted,
                    submission.moves,
                    submission.values,
                ),
            )
            stored = db.execute(_LATEST + " AND s.id = ?", (cursor.lastrowid,)).fetchone()
        return _submission(stored), fresh

    def report_error(
        self, klass: str, key: str, name: str, secret: str | None, error: str, at: float
    ) -> None:
        """Keep ``error`` (what the student's page said) as the student's last, at ``at``. A student not
        on the board yet is added, unclaimed. Raises :class:`~inarow.base.errors.NameTakenError`, changing
        nothing, when the name is claimed and ``secret`` is not its secret."""
        with self.store._transaction() as db:
            _refuse_unless_held(db, klass, key, name, secret)
            db.execute(
                "INSERT INTO students (class, key, name, error, error_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT"
                " (class, key) DO UPDATE SET error = excluded.error, error_at = excluded.error_at",
                (klass, key, name, error, at),
            )

    def report_search(self, klass: str, key: str, name: str, secret: str | None, check: SearchCheck) -> None:
        """Keep ``check`` as the student's latest check of their own search. A student not on the board yet
        is added, unclaimed. Raises :class:`~inarow.base.errors.NameTakenError`, changing nothing, when the
        name is claimed and ``secret`` is not its secret."""
        with self.store._transaction() as db:
            _refuse_unless_held(db, klass, key, name, secret)
            db.execute(
                "INSERT INTO students (class, key, name, search_algorithm, search_passed, search_total,"
                " search_failed, search_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (class, key) DO UPDATE SET search_algorithm = excluded.search_algorithm,"
                " search_passed = excluded.search_passed, search_total = excluded.search_total,"
                " search_failed = excluded.search_failed, search_at = excluded.search_at",
                (klass, key, name, check.algorithm, check.passed, check.total, check.failed, check.at),
            )

    def verify(self, id: int, verified: Verdict, checked: int, differing: int) -> bool:
        """Keep the teacher's check of submission ``id``; False when there is no such submission."""
        with self.store._transaction() as db:
            return (
                db.execute(
                    "UPDATE submissions SET verified = ?, checked = ?, differing = ? WHERE id = ?",
                    (verified, checked, differing, id),
                ).rowcount
                == 1
            )

    def release(self, klass: str, key: str) -> bool:
        """Forget the claim on the student ``key`` (its submissions stay): the next submission under the name
        claims it again. False when the class has no such student."""
        with self.store._transaction() as db:
            return (
                db.execute(
                    "UPDATE students SET secret = NULL WHERE class = ? AND key = ?", (klass, key)
                ).rowcount
                == 1
            )

    def import_roster(self, klass: str, students: Sequence[tuple[str, str, str]]) -> tuple[int, int]:
        """Put ``students`` (number, shown name, key) on the class's roster, all or none: a student already on
        the board gets the number and the roster's spelling of the name. How many were (added, already
        there)."""
        added = 0
        with self.store._transaction() as db:
            for number, name, key in students:
                cursor = db.execute(
                    "INSERT INTO students (class, key, name, number) VALUES (?, ?, ?, ?) ON CONFLICT"
                    " (class, key) DO NOTHING",
                    (klass, key, name, number),
                )
                if cursor.rowcount == 1:
                    added += 1
                else:
                    db.execute(
                        "UPDATE students SET number = ?, name = ? WHERE class = ? AND key = ?",
                        (number, name, klass, key),
                    )
        return added, len(students) - added

    def ranking_open(self, klass: str) -> bool:
        """Whether the teacher shows the class ``klass``'s students its ranking (off until turned on)."""
        with self.store._lock:
            row = self.store._db.execute("SELECT ranking FROM classes WHERE class = ?", (klass,)).fetchone()
        return bool(row is not None and row["ranking"])

    def open_ranking(self, klass: str, shown: bool) -> None:
        """Show the class ``klass``'s students its ranking, or stop showing it."""
        with self.store._transaction() as db:
            db.execute(
                "INSERT INTO classes (class, ranking) VALUES (?, ?) ON CONFLICT (class) DO UPDATE SET"
                " ranking = excluded.ranking",
                (klass, int(shown)),
            )

    def clear(self, klass: str | None = None) -> int:
        """Empty the board (of class ``klass``, or every class): every submission, claim and error goes;
        the roster's students stay, unclaimed. How many students had submissions."""
        where, arguments = ("WHERE class = ?", (klass,)) if klass is not None else ("", ())
        with self.store._transaction() as db:
            had = db.execute(
                f"SELECT COUNT(DISTINCT class || '/' || key) FROM submissions {where}", arguments
            )
            removed: int = had.fetchone()[0]
            db.execute(f"DELETE FROM submissions {where}", arguments)
            also = "AND" if where else "WHERE"
            db.execute(f"DELETE FROM students {where} {also} number = ''", arguments)
            db.execute(
                "UPDATE students SET secret = NULL, error = NULL, error_at = NULL, search_algorithm = NULL,"
                f" search_passed = NULL, search_total = NULL, search_failed = NULL, search_at = NULL {where}",
                arguments,
            )
        return removed

    # ------------------------------------------------------------------------------------ reads
    def latest(self, klass: str | None = None) -> list[Submission]:
        """Each student's latest submission (of class ``klass``, or every class), the latest first."""
        query, arguments = _LATEST, ()
        if klass is not None:
            query, arguments = query + " AND s.class = ?", (klass,)  # type: ignore[assignment]
        with self.store._lock:
            rows = self.store._db.execute(
                query + " ORDER BY s.submitted DESC, s.id DESC", arguments
            ).fetchall()
        return [_submission(row) for row in rows]

    def history(self, klass: str, key: str) -> list[Submission]:
        """Every submission of the student ``key`` of class ``klass``, the latest first."""
        with self.store._lock:
            rows = self.store._db.execute(
                "SELECT s.*, st.number AS number, 0 AS count FROM submissions s JOIN students st"
                " ON st.class = s.class AND st.key = s.key WHERE s.class = ? AND s.key = ?"
                " ORDER BY s.id DESC",
                (klass, key),
            ).fetchall()
        return [_submission(row, count=len(rows)) for row in rows]

    def students(self, klass: str | None = None) -> list[Student]:
        """The students (of class ``klass``, or every class): on the roster, claimed, or stuck, with or
        without a submission; by class, then roster number, then name."""
        query = (
            "SELECT st.*, COUNT(s.id) AS submissions, MAX(s.submitted) AS last FROM students st"
            " LEFT JOIN submissions s ON s.class = st.class AND s.key = st.key"
        )
        arguments: tuple[str, ...] = ()
        if klass is not None:
            query, arguments = query + " WHERE st.class = ?", (klass,)
        with self.store._lock:
            rows = self.store._db.execute(
                query + " GROUP BY st.class, st.key ORDER BY st.class, st.number = '', st.number, st.name",
                arguments,
            ).fetchall()
        return [
            Student(
                klass=row["class"],
                key=row["key"],
                name=row["name"],
                number=row["number"],
                claimed=row["secret"] is not None,
                error=row["error"],
                error_at=row["error_at"],
                submissions=row["submissions"],
                last=row["last"],
                search=None
                if row["search_algorithm"] is None
                else SearchCheck(
                    algorithm=row["search_algorithm"],
                    passed=row["search_passed"],
                    total=row["search_total"],
                    failed=row["search_failed"],
                    at=row["search_at"],
                ),
            )
            for row in rows
        ]

    def student(self, klass: str, key: str) -> Student | None:
        """The student ``key`` of class ``klass``, None when the board has none."""
        return next((s for s in self.students(klass) if s.key == key), None)

    def holds(self, klass: str, key: str, secret: str | None) -> bool:
        """Whether ``secret`` is the secret of the claim on the student ``key`` (False when unclaimed)."""
        with self.store._lock:
            row = self.store._db.execute(
                "SELECT secret FROM students WHERE class = ? AND key = ?", (klass, key)
            ).fetchone()
        return row is not None and row["secret"] is not None and _same(secret, row["secret"])


def _refuse_unless_held(db: sqlite3.Connection, klass: str, key: str, name: str, secret: str | None) -> None:
    """Raise :class:`~inarow.base.errors.NameTakenError` when the student ``key`` of class ``klass`` is
    claimed and ``secret`` is not its secret (an unclaimed or unknown student passes)."""
    student = db.execute("SELECT secret FROM students WHERE class = ? AND key = ?", (klass, key)).fetchone()
    if student is not None and student["secret"] is not None and not _same(secret, student["secret"]):
        raise NameTakenError(TAKEN, name=name, reason=N_("this name is taken"))


def _same(secret: str | None, digest: str) -> bool:
    return secret is not None and hmac.compare_digest(_digest(secret), digest)


def _submission(row: sqlite3.Row, count: int | None = None) -> Submission:
    return Submission(
        klass=row["class"],
        name=row["name"],
        evaluation=row["evaluation"],
        algorithm=row["algorithm"],
        depth=row["depth"],
        game=row["game"],
        kept=row["kept"],
        positions=row["positions"],
        source=row["source"],
        report=row["report"],
        submitted=row["submitted"],
        moves=row["moves"],
        values=row["value_list"],
        id=row["id"],
        verified=row["verified"],
        checked=row["checked"],
        differing=row["differing"],
        count=row["count"] if count is None else count,
        number=row["number"],
    )


__all__ = ["ClassBoard", "InarowError", "SearchCheck", "Student", "Submission", "Verdict"]
