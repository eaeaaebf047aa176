"""Negamax: every value from the side to move."""

import math


def negamax(node, depth):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    value = -math.inf
    for child in node.children():
        value = max(value, -negamax(child, depth - 1))
    return value
