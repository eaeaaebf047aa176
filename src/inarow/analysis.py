"""What users ask of a position: its value, the value of every move, the best moves and the line of play.

:func:`analyze` tries the exact search first (within the limits) and, when a limit stops it, falls back on
the depth-limited search with the evaluation, saying so in :attr:`Analysis.exact`. Scores use the scale of
:mod:`inarow.search.engine`: ``(C + 1 - n) // 2`` for a win with the stone played when ``n`` stones are on
a board of ``C`` cells, its negative for a loss, 0 for a draw, always from the side to move's standpoint.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from typing_extensions import TypedDict

from inarow import i18n, words
from inarow.book import recall
from inarow.rules import Game, Position, Result, Side, other
from inarow.search.engine import Engine
from inarow.search.heuristic import Found, HeuristicSearch
from inarow.search.limits import Budget, Limits, SearchAborted
from inarow.search.scores import EXACT, exact_score, plies_to_end, sign
from inarow.words import Outcome

EXACT_SHARE = 2 / 3
"""The share of a time limit the exact search may use before the depth-limited search takes over."""

EngineName = Literal["reference", "compiled"]

REFERENCE_MAX_EMPTY = 12
"""Positions with at most this many empty cells are solved by the pure-Python engine, whatever the board:
all of 3×3 (milliseconds), and tens of milliseconds at most on 4×4, 5×5 and Connect Four, less than loading
the compiled engine costs (importing numba 0.3 s, then 0.1–0.2 s from its cache). With more empty cells
the pure-Python engine's answers grow past that: a whole analysis of the empty 4×4 board takes it about a
second, the compiled engine 0.4 s to load and 10 ms to answer."""

Loading = Callable[[bool], AbstractContextManager[object]]
"""What :func:`load_engine` calls around loading the compiled engine, to show progress: it is given
whether numba will compile (seconds, once per install) rather than load its cache (a fraction of one)."""


class ExactSolver(Protocol):
    """What the analysis needs of an exact engine (the pure-Python one, or a compiled one)."""

    budget: Budget

    def solve(self, cur: int, opp: int, weak: bool = False) -> int: ...


def _compiled_supports(game: Game) -> bool:
    """Whether the compiled engine plays ``game``: the same rule as :func:`compiled.supports`, without
    importing numba to ask."""
    return game.columns * game.height <= 64


def compiled_loaded(game: Game | None = None) -> bool:
    """Whether this process has loaded (and compiled) the compiled search of ``game`` already (with no
    game: of any board). Each board has its own (see :mod:`inarow.search.kernels`)."""
    module = sys.modules.get("inarow.search.compiled")
    return module is not None and bool(module.is_warm(game))


def engine_for(game: Game, empty: int | None = None) -> EngineName:
    """Which exact engine solves a position of ``game`` with ``empty`` empty cells (all, when None).

    The rule, by measured cost: the pure-Python reference engine for positions with at most
    :data:`REFERENCE_MAX_EMPTY` empty cells, where it answers faster than the compiled engine can be
    loaded (so 3×3 never loads it); the compiled engine for the other positions of boards whose layout
    fits 64 bits; the reference engine beyond. Once the compiled search of a board is loaded in the
    process, it solves every position of that board. ``INAROW_ENGINE=reference`` (or ``compiled``) forces
    one engine where it can play.
    """
    forced = os.environ.get("INAROW_ENGINE", "auto")
    if forced == "reference" or not _compiled_supports(game):
        return "reference"
    if forced == "compiled" or compiled_loaded(game):
        return "compiled"
    empty = game.cells if empty is None else empty
    return "reference" if empty <= REFERENCE_MAX_EMPTY else "compiled"


def load_engine(loading: Loading | None = None, game: Game | None = None) -> float:
    """Load the compiled search of ``game`` (default: Connect Four) into this process (importing numba,
    then compiling the search or loading it from numba's cache), calling ``loading`` around it; the
    seconds it took, 0 if already loaded.

    This is what a worker calls before its first big-board search so that the search does not pay for it.
    """
    board = game or Game(7, 6, 4, gravity=True)
    if compiled_loaded(board):
        return 0.0
    start = time.perf_counter()
    from inarow.search import compiled

    with loading(not compiled.cached(board)) if loading is not None else nullcontext():
        compiled.warm_up(board)
    return time.perf_counter() - start


def prepare_engine(game: Game | None = None) -> bool:
    """Make sure the compiled search of ``game`` (default: Connect Four) is compiled, in a separate,
    short-lived process, without importing numba into this one; whether it had to compile.

    A server calls this at start: its processes then load the search from numba's cache when a search
    first needs it (a fraction of a second), and an idle server does not hold numba and the machine
    code in every process (about 110 MB each).
    """
    from inarow.search import kernels

    return kernels.compile_elsewhere(game or Game(7, 6, 4, gravity=True))


def exact_solver(game: Game, budget: Budget, empty: int | None = None) -> ExactSolver:
    """The exact engine :func:`engine_for` picks for a position of ``game`` with ``empty`` empty cells.

    Loads the compiled engine if it is picked and not loaded yet (see :func:`load_engine`). The compiled
    engine searches on the process's table for the game, so it finds what the game's earlier searches in
    the process proved (see :mod:`inarow.search.compiled`).
    """
    if engine_for(game, empty) == "reference":
        return Engine(game, budget)
    from inarow.search import compiled

    return compiled.CompiledEngine(game, budget)


PV_TIME = 0.25
"""Seconds the depth-limited search may spend on its principal variation once its own budget is spent."""

REFERENCE_MAX_CELLS = 16
"""The largest board the pure-Python engine is expected to solve exactly in seconds (4×4 takes half a one)."""


def solvable(game: Game) -> bool:
    """Whether an exact search of ``game`` can be expected to end: a board the compiled engine plays (its
    early Connect Four positions may still take minutes), or one small enough for the reference engine."""
    if game.cells <= REFERENCE_MAX_CELLS:
        return True
    return os.environ.get("INAROW_ENGINE", "auto") != "reference" and _compiled_supports(game)


def _outcome(value: int | None) -> Outcome | None:
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

    @property
    def outcome(self) -> Outcome | None:
        """``win``, ``draw`` or ``loss`` for the side that plays the move, when exact."""
        return _outcome(self.value)

    def describe(self) -> str:
        """``win in 3``, ``draw``, ``loss in 2`` (moves of the side that plays it), or ``eval +12``."""
        return words.move_value(self.outcome, self.plies, self.score)

    def to_json(self) -> MoveJSON:
        """The keys of an entry of ``moves`` in ``inarow analyze --json``."""
        return {
            "move": self.move,
            "exact": self.exact,
            "value": self.value,
            "outcome": self.outcome,
            "score": self.score,
            "plies": self.plies,
        }


class MoveJSON(TypedDict):
    """A move's value as JSON (see :class:`MoveValue`)."""

    move: str
    exact: bool
    value: int | None
    outcome: Outcome | None
    score: int
    plies: int | None


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


class AnalysisJSON(PositionJSON):
    """An analysis as JSON: the keys of ``inarow analyze --json`` and ``POST /api/analyze``."""

    exact: bool
    value: int | None
    outcome: Outcome | None
    score: int | None
    plies: int | None
    best: list[str]
    pv: list[str]
    moves: list[MoveJSON]
    description: str
    depth: int | None
    nodes: int
    seconds: float
    load_seconds: float


@dataclass(frozen=True, kw_only=True)
class Analysis:
    """The answer of :func:`analyze`: every figure a user asks of a position, from the side to move's view."""

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
    """Every move of the best value, in board order (:func:`play`'s weak decision: the move it proved)."""
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
        return _outcome(self.value) if self.exact else None

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

    def describe(self) -> str:
        """The value in words, e.g. ``draw with best play`` or ``x wins in 3 moves``."""
        return words.analysis(
            result=self.result,
            winner=self.winner,
            exact=self.exact,
            plies=self.plies,
            score=self.score,
            depth=self.depth,
        )

    def describe_in(self, language: str) -> str:
        """:meth:`describe` in ``language`` (the JSON's ``description`` is English in every language)."""
        with i18n.language(language):
            return self.describe()

    def to_json(self, text: str | None = None) -> AnalysisJSON:
        """The keys of ``inarow analyze --json``; ``text`` is the position as the user wrote it."""
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
            "description": self.describe_in(i18n.DEFAULT),
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "load_seconds": round(self.load_seconds, 6),
        }


