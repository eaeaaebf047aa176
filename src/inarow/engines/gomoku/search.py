"""The Gomoku engine: threat-space search before and inside an α-β search with iterative deepening, a
transposition table and principal variation search, over the patterns of :mod:`inarow.engines.gomoku.board`.

It plays every five-in-a-row game without gravity whose board is too big for the exact engines, and every
game of the standard rule (exactly five wins). Values are on the scale of :mod:`inarow.engines.scores`: a
proven result is its exact score times :data:`EXACT`, anything smaller an evaluation in the board's
points (:meth:`inarow.engines.gomoku.board.GomokuBoard.evaluate`).

At the root, in this order:

1. a five to make, or two fives of the opponent to stop (a proven win, or a proven loss);
2. a VCF, then (with ``vct``) a VCT: a win found there is proven (see :mod:`inarow.engines.gomoku.threats`;
   compiled by numba with the α-β search) and its length is the ``win in N``, N at most the longest
   defence;
3. if the opponent has a VCF, the moves after which it has none (none left among every legal move: a
   proven loss);
4. α-β to increasing depths until the budget runs out, compiled by numba (:mod:`inarow.engines.gomoku.kernel`
   driven by :mod:`inarow.engines.gomoku.driver`; in Python here with ``Style(compiled=False)``, or while
   the kernels are being compiled for the first time, see :func:`compiled_ready`: the same algorithm,
   move for move, but for the order of candidates of equal worth). Inside it, a five to make wins, an open
   four to make wins two plies later, a four of the opponent must be blocked, an open three of the
   opponent must be answered on the cells of its line (or with a four); elsewhere the ``width`` most
   valuable candidate cells are tried, the table's move first, then two killer moves of the ply, the late
   quiet ones reduced (:func:`lmr_reduction`); at the horizon a quiescence search over the side to
   move's fours (:meth:`GomokuSearch._quiesce`). Before it (with ``vct``), if the opponent would win by
   a VCT were it to move, only the moves after which it has none. With :attr:`Style.inner`, at every
   node where the side to move has a four, a VCF (bounded in nodes) is a win. The compiled search keeps
   its table from one search to the next of the same game and style (the moves of a game; not with
   :attr:`Style.fresh`), see :mod:`inarow.engines.gomoku.driver`.

α-β wins are found with only some moves of the defender tried, so they are never called proven.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
from dataclasses import dataclass, field

from inarow.engines import compiling
from inarow.engines.gomoku.board import ORDER_MINE, ORDER_THEIRS, GomokuBoard
from inarow.engines.gomoku.threats import ThreatSearch
from inarow.engines.limits import Budget, SearchAborted, thread_limit
from inarow.engines.scores import EXACT, exact_score
from inarow.engines.table import probe
from inarow.rules.game import Game, Position

CHECK_EVERY = 127
"""α-β nodes between looks at the clock (a mask)."""

MAX_PLY = 60
"""How far below the root forced replies may extend the search."""

LEAF_VCF_FOURS = 4
LEAF_VCF_NODES = 60
"""The VCF looked for at the horizon: short and cheap, or it would eat the α-β search's time."""

QUIESCE_FOURS = 8
"""The most fours in a row of the quiescence search at the horizon (as the kernel's)."""

RAZOR = (0, 2400, 3200)
FUTILITY = (0, 6000, 9000)
"""Razoring and futility margins by depth (as :data:`inarow.engines.gomoku.kernel.RAZOR`)."""

NEAR_SQUARE = 2
NEAR_LINE = 4
"""After its first four, the quiescence search plays only fours near the attacker's last four (as the
kernel's :data:`inarow.engines.gomoku.kernel.NEAR_LINE`)."""

INNER_VCF_FOURS = 8
INNER_VCF_NODES = 120
"""The VCF looked for at every node above the horizon where the side to move has a four to play (with
:attr:`Style.inner`)."""

INNER_VCT_THREATS = 3
INNER_VCT_NODES = 150
"""The opponent's VCT looked for after each root move that may stop it (see
:meth:`GomokuSearch._still_loses`)."""

LAST_ROW = 180
"""The deepest ply of the α-β search (the last row of the kernel's move buffers)."""

ASPIRATION = 800
ASPIRATION_DEPTH = 4
"""As :mod:`inarow.engines.gomoku.kernel`'s: from this depth on, an iteration searches the root within
this many points of the last iteration's value first, and again with the whole window if the
value falls outside."""

