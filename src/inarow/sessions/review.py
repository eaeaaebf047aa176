"""Judging the moves of a game: each move against the analysis of the position before it."""

from __future__ import annotations

import time
from collections.abc import Sequence

from inarow.engines.gomoku import analyst
from inarow.engines.limits import Limits
from inarow.engines.policy import analyze
from inarow.rules.game import Position
from inarow.sessions.models import MoveEvaluation, ReviewedMove
from inarow.values.store import By
from inarow.words import phrases

MAX_LINES = 3
"""How many best lines a reviewed move shows when several best moves are equal."""
SMALL_BOARD = 25
"""The boards (cells) on which the other equal best moves get lines of their own: their searches are
quick there; on bigger boards the review's time goes to the moves themselves."""


def review_move(before: Position, move: str, by: By, seconds: float) -> ReviewedMove:
    """Judge ``move``, played by ``by`` in ``before``, by the analysis of ``before`` within ``seconds``.

    A mistake is called from exact values: a move whose outcome is worse than the position's; on the
    Gomoku engine's boards also from its judgement (:func:`inarow.engines.gomoku.analyst.judge`).
    """
    bit = before.move_bit(move)
    name = before.game.cell_name(bit)
    analysis = analyze(before, Limits(time=seconds))
    played = next(m for m in analysis.moves if m.move == name)
    evaluations = [
        MoveEvaluation(
            move=m.move,
            exact=m.exact,
            value=m.value,
            score=m.score,
            plies=m.plies,
            description=phrases.describe(m),
        )
        for m in analysis.moves
    ]
    best = next(m for m in analysis.moves if m.move == analysis.best[0])
    lines = [list(analysis.pv)] if analysis.pv else []
    if analysis.exact and before.game.cells <= SMALL_BOARD:
        for other in analysis.best[:MAX_LINES]:
            if lines and other == lines[0][0]:
                continue
            if len(lines) >= MAX_LINES:
                break
            after = before.play(other)
            lines.append([other, *analyze(after, Limits(time=seconds / MAX_LINES)).pv])
    mistake, verdict = False, ""
    kind: str | None = None
    drop: int | None = None
    if analyst.supports(before.game):
        # Big five-in-a-row boards (issue 13): proven wins let go or let through, and big drops.
        judgement = analyst.judge(before, move, analysis, seconds)
        mistake, verdict = judgement.kind is not None, phrases.mistake(judgement, analyst.MISTAKE_MARGIN)
        kind = judgement.kind
        drop = judgement.best - judgement.played if kind == "dropped" else None
    elif analysis.outcome is not None and played.outcome is not None:
        mistake = (played.value or 0) < (analysis.value or 0)
        verdict = phrases.turned(analysis.outcome, played.outcome) if mistake else ""
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
        description=phrases.describe(played),
        best=list(analysis.best),
        best_description=phrases.describe(best),
        pv=list(analysis.pv),
        mistake=mistake,
        verdict=verdict,
        mistake_kind=kind,
        drop=drop,
        margin=analyst.MISTAKE_MARGIN if kind == "dropped" else None,
        moves=evaluations,
        lines=lines,
    )


def review_moves(
    start: Position, moves: Sequence[tuple[str, By]], seconds: float, total: float
) -> list[ReviewedMove]:
    """Judge each of ``moves`` (played from ``start``, each with who played it) within ``seconds``; once
    ``total`` seconds have gone, the rest are listed unreviewed."""
    deadline = time.perf_counter() + total
    reviewed, position = [], start
    for move, by in moves:
        if time.perf_counter() < deadline:
            reviewed.append(review_move(position, move, by, seconds))
        else:
            reviewed.append(unreviewed_move(position, move, by))
        position = position.play(move)
    return reviewed


def unreviewed_move(before: Position, move: str, by: By) -> ReviewedMove:
    """A move the review had no time left for."""
    bit = before.move_bit(move)
    return ReviewedMove(
        ply=before.ply + 1,
        move=before.game.cell_name(bit),
        cell=before.game.square_name(bit),
        side=before.turn,
        by=by,
        before=before.diagram(),
        exact=False,
        value_before=None,
        value=None,
        description="",
        best=[],
        best_description="",
        pv=[],
        mistake=False,
        verdict="",
        reviewed=False,
    )
