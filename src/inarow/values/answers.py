"""The answers about a position, as values: :class:`Analysis` (the position's value, every move's, the best
moves, the line of play) and :class:`MoveValue`, with their typed JSON.

These are fields, never sentences: :mod:`inarow.words.phrases` and the page's catalog say them in a language
(as python-chess's ``Outcome`` carries no prose). The policy that makes them is :mod:`inarow.engines.policy`.
A
:class:`MoveNote` says why a computer player chose its move, in fields too.

Scores use the scale of :mod:`inarow.engines.scores`: ``(C + 1 - n) // 2`` for a win with the stone played
when ``n`` stones are on a board of ``C`` cells, its negative for a loss, 0 for a draw, always from the
side to move's standpoint.

On the boards too big to solve (the Gomoku engine's), a move also carries a ``winrate``: the chance, from 0
to 1, that the side that plays it wins, read from its evaluation by :func:`winrate` (a logistic of the
score); a proven win is 1, a proven loss 0, a proven draw ½. The best moves also carry their ``line``.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import asdict, dataclass
from typing import Literal

from typing_extensions import TypedDict

from inarow.rules.game import Position, Result, Side, other

Outcome = Literal["win", "draw", "loss"]
"""A proven value for one side: 1, 0 or -1 as a word of the JSON."""

Proof = Literal["vcf", "vct"]
"""How the Gomoku engine proved a win: a victory by continuous fours (VCF), or by continuous threats, fours
and open threes (VCT); the loser's proof is the winner's."""

Source = Literal["book", "search", "bound", "evaluation"]
"""Where a move's score came from: a book file (the position after the move is in it), or a search (now,
or earlier and remembered; a compiled search may itself have probed a book deeper down). On boards too big
to solve, a move that is neither the best nor one of the analysis's lines has ``bound``: the score the
root's α-β search gave it on the way to another move, an upper bound when it failed low (the move is
worth at most that); or ``evaluation``: the root did not search it, and the score is the evaluation of the
position after it."""


def outcome_of(value: int | None) -> Outcome | None:
    """``win``, ``draw`` or ``loss`` for a value of 1, 0 or -1; None for None."""
    return None if value is None else ("win", "draw", "loss")[1 - value]


@dataclass(frozen=True, kw_only=True)
class MoveValue:
    """The value of one legal move for the side that plays it."""

    move: str
    exact: bool
    score: int
    """The exact score when ``exact``, else the backed-up evaluation (same sign convention)."""
    value: int | None
    """1 win, 0 draw, -1 loss when exact, else None."""
    plies: int | None
    """Plies from the position before the move to the end under perfect play, when exact."""
    source: Source = "search"
    """Where the score came from."""
    winrate: float | None = None
    """The chance, 0 to 1, that the side that plays the move wins (:func:`winrate`), on the boards too big
    to solve; None elsewhere."""
    line: tuple[str, ...] = ()
    """The expected line of play starting with the move, for the best few moves (empty for the others)."""

    @property
    def outcome(self) -> Outcome | None:
        """``win``, ``draw`` or ``loss`` for the side that plays the move, when exact."""
        return outcome_of(self.value)

    def to_json(self) -> MoveJSON:
        """The keys of an entry of ``moves`` in ``inarow analyze --json``."""
        return {
            "move": self.move,
            "exact": self.exact,
            "value": self.value,
            "outcome": self.outcome,
            "score": self.score,
            "plies": self.plies,
            "source": self.source,
            "winrate": self.winrate,
            "line": list(self.line),
        }


class MoveJSON(TypedDict):
    """A move's value as JSON (see :class:`MoveValue`)."""

    move: str
    exact: bool
    value: int | None
    outcome: Outcome | None
    score: int
    plies: int | None
    source: Source
    winrate: float | None
    line: list[str]


_GROUPS: dict[Source, int] = {"book": 1, "search": 1, "bound": 2, "evaluation": 3}


def rank_key(move: MoveValue, best: str | None) -> tuple[int, int]:
    """The order in which an analysis lists its moves, as a sort key (smaller first): the best move; proven
    wins, the fastest first; the moves whose scores come from a completed search, by score; then the upper
    bounds (``bound``) and the unsearched moves (``evaluation``), each by score; proven draws; proven losses,
    the slowest first. Scores of different kinds are never interleaved, so the list reads as the engine knows
    it; the command line, the JSON and the page all list moves in this order (:func:`ranked`)."""
    if move.move == best:
        return (0, 0)
    if move.exact:
        group = 1 if (move.value or 0) > 0 else 5 if move.value == 0 else 6
        return (group, -move.score)
    return (1 + _GROUPS[move.source], -move.score)


