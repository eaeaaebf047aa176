"""The α-β lab for a class, without running anyone's code on the server.

A student's e(P) runs in the student's own browser (Pyodide in a Web Worker, :mod:`inarow.web.browser`):
these routes serve what the browser needs (Pyodide's files, inarow's own modules as a zip), the positions
grading judges, and score the moves the browser chose against the server's perfect-play table
(:func:`inarow.teaching.grading.grade_choices` — the scorer ``inarow grade`` uses), so the figures are
``inarow grade``'s and cannot be sent. The class board keeps each student's latest grade in the store;
the teacher reads it at ``/class``. The source a student submits is stored as text and shown escaped,
never imported, compiled or run: no route takes code to run.
"""

from __future__ import annotations

import csv
import io
import json
import math
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from inarow.base import i18n
from inarow.base.errors import InarowError
from inarow.base.i18n import N_, _
from inarow.engines.textbook import algorithm_named
from inarow.rules.notation import parse_game
from inarow.teaching.grading import EVERY_POSITION_CELLS, GradeJSON, grade_choices, positions_to_grade
from inarow.values.store import Submission
from inarow.web.deps import BODY, SessionsDep, WorkDep, responses
from inarow.web.lab import PYODIDE_FILES, LabError, browser_zip, pyodide_file
from inarow.web.routes.pages import STATIC
from inarow.web.schemas import EXPLAIN_MAX_DEPTH, GAME_PATTERN, GAME_WORDS, JSON_NUMBER, Ascii

MAX_SOURCE = 20_000
"""The longest e(P) source kept on the board, in characters."""

MAX_VALUE_TEXT = 32
"""The longest value sent for one move (a number or ``inf``)."""

SMALL_BOARDS = N_("the lab grades moves on boards of at most {cells} cells")

router = APIRouter(tags=["lab"])
files = APIRouter(include_in_schema=False)

Depth = Annotated[int, Field(ge=1, le=EXPLAIN_MAX_DEPTH), JSON_NUMBER]
Name = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f<>]+$")]
ClassCode = Annotated[str, Field(max_length=32, pattern=r"^[A-Za-z0-9_-]*$")]


class PositionsAnswer(TypedDict):
    """``GET /api/lab/positions``: the positions grading judges, in its order, as diagrams."""

    game: str
    positions: list[str]


class MovesGraded(BaseModel):
    """Moves a browser chose with a student's e(P), one per position of ``/api/lab/positions`` in its
    order, to be scored against perfect play. Fields the server computes itself (``accuracy``, ``kept``…)
    are ignored if sent."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    evaluation: Ascii = Field("e", max_length=64, description="the function's name, to show")
    algorithm: Ascii = Field("alphabeta", max_length=32)
    depth: Depth | None = Field(2, description="plies; null searches to the end of the game")
    moves: str = Field(
        max_length=20_000,
        pattern=r"^[a-z0-9 ]*$",
        description="one move per position, as cells are named (b2), separated by spaces",
    )
    values: list[float | Annotated[str, Field(max_length=MAX_VALUE_TEXT)]] = Field(
        default_factory=list, max_length=10_000, description="the value searched for each move (optional)"
    )


class Submitted(MovesGraded):
    """A student's submission to the class board: the moves to grade, a name, an optional class code and
    the e(P)'s source (kept as text, never run)."""

    name: Name
    klass: ClassCode = Field("", alias="class", description="the class code ('' for none)")
    source: str = Field("", max_length=MAX_SOURCE)


class BoardRow(TypedDict):
    """One student on the class board; ``report`` is the grade's fields (``inarow grade --json``)."""

    name: str
    class_code: str
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


def _searched(value: float | str) -> float:
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("inf", "-inf"):
            return float(text)
        raise InarowError(N_("a value must be a number, 'inf' or '-inf', not {value!r}"), value=value)
    return float(value)


def _graded(body: MovesGraded) -> GradeJSON:
    """The grade of the moves sent (:func:`~inarow.teaching.grading.grade_choices`)."""
    game = parse_game(body.game)
    if game.cells > EVERY_POSITION_CELLS:
        raise InarowError(SMALL_BOARDS, cells=EVERY_POSITION_CELLS)
    moves = body.moves.split()
    values = [_searched(value) for value in body.values] or [math.nan] * len(moves)
    return grade_choices(game, body.evaluation, body.depth, body.algorithm, moves, values).to_json()


