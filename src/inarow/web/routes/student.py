"""The routes of a student's own e(P), pasted as Python source: evaluate a position with it, draw a search
tree with it, grade it against perfect play (:mod:`inarow.teaching.grading`).

Pasted code is run by the server, with the server's rights: these routes answer only a server bound to
loopback, without a token and without other host names (``inarow serve`` on 127.0.0.1, the default),
and only to a client on this machine; anywhere else they answer 403 saying why. Grading a *named*
evaluation runs no code of the asker's and is answered everywhere. The code runs on the teaching pool's
workers, one task at a time per worker, each call of the function bounded by
:data:`~inarow.evaluation.student.DEFAULT_SECONDS`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, FastAPI, HTTPException, Request
from pydantic import Field, StrictBool
from typing_extensions import TypedDict

from inarow.base import i18n
from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.evaluation.lines import Evaluation, evaluation_named, static_value
from inarow.evaluation.student import code_evaluation_from_source
from inarow.rules.game import Side
from inarow.rules.notation import parse_game, parse_position
from inarow.teaching.explain import ExplanationJSON, page_tree
from inarow.teaching.explain.values import JsonValue, json_value
from inarow.teaching.grading import GradeJSON, grade
from inarow.web.deps import BODY, get_server, get_sessions, responses, run
from inarow.web.middleware import is_loopback
from inarow.web.schemas import (
    EXPLAIN_MAX_DEPTH,
    GAME_PATTERN,
    GAME_WORDS,
    JSON_NUMBER,
    Ascii,
    ExplainRequest,
    Typed,
    _Body,
)

MAX_SOURCE = 20_000
"""The longest pasted source read, in characters."""

GRADE_SECONDS = 120.0
"""The longest a grading may take on the teaching pool (3×3 takes a few seconds)."""

MAX_GRADE_GAMES = 20
"""The most games of the match against each named evaluation."""

router = APIRouter(tags=["teaching"])

Source = Annotated[
    str,
    Field(
        max_length=MAX_SOURCE,
        description="Python source defining the function: it gets one argument, the board (board.rows from "
        "the top, board.k, board.max, board.min, board.lines()), and returns e(P) from Max's standpoint",
    ),
]
FunctionName = Annotated[
    str, Field(max_length=64, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="the function's name")
]


class EvaluateRequest(_Body):
    """A position to score with pasted code."""

    source: Source
    function: FunctionName = "e"
    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    position: Typed = Field("", max_length=4096, description="a diagram, a move list or column digits")
    max: Side | None = Field(None, description="the side whose standpoint e(P) takes (default: to move)")


class EvaluateAnswer(TypedDict):
    """``POST /api/student/evaluate``: e(P) of ``position`` from ``max``'s standpoint (``"inf"``/``"-inf"``
    for a finished game, which the search scores without the function)."""

    evaluation: str
    position: str
    max: Side
    value: JsonValue


class StudentExplainRequest(ExplainRequest):
    """``/api/explain``'s fields with pasted code instead of a named ``evaluation`` (which is ignored)."""

    source: Source
    function: FunctionName = "e"


class GradeRequest(_Body):
    """An evaluation to grade: pasted ``source`` (loopback only), or a named ``evaluation`` when no
    source is given."""

    source: Source | None = None
    function: FunctionName = "e"
    evaluation: Ascii = Field("open-lines", max_length=200, description="a named evaluation or weights:…")
    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    algorithm: Ascii = Field("alphabeta", max_length=32)
    depth: Annotated[int, Field(ge=1, le=EXPLAIN_MAX_DEPTH), JSON_NUMBER] | None = Field(
        2, description="plies; null searches to the end of the game"
    )
    games: Annotated[int, Field(ge=0, le=MAX_GRADE_GAMES), JSON_NUMBER] = Field(
        4, description="games against each named evaluation"
    )
    match: StrictBool = Field(True, description="play the match against the named evaluations")


def code_allowed(request: Request) -> bool:
    """Whether this request may run pasted code: the app was made for a loopback server
    (``app.state.student_code``, see :func:`include`) and the client is on this machine."""
    if not getattr(request.app.state, "student_code", False):
        return False
    client = request.client.host if request.client is not None else ""
    return is_loopback(client)


