"""The web app: the HTTP API over :mod:`inarow.sessions` and the static page that plays through it.

The server owns the rules; the page only draws and asks. Work is kept apart so that nothing a page, a tab
or a neighbour does can stall the players:

- cheap routes (a game, the history, the scores, the menus, the health) run in their own small thread
  pool and never wait behind a search;
- the moves of games, hints and analysis run in the ``play`` pool of search processes;
- explanations, comparisons and reviews run in the smaller ``teach`` pool, whose queue is short: when it
  is full the answer is 503 with ``Retry-After``;
- every search is bounded by the think-time cap (a review by a per-move and a total budget) and is
  cancelled when its client goes away; a pool with a dead worker is replaced on the next request, and
  ``GET /api/health`` says how the pools stand.

Errors: every :class:`~inarow.errors.InarowError` becomes a 4xx with its message (404 an unknown game,
409 a stale move, 503 a full queue), a request that is not what the route reads a 422 whose ``detail``
names the field, a body over ``max_body`` bytes a 413 (before any route runs). Every error answer is JSON
with ``detail`` and ``reason``. The trust boundary (hosts, origins, the token, the content-security
policy) is :class:`~inarow.web.middleware.Guard`.
"""

from __future__ import annotations

import asyncio
import html
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import BrokenExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import anyio
from anyio import CapacityLimiter
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from inarow import __version__, i18n, words
from inarow.answer import AnalysisJSON
from inarow.errors import InarowError, ServerBusyError, StaleMoveError, StoppedError, UnknownGameError
from inarow.evaluation import EVALUATIONS
from inarow.explain import ComparisonJSON, ExplanationJSON, compare_algorithms, explain_tree
from inarow.i18n import N_
from inarow.notation import parse_game, parse_position
from inarow.players import DEFAULT_THINK_TIME, LEVELS, PLAYER_NAMES
from inarow.search.textbook import ALGORITHMS
from inarow.sessions import MAX_PLAYER_WORK, GameState, History, Pool, Review, Sessions, warm_up
from inarow.sessions.workers import ClientGone, PoolHealth, SearchPool, asking
from inarow.store import Score, Store
from inarow.web.catalog import catalog_answer, glossary_page
from inarow.web.middleware import LOOPBACK_HOSTS, Guard, ReadBody
from inarow.web.positions import router as positions_router
from inarow.web.schemas import (
    EXPLAIN_MAX_DEPTH,
    MAX_OFFSET,
    AnalyzeRequest,
    CompareRequest,
    ErrorAnswer,
    ExplainRequest,
    Menus,
    MoveRequest,
    NewGameRequest,
    validation_message,
)
from inarow.web.teaching_trees import router as trees_router

STATIC = Path(__file__).parent / "static"

_T = TypeVar("_T")


@dataclass(frozen=True)
class Settings:
    """How the server runs.

    ``db``: the SQLite file (``":memory:"`` for none); ``think_time``: the most seconds any one search may
    take (computer moves, hints, analysis, explanations, comparisons); ``pool``: where searches run,
    ``process`` (``workers`` processes for play, default one per core up to 4, and ``teach_workers`` for
    teaching and reviews, default half as many), ``thread`` or ``inline``; ``teach_queue``: how many
    teaching requests may wait before the answer is 503; ``seed``: makes the games' random choices
    reproducible; ``max_body``: the largest request body accepted, in bytes, ``body_timeout`` the longest
    pause while it arrives; ``hosts``: the host names the server answers to besides loopback's;
    ``token``: the token every API request must carry (None: no token).
    """

    db: Path | str = ":memory:"
    think_time: float = DEFAULT_THINK_TIME
    pool: Pool = "process"
    workers: int | None = None
    teach_workers: int | None = None
    teach_queue: int = 4
    seed: int | None = None
    max_body: int = 64 * 1024
    body_timeout: float = 10.0
    hosts: tuple[str, ...] = field(default_factory=tuple)
    token: str | None = None


EXPLAIN_MAX_NODES = 2_000
"""The largest tree ``/api/explain`` draws: beyond it a page can no longer show it usefully."""

COMPARE_WORK = 400_000
"""Nodes times cells each algorithm of ``/api/compare`` may spend (see :func:`compare_node_limit`)."""


