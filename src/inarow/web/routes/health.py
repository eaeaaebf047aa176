"""``GET /api/health``: whether the engine has loaded and how the pools of search workers stand."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from inarow.sessions.workers import PoolHealth
from inarow.web.deps import ServerDep, SessionsDep, responses

router = APIRouter(tags=["server"])


class Health(BaseModel):
    """How the server stands: ``status`` is ``warming`` while the engine loads (the page is served, and
    moves on big boards wait for it), ``degraded`` when a pool has a dead worker (replaced on the next
    request that needs it), ``busy`` when work waits in a pool's queue (``waiting``: the queue's length
    per pool) or runs past its deadline (each pool's ``jobs`` says what runs and for how long), else
    ``ok``."""

    status: Literal["ok", "warming", "degraded", "busy"]
    engine_ready: bool
    waiting: dict[str, int]
    pools: list[PoolHealth]


@router.get("/api/health", responses=responses(403))
async def health(sessions: SessionsDep, server: ServerDep) -> Health:
    """Whether the engine has loaded and how each pool of search workers stands, read now."""
    pools = [sessions.play_pool.health(), sessions.teach_pool.health()]
    ready = server.engine.is_set()
    if any(p.state == "broken" for p in pools):
        status: Literal["ok", "warming", "degraded", "busy"] = "degraded"
    elif not ready or any(p.state == "warming" for p in pools):
        status = "warming"
    elif any(p.waiting or any(job.overdue for job in p.jobs) for p in pools):
        status = "busy"
    else:
        status = "ok"
    waiting = {p.name: p.waiting for p in pools}
    return Health(status=status, engine_ready=ready, waiting=waiting, pools=pools)
