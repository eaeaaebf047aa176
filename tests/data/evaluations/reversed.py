"""The textbook's e(P) with its sign reversed, the mistake the lab guide warns of: lines open for Min minus
lines open for Max (graded in tests/test_grading.py)."""


def e(board):
    open_for_max = sum(1 for line in board.lines() if board.min not in line)
    open_for_min = sum(1 for line in board.lines() if board.max not in line)
    return open_for_min - open_for_max
