"""A good weighted e(P): a line open for a side scores 1 for one of its stones and 3 for two, Max's total
minus Min's (graded in tests/test_grading.py)."""

WEIGHTS = (0, 1, 3)


def e(board):
    score = 0
    for line in board.lines():
        if board.min not in line:
            score += WEIGHTS[min(line.count(board.max), 2)]
        if board.max not in line:
            score -= WEIGHTS[min(line.count(board.min), 2)]
    return score
