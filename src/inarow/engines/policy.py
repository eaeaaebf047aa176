"""What users ask of a position, as a policy over the engines: which source answers, in which order, within
which share of the time.

:func:`analyze` hands the Gomoku engine's boards to :mod:`inarow.engines.gomoku.analyst`; on the other boards
it answers from the opening books and the remembered solutions when they cover every move
(:mod:`inarow.engines.books.recall`),
else tries the exact search (:mod:`inarow.engines.exact.solver` picks and loads the engine) within
:data:`EXACT_SHARE` of the time and, when a limit stops it, falls back on the depth-limited search with the
evaluation, saying so in :attr:`Analysis.exact`. :func:`play` is level ``perfect``'s: the strategy book
first, then the same order with a weak decision. The answers are the values of :mod:`inarow.values.answers`;
their words are :mod:`inarow.words.phrases`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from inarow.engines.books import recall
from inarow.engines.exact.solver import (
    REFERENCE_MAX_CELLS,
    REFERENCE_MAX_EMPTY,
    EngineName,
    ExactSolver,
    Loading,
    child_score,
    compiled_loaded,
    decide,
    engine_for,
    exact_solver,
    load_engine,
    prepare_engine,
    solvable,
)
from inarow.engines.gomoku import analyst
from inarow.engines.gomoku import search as gomoku_search
from inarow.engines.heuristic import Found, HeuristicSearch
from inarow.engines.limits import Budget, Limits, SearchAborted
from inarow.engines.scores import EXACT, exact_score, plies_to_end, sign
from inarow.rules.game import Position
from inarow.values.answers import (
    Analysis,
    AnalysisJSON,
    MoveJSON,
    MoveValue,
    PositionJSON,
    Source,
    position_json,
)

__all__ = [
    "EXACT_SHARE",
    "PV_TIME",
    "REFERENCE_MAX_CELLS",
    "REFERENCE_MAX_EMPTY",
    "STRONG_MAX_EMPTY",
    "Analysis",
    "AnalysisJSON",
    "EngineName",
    "ExactSolver",
    "Loading",
    "MoveJSON",
    "MoveValue",
    "PositionJSON",
    "analyze",
    "compiled_loaded",
    "decide",
    "engine_for",
    "exact_solver",
    "load_engine",
    "loses_at_once",
    "play",
    "position_json",
    "prepare_engine",
    "solvable",
]

EXACT_SHARE = 2 / 3
"""The share of a time limit the exact search may use before the depth-limited search takes over."""

PV_TIME = 0.25
"""Seconds the depth-limited search may spend on its principal variation once its own budget is spent."""


def analyze(
    position: Position,
    limits: Limits | None = None,
    *,
    weak: bool = False,
    loading: Loading | None = None,
    lines: int = analyst.CANDIDATES,
) -> Analysis:
    """The value of ``position`` and of each legal move, with the best moves and the principal variation.

    Without ``limits.depth`` the search is exact unless the time or node limit stops it, in which case the
    depth-limited search fills in (``exact`` is then False). With ``limits.depth`` the search is
    depth-limited with the evaluation at its horizon, and exact only if every line ends within the depth,
    or if the side to move wins with its next stone or loses whatever it plays (on every board).
    With ``weak``, exact scores are only the sign: +1 win, 0 draw, -1 loss (``plies`` is then None).

    When the board needs the compiled engine and this process has not loaded it yet, it is loaded first
    (``loading`` is called around it, see :data:`Loading`): that time is ``load_seconds``, apart from the
    search's ``seconds``, and limits count from the end of it.

    On the Gomoku engine's boards every move carries a win rate and the best ``lines`` moves a line of play
    (see :func:`inarow.engines.gomoku.analyst.analyze`). With ``loading`` the compiled Gomoku search is
    loaded first too, and compiled first if it never was (:func:`inarow.engines.gomoku.search.load`);
    without, a search while it compiles elsewhere answers with the static order.
    """
    limits = limits or Limits()
    if position.is_over:
        return Analysis(position=position, exact=True)
    if analyst.supports(position.game):
        loaded = 0.0 if loading is None else gomoku_search.load(loading)
        result = replace(analyst.analyze(position, limits, lines=lines), load_seconds=loaded)
        return _every_move_lost(result) if loses_at_once(position) else result
    if limits.depth is not None or (limits.time is not None and not solvable(position.game)):
        # An exact search that cannot end would only eat the time the depth-limited search can use.
        return _heuristic(position, Budget(limits), limits, weak)
    if recall.covers(position):
        # Every move's score is in the opening book or remembered: no engine to load, nothing to search.
        return _exact(position, Budget(limits), weak, known_only=True)
    return _exact_else_heuristic(
        position, limits, lambda budget: _exact(position, budget, weak), weak, loading
    )


def _exact_else_heuristic(
    position: Position,
    limits: Limits,
    exact: Callable[[Budget], Analysis],
    weak: bool,
    loading: Loading | None,
) -> Analysis:
    """``exact(budget)`` (an exact analysis of ``position``, on the engine loaded first) within
    :data:`EXACT_SHARE` of the time; what it could not finish, the depth-limited search answers in the
    time left."""
    game = position.game
    empty = game.cells - position.ply
    load = load_engine(loading, game) if engine_for(game, empty) == "compiled" else 0.0
    exact_time = None if limits.time is None else limits.time * EXACT_SHARE
    budget = Budget(Limits(time=exact_time, nodes=limits.nodes))
    try:
        return replace(exact(budget), load_seconds=load)
    except SearchAborted:
        pass
    rest = None if limits.time is None else max(limits.time - budget.elapsed, limits.time * (1 - EXACT_SHARE))
    fallback = Budget(Limits(time=rest, nodes=limits.nodes))
    result = _heuristic(position, fallback, limits, weak)
    return replace(result, nodes=budget.nodes + result.nodes, seconds=budget.elapsed, load_seconds=load)


def _every_move_lost(result: Analysis) -> Analysis:
    """``result`` with every move a proven loss in one (see :func:`loses_at_once`); its best moves stay the
    engine's choice, the one that makes the opponent find the win (blocking one of two threats, say)."""
    position = result.position
    score = -exact_score(position.game, position.ply + 1)
    plies = plies_to_end(position.game, position.ply, score)
    moves = tuple(
        replace(
            move,
            exact=True,
            score=score,
            value=-1,
            plies=plies,
            winrate=None if move.winrate is None else 0.0,
        )
        for move in result.moves
    )
    return replace(
        result, exact=True, value=-1, score=score, plies=plies, moves=moves, depth=None, proof=None
    )


