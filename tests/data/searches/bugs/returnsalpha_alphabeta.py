"""Planted bug: fail-soft α-β that returns α (β at a Min node) at the end."""

import math


def alphabeta(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        value = -math.inf
        for child in node.children():
            value = max(value, alphabeta(child, depth - 1, alpha, beta))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return alpha
    value = math.inf
    for child in node.children():
        value = min(value, alphabeta(child, depth - 1, alpha, beta))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return beta
