"""The values the game service answers with: a game as the person sees it, a page of history, a review."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from inarow.sessions.notes import MoveNote
from inarow.values.store import By, Mode, Score

Waiting = Literal["you", "computer", "human"]
"""Whose move it is: ``you`` (the person, against the computer), ``computer``, or ``human`` (two people)."""


@dataclass(frozen=True, kw_only=True)
class PlayedMove:
    """A move of a game: ``move`` as the rules name it, ``cell`` the square it landed on (``d1``);
    ``note`` why the computer played it (None for a person's move)."""

    ply: int
    move: str
    cell: str
    side: str
    by: By
    note: MoveNote | None


@dataclass(frozen=True, kw_only=True)
class GameState:
    """A game as the person sees it. ``symbols`` maps each side (x moves first) to the mark shown for it:
    a person who chose O but moves first plays the side ``x`` shown as ``o``."""

    id: str
    game: str
    columns: int
    rows: int
    k: int
    gravity: bool
    mode: Mode
    level: str
    players: dict[str, str]
    """Who plays each side: ``you``, ``human`` or the name of a computer player (``rules``, ``medium``…)."""
    you: str | None
    """The side the person plays against the computer (None in the other modes)."""
    symbols: dict[str, str]
    first: str
    """Who was asked to move first: ``you``, ``computer`` or ``random``."""
    first_mover: str
    """Who moves first: ``you`` or ``computer`` against the computer, else ``x``."""
    moves: list[PlayedMove]
    position: str
    """The moves so far, as ``inarow analyze`` and ``POST /api/analyze`` read them."""
    diagram: str
    to_move: str | None
    waiting_for: Waiting | None
    legal_moves: list[str]
    result: str | None
    outcome: str | None
    """``win``, ``draw`` or ``loss`` for the person against the computer, once the game is over."""
    winning_line: list[str]
    created: float
    updated: float
    reply: PlayedMove | None = None
    """The computer's move played while answering this request, if any."""
    forbidden: dict[str, str] = field(default_factory=dict)
    """The cells the side to move may not play, with why (``overline``, ``double-four``,
    ``double-three``): Black's forbidden points in Renju; empty in every other game."""


@dataclass(frozen=True, kw_only=True)
class GameSummary:
    """One line of the history."""

    id: str
    game: str
    mode: Mode
    level: str
    players: dict[str, str]
    you: str | None
    symbols: dict[str, str]
    plies: int
    result: str | None
    outcome: str | None
    created: float
    updated: float


@dataclass(frozen=True, kw_only=True)
class History:
    """A page of the history, most recent first, and how many games there are in all."""

    total: int
    games: list[GameSummary]
    scores: list[Score]


@dataclass(frozen=True, kw_only=True)
class MoveEvaluation:
    """What one legal move leads to with best play, for the side that plays it."""

    move: str
    exact: bool
    value: int | None
    score: int
    plies: int | None
    description: str


@dataclass(frozen=True, kw_only=True)
class ReviewedMove:
    """A move of a game judged by the analysis of the position before it.

    ``mistake`` is True when the move turned a win into a draw or a loss, or a draw into a loss; it is
    only ever set from exact values (on boards too big to solve in time, nothing is marked).
    """

    ply: int
    move: str
    cell: str
    side: str
    by: By
    before: str
    """The diagram of the position the move was played in."""
    exact: bool
    value_before: int | None
    value: int | None
    description: str
    best: list[str]
    best_description: str
    pv: list[str]
    mistake: bool
    verdict: str
    """Why the move is a mistake, in English words (the page makes its own from the fields)."""
    moves: list[MoveEvaluation] = field(default_factory=list)
    mistake_kind: str | None = None
    """On the Gomoku engine's boards, which mistake (see :class:`inarow.engines.gomoku.analyst.Judgement`):
    ``missed-win``, ``allowed-win`` or ``dropped``, the evaluation falling by ``drop`` points, more than
    ``margin``."""
    drop: int | None = None
    margin: int | None = None
    reviewed: bool = True
    lines: list[list[str]] = field(default_factory=list)
    """The best line after each best move when several are equal (``pv`` first), up to
    :data:`inarow.sessions.review.MAX_LINES`: ``[["a1", "b2", …], ["a3", …]]``."""
    """False when the review ran out of time before this move: no analysis, nothing marked."""


@dataclass(frozen=True, kw_only=True)
class Review:
    """A whole game replayed with the analysis of every move."""

    game: GameState
    plies: list[ReviewedMove]
    mistakes: int
    complete: bool = True
    """False when the review's time ran out before its last moves (see ``ReviewedMove.reviewed``)."""
