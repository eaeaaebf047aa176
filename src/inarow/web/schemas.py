"""The HTTP API's request bodies and error answers, and how a refused body is put in words."""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field

from inarow.evaluation import EVALUATIONS
from inarow.search.textbook import ALGORITHMS

EXPLAIN_MAX_DEPTH = 9
"""The deepest search the teaching routes run, in plies (tic-tac-toe to the end)."""


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
    evaluation: str = Field(
        "open-lines", max_length=200, description=f"one of {', '.join(EVALUATIONS)}, or weights:W0,W1,…,Wk"
    )
    order: str = Field("columns", max_length=16, description="columns (the default) or rows, from the top")
    ordering: bool = Field(False, description="try the children best-first by e(P) after the move")
    quiescence: bool = Field(False, description="search on at the horizon while a side can win or must block")
    deepen: bool = Field(
        False, description="iterative deepening: depths 1, 2, … first, each previous best first"
    )


class CompareRequest(_Body):
    """A position to search with every textbook algorithm and the engine: the arguments of
    ``inarow compare``."""

    game: str = Field("tictactoe", max_length=64, description="a preset or COLSxROWS:K[:gravity]")
    position: str = Field("", max_length=4096, description="a diagram, a move list or column digits")
    depth: int | None = Field(
        2, ge=0, le=EXPLAIN_MAX_DEPTH, description="plies; null searches to the end of the game"
    )
    evaluation: str = Field(
        "open-lines", max_length=200, description=f"one of {', '.join(EVALUATIONS)}, or weights:W0,W1,…,Wk"
    )


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


def _field(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "body"


def validation_message(error: RequestValidationError) -> str:
    """A refused body in words: ``invalid request: 'depth': Input should be a valid integer``."""
    problems = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            problems.append(
                f"the body is not valid JSON ({item.get('ctx', {}).get('error', 'cannot parse')})"
            )
        else:
            problems.append(f"{_field(tuple(item.get('loc', ())))!r}: {item.get('msg', 'invalid')}")
    return "invalid request: " + "; ".join(problems)
