"""The class board: students submit their graded e(P) (``POST /api/class``) and the teacher reads the board
at ``/class``. Who may ask what is :mod:`inarow.web.roles`'s table: the students' routes take a name, a
class code and the secret their first submission was given; the teacher's read the sources, the history,
the CSV, release names, import a roster and store the teacher's browser's check of a submission.

A row belongs to the student who first submitted under the name (:mod:`inarow.values.classboard`): a later
submission without the name's secret is refused (409, "this name is taken") and changes nothing. Names and
class codes are normalised and compared as :mod:`inarow.values.names` says. The source is stored as text
and shown escaped, never imported, compiled or run.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter
from typing_extensions import TypedDict

from inarow.base import i18n
from inarow.base.errors import InarowError, NameTakenError, UnknownStudentError
from inarow.base.i18n import N_, _
from inarow.engines.textbook import algorithm_named, check_algorithm
from inarow.values.classboard import TAKEN, ClassBoard, SearchCheck, Student, Submission
from inarow.values.names import MAX_CLASS, MAX_NAME, class_code, name_key, shown_name
from inarow.web.deps import BODY, SessionsDep, WorkDep, responses
from inarow.web.routes.lab import MovesGraded, graded
from inarow.web.routes.pages import STATIC

MAX_SOURCE = 100_000
"""The longest e(P) source kept on the board, in characters: a long file with comments in any language
(a student's 70,914-byte file with Chinese comments is some 30,000)."""

MAX_ERROR = 2_000
"""The longest error a stuck student's page reports, in characters."""

MAX_ROSTER = 60_000
"""The longest roster, in characters of CSV (some 2,000 students)."""

MAX_NUMBER = 32
"""The longest student number on a roster."""

router = APIRouter(tags=["class"])
files = APIRouter(include_in_schema=False)

# A name or a class code as typed (longer than kept, for the spaces trimmed); each route normalises it by the
# rules of inarow.values.names (:func:`_who`), a refusal (400) naming what is wrong.
Name = Annotated[str, Field(min_length=1, max_length=4 * MAX_NAME)]
ClassCode = Annotated[str, Field(max_length=4 * MAX_CLASS)]
Secret = Annotated[str | None, Field(max_length=64, description="the code the name's first submission gave")]


class Submitted(MovesGraded):
    """A student's submission to the class board: the moves to grade, a name, an optional class code, the
    name's ``secret`` (given by the name's first submission; none for a name not claimed yet) and the
    e(P)'s source (kept as text, never run)."""

    name: Name
    klass: ClassCode = Field("", alias="class", description="the class code ('' for none)")
    source: str = Field("", max_length=MAX_SOURCE)
    secret: Secret = None


class Who(BaseModel):
    """A student: name, class code, and the secret of the name (when it has one)."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    klass: ClassCode = Field("", alias="class", description="the class code ('' for none)")
    secret: Secret = None


class Stuck(Who):
    """The error a student's e(P) met in their browser (it raised, ran too long, did not compile), as the
    page said it, for the teacher to see."""

    error: str = Field(min_length=1, max_length=MAX_ERROR)


class FailedCase(BaseModel):
    """The first case a student's own search failed, as ``inarow check --json`` gives its fields: enough to
    open it as a tree (a tree's ``leaves``, or a board's ``position`` searched ``depth`` plies with MAX
    ``max``) and to say where it parted (``divergence``)."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(max_length=64)
    kind: Literal["tree", "random", "board"]
    leaves: str | None = Field(None, max_length=20_000)
    position: str | None = Field(None, max_length=200)
    depth: int = Field(ge=0, le=20)
    max: Literal["x", "o"] = "x"
    divergence: dict[str, Any] | None = None


class SearchChecked(Who):
    """A student's own search checked in their browser against ``algorithm`` (a textbook algorithm's name):
    ``passed`` cases exact of ``total``, and the first that was not (``failed``, null when none)."""

    algorithm: str = Field(max_length=40)
    passed: int = Field(ge=0, le=1_000)
    total: int = Field(ge=1, le=1_000)
    failed: FailedCase | None = None


class Verification(BaseModel):
    """The teacher's browser's check of submission ``id``: it ran the source on ``checked`` of the posted
    positions and found ``differing`` where it chose another move than was posted; ``verified`` is ``yes``
    (none differs) or ``flagged``."""

    model_config = ConfigDict(extra="forbid")

    id: int = Field(ge=1)
    verified: Literal["yes", "flagged"]
    checked: int = Field(ge=0, le=100_000)
    differing: int = Field(ge=0, le=100_000)

    def check(self) -> None:
        """Raise :class:`InarowError` unless the counts agree: no more differing than checked, none with
        ``yes``."""
        if self.differing > self.checked:
            raise InarowError(
                N_("differing ({differing}) is more than checked ({checked})"),
                differing=self.differing,
                checked=self.checked,
            )
        if self.verified == "yes" and self.differing:
            raise InarowError(
                N_("verified 'yes' with {differing} differing positions: send 'flagged'"),
                differing=self.differing,
            )


class Released(BaseModel):
    """A name the teacher releases: its claim goes, its submissions stay."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    klass: ClassCode = Field("", alias="class", description="the class code ('' for none)")


class Roster(BaseModel):
    """A class's roster as CSV: one student a line, ``number,name`` (学号,姓名); a header line, a BOM, blank
    lines and tabs for commas are allowed."""

    model_config = ConfigDict(extra="forbid")

    klass: ClassCode = Field("", alias="class", description="the class code ('' for none)")
    csv: str = Field(max_length=MAX_ROSTER)


def _json_bytes(characters: int) -> int:
    """The most bytes ``characters`` characters of a JSON string take: twelve, a character outside the
    Basic Multilingual Plane written as two ``\\uXXXX`` escapes."""
    return 12 * characters


VALUE_BYTES = 48
"""The bytes allowed one value of ``values`` with its separator (a number or ``inf`` as JSON writes it)."""

GRADE_BODY = 20_000 + 10_000 * VALUE_BYTES + _json_bytes(64 + 64 + 32) + 4_096
"""The largest body of ``POST /api/lab/grade``: its fields at their limits (moves, values, the names), and
room for the keys and punctuation."""

SUBMISSION_BODY = GRADE_BODY + _json_bytes(MAX_SOURCE + 4 * MAX_NAME + 4 * MAX_CLASS + 64)
"""The largest body of ``POST /api/class``: a grade's, with a whole source, a name, a class and a secret."""

BODY_LIMITS = {"/api/lab/grade": GRADE_BODY, "/api/class": SUBMISSION_BODY}
"""The routes whose bodies may pass the server's default limit, sized from their fields."""


class BoardRow(TypedDict):
    """One student's latest submission on the class board: ``report`` is the grade's fields (``inarow
    grade --json``); ``id`` the submission's number, ``submissions`` how many the student has made;
    ``verified`` the teacher's check (``no``, ``yes``, ``flagged``) with the positions ``checked`` and
    ``differing``; ``moves`` and ``values`` what the browser posted; ``number`` the roster's student
    number ('' for none)."""

    id: int
    name: str
    class_code: str
    number: str
    evaluation: str
    algorithm: str
    depth: int | None
    game: str
    kept: int
    positions: int
    accuracy: float
    source: str
    submitted: float
    report: Any
    submissions: int
    verified: str
    checked: int
    differing: int
    moves: str
    values: list[float | str]


BOARD_JSON = TypeAdapter(list[BoardRow])
"""The board as FastAPI writes a response model (a value sent as NaN, or none sent, is null)."""


class Claimed(BoardRow):
    """``POST /api/class``'s answer: the student's row, and ``secret``, the code made when this submission
    claimed the name (None when the name was already this browser's): the page keeps it and shows it once."""

    secret: str | None


class NameState(TypedDict):
    """``POST /api/class/check``: the name and class code as the board keeps them, and whether the name is
    ``free`` (no browser has claimed it), ``yours`` (the secret sent is its) or ``taken``."""

    name: str
    class_code: str
    state: Literal["free", "yours", "taken"]
    submissions: int


class StudentRow(TypedDict):
    """A student of ``GET /api/class/students``: on the roster (``number``), ``claimed`` by a browser, stuck
    (the last ``error`` of its e(P) and when, ``error_at``), with ``submissions`` (the latest at ``last``)."""

    name: str
    class_code: str
    number: str
    claimed: bool
    error: str | None
    error_at: float | None
    submissions: int
    last: float | None
    search: SearchJSON | None


class SearchJSON(TypedDict):
    """A student's latest check of their own search: the ``algorithm`` compared with, ``passed`` cases
    exact of ``total``, the first failing case (``failed``: :class:`FailedCase`'s fields, or null), when
    (``at``)."""

    algorithm: str
    passed: int
    total: int
    failed: dict[str, Any] | None
    at: float


def _row(submission: Submission) -> BoardRow:
    return {
        "id": submission.id,
        "name": submission.name,
        "class_code": submission.klass,
        "number": submission.number,
        "evaluation": submission.evaluation,
        "algorithm": submission.algorithm,
        "depth": submission.depth,
        "game": submission.game,
        "kept": submission.kept,
        "positions": submission.positions,
        "accuracy": round(submission.kept / submission.positions, 6) if submission.positions else 1.0,
        "source": submission.source,
        "submitted": submission.submitted,
        "report": json.loads(submission.report),
        "submissions": submission.count,
        "verified": submission.verified,
        "checked": submission.checked,
        "differing": submission.differing,
        "moves": submission.moves,
        "values": json.loads(submission.values),
    }


def _student(student: Student) -> StudentRow:
    return {
        "name": student.name,
        "class_code": student.klass,
        "number": student.number,
        "claimed": student.claimed,
        "error": student.error,
        "error_at": student.error_at,
        "submissions": student.submissions,
        "last": student.last,
        "search": None
        if student.search is None
        else {
            "algorithm": student.search.algorithm,
            "passed": student.search.passed,
            "total": student.search.total,
            "failed": None if student.search.failed is None else json.loads(student.search.failed),
            "at": student.search.at,
        },
    }


def _who(name: str, klass: str) -> tuple[str, str, str]:
    """The name as shown, its key and the class code of a request (:mod:`inarow.values.names`). Raises
    :class:`~inarow.base.errors.InvalidNameError` (a 400) naming what is wrong."""
    shown = shown_name(name)
    return shown, name_key(shown), class_code(klass)


def _class_of(klass: str | None) -> str | None:
    return None if klass is None else class_code(klass)


def _unknown(name: str, klass: str) -> UnknownStudentError:
    return UnknownStudentError(
        N_("no student {name!r} in class {klass!r} on the board"),
        name=name,
        klass=klass,
        reason=N_("no such student"),
    )


ClassQuery = Query(None, max_length=4 * MAX_CLASS, alias="class", description="a class code")


# ---------------------------------------------------------------------------------- the students'
@router.post("/api/class", responses=responses(400, 409, 503, *BODY))
async def submit(body: Submitted, sessions: SessionsDep, work: WorkDep) -> Claimed:
    """Put a student's graded moves on the class board, kept with the student's earlier ones; the row as the
    board shows it and, when this submission claimed the name, its ``secret``. A name claimed by another
    browser needs its secret: 409 ("this name is taken") without it, and nothing changes."""

    name, key, klass = _who(body.name, body.klass)

    def kept() -> Claimed:
        report = graded(body)
        submission = Submission(
            klass=klass,
            name=name,
            evaluation=body.evaluation,
            algorithm=report["algorithm"],
            depth=body.depth,
            game=report["game"],
            kept=report["kept"],
            positions=report["positions"],
            source=body.source,
            report=json.dumps(report),
            submitted=time.time(),
            moves=" ".join(body.moves.split()),
            values=json.dumps(body.values),
        )
        stored, secret = ClassBoard(sessions.store).submit(submission, key, body.secret)
        return {**_row(stored), "secret": secret}

    return await work.teach(kept)


@router.post("/api/class/check", responses=responses(400, *BODY))
async def check(body: Who, sessions: SessionsDep, work: WorkDep) -> NameState:
    """Whether a name may be submitted under before the browser grades: the name and class code as kept
    (a refusal names what is wrong with them: 422), and whether the name is free, this browser's or taken."""

    name, key, klass = _who(body.name, body.klass)

    def state() -> NameState:
        board = ClassBoard(sessions.store)
        student = board.student(klass, key)
        said: Literal["free", "yours", "taken"] = "free"
        if student is not None and student.claimed:
            said = "yours" if board.holds(klass, key, body.secret) else "taken"
        count = student.submissions if student is not None and said != "taken" else 0
        return {"name": name, "class_code": klass, "state": said, "submissions": count}

    return await work.cheap(state)


@router.post("/api/class/mine", responses=responses(400, 409, *BODY))
async def mine(body: Who, sessions: SessionsDep, work: WorkDep) -> list[BoardRow]:
    """A student's own submissions, the latest first: the name's secret is needed (409 without it)."""

    name, key, klass = _who(body.name, body.klass)

    def rows() -> list[BoardRow]:
        board = ClassBoard(sessions.store)
        if not board.holds(klass, key, body.secret):
            raise NameTakenError(TAKEN, name=name, reason=N_("this name is taken"))
        return [_row(row) for row in board.history(klass, key)]

    return await work.cheap(rows)


@router.post("/api/class/stuck", responses=responses(400, 409, *BODY))
async def stuck(body: Stuck, sessions: SessionsDep, work: WorkDep) -> StudentRow:
    """Report the error a student's e(P) met (it raised, ran too long, did not compile), shown to the
    teacher on the board with its time until the student submits; a claimed name needs its secret (409)."""

    name, key, klass = _who(body.name, body.klass)

    def kept() -> StudentRow:
        board = ClassBoard(sessions.store)
        board.report_error(klass, key, name, body.secret, body.error, time.time())
        found = board.student(klass, key)
        assert found is not None
        return _student(found)

    return await work.cheap(kept)


@router.post("/api/class/search", responses=responses(400, 409, *BODY))
async def search_checked(body: SearchChecked, sessions: SessionsDep, work: WorkDep) -> StudentRow:
    """Report the check of a student's own search, run in their browser (the server runs nothing): shown
    to the teacher on the board, the first failing case opening as its tree; a claimed name needs its
    secret (409). What is posted is what the student's page found; the server does not check it again."""

    name, key, klass = _who(body.name, body.klass)
    if body.passed > body.total:
        raise InarowError(
            N_("invalid check: {passed} cases exact of {total}"), passed=body.passed, total=body.total
        )
    algorithm = check_algorithm(body.algorithm)
    failed = None if body.failed is None else json.dumps(body.failed.model_dump(), ensure_ascii=False)

    def kept() -> StudentRow:
        board = ClassBoard(sessions.store)
        check = SearchCheck(
            algorithm=algorithm, passed=body.passed, total=body.total, failed=failed, at=time.time()
        )
        board.report_search(klass, key, name, body.secret, check)
        found = board.student(klass, key)
        assert found is not None
        return _student(found)

    return await work.cheap(kept)


# ----------------------------------------------------------------------------------- the teacher's
@router.get("/api/class", response_model=list[BoardRow], responses=responses(400, 403, 422))
async def board(
    request: Request, sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery
) -> Response:
    """The class board (one class, or every class): each student's latest submission, the latest first.
    Answered with an ETag: a page that polls gets 304 while nothing changed."""
    code = _class_of(klass)
    rows = await work.cheap(lambda: ClassBoard(sessions.store).latest(code))
    tag = hashlib.sha256(
        repr([(r.id, r.count, r.verified, r.checked, r.differing, r.number) for r in rows]).encode()
    ).hexdigest()[:32]
    etag = f'"{tag}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    # As FastAPI writes a response model: a value the browser sent as NaN (none sent) is null.
    body = BOARD_JSON.dump_json([_row(row) for row in rows])
    return Response(body, media_type="application/json", headers=headers)


@router.get("/api/class/students", responses=responses(400, 403, 422))
async def students(sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery) -> list[StudentRow]:
    """The students (one class, or every class): on the roster, with a claim, stuck, with or without a
    submission — the board shows from it who has not submitted and who is stuck."""
    code = _class_of(klass)
    return await work.cheap(lambda: [_student(s) for s in ClassBoard(sessions.store).students(code)])


@router.get("/api/class/history", responses=responses(400, 403, 404, 422))
async def history(
    sessions: SessionsDep,
    work: WorkDep,
    name: Annotated[str, Query(min_length=1, max_length=4 * MAX_NAME)],
    klass: str | None = ClassQuery,
) -> list[BoardRow]:
    """Every submission of one student, the latest first."""
    shown, code = shown_name(name), _class_of(klass) or ""

    def rows() -> list[BoardRow]:
        found = ClassBoard(sessions.store).history(code, name_key(shown))
        if not found:
            raise _unknown(shown, code)
        return [_row(row) for row in found]

    return await work.cheap(rows)


@router.post("/api/class/verification", responses=responses(400, 403, 404, *BODY))
async def verification(body: Verification, sessions: SessionsDep, work: WorkDep) -> Verification:
    """Keep the teacher's browser's check of a submission: the board shows the mark and counts the flagged
    rows."""

    body.check()

    def kept() -> Verification:
        if not ClassBoard(sessions.store).verify(body.id, body.verified, body.checked, body.differing):
            raise UnknownStudentError(
                N_("no submission {id} on the board"), id=body.id, reason=N_("no such submission")
            )
        return body

    return await work.cheap(kept)


@router.post("/api/class/release", responses=responses(400, 403, 404, *BODY))
async def release(body: Released, sessions: SessionsDep, work: WorkDep) -> NameState:
    """Release a name: its claim goes (its submissions stay), and the next submission under it claims it
    again — a student who lost the code, or a second student of the same name after the first chose
    another."""

    name, key, klass = _who(body.name, body.klass)

    def released() -> NameState:
        board = ClassBoard(sessions.store)
        if not board.release(klass, key):
            raise _unknown(name, klass)
        student = board.student(klass, key)
        count = student.submissions if student is not None else 0
        return {"name": name, "class_code": klass, "state": "free", "submissions": count}

    return await work.cheap(released)


class RosterAnswer(TypedDict):
    """How a roster went in: students ``added`` to the class, ``updated`` (on the board already, now with
    the roster's number and spelling), and how many ``students`` the class has now."""

    added: int
    updated: int
    students: int


HEADER_WORDS = frozenset(
    {"学号", "姓名", "名字", "number", "no", "no.", "id", "name", "student", "student number"}
)


def _roster(text: str) -> list[tuple[str, str, str]]:
    """The students of a roster's CSV (see :class:`Roster`): (number, shown name, key). Raises
    :class:`InarowError` naming the first line that cannot be read."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    delimiter = "\t" if lines and "\t" in lines[0] and "," not in lines[0] else ","
    found: list[tuple[str, str, str]] = []
    seen: dict[str, int] = {}
    for number, cells in enumerate(csv.reader(lines, delimiter=delimiter), start=1):
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        if not found and not seen and {cell.casefold() for cell in cells if cell} <= HEADER_WORDS:
            continue
        if len([cell for cell in cells if cell]) != 2 or not cells[0] or not cells[1]:
            raise InarowError(
                N_("roster line {line}: expected a student number and a name, not {text!r}"),
                line=number,
                text=delimiter.join(cells),
                reason=N_("expected a student number and a name"),
            )
        try:
            student_number = shown_name(cells[0])
            if len(student_number) > MAX_NUMBER:
                raise InarowError(N_("at most {longest} characters"), longest=MAX_NUMBER)
            name = shown_name(cells[1])
        except InarowError as error:
            raise InarowError(
                N_("roster line {line}: {error}"), line=number, error=error, reason=error
            ) from None
        key = name_key(name)
        if key in seen:
            raise InarowError(
                N_("roster line {line}: {name!r} is the name of line {first} too; write them apart"),
                line=number,
                name=name,
                first=seen[key],
                reason=N_("a name twice"),
            )
        seen[key] = number
        found.append((student_number, name, key))
    if not found:
        raise InarowError(N_("the roster has no student: one line a student, number,name"))
    return found


@router.post("/api/class/roster", responses=responses(400, 403, *BODY))
async def roster(body: Roster, sessions: SessionsDep, work: WorkDep) -> RosterAnswer:
    """Put a class's roster on the board (CSV of student number and name), all lines or none: the board
    then lists who has not submitted."""
    listed, klass = _roster(body.csv), class_code(body.klass)

    def kept() -> RosterAnswer:
        board = ClassBoard(sessions.store)
        added, updated = board.import_roster(klass, listed)
        return {"added": added, "updated": updated, "students": len(board.students(klass))}

    return await work.cheap(kept)


class ClassSettings(BaseModel):
    """A class's settings: ``ranking``, whether its students see the ranking (names and figures, never the
    sources)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    klass: ClassCode = Field("", alias="class", description="the class code ('' for none)")
    ranking: StrictBool


