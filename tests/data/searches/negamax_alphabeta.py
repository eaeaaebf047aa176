"""α-β in negamax form, fail-soft; returns the value and the move."""

import math


def negamax_alphabeta(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate(), None
    best, move = -math.inf, None
    for child in node.children():
        value = -negamax_alphabeta(child, depth - 1, -beta, -alpha)[0]
        if value > best:
            best, move = value, child.move
        if best >= beta:
            break
        alpha = max(alpha, best)
    return best, move
