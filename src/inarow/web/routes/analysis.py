"""``POST /api/analyze``: the value of a position and of every move."""

from __future__ import annotations

from fastapi import APIRouter

from inarow.rules.notation import parse_game, parse_position
from inarow.values.answers import AnalysisJSON
from inarow.web.deps import BODY, SessionsDep, WorkDep, responses
from inarow.web.schemas import AnalyzeRequest
from inarow.words import phrases

router = APIRouter(tags=["analysis"])


@router.post("/api/analyze", responses=responses(400, 503, *BODY))
async def analyze_position(body: AnalyzeRequest, sessions: SessionsDep, work: WorkDep) -> AnalysisJSON:
    """The value of a position and of every move: the fields of ``inarow analyze --json``, searched at
    most the server's think time (``exact`` false when the time ran out first). A read: it runs in the
    teaching pool, and gets 503 with ``Retry-After`` when that pool's queue is full, never delaying a
    player's move."""
    position = parse_position(body.position, parse_game(body.game))
    result = await work.teach(lambda: sessions.analyze(position, body.depth, body.time))
    return phrases.analysis_json(result, body.position)
