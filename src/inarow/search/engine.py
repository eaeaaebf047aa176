"""The reference engine: negamax with α-β pruning on raw bitboards, in pure Python, for every board.

Score scale (one for every game, Pascal Pons' Connect Four convention generalised)
=====================================================================================
A side that wins by playing its stone when ``n`` stones are already on a board of ``C`` cells scores
``(C + 1 - n) // 2``; its opponent scores the negative; a draw scores 0. Faster wins score higher and
slower losses score higher (less negative). Every score here is from the standpoint of the side to move.

Two searches share the machinery:

- :meth:`Engine.solve` is exact: null-window α-β narrowing the score interval (Pons' iterative bisection),
  with a transposition table of lower and upper bounds, only non-losing moves (a forced block is played at
  once, a double threat is lost at once), moves ordered by the threats they create, and symmetric
  positions sharing table entries on boards of up to 64 cells (the 8 symmetries of a square, the 4 of a
  rectangle, the left-right mirror with gravity).
- :meth:`Engine.search` is depth-limited: α-β to a horizon where the evaluation of
  :mod:`inarow.evaluation` scores unfinished positions. Exact scores are multiplied by :data:`EXACT`, so
  a value ``v`` with ``abs(v) >= EXACT`` is a proven result (``v // EXACT`` rounded toward zero is the
  exact score) and anything smaller is an evaluation.

Both count explored positions (calls of the negamax function) in the :class:`Budget` they are given and
raise :class:`SearchAborted` when it runs out.
"""

from __future__ import annotations

from inarow.evaluation import Evaluation, engine_evaluation
from inarow.rules import Game
from inarow.search.limits import Budget, SearchAborted
from inarow.symmetry import symmetries

EXACT = 1_000_000
"""Heuristic values lie strictly between -EXACT and EXACT; proven results are exact scores times EXACT."""

_CHECK_EVERY = 1023
"""Nodes between looks at the clock (a mask: one look every 1,024 nodes)."""

_SYMMETRY_MAX_CELLS = 64
"""Boards up to this size without gravity key their table by the canonical image of the position."""

_NEIGHBOURHOOD_MIN_CELLS = 65
"""On boards this large the heuristic search only tries cells within two steps of a stone."""


def exact_score(game: Game, ply: int) -> int:
    """The score of the side that wins by playing its stone when ``ply`` stones are on the board."""
    return (game.cells + 1 - ply) // 2


def plies_to_end(game: Game, ply: int, score: int) -> int:
    """How many plies from a position with ``ply`` stones until the game ends, given its exact score.

    A win of score ``s`` by the side to move is played with ``n`` stones on the board where
    ``(C + 1 - n) // 2 == s`` and ``n`` has the parity of ``ply``; a loss, with the other parity; a draw
    fills the board.
    """
    cells = game.cells
    if score == 0:
        return cells - ply
    s = abs(score)
    parity = ply % 2 if score > 0 else (ply + 1) % 2
    n = cells + 1 - 2 * s if (cells + 1 - 2 * s) % 2 == parity else cells - 2 * s
    return n - ply + 1


class Engine:
    """Searches of one game sharing one transposition table. Not thread-safe: one engine per search."""

    def __init__(self, game: Game, budget: Budget | None = None, evaluation: Evaluation = engine_evaluation):
        self.game = game
        self.budget = budget if budget is not None else Budget()
        self.evaluation = evaluation
        self.cells = game.cells
        self.board = game.board_mask
        self.bottom = game.bottom_mask
        self.gravity = game.gravity
        self.order = game.cell_order
        self.shift = game.columns * game.height
        use_symmetry = game.cells <= _SYMMETRY_MAX_CELLS and (not game.gravity or game.columns > 1)
        self.symmetry = symmetries(game) if use_symmetry else None
        self.tt: dict[int, tuple[int, int]] = {}
        self.htt: dict[int, tuple[int, int, int, bool, int]] = {}
        self.horizon = False

    # --------------------------------------------------------------------------------- helpers
    def possible(self, filled: int) -> int:
        """The cells a stone may be played on."""
        if self.gravity:
            return (filled + self.bottom) & self.board
        return self.board & ~filled

    def key(self, cur: int, opp: int) -> int:
        """The table key of a position, shared with its symmetric images."""
        if self.symmetry is not None:
            return self.symmetry.canonical_key(cur, opp)
        return cur << self.shift | opp

    def _tick(self) -> None:
        budget = self.budget
        budget.nodes += 1
        if budget.nodes & _CHECK_EVERY == 0 or budget.max_nodes is not None:
            budget.check()

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

    def _ordered(self, cur: int, filled: int, moves: int) -> list[int]:
        """``moves`` as single-bit masks, those creating the most threats first, then centre first."""
        wins = self.game.winning_cells
        empty = self.board & ~filled
        scored = []
        for bit in self.order:
            move = 1 << bit
            if moves & move:
                scored.append(((wins(cur | move, empty & ~move)).bit_count(), move))
        scored.sort(key=lambda pair: -pair[0])
        return [move for _, move in scored]

    # ----------------------------------------------------------------------------------- exact
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
            self._tick()
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
        self._tick()
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
        for move in self._ordered(cur, filled, moves):
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

    # ------------------------------------------------------------------------------- heuristic
    def search(
        self, cur: int, opp: int, depth: int, alpha: int = -EXACT * 1000, beta: int = EXACT * 1000
    ) -> int:
        """Depth-limited α-β value of the position for the side to move, on the :data:`EXACT` scale.

        Sets :attr:`horizon` when some line was cut off by the depth limit (the value is then heuristic
        unless it is a proven result). Raises :class:`SearchAborted` when the budget runs out.
        """
        self.horizon = False
        return self._search(cur, opp, (cur | opp).bit_count(), depth, alpha, beta)

    def candidates(self, filled: int) -> int:
        """The moves worth trying: every legal move, or on big boards those near the stones."""
        possible = self.possible(filled)
        if self.gravity or self.cells < _NEIGHBOURHOOD_MIN_CELLS:
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
        self._tick()
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
            self.horizon = True
            return max(-EXACT + 1, min(EXACT - 1, self.evaluation(self.game, cur, opp)))
        key = self.key(cur, opp)
        entry = self.htt.get(key)
        best_move = 0
        if entry is not None:
            stored_depth, lower, upper, complete, best_move = entry
            if complete or stored_depth >= depth:
                if not complete:
                    self.horizon = True
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
        alpha0, horizon0 = alpha, self.horizon
        self.horizon = False
        ordered = self._ordered(cur, filled, moves)
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
        complete = not self.horizon
        self.htt[key] = (depth, lower, upper, complete, best_move)
        self.horizon = horizon0 or self.horizon
        return best


def proven_score(value: int) -> int | None:
    """The exact score of a heuristic-search value that is a proven result, else None."""
    if value >= EXACT:
        return value // EXACT
    if value <= -EXACT:
        return -(-value // EXACT)
    return None


__all__ = ["EXACT", "Engine", "SearchAborted", "exact_score", "plies_to_end", "proven_score"]
