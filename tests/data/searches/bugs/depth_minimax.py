"""Planted bug: depth not decreased."""


def minimax(node, depth):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        return max(minimax(child, depth) for child in node.children())
    return min(minimax(child, depth) for child in node.children())
