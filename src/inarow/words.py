"""Results said in words, made from their fields: the one place where the English of the command line and of
the analysis JSON's ``description`` is written. (The web page makes its own words from the same fields.)

"Win in N" counts the moves of the side that wins: ``(plies + 1) // 2``.
"""

from __future__ import annotations

import math
from typing import Literal

from inarow.rules import Result, Side
from inarow.store import Score

Outcome = Literal["win", "draw", "loss"]


def moves_of_winner(plies: int) -> int:
    """How many moves the winner plays in ``plies`` plies that end with its winning move."""
    return (plies + 1) // 2


def move_value(outcome: Outcome | None, plies: int | None, score: int) -> str:
    """A move's value for the side that plays it: ``win in 3``, ``draw``, ``loss in 2``, ``win`` (a weak
    solve, without the distance), or ``eval +12`` when it is not exact."""
    if outcome is None:
        return f"eval {score:+d}"
    if outcome == "draw" or plies is None:
        return outcome
    return f"{outcome} in {moves_of_winner(plies)}"


def format_value(value: float | None) -> str:
    """A textbook search's value: ``+∞``, ``-∞``, ``+3``, ``-1``, ``0``, or ``·`` for none."""
    if value is None:
        return "·"
    if math.isinf(value):
        return "+∞" if value > 0 else "-∞"
    return f"{value:+g}" if value else "0"


def finished(result: Result) -> str:
    """How a finished game ended: ``x has won`` or ``draw``."""
    return "draw" if result == "draw" else f"{result} has won"


def game_result(result: Result | None) -> str:
    """A game of a match: ``x wins``, ``draw``, or ``unfinished``."""
    if result is None:
        return "unfinished"
    return "draw" if result == "draw" else f"{result} wins"


def textbook_value(
    algorithm: str, depth: int | None, evaluation: str, value: float | None, side: Side
) -> str:
    """The backed-up value of a textbook search: ``minimax to depth 2 with open-lines: +1 for x``."""
    return f"{algorithm} to depth {'the end' if depth is None else depth} with {evaluation}: " + (
        f"{format_value(value)} for {side}"
    )


def comparison_value(value: float | None, proven: bool, engine_evaluation: int | None) -> str:
    """A value of the comparison table: ``+1``, ``-∞``, ``0 (a draw)``, ``+∞ (proven)``, or the engine's
    ``eval +12 (its scale)``."""
    if engine_evaluation is not None:
        return f"eval {engine_evaluation:+d} (its scale)"
    if value is None:
        return ""
    text = format_value(value)
    if proven:
        text += " (a draw)" if value == 0 else " (proven)"
    return text


def analysis(
    *,
    result: Result | None,
    winner: Side | None,
    exact: bool,
    plies: int | None,
    score: int | None,
    depth: int | None,
) -> str:
    """A position's value: ``x has won``, ``draw``, ``draw with best play``, ``x wins in 3 moves``,
    ``x wins with best play`` (a weak solve), or ``not solved: evaluation +3 at depth 7``."""
    if result is not None:
        return finished(result)
    if not exact:
        return f"not solved: evaluation {score or 0:+d} at depth {depth}"
    if winner is None:
        return "draw with best play"
    if plies is None:
        return f"{winner} wins with best play"
    moves = moves_of_winner(plies)
    return f"{winner} wins in {moves} {'move' if moves == 1 else 'moves'}"


def best_move(*, outcome: Outcome | None, plies: int | None, score: int | None, depth: int | None) -> str:
    """Why ``inarow best`` plays its move: ``wins in 3 moves with best play``, ``draw with best play``,
    ``loses in 2 moves with best play``, or the depth it was found at when not solved."""
    if outcome is None:
        return f"best found at depth {depth} (evaluation {score or 0:+d}); not solved within the limits"
    if outcome == "draw":
        return "draw with best play"
    verb = "wins" if outcome == "win" else "loses"
    if plies is None:
        return f"{verb} with best play"
    moves = moves_of_winner(plies)
    return f"{verb} in {moves} {'move' if moves == 1 else 'moves'} with best play"


def game_value(score: int) -> str:
    """The value of a whole game from its empty board: ``draw``, ``first player (x) wins``, …"""
    if score == 0:
        return "draw"
    return "first player (x) wins" if score > 0 else "second player (o) wins"


def score(tally: Score) -> str:
    """A person's score: ``you 2 won · 1 drawn · 0 lost``."""
    return f"you {tally.wins} won · {tally.draws} drawn · {tally.losses} lost"


MistakeKind = Literal["missed-win", "allowed-win", "dropped"]


def mistake_verdict(kind: MistakeKind, drop: int, margin: int) -> str:
    """Why a move on a big board is a mistake (see :class:`inarow.gomoku.Judgement`): ``let a proven win
    go``, ``let the opponent's forced win through`` or ``dropped the evaluation by 640 points (more than
    400)``."""
    if kind == "missed-win":
        return "let a proven win go"
    if kind == "allowed-win":
        return "let the opponent's forced win through"
    return f"dropped the evaluation by {drop} points (more than {margin})"
