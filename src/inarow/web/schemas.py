"""The HTTP API's request bodies and error answers, and how a refused body is put in words."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi.exceptions import RequestValidationError
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool

from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.engines.textbook import ALGORITHMS
from inarow.evaluation.lines import EVALUATIONS

EXPLAIN_MAX_DEPTH = 9
"""The deepest search the teaching routes run, in plies (tic-tac-toe to the end)."""


MAX_OFFSET = 2**31
"""The largest offset into the history (SQLite's integers overflow past 2**63)."""

MAX_SEARCH_DEPTH = 400
"""The deepest ``/api/analyze`` search, in plies (more than any board has)."""

GAME_WORDS = "a preset or COLSxROWS:K[:gravity][:exact][:renju], then :o-first when O moves first"
GAME_PATTERN = (
    r"^ *([A-Za-z]+[0-9]?(-[A-Za-z]+)?|[0-9]{1,2}[xX][0-9]{1,2}(:[0-9]{1,2})?(:[A-Za-z]+){0,3})"
    r"(:[Oo]-[A-Za-z]+)? *$"
)
"""What a game name looks like: a preset (tictactoe, 4x4, 5x5, connect4, gomoku) or
COLSxROWS[:K][:gravity]; a name of that shape that is not a game gets a 400 saying why."""


def _printable_ascii(value: str) -> str:
    # Positions, moves and names are written in ASCII; a Unicode digit such as '²' is refused here, by
    # name, before any parser reads it as a number.
    bad = next((c for c in value if not " " <= c <= "~"), None)
    if bad is not None:
        raise InarowError(
            N_("{value!r} holds {char!r}: only ASCII letters, digits, spaces and . / : - are read"),
            value=value,
            char=bad,
        )
    return value


ASCII_PATTERN = "^[ -~]*$"

Ascii = Annotated[str, AfterValidator(_printable_ascii), Field(json_schema_extra={"pattern": ASCII_PATTERN})]
"""A string of printable ASCII: the schema says so, and a refusal names the character."""


Typed = str
"""Moves and positions as a Chinese input method types them (``（２，２）``, ``５``): the rules read them
(:func:`inarow.rules.game.as_typed`), so that anything they cannot read is a 400 naming it, as any other
position they refuse."""


def _json_number(value: object) -> object:
    # JSON numbers only: not true/false, not "3" (which Python would read as numbers).
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, not {json.dumps(value)}")
    return value


JSON_NUMBER = BeforeValidator(_json_number)
"""Numbers as JSON writes them (``2`` or ``2.0`` for an integer), never a boolean or a string; it comes
after a field's bounds, so that the schema states them."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class AnalyzeRequest(_Body):
    """A position to analyse: the fields ``inarow analyze`` takes."""

    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    position: Typed = Field("", max_length=4096, description="a diagram, a move list or column digits")
    depth: Annotated[int, Field(ge=0, le=MAX_SEARCH_DEPTH), JSON_NUMBER] | None = Field(
        None, description="plies of depth-limited search instead of the exact one"
    )
    time: Annotated[float, Field(gt=0, le=86400), JSON_NUMBER] | None = Field(
        None, description="seconds, more than 0; capped by the server's think time"
    )


class NewGameRequest(_Body):
    """The choices of a new game."""

    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    you: Ascii = Field("x", max_length=16, description="the mark you play: x or o")
    first: Ascii = Field("you", max_length=16, description="who moves first: you, computer or random")
    level: Ascii = Field("medium", max_length=16, description="easy, medium, hard or perfect")
    mode: Ascii = Field("computer", max_length=16, description="computer, humans (one device) or computers")
    x_player: Ascii | None = Field(
        None,
        max_length=64,
        description="mode computers: who plays X (random, rules, easy…perfect, minimax:2:open-lines…); "
        "default the level",
    )
    o_player: Ascii | None = Field(None, max_length=64, description="mode computers: who plays O")


class MoveRequest(_Body):
    """Your move; without one, the computer plays the move it owes (its reply, or the next move of a
    computer-against-computer game)."""

    move: Typed | None = Field(None, max_length=16, description="a cell name such as b2, or a column number")
    reply: StrictBool = Field(True, description="whether the computer replies in the same request")
    ply: Annotated[int, Field(ge=1, le=MAX_SEARCH_DEPTH), JSON_NUMBER] | None = Field(
        None,
        description="the number this move is meant to have (moves played so far plus one): a move sent "
        "twice or for a game that has moved on gets 409 and changes nothing",
    )


class UndoRequest(_Body):
    """What the page saw when Undo was pressed (the body may be left out: the last move is taken back)."""

    ply: Annotated[int, Field(ge=1, le=MAX_SEARCH_DEPTH), JSON_NUMBER] | None = Field(
        None,
        description="the moves played so far plus one, as the page saw the game: an Undo sent twice or for "
        "a game that has moved on gets 409 and takes nothing back",
    )


class ExplainRequest(_Body):
    """A textbook search to draw: the arguments of ``inarow tree``."""

    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    position: Typed = Field("", max_length=4096, description="a diagram, a move list or column digits")
    algorithm: Ascii = Field("alphabeta", max_length=32, description=f"one of {', '.join(ALGORITHMS)}")
    depth: Annotated[int, Field(ge=0, le=EXPLAIN_MAX_DEPTH), JSON_NUMBER] | None = Field(
        2, description="plies; null searches to the end of the game"
    )
    evaluation: Ascii = Field(
        "open-lines", max_length=200, description=f"one of {', '.join(EVALUATIONS)}, or weights:W0,W1,…,Wk"
    )
    order: Ascii = Field("columns", max_length=16, description="columns (the default) or rows, from the top")
    ordering: StrictBool = Field(False, description="try the children best-first by e(P) after the move")
    quiescence: StrictBool = Field(
        False, description="search on at the horizon while a side can win or must block"
    )
    deepen: StrictBool = Field(
        False, description="iterative deepening: depths 1, 2, … first, each previous best first"
    )
    max: Literal["x", "o"] | None = Field(
        None,
        description="MAX, the side whose standpoint the values take: x or o; null, the side to move (so the "
        "root is a Max node)",
    )


class CompareRequest(_Body):
    """A position to search with every textbook algorithm and the engine: the arguments of
    ``inarow compare``."""

    game: str = Field("tictactoe", max_length=64, pattern=GAME_PATTERN, description=GAME_WORDS)
    position: Typed = Field("", max_length=4096, description="a diagram, a move list or column digits")
    depth: Annotated[int, Field(ge=0, le=EXPLAIN_MAX_DEPTH), JSON_NUMBER] | None = Field(
        2, description="plies; null searches to the end of the game"
    )
    evaluation: Ascii = Field(
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


def validation_message(error: RequestValidationError) -> InarowError:
    """A refused body in words: ``invalid request: 'depth': Input should be a valid integer``."""
    problems = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            problems.append(
                InarowError(
                    N_("the body is not valid JSON ({error})"),
                    error=item.get("ctx", {}).get("error", "cannot parse"),
                )
            )
        else:
            cause = item.get("ctx", {}).get("error") if item.get("type") == "value_error" else None
            # A rule's own refusal (a digit other than 0-9) is said as the rules say it, translated.
            problem = cause if isinstance(cause, InarowError) else str(cause or item.get("msg"))
            problems.append(
                InarowError("{field!r}: {problem}", field=_field(tuple(item.get("loc", ()))), problem=problem)
            )
    return InarowError(N_("invalid request: {problems}"), problems=tuple(problems))
