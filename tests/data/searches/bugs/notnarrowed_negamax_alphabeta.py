"""Planted bug: negamax α-β that never raises α."""

import math


def negamax_alphabeta(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    value = -math.inf
    for child in node.children():
        value = max(value, -negamax_alphabeta(child, depth - 1, -beta, -alpha))
        if value >= beta:
            break
    return value
