"""Minimax as the textbooks write it, against inarow's node interface."""

import math


def minimax(node, depth):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        value = -math.inf
        for child in node.children():
            value = max(value, minimax(child, depth - 1))
        return value
    value = math.inf
    for child in node.children():
        value = min(value, minimax(child, depth - 1))
    return value
