"""The web app: the HTTP API over :mod:`inarow.sessions` and the static page that plays through it.

The server owns the rules; the page only draws and asks. :func:`create_app` wires one router per domain
(:mod:`inarow.web.routes`), the error answers (:mod:`inarow.web.errors`) and the trust boundary; what the
routes share is injected (:mod:`inarow.web.deps`). Work is kept apart so that nothing a page, a tab or a
neighbour does can stall the players:

- cheap routes (a game, the history, the scores, the menus, the health) run in their own small thread
  pool and never wait behind a search;
- the moves of games, hints and analysis run in the ``play`` pool of search processes;
- explanations, comparisons and reviews run in the smaller ``teach`` pool, whose queue is short: when it
  is full the answer is 503 with ``Retry-After``;
- every search is bounded by the think-time cap (a review by a per-move and a total budget) and is
  cancelled when its client goes away; a pool with a dead worker is replaced on the next request, and
  ``GET /api/health`` says how the pools stand.

Errors: every :class:`~inarow.base.errors.InarowError` becomes a 4xx with its message (404 an unknown game,
409 a stale move, 503 a full queue), a request that is not what the route reads a 422 whose ``detail``
names the field, a body over ``max_body`` bytes a 413 (before any route runs). Every error answer is JSON
with ``detail`` and ``reason``. The trust boundary (hosts, origins, the keys and the roles of the
routes, the content-security policy) is :class:`~inarow.web.middleware.Guard` with
:mod:`inarow.web.roles`.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from inarow import __version__
from inarow.base.i18n import _
from inarow.sessions import Sessions
from inarow.sessions.workers import SearchPool
from inarow.teaching.explain import EXPLAIN_MAX_NODES
from inarow.values.store import Store
from inarow.web.deps import Server
from inarow.web.errors import add_error_handlers
from inarow.web.middleware import LOOPBACK_HOSTS, Guard, ReadBody
from inarow.web.roles import Keys
from inarow.web.routes import access, analysis, board, games, health, history, i18n, lab, pages, teaching
from inarow.web.routes.health import Health
from inarow.web.routes.pages import STATIC
from inarow.web.routes.positions import router as positions_router
from inarow.web.routes.teaching import COMPARE_WORK, compare_node_limit
from inarow.web.routes.teaching_trees import router as trees_router
from inarow.web.settings import Settings

__all__ = [
    "COMPARE_WORK",
    "EXPLAIN_MAX_NODES",
    "STATIC",
    "Health",
    "Settings",
    "compare_node_limit",
    "create_app",
]

ROUTERS = (
    analysis.router,
    games.router,
    history.router,
    teaching.router,
    trees_router,
    positions_router,
    lab.router,
    board.router,
    access.router,
    health.router,
    i18n.router,
    pages.router,
    board.files,
    lab.files,
)
"""The routers of the API and of the page, in the order the OpenAPI description lists their routes."""


def _lifespan(
    settings: Settings, store: Store | None, server: Server
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """What an app does at start and stop: opens its store and pools and its sessions over them, loads the
    engine in the background; closes them all."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = store or Store(settings.db, exclusive=settings.db != ":memory:")
        play = SearchPool("play", settings.pool, settings.workers)
        teach_workers = settings.teach_workers or max(1, play.workers // 2)
        teach = SearchPool("teaching", settings.pool, teach_workers, max_waiting=settings.teach_queue)

        def warm_inline() -> None:
            # Small boards are searched in this process: compile the engine in the background, while the
            # page and the cheap routes are already answered.
            try:
                settings.warm_up()
            except (subprocess.CalledProcessError, OSError):
                # the compiling child stopped (Ctrl-C stops it with the server) or could not start: the
                # first search that needs the engine compiles it
                print(
                    _("inarow: the engine was not compiled in advance; its first search compiles it"),
                    file=sys.stderr,
                )
            finally:
                server.engine.set()

        if settings.pool == "inline":
            server.engine.set()
        else:
            threading.Thread(target=warm_inline, name="inarow-warm-up", daemon=True).start()
        app.state.sessions = Sessions(opened, settings.think_time, settings.seed, play=play, teach=teach)
        try:
            yield
        finally:
            play.shutdown()
            teach.shutdown()
            opened.close()

    return lifespan


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The FastAPI app; its store (``store``, or one opened on ``settings.db``) and search pools open when
    it starts and close when it stops."""
    settings = settings or Settings()
    server = Server()
    app = FastAPI(
        title="inarow",
        version=__version__,
        summary="Tic-tac-toe and every k-in-a-row game against an exact engine.",
        lifespan=_lifespan(settings, store, server),
        docs_url=None,
        redoc_url=None,
    )
    app.state.server = server
    app.state.keys = keys = Keys.of(settings.token, settings.teacher_token)
    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(
        ReadBody, limit=settings.max_body, timeout=settings.body_timeout, larger=board.BODY_LIMITS
    )
    app.add_middleware(Guard, hosts=(*LOOPBACK_HOSTS, *settings.hosts), keys=keys)
    return app