LMR_FIRST = 3
LMR_DEEPER = 8
LMR_DEPTH = 2
"""Late move reductions, as :mod:`inarow.engines.gomoku.kernel`'s: at a node without a forced reply and
with at least ``LMR_DEPTH`` plies to go, the moves from the ``LMR_FIRST``-th on that make no four or open
three and take no four or open-four cell of the opponent are searched a ply shallower (two from the
``LMR_DEEPER``-th on, at depth 4 or more), and again at full depth if they beat α."""


def lmr_reduction(depth: int, number: int, divisor: float = 2.0) -> int:
    """The plies a late quiet move (the ``number``-th, from 0) is reduced by at ``depth`` with
    :attr:`Style.lmr`: grows with the logarithms of both, as the reduction tables of Rapfi
    (``initReductionLUT`` in its search.cpp) and Stockfish do, at least 1, leaving at least a ply (as
    :func:`inarow.engines.gomoku.kernel.lmr_reduction`)."""
    r = int(0.5 + math.log(depth) * math.log(number + 1) / divisor)
    return max(1, min(r, depth - 1))


ROOT_LMR_FIRST = 6
ROOT_LMR_DEPTH = 4
"""Root reductions, as :data:`inarow.engines.gomoku.kernel.ROOT_LMR_FIRST`."""

HISTORY_RANGE = 10692
HISTORY_SHARE = 128
"""The history heuristic, as :data:`inarow.engines.gomoku.kernel.HISTORY_RANGE`."""


def history_bonus(depth: int) -> int:
    """The change to a history entry after a node ``depth`` plies deep (Rapfi's ``statBonus``, as the
    kernel's ``_history_bonus``)."""
    return min(25 * depth * depth + 105 * depth - 157, 8927)


ROOT_DEFENCE_NODES = 400
"""The nodes of the opponent's VCT looked for at the root, before the α-β search."""

DEFENCE_VCF_NODES = 400
"""The nodes of the opponent's VCF looked for after each root move when it has one now."""

COMPILED_DEFENCE = 10
"""With the compiled threat searches (about 50 times the Python ones' speed), the defence's node limits
above are this many times larger and its VCTs one threat longer."""

VCT_SHARE = 0.2
"""The share of the time left that the root's VCT may use."""

DEFENCE_SHARE = 0.25
"""The share of the time left that the root's look for the opponent's VCT, and for the moves that stop it,
may use."""

INFINITY = EXACT * 1000


_compiling: list[threading.Thread] = []


def compiled_ready() -> bool:
    """Whether the compiled α-β search can run now without compiling: loaded in this process, or compiled
    before (loading it from numba's cache takes a fraction of a second). If not, its compilation starts
    in a child process (once per process; about half a minute on the project's 2-core machine), so that a
    search never waits for the compiler: until it is done, the α-β search runs in Python."""
    if "inarow.engines.gomoku.driver" in sys.modules:
        from inarow.engines.gomoku import driver

        if driver.is_warm():
            return True
    if compiling.gomoku_unit().compiled_before():
        return True
    if not _compiling:
        thread = threading.Thread(target=_compile_elsewhere, name="inarow-gomoku-compile", daemon=True)
        _compiling.append(thread)
        thread.start()
    return False


def prepare() -> bool:
    """Load the compiled α-β search into this process now if it was compiled before (a fraction of a
    second: before a search's clock starts, so that its first move keeps its think time), else start its
    compilation elsewhere (see :func:`compiled_ready`); whether it is loaded."""
    if not compiled_ready():
        return False
    from inarow.engines.gomoku import driver

    driver.warm_up()
    return True


def _compile_elsewhere() -> None:
    import subprocess

    with contextlib.suppress(OSError, subprocess.SubprocessError):
        compiling.gomoku_unit().compile_elsewhere(quiet=True)


def supports(game: Game) -> bool:
    """Whether this engine plays ``game``: five in a row without gravity, on a board whose layout does not
    fit the compiled engine's 64 bits, or with the standard rule (exactly five) on any board."""
    if game.k != 5 or game.gravity or min(game.columns, game.rows) < 5:
        return False
    return game.exact or game.columns * (game.rows + 1) > 64


