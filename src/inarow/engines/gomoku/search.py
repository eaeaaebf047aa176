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
   driven by :mod:`inarow.engines.gomoku.driver`; the engine's only α-β search). Inside it, a five to make
   wins, an open four to make wins two plies later, a four of the opponent must be blocked, an open three
   of the opponent must be answered on the cells of its line (or with a four); elsewhere the ``width``
   most valuable candidate cells are tried, the table's move first, then two killer moves of the ply, the
   late quiet ones reduced (:func:`inarow.engines.gomoku.kernel.lmr_reduction`); at the horizon a
   quiescence search over the side to move's fours (:func:`inarow.engines.gomoku.kernel.quiesce`). Before
   it (with ``vct``), if the opponent would win by a VCT were it to move, only the moves after which it
   has none. The compiled search keeps its table from one search to the next of the same game and style
   (the moves of a game; not with :attr:`Style.fresh`), see :mod:`inarow.engines.gomoku.driver`.

While the kernels are being compiled for the first time (the first Gomoku search after an install, about
half a minute in a child process, see :func:`compiled_ready`), a search does not wait: steps 1 to 3 run
(the threat searches in Python, :mod:`inarow.engines.gomoku.threats`) and step 4 is replaced by the
static move order, whose first move is played with the static evaluation at depth 0.

α-β wins are found with only some moves of the defender tried, so they are never called proven.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from inarow.engines import compiling
from inarow.engines.gomoku.board import GomokuBoard
from inarow.engines.gomoku.threats import ThreatSearch
from inarow.engines.gomoku.weights import IN_USE, Tables
from inarow.engines.limits import Budget, SearchAborted, thread_limit
from inarow.engines.scores import EXACT, exact_score
from inarow.rules.game import Game, Position

DEFENCE_FOURS = 8
ROOT_VCF_NODES = 120
"""The fours of the opponent's VCFs (and of the VCFs inside its VCTs) looked for when the root defends, and
the nodes of the root's first look for its VCF (see :meth:`GomokuSearch._threat_defence`)."""

INNER_VCT_THREATS = 3
INNER_VCT_NODES = 150
"""The opponent's VCT looked for after each root move that may stop it (see
:meth:`GomokuSearch._still_loses`)."""

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


_compiling: list[threading.Thread] = []


def compiled_ready() -> bool:
    """Whether the compiled α-β search can run now without compiling: loaded in this process, or compiled
    before (loading it from numba's cache takes a fraction of a second). If not, its compilation starts
    in a child process (once per process; about half a minute on the project's 2-core machine), so that a
    search never waits for the compiler: until it is done, a search plays its threat searches and the
    static move order (see the module's docstring)."""
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


def load(loading: Callable[[bool], AbstractContextManager[object]]) -> float:
    """Load the compiled α-β search into this process now, compiling it here first if it never was (about
    a minute, once per install), with ``loading`` called around it and told whether it compiles: for a
    caller that would rather wait for it than have its searches answer meanwhile with the static order (a
    game or a one-shot analysis on the command line; see :func:`compiled_ready`). The seconds it took, 0
    if it was loaded already."""
    from inarow.engines.gomoku import driver

    if driver.is_warm():
        return 0.0
    with loading(not compiling.gomoku_unit().compiled_before()):
        return driver.warm_up()


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
    step: int = 2
    """The iterations' depths: 1, then every ``step`` plies (2: even depths only, so that the evaluation is
    read with the same side to move at every horizon and iterations compare; 1: every depth)."""
    quiescence: bool = True
    """At the horizon (with ``vcf``), a quiescence search over the side to move's fours (see
    :func:`inarow.engines.gomoku.kernel.quiesce`) rather than a short VCF: it sees a VCF of up to eight
    fours where the short one gives up after four."""
    lmr: bool = True
    """Late move reductions by a table of depth and move number
    (:func:`inarow.engines.gomoku.kernel.lmr_reduction`), which reduce a late quiet move more the deeper
    the node and the later the move, rather than by one or two plies (see
    :data:`inarow.engines.gomoku.kernel.LMR_DEEPER`)."""
    lmr_divisor: float = 2.0
    """The divisor of :func:`inarow.engines.gomoku.kernel.lmr_reduction` (smaller: larger reductions, so
    deeper searches that overlook more late moves)."""
    prune: int = 3
    """Move-count pruning (:func:`inarow.engines.gomoku.kernel.prune_counts`): at a quiet node ``depth``
    plies above the horizon, the quiet moves after the first ``prune + depth ** prune_power`` are not
    searched (0: off; 3 with the power 2 leaves 4, 7 and 12 moves, the width, one, two and three plies
    above the horizon)."""
    prune_power: float = 2.0
    """The power of the depth in the move-count pruning's counts (see ``prune``)."""
    width: int = 12
    """Candidate moves tried at a node without threats (the root tries twice as many)."""
    max_depth: int = 40
    """The deepest iteration of the α-β search."""
    threads: int = 2
    """Threads of the compiled α-β search (at most the machine's cores, and at most
    :func:`inarow.engines.limits.threads` allows) when it is limited by time alone: the others search
    beside the main one and share its table (see :class:`inarow.engines.gomoku.driver._Helper`). A
    search limited by nodes or depth uses one, so that it is the same on every machine."""
    tables: Tables = IN_USE
    """The evaluation's tables (see :mod:`inarow.engines.gomoku.weights`)."""
    fresh: bool = False
    """Start the compiled search from an empty table rather than from what the last searches of the same
    game and style stored (a player's moves keep it; an analysis asked for its lines starts afresh, so
    that the same question gets the same answer however often it is asked)."""