def loses_at_once(position: Position) -> bool:
    """Whether the side to move cannot win with its next stone and, whatever it plays, the opponent can
    (two threats to block, say): a loss in one on any board, without a search."""
    game = position.game
    cur, opp = position.sides()
    empty = game.board_mask & ~(cur | opp)
    if not game.winning_cells(opp, empty):
        return False  # no line the opponent could complete, whatever is played
    legal = position.legal_bits()
    if any(position.play(bit).winner is not None for bit in legal):
        return False
    for bit in legal:
        child = position.play(bit)
        if child.is_over:
            return False
        mover, _ = child.sides()
        playable = sum(1 << b for b in child.legal_bits())
        if not game.winning_cells(mover, playable):
            return False
    return True


def _exact(position: Position, budget: Budget, weak: bool, known_only: bool = False) -> Analysis:
    """The exact analysis, every score answered from the books and the remembered solutions when they know
    it (see :mod:`inarow.engines.books.recall`), else searched; with ``known_only`` nothing is searched (the
    line of best play then stops where what is known ends)."""
    game = position.game
    empty = game.cells - position.ply
    make = None if known_only else lambda: exact_solver(game, budget, empty)
    solver = recall.Recalling(game, budget, make)
    scores: dict[int, int] = {}
    sources: dict[int, Source] = {}
    for bit in position.legal_bits():
        solver.source = "search"  # a move that ends the game asks no one
        scores[bit] = child_score(position, bit, solver, weak)
        sources[bit] = solver.source
    top = max(scores.values())

    def plies(score: int) -> int | None:
        return None if weak else plies_to_end(game, position.ply, score)

    moves = tuple(
        MoveValue(
            move=game.cell_name(bit),
            exact=True,
            score=score,
            value=sign(score),
            plies=plies(score),
            source=sources[bit],
        )
        for bit, score in scores.items()
    )
    best = tuple(game.cell_name(bit) for bit, score in scores.items() if score == top)
    first = next(b for b in game.cell_order if scores.get(b) == top)
    return Analysis(
        position=position,
        exact=True,
        value=sign(top),
        score=top,
        plies=plies(top),
        best=best,
        pv=_exact_pv(position, top, first, solver, weak),
        moves=moves,
        nodes=budget.nodes,
        seconds=budget.elapsed,
    )