@dataclass(frozen=True, kw_only=True)
class Style:
    """How the engine plays: the features the levels switch on and off."""

    vcf: bool = True
    """Look for a VCF at the root and at the horizon, and defend against the opponent's."""
    vct: bool = True
    """Look for a VCT at the root."""
    inner: bool = False
    """Look for VCFs inside the α-β search too. Off for every level: compiled ``perfect`` without it beat
    ``perfect`` with it 12 games to 8 (see the README's benchmarks)."""
    step: int = 2
    """The iterations' depths: 1, then every ``step`` plies (2: even depths only, 1: every depth)."""
    quiescence: bool = True
    """At the horizon (with ``vcf``), a quiescence search over the side to move's fours (see
    :func:`inarow.engines.gomoku.kernel.quiesce`) rather than a short VCF."""
    pruning: bool = False
    """With ``quiescence``, razoring and futility pruning one and two plies above the horizon (see
    :data:`inarow.engines.gomoku.kernel.RAZOR`)."""
    lmr: bool = True
    """Late move reductions by a table of depth and move number
    (:func:`inarow.engines.gomoku.kernel.lmr_reduction`) rather than one or two plies (False: the
    reductions of :data:`LMR_FIRST`)."""
    lmr_divisor: float = 2.0
    """The divisor of :func:`lmr_reduction` (smaller: larger reductions). 2 for every level: at a real
    second 1.25 and 1 scored no better (the README's seventh round), nor did 1.5 under the fitted order
    (96.5 of 200 each against Rapfi at 20,000 nodes, the eleventh round)."""
    root_lmr: bool = False
    """With ``lmr``, the root's late quiet moves are reduced too (see
    :data:`inarow.engines.gomoku.kernel.ROOT_LMR_FIRST`)."""
    history: bool = False
    """Order a node's quiet candidates by the history heuristic too (see
    :data:`inarow.engines.gomoku.kernel.HISTORY_RANGE`). Off for every level: at a real second it scored as
    ``perfect`` without it (39.5 of 100 each against Rapfi at 20,000 nodes, see the README)."""
    compiled: bool = True
    """Run the α-β search compiled (:mod:`inarow.engines.gomoku.driver`) rather than in Python."""
    width: int = 12
    """Candidate moves tried at a node without threats (the root tries twice as many)."""
    reply_width: int = 0
    """Candidate moves tried at such a node one ply below the root, the opponent's replies to a root move
    (0: ``width``). Off for every level: at a real second 24 scored as ``perfect`` without it (44.5 and 45
    of 100 against Rapfi at 20,000 nodes, see the README's tenth round)."""
    pv_width: int = 0
    """Candidate moves tried at such a node of the principal variation (searched with an open window), if
    more than the above: a move about to become the best is searched again with an open window, so the
    replies beyond the width are seen before it is chosen. Off for every level: at a real second 24 scored
    89 of 200 against Rapfi at 20,000 nodes, ``perfect`` without it 87 (see the README's tenth round)."""
    max_depth: int = 40
    """The deepest iteration of the α-β search."""
    threads: int = 2
    """Threads of the compiled α-β search (at most the machine's cores, and at most
    :func:`inarow.engines.limits.threads` allows) when it is limited by time alone: the others search
    beside the main one and share its table (see :class:`inarow.engines.gomoku.driver._Helper`). A
    search limited by nodes or depth uses one, so that it is the same on every machine."""
    fresh: bool = False
    """Start the compiled search from an empty table rather than from what the last searches of the same
    game and style stored (a player's moves keep it; an analysis asked for its lines starts afresh, so
    that the same question gets the same answer however often it is asked)."""


DEFAULT_STYLE = Style()
"""How ``perfect`` and the analysis play: everything on but the threat search inside the α-β search."""


@dataclass(frozen=True, kw_only=True)
class GomokuResult:
    """What the engine found, from the side to move's standpoint; moves are cell bits of the rules."""

    value: int
    """On the :data:`EXACT` scale."""
    proven: bool
    """Whether ``value`` is a proven win or loss (a five, a VCF, a VCT, or every defence failing)."""
    best: int
    pv: tuple[int, ...]
    depth: int
    """The α-β depth finished (0 when a threat search or a forced reply settled it)."""
    nodes: int
    move_values: dict[int, int] = field(default_factory=dict)
    """Root moves the search tried with their values (the best one exact, the others upper bounds)."""
    reason: str = "search"
    """``five``, ``blocked``, ``vcf``, ``vct``, ``defended``, ``lost`` or ``search``."""


