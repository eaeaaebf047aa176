"""Running a textbook algorithm on a position and recording it from outside.

:class:`Walker` is the game an algorithm searches through (:class:`~inarow.engines.textbook.algorithm.Game`):
it decides what a leaf is (the game over, the horizon reached, quiescence's forcing moves), scores leaves
with the evaluation e(P) in the algorithm's frame, orders children, keeps the transposition table, and,
around every ``game.search`` the algorithm makes, records the node: its entry with the window, every child's
value as it comes back, and its return. What a child's value does at its parent (the best so far rises; α
rises or β falls; a cut-off prunes the rest) is read from the algorithm's declared frame and window rule,
never from the algorithm's code.

The course's conventions: MAX is the side whose standpoint the student takes (the side to move at the
root unless ``max_side`` says otherwise), so the root of a minimax-frame tree is a Max node for either
side; α-β is fail-soft; and a cut-off is counted only where one happens, that is where children are left
unsearched (fail-hard α-β also marks a bound met by the last child, since its value is clamped there).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from inarow.base.errors import InvalidLimitError
from inarow.base.i18n import N_
from inarow.engines.limits import Budget
from inarow.engines.textbook.algorithm import Algorithm
from inarow.engines.textbook.records import (
    LeafReason,
    OrderReason,
    Recorder,
    Role,
    Scored,
    SearchResult,
    State,
    one_of,
)
from inarow.engines.textbook.registry import algorithm_named
from inarow.evaluation.lines import BoardFunction, Evaluation, Weights, evaluation_of, static_value
from inarow.evaluation.student import CodeEvaluation
from inarow.rules.game import Position, Side, other

ORDERS = ("columns", "rows")
"""The orders children are generated in: ``columns`` (a1 a2 a3 b1 …, the engine's board order, the
default) or ``rows`` (row by row from the top, a3 b3 c3 a2 …, as course material draws trees)."""

SIDES = ("x", "o")
"""The sides MAX can be."""


def evaluation_name(evaluation: Evaluation) -> str:
    """The name of a named or weight-list evaluation, or of one written as code (``mine.py:e``), else the
    function's own name."""
    if isinstance(evaluation, Weights | CodeEvaluation):
        return evaluation.text
    return getattr(evaluation, "__name__", "evaluation")


def check_order(name: str) -> str:
    """``name`` normalised, if it is one of :data:`ORDERS`. Raises :class:`UnknownAlgorithmError`."""
    return one_of(name, ORDERS, N_("unknown move order {name!r}: expected one of {known}"))


def check_side(name: str) -> Side:
    """``name`` normalised, if it is a side (``x`` or ``o``). Raises :class:`UnknownAlgorithmError`."""
    key = one_of(name, SIDES, N_("unknown side {name!r} for MAX: expected one of {known}"))
    return "o" if key == "o" else "x"


def _row_key(position: State, bit: int) -> tuple[int, int]:
    """Row by row from the top, left to right in a row (boards only; other states keep their order)."""
    if not isinstance(position, Position):
        return (0, bit)
    column, row = position.game.coordinates(bit)
    return (-row, column)


def forcing_moves(position: State) -> tuple[list[int], str]:
    """The moves quiescence searches at the horizon: the side to move's wins at once, else the cells it
    must block; ``([], "")`` when there are none (or ``position`` is not a board)."""
    if not isinstance(position, Position) or position.is_over:
        return [], ""
    game, side = position.game, position.turn
    legal = sum(1 << bit for bit in position.legal_bits())
    empty = game.board_mask & ~(position.x | position.o)
    wins = game.winning_cells(position.stones(side), empty) & legal
    if wins:
        return [bit for bit in position.legal_bits() if wins >> bit & 1], "win"
    threats = game.winning_cells(position.stones(other(side)), empty) & legal
    if threats:
        return [bit for bit in position.legal_bits() if threats >> bit & 1], "block"
    return [], ""


@dataclass
class _Open:
    """A node being searched, as the recording follows it: its window (in its own frame) as the
    children's values move it, its best child so far, the best value seen, why it is a leaf."""

    node: int
    role: Role
    alpha: float
    beta: float
    moves: list[int] = field(default_factory=list)
    best: int | None = None
    best_value: float = math.nan
    seen: float | None = None
    leaf: LeafReason | None = None