def ranked(moves: tuple[MoveValue, ...], best: str | None) -> tuple[MoveValue, ...]:
    """``moves`` in the order of :func:`rank_key` (a stable sort: ties keep their order)."""
    return tuple(sorted(moves, key=lambda move: rank_key(move, best)))


WINRATE_SCALE = 4000
"""The evaluation, in the Gomoku engine's points, that is worth odds of e to 1 (a win rate of 73%): the unit
in which the evaluation is fitted to Rapfi's win rates (``bench/gomoku_fit.py``). ``bench/gomoku_winrate.py``
checks it against who won games from balanced openings (positions of ``perfect`` against ``hard`` fit
4,300)."""


def winrate(score: int, scale: float = WINRATE_SCALE) -> float:
    """The win rate of an evaluation ``score`` (from the side it is for): ``1 / (1 + exp(-score / scale))``,
    rounded to 3 places — 0.5 for an even position, 0.73 a score of 4,000, 0.95 a score of 12,000; an α-β
    win (a score past the proven scale) rounds to 1."""
    return round(1 / (1 + math.exp(-max(-50.0, min(50.0, score / scale)))), 3)


class PositionJSON(TypedDict):
    """The keys every answer about a position starts with (see :func:`position_json`)."""

    position: str
    game: str
    diagram: str
    to_move: Side | None
    result: Result | None
    winner: Side | None


def position_json(position: Position, text: str | None, winner: Side | None) -> PositionJSON:
    """The position as the user wrote it (``text``, else its diagram), its game, diagram, side to move,
    result, and ``winner``: the side that has won or, when the answer proves it, wins with best play."""
    return {
        "position": position.diagram() if text is None else text,
        "game": position.game.name,
        "diagram": position.diagram(),
        "to_move": position.to_move,
        "result": position.result,
        "winner": winner,
    }


class AnalysisFieldsJSON(PositionJSON):
    """An analysis's fields as JSON (see :meth:`Analysis.to_json`)."""

    exact: bool
    value: int | None
    outcome: Outcome | None
    score: int | None
    plies: int | None
    best: list[str]
    pv: list[str]
    moves: list[MoveJSON]
    depth: int | None
    nodes: int
    seconds: float
    load_seconds: float
    proof: Proof | None


class AnalysisJSON(AnalysisFieldsJSON):
    """An analysis as the command line and the web app give it: the keys of ``inarow analyze --json`` and
    ``POST /api/analyze``, its fields and their ``description`` in English (see
    :func:`inarow.words.phrases.analysis_json`)."""

    description: str


