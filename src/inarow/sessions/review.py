"""Judging the moves of a game: each move against the analysis of the position before it."""

from __future__ import annotations

from inarow import gomoku
from inarow.analysis import analyze
from inarow.rules import Position
from inarow.search.limits import Limits
from inarow.sessions.models import MoveEvaluation, ReviewedMove
from inarow.store import By


def review_move(before: Position, move: str, by: By, seconds: float) -> ReviewedMove:
    """Judge ``move``, played by ``by`` in ``before``, by the analysis of ``before`` within ``seconds``.

    A mistake is called from exact values: a move whose outcome is worse than the position's; on the
    Gomoku engine's boards also from its judgement (:func:`inarow.gomoku.judge`).
    """
    bit = before.move_bit(move)
    name = before.game.cell_name(bit)
    analysis = analyze(before, Limits(time=seconds))
    played = next(m for m in analysis.moves if m.move == name)
    evaluations = [
        MoveEvaluation(
            move=m.move, exact=m.exact, value=m.value, score=m.score, plies=m.plies, description=m.describe()
        )
        for m in analysis.moves
    ]
    best = next(m for m in analysis.moves if m.move == analysis.best[0])
    mistake, verdict = False, ""
    if gomoku.supports(before.game):
        # Big five-in-a-row boards (issue 13): proven wins let go or let through, and big drops.
        judgement = gomoku.judge(before, move, analysis, seconds)
        mistake, verdict = judgement.kind is not None, gomoku.verdict(judgement)
    elif analysis.outcome is not None and played.outcome is not None:
        mistake = (played.value or 0) < (analysis.value or 0)
        verdict = f"turned a {analysis.outcome} into a {played.outcome}" if mistake else ""
    return ReviewedMove(
        ply=before.ply + 1,
        move=name,
        cell=before.game.square_name(bit),
        side=before.turn,
        by=by,
        before=before.diagram(),
        exact=analysis.exact,
        value_before=analysis.value,
        value=played.value,
        description=played.describe(),
        best=list(analysis.best),
        best_description=best.describe(),
        pv=list(analysis.pv),
        mistake=mistake,
        verdict=verdict,
        moves=evaluations,
    )
