"""POST /api/explain/tree: a tree of one's own, typed as nested lists, searched and drawn as a position is."""

from __future__ import annotations

from typing import Any

import pytest

RN = "[[3,12,8],[2,4,6],[14,5,2]]"


def test_russell_and_norvigs_tree_is_searched_to_its_leaves_and_b2_b3_are_pruned_with_their_values(
    client: Any,
) -> None:
    answer = client.post("/api/explain/tree", json={"leaves": RN, "algorithm": "alphabeta"})
    assert answer.status_code == 200
    tree = answer.json()
    assert tree["abstract"] is True
    assert (tree["value"], tree["move"], tree["nodes_visited"]) == (3, "a", 11)
    assert [(spot["move"], spot["value"]) for spot in tree["pruned_spots"]] == [("b2", 4), ("b3", 6)]
    leaves = [node["value"] for node in tree["nodes"] if node["leaf"]]
    assert leaves == [3, 12, 8, 2, 14, 5, 2], "every leaf but the pruned ones, in search order"


@pytest.mark.parametrize(
    "algorithm", ["minimax", "negamax", "alphabeta", "alphabeta-soft", "negamax-alphabeta"]
)
def test_every_textbook_algorithm_gives_the_trees_minimax_value(client: Any, algorithm: str) -> None:
    tree = client.post("/api/explain/tree", json={"leaves": RN, "algorithm": algorithm}).json()
    assert tree["value"] == 3 and tree["move"] == "a"
    full = algorithm in ("minimax", "negamax")
    assert (tree["nodes_visited"] == 13) is full, "minimax and negamax visit every node, α-β fewer"


@pytest.mark.parametrize(
    ("leaves", "said"),
    [
        ("[[3,12,8],[2,4", "invalid tree '[[3,12,8],[2,4': not JSON (Expecting ',' delimiter)"),
        ("3", "invalid tree '3': expected nested lists of leaf values such as [[3,12,8],[2,4,6],[14,5,2]]"),
        ("[" * 17 + "1" + "]" * 17, "invalid tree: its lists nest more than 16 deep"),
        ("[" * 5000 + "]" * 5000, "invalid tree: its lists nest more than 16 deep"),
    ],
)
def test_a_tree_that_cannot_be_read_is_a_400_saying_why(client: Any, leaves: str, said: str) -> None:
    answer = client.post("/api/explain/tree", json={"leaves": leaves})
    assert answer.status_code == 400
    assert answer.json()["detail"] == said


def test_an_unknown_algorithm_is_named(client: Any) -> None:
    answer = client.post("/api/explain/tree", json={"leaves": RN, "algorithm": "alphabetta"})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("unknown algorithm 'alphabetta'")


def test_the_error_is_said_in_chinese_when_asked(client: Any) -> None:
    answer = client.post(
        "/api/explain/tree", json={"leaves": "[" * 20 + "]" * 20}, headers={"Accept-Language": "zh-CN"}
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == "无效的博弈树：列表嵌套超过 16 层"