def _exact_pv(position: Position, score: int, first: int, solver: ExactSolver, weak: bool) -> tuple[str, ...]:
    """The line of best play: at each step the first move (centre first) that keeps the exact score."""
    game, line = position.game, [first]
    try:
        current, score = position.play(first), -score
        while not current.is_over:
            order = [b for b in game.cell_order if b in set(current.legal_bits())]
            step = next(b for b in order if child_score(current, b, solver, weak) == score)
            line.append(step)
            current, score = current.play(step), -score
    except SearchAborted:
        pass
    return tuple(game.cell_name(b) for b in line)


# ------------------------------------------------------------------------------ playing perfectly
STRONG_MAX_EMPTY = 20
"""Level ``perfect`` gives the strong analysis (every move's exact score, the fastest win) of positions with
at most this many empty cells, where it costs milliseconds; with more it only needs a move that keeps the
value (:func:`decide`), which weak searches prove far sooner."""


def play(position: Position, limits: Limits, *, loading: Loading | None = None) -> Analysis:
    """What level ``perfect`` plays in ``position`` within ``limits``: an exact analysis whose ``best`` move
    keeps the value of the position, from the cheapest source that proves one.

    - positions of a strategy book (:func:`inarow.engines.books.recall.recall_move`): its move, at once
    (``plies``
      None: won, drawn or lost with best play); first, as its tree holds the positions that follow its own
      moves;
    - positions the books and remembered solutions cover, and those with at most :data:`STRONG_MAX_EMPTY`
      empty cells: :func:`analyze` (every move's exact score; ``plies`` says how soon the game ends);
    - the others: :func:`decide` on the process's table within :data:`EXACT_SHARE` of the time, the line of
      best play then that one move, ``moves`` the moves searched (``plies`` None);
    - when that runs out of time: the depth-limited search, as :func:`analyze` falls back on (not exact).

    Hints and ``inarow analyze`` keep :func:`analyze`: every move's exact score.
    """
    game = position.game
    empty = game.cells - position.ply
    if position.is_over or analyst.supports(game) or limits.depth is not None or not solvable(game):
        return analyze(position, limits, loading=loading)
    # The strategy book first: its tree holds the positions that follow its own moves, not others'.
    known = recall.recall_move(position)
    if known is not None:
        value, bit = known
        return _decided(position, value, bit, {bit: value}, Budget(limits))
    if empty <= STRONG_MAX_EMPTY or recall.covers(position):
        return analyze(position, limits, loading=loading)

    def decided(budget: Budget) -> Analysis:
        solver = recall.Recalling(game, budget, lambda: exact_solver(game, budget, empty))
        value, bit, tried = decide(position, solver)
        return _decided(position, value, bit, tried, budget)

    return _exact_else_heuristic(position, limits, decided, False, loading)