class Walker:
    """The game one search of one algorithm runs through, recording it (see the module docstring)."""

    def __init__(
        self,
        algorithm: Algorithm,
        evaluation: Evaluation,
        recorder: Recorder,
        *,
        max_side: Side = "x",
        ordering: bool = False,
        table: bool = False,
        order: str = "columns",
        first: int | None = None,
        quiescence: bool = False,
        root_ply: int = -1,
    ) -> None:
        self.algorithm = algorithm
        self.evaluation = evaluation
        self.recorder = recorder
        self.max_side: Side = max_side
        self.ordering = ordering
        self.order = order
        self.first = first
        self.quiescence = quiescence
        self.root_ply = root_ply
        self.table: dict[State, tuple[int, float, str]] | None = {} if table else None
        self.stack: list[_Open] = []

    # ------------------------------------------------------------------ the game an algorithm sees
    def maximizing(self, state: State) -> bool:
        return self.algorithm.frame == "negamax" or state.turn == self.max_side

    def leaf(self, state: State, depth: int) -> float | None:
        if not self._stop(state, depth):
            return None
        side = self._standpoint(state)
        if self.stack:
            self.stack[-1].leaf = self._leaf_reason(state, side)
        return self.e(state, side)

    def children(self, state: State, depth: int) -> Sequence[tuple[int, State]]:
        moves, reason, extended = self._ordered(state, depth)
        if self.stack:
            self.stack[-1].moves = [bit for bit, _ in moves]
            self.recorder.note(self.stack[-1].node, reason, extended=extended)
        return moves

    def search(self, move: int | None, state: State, depth: int, alpha: float, beta: float) -> float:
        parent = self.stack[-1] if self.stack else None
        role: Role = (
            "negamax" if self.algorithm.frame == "negamax" else "max" if self.maximizing(state) else "min"
        )
        windowed = self.algorithm.windowed
        node = self.recorder.enter(
            parent.node if parent is not None else -1,
            move,
            role,
            state,
            alpha if windowed else None,
            beta if windowed else None,
        )
        here = _Open(node, role, alpha, beta)
        self.stack.append(here)
        try:
            value = self.algorithm.run(self, state, depth, alpha, beta)
        finally:
            self.stack.pop()
        self.recorder.leave(
            node,
            value,
            here.best,
            leaf=here.leaf,
            seen=here.seen if self.algorithm.clamps else None,
        )
        if parent is not None and move is not None:
            self._returned(parent, move, value)
        return value

    def recall(self, state: State, depth: int, alpha: float, beta: float) -> float | None:
        if self.table is None:
            return None
        entry = self.table.get(state)
        if entry is None or entry[0] != depth:
            return None
        _, value, bound = entry
        if bound == "exact" or (bound == "lower" and value >= beta) or (bound == "upper" and value <= alpha):
            if self.stack:
                self.stack[-1].leaf = "table"
            return value
        return None

    def remember(self, state: State, depth: int, value: float, alpha: float, beta: float) -> None:
        if self.table is not None:
            bound = "upper" if value <= alpha else "lower" if value >= beta else "exact"
            self.table[state] = (depth, value, bound)

    # ------------------------------------------------------------------------ the recording
    def _returned(self, parent: _Open, move: int, value: float) -> None:
        """Record what the child ``move``'s ``value`` does at ``parent``, by the declared frame and window."""
        algorithm, recorder = self.algorithm, self.recorder
        mine = -value if algorithm.frame == "negamax" else value
        up = parent.role != "min"
        better = parent.best is None or (mine > parent.best_value if up else mine < parent.best_value)
        if not algorithm.windowed:
            if better:
                parent.best, parent.best_value = move, mine
                recorder.update(parent.node, "best", mine, move)
            return
        if parent.seen is None or (mine > parent.seen if up else mine < parent.seen):
            parent.seen = mine
        hard = algorithm.clamps
        if better and not hard:
            parent.best, parent.best_value = move, mine
        index = parent.moves.index(move) if move in parent.moves else len(parent.moves)
        rest = parent.moves[index + 1 :]
        met = mine >= parent.beta if up else mine <= parent.alpha
        if met:
            if hard:
                parent.best = move
            if rest or hard:
                window = (mine, parent.beta) if up else (parent.alpha, mine)
                recorder.cut(parent.node, move, mine, "beta" if up else "alpha", rest, *window)
            return
        if up and mine > parent.alpha:
            parent.alpha = mine
            if hard:
                parent.best = move
            recorder.update(parent.node, "alpha", mine, move, parent.alpha, parent.beta)
        elif not up and mine < parent.beta:
            parent.beta = mine
            if hard:
                parent.best = move
            recorder.update(parent.node, "beta", mine, move, parent.alpha, parent.beta)

    # ------------------------------------------------------------------------------ helpers
    def _standpoint(self, state: State) -> Side:
        return state.turn if self.algorithm.frame == "negamax" else self.max_side

    def _leaf_reason(self, position: State, side: Side) -> LeafReason:
        if position.winner is None:
            if position.is_over:
                return "leaf" if hasattr(position, "leaf_value") else "draw"
            return "depth"
        return "won" if position.winner == side else "lost"

    def _stop(self, position: State, depth: int) -> bool:
        """Whether ``position`` is a leaf: the game is over, or the horizon is reached and quiescence
        (when on) finds no forcing move there."""
        if position.is_over:
            return True
        if depth > 0:
            return False
        if self.quiescence and forcing_moves(position)[0]:
            if self.stack:
                self.recorder.note(self.stack[-1].node, "forcing", extended=True)
            return False
        return True

    def _ordered(self, position: State, depth: int = 1) -> tuple[list[tuple[int, State]], OrderReason, bool]:
        """The moves searched with the positions they lead to, in the order searched: at the horizon
        (quiescence) only the forcing ones; else board order (columns, or rows from the top), best-first
        for the mover by static evaluation when ordering, and the previous iteration's best move first at
        the root; and why, and whether quiescence extended the node."""
        moves: list[tuple[int, State]] = list(position.children())
        reason: OrderReason = "columns"
        if depth <= 0:
            forcing = set(forcing_moves(position)[0])
            return [pair for pair in moves if pair[0] in forcing], "forcing", True
        if self.order == "rows":
            moves.sort(key=lambda pair: _row_key(position, pair[0]))
            reason = "rows"
        if self.ordering:
            mover = position.turn
            moves.sort(key=lambda pair: -self.e(pair[1], mover))
            reason = "evaluation"
        if self.first is not None and position.ply == self.root_ply:
            moves.sort(key=lambda pair: pair[0] != self.first)
            reason = "previous-best"
        return moves, reason, False

    def e(self, position: State, side: Side) -> float:
        """The textbook e(P) from ``side``'s standpoint (an abstract tree's leaf value, there)."""
        if isinstance(position, Position):
            return static_value(position, side, self.evaluation)
        scored: Scored = position  # type: ignore[assignment]  # only boards and abstract trees are searched
        return scored.leaf_value(side)


