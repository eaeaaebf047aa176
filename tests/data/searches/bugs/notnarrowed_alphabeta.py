"""Planted bug: the window not narrowed (α never rises, β never falls)."""

import math


def alphabeta(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        value = -math.inf
        for child in node.children():
            value = max(value, alphabeta(child, depth - 1, alpha, beta))
            if value >= beta:
                break
        return value
    value = math.inf
    for child in node.children():
        value = min(value, alphabeta(child, depth - 1, alpha, beta))
        if value <= alpha:
            break
    return value