def compare_node_limit(cells: int) -> int:
    """The nodes each algorithm of ``/api/compare`` may visit (or evaluate, when ordering moves) on a board
    of ``cells`` cells: 50,000 on small boards, fewer on big ones, where evaluating a position costs more
    (about 1,100 on Gomoku); the think-time cap bounds the whole comparison besides."""
    return max(1_000, min(50_000, COMPARE_WORK // cells))


class Health(BaseModel):
    """How the server stands: ``status`` is ``warming`` while the engine loads (the page is served, and
    moves on big boards wait for it), ``degraded`` when a pool has a dead worker (replaced on the next
    request that needs it), else ``ok``."""

    status: Literal["ok", "warming", "degraded"]
    engine_ready: bool
    pools: list[PoolHealth]


def _responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    words = {
        400: "the input names a game, position, move or choice that does not exist or cannot be played",
        403: "a foreign host or origin, or a missing token",
        404: "no game with this id",
        408: "the request body stopped arriving",
        409: "the move was meant for another ply: the game has moved on",
        413: "the request body is too large",
        422: "the request does not have the shape the route reads",
        503: "the search workers are busy (see Retry-After) or the search ran out of time",
    }
    return {code: {"model": ErrorAnswer, "description": words[code]} for code in codes}


_BODY = (403, 408, 413, 422)


# ------------------------------------------------------------------------------------------ app
def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The FastAPI app; its store (``store``, or one opened on ``settings.db``) and search pools open when
    it starts and close when it stops."""
    settings = settings or Settings()
    cheap = CapacityLimiter(8)
    play_threads = CapacityLimiter(64)
    teach_threads = CapacityLimiter(32)
    engine = threading.Event()

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
                warm_up()
            finally:
                engine.set()

        if settings.pool == "inline":
            engine.set()
        else:
            threading.Thread(target=warm_inline, name="inarow-warm-up", daemon=True).start()
        app.state.sessions = Sessions(opened, settings.think_time, settings.seed, play=play, teach=teach)
        try:
            yield
        finally:
            play.shutdown()
            teach.shutdown()
            opened.close()

    app = FastAPI(
        title="inarow",
        version=__version__,
        summary="Tic-tac-toe and every k-in-a-row game against an exact engine.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )

    def answer(
        request: Request, status: int, error: InarowError | str, headers: dict[str, str] | None = None
    ) -> JSONResponse:
        """The error in the request's language (``Accept-Language``; English by default)."""
        if isinstance(error, str):
            error = InarowError("{text}", text=error)  # words from elsewhere (routing), as they are
        with i18n.language(i18n.from_accept_language(request.headers.get("accept-language"))):
            detail, reason = error.said(), error.reason_said()
        return JSONResponse({"detail": detail, "reason": reason}, status_code=status, headers=headers)

    @app.exception_handler(InarowError)
    async def bad_input(request: Request, error: InarowError) -> JSONResponse:
        if isinstance(error, ServerBusyError):
            return answer(request, 503, error, {"Retry-After": str(error.retry_after)})
        if isinstance(error, StaleMoveError):
            return answer(request, 409, error)
        if isinstance(error, UnknownGameError):
            return answer(request, 404, error)
        if isinstance(error, StoppedError):
            return answer(request, 503, error, {"Retry-After": "5"})
        return answer(request, 400, error)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return answer(request, 422, validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Routing's own answers (no such path, a method the path does not take, a body that cannot be
        # read) in the same JSON as every other error; a 405 lists every method the path takes.
        headers = dict(error.headers or {})
        if error.status_code == 405:
            methods = {
                method
                for route in app.routes
                if isinstance(route, APIRoute) and route.path_regex.match(request.url.path)
                for method in route.methods or ()
            }
            headers["Allow"] = ", ".join(sorted(methods))
        return answer(request, error.status_code, str(error.detail), headers)

    @app.exception_handler(ValueError)
    async def unreadable(request: Request, error: ValueError) -> JSONResponse:
        # A value the parsers refused without an InarowError of their own: still the input's fault.
        return answer(request, 400, InarowError(N_("invalid input: {error}"), error=str(error)))

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        # A bug, not the input: JSON like every other answer (the log has the traceback).
        return answer(
            request,
            500,
            InarowError(N_("internal error: the server failed on this request; its log says why")),
        )

    @app.exception_handler(BrokenExecutor)
    async def broken_pool(request: Request, error: BrokenExecutor) -> JSONResponse:
        return answer(
            request,
            503,
            InarowError(N_("the search workers stopped while answering: try again")),
            {"Retry-After": "1"},
        )

    @app.exception_handler(ClientGone)
    async def client_gone(request: Request, error: ClientGone) -> Response:
        return Response(status_code=499)  # nobody reads it: the client has gone

    def sessions(request: Request) -> Sessions:
        result: Sessions = request.app.state.sessions
        return result

    async def run(request: Request, limiter: CapacityLimiter, work: Callable[[], _T]) -> _T:
        """``work()`` in a thread of ``limiter``; when the client goes away, the searches it waits for
        are cancelled."""
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

    @app.post("/api/analyze", tags=["analysis"], responses=_responses(400, 503, *_BODY))
    async def analyze_position(body: AnalyzeRequest, request: Request) -> AnalysisJSON:
        """The value of a position and of every move: the fields of ``inarow analyze --json``, searched at
        most the server's think time (``exact`` false when the time ran out first)."""
        position = parse_position(body.position, parse_game(body.game))
        result = await run(
            request, play_threads, lambda: sessions(request).analyze(position, body.depth, body.time)
        )
        return words.analysis_json(result, body.position)

    @app.post("/api/games", tags=["games"], status_code=201, responses=_responses(400, 503, *_BODY))
    async def new_game(body: NewGameRequest, request: Request) -> GameState:
        """Start a game; if the computer moves first, its move is in ``reply``."""
        rules = parse_game(body.game)
        return await run(
            request,
            play_threads,
            lambda: sessions(request).new_game(
                rules, body.you, body.first, body.level, body.mode, body.x_player, body.o_player
            ),
        )

    @app.get("/api/games", tags=["games"], responses=_responses(403, 422))
    async def history(
        request: Request,
        limit: int = Query(50, ge=1, le=500, description="how many games"),
        offset: int = Query(0, ge=0, le=MAX_OFFSET, description="how many of the most recent to skip"),
    ) -> History:
        """The games played, the most recently played first, with the score per kind of game."""
        return await anyio.to_thread.run_sync(lambda: sessions(request).history(limit, offset), limiter=cheap)

    @app.get("/api/scores", tags=["games"], responses=_responses(403))
    async def scores(request: Request) -> list[Score]:
        """Wins, draws and losses against the computer, per kind of game."""
        return await anyio.to_thread.run_sync(lambda: sessions(request).store.scores(), limiter=cheap)

    @app.get("/api/games/{game_id}", tags=["games"], responses=_responses(403, 404, 422))
    async def get_game(game_id: str, request: Request) -> GameState:
        """A game as it stands."""
        return await anyio.to_thread.run_sync(lambda: sessions(request).get(game_id), limiter=cheap)

    @app.post("/api/games/{game_id}/moves", tags=["games"], responses=_responses(400, 404, 409, 503, *_BODY))
    async def play(game_id: str, body: MoveRequest, request: Request) -> GameState:
        """Play your move and get the computer's reply; with no move, the computer plays the one it owes.
        ``ply`` (the moves played so far plus one) makes a repeated or stale move a 409 that changes
        nothing."""
        return await run(
            request, play_threads, lambda: sessions(request).play(game_id, body.move, body.reply, body.ply)
        )

    @app.post("/api/games/{game_id}/undo", tags=["games"], responses=_responses(400, 404, 403, 422))
    async def undo(game_id: str, request: Request) -> GameState:
        """Take back your last move and the computer's reply (with two people: the last move)."""
        return await anyio.to_thread.run_sync(lambda: sessions(request).undo(game_id), limiter=cheap)

    @app.get("/api/games/{game_id}/review", tags=["games"], responses=_responses(400, 403, 404, 422, 503))
    async def review(game_id: str, request: Request) -> Review:
        """Every move with the analysis of the position before it; mistakes marked. Each move gets at most
        the think time and the review 8 seconds in all; moves past that are listed with ``reviewed``
        false and the review's ``complete`` false."""
        return await run(request, teach_threads, lambda: sessions(request).review(game_id))

    @app.post(
        "/api/explain",
        tags=["teaching"],
        response_model=ExplanationJSON,
        responses=_responses(400, 503, *_BODY),
    )
    async def explain(body: ExplainRequest, request: Request) -> ExplanationJSON:
        """Every node of a minimax, negamax or α-β search of the position, to draw and replay step by step:
        the fields of ``inarow tree --format json`` (values from X's standpoint, negamax from the side to
        move's; ``"inf"``/``"-inf"`` for ±∞). A tree of more than 2,000 nodes is drawn at the deepest
        depth that fits (``asked_depth`` keeps the depth asked for); when even 1 ply is too many, a 400; a
        search that does not finish within the think time gets a 503."""
        position = parse_position(body.position, parse_game(body.game))
        explanation = await run(
            request,
            teach_threads,
            lambda: sessions(request).search(
                explain_tree,
                position,
                body.algorithm,
                body.depth,
                body.evaluation,
                max_nodes=EXPLAIN_MAX_NODES,
                order=body.order,
                ordering=body.ordering,
                quiescence=body.quiescence,
                deepen=body.deepen,
                fit=True,
            ),
        )
        return explanation.to_json()

    @app.post(
        "/api/compare",
        tags=["teaching"],
        response_model=ComparisonJSON,
        responses=_responses(400, 503, *_BODY),
    )
    async def compare(body: CompareRequest, request: Request) -> ComparisonJSON:
        """Nodes, seconds, value and effective branching factor of minimax, α-β and its improvements and
        the engine on the position, side by side: the fields of ``inarow compare --json``. Each search may
        visit ``max_nodes`` nodes (50,000 on small boards, fewer on big ones) and an equal share of the
        think time; a row stopped by either has ``complete`` false."""
        position = parse_position(body.position, parse_game(body.game))
        comparison = await run(
            request,
            teach_threads,
            lambda: sessions(request).search(
                compare_algorithms,
                position,
                body.depth,
                body.evaluation,
                max_nodes=compare_node_limit(position.game.cells),
                seconds=sessions(request).think_time,
            ),
        )
        return comparison.to_json()

    @app.get("/api/menus", tags=["teaching"], responses=_responses(403))
    async def menus() -> Menus:
        """The algorithms, evaluations, levels and players the other routes accept, and their limits."""
        return Menus(
            algorithms=list(ALGORITHMS),
            evaluations=list(EVALUATIONS),
            levels=list(LEVELS),
            players=list(PLAYER_NAMES),
            max_depth=EXPLAIN_MAX_DEPTH,
            explain_max_nodes=EXPLAIN_MAX_NODES,
            max_player_work=MAX_PLAYER_WORK,
        )

    @app.get("/api/health", tags=["server"], responses=_responses(403))
    async def health(request: Request) -> Health:
        """Whether the engine has loaded and how each pool of search workers stands, read now."""
        current = sessions(request)
        pools = [current.play_pool.health(), current.teach_pool.health()]
        if any(p.state == "broken" for p in pools):
            status: Literal["ok", "warming", "degraded"] = "degraded"
        elif not engine.is_set() or any(p.state == "warming" for p in pools):
            status = "warming"
        else:
            status = "ok"
        return Health(status=status, engine_ready=engine.is_set(), pools=pools)

    app.include_router(trees_router)
    app.include_router(positions_router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/i18n/{tags}.json", include_in_schema=False)
    def catalog(tags: str, request: Request) -> Response:
        # The page's words in the language negotiated from ``tags`` (see inarow.web.catalog); the browser
        # keeps the answer and asks again with its ETag, answered 304 while the catalog is the same.
        body, etag = catalog_answer(tags[:200])
        headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.get("/glossary", include_in_schema=False)
    def glossary(request: Request, lang: str = "") -> HTMLResponse:
        language = lang or i18n.from_accept_language(request.headers.get("accept-language"))
        return HTMLResponse(glossary_page(language), headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        # No Swagger UI from a CDN the machine may not reach: the routes, and the schema itself.
        rows = "".join(
            f"<li><code>{html.escape(method.upper())} {html.escape(path)}</code> — "
            f"{html.escape(operation.get('summary', ''))}</li>"
            for path, item in app.openapi()["paths"].items()
            for method, operation in item.items()
        )
        page = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>inarow API</title>'
            '<link rel="stylesheet" href="/static/style.css"></head><body><main>'
            "<h1>inarow HTTP API</h1><p>The whole OpenAPI schema: "
            '<a href="/openapi.json">/openapi.json</a>.</p>'
            f"<ul>{rows}</ul></main></body></html>"
        )
        return HTMLResponse(page)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(ReadBody, limit=settings.max_body, timeout=settings.body_timeout)
    app.add_middleware(Guard, hosts=(*LOOPBACK_HOSTS, *settings.hosts), token=settings.token)
    return app
