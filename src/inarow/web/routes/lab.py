"""The α-β lab for a class, without running anyone's code on the server.

A student's e(P) runs in the student's own browser (Pyodide in a Web Worker, :mod:`inarow.web.browser`):
these routes serve what the browser needs (Pyodide's files, inarow's own modules as a zip), the positions
grading judges, and score the moves the browser chose against the server's perfect-play table
(:func:`inarow.teaching.grading.grade_choices` — the scorer ``inarow grade`` uses), so the figures are
``inarow grade``'s and cannot be sent (the class board, :mod:`inarow.web.routes.board`, keeps them). No
route takes code to run.
"""

from __future__ import annotations

import hashlib
import math
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.rules.notation import parse_game
from inarow.teaching.grading import EVERY_POSITION_CELLS, GradeJSON, grade_choices, positions_to_grade
from inarow.web.deps import BODY, WorkDep, responses
from inarow.web.lab import PYODIDE_FILES, LabError, browser_zip, pyodide_file, pyodide_version
from inarow.web.routes.pages import STATIC
from inarow.web.schemas import EXPLAIN_MAX_DEPTH, GAME_PATTERN, GAME_WORDS, JSON_NUMBER, Ascii

MAX_VALUE_TEXT = 32
"""The longest value sent for one move (a number or ``inf``)."""

SMALL_BOARDS = N_("the lab grades moves on boards of at most {cells} cells")

router = APIRouter(tags=["lab"])
files = APIRouter(include_in_schema=False)

Depth = Annotated[int, Field(ge=1, le=EXPLAIN_MAX_DEPTH), JSON_NUMBER]


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


def _searched(value: float | str) -> float:
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("inf", "-inf"):
            return float(text)
        raise InarowError(N_("a value must be a number, 'inf' or '-inf', not {value!r}"), value=value)
    return float(value)


def graded(body: MovesGraded) -> GradeJSON:
    """The grade of the moves sent (:func:`~inarow.teaching.grading.grade_choices`)."""
    game = parse_game(body.game)
    if game.cells > EVERY_POSITION_CELLS:
        raise InarowError(SMALL_BOARDS, cells=EVERY_POSITION_CELLS)
    moves = body.moves.split()
    values = [_searched(value) for value in body.values] or [math.nan] * len(moves)
    return grade_choices(game, body.evaluation, body.depth, body.algorithm, moves, values).to_json()


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
    return await work.teach(lambda: graded(body))


# ----------------------------------------------------------------------------------- the files
@files.get("/lab/sandbox.html")
def sandbox_page() -> FileResponse:
    """The lab's sandbox, where the page runs students' code (its headers: ``middleware.sandbox_headers``)."""
    return FileResponse(STATIC / "sandbox.html", headers={"Cache-Control": "no-cache"})


@files.get("/lab/inarow.zip")
def modules_zip(request: Request) -> Response:
    """inarow's modules for the browser, with an ETag: a page opened again gets 304 while they are the
    same."""
    body = browser_zip()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/zip", headers=headers)


KEPT = {"Cache-Control": "public, max-age=31536000, immutable"}
"""A file under its Pyodide version never changes: a browser keeps it and asks nothing again."""

ASKED = {"Cache-Control": "no-cache"}
"""``pyodide.mjs`` under no version (the worker's import, which names the version): asked again each time,
answered 304 while it is the same (its ETag)."""


@files.get("/lab/pyodide/{name}")
def pyodide(name: str, request: Request) -> Response:
    """A Pyodide file, its gzip-compressed copy when the browser accepts gzip and there is one (written by
    scripts/copy_pyodide.py: the files are 13.5 MB, compressed 6.4); revalidated by its ETag."""
    return _pyodide(name, request, ASKED)


@files.get("/lab/pyodide/{version}/{name}")
def pyodide_of(version: str, name: str, request: Request) -> Response:
    """A Pyodide file under its version (the worker's ``indexURL``), to keep for good: a page opened again
    loads Pyodide from the browser's cache without a request. Another version than this server's is a 404."""
    try:
        served = pyodide_version()
    except LabError as error:
        return PlainTextResponse(error.said(), status_code=503)
    if version != served:
        said = LabError(
            N_("no Pyodide {version!r} here: this server has {served}"), version=version, served=served
        )
        return PlainTextResponse(said.said(), status_code=404)
    return _pyodide(name, request, KEPT)


def _pyodide(name: str, request: Request, caching: dict[str, str]) -> Response:
    try:
        path = pyodide_file(name)
    except LabError as error:
        return PlainTextResponse(error.said(), status_code=404 if name not in PYODIDE_FILES else 503)
    media = {".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}
    kind = media.get(path.suffix, "application/zip")
    packed = path.with_name(path.name + ".gz")
    headers = {**caching, "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
        path, headers = packed, {**headers, "Content-Encoding": "gzip"}
    answer = FileResponse(path, media_type=kind, headers=headers, stat_result=path.stat())  # its ETag now
    etag = answer.headers["etag"]
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={**headers, "ETag": etag})
    return answer