class GomokuSearch:
    """One search of one position. Not thread-safe."""

    def __init__(self, game: Game, budget: Budget, style: Style = DEFAULT_STYLE) -> None:
        assert supports(game), f"the Gomoku engine does not play {game.name}"
        self.game = game
        self.budget = budget
        self.style = style
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.board = GomokuBoard(game)
        self.threats = ThreatSearch(self.board, budget)
        self._partial: tuple[int, list[int], dict[int, int]] | None = None
        """The best root move of the iteration under way so far, its line and the values found."""
        self._killers: dict[int, list[int]] = {}
        """Two moves a ply that last cut the search off there (killer moves), tried after the table's."""
        self._history: tuple[dict[int, int], ...] = ({}, {}, {})
        """With ``Style.history``, each side's history entries by cell (see :data:`HISTORY_RANGE`)."""

    def _win(self, stones: int) -> int:
        """The value of a win by the stone played when ``stones`` stones are on the board."""
        return exact_score(self.game, stones) * EXACT

    def _bits(self, line: list[int]) -> tuple[int, ...]:
        return tuple(self.board.to_bit(i) for i in line)

    def run(self, position: Position) -> GomokuResult:
        """Search ``position`` (not over) within the budget; the first iteration always finishes."""
        board = self.board = GomokuBoard.from_position(position)
        compiled = self.style.compiled and compiled_ready()
        if compiled:
            from inarow.engines.gomoku import driver

            driver.warm_up()
        self.threats = ThreatSearch(board, self.budget, compiled=compiled)
        me = 1 if position.turn == "x" else 2
        opp = 3 - me
        n = board.stones
        if board.fives[me]:
            five = min(board.fives[me])
            return self._result(self._win(n), True, [five], 0, "five")
        if len(board.fives[opp]) >= 2:
            block = min(board.fives[opp])
            return self._result(-self._win(n + 1), True, [block, max(board.fives[opp])], 0, "lost")
        if self.style.vcf and not board.fives[opp]:
            reason = "vcf"
            try:
                line = self.threats.vcf(me)
                if line is None and self.style.vct:
                    line, reason = self._vct_with_share(me), "vct"
            except SearchAborted:
                line = None
            if line is not None:
                return self._result(self._win(n + len(line) - 1), True, line, 0, reason)
        roots = self._root_moves(me)
        if self.style.vcf and not board.fives[opp]:
            defended = self._defend(me, roots)
            if defended is not None:
                if not defended:
                    line = self._opponent_vcf_after_any(me, roots)
                    return self._result(-self._win(n + len(line)), True, line, 0, "lost")
                roots = defended
        return self._iterate(me, roots)

    def static_values(self, position: Position) -> dict[int, int]:
        """Every legal move's static value for the side that plays it (the board's evaluation after it,
        from the mover's side), for the moves a search did not try."""
        board = GomokuBoard.from_position(position)
        me = 1 if position.turn == "x" else 2
        values = {}
        for bit in position.legal_bits():
            i = board.from_bit(bit)
            board.play(i, me)
            values[bit] = -board.evaluate(3 - me)
            board.undo()
        return values

    def _share(self, share: float) -> float | None:
        """Bring the deadline forward to ``share`` of the time left, for a phase that must leave the rest to
        the α-β search; returns the deadline to restore afterwards."""
        saved = self.budget.deadline
        remaining = self.budget.remaining
        if remaining is not None:
            self.budget.deadline = self.budget.start + self.budget.elapsed + remaining * share
        return saved

    def _vct_with_share(self, me: int) -> list[int] | None:
        """A VCT within :data:`VCT_SHARE` of the time left, so the α-β search keeps its share."""
        saved = self._share(VCT_SHARE)
        try:
            return self.threats.vct(me)
        except SearchAborted:
            return None
        finally:
            self.budget.deadline = saved

    def _root_moves(self, me: int) -> list[int]:
        """The candidate moves at the root; when the opponent would win by a VCT were it to move, the moves
        that may stop it come first (see :meth:`_threat_defence`)."""
        board = self.board
        if board.fives[3 - me]:
            return list(board.fives[3 - me])
        moves = self._moves(me, 2 * self.style.width)
        if self.style.vcf and self.style.vct and not board.wins[3 - me]:
            length = len(board.history)
            saved = self._share(DEFENCE_SHARE)
            defence: list[int] = []
            try:
                defence = self._threat_defence(me, 0)
                if defence and self.style.vct:
                    # A VCT found is a proof: a move after which the opponent still has one loses.
                    safe = [move for move in defence if not self._still_loses(me, move)]
                    if safe:
                        return safe
            except SearchAborted:
                board.rewind(length)
            finally:
                self.budget.deadline = saved
            moves = defence + [move for move in moves if move not in defence]
        return moves or [board.centre]

    def _still_loses(self, me: int, move: int) -> bool:
        """Whether the opponent has a VCT (found within :data:`INNER_VCT_NODES`) after ``move``."""
        board, opp = self.board, 3 - me
        board.play(move, me)
        try:
            if board.fives[me]:
                return False
            threats, nodes = self._defence(INNER_VCT_NODES)
            return self.threats.vct(opp, threats, INNER_VCF_FOURS, nodes) is not None
        finally:
            board.undo()

    def _defence(self, nodes: int) -> tuple[int, int]:
        """The threats and nodes of a VCT of the defence whose Python node limit is ``nodes`` (see
        :data:`COMPILED_DEFENCE`)."""
        if self.threats.compiled:
            return INNER_VCT_THREATS + 1, nodes * COMPILED_DEFENCE
        return INNER_VCT_THREATS, nodes

    def _defend(self, me: int, roots: list[int]) -> list[int] | None:
        """If the opponent has a VCF, the root moves after which it has none (perhaps none); else None."""
        board, opp = self.board, 3 - me
        length = len(board.history)
        try:
            if not board.fours[opp] or self.threats.vcf(opp) is None:
                return None
            safe = []
            for move in roots:
                board.play(move, me)
                if (
                    board.fives[me]
                    or self.threats.vcf(opp, max_nodes=self._defence(DEFENCE_VCF_NODES)[1]) is None
                ):
                    safe.append(move)
                board.undo()
            if safe:
                return safe
            # No root move stops it: try every other empty cell before calling the position lost.
            for move in board.board_cells:
                if board.cells[move] != 0 or move in roots:
                    continue
                board.play(move, me)
                if board.fives[me] or self.threats.vcf(opp) is None:
                    safe.append(move)
                board.undo()
            return safe
        except SearchAborted:
            board.rewind(length)
            return None

    def _opponent_vcf_after_any(self, me: int, roots: list[int]) -> list[int]:
        """The longest opponent VCF after the first root moves (the line a lost position expects)."""
        board, opp = self.board, 3 - me
        longest: list[int] = [roots[0]]
        length = len(board.history)
        for move in roots[:4]:
            board.play(move, me)
            try:
                line = self.threats.vcf(opp) or []
            except SearchAborted:
                break
            finally:
                board.rewind(length)
            if len(line) + 1 > len(longest):
                longest = [move, *line]
        return longest

    def _result(
        self,
        value: int,
        proven: bool,
        line: list[int],
        depth: int,
        reason: str,
        values: dict[int, int] | None = None,
    ) -> GomokuResult:
        pv = self._bits(line)
        return GomokuResult(
            value=value,
            proven=proven,
            best=pv[0],
            pv=pv,
            depth=depth,
            nodes=self.budget.nodes,
            move_values={} if values is None else {self.board.to_bit(i): v for i, v in values.items()},
            reason=reason,
        )

    # ----------------------------------------------------------------------------------- α-β
    def _iterate(self, me: int, roots: list[int]) -> GomokuResult:
        if self.style.compiled and compiled_ready():
            return self._iterate_compiled(me, roots)
        self._history = ({}, {}, {})
        best_line = [roots[0]]
        best_value = self.board.evaluate(me)
        values: dict[int, int] = {}
        reached = 0
        # Depth 1 first, so that there is always a move; then even depths only: the evaluation is read
        # with the same side to move at every horizon, so iterations compare.
        for depth in [1, *range(2, self.style.max_depth + 1, self.style.step)]:
            self._partial = None
            window = (-INFINITY, INFINITY)
            if depth >= ASPIRATION_DEPTH and reached and abs(best_value) < EXACT:
                window = (best_value - ASPIRATION, best_value + ASPIRATION)
            try:
                value, line, found = self._root(me, roots, depth, depth == 1, window)
                if not window[0] < value < window[1] and window != (-INFINITY, INFINITY):
                    self._partial = None
                    value, line, found = self._root(me, roots, depth, False, (-INFINITY, INFINITY))
            except SearchAborted:
                # The root moves searched before the clock ran out were searched deeper, the previous
                # best first: the best of them is the better guess.
                if self._partial is not None:
                    best_value, best_line, partial = self._partial
                    values = {**values, **partial}
                break
            best_value, best_line, values, reached = value, line, found, depth
            roots = [best_line[0]] + [m for m in roots if m != best_line[0]]
            if abs(best_value) >= EXACT:
                break
        return self._result(best_value, False, best_line, reached, "search", values)

    def _iterate_compiled(self, me: int, roots: list[int]) -> GomokuResult:
        from inarow.engines.gomoku import driver

        driver.warm_up()
        board, style = self.board, self.style
        compiled = driver.CompiledBoard(self.game, [(i, board.cells[i]) for i in board.history])
        found = driver.iterate(
            compiled,
            me,
            roots,
            self.budget,
            width=style.width,
            reply_width=style.reply_width,
            pv_width=style.pv_width,
            max_depth=style.max_depth,
            vcf=style.vcf,
            inner=style.inner,
            step=style.step,
            start_value=board.evaluate(me),
            quiesce=QUIESCE_FOURS if style.vcf and style.quiescence else 0,
            prune=style.pruning,
            lmr=style.lmr,
            root_lmr=style.root_lmr,
            lmr_divisor=style.lmr_divisor,
            history=style.history,
            threads=min(style.threads, os.cpu_count() or 1, thread_limit() or style.threads),
            fresh=style.fresh,
        )
        return self._result(found.value, False, found.line, found.depth, "search", found.values)

    def _root(
        self, me: int, roots: list[int], depth: int, first: bool, window: tuple[int, int]
    ) -> tuple[int, list[int], dict[int, int]]:
        """The root moves searched within ``window`` as the kernel's ``root`` does: the best value (at most
        the window's low end if every move failed low, then with no line), its line and every move's value;
        a move that fails high ends the search there."""
        board = self.board
        alpha, beta = window
        best_line: list[int] = []
        values: dict[int, int] = {}
        saved = self.budget.deadline
        if first:
            self.budget.deadline = None
        length = len(board.history)
        try:
            opp = 3 - me
            for index, move in enumerate(roots):
                reduce = 0
                if (
                    self.style.lmr
                    and self.style.root_lmr
                    and index >= ROOT_LMR_FIRST
                    and depth >= ROOT_LMR_DEPTH
                    and self._quiet(me, move)
                ):
                    reduce = lmr_reduction(min(depth, 63), min(index, 63), self.style.lmr_divisor)
                board.play(move, me)
                if index == 0:
                    value = -self._search(opp, depth - 1, -beta, -alpha, 1)
                else:
                    value = -self._search(opp, depth - 1 - reduce, -alpha - 1, -alpha, 1)
                    if reduce and value > alpha:
                        value = -self._search(opp, depth - 1, -alpha - 1, -alpha, 1)
                    if alpha < value < beta:
                        value = -self._search(3 - me, depth - 1, -beta, -alpha, 1)
                if value > alpha:
                    best_line = [move, *self._line(3 - me, depth - 1)]
                board.undo()
                values[move] = value
                alpha = max(alpha, value)
                if best_line:
                    self._partial = (alpha, best_line, dict(values))
                if alpha >= beta:
                    break
        finally:
            self.budget.deadline = saved
            board.rewind(length)
        return alpha, best_line, values

    def _line(self, side: int, depth: int) -> list[int]:
        """The expected line from the table, at most ``depth`` moves (the board is left as it was)."""
        board, line = self.board, []
        for _ in range(depth):
            entry = self.table.get(board.hash ^ side)
            if entry is None or entry[3] < 0 or board.cells[entry[3]] != 0:
                break
            line.append(entry[3])
            board.play(entry[3], side)
            side = 3 - side
        for _ in line:
            board.undo()
        return line

    def _moves(self, side: int, width: int) -> list[int]:
        """The moves worth trying for ``side`` to move when it has no five to make and the opponent none,
        best first, ties in board order (as the kernel's ``_moves``)."""
        board, opp = self.board, 3 - side
        mine, theirs = board.value[side], board.value[opp]
        if board.wins[opp]:
            # An open three (or a four-three) of the opponent: answer on its line, or play a four.
            return sorted(
                board.wins[opp] | board.fours[opp] | board.fours[side],
                key=lambda i: (-(mine[i] + theirs[i]), i),
            )
        history = self._history[side] if self.style.history else {}

        def key(i: int) -> tuple[int, int]:
            return -(ORDER_MINE * mine[i] + ORDER_THEIRS * theirs[i] + history.get(i, 0) // HISTORY_SHARE), i

        ranked = sorted(board.candidates, key=key)
        return ranked[:width]

    def _quiet(self, side: int, move: int) -> bool:
        """Whether ``move`` is quiet for ``side``, as the kernel's
        :func:`~inarow.engines.gomoku.kernel._quiet`: it makes no four or open three and takes no four or
        open-four cell of the opponent's (late move reductions may reduce it)."""
        board, opp = self.board, 3 - side
        return (
            move not in board.fours[side]
            and move not in board.wins[side]
            and move not in board.threes[side]
            and move not in board.fours[opp]
            and move not in board.wins[opp]
        )

    def _static(self, side: int) -> int:
        """The static evaluation for ``side`` to move, within the open interval of evaluations (as the
        kernel's :func:`inarow.engines.gomoku.kernel.evaluate`)."""
        return max(-EXACT + 1, min(EXACT - 1, self.board.evaluate(side)))

    def _settled(self, side: int) -> int | None:
        """Count a node (checking the budget now and then) and settle it when it needs no search, as the
        kernel's :func:`~inarow.engines.gomoku.kernel._settled`: a five of ``side`` (to move) to make is a
        win, two of the opponent's a loss, a full board a draw; else None."""
        budget = self.budget
        budget.nodes += 1
        if not budget.nodes & CHECK_EVERY:
            budget.check()
        n = self.board.stones
        if self.board.fives[side]:
            return self._win(n)
        if len(self.board.fives[3 - side]) >= 2:
            return -self._win(n + 1)
        if n >= self.game.cells:
            return 0
        return None

    def _search(self, side: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The α-β value for ``side`` to move, ``depth`` plies deep: the compiled kernel's algorithm
        (:func:`inarow.engines.gomoku.kernel.search`) move for move, in Python."""
        known = self._settled(side)
        if known is not None:
            return known
        board, opp = self.board, 3 - side
        n = board.stones
        opp_fives = board.fives[opp]
        forced = bool(opp_fives)
        if forced:
            moves = [min(opp_fives)]
            if ply < MAX_PLY:
                depth += 1
        elif board.wins[side]:
            return self._win(n + 2)
        else:
            moves = []
        key = board.hash ^ side
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            stored_depth, lower, upper, hint = entry
            decided, stored = probe(stored_depth, lower, upper, depth, alpha, beta)
            if decided:
                return stored
        if depth <= 0 or ply >= LAST_ROW:
            if self.style.vcf and self.style.quiescence:
                leaf = self._quiesce(side, alpha, beta, QUIESCE_FOURS, -1, ply)
                lower = leaf if leaf > alpha else -INFINITY
                upper = leaf if leaf < beta else INFINITY
                self.table[key] = (0, lower, upper, -1)
                return leaf
            leaf = self._static(side)
            if self.style.vcf and not forced and board.fours[side]:
                line = self.threats.vcf(side, LEAF_VCF_FOURS, LEAF_VCF_NODES)
                if line is not None:
                    leaf = self._win(n + len(line) - 1)
                self.table[key] = (0, leaf, leaf, -1)
            return leaf
        pruning = self.style.vcf and self.style.quiescence and self.style.pruning
        if pruning and not forced and depth <= 2 and beta == alpha + 1:
            static = self._static(side)
            if static + RAZOR[depth] < alpha:
                value = self._quiesce(side, alpha, beta, QUIESCE_FOURS, -1, ply)
                if value < beta:
                    return value
            elif static - FUTILITY[depth] >= beta and not board.wins[opp]:
                return static
        if self.style.vcf and self.style.inner and not forced and board.fours[side]:
            line = self.threats.vcf(side, INNER_VCF_FOURS, INNER_VCF_NODES)
            if line is not None:
                return self._win(n + len(line) - 1)
        if not forced:
            width = self.style.reply_width if ply == 1 and self.style.reply_width else self.style.width
            if beta > alpha + 1:
                width = max(width, self.style.pv_width)
            moves = self._moves(side, width)
            if not moves:
                return self._static(side)
        killers = self._killers.setdefault(ply, [-1, -1])
        front = 0
        for wanted in (hint, *killers):
            if wanted >= 0 and wanted in moves[front:]:
                moves.remove(wanted)
                moves.insert(front, wanted)
                front += 1
        alpha0 = alpha
        best, best_move = -INFINITY, moves[0]
        for index, move in enumerate(moves):
            reduce = 0
            if not forced and index >= LMR_FIRST and depth >= LMR_DEPTH and self._quiet(side, move):
                if self.style.lmr:
                    reduce = lmr_reduction(min(depth, 63), min(index, 63), self.style.lmr_divisor)
                else:
                    reduce = 2 if index >= LMR_DEEPER and depth >= 4 else 1
            board.play(move, side)
            if index == 0:
                value = -self._search(opp, depth - 1, -beta, -alpha, ply + 1)
            else:
                value = -self._search(opp, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                if reduce and value > alpha:
                    value = -self._search(opp, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self._search(opp, depth - 1, -beta, -alpha, ply + 1)
            board.undo()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if not forced and killers[0] != move:
                            killers[1], killers[0] = killers[0], move
                        if self.style.history and not forced and self._quiet(side, move):
                            self._learn(side, depth, move, moves[:index])
                        break
        lower = best if best > alpha0 else -INFINITY
        upper = best if best < beta else INFINITY
        self.table[key] = (depth, lower, upper, best_move)
        return best

    def _learn(self, side: int, depth: int, cut: int, tried: list[int]) -> None:
        """The history after the quiet move ``cut`` of ``side`` failed high at ``depth``, after ``tried``
        did not (as the kernel's ``search``): the cut's entry rises, the quiet moves' tried before fall."""
        bonus = history_bonus(depth)
        history = self._history[side]
        for move, change in ((cut, bonus), *((m, -bonus) for m in tried if self._quiet(side, m))):
            entry = history.get(move, 0)
            history[move] = entry + change - entry * abs(change) // HISTORY_RANGE

    def _quiesce(self, side: int, alpha: int, beta: int, fours: int, last: int, ply: int) -> int:
        """The horizon's value for ``side`` to move: the kernel's quiescence search over fours
        (:func:`inarow.engines.gomoku.kernel.quiesce`) move for move, in Python."""
        known = self._settled(side)
        if known is not None:
            return known
        board, opp = self.board, 3 - side
        n = board.stones
        if board.fives[opp]:
            if ply >= LAST_ROW:
                return self._static(side)
            board.play(min(board.fives[opp]), side)
            try:
                return -self._quiesce(opp, -beta, -alpha, fours, last, ply + 1)
            finally:
                board.undo()
        if board.wins[side]:
            return self._win(n + 2)
        stand = self._static(side)
        if stand >= beta or fours <= 0 or not board.fours[side] or ply >= LAST_ROW:
            return stand
        if last < 0:
            cells = board.fours[side]
        else:
            width = board.width
            cells = {
                last + dr * width + dc
                for dr in range(-NEAR_LINE, NEAR_LINE + 1)
                for dc in range(-NEAR_LINE, NEAR_LINE + 1)
                if (max(abs(dr), abs(dc)) <= NEAR_SQUARE or dr == 0 or dc == 0 or abs(dr) == abs(dc))
            } & board.fours[side]
        mine = board.value[side]
        best = stand
        alpha = max(alpha, stand)
        for move in sorted(cells, key=lambda i: (-mine[i], i)):
            board.play(move, side)
            try:
                value = -self._quiesce(opp, -beta, -alpha, fours - 1, move, ply + 1)
            finally:
                board.undo()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def _threat_defence(self, side: int, ply: int) -> list[int]:
        """If the opponent would win by a VCF (or, at the root, a VCT) were it to move, the moves that
        may stop it: the cells of its line, the cells where it would make a four or an open three, and
        the side to move's own fours (and, against a VCT, its own open threes: a counter-threat the
        opponent must answer, which breaks a VCT as a four does), the most valuable first; else no moves
        (the usual ones apply)."""
        board, opp = self.board, 3 - side
        line = None
        counters = board.fours[side]
        if board.fours[opp]:
            line = self.threats.vcf(opp, INNER_VCF_FOURS, INNER_VCF_NODES)
        if line is None and self.style.vct and ply == 0 and board.threes[opp]:
            threats, nodes = self._defence(ROOT_DEFENCE_NODES)
            line = self.threats.vct(opp, threats, INNER_VCF_FOURS, nodes)
            counters = counters | board.threes[side]
        if line is None:
            return []
        cells = set(line) | board.fours[opp] | board.threes[opp] | counters
        mine, theirs = board.value[side], board.value[opp]
        return sorted((i for i in cells if board.cells[i] == 0), key=lambda i: -(mine[i] + theirs[i]))
