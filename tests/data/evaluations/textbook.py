"""The textbook's e(P): lines still open for Max minus lines still open for Min (graded in tests/test_grading.py)."""


def e(board):
    open_for_max = sum(1 for line in board.lines() if board.min not in line)
    open_for_min = sum(1 for line in board.lines() if board.max not in line)
    return open_for_max - open_for_min