def search(
    position: State,
    algorithm: str = "minimax",
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    *,
    ordering: bool = False,
    table: bool = False,
    record: bool = True,
    budget: Budget | None = None,
    order: str = "columns",
    first: int | None = None,
    quiescence: bool = False,
    max_side: str | None = None,
) -> SearchResult:
    """Search ``position`` with a textbook ``algorithm`` (a name of
    :data:`~inarow.engines.textbook.registry.ALGORITHMS`) ``depth`` plies deep (None: to the end of the
    game) with ``evaluation`` (a function, a name of :data:`~inarow.evaluation.lines.EVALUATIONS` or
    ``weights:W0,…,Wk``) at the leaves.

    ``max_side`` is MAX, the side whose standpoint a minimax-frame tree takes (None: the side to move at
    the root, so the root is a Max node). ``order`` (one of :data:`ORDERS`) is the order children are
    generated in; ``ordering`` then tries them best-first by their static evaluation; ``first`` is a root
    move tried before all others (the previous iteration's best, :func:`deepen`); ``quiescence`` searches
    on at the horizon while the side to move can win at once or must block (:func:`forcing_moves`);
    ``table`` (an algorithm that declares it can) adds a transposition table. With ``record`` the result
    holds the whole :class:`~inarow.engines.textbook.records.Tree`; without it only the node count is
    kept. Raises :class:`~inarow.base.errors.UnknownAlgorithmError`,
    :class:`~inarow.evaluation.lines.UnknownEvaluationError`,
    :class:`~inarow.base.errors.InvalidLimitError` for a negative depth, and lets
    :class:`~inarow.engines.limits.SearchAborted` through when ``budget`` runs out.
    """
    chosen = algorithm_named(algorithm)
    order = check_order(order)
    side: Side = position.turn if max_side is None else check_side(max_side)
    function = evaluation_of(evaluation)
    if isinstance(function, Weights) and isinstance(position, Position):
        function.for_game(position.game)  # a weight list of the wrong length is refused before searching
    if depth is None:
        depth = position.game.cells - position.ply
    if depth < 0:
        raise InvalidLimitError(N_("invalid depth {depth!r}: expected 0 plies or more"), depth=depth)
    if table and not chosen.table:
        raise ValueError("a transposition table needs fail-soft α-β ('alphabeta')")
    recorder = Recorder(keep=record, budget=budget)
    walker = Walker(
        chosen,
        function,
        recorder,
        max_side=side,
        ordering=ordering,
        table=table,
        order=order,
        first=first,
        quiescence=quiescence,
        root_ply=position.ply,
    )
    start = time.perf_counter()
    value = walker.search(None, position, depth, -math.inf, math.inf)
    seconds = time.perf_counter() - start
    move = recorder.root_best
    if move is None and not position.is_over and depth > 0:
        move = walker._ordered(position)[0][0][0]  # every move is as bad as the first (all -∞, say)
    in_mover_frame = chosen.frame == "negamax" or position.turn == side
    return SearchResult(
        algorithm=chosen.name,
        position=position,
        depth=depth,
        evaluation=evaluation_name(function),
        frame_value=value,
        mover_value=value if in_mover_frame else -value,
        move=move,
        nodes=recorder.count,
        max_depth=recorder.max_depth,
        seconds=seconds,
        tree=recorder.finish(),
        order=order,
        quiescence=quiescence,
        max_side=side,
    )


