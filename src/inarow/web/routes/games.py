"""The routes of a game: start one, read it, play a move, take one back, forget it."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from inarow.rules.notation import parse_game
from inarow.sessions import GameState
from inarow.web.deps import BODY, SessionsDep, WorkDep, responses
from inarow.web.schemas import MoveRequest, NewGameRequest, UndoRequest

router = APIRouter(tags=["games"])


@router.post("/api/games", status_code=201, responses=responses(400, 503, *BODY))
async def new_game(body: NewGameRequest, sessions: SessionsDep, work: WorkDep) -> GameState:
    """Start a game; if the computer moves first, its move is in ``reply``."""
    rules = parse_game(body.game)
    return await work.play(
        lambda: sessions.new_game(
            rules, body.you, body.first, body.level, body.mode, body.x_player, body.o_player
        )
    )


@router.get("/api/games/{game_id}", responses=responses(403, 404, 422))
async def get_game(game_id: str, sessions: SessionsDep, work: WorkDep) -> GameState:
    """A game as it stands."""
    return await work.cheap(lambda: sessions.get(game_id))


@router.post("/api/games/{game_id}/moves", responses=responses(400, 404, 409, 503, *BODY))
async def play(game_id: str, body: MoveRequest, sessions: SessionsDep, work: WorkDep) -> GameState:
    """Play your move and get the computer's reply; with no move, the computer plays the one it owes.
    ``ply`` (the moves played so far plus one) makes a repeated or stale move a 409 that changes
    nothing."""
    return await work.play(lambda: sessions.play(game_id, body.move, body.reply, body.ply))


@router.post("/api/games/{game_id}/undo", responses=responses(400, 404, 409, *BODY))
async def undo(
    game_id: str, sessions: SessionsDep, work: WorkDep, body: UndoRequest | None = None
) -> GameState:
    """Take back your last move and the computer's reply (with two people: the last move). ``ply`` (the
    moves played so far plus one, as for a move) makes a second Undo of the same click, or one from a
    page that missed a move, a 409 that takes nothing back."""
    ply = body.ply if body is not None else None
    return await work.cheap(lambda: sessions.undo(game_id, ply))


class Deleted(BaseModel):
    """The id of the game forgotten."""

    deleted: str = Field(description="the game's id")


@router.delete("/api/games/{game_id}", responses=responses(403, 404, 422))
def delete_game(game_id: str, sessions: SessionsDep) -> Deleted:
    """Forget the game ``game_id`` and its moves (the scores count the games kept). Cheap: it runs in
    FastAPI's thread pool."""
    sessions.store.delete_game(game_id)
    return Deleted(deleted=game_id)
