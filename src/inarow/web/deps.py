"""What the routers share, injected with FastAPI's ``Depends``: the server's state (:class:`Server`), its
sessions, and :class:`Work`, which runs a route's work in the right pool of threads.

Work is kept apart so that nothing a page, a tab or a neighbour does can stall the players: cheap routes
run in their own small thread pool (:meth:`Work.cheap`) and never wait behind a search; the moves of games
in the ``play`` threads (:meth:`Work.play`), every heavy read — hints and analyses, explanations,
comparisons and reviews — in the ``teach`` threads (:meth:`Work.teach`), each search cancelled when its
client goes away.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio
from anyio import CapacityLimiter
from fastapi import Depends, Request

from inarow.sessions import Sessions
from inarow.sessions.workers import asking
from inarow.web.schemas import ErrorAnswer

_T = TypeVar("_T")


@dataclass(frozen=True, kw_only=True)
class Server:
    """The state an app's routes share: the thread pools that run their work, and whether the engine has
    loaded (set once by the app's start)."""

    cheap: CapacityLimiter = field(default_factory=lambda: CapacityLimiter(8))
    play: CapacityLimiter = field(default_factory=lambda: CapacityLimiter(64))
    teach: CapacityLimiter = field(default_factory=lambda: CapacityLimiter(32))
    engine: threading.Event = field(default_factory=threading.Event)


def get_server(request: Request) -> Server:
    """The app's :class:`Server` (made by :func:`inarow.web.app.create_app`)."""
    server: Server = request.app.state.server
    return server


def get_sessions(request: Request) -> Sessions:
    """The app's sessions (opened when the app starts)."""
    sessions: Sessions = request.app.state.sessions
    return sessions


async def run(request: Request, limiter: CapacityLimiter, work: Callable[[], _T]) -> _T:
    """``work()`` in a thread of ``limiter``; when the client goes away, the searches it waits for are
    cancelled."""
    gone = threading.Event()

    def call() -> _T:
        with asking(gone.is_set):
            return work()

    task = asyncio.ensure_future(anyio.to_thread.run_sync(call, limiter=limiter))
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=0.25)
            if done:
                return task.result()
            if await request.is_disconnected():
                gone.set()
    finally:
        if not task.done():
            gone.set()


@dataclass(frozen=True)
class Work:
    """Where a request's work runs (see the module's docstring)."""

    request: Request
    server: Server

    async def cheap(self, work: Callable[[], _T]) -> _T:
        """``work()`` in the cheap routes' threads: it never waits behind a search."""
        return await anyio.to_thread.run_sync(work, limiter=self.server.cheap)

    async def play(self, work: Callable[[], _T]) -> _T:
        """``work()`` in the players' threads, cancelled when the client goes away."""
        return await run(self.request, self.server.play, work)

    async def teach(self, work: Callable[[], _T]) -> _T:
        """``work()`` in the teaching threads, cancelled when the client goes away."""
        return await run(self.request, self.server.teach, work)


def get_work(request: Request, server: Annotated[Server, Depends(get_server)]) -> Work:
    """The request's :class:`Work`."""
    return Work(request, server)


ServerDep = Annotated[Server, Depends(get_server)]
SessionsDep = Annotated[Sessions, Depends(get_sessions)]
WorkDep = Annotated[Work, Depends(get_work)]

_SAID = {
    400: "the input names a game, position, move or choice that does not exist or cannot be played",
    403: "a foreign host or origin, a missing key, or a student's key on a teacher's route",
    404: "no game (or student, or submission) with this id",
    408: "the request body did not arrive in time",
    409: "the move was meant for another ply (the game has moved on), or the name is another student's",
    413: "the request body is too large",
    422: "the request does not have the shape the route reads",
    503: "the search workers are busy (see Retry-After) or the search ran out of time",
}

BODY = (403, 408, 413, 422)
"""The answers of every route that reads a body: the trust boundary's, a slow or big body, a bad shape."""


def responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers ``codes`` of a route, for its OpenAPI description."""
    return {code: {"model": ErrorAnswer, "description": _SAID[code]} for code in codes}