def analyze(
    position: Position, limits: Limits | None = None, *, weak: bool = False, loading: Loading | None = None
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
    """
    limits = limits or Limits()
    if position.is_over:
        return Analysis(position=position, exact=True)
    from inarow import gomoku  # the Gomoku engine's boards (issue 13); imported here as it imports this

    if gomoku.supports(position.game):
        result = gomoku.analyze(position, limits)
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
    moves = tuple(replace(move, exact=True, score=score, value=-1, plies=plies) for move in result.moves)
    return replace(result, exact=True, value=-1, score=score, plies=plies, moves=moves, depth=None)


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


def _child_score(position: Position, bit: int, solver: ExactSolver, weak: bool) -> int:
    """The exact score of playing ``bit``, for the side that plays it."""
    child = position.play(bit)
    if child.winner is not None:
        return 1 if weak else exact_score(position.game, position.ply)
    if child.is_over:
        return 0
    return -solver.solve(*child.sides(), weak)


def _exact(position: Position, budget: Budget, weak: bool, known_only: bool = False) -> Analysis:
    """The exact analysis, every score answered from the books and the remembered solutions when they know
    it (see :mod:`inarow.book.recall`), else searched; with ``known_only`` nothing is searched (the line of
    best play then stops where what is known ends)."""
    game = position.game
    empty = game.cells - position.ply
    make = None if known_only else lambda: exact_solver(game, budget, empty)
    solver = recall.Recalling(game, budget, make)
    scores = {bit: _child_score(position, bit, solver, weak) for bit in position.legal_bits()}
    top = max(scores.values())

    def plies(score: int) -> int | None:
        return None if weak else plies_to_end(game, position.ply, score)

    moves = tuple(
        MoveValue(move=game.cell_name(bit), exact=True, score=score, value=sign(score), plies=plies(score))
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
            step = next(b for b in order if _child_score(current, b, solver, weak) == score)
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


def decide(position: Position, solver: ExactSolver) -> tuple[int, int, dict[int, int]]:
    """The value of ``position`` for the side to move (1 win, 0 draw, -1 loss) and a move that keeps it,
    proven by weak searches (win, draw or loss only) on ``solver``: a stone that wins at once; else the
    position's value, then its moves centre first until one keeps it (a won position needs one proof; for
    a draw, the moves tried before the drawing one are proven to lose). In a lost position, the first move
    after which the opponent cannot win with its next stone, if there is one. Also each move searched with
    its value for the side that plays it. Raises :class:`SearchAborted` when the solver's budget runs out."""
    game = position.game
    legal = set(position.legal_bits())
    order = [bit for bit in game.cell_order if bit in legal]
    for bit in order:
        if position.play(bit).winner is not None:
            return 1, bit, {bit: 1}
    value = sign(solver.solve(*position.sides(), True))
    if value < 0:
        children = {bit: position.play(bit) for bit in order}
        safe = [bit for bit, child in children.items() if child.is_over or not _wins_next(child)]
        bit = (safe or order)[0]
        return -1, bit, {bit: -1}
    tried: dict[int, int] = {}
    for bit in order:
        tried[bit] = _child_score(position, bit, solver, True)
        if tried[bit] == value:
            return value, bit, tried
    raise AssertionError("no move keeps the value of the position")  # pragma: no cover


