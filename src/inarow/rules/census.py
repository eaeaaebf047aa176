"""Strong solutions of small boards: every reachable position with its exact value, and the counts of
positions and games a user can check against the published ones (``inarow solve``).

The table is built by one depth-first walk of the game graph with memoisation: each reachable position is
visited once, its exact score (the scale of :mod:`inarow.engines.exact.reference`) and the number of games
(move sequences to the end) that start from it are computed from its children's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property

from inarow.base.errors import InvalidGameError
from inarow.base.i18n import N_
from inarow.rules.game import Game, Position
from inarow.rules.symmetry import symmetries

MAX_TABLE_CELLS = 12
"""The largest board (in cells) whose whole table is built: 3×4 has about 10^5 positions, 4×4 about 10^7."""

Progress = Callable[[int, int], None]
"""Called with (done, total) as the walk finishes each of the first two moves' subtrees."""


@dataclass(frozen=True, kw_only=True)
class Census:
    """The whole table of a game and its counts. Scores are from the standpoint of the side to move."""

    game: Game
    table: dict[int, tuple[int, int, int, int, int]] = field(repr=False)
    """Positions not over, keyed ``cur << shift | opp``: (score, games, wins of the side to move, wins of
    the other side, draws), counting games from the position on."""
    terminal: dict[int, bool] = field(repr=False)
    """Positions where the game is over, keyed likewise: True when won, False when the board is full."""
    games: int
    x_wins: int
    o_wins: int
    draws: int
    symmetric_positions: int | None = None
    """Positions up to rotation and reflection (None when not counted)."""
    symmetric_games: int | None = None
    """Games up to symmetry: at each move, moves that are symmetric in the current position count once."""

    @property
    def positions(self) -> int:
        """Reachable positions, the empty board included."""
        return len(self.table) + len(self.terminal)

    @property
    def value(self) -> int:
        """The exact score of the empty board for the side that moves first."""
        return self.table[0][0]

    @cached_property
    def scores(self) -> dict[tuple[int, int], int]:
        """Every reachable position ``(x, o)`` with its exact score for the side to move (0 once over)."""
        shift = self.game.columns * self.game.height
        low = (1 << shift) - 1
        scores = {}
        for key, record in self.table.items():
            scores[_xo(self.game, key >> shift, key & low)] = record[0]
        for key in self.terminal:
            scores[_xo(self.game, key >> shift, key & low)] = 0
        return scores

    @cached_property
    def positions_by_value(self) -> dict[str, int]:
        """Positions by their result under perfect play: ``x``, ``o`` or ``draw`` (terminal ones included)."""
        shift = self.game.columns * self.game.height
        first, second = self.game.first, self.game.second
        counts = {"x": 0, "o": 0, "draw": 0}
        for key, record in self.table.items():
            first_moves = (key >> shift).bit_count() == (key & ((1 << shift) - 1)).bit_count()
            counts["draw" if record[0] == 0 else first if (record[0] > 0) == first_moves else second] += 1
        for key, won in self.terminal.items():
            first_moves = (key >> shift).bit_count() == (key & ((1 << shift) - 1)).bit_count()
            counts[(second if first_moves else first) if won else "draw"] += 1
        return counts


def _in_order(cur: int, opp: int) -> tuple[int, int]:
    """The bitboards of a position seen from the side to move, as (the first mover's, the second's)."""
    return (cur, opp) if cur.bit_count() == opp.bit_count() else (opp, cur)


def _xo(game: Game, cur: int, opp: int) -> tuple[int, int]:
    """The bitboards ``(x, o)`` of a position seen from the side to move."""
    first, second = _in_order(cur, opp)
    return (first, second) if game.first == "x" else (second, first)


