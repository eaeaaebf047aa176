"""The teaching routes: a search's tree to draw (explain), the algorithms side by side (compare), the menus
of what they accept, and exam sheets to print (``GET /exam``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from inarow.base import i18n
from inarow.engines.textbook import REGISTRY
from inarow.evaluation.lines import EVALUATIONS
from inarow.play.players import LEVELS, PLAYER_NAMES
from inarow.rules.notation import parse_game, parse_position
from inarow.sessions import MAX_PLAYER_WORK
from inarow.teaching.explain import (
    EXPLAIN_MAX_NODES,
    ComparisonJSON,
    ExplanationJSON,
    compare_algorithms,
    page_tree,
)
from inarow.teaching.sheet import MAX_SHEETS, exam_sheets, to_html
from inarow.web.deps import BODY, SessionsDep, WorkDep, responses
from inarow.web.schemas import EXPLAIN_MAX_DEPTH, CompareRequest, ExplainRequest, Menus

router = APIRouter(tags=["teaching"])

COMPARE_WORK = 400_000
"""Nodes times cells each algorithm of ``/api/compare`` may spend (see :func:`compare_node_limit`)."""


def compare_node_limit(cells: int) -> int:
    """The nodes each algorithm of ``/api/compare`` may visit (or evaluate, when ordering moves) on a board
    of ``cells`` cells: 50,000 on small boards, fewer on big ones, where evaluating a position costs more
    (about 1,100 on Gomoku); the think-time cap bounds the whole comparison besides."""
    return max(1_000, min(50_000, COMPARE_WORK // cells))


@router.post("/api/explain", response_model=ExplanationJSON, responses=responses(400, 503, *BODY))
async def explain(body: ExplainRequest, sessions: SessionsDep, work: WorkDep) -> ExplanationJSON:
    """Every node of a textbook search of the position, to draw and replay step by step: the fields of
    ``inarow tree --format json`` (values from MAX's standpoint, ``max``: the side to move unless the body
    names one; negamax-frame values from the side to move's; ``"inf"``/``"-inf"`` for ±∞). A tree of more
    than 2,000 nodes is drawn at the deepest depth that fits (``asked_depth`` keeps the depth asked for);
    when even 1 ply is too many, a 400; a search that does not finish within the think time gets a
    503."""
    position = parse_position(body.position, parse_game(body.game))
    explanation = await work.teach(
        lambda: sessions.search(page_tree, position, body, body.evaluation, body.max)
    )
    return explanation.to_json()


@router.post("/api/compare", response_model=ComparisonJSON, responses=responses(400, 503, *BODY))
async def compare(body: CompareRequest, sessions: SessionsDep, work: WorkDep) -> ComparisonJSON:
    """Nodes, seconds, value and effective branching factor of minimax, α-β and its improvements and
    the engine on the position, side by side: the fields of ``inarow compare --json``. Each search may
    visit ``max_nodes`` nodes (50,000 on small boards, fewer on big ones) and an equal share of the
    think time; a row stopped by either has ``complete`` false."""
    position = parse_position(body.position, parse_game(body.game))
    comparison = await work.teach(
        lambda: sessions.search(
            compare_algorithms,
            position,
            body.depth,
            body.evaluation,
            max_nodes=compare_node_limit(position.game.cells),
            seconds=sessions.think_time,
        )
    )
    return comparison.to_json()


@router.get("/api/menus", responses=responses(403))
async def menus() -> Menus:
    """The algorithms, evaluations, levels and players the other routes accept, and their limits."""
    return Menus(
        algorithms=list(REGISTRY),  # the older names are read, not offered
        evaluations=list(EVALUATIONS),
        levels=list(LEVELS),
        players=list(PLAYER_NAMES),
        max_depth=EXPLAIN_MAX_DEPTH,
        explain_max_nodes=EXPLAIN_MAX_NODES,
        max_player_work=MAX_PLAYER_WORK,
    )


_SHEET_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "the sheets, as HTML"},
    **{
        code: {
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorAnswer"}}},
            "description": answer["description"],
        }
        for code, answer in responses(400, 403, 422).items()
    },
}


@router.get("/exam", response_class=HTMLResponse, responses=_SHEET_ANSWERS)
def exam_sheet(
    request: Request,
    seed: Annotated[int, Query(ge=0, le=2**31, description="the first sheet's seed")] = 1,
    count: Annotated[int, Query(ge=1, le=MAX_SHEETS, description="sheets, from consecutive seeds")] = 1,
    depth: Annotated[int, Query(ge=1, le=4, description="the trees' depth")] = 3,
    branching: Annotated[int, Query(ge=2, le=4, description="children of every inner node")] = 3,
    lang: Annotated[
        str, Query(max_length=35, pattern=r"^[A-Za-z_-]*$", description="zh or en; else Accept-Language")
    ] = "",
) -> HTMLResponse:
    """Exam sheets to print on A4, as ``inarow exam --format html`` writes them: one α-β question tree a
    seed with blank value boxes, a name line and the seed on each sheet, then a separate answer key."""
    language = i18n.from_accept_language(lang or request.headers.get("accept-language"))
    with i18n.language(language):
        page = to_html(exam_sheets(seed, count, depth, branching))
    return HTMLResponse(page)
