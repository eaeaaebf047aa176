"""Planted bug: the same player twice (max_value calls max_value)."""


def minimax(node, depth):
    if node.is_max():
        return max_value(node, depth)
    return min_value(node, depth)


def max_value(node, depth):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    return max(max_value(child, depth - 1) for child in node.children())


def min_value(node, depth):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    return min(min_value(child, depth - 1) for child in node.children())
