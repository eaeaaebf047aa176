"""An e(P) that says nothing: every unfinished position scores 0 (graded in tests/test_grading.py)."""


def e(board):
    return 0
