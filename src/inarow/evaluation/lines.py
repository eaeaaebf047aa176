"""How unfinished positions are scored, from the standpoint of the side to move.

An evaluation sees the bitboards of the side to move (``mine``) and of its opponent (``theirs``) and
returns a number: positive is good for the side to move. Won and lost positions are the search's
business, not the evaluation's: these functions only look at lines still open.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from inarow.base.errors import GameName, Items, UnknownEvaluationError
from inarow.base.i18n import N_
from inarow.evaluation.student import Board, CodeEvaluation, is_code_spec, load_code_evaluation
from inarow.rules.game import Game, Position, Side, other

Evaluation = Callable[[Game, int, int], float]
"""An evaluation: the game and the stones of the side it scores for and of its opponent, to a number."""

EngineEvaluation = Callable[[Game, int, int], int]
"""An evaluation on the engine's integer scale (:mod:`inarow.engines.heuristic`)."""

ENGINE_WEIGHTS = (0, 1, 4, 16, 64, 256, 1024, 4096, 16384)
"""Weights of an open line by how many stones it holds (capped at the last entry), used by the engine."""


def line_score(game: Game, mine: int, theirs: int, weights: Sequence[int]) -> int:
    """Σ over the lines with no opponent stone of ``weights[stones in it]``, minus the same for the opponent.

    A line that holds stones of both sides is dead and counts for neither; an empty line counts for both
    and so cancels out.
    """
    top = len(weights) - 1
    score = 0
    for line in game.lines:
        a, b = mine & line, theirs & line
        if a:
            if not b:
                score += weights[min(a.bit_count(), top)]
        elif b:
            score -= weights[min(b.bit_count(), top)]
    return score


def engine_evaluation(game: Game, mine: int, theirs: int) -> int:
    """The engine's evaluation: open lines weighted 1, 4, 16, … by how many stones they hold."""
    return line_score(game, mine, theirs, ENGINE_WEIGHTS)


# ------------------------------------------------------------------------ named evaluations
# The evaluations a user picks by name (``--eval``, the web app's menu, ``minimax:2:open-lines``) or writes
# as ``weights:W0,W1,…,Wk``. Each is a :class:`Weights`: a line (row, column or diagonal of k cells) holding
# exactly n stones of one side and none of the other scores Wn for that side; e(P) is the side's total minus
# the opponent's. :func:`static_value` adds the textbook's ±∞ for won and lost positions.


@dataclass(frozen=True)
class LineCounts:
    """How :class:`Weights` scored a position for ``side``: ``mine[n]`` / ``theirs[n]`` count the lines
    holding exactly n stones of that side and none of the other; ``mine_total`` and ``theirs_total`` are
    Σ Wn·count, and ``value`` their difference (what the evaluation returns)."""

    weights: tuple[float, ...]
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    mine_total: float
    theirs_total: float
    value: float