def _decided(position: Position, value: int, bit: int, tried: dict[int, int], budget: Budget) -> Analysis:
    """The analysis of a weak decision: the value, the move that keeps it, the moves proven."""
    game = position.game
    moves = tuple(
        MoveValue(move=game.cell_name(b), exact=True, score=v, value=v, plies=None) for b, v in tried.items()
    )
    name = game.cell_name(bit)
    return Analysis(
        position=position,
        exact=True,
        value=value,
        score=value,
        plies=None,
        best=(name,),
        pv=(name,),
        moves=moves,
        nodes=budget.nodes,
        seconds=budget.elapsed,
    )


def _heuristic(position: Position, budget: Budget, limits: Limits, weak: bool = False) -> Analysis:
    """Iterative deepening of the depth-limited search, each root move with a full window.

    The answer is exact when every line ended within the depth, when a move wins at once, or when every
    move loses at once (:func:`loses_at_once`).
    """
    game = position.game
    cur, opp = position.sides()
    horizon = game.cells - position.ply
    max_depth = horizon if limits.depth is None else min(limits.depth, horizon)
    searcher = HeuristicSearch(game, budget)
    # The first depth always finishes, whatever the clock says, so that there is always a move to give.
    first = min(1, max_depth)
    found = HeuristicSearch(game).move_values(cur, opp, first)
    reached = first
    lost = loses_at_once(position)
    for depth in range(first + 1, max_depth + 1):
        if lost or all(value.complete for value in found.values()):
            break
        if limits.depth is None and _wins_at_once(position, found):
            break  # the value is known; only a depth asked for is searched to the end
        try:
            found = searcher.move_values(cur, opp, depth)
        except SearchAborted:
            break
        reached = depth
    if lost:
        # Every move is a loss in one: the opponent completes a line whatever is played.
        loss = -exact_score(game, position.ply + 1)
        found = {bit: Found(value=loss * EXACT, complete=True) for bit in found}
        reached = 2  # the line shows the opponent's winning stone
    values = {bit: _move_value(position, bit, value) for bit, value in found.items()}
    # Moves the search did not try (far from every stone on a big board) only have a static evaluation,
    # which is not comparable with searched values: the best move is one the search tried.
    searched = [bit for bit, value in found.items() if value.searched] or list(found)
    top = max(_rank(values[bit]) for bit in searched)
    best_bits = [bit for bit in searched if _rank(values[bit]) == top]
    exact = all(move.exact for move in values.values()) or _wins_at_once(position, found)
    chosen = values[best_bits[0]]
    after = position.play(best_bits[0])
    line = searcher.line(*after.sides(), reached - 1, Budget(Limits(time=PV_TIME)))
    if weak and exact:
        values = {
            bit: replace(move, score=move.value or 0, plies=None) if move.exact else move
            for bit, move in values.items()
        }
        chosen = values[best_bits[0]]
    return Analysis(
        position=position,
        exact=exact,
        value=chosen.value if exact else None,
        score=chosen.score,
        plies=chosen.plies if exact else None,
        best=tuple(game.cell_name(bit) for bit in best_bits),
        pv=tuple(game.cell_name(bit) for bit in [best_bits[0], *line]),
        moves=tuple(values.values()),
        nodes=budget.nodes,
        seconds=budget.elapsed,
        depth=None if exact else reached,
    )


def _wins_at_once(position: Position, found: dict[int, Found]) -> bool:
    """Whether a move wins with the stone it plays (the best score there is, so the value is exact)."""
    return any(value.score == exact_score(position.game, position.ply) for value in found.values())


def _move_value(position: Position, bit: int, found: Found) -> MoveValue:
    name, score = position.game.cell_name(bit), found.score
    if score is None:
        return MoveValue(move=name, exact=False, score=found.value, value=None, plies=None)
    plies = plies_to_end(position.game, position.ply, score)
    return MoveValue(move=name, exact=True, score=score, value=sign(score), plies=plies)


def _rank(move: MoveValue) -> int:
    """A move's value on the engine's EXACT scale, so proven and heuristic values compare."""
    return move.score * EXACT if move.exact else move.score
