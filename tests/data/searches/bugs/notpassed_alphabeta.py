"""Planted bug: α and β not passed down (each child searched with the full window)."""

import math


def alphabeta(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        value = -math.inf
        for child in node.children():
            value = max(value, alphabeta(child, depth - 1, -math.inf, math.inf))
            if value >= beta:
                break
            alpha = max(alpha, value)
        return value
    value = math.inf
    for child in node.children():
        value = min(value, alphabeta(child, depth - 1, -math.inf, math.inf))
        if value <= alpha:
            break
        beta = min(beta, value)
    return value
