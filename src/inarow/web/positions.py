"""The routes of positions set up by hand and of the history's housekeeping: ``POST /api/positions`` reads
a position (a diagram or a move list, as typed, full-width forms included) and answers a move order that
reaches it, so the page can open it as a game to play on; ``DELETE /api/games/{game_id}`` forgets a game.

Both are cheap (no search): they run in FastAPI's thread pool.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from inarow.notation import MAX_INPUT, parse_game, parse_position, play_order
from inarow.sessions import Sessions
from inarow.web.schemas import GAME_PATTERN, GAME_WORDS

router = APIRouter(tags=["games"])


class PositionRequest(BaseModel):
    """A position to set up: the game and the position as typed."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    position: str = Field(
        "",
        max_length=MAX_INPUT,
        description="a diagram 'x.o/.x./..o', a move list 'b2 a1' ('（2，2）' and '５' as a Chinese input "
        "method types them), or Connect Four digits '4453'",
    )


class PositionMoves(BaseModel):
    """A position read, with moves from the empty board that reach it."""

    game: str = Field(description="the game's name")
    diagram: str = Field(description="the board, rows from the top separated by '/'")
    moves: list[str] = Field(description="moves from the empty board that reach the board, in order")
    to_move: str | None = Field(description="x or o, or null when the game is over")
    result: str | None = Field(description="x, o or draw when the game is over")


def _sessions(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


@router.post("/api/positions", responses={400: {"description": "a position that cannot be read or reached"}})
def read_position(body: PositionRequest) -> PositionMoves:
    """The position ``position`` of ``game`` and moves that reach it from the empty board (a diagram's
    stones in an order of play where nobody wins before the last move)."""
    game = parse_game(body.game)
    position = parse_position(body.position, game)
    return PositionMoves(
        game=game.name,
        diagram=position.diagram(),
        moves=[game.cell_name(bit) for bit in play_order(position)],
        to_move=None if position.is_over else position.turn,
        result=position.result,
    )


@router.delete(
    "/api/games/{game_id}", status_code=204, responses={404: {"description": "no game with this id"}}
)
def delete_game(game_id: str, request: Request) -> Response:
    """Forget the game ``game_id`` and its moves (the scores count the games kept)."""
    _sessions(request).store.delete_game(game_id)
    return Response(status_code=204)