@dataclass(frozen=True, kw_only=True)
class Analysis:
    """The answer of :func:`inarow.engines.policy.analyze`: every figure a user asks of a position, from the
    side to move's view."""

    position: Position
    exact: bool
    """Whether ``value``, ``score`` and ``plies`` are proven (always, once the game is over)."""
    value: int | None = None
    """1 win, 0 draw, -1 loss for the side to move with best play, when exact and the game goes on."""
    score: int | None = None
    """The exact score when exact, else the evaluation of the deepest search finished."""
    plies: int | None = None
    """Plies to the end with best play, when exact (None with ``weak``)."""
    best: tuple[str, ...] = ()
    """Every move of the best value, in board order (:func:`inarow.engines.policy.play`'s weak decision: the
    move it proved)."""
    pv: tuple[str, ...] = ()
    """The line of best play (or the expected line, when not exact), starting with a best move."""
    moves: tuple[MoveValue, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    """Seconds of search, loading the engine apart."""
    load_seconds: float = 0.0
    """Seconds spent loading the compiled engine before the search (0 once loaded in the process)."""
    depth: int | None = None
    """The depth the depth-limited search finished, when the answer is not exact; None when it is."""
    proof: Proof | None = None
    """How a proven Gomoku win (or loss) was proven, when by a threat sequence; None otherwise."""

    @property
    def to_move(self) -> Side | None:
        """The side to move, None once the game is over."""
        return self.position.to_move

    @property
    def result(self) -> Result | None:
        """How a finished game ended (``x``, ``o`` or ``draw``), None while it goes on."""
        return self.position.result

    @property
    def outcome(self) -> Outcome | None:
        """``win``, ``draw`` or ``loss`` for the side to move with best play, when exact."""
        return outcome_of(self.value) if self.exact else None

    @property
    def winner(self) -> Side | None:
        """The side that has won, or that wins with best play when exact; None for a draw or unknown."""
        if self.position.winner is not None:
            return self.position.winner
        if self.outcome == "win":
            return self.position.turn
        if self.outcome == "loss":
            return other(self.position.turn)
        return None

    def _repr_html_(self) -> str:
        """The analysis in a Jupyter notebook: the position's diagram and a table of the moves in
        :func:`ranked` order, headed by the JSON's field names (words belong to the edges)."""
        rows = "".join(
            f"<tr><td>{html.escape(move.move)}</td><td>{move.score:+d}</td>"
            f"<td>{html.escape(move.outcome or '')}</td><td>{'' if move.plies is None else move.plies}</td>"
            f"<td>{html.escape(move.source)}</td>"
            f"<td>{'' if move.winrate is None else f'{move.winrate:.0%}'}</td></tr>"
            for move in ranked(self.moves, self.best[0] if self.best else None)
        )
        diagram = html.escape(self.position.diagram())
        head = "".join(
            f"<th>{name}</th>" for name in ("move", "score", "outcome", "plies", "source", "winrate")
        )
        return (
            f"<div><code>{diagram}</code> · best <b>{html.escape(' '.join(self.best))}</b> · score "
            f"{'' if self.score is None else f'{self.score:+d}'}</div>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        )

    def to_json(self, text: str | None = None) -> AnalysisFieldsJSON:
        """The fields of ``inarow analyze --json`` (all but the ``description``); ``text`` is the position
        as the user wrote it."""
        return {
            **position_json(self.position, text, self.winner),
            "exact": self.exact,
            "value": self.value,
            "outcome": self.outcome,
            "score": self.score,
            "plies": self.plies,
            "best": list(self.best),
            "pv": list(self.pv),
            "moves": [move.to_json() for move in self.moves],
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "load_seconds": round(self.load_seconds, 6),
            "proof": self.proof,
        }


NoteKind = Literal["random", "rule", "analysis", "search", "engine", "text"]
SearchValue = int | Literal["inf", "-inf"]


@dataclass(frozen=True, kw_only=True)
class MoveNote:
    """Why a computer player chose its move, as typed fields (the words are made from them at the edges:
    :func:`inarow.words.phrases.note` for the command line, ``noteWords`` in the page's ``words.js``).

    - ``random``: a random move (``easy`` now and then, or the ``random`` player);
    - ``rule``: the rule of thumb the ``rules`` or ``threats`` player followed, in ``rule`` (``win``,
      ``block``, ``corner``, ``centre``, ``edge``, ``any cell``; ``five``, ``block four``, ``open four or
      four-three``, ``block open three``, ``four or open three``, ``best cell``);
    - ``analysis``: the value of the position the move was chosen in, for the side that moved: ``exact``,
      and then ``winner`` (``x``, ``o``, or None for a draw) in ``plies`` plies, else the engine's
      ``score`` at ``depth``;
    - ``search``: a textbook search ``algorithm`` ``depth`` plies deep, whose backed-up ``value`` the
      move has (``"inf"``/``"-inf"`` for ±∞);
    - ``engine``: another engine's move, over the Gomocup protocol;
    - ``text``: a note stored before notes were typed, its English words in ``text``.
    """

    kind: NoteKind
    rule: str | None = None
    exact: bool | None = None
    winner: Side | None = None
    plies: int | None = None
    score: int | None = None
    depth: int | None = None
    algorithm: str | None = None
    value: SearchValue | None = None
    text: str | None = None

    def fields(self) -> dict[str, str | int | bool]:
        """The fields that are set: the note's JSON."""
        return {k: v for k, v in asdict(self).items() if v is not None}

    def stored(self) -> str:
        """The form kept in the database: :meth:`fields` as JSON."""
        return json.dumps(self.fields(), sort_keys=True)


def search_value(value: float) -> SearchValue:
    """A textbook search's value in the JSON's form: an integer, or ``"inf"``/``"-inf"``."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value)


def analysis_note(analysis: Analysis) -> MoveNote:
    """The note of a move chosen by ``analysis``: its value for the side that moved."""
    return MoveNote(
        kind="analysis",
        exact=analysis.exact,
        winner=analysis.winner,
        plies=analysis.plies if analysis.exact else None,
        score=None if analysis.exact else analysis.score,
        depth=None if analysis.exact else analysis.depth,
    )
