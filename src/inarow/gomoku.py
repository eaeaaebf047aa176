"""Gomoku analysis: the Gomoku engine's answer (:mod:`inarow.search.gomoku`) as an :class:`Analysis`, the
way the levels play it, and the judging of a move for reviews.

:func:`inarow.analysis.analyze` hands every game the engine :func:`~inarow.search.gomoku.supports` to
:func:`analyze` here. A proven result (a five, a VCF, a VCT, or a loss no move stops) is exact, with the
winning line and its length; otherwise the answer is the α-β evaluation in pattern points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inarow.analysis import Analysis, MoveValue
from inarow.rules import Position
from inarow.search.gomoku import GomokuSearch, Style, supports
from inarow.search.limits import Budget, Limits
from inarow.search.scores import EXACT, plies_to_end, proven_score, sign

__all__ = ["MISTAKE_MARGIN", "Judgement", "analyze", "judge", "supports"]

DEFAULT_TIME = 10.0
"""Seconds an analysis without a time, node or depth limit may take (the position cannot be solved)."""

MISTAKE_MARGIN = 400
"""A move whose evaluation is this many pattern points below the best move's is a mistake (about the worth
of an open three, which is what ignoring one costs)."""

STYLES: dict[str, Style] = {
    "medium": Style(vcf=False, vct=False, width=8, max_depth=2),
    "hard": Style(vct=False, width=10, max_depth=4),
    "perfect": Style(),
}
"""How each level searches on the boards of the Gomoku engine (``easy`` plays ``medium`` now and then)."""


def analyze(position: Position, limits: Limits | None = None, style: Style = Style()) -> Analysis:
    """The analysis of a position of a game the Gomoku engine plays, within ``limits`` (without any, 10
    seconds); ``limits.depth`` caps the α-β depth."""
    limits = limits or Limits()
    if position.is_over:
        return Analysis(position=position, exact=True)
    if limits.depth is not None:
        style = Style(vcf=style.vcf, vct=style.vct, width=style.width, max_depth=max(1, limits.depth))
    time = limits.time
    if time is None and limits.nodes is None and limits.depth is None:
        time = DEFAULT_TIME
    budget = Budget(Limits(time=time, nodes=limits.nodes))
    found = GomokuSearch(position.game, budget, style).run(position)
    game = position.game
    score = proven_score(found.value) if found.proven else None
    exact = score is not None
    values: dict[int, int] = dict(found.move_values)
    values.setdefault(found.best, found.value)
    moves = []
    for bit in position.legal_bits():
        name = game.cell_name(bit)
        if exact and bit == found.best:
            assert score is not None
            plies = plies_to_end(game, position.ply, score)
            moves.append(MoveValue(move=name, exact=True, score=score, value=sign(score), plies=plies))
        else:
            value = values.get(bit)
            shown = 0 if value is None else max(-EXACT + 1, min(EXACT - 1, value))
            moves.append(MoveValue(move=name, exact=False, score=shown, value=None, plies=None))
    return Analysis(
        position=position,
        exact=exact,
        value=None if score is None else sign(score),
        score=score if score is not None else max(-EXACT + 1, min(EXACT - 1, found.value)),
        plies=None if score is None else plies_to_end(game, position.ply, score),
        best=(game.cell_name(found.best),),
        pv=tuple(game.cell_name(bit) for bit in found.pv),
        moves=tuple(moves),
        nodes=found.nodes,
        seconds=budget.elapsed,
        depth=None if exact else found.depth,
    )


MistakeKind = Literal["missed-win", "allowed-win", "dropped"]


@dataclass(frozen=True, kw_only=True)
class Judgement:
    """Whether a move was a mistake and which kind: ``missed-win`` (a proven win before, none after),
    ``allowed-win`` (the opponent has a proven win after it, and had none to stop before), ``dropped``
    (the evaluation fell by more than :data:`MISTAKE_MARGIN` below the best move's)."""

    kind: MistakeKind | None
    best: int
    """The best move's value on the :data:`EXACT` scale (a proven score times EXACT, or an evaluation)."""
    played: int
    """The played move's value on the same scale, from the mover's standpoint."""


def _rank(analysis: Analysis) -> int:
    if analysis.exact and analysis.score is not None:
        return analysis.score * EXACT
    return analysis.score or 0


def judge(before: Position, move: str, seconds: float) -> Judgement:
    """Judge ``move`` in ``before`` with half of ``seconds`` for each side of it."""
    after = before.play(move)
    first = analyze(before, Limits(time=seconds / 2))
    best = _rank(first)
    if after.is_over:
        played = best if after.winner is not None else 0
        return Judgement(kind=None if played >= best else "dropped", best=best, played=played)
    second = analyze(after, Limits(time=seconds / 2))
    played = -_rank(second)
    kind: MistakeKind | None = None
    proven_win = first.exact and first.value == 1 and first.best[0] != after.game.cell_name(before.move_bit(move))
    if proven_win and not (second.exact and second.value == -1):
        kind = "missed-win"
    elif second.exact and second.value == 1 and not (first.exact and first.value == -1):
        kind = "allowed-win"
    elif not first.exact and not second.exact and played < best - MISTAKE_MARGIN:
        kind = "dropped"
    return Judgement(kind=kind, best=best, played=played)
