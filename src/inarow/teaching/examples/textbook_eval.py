"""The textbook e(P) for inarow's --eval: lines still open for Max minus lines still open for Min.

    inarow example textbook-eval > mine.py
    inarow analyze "" --algo minimax --depth 2 --eval mine.py:e

``board.rows`` are the rows from the top ("x.o" ...), ``board.max`` the side whose standpoint e(P)
takes, ``board.min`` the other, ``board.lines()`` every row, column and diagonal of k cells as a string.
"""


def e(board):
    """Open lines for Max minus open lines for Min (a line is open for a side if the other has no stone
    in it)."""
    open_for_max = 0
    open_for_min = 0
    for line in board.lines():
        if board.min not in line:
            open_for_max += 1
        if board.max not in line:
            open_for_min += 1
    return open_for_max - open_for_min
