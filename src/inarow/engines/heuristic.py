"""The depth-limited search: α-β to a horizon where an evaluation scores unfinished positions, for
positions too big to solve exactly (and for the levels that play to a fixed depth).

Values are on the scale of :mod:`inarow.engines.scores`: a proven result is its exact score times
:data:`EXACT`, anything smaller in size is an evaluation (:mod:`inarow.evaluation.lines`, from the side to
move's standpoint). The search keeps a table of bounds with the best move found, which later searches of
the same :class:`HeuristicSearch` (iterative deepening, the expected line) reuse.
"""

from __future__ import annotations

from dataclasses import dataclass

from inarow.engines.exact.bitboard import BitboardSearch
from inarow.engines.limits import Budget, SearchAborted
from inarow.engines.scores import EXACT, exact_score, proven_score
from inarow.engines.table import probe
from inarow.evaluation.lines import EngineEvaluation, engine_evaluation
from inarow.rules.game import Game

NEIGHBOURHOOD_MIN_CELLS = 65
"""On boards this large the search only tries cells within two steps of a stone."""


@dataclass(frozen=True, kw_only=True)
class Found:
    """What a depth-limited search found for a position, from the standpoint of the side to move there."""

    value: int
    """On the :data:`EXACT` scale: a proven result times EXACT, else an evaluation."""
    complete: bool
    """No line was cut off by the depth limit, so the value is exact even when it is small (a draw)."""
    searched: bool = True
    """False for a move the search would not try (far from every stone): its value is only static."""

    @property
    def score(self) -> int | None:
        """The exact score, when the value is proven or the search complete; else None."""
        score = proven_score(self.value)
        if score is None and self.complete:
            return self.value // EXACT
        return score


class HeuristicSearch(BitboardSearch):
    """Depth-limited searches of one game sharing one table. Not thread-safe: one per search."""

    def __init__(
        self, game: Game, budget: Budget | None = None, evaluation: EngineEvaluation = engine_evaluation
    ) -> None:
        super().__init__(game, budget)
        self.evaluation = evaluation
        self.table: dict[int, tuple[int, int, int, bool, int]] = {}
        self._horizon = False

    def search(self, cur: int, opp: int, depth: int) -> Found:
        """The α-β value of the position ``depth`` plies deep for the side to move (``cur``).

        Raises :class:`SearchAborted` when the budget runs out.
        """
        self._horizon = False
        value = self._search(cur, opp, (cur | opp).bit_count(), depth, -EXACT * 1000, EXACT * 1000)
        return Found(value=value, complete=not self._horizon)

    def move_values(self, cur: int, opp: int, depth: int) -> dict[int, Found]:
        """Every legal move's value for the side that plays it, ``depth`` plies deep counting the move, in
        board order. Moves the search would not try get a static evaluation (``searched`` False)."""
        game, filled = self.game, cur | opp
        candidates = self.candidates(filled)
        values = {}
        for bit in _bits(self.possible(filled)):
            move = 1 << bit
            if game.has_line(cur | move):
                values[bit] = Found(value=exact_score(game, filled.bit_count()) * EXACT, complete=True)
            elif (filled | move).bit_count() == self.cells:
                values[bit] = Found(value=0, complete=True)
            elif candidates & move:
                found = self.search(opp, cur | move, depth - 1)
                values[bit] = Found(value=-found.value, complete=found.complete)
            else:
                static = -self.evaluation(game, opp, cur | move)
                values[bit] = Found(value=static, complete=False, searched=False)
        return values

    def line(self, cur: int, opp: int, depth: int, budget: Budget) -> list[int]:
        """The expected line from the position: each side's best move at the depth left, within ``budget``.

        Where the table is keyed by the position as it stands (no symmetry), its best moves give the line
        at once; otherwise each step is searched again, mostly from the table. The line ends early when
        ``budget`` runs out.
        """
        saved, self.budget = self.budget, budget
        line: list[int] = []
        try:
            for left in range(depth, 0, -1):
                filled = cur | opp
                if self.game.has_line(opp) or filled.bit_count() == self.cells:
                    break
                entry = self.table.get(self.key(cur, opp)) if self.symmetry is None else None
                if entry is not None and entry[4] and filled & entry[4] == 0:
                    move = entry[4]
                else:
                    values = self.move_values(cur, opp, left)
                    move = 1 << max(values, key=lambda bit: _rank(values[bit]))
                line.append(move.bit_length() - 1)
                cur, opp = opp, cur | move
        except SearchAborted:
            pass
        finally:
            self.budget = saved
        return line

    def candidates(self, filled: int) -> int:
        """The moves worth trying: every legal move, or on big boards those near the stones."""
        possible = self.possible(filled)
        if self.gravity or self.cells < NEIGHBOURHOOD_MIN_CELLS:
            return possible
        if not filled:
            return 1 << self.order[0]
        near = filled
        for _ in range(2):
            grown = near
            for d in (1, self.game.height, self.game.height + 1, self.game.height - 1):
                grown |= near << d | near >> d
            near = grown
        return possible & near

    def _search(self, cur: int, opp: int, ply: int, depth: int, alpha: int, beta: int) -> int:
        self.tick()
        filled = cur | opp
        possible = self.possible(filled)
        wins = self.game.winning_cells
        if wins(cur, possible):
            return exact_score(self.game, ply) * EXACT
        if ply >= self.cells:
            return 0
        threats = wins(opp, self.board & ~filled)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return -exact_score(self.game, ply + 1) * EXACT
            moves = forced
        else:
            moves = self.candidates(filled)
        if self.gravity:
            moves &= ~(threats >> 1)
            if not moves:
                return -exact_score(self.game, ply + 1) * EXACT
        if depth <= 0:
            self._horizon = True
            return max(-EXACT + 1, min(EXACT - 1, self.evaluation(self.game, cur, opp)))
        key = self.key(cur, opp)
        entry = self.table.get(key)
        best_move = 0
        if entry is not None:
            stored_depth, lower, upper, complete, best_move = entry
            # A complete entry (searched to the end on every line) holds at any depth.
            if not complete and stored_depth >= depth:
                self._horizon = True
            decided, value = probe(depth if complete else stored_depth, lower, upper, depth, alpha, beta)
            if decided:
                return value
        alpha0, horizon0 = alpha, self._horizon
        self._horizon = False
        ordered = self.ordered(cur, filled, moves)
        if best_move and best_move in ordered:
            ordered.remove(best_move)
            ordered.insert(0, best_move)
        best, best_move = -EXACT * 1000, ordered[0]
        for move in ordered:
            value = -self._search(opp, cur | move, ply + 1, depth - 1, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        lower = best if best > alpha0 else -EXACT * 1000
        upper = best if best < beta else EXACT * 1000
        complete = not self._horizon
        self.table[key] = (depth, lower, upper, complete, best_move)
        self._horizon = horizon0 or self._horizon
        return best


def _rank(found: Found) -> int:
    """A value on the :data:`EXACT` scale whether proven or not, so the two compare."""
    score = found.score
    return found.value if score is None else score * EXACT


def _bits(mask: int) -> list[int]:
    return [b for b in range(mask.bit_length()) if mask >> b & 1]
