"""The route of positions set up by hand: ``POST /api/positions`` reads a position (a diagram or a move
list, as typed, full-width forms included) and answers a move order that reaches it, so the page can open
it as a game to play on. It is cheap (no search): it runs in FastAPI's thread pool.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from inarow.rules.notation import MAX_INPUT, parse_game, parse_position, play_order
from inarow.web.schemas import GAME_PATTERN, GAME_WORDS, ErrorAnswer

router = APIRouter(tags=["games"])


def _errors(**codes: str) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route, each an :class:`ErrorAnswer` (``code_404="no game with this id"``)."""
    guarded = {"code_403": "a foreign host or origin, or a missing token", **codes}
    guarded.setdefault("code_422", "the request does not have the shape the route reads")
    return {int(code[5:]): {"model": ErrorAnswer, "description": words} for code, words in guarded.items()}


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


@router.post("/api/positions", responses=_errors(code_400="a position that cannot be read or reached"))
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