def deepen(
    position: State,
    algorithm: str = "alphabeta",
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    *,
    record_last: bool = True,
    budget: Budget | None = None,
    **options: bool | str | None,
) -> tuple[SearchResult, ...]:
    """Iterative deepening: a search to depth 1, 2, …, ``depth`` (None: to the end), each trying the
    previous depth's best move first. One result a depth; the last holds its tree when ``record_last``.
    ``options`` go to :func:`search` (``order``, ``ordering``, ``quiescence``, ``max_side``)."""
    if depth is None:
        depth = position.game.cells - position.ply
    results: list[SearchResult] = []
    previous: int | None = None
    for plies in range(1, max(depth, 1) + 1):
        result = search(
            position,
            algorithm,
            plies,
            evaluation,
            record=record_last and plies == depth,
            budget=budget,
            first=previous,
            **options,  # type: ignore[arg-type]  # the options of search, by keyword
        )
        results.append(result)
        previous = result.move
    return tuple(results)


def minimax(
    position: Position, depth: int | None = None, evaluation: Evaluation | BoardFunction | str = "open-lines"
) -> SearchResult:
    """Minimax with separate Max and Min nodes; see :func:`search`."""
    return search(position, "minimax", depth, evaluation)


def negamax(
    position: Position, depth: int | None = None, evaluation: Evaluation | BoardFunction | str = "open-lines"
) -> SearchResult:
    """Negamax, every value from the side to move's standpoint; see :func:`search`."""
    return search(position, "negamax", depth, evaluation)


def alphabeta(
    position: Position,
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    *,
    soft: bool = True,
) -> SearchResult:
    """α-β in its fail-soft form (the textbooks'), or fail-hard without ``soft``; see :func:`search`."""
    return search(position, "alphabeta" if soft else "alphabeta-hard", depth, evaluation)


def move_scores(
    position: Position,
    algorithm: str = "minimax",
    depth: int | None = None,
    evaluation: Evaluation | BoardFunction | str = "open-lines",
    budget: Budget | None = None,
    order: str = "columns",
) -> tuple[dict[int, float], int]:
    """The depth-limited value of every legal move from the standpoint of the side that plays it, each
    move searched ``depth - 1`` plies further with a full window, and the nodes visited in all (the root
    not included: it is not searched, only its children are).

    ``depth`` counts from ``position`` (None: to the end), so a move's value is what a ``depth``-ply search
    of ``position`` backs up through that move; hand calculations check against it.
    """
    if depth is None:
        depth = position.game.cells - position.ply
    scores: dict[int, float] = {}
    nodes = 0
    for bit, child in position.children():
        result = search(
            child,
            algorithm,
            max(depth - 1, 0),
            evaluation,
            record=False,
            budget=budget,
            order=order,
            max_side=position.to_move,  # the leaves scored from the root's standpoint, as its search does
        )
        nodes += result.nodes
        scores[bit] = -result.mover_value  # the child's score is from the opponent's standpoint
    return scores, nodes