class RankedRow(TypedDict):
    """A student on the ranking the students see: the latest submission's figures, never its source, moves
    or blunders. ``headline`` is the share kept where e(P) decides (None when it decides none)."""

    name: str
    headline: float | None
    accuracy: float
    kept: int
    positions: int
    evaluation: str
    algorithm: str
    depth: int | None
    submissions: int
    submitted: float


class Ranking(TypedDict):
    """``GET /api/class/ranking``: whether the teacher shows it (``open``) and, if so, its rows, best first
    (where e(P) decides, then over every position, then by name)."""

    class_code: str
    open: bool
    rows: list[RankedRow]


def _ranked(row: BoardRow) -> RankedRow:
    decisive = row["report"].get("decisive") if isinstance(row["report"], dict) else None
    headline = decisive.get("share") if isinstance(decisive, dict) and decisive.get("positions") else None
    return {
        "name": row["name"],
        "headline": headline,
        "accuracy": row["accuracy"],
        "kept": row["kept"],
        "positions": row["positions"],
        "evaluation": row["evaluation"],
        "algorithm": row["algorithm"],
        "depth": row["depth"],
        "submissions": row["submissions"],
        "submitted": row["submitted"],
    }


@router.get("/api/class/settings", responses=responses(400, 403, 422))
async def settings(sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery) -> ClassSettings:
    """A class's settings (the teacher's)."""
    code = _class_of(klass) or ""
    shown = await work.cheap(lambda: ClassBoard(sessions.store).ranking_open(code))
    return ClassSettings.model_validate({"class": code, "ranking": shown})


@router.post("/api/class/settings", responses=responses(400, 403, *BODY))
async def change_settings(body: ClassSettings, sessions: SessionsDep, work: WorkDep) -> ClassSettings:
    """Change a class's settings: ``ranking`` shows its students the ranking, without sources."""
    code = class_code(body.klass)
    await work.cheap(lambda: ClassBoard(sessions.store).open_ranking(code, body.ranking))
    return ClassSettings.model_validate({"class": code, "ranking": body.ranking})


@router.get("/api/class/ranking", responses=responses(400, 403, 422))
async def ranking(sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery) -> Ranking:
    """The ranking of a class as its students see it, when the teacher shows it (``open``): names and
    figures of each student's latest submission, never sources, moves or blunders."""
    code = _class_of(klass) or ""

    def ranked() -> Ranking:
        board = ClassBoard(sessions.store)
        if not board.ranking_open(code):
            return {"class_code": code, "open": False, "rows": []}
        rows = [_ranked(_row(row)) for row in board.latest(code)]
        rows.sort(
            key=lambda r: (-(r["headline"] if r["headline"] is not None else -1), -r["accuracy"], r["name"])
        )
        return {"class_code": code, "open": True, "rows": rows}

    return await work.cheap(ranked)


@router.delete("/api/class", responses=responses(400, 403, 422))
async def clear(sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery) -> dict[str, int]:
    """Empty the class board (one class, or every class): every submission, claim and error goes, the
    roster stays; how many students' rows went."""
    code = _class_of(klass)
    return {"removed": await work.cheap(lambda: ClassBoard(sessions.store).clear(code))}


def _share(value: float | None) -> str:
    """A share as a spreadsheet reads a percentage: ``52.2%`` (empty when there is none)."""
    return "" if value is None else f"{value:.1%}"


def _report(row: BoardRow) -> dict[str, Any]:
    report = row["report"]
    return report if isinstance(report, dict) else {}


def _headline(row: BoardRow, field: str) -> object:
    """A field of the headline of a row's report: ``kept``, ``positions``, ``share``, or a baseline's share
    (``zero``, ``random``); empty for a report made before there was a headline."""
    report = _report(row)
    if field in ("zero", "random"):
        return _share(report.get("baselines", {}).get(field))
    value = report.get("decisive", {}).get(field)
    return _share(value) if field == "share" else "" if value is None else value


def _algorithm_said(name: str) -> str:
    try:
        return _(algorithm_named(name).title)
    except InarowError:
        return name


CSV_COLUMNS: tuple[tuple[str, Callable[[BoardRow, tzinfo | None], object]], ...] = (
    (N_("Name"), lambda row, zone: row["name"]),
    (N_("Student number"), lambda row, zone: row["number"]),
    (N_("Class code"), lambda row, zone: row["class_code"]),
    (N_("Where e(P) decides"), lambda row, zone: _headline(row, "share")),
    (N_("Kept where e(P) decides"), lambda row, zone: _headline(row, "kept")),
    (N_("Positions e(P) decides"), lambda row, zone: _headline(row, "positions")),
    (N_("e ≡ 0 there"), lambda row, zone: _headline(row, "zero")),
    (N_("A random e(P) there"), lambda row, zone: _headline(row, "random")),
    (N_("Over every position"), lambda row, zone: _share(row["accuracy"])),
    (N_("Kept of every position"), lambda row, zone: row["kept"]),
    (N_("Positions"), lambda row, zone: row["positions"]),
    (N_("Blunders"), lambda row, zone: len(_report(row).get("blunders", []))),
    (N_("Algorithm"), lambda row, zone: _algorithm_said(row["algorithm"])),
    (N_("Depth"), lambda row, zone: _("to the end") if row["depth"] is None else row["depth"]),
    (
        N_("Submitted"),
        lambda row, zone: datetime.fromtimestamp(row["submitted"], zone).strftime("%Y-%m-%d %H:%M:%S"),
    ),
    (N_("e(P)"), lambda row, zone: row["evaluation"]),
)
"""The CSV's columns: the header (a word of the catalog) and the cell of a row, the time in ``zone`` (None:
the server's own)."""


CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"description": "the board as CSV", "content": {"text/csv": {"schema": {"type": "string"}}}}
}


@router.get("/api/class.csv", response_class=Response, responses={**CSV_ANSWER, **responses(400, 403, 422)})
async def board_csv(
    request: Request,
    sessions: SessionsDep,
    work: WorkDep,
    klass: str | None = ClassQuery,
    lang: Annotated[
        str, Query(max_length=35, pattern=r"^[A-Za-z_-]*$", description="zh or en; else Accept-Language")
    ] = "",
    offset: Annotated[
        int | None,
        Query(
            ge=-14 * 60,
            le=14 * 60,
            description="the reader's offset from UTC in minutes, east positive (the page sends its own): "
            "the times are the reader's; the server's own time zone without it",
        ),
    ] = None,
) -> Response:
    """The class board as CSV, for a spreadsheet (Excel on a Chinese Windows PC among them): UTF-8 with a
    byte order mark, the headers in the language asked for (``lang``, else ``Accept-Language``), local
    dates and times, and the figures the board shows: the headline (the share kept where e(P) decides,
    beside e ≡ 0's and a random e(P)'s), the share over every position, the blunders. No source."""
    code = _class_of(klass)
    rows = await work.cheap(lambda: [_row(row) for row in ClassBoard(sessions.store).latest(code)])
    zone = None if offset is None else timezone(timedelta(minutes=offset))
    out = io.StringIO()
    writer = csv.writer(out)
    with i18n.language(i18n.from_accept_language(lang or request.headers.get("accept-language"))):
        writer.writerow([_(header) for header, _cell in CSV_COLUMNS])
        for row in rows:
            writer.writerow([_csv_cell(cell(row, zone)) for _header, cell in CSV_COLUMNS])
    return Response(
        ("\ufeff" + out.getvalue()).encode("utf-8"),  # the mark that tells Excel the file is UTF-8
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="class.csv"'},
    )


def _csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text, never runs as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return "" if value is None else value


@files.get("/class")
def class_page() -> FileResponse:
    return FileResponse(STATIC / "class.html", headers={"Cache-Control": "no-cache"})
