"""What users ask of a position: its value, the value of every move, the best moves and the line of play.

:func:`analyze` tries the exact search first (within the limits) and, when a limit stops it, falls back on
the depth-limited search with the evaluation, saying so in :attr:`Analysis.exact`. Scores use the scale of
:mod:`inarow.search.engine`: ``(C + 1 - n) // 2`` for a win with the stone played when ``n`` stones are on
a board of ``C`` cells, its negative for a loss, 0 for a draw, always from the side to move's standpoint.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Protocol

from inarow.rules import Game, Position, Result, Side
from inarow.search.engine import EXACT, Engine, exact_score, plies_to_end, proven_score
from inarow.search.limits import Budget, Limits, SearchAborted

EXACT_SHARE = 2 / 3
"""The share of a time limit the exact search may use before the depth-limited search takes over."""


class ExactSolver(Protocol):
    """What the analysis needs of an exact engine (the pure-Python one, or a compiled one)."""

    budget: Budget

    def solve(self, cur: int, opp: int, weak: bool = False) -> int: ...


def exact_solver(game: Game, budget: Budget) -> ExactSolver:
    """The fastest exact engine that plays ``game``: the compiled one where it fits, else the reference.

    Setting the environment variable ``INAROW_ENGINE=reference`` forces the pure-Python reference engine
    (to compare the two, or where numba cannot run).
    """
    if os.environ.get("INAROW_ENGINE", "auto") == "reference":
        return Engine(game, budget)
    try:
        from inarow.search import compiled
    except ImportError:  # pragma: no cover - numba missing: the reference engine still answers
        return Engine(game, budget)
    if compiled.supports(game):
        return compiled.CompiledEngine(game, budget)
    return Engine(game, budget)


PV_TIME = 0.25
"""Seconds the depth-limited search may spend on its principal variation once its own budget is spent."""

REFERENCE_MAX_CELLS = 16
"""The largest board the pure-Python engine is expected to solve exactly in seconds (4×4 takes half a one)."""


def solvable(game: Game) -> bool:
    """Whether an exact search of ``game`` can be expected to end: a board the compiled engine plays (its
    early Connect Four positions may still take minutes), or one small enough for the reference engine."""
    if game.cells <= REFERENCE_MAX_CELLS:
        return True
    try:
        from inarow.search import compiled
    except ImportError:  # pragma: no cover - numba missing
        return False
    return os.environ.get("INAROW_ENGINE", "auto") != "reference" and compiled.supports(game)


@dataclass(frozen=True)
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

    def describe(self) -> str:
        """``win in 3``, ``draw``, ``loss in 2`` (moves of the side that plays it), or ``eval +12``."""
        return describe(self.value, self.plies, self.score)


@dataclass(frozen=True)
class Analysis:
    """The answer of :func:`analyze`: every figure a user asks of a position, from the side to move's view."""

    position: Position
    to_move: Side | None
    result: Result | None
    exact: bool
    value: int | None
    score: int | None
    plies: int | None
    best: tuple[str, ...]
    pv: tuple[str, ...]
    moves: tuple[MoveValue, ...]
    nodes: int
    seconds: float
    depth: int | None
    """The depth the heuristic search finished, when the answer is not exact; None when it is."""

    def describe(self) -> str:
        """The value in words, e.g. ``draw with best play`` or ``x wins in 3 moves``."""
        if self.result is not None:
            return "draw" if self.result == "draw" else f"{self.result} has won"
        if self.exact and self.value is not None and self.plies is not None:
            side = self.to_move
            if self.value == 0:
                return "draw with best play"
            winner = side if self.value > 0 else ("o" if side == "x" else "x")
            return f"{winner} wins in {(self.plies + 1) // 2} {'move' if self.plies <= 2 else 'moves'}"
        return f"not solved: evaluation {self.score:+d} at depth {self.depth}"

    def to_json(self, text: str | None = None) -> dict[str, Any]:
        """The keys of ``inarow analyze --json``; ``text`` is the position as the user wrote it."""
        return {
            "position": self.position.diagram() if text is None else text,
            "game": self.position.game.name,
            "diagram": self.position.diagram(),
            "to_move": self.to_move,
            "result": self.result,
            "exact": self.exact,
            "value": self.value,
            "score": self.score,
            "plies": self.plies,
            "best": list(self.best),
            "pv": list(self.pv),
            "moves": [
                {"move": m.move, "exact": m.exact, "value": m.value, "score": m.score, "plies": m.plies}
                for m in self.moves
            ],
            "description": self.describe(),
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def describe(value: int | None, plies: int | None, score: int) -> str:
    """A move's value in words from the standpoint of the side that plays it."""
    if value is None or plies is None:
        return f"eval {score:+d}"
    if value == 0:
        return "draw"
    moves = (plies + 1) // 2
    return f"{'win' if value > 0 else 'loss'} in {moves}"


def analyze(position: Position, limits: Limits | None = None, *, weak: bool = False) -> Analysis:
    """The value of ``position`` and of each legal move, with the best moves and the principal variation.

    Without ``limits.depth`` the search is exact unless the time or node limit stops it, in which case the
    depth-limited search fills in (``exact`` is then False). With ``limits.depth`` the search is
    depth-limited with the evaluation at its horizon, and exact only if every line ends within the depth.
    With ``weak``, exact scores are only the sign: +1 win, 0 draw, -1 loss (``plies`` is then None).
    """
    limits = limits or Limits()
    if position.is_over:
        return Analysis(position, None, position.result, True, None, None, 0, (), (), (), 0, 0.0, None)
    if limits.depth is not None or (limits.time is not None and not solvable(position.game)):
        # An exact search that cannot end would only eat the time the depth-limited search can use.
        return _heuristic(position, Budget(limits), limits)
    exact_time = None if limits.time is None else limits.time * EXACT_SHARE
    budget = Budget(Limits(time=exact_time, nodes=limits.nodes))
    try:
        return _exact(position, budget, weak)
    except SearchAborted:
        pass
    # What the exact search could not finish, the depth-limited search answers in the time left.
    rest = None if limits.time is None else max(limits.time - budget.elapsed, limits.time * (1 - EXACT_SHARE))
    fallback = Budget(Limits(time=rest, nodes=limits.nodes))
    result = _heuristic(position, fallback, limits)
    return replace(result, nodes=budget.nodes + result.nodes, seconds=budget.elapsed)


def _child_score(position: Position, bit: int, solver: ExactSolver, weak: bool) -> int:
    """The exact score of playing ``bit``, for the side that plays it."""
    child = position.play(bit)
    if child.winner is not None:
        return 1 if weak else exact_score(position.game, position.ply)
    if child.is_over:
        return 0
    cur, opp = child.sides()
    return -solver.solve(cur, opp, weak)


def _exact(position: Position, budget: Budget, weak: bool) -> Analysis:
    game, solver = position.game, exact_solver(position.game, budget)
    scores = {bit: _child_score(position, bit, solver, weak) for bit in position.legal_bits()}
    top = max(scores.values())
    moves = tuple(
        MoveValue(
            game.cell_name(bit),
            True,
            score,
            (score > 0) - (score < 0),
            None if weak else plies_to_end(game, position.ply, score),
        )
        for bit, score in scores.items()
    )
    best = tuple(game.cell_name(bit) for bit, score in scores.items() if score == top)
    first = next(b for b in game.cell_order if scores.get(b) == top)
    pv = _exact_pv(position, top, first, solver, weak)
    return Analysis(
        position,
        position.turn,
        None,
        True,
        (top > 0) - (top < 0),
        top,
        None if weak else plies_to_end(game, position.ply, top),
        best,
        pv,
        moves,
        budget.nodes,
        budget.elapsed,
        None,
    )


def _exact_pv(position: Position, score: int, first: int, solver: ExactSolver, weak: bool) -> tuple[str, ...]:
    """The line of best play: at each step the first move (centre first) that keeps the exact score."""
    game, line = position.game, [first]
    try:
        current, score = position.play(first), -score
        while not current.is_over:
            order = [b for b in game.cell_order if b in set(current.legal_bits())]
            step = next(b for b in order if _child_score(current, b, solver, weak) == score)
            line.append(step)
            current, score = current.play(step), -score
    except SearchAborted:
        pass
    return tuple(game.cell_name(b) for b in line)


def _heuristic(position: Position, budget: Budget, limits: Limits) -> Analysis:
    """Iterative deepening of the depth-limited search, each root move with a full window."""
    game = position.game
    horizon = game.cells - position.ply
    max_depth = horizon if limits.depth is None else min(limits.depth, horizon)
    engine = Engine(game, budget)
    # The first depth always finishes, whatever the clock says, so that there is always a move to give.
    first = min(1, max_depth)
    values = _root_values(position, Engine(game, Budget()), first)
    reached = first
    for depth in range(first + 1, max_depth + 1):
        if all(move.exact for move in values):
            break
        try:
            values = _root_values(position, engine, depth)
        except SearchAborted:
            break
        reached = depth
    # Moves the search did not try (far from every stone on a big board) only have a static evaluation,
    # which is not comparable with searched values: the best move is one the search tried.
    candidates = engine.candidates(position.filled)
    searched = [m for bit, m in zip(position.legal_bits(), values, strict=True) if candidates >> bit & 1]
    ranked = sorted(searched or values, key=_rank, reverse=True)
    best = tuple(m.move for m in ranked if _rank(m) == _rank(ranked[0]))
    exact = all(m.exact for m in values)
    top = ranked[0]
    return Analysis(
        position,
        position.turn,
        None,
        exact,
        top.value if exact else None,
        top.score,
        top.plies if exact else None,
        best,
        _heuristic_pv(position, best[0], reached, engine),
        values,
        budget.nodes,
        budget.elapsed,
        None if exact else reached,
    )


def _rank(move: MoveValue) -> int:
    """A move's value on the engine's EXACT scale, so proven and heuristic values compare."""
    return move.score * EXACT if move.exact else move.score


def _root_values(position: Position, engine: Engine, depth: int) -> tuple[MoveValue, ...]:
    """Every legal move's value at ``depth``; moves the engine would not try get a static evaluation."""
    game = position.game
    cur, opp = position.sides()
    candidates = engine.candidates(position.filled)
    values = []
    for bit in position.legal_bits():
        child = position.play(bit)
        if child.winner is not None:
            value, complete = exact_score(game, position.ply) * EXACT, True
        elif child.is_over:
            value, complete = 0, True
        elif candidates >> bit & 1:
            value = -engine.search(opp, cur | 1 << bit, depth - 1)
            complete = not engine.horizon
        else:
            value, complete = -engine.evaluation(game, opp, cur | 1 << bit), False
        score = proven_score(value)
        if score is None and complete:
            score = value // EXACT
        if score is None:
            values.append(MoveValue(game.cell_name(bit), False, value, None, None))
        else:
            plies = plies_to_end(game, position.ply, score)
            values.append(MoveValue(game.cell_name(bit), True, score, (score > 0) - (score < 0), plies))
    return tuple(values)


def _heuristic_pv(position: Position, first: str, depth: int, engine: Engine) -> tuple[str, ...]:
    """The expected line: the first best move, then each side's best reply at the depth left.

    Where the engine keys its table by position as it stands (no symmetry), the table's best moves give
    the line at once; otherwise each step is searched again, mostly from the table, within the budget.
    """
    line, current = [first], position.play(first)
    game = position.game
    # The search's own budget is spent by now: the line gets a little time of its own, and the table.
    engine, table = Engine(game, Budget(Limits(time=PV_TIME))), engine.htt
    engine.htt = table
    for left in range(depth - 1, 0, -1):
        if current.is_over:
            break
        cur, opp = current.sides()
        entry = engine.htt.get(engine.key(cur, opp)) if engine.symmetry is None else None
        if entry is not None and entry[4] and current.filled & entry[4] == 0:
            step = game.cell_name(entry[4].bit_length() - 1)
        else:
            try:
                step = max(_root_values(current, engine, left), key=_rank).move
            except SearchAborted:
                break
        line.append(step)
        current = current.play(step)
    return tuple(line)