DEFAULT_STYLE = Style()
"""How ``perfect`` and the analysis play."""


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
        self.board = GomokuBoard(game, style.tables)
        self.threats = ThreatSearch(self.board, budget)

    def _win(self, stones: int) -> int:
        """The value of a win by the stone played when ``stones`` stones are on the board."""
        return exact_score(self.game, stones) * EXACT

    def _bits(self, line: list[int]) -> tuple[int, ...]:
        return tuple(self.board.to_bit(i) for i in line)

    def run(self, position: Position) -> GomokuResult:
        """Search ``position`` (not over) within the budget; the first iteration always finishes."""
        board = self.board = GomokuBoard.from_position(position, self.style.tables)
        compiled = compiled_ready()
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
        return self._iterate(me, roots, compiled)

    def static_values(self, position: Position) -> dict[int, int]:
        """Every legal move's static value for the side that plays it (the board's evaluation after it,
        from the mover's side), for the moves a search did not try."""
        board = GomokuBoard.from_position(position, self.style.tables)
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
            return self.threats.vct(opp, threats, DEFENCE_FOURS, nodes) is not None
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
    def _iterate(self, me: int, roots: list[int], compiled: bool) -> GomokuResult:
        """The α-β search of the root moves ``roots`` (compiled); while the kernels are still being
        compiled for the first time, none: the first root move, in the static order (see
        :meth:`_root_moves`), at depth 0 with the static evaluation."""
        if not compiled:
            return self._result(self.board.evaluate(me), False, [roots[0]], 0, "search")
        from inarow.engines.gomoku import driver, kernel

        board, style = self.board, self.style
        stones = [(i, board.cells[i]) for i in board.history]
        board_arrays = driver.CompiledBoard(self.game, stones, board.tables)
        found = driver.iterate(
            board_arrays,
            me,
            roots,
            self.budget,
            width=style.width,
            max_depth=style.max_depth,
            vcf=style.vcf,
            step=style.step,
            start_value=board.evaluate(me),
            quiesce=kernel.QUIESCE_FOURS if style.vcf and style.quiescence else 0,
            lmr=style.lmr,
            lmr_divisor=style.lmr_divisor,
            prune=style.prune,
            prune_power=style.prune_power,
            threads=min(style.threads, os.cpu_count() or 1, thread_limit() or style.threads),
            fresh=style.fresh,
        )
        return self._result(found.value, False, found.line, found.depth, "search", found.values)

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
        ranked = sorted(board.candidates, key=lambda i: (-board.order_key(i, side), i))
        return ranked[:width]

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
            line = self.threats.vcf(opp, DEFENCE_FOURS, ROOT_VCF_NODES)
        if line is None and self.style.vct and ply == 0 and board.threes[opp]:
            threats, nodes = self._defence(ROOT_DEFENCE_NODES)
            line = self.threats.vct(opp, threats, DEFENCE_FOURS, nodes)
            counters = counters | board.threes[side]
        if line is None:
            return []
        cells = set(line) | board.fours[opp] | board.threes[opp] | counters
        mine, theirs = board.value[side], board.value[opp]
        return sorted((i for i in cells if board.cells[i] == 0), key=lambda i: -(mine[i] + theirs[i]))