def include(app: FastAPI, token: str | None, hosts: tuple[str, ...]) -> None:
    """Add these routes to ``app``, recording whether pasted code may run there: only on a server without
    a ``token`` whose ``hosts`` (the names it answers to besides loopback's) are all loopback, that is one
    that ``inarow serve`` bound to loopback. ``create_app`` calls it with its settings."""
    app.state.student_code = token is None and all(is_loopback(host) for host in hosts)
    app.include_router(router)


def _check_allowed(request: Request) -> None:
    """Raise a 403 (in the request's language) unless :func:`code_allowed`."""
    if not code_allowed(request):
        refusal = InarowError(
            N_(
                "pasted code runs only on a server bound to loopback (inarow serve on 127.0.0.1, no token) "
                "for a client on the same machine: run inarow serve on your own computer, or use inarow "
                "grade --eval FILE.py:FUNCTION"
            )
        )
        with i18n.language(i18n.from_accept_language(request.headers.get("accept-language"))):
            said = refusal.said()
        raise HTTPException(status_code=403, detail=said)


async def _on_pool(request: Request, seconds: float, task: object, *args: object) -> object:
    """``task(*args)`` on the teaching pool within ``seconds``, from the teaching threads; cancelled when
    the client goes away."""
    sessions, server = get_sessions(request), get_server(request)
    return await run(
        request,
        server.teach,
        lambda: sessions.teach_pool.run(seconds, task, *args),  # type: ignore[arg-type]
    )


# --------------------------------------------------------------------- tasks (run on a pool worker)
def evaluate_task(source: str, function: str, game: str, position: str, side: Side | None) -> EvaluateAnswer:
    """e(P) of ``position`` by the pasted function (see :class:`EvaluateAnswer`)."""
    code = code_evaluation_from_source(source, function)
    board = parse_position(position, parse_game(game))
    max_side: Side = side or board.turn
    return {
        "evaluation": code.text,
        "position": board.diagram(),
        "max": max_side,
        "value": json_value(static_value(board, max_side, code)),
    }


def explain_task(body: StudentExplainRequest) -> ExplanationJSON:
    """The tree of ``body``'s search with the pasted function at the leaves."""
    code = code_evaluation_from_source(body.source, body.function)
    position = parse_position(body.position, parse_game(body.game))
    return page_tree(position, body, code).to_json()


def grade_task(body: GradeRequest) -> GradeJSON:
    """``body``'s evaluation graded (:func:`inarow.teaching.grading.grade`)."""
    evaluation: Evaluation
    if body.source is not None:
        evaluation = code_evaluation_from_source(body.source, body.function)
    else:
        evaluation = evaluation_named(body.evaluation)
    report = grade(
        parse_game(body.game), evaluation, body.depth, body.algorithm, games=body.games if body.match else 0
    )
    return report.to_json()


# ---------------------------------------------------------------------------------------- routes
@router.post("/api/student/evaluate", responses=responses(400, 403, 503, *BODY))
async def evaluate(body: EvaluateRequest, request: Request) -> EvaluateAnswer:
    """e(P) of a position by pasted code (loopback servers only; 403 elsewhere). A function that raises,
    returns no number or runs too long is a 400 naming it and the position."""
    _check_allowed(request)
    answer: EvaluateAnswer = await _on_pool(  # type: ignore[assignment]
        request, 10.0, evaluate_task, body.source, body.function, body.game, body.position, body.max
    )
    return answer


@router.post(
    "/api/student/explain", response_model=ExplanationJSON, responses=responses(400, 403, 503, *BODY)
)
async def explain(body: StudentExplainRequest, request: Request) -> ExplanationJSON:
    """The fields of ``/api/explain`` with the pasted function at the leaves (loopback servers only)."""
    _check_allowed(request)
    answer: ExplanationJSON = await _on_pool(request, 30.0, explain_task, body)  # type: ignore[assignment]
    return answer


@router.post("/api/student/grade", responses=responses(400, 403, 503, *BODY))
async def grade_route(body: GradeRequest, request: Request) -> GradeJSON:
    """The fields of ``inarow grade --json``: pasted code (loopback servers only) or a named evaluation
    graded against perfect play."""
    if body.source is not None:
        _check_allowed(request)
    answer: GradeJSON = await _on_pool(request, GRADE_SECONDS, grade_task, body)  # type: ignore[assignment]
    return answer
