"""The reference exact engine: negamax with α-β pruning on raw bitboards, in pure Python, for every board.

:meth:`Engine.solve` is exact, on the score scale of :mod:`inarow.engines.scores`: null-window α-β narrowing
the score interval (Pons' iterative bisection), with a transposition table of lower and upper bounds, only
non-losing moves (a forced block is played at once, a double threat is lost at once), moves ordered by the
threats they create, and symmetric positions sharing table entries on boards of up to 64 cells (the 8
symmetries of a square, the 4 of a rectangle, the left-right mirror with gravity).

It counts explored positions (calls of the negamax function) in the :class:`Budget` it is given and raises
:class:`SearchAborted` when it runs out. The depth-limited search with an evaluation, for positions too
big to solve, is :mod:`inarow.engines.heuristic`.
"""

from __future__ import annotations

from inarow.engines.exact.bitboard import BitboardSearch
from inarow.engines.limits import Budget, SearchAborted
from inarow.engines.scores import EXACT, exact_score, plies_to_end, proven_score
from inarow.rules.game import Game


class Engine(BitboardSearch):
    """Exact searches of one game sharing one transposition table. Not thread-safe: one engine per search."""

    def __init__(self, game: Game, budget: Budget | None = None) -> None:
        super().__init__(game, budget)
        self.tt: dict[int, tuple[int, int]] = {}

    def _non_losing(self, cur: int, opp: int, filled: int) -> int:
        """The moves that do not let the opponent win at once (0 when every move does)."""
        possible = self.possible(filled)
        threats = self.game.winning_cells(opp, self.board & ~filled)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return 0  # two cells to block: one is left open
            possible = forced
        if self.gravity:
            possible &= ~(threats >> 1)
        return possible

    def can_win_now(self, cur: int, opp: int) -> bool:
        """Whether the side to move completes a line with its next stone."""
        filled = cur | opp
        return bool(self.game.winning_cells(cur, self.possible(filled)))

    def solve(self, cur: int, opp: int, weak: bool = False) -> int:
        """The exact score of the position for the side to move (``cur``), or with ``weak`` only its sign.

        The position must not be over. Raises :class:`SearchAborted` when the budget runs out.
        """
        ply = (cur | opp).bit_count()
        if self.can_win_now(cur, opp):
            self.tick()
            return 1 if weak else exact_score(self.game, ply)
        low, high = -((self.cells - ply) // 2), (self.cells + 1 - ply) // 2
        if weak:
            low, high = -1, 1
        while low < high:
            middle = low + (high - low) // 2
            if middle <= 0 and low // 2 < middle:
                middle = low // 2
            elif middle >= 0 and high // 2 > middle:
                middle = high // 2
            value = self._negamax(cur, opp, ply, middle, middle + 1)
            if value <= middle:
                high = value
            else:
                low = value
        if weak:
            return (low > 0) - (low < 0)
        return low

    def _negamax(self, cur: int, opp: int, ply: int, alpha: int, beta: int) -> int:
        """Pons' negamax: requires that neither side can win with its next stone."""
        self.tick()
        filled = cur | opp
        moves = self._non_losing(cur, opp, filled)
        if not moves:
            return -((self.cells - ply) // 2)
        if ply >= self.cells - 2:
            return 0
        low = -((self.cells - 2 - ply) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (self.cells - 1 - ply) // 2
        key = self.key(cur, opp)
        entry = self.tt.get(key)
        if entry is not None:
            lower, upper = entry
            if upper < high:
                high = upper
            if lower > alpha:
                alpha = lower
                if alpha >= beta:
                    return alpha
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        for move in self.ordered(cur, filled, moves):
            value = -self._negamax(opp, cur | move, ply + 1, -beta, -alpha)
            if value >= beta:
                lower, upper = self.tt.get(key, (low, high))
                self.tt[key] = (max(lower, value), upper)
                return value
            if value > alpha:
                alpha = value
        lower, upper = self.tt.get(key, (low, high))
        self.tt[key] = (lower, min(upper, alpha))
        return alpha


__all__ = ["EXACT", "Engine", "SearchAborted", "exact_score", "plies_to_end", "proven_score"]