@dataclass(frozen=True)
class Weights:
    """The evaluation ``weights:W0,W1,…,Wk`` (k the number in a row): a line with exactly n stones of one
    side and none of the other scores ``weights[n]`` for that side (an empty line scores W0 for both, so
    it cancels out), and e(P) is the mover's total minus the opponent's. ``inf`` is allowed; when both
    totals are infinite they cancel and e(P) is 0.

    Named evaluations are weight lists made for the game's k (:data:`NAMED_WEIGHTS`); ``text`` is the
    name the user gave, or ``weights:…``. Raises :class:`UnknownEvaluationError` when called on a game
    whose k does not match the list's length.
    """

    weights: tuple[float, ...] | None
    text: str
    maker: Callable[[int], tuple[float, ...]] | None = None

    def for_game(self, game: Game) -> tuple[float, ...]:
        """The weights W0…Wk for ``game``. Raises :class:`UnknownEvaluationError` for a list of the
        wrong length."""
        if self.maker is not None:
            return self.maker(game.k)
        assert self.weights is not None
        if len(self.weights) != game.k + 1:
            raise UnknownEvaluationError(
                N_(
                    "invalid evaluation {text!r} for {name}: expected {count} weights W0,…,W{k}, one "
                    "for each number of stones a line of {k} can hold"
                ),
                text=self.text,
                name=GameName(game.name),
                count=game.k + 1,
                k=game.k,
            )
        return self.weights

    def counts(self, game: Game, mine: int, theirs: int) -> LineCounts:
        """The lines counted by stones for each side, and e(P) from the side holding ``mine``."""
        weights = self.for_game(game)
        k = game.k
        my_count, their_count = [0] * (k + 1), [0] * (k + 1)
        for line in game.lines:
            a, b = mine & line, theirs & line
            if not b:
                my_count[a.bit_count()] += 1
            if not a:
                their_count[b.bit_count()] += 1
        mine_total = _total(weights, my_count)
        theirs_total = _total(weights, their_count)
        if math.isinf(mine_total) and math.isinf(theirs_total):
            value = 0.0 if mine_total == theirs_total else mine_total
        else:
            value = mine_total - theirs_total
        return LineCounts(
            weights=weights,
            mine=tuple(my_count),
            theirs=tuple(their_count),
            mine_total=mine_total,
            theirs_total=theirs_total,
            value=value,
        )

    def __call__(self, game: Game, mine: int, theirs: int) -> float:
        """e(P) for the side holding ``mine``: the same value as :meth:`counts`, without the counts."""
        weights = self.for_game(game)
        mine_total = theirs_total = 0.0
        for line in game.lines:
            a, b = mine & line, theirs & line
            if not b:
                mine_total += weights[a.bit_count()]
            if not a:
                theirs_total += weights[b.bit_count()]
        if math.isinf(mine_total) and math.isinf(theirs_total):
            return 0.0 if mine_total == theirs_total else mine_total
        return mine_total - theirs_total


def _total(weights: Sequence[float], counts: Sequence[int]) -> float:
    return sum((weight * count for weight, count in zip(weights, counts, strict=True) if count), 0.0)


@cache
def _open_lines(k: int) -> tuple[float, ...]:
    return (*(1.0,) * k, math.inf)


@cache
def _weighted(k: int) -> tuple[float, ...]:
    return (0.0, *(3.0 ** (n - 1) for n in range(1, k)), math.inf)


@cache
def _lines(k: int) -> tuple[float, ...]:
    return (*(0.0,) * k, 1.0)


NAMED_WEIGHTS: dict[str, Callable[[int], tuple[float, ...]]] = {
    "open-lines": _open_lines,
    "weighted": _weighted,
    "lines": _lines,
}
"""The named evaluations as weight lists for k in a row: ``open-lines`` is the textbook e(P), every open line
1 (``weights:1,1,1,inf`` on 3×3); ``weighted`` is 1, 3, 9, … by stones (``weights:0,1,3,inf``, the form
∞·F3 + 3·F2 + F1); ``lines`` counts completed lines only (``weights:0,0,0,1``)."""

EVALUATIONS: dict[str, Weights] = {name: Weights(None, name, maker) for name, maker in NAMED_WEIGHTS.items()}
"""The evaluations by name, each valid on any board."""

open_lines = EVALUATIONS["open-lines"]
weighted = EVALUATIONS["weighted"]
completed_lines = EVALUATIONS["lines"]


def parse_weights(text: str) -> Weights:
    """``weights:W0,W1,…,Wk`` as an evaluation (numbers or ``inf``). Raises
    :class:`UnknownEvaluationError`."""
    _, _, body = text.partition(":")
    parts = [part.strip() for part in body.split(",")]
    values: list[float] = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            value = math.nan
        if math.isnan(value) or value == -math.inf:
            raise UnknownEvaluationError(
                N_("invalid evaluation {text!r}: the weight {part!r} must be a number or inf"),
                text=text,
                part=part,
            )
        values.append(value)
    if len(values) < 2:
        raise UnknownEvaluationError(
            N_(
                "invalid evaluation {text!r}: expected weights:W0,W1,…,Wk, one weight for each "
                "number of stones a line can hold"
            ),
            text=text,
        )
    return Weights(tuple(values), "weights:" + ",".join(_weight_text(value) for value in values))


