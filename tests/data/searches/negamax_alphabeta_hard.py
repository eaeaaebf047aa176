"""α-β in negamax form, fail-hard; the leaves of depth 1 evaluated in the loop, not by a call."""


def negamax_alphabeta_hard(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    for child in node.children():
        if depth == 1 or child.is_terminal():
            value = -child.evaluate()
        else:
            value = -negamax_alphabeta_hard(child, depth - 1, -beta, -alpha)
        if value >= beta:
            return beta
        alpha = max(alpha, value)
    return alpha
