"""The games played: the list, the scores, and the review of one game."""

from __future__ import annotations

from fastapi import APIRouter, Query

from inarow.sessions import History, Review
from inarow.values.store import Score
from inarow.web.deps import SessionsDep, WorkDep, responses
from inarow.web.schemas import MAX_OFFSET

router = APIRouter(tags=["games"])


@router.get("/api/games", responses=responses(403, 422))
async def history(
    sessions: SessionsDep,
    work: WorkDep,
    limit: int = Query(50, ge=1, le=500, description="how many games"),
    offset: int = Query(0, ge=0, le=MAX_OFFSET, description="how many of the most recent to skip"),
) -> History:
    """The games played, the most recently played first, with the score per kind of game."""
    return await work.cheap(lambda: sessions.history(limit, offset))


@router.get("/api/scores", responses=responses(403))
async def scores(sessions: SessionsDep, work: WorkDep) -> list[Score]:
    """Wins, draws and losses against the computer, per kind of game."""
    return await work.cheap(lambda: sessions.store.scores())


@router.get("/api/games/{game_id}/review", responses=responses(400, 403, 404, 422, 503))
async def review(game_id: str, sessions: SessionsDep, work: WorkDep) -> Review:
    """Every move with the analysis of the position before it; mistakes marked. Each move gets at most
    the think time and the review 8 seconds in all; moves past that are listed with ``reviewed``
    false and the review's ``complete`` false."""
    return await work.teach(lambda: sessions.review(game_id))
