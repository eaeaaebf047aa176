"""What the exact and the depth-limited searches share: a game's geometry on raw bitboards, the budget
they count positions in, the table key (shared by symmetric positions) and the order moves are tried in.

``cur`` is always the side to move's bitboard and ``opp`` its opponent's (see
:meth:`inarow.rules.game.Position.sides`); the layout is that of :mod:`inarow.rules.game`.
"""

from __future__ import annotations

from inarow.engines.limits import Budget
from inarow.rules.game import Game
from inarow.rules.symmetry import symmetries

CHECK_EVERY = 1023
"""Nodes between looks at the clock (a mask: one look every 1,024 nodes)."""

SYMMETRY_MAX_CELLS = 64
"""Boards up to this size key their table by the canonical image of the position."""


class BitboardSearch:
    """A search of one game on raw bitboards, counting the positions it explores in ``budget``."""

    def __init__(self, game: Game, budget: Budget | None = None) -> None:
        self.game = game
        self.budget = budget if budget is not None else Budget()
        self.cells = game.cells
        self.board = game.board_mask
        self.bottom = game.bottom_mask
        self.gravity = game.gravity
        self.order = game.cell_order
        self.shift = game.columns * game.height
        use_symmetry = game.cells <= SYMMETRY_MAX_CELLS and (not game.gravity or game.columns > 1)
        self.symmetry = symmetries(game) if use_symmetry else None

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

    def tick(self) -> None:
        """Count one explored position; raise :class:`SearchAborted` once the budget is spent."""
        budget = self.budget
        budget.nodes += 1
        if budget.nodes & CHECK_EVERY == 0 or budget.max_nodes is not None:
            budget.check()

    def ordered(self, cur: int, filled: int, moves: int) -> list[int]:
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
