"""Planted bug: a maximizing flag never flipped, so every node plays the root's part."""

import math


def alphabeta(node, depth, alpha, beta):
    return search(node, depth, alpha, beta, node.is_max())


def search(node, depth, alpha, beta, maximizing):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if maximizing:
        value = -math.inf
        for child in node.children():
            value = max(value, search(child, depth - 1, alpha, beta, maximizing))
            if value >= beta:
                break
            alpha = max(alpha, value)
        return value
    value = math.inf
    for child in node.children():
        value = min(value, search(child, depth - 1, alpha, beta, maximizing))
        if value <= alpha:
            break
        beta = min(beta, value)
    return value
