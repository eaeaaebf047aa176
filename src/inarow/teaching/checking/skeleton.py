"""The starting file of a student's own α-β, in each language: ``inarow example alphabeta-skeleton`` prints
it, the page's search box starts from it. It runs and is checked as it is: with its two cut-offs left to
write it is minimax, so the check shows the leaves α-β would prune."""

from __future__ import annotations

SKELETON_EN = '''"""My own α-β, checked node by node by inarow.

    inarow example alphabeta-skeleton > mine.py
    inarow check --search mine.py:alphabeta

inarow calls alphabeta(root, depth, -inf, +inf) on textbook trees, seeded random trees and 一字棋
(tic-tac-toe) positions, and compares what it does with its own α-β (fail-soft; --algo alphabeta-hard for
the fail-hard form): the value, the move, the leaves evaluated in order and the nodes searched.

The search sees the game only through the node it is given:

    node.children()     the children, in the order to search them (a list of nodes)
    node.is_terminal()  whether the game is over here (in a tree of leaf values: a leaf)
    node.evaluate()     e(P) here, from MAX's standpoint (+inf won, -inf lost)
    node.is_max()       whether MAX is to move here (a Max node)
    node.turn           the side to move here, "x" or "o"
    node.move           the move that led here ("b2"; a tree's label "a1"), None at the root
"""

import math


def alphabeta(node, depth, alpha, beta):
    """The value of node searched depth plies deep with the window (alpha, beta), from MAX's standpoint.

    Fail-soft: return the best value seen, which after a cut-off may lie outside the window (or a pair:
    the value and the best child).
    """
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        value = -math.inf
        for child in node.children():
            value = max(value, alphabeta(child, depth - 1, alpha, beta))
            # TODO: cut off (break) when value >= beta; else raise alpha to value
        return value
    value = math.inf
    for child in node.children():
        value = min(value, alphabeta(child, depth - 1, alpha, beta))
        # TODO: cut off (break) when value <= alpha; else lower beta to value
    return value
'''

SKELETON_ZH = '''"""我自己的 α-β 剪枝搜索，由 inarow 逐个节点检查。

    inarow example alphabeta-skeleton > mine.py
    inarow check --search mine.py:alphabeta

inarow 在教材中的博弈树、按种子生成的随机博弈树和一字棋局面上调用 alphabeta(root, depth, -inf, +inf)，
把它的每一步与 inarow 自己的 α-β（软失败；用 --algo alphabeta-hard 检查硬失败形式）比较：
倒推值、走步、依次估值的叶节点、搜索过的节点。

搜索只通过传给它的节点了解棋局：

    node.children()     子节点，按搜索顺序排列（节点列表）
    node.is_terminal()  棋局在这里是否已经结束（在叶节点值给出的博弈树中：是否为叶节点）
    node.evaluate()     这里的估价函数 e(P)，站在 MAX 的立场（赢为 +inf，输为 -inf）
    node.is_max()       这里是否轮到 MAX 走棋（极大节点）
    node.turn           这里轮到哪一方走棋，"x" 或 "o"
    node.move           走到这里的那一步（"b2"；博弈树中为标号 "a1"），根节点为 None
"""

import math


def alphabeta(node, depth, alpha, beta):
    """以窗口 (alpha, beta) 向下搜索 depth 层，返回 node 的值（站在 MAX 的立场）。

    软失败：返回见到的最佳值，剪枝之后它可以在窗口之外（也可以返回二元组：值和最佳子节点）。
    """
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    if node.is_max():
        value = -math.inf
        for child in node.children():
            value = max(value, alphabeta(child, depth - 1, alpha, beta))
            # TODO：value >= beta 时剪枝（break）；否则把 alpha 提高到 value
        return value
    value = math.inf
    for child in node.children():
        value = min(value, alphabeta(child, depth - 1, alpha, beta))
        # TODO：value <= alpha 时剪枝（break）；否则把 beta 降低到 value
    return value
'''

SKELETONS = {"en": SKELETON_EN, "zh": SKELETON_ZH}
"""The starting file by language (``en``, ``zh``)."""


def skeleton(language: str) -> str:
    """The starting file in ``language`` (a language code: ``zh``, ``zh_CN``, ``zh-CN``…; English else)."""
    return SKELETONS["zh" if language.lower().startswith("zh") else "en"]