def _wins_next(position: Position) -> bool:
    """Whether the side to move in ``position`` can complete a line with its next stone."""
    mover, _ = position.sides()
    playable = sum(1 << bit for bit in position.legal_bits())
    return bool(position.game.winning_cells(mover, playable))


def play(position: Position, limits: Limits, *, loading: Loading | None = None) -> Analysis:
    """What level ``perfect`` plays in ``position`` within ``limits``: an exact analysis whose ``best`` move
    keeps the value of the position, from the cheapest source that proves one.

    - positions of a strategy book (:mod:`inarow.book.strategy`): its move, at once (``plies`` None: won,
      drawn or lost with best play); first, as its tree holds the positions that follow its own moves;
    - positions the books and remembered solutions cover, and those with at most :data:`STRONG_MAX_EMPTY`
      empty cells: :func:`analyze` (every move's exact score; ``plies`` says how soon the game ends);
    - the others: :func:`decide` on the process's table within :data:`EXACT_SHARE` of the time, the line of
      best play then that one move, ``moves`` the moves searched (``plies`` None);
    - when that runs out of time: the depth-limited search, as :func:`analyze` falls back on (not exact).

    Hints and ``inarow analyze`` keep :func:`analyze`: every move's exact score.
    """
    from inarow import gomoku
    from inarow.book import strategy

    game = position.game
    empty = game.cells - position.ply
    if position.is_over or gomoku.supports(game) or limits.depth is not None or not solvable(game):
        return analyze(position, limits, loading=loading)
    # The strategy book first: its tree holds the positions that follow its own moves, not others'.
    known = strategy.recall_move(position)
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
