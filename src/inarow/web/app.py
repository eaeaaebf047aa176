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

from collections.abc import AsyncIterator
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from inarow import __version__
from inarow.analysis import AnalysisJSON
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
    Pool,
    Review,
    Sessions,
    make_executor,
    warm_up,
)
from inarow.store import Score, Store
from inarow.web.middleware import LimitBody
from inarow.web.schemas import (
    EXPLAIN_MAX_DEPTH,
    AnalyzeRequest,
    CompareRequest,
    ErrorAnswer,
    ExplainRequest,
    Menus,
    MoveRequest,
    NewGameRequest,
    validation_message,
)

STATIC = Path(__file__).parent / "static"


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
    pool: Pool = "process"
    workers: int | None = None
    seed: int | None = None
    max_body: int = 64 * 1024


EXPLAIN_MAX_NODES = 2_000
"""The largest tree ``/api/explain`` draws: beyond it a page can no longer show it usefully."""

COMPARE_WORK = 400_000
"""Nodes times cells each algorithm of ``/api/compare`` may spend (see :func:`compare_node_limit`)."""


def compare_node_limit(cells: int) -> int:
    """The nodes each algorithm of ``/api/compare`` may visit on a board of ``cells`` cells: 50,000 on
    small boards, fewer on big ones, where evaluating a position costs more (about 1,800 on Gomoku), so a
    comparison takes seconds, not minutes."""
    return max(1_000, min(50_000, COMPARE_WORK // cells))


# ------------------------------------------------------------------------------------ plumbing
# ------------------------------------------------------------------------------------------ app
def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI app; its store and search pool open when it starts and close when it stops."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db)
        executor, workers = make_executor(settings.pool, settings.workers)
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
        message = validation_message(error)
        return JSONResponse({"detail": message, "reason": message}, status_code=422)

    @app.exception_handler(BrokenExecutor)
    async def broken_pool(request: Request, error: BrokenExecutor) -> JSONResponse:
        message = "the search workers have stopped: restart inarow serve"
        return JSONResponse({"detail": message, "reason": message}, status_code=503)

    def sessions(request: Request) -> Sessions:
        result: Sessions = request.app.state.sessions
        return result

    @app.post("/api/analyze", tags=["analysis"])
    def analyze_position(body: AnalyzeRequest, request: Request) -> AnalysisJSON:
        """The value of a position and of every move: the fields of ``inarow analyze --json``."""
        position = parse_position(body.position, parse_game(body.game))
        return sessions(request).analyze(position, body.depth, body.time).to_json(body.position)

    @app.post("/api/games", tags=["games"], status_code=201)
    def new_game(body: NewGameRequest, request: Request) -> GameState:
        """Start a game; if the computer moves first, its move is in ``reply``."""
        return sessions(request).new_game(
            parse_game(body.game), body.you, body.first, body.level, body.mode, body.x_player, body.o_player
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
        move's; ``"inf"``/``"-inf"`` for ±∞). A tree of more than 2,000 nodes is drawn at the deepest
        depth that fits (``asked_depth`` keeps the depth asked for); when even 1 ply is too many, a 400."""
        position = parse_position(body.position, parse_game(body.game))
        explanation = sessions(request).search(
            position.game,
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
        )
        return explanation.to_json()

    @app.post("/api/compare", tags=["teaching"], response_model=ComparisonJSON)
    def compare(body: CompareRequest, request: Request) -> ComparisonJSON:
        """Nodes, seconds, value and effective branching factor of minimax, α-β and its improvements and
        the engine on the position, side by side: the fields of ``inarow compare --json``. Each search may
        visit ``max_nodes`` nodes (50,000 on small boards, fewer on big ones); a row it stopped has
        ``complete`` false."""
        position = parse_position(body.position, parse_game(body.game))
        comparison = sessions(request).search(
            position.game,
            compare_algorithms,
            position,
            body.depth,
            body.evaluation,
            max_nodes=compare_node_limit(position.game.cells),
        )
        return comparison.to_json()

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
