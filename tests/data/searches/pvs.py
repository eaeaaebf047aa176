"""Principal variation search (NegaScout), in negamax form."""

import math


def pvs(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    best = -math.inf
    for index, child in enumerate(node.children()):
        if index == 0:
            score = -pvs(child, depth - 1, -beta, -alpha)
        else:
            score = -pvs(child, depth - 1, -math.nextafter(alpha, math.inf), -alpha)
            if alpha < score < beta:
                score = -pvs(child, depth - 1, -beta, -score)
        best = max(best, score)
        if best >= beta:
            break
        alpha = max(alpha, best)
    return best