def census(game: Game, *, symmetry: bool = True, progress: Progress | None = None) -> Census:
    """Build the whole table of ``game`` (at most :data:`MAX_TABLE_CELLS` cells).

    With ``symmetry`` it also counts positions and games up to the board's symmetries. Raises
    :class:`InvalidGameError` for a board too big to tabulate.
    """
    if game.cells > MAX_TABLE_CELLS:
        raise InvalidGameError(
            N_(
                "game {name!r} has {cells} cells: whole tables are built for boards of at most "
                "{limit} cells (the value of the empty board is still given by 'inarow "
                "analyze')"
            ),
            name=game.name,
            cells=game.cells,
            limit=MAX_TABLE_CELLS,
        )
    shift = game.columns * game.height
    cells, board, bottom, gravity = game.cells, game.board_mask, game.bottom_mask, game.gravity
    through = game.lines_through
    # key -> (score, games, wins of the side to move, wins of the other side, draws)
    table: dict[int, tuple[int, int, int, int, int]] = {}
    terminal: dict[int, bool] = {}  # key -> won (else a full board)

    def moves(filled: int) -> list[int]:
        free = (filled + bottom) & board if gravity else board & ~filled
        return [b for b in range(free.bit_length()) if free >> b & 1]

    def visit(cur: int, opp: int, ply: int) -> tuple[int, int, int, int, int]:
        best, games, mine, theirs, draws = -cells, 0, 0, 0, 0
        win_score = (cells + 1 - ply) // 2
        free = (cur | opp) + bottom & board if gravity else board & ~(cur | opp)
        while free:
            move = free & -free
            free ^= move
            child = cur | move
            for line in through[move.bit_length() - 1]:
                if child & line == line:
                    terminal[opp << shift | child] = True
                    if win_score > best:
                        best = win_score
                    games += 1
                    mine += 1
                    break
            else:
                if ply + 1 == cells:
                    terminal[opp << shift | child] = False
                    if best < 0:
                        best = 0
                    games += 1
                    draws += 1
                else:
                    record = table.get(opp << shift | child)
                    if record is None:
                        record = visit(opp, child, ply + 1)
                    score, g, their_wins, my_wins, d = record
                    if -score > best:
                        best = -score
                    games += g
                    mine += my_wins
                    theirs += their_wins
                    draws += d
        found = table[cur << shift | opp] = (best, games, mine, theirs, draws)
        return found

    first = moves(0)
    total = sum(len(moves(1 << b)) for b in first)
    done = 0
    for bit in first:
        for reply in moves(1 << bit):
            if cells > 2 and (1 << bit) << shift | 1 << reply not in table:
                visit(1 << bit, 1 << reply, 2)
            done += 1
            if progress is not None:
                progress(done, total)
    root = visit(0, 0, 0)
    result = Census(
        game=game,
        table=table,
        terminal=terminal,
        games=root[1],
        x_wins=root[2] if game.first == "x" else root[3],
        o_wins=root[3] if game.first == "x" else root[2],
        draws=root[4],
    )
    if symmetry:
        positions, games = _count_symmetric(result, moves)
        result = replace(result, symmetric_positions=positions, symmetric_games=games)
    return result


def _count_symmetric(result: Census, moves: Callable[[int], list[int]]) -> tuple[int, int]:
    """The counts up to symmetry: (positions, games).

    Each reachable position's class is named once, orbit by orbit (the images of a reachable position
    are reachable): 765 orbits of 8 images on 3×3 rather than the least image of each of 5,478 positions.
    """
    game = result.game
    group = symmetries(game)
    shift = game.columns * game.height
    class_of: dict[tuple[int, int], int] = {}
    for x, o in result.scores:
        position = (x, o) if game.first == "x" else (o, x)  # (the first mover's stones, the second's)
        if position not in class_of:
            images = group.images(*position)
            key = min(a << shift | b for a, b in images)
            for image in images:
                class_of[image] = key
    positions = len(set(class_of.values()))
    memo: dict[int, int] = {}
    terminal = {_in_order(key >> shift, key & ((1 << shift) - 1)) for key in result.terminal}

    def games(first: int, second: int) -> int:
        key = class_of[first, second]
        if key in memo:
            return memo[key]
        if (first, second) in terminal:
            memo[key] = 1
            return 1
        first_moves = first.bit_count() == second.bit_count()
        children: dict[int, tuple[int, int]] = {}
        for bit in moves(first | second):
            child = (first | 1 << bit, second) if first_moves else (first, second | 1 << bit)
            children.setdefault(class_of[child], child)
        memo[key] = total = sum(games(*child) for child in children.values())
        return total

    return positions, games(0, 0)


def reachable(game: Game) -> set[Position]:
    """Every position reachable from the empty board of ``game`` by legal play, finished ones included,
    each once (the positions :attr:`Census.positions` counts), by a walk of the game graph: for boards
    small enough to list (3×3 has 5,478)."""
    seen = {Position.start(game)}
    frontier = list(seen)
    while frontier:
        position = frontier.pop()
        for _, child in position.children():
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen
