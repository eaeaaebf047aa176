"""α-β, fail-hard: the value never leaves the window; Russell and Norvig's helpers max_value and min_value."""


def alphabeta_hard(node, depth, alpha, beta):
    if node.is_max():
        return max_value(node, depth, alpha, beta)
    return min_value(node, depth, alpha, beta)


def max_value(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    for child in node.children():
        value = min_value(child, depth - 1, alpha, beta)
        if value >= beta:
            return beta
        alpha = max(alpha, value)
    return alpha


def min_value(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    for child in node.children():
        value = max_value(child, depth - 1, alpha, beta)
        if value <= alpha:
            return alpha
        beta = min(beta, value)
    return beta
