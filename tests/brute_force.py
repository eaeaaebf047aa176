"""An oracle written apart from the engine: plain boards of characters, every line listed by hand,
full minimax with no pruning and no bit tricks. Slow and obviously right, for small boards only.

A board is a tuple of rows, bottom row first, each a string of 'x', 'o', '.'.
"""

from __future__ import annotations

from functools import cache

Board = tuple[str, ...]


def empty(columns: int, rows: int) -> Board:
    return tuple("." * columns for _ in range(rows))


def lines(columns: int, rows: int, k: int) -> list[list[tuple[int, int]]]:
    """Every run of k cells as (column, row) pairs."""
    found = []
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + dc * i, r + dr * i) for i in range(k)]
                if all(0 <= cc < columns and 0 <= rr < rows for cc, rr in cells):
                    found.append(cells)
    return found


def winner(board: Board, k: int) -> str | None:
    rows, columns = len(board), len(board[0])
    for line in lines(columns, rows, k):
        stones = {board[r][c] for c, r in line}
        if len(stones) == 1 and "." not in stones:
            return stones.pop()
    return None


def to_move(board: Board) -> str:
    xs = sum(row.count("x") for row in board)
    os = sum(row.count("o") for row in board)
    return "x" if xs == os else "o"


def moves(board: Board, k: int, gravity: bool) -> list[tuple[int, int]]:
    """Legal cells as (column, row); in gravity games the lowest empty cell of each column."""
    rows, columns = len(board), len(board[0])
    if winner(board, k) is not None:
        return []
    found = []
    for c in range(columns):
        for r in range(rows):
            if board[r][c] == ".":
                found.append((c, r))
                if gravity:
                    break
    return found


def play(board: Board, cell: tuple[int, int], side: str) -> Board:
    c, r = cell
    row = board[r]
    return (*board[:r], row[:c] + side + row[c + 1 :], *board[r + 1 :])


def cell_name(cell: tuple[int, int], gravity: bool) -> str:
    c, r = cell
    return str(c + 1) if gravity else "abcdefghijklmnopqrs"[c] + str(r + 1)


@cache
def score(board: Board, k: int, gravity: bool) -> int:
    """The exact score for the side to move (the position must not be over)."""
    return max(move_scores(board, k, gravity).values())


def move_scores(board: Board, k: int, gravity: bool) -> dict[str, int]:
    """Each legal move's exact score for the side that plays it: a win by playing the stone when n
    stones are on a board of C cells scores (C + 1 - n) // 2."""
    cells = len(board) * len(board[0])
    n = sum(row.count("x") + row.count("o") for row in board)
    side = to_move(board)
    result = {}
    for cell in moves(board, k, gravity):
        child = play(board, cell, side)
        if winner(child, k) == side:
            value = (cells + 1 - n) // 2
        elif n + 1 == cells:
            value = 0
        else:
            value = -score(child, k, gravity)
        result[cell_name(cell, gravity)] = value
    return result


def reachable(columns: int, rows: int, k: int, gravity: bool) -> set[Board]:
    """Every position reachable in play from the empty board, the empty board included."""
    seen = {empty(columns, rows)}
    frontier = [empty(columns, rows)]
    while frontier:
        board = frontier.pop()
        side = to_move(board)
        for cell in moves(board, k, gravity):
            child = play(board, cell, side)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen


def diagram(board: Board) -> str:
    """The engine's diagram notation: rows from the top, separated by '/'."""
    return "/".join(reversed(board))