def _row(submission: Submission) -> BoardRow:
    return {
        "name": submission.name,
        "class_code": submission.klass,
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
    }


# ------------------------------------------------------------------------------------- the API
@router.get("/api/lab/positions", responses=responses(400, 403, 422))
async def positions(
    work: WorkDep, game: str = Query("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
) -> PositionsAnswer:
    """Every non-terminal position grading judges (3×3: all 4,520), in its order: the browser sends one
    move for each, in this order."""

    def listed() -> PositionsAnswer:
        rules = parse_game(game)
        if rules.cells > EVERY_POSITION_CELLS:
            raise InarowError(SMALL_BOARDS, cells=EVERY_POSITION_CELLS)
        found, _ = positions_to_grade(rules)
        return {"game": rules.name, "positions": [position.diagram() for position in found]}

    return await work.cheap(listed)


@router.post("/api/lab/grade", responses=responses(400, 503, *BODY))
async def grade_moves(body: MovesGraded, work: WorkDep) -> GradeJSON:
    """The fields of ``inarow grade --json`` (without the match) for the moves a browser chose with a
    student's e(P): scored by the server against perfect play; nothing sent is taken as a figure."""
    return await work.teach(lambda: _graded(body))


@router.post("/api/class", responses=responses(400, 503, *BODY))
async def submit(body: Submitted, sessions: SessionsDep, work: WorkDep) -> BoardRow:
    """Put a student's graded moves on the class board (a new submission replaces the same name's in the
    same class); the row as the board shows it."""

    def kept() -> BoardRow:
        report = _graded(body)
        submission = Submission(
            klass=body.klass,
            name=body.name.strip(),
            evaluation=body.evaluation,
            algorithm=report["algorithm"],
            depth=body.depth,
            game=report["game"],
            kept=report["kept"],
            positions=report["positions"],
            source=body.source,
            report=json.dumps(report),
            submitted=time.time(),
        )
        sessions.store.submit(submission)
        return _row(submission)

    return await work.teach(kept)


ClassQuery = Query(
    None, max_length=32, pattern=r"^[A-Za-z0-9_-]*$", alias="class", description="a class code"
)


@router.get("/api/class", responses=responses(403, 422))
async def board(sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery) -> list[BoardRow]:
    """The class board (one class, or every class), the latest submission first."""
    return await work.cheap(lambda: [_row(row) for row in sessions.store.submissions(klass)])


@router.delete("/api/class", responses=responses(403, 422))
async def clear(sessions: SessionsDep, work: WorkDep, klass: str | None = ClassQuery) -> dict[str, int]:
    """Empty the class board (one class, or every class): how many rows went."""
    return {"removed": await work.cheap(lambda: sessions.store.clear_submissions(klass))}


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


@router.get("/api/class.csv", response_class=Response, responses={**CSV_ANSWER, **responses(403, 422)})
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
    rows = await work.cheap(lambda: [_row(row) for row in sessions.store.submissions(klass)])
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


# ----------------------------------------------------------------------------------- the files
@files.get("/class")
def class_page() -> FileResponse:
    return FileResponse(STATIC / "class.html", headers={"Cache-Control": "no-cache"})


@files.get("/lab/sandbox.html")
def sandbox_page() -> FileResponse:
    """The lab's sandbox, where the page runs students' code (its headers: ``middleware.sandbox_headers``)."""
    return FileResponse(STATIC / "sandbox.html", headers={"Cache-Control": "no-cache"})


@files.get("/lab/inarow.zip")
def modules_zip() -> Response:
    return Response(browser_zip(), media_type="application/zip", headers={"Cache-Control": "no-cache"})


@files.get("/lab/pyodide/{name}")
def pyodide(name: str, request: Request) -> Response:
    """A Pyodide file, its gzip-compressed copy when the browser accepts gzip and there is one (written by
    scripts/copy_pyodide.py: the files are 13.5 MB, compressed 6.4)."""
    try:
        path = pyodide_file(name)
    except LabError as error:
        return PlainTextResponse(error.said(), status_code=404 if name not in PYODIDE_FILES else 503)
    media = {".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}
    kind = media.get(path.suffix, "application/zip")
    packed = path.with_name(path.name + ".gz")
    if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
        encoded = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return FileResponse(packed, media_type=kind, headers=encoded)
    return FileResponse(path, media_type=kind, headers={"Vary": "Accept-Encoding"})
