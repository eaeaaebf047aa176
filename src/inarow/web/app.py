"""The web app: the HTTP API over :mod:`inarow.sessions` and the static page that plays through it.

The server owns the rules; the page only draws and asks. Routes are plain functions, which FastAPI runs in
its thread pool; the searches they start run in the executor of :class:`Settings` (a process pool by
default), each limited to ``think_time`` seconds, so one long search never stalls another request.

The teaching routes (``/api/explain``, ``/api/compare``) run textbook searches, which have no clock: they
are bounded by depth and by nodes instead (:data:`EXPLAIN_MAX_NODES`, :func:`compare_node_limit`).

Errors: every :class:`~inarow.errors.InarowError` becomes a 400 with its message (404 for an unknown game),
a request body that is not what the route reads becomes a 422 whose ``detail`` names the field, a body over
``max_body`` bytes a 413. Every error answer is JSON with a ``detail`` string.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from inarow import __version__
from inarow.errors import InarowError, UnknownGameError
from inarow.evaluation import EVALUATIONS
from inarow.explain import ComparisonJSON, ExplanationJSON, compare_algorithms, explain_tree
from inarow.notation import parse_game, parse_position
from inarow.players import DEFAULT_THINK_TIME, LEVELS, PLAYER_NAMES
from inarow.search.textbook import ALGORITHMS
from inarow.sessions import (
    MAX_PLAYER_WORK,
    GameState,
    History,
    InlineExecutor,
    Review,
    Sessions,
    exit_with_parent,
    warm_up,
)
from inarow.store import Score, Store

STATIC = Path(__file__).parent / "static"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Settings:
    """How the server runs.

    ``db``: the SQLite file (``":memory:"`` for none); ``think_time``: the most seconds any one search may
    take (computer moves, hints, analysis); ``pool``: where searches run, ``process`` (a pool of
    ``workers`` processes, default one per core up to 4), ``thread`` or ``inline``; ``seed``: makes the
    games' random choices reproducible; ``max_body``: the largest request body accepted, in bytes.
    """

    db: Path | str = ":memory:"
    think_time: float = DEFAULT_THINK_TIME
    pool: Literal["process", "thread", "inline"] = "process"
    workers: int | None = None
    seed: int | None = None
    max_body: int = 64 * 1024


EXPLAIN_MAX_DEPTH = 9
"""The deepest search the teaching routes run, in plies (tic-tac-toe to the end)."""

EXPLAIN_MAX_NODES = 2_000
"""The largest tree ``/api/explain`` draws: beyond it a page can no longer show it usefully."""

COMPARE_WORK = 400_000
"""Nodes times cells each algorithm of ``/api/compare`` may spend (see :func:`compare_node_limit`)."""


def compare_node_limit(cells: int) -> int:
    """The nodes each algorithm of ``/api/compare`` may visit on a board of ``cells`` cells: 50,000 on
    small boards, fewer on big ones, where evaluating a position costs more (about 1,800 on Gomoku), so a
    comparison takes seconds, not minutes."""
    return max(1_000, min(50_000, COMPARE_WORK // cells))


# ------------------------------------------------------------------------------------ requests
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AnalyzeRequest(_Body):
    """A position to analyse: the fields ``inarow analyze`` takes."""

    game: str = Field("tictactoe", max_length=64, description="a preset or COLSxROWS:K[:gravity]")
    position: str = Field("", max_length=4096, description="a diagram, a move list or column digits")
    depth: int | None = Field(None, description="plies of depth-limited search instead of the exact one")
    time: float | None = Field(None, description="seconds; capped by the server's think time")


class NewGameRequest(_Body):
    """The choices of a new game."""

    game: str = Field("tictactoe", max_length=64, description="a preset or COLSxROWS:K[:gravity]")
    you: str = Field("x", max_length=16, description="the mark you play: x or o")
    first: str = Field("you", max_length=16, description="who moves first: you, computer or random")
    level: str = Field("medium", max_length=16, description="easy, medium, hard or perfect")
    mode: str = Field("computer", max_length=16, description="computer, humans (one device) or computers")
    x_player: str | None = Field(
        None,
        max_length=64,
        description="mode computers: who plays X (random, rules, easy…perfect, minimax:2:open-lines…); "
        "default the level",
    )
    o_player: str | None = Field(None, max_length=64, description="mode computers: who plays O")


class MoveRequest(_Body):
    """Your move; without one, the computer plays the move it owes (its reply, or the next move of a
    computer-against-computer game)."""

    move: str | None = Field(None, max_length=16, description="a cell name such as b2, or a column number")
    reply: bool = Field(True, description="whether the computer replies in the same request")


class ExplainRequest(_Body):
    """A textbook search to draw: the arguments of ``inarow tree``."""

    game: str = Field("tictactoe", max_length=64, description="a preset or COLSxROWS:K[:gravity]")
    position: str = Field("", max_length=4096, description="a diagram, a move list or column digits")
    algorithm: str = Field("alphabeta", max_length=32, description=f"one of {', '.join(ALGORITHMS)}")
    depth: int | None = Field(
        2, ge=0, le=EXPLAIN_MAX_DEPTH, description="plies; null searches to the end of the game"
    )
    evaluation: str = Field("open-lines", max_length=32, description=f"one of {', '.join(EVALUATIONS)}")


class CompareRequest(_Body):
    """A position to search with every textbook algorithm and the engine: the arguments of
    ``inarow compare``."""

    game: str = Field("tictactoe", max_length=64, description="a preset or COLSxROWS:K[:gravity]")
    position: str = Field("", max_length=4096, description="a diagram, a move list or column digits")
    depth: int | None = Field(
        2, ge=0, le=EXPLAIN_MAX_DEPTH, description="plies; null searches to the end of the game"
    )
    evaluation: str = Field("open-lines", max_length=32, description=f"one of {', '.join(EVALUATIONS)}")


class Menus(BaseModel):
    """The choices the page offers: what ``/api/explain``, ``/api/compare`` and a new game accept."""

    algorithms: list[str]
    evaluations: list[str]
    levels: list[str]
    players: list[str]
    """Players known by one name; textbook searches are named ``ALGORITHM:DEPTH[:EVALUATION]``."""
    max_depth: int
    explain_max_nodes: int
    max_player_work: int


class ErrorAnswer(BaseModel):
    """Every error answer: ``detail`` is the whole message, ``reason`` its last clause alone (``cell is
    taken``) for a page that already shows the move and the board."""

    detail: str
    reason: str


def _explain(body: ExplainRequest) -> ExplanationJSON:
    """``/api/explain`` in a search worker: the request parsed, the tree recorded, its JSON (a game and its
    positions do not cross between processes, so the worker parses the request itself)."""
    position = parse_position(body.position, parse_game(body.game))
    return explain_tree(
        position, body.algorithm, body.depth, body.evaluation, max_nodes=EXPLAIN_MAX_NODES
    ).to_json()


def _compare(body: CompareRequest) -> ComparisonJSON:
    """``/api/compare`` in a search worker, like :func:`_explain`."""
    position = parse_position(body.position, parse_game(body.game))
    return compare_algorithms(
        position, body.depth, body.evaluation, max_nodes=compare_node_limit(position.game.cells)
    ).to_json()


# ------------------------------------------------------------------------------------ plumbing
class LimitBody:
    """ASGI middleware that answers 413 to a body over ``limit`` bytes, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        received, too_large, refused = 0, False, False

        async def counted_receive() -> Message:
            # Past the limit the app gets an empty end of body, and its answer is replaced by a 413.
            nonlocal received, too_large
            if too_large:
                return {"type": "http.request", "body": b"", "more_body": False}
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                too_large = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal refused
            if not too_large:
                await send(message)
            elif not refused:
                refused = True
                await self._refuse(send)

        await self.app(scope, counted_receive, guarded_send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse(
            {
                "detail": f"request body too large: at most {self.limit} bytes",
                "reason": "request body too large",
            },
            status_code=413,
        )
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:  # pragma: no cover - a JSONResponse never reads
    return {"type": "http.disconnect"}


def _executor(settings: Settings) -> tuple[Executor, int]:
    """The executor searches run on, and how many workers it has."""
    if settings.pool == "inline":
        return InlineExecutor(), 1
    workers = settings.workers or max(1, min(4, os.cpu_count() or 1))
    if settings.pool == "thread":
        return ThreadPoolExecutor(workers, thread_name_prefix="inarow-search"), workers
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
    return pool, workers


def _field(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "body"


def _validation_message(error: RequestValidationError) -> str:
    problems = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            problems.append(
                f"the body is not valid JSON ({item.get('ctx', {}).get('error', 'cannot parse')})"
            )
        else:
            problems.append(f"{_field(tuple(item.get('loc', ())))!r}: {item.get('msg', 'invalid')}")
    return "invalid request: " + "; ".join(problems)


# ------------------------------------------------------------------------------------------ app
def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI app; its store and search pool open when it starts and close when it stops."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db)
        executor, workers = _executor(settings)
        warm_up()  # small boards are searched in this process: compile the engine before the first player
        if isinstance(executor, ProcessPoolExecutor):
            # Start every worker now, so the first player does not wait for the engine to import.
            for future in [executor.submit(warm_up) for _ in range(workers)]:
                future.result()
        app.state.sessions = Sessions(store, executor, settings.think_time, settings.seed)
        try:
            yield
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(
        title="inarow",
        version=__version__,
        summary="Tic-tac-toe and every k-in-a-row game against an exact engine.",
        lifespan=lifespan,
        responses={400: {"model": ErrorAnswer}, 422: {"model": ErrorAnswer}, 413: {"model": ErrorAnswer}},
    )

    @app.exception_handler(InarowError)
    async def bad_input(request: Request, error: InarowError) -> JSONResponse:
        status = 404 if isinstance(error, UnknownGameError) else 400
        return JSONResponse({"detail": str(error), "reason": error.reason}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        message = _validation_message(error)
        return JSONResponse({"detail": message, "reason": message}, status_code=422)

    @app.exception_handler(BrokenExecutor)
    async def broken_pool(request: Request, error: BrokenExecutor) -> JSONResponse:
        message = "the search workers have stopped: restart inarow serve"
        return JSONResponse({"detail": message, "reason": message}, status_code=503)

    def sessions(request: Request) -> Sessions:
        result: Sessions = request.app.state.sessions
        return result

    @app.post("/api/analyze", tags=["analysis"])
    def analyze_position(body: AnalyzeRequest, request: Request) -> dict[str, Any]:
        """The value of a position and of every move: the fields of ``inarow analyze --json``."""
        return sessions(request).analyze(body.game, body.position, body.depth, body.time)

    @app.post("/api/games", tags=["games"], status_code=201)
    def new_game(body: NewGameRequest, request: Request) -> GameState:
        """Start a game; if the computer moves first, its move is in ``reply``."""
        return sessions(request).new_game(
            body.game, body.you, body.first, body.level, body.mode, body.x_player, body.o_player
        )

    @app.get("/api/games", tags=["games"])
    def history(
        request: Request,
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0),
    ) -> History:
        """The games played, the most recently played first, with the score per kind of game."""
        return sessions(request).history(limit, offset)

    @app.get("/api/scores", tags=["games"])
    def scores(request: Request) -> list[Score]:
        """Wins, draws and losses against the computer, per kind of game."""
        return sessions(request).store.scores()

    @app.get("/api/games/{game_id}", tags=["games"], responses={404: {"model": ErrorAnswer}})
    def get_game(game_id: str, request: Request) -> GameState:
        """A game as it stands."""
        return sessions(request).get(game_id)

    @app.post("/api/games/{game_id}/moves", tags=["games"], responses={404: {"model": ErrorAnswer}})
    def play(game_id: str, body: MoveRequest, request: Request) -> GameState:
        """Play your move and get the computer's reply; with no move, the computer plays the one it owes."""
        return sessions(request).play(game_id, body.move, body.reply)

    @app.post("/api/games/{game_id}/undo", tags=["games"], responses={404: {"model": ErrorAnswer}})
    def undo(game_id: str, request: Request) -> GameState:
        """Take back your last move and the computer's reply (with two people: the last move)."""
        return sessions(request).undo(game_id)

    @app.get("/api/games/{game_id}/review", tags=["games"], responses={404: {"model": ErrorAnswer}})
    def review(game_id: str, request: Request) -> Review:
        """Every move with the analysis of the position before it; mistakes marked."""
        return sessions(request).review(game_id)

    @app.post("/api/explain", tags=["teaching"], response_model=ExplanationJSON)
    def explain(body: ExplainRequest, request: Request) -> ExplanationJSON:
        """Every node of a minimax, negamax or α-β search of the position, to draw and replay step by step:
        the fields of ``inarow tree --format json`` (values from X's standpoint, negamax from the side to
        move's; ``"inf"``/``"-inf"`` for ±∞). A tree of more than 2,000 nodes is refused with a 400."""
        parse_game(body.game)  # a bad game is named before a worker is asked
        return sessions(request).executor.submit(_explain, body).result()

    @app.post("/api/compare", tags=["teaching"], response_model=ComparisonJSON)
    def compare(body: CompareRequest, request: Request) -> ComparisonJSON:
        """Nodes, seconds, value and effective branching factor of minimax, α-β and its improvements and
        the engine on the position, side by side: the fields of ``inarow compare --json``. Each search may
        visit ``max_nodes`` nodes (50,000 on small boards, fewer on big ones); a row it stopped has
        ``complete`` false."""
        parse_game(body.game)  # a bad game is named before a worker is asked
        return sessions(request).executor.submit(_compare, body).result()

    @app.get("/api/menus", tags=["teaching"])
    def menus() -> Menus:
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

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(LimitBody, limit=settings.max_body)
    return app