def _weight_text(value: float) -> str:
    if math.isinf(value):
        return "inf"
    return str(int(value)) if value.is_integer() else repr(value)


def evaluation_named(name: str) -> Evaluation:
    """The evaluation called ``name``: one of :data:`EVALUATIONS`, ``weights:W0,W1,…,Wk``, or a function
    written in Python, ``PATH.py:FUNCTION`` (:mod:`inarow.evaluation.student`; loading it runs the file).
    Raises :class:`UnknownEvaluationError` (:class:`~inarow.base.errors.EvaluationCodeError` for code)."""
    if is_code_spec(name):
        return load_code_evaluation(name)
    key = name.strip().lower()
    if key in EVALUATIONS:
        return EVALUATIONS[key]
    if key.startswith("weights:"):
        return parse_weights(key)
    raise UnknownEvaluationError(
        N_(
            "unknown evaluation {name!r}: expected one of {known}, weights:W0,W1,…,Wk such"
            " as weights:1,1,1,inf, or a function in a file, PATH.py:FUNCTION"
        ),
        name=name,
        known=Items(EVALUATIONS),
    )


BoardFunction = Callable[[Board], float]
"""An e(P) of one argument, the :class:`~inarow.evaluation.student.Board` (see
:mod:`inarow.evaluation.student`)."""


def evaluation_of(evaluation: Evaluation | BoardFunction | str) -> Evaluation:
    """Any way of naming an evaluation as one: a name, ``weights:…`` or ``PATH.py:FUNCTION``
    (:func:`evaluation_named`); a function of one argument, which is handed the
    :class:`~inarow.evaluation.student.Board` (the documented form, as ``--eval`` files are called); or a
    function ``(game, mine, theirs)`` of the two sides' bitboards (cell (c, r) is the mask
    ``1 << game.bit(c, r)``), as the engine's evaluations are. Raises :class:`UnknownEvaluationError`."""
    if isinstance(evaluation, str):
        return evaluation_named(evaluation)
    if isinstance(evaluation, Weights | CodeEvaluation):
        return evaluation
    if _takes_one_argument(evaluation):
        code = getattr(evaluation, "__code__", None)
        source = code.co_filename if code is not None else "<python>"
        board_function: BoardFunction = evaluation  # type: ignore[assignment]  # one argument: the board
        return CodeEvaluation(board_function, getattr(evaluation, "__name__", "e"), source)
    bitboards: Evaluation = evaluation  # type: ignore[assignment]  # three arguments: the bitboards
    return bitboards


def _takes_one_argument(function: object) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) == 1 or (len(positional) == 1 and not required)


def line_counts(position: Position, side: Side, evaluation: Evaluation) -> LineCounts | None:
    """How ``evaluation`` scored ``position`` for ``side``, line by line (None for an evaluation that is
    not a weight list, or for a finished game)."""
    if not isinstance(evaluation, Weights) or position.winner is not None:
        return None
    return evaluation.counts(position.game, position.stones(side), position.stones(other(side)))


def static_value(position: Position, side: Side, evaluation: Evaluation) -> float:
    """The textbook e(P) of ``position`` from ``side``'s standpoint: ``math.inf`` when ``side`` has won,
    ``-math.inf`` when it has lost, else ``evaluation`` of the stones (a full board without a line is
    scored by ``evaluation`` too, and each named evaluation gives it 0). An evaluation written as code is
    handed the board with ``side`` as Max; raises :class:`~inarow.base.errors.EvaluationCodeError` when its
    call fails."""
    if position.winner is not None:
        return math.inf if position.winner == side else -math.inf
    if isinstance(evaluation, CodeEvaluation):
        return evaluation.score(position, side)
    mine, theirs = position.stones(side), position.stones(other(side))
    return evaluation(position.game, mine, theirs)
