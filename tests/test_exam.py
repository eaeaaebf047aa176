"""``inarow exam``: random trees and their answer keys, checked against an α-β written here from the
textbook, apart from the engine's, on hundreds of seeds."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ElementTree
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from inarow.base.errors import InarowError
from inarow.cli import app
from inarow.teaching.exam import make_exam, random_leaves

runner = CliRunner()


def label(parent: str, depth: int, index: int) -> str:
    if depth == 0:
        return "abcdefghijklmnopqrstuvwxyz"[index]
    return f"{parent}{index + 1}" if depth == 1 else f"{parent}.{index + 1}"


class Oracle:
    """α-β on nested lists, Max at the root, as the textbooks write it: fail-soft (a node returns the
    best value it saw), or fail-hard with ``hard`` (a value clamped to the window)."""

    def __init__(self, hard: bool = False) -> None:
        self.hard = hard
        self.windows: list[tuple[str, float, float, float]] = []
        self.evaluated: set[str] = set()

    def search(self, node: Any, name: str, depth: int, alpha: float, beta: float, maximizing: bool) -> float:
        entry = len(self.windows)
        self.windows.append((name, alpha, beta, math.nan))
        if not isinstance(node, list):
            self.evaluated.add(name)
            value = float(node)
        else:
            value = math.nan
            best = -math.inf if maximizing else math.inf
            for index, child in enumerate(node):
                found = self.search(child, label(name, depth, index), depth + 1, alpha, beta, not maximizing)
                best = max(best, found) if maximizing else min(best, found)
                if maximizing:
                    if found >= beta:
                        value = beta if self.hard else best
                        break
                    alpha = max(alpha, found)
                else:
                    if found <= alpha:
                        value = alpha if self.hard else best
                        break
                    beta = min(beta, found)
            else:
                value = best if not self.hard else alpha if maximizing else beta
        self.windows[entry] = (name, self.windows[entry][1], self.windows[entry][2], value)
        return value


def leaves_in_order(node: Any, name: str = "", depth: int = 0) -> list[tuple[str, float]]:
    if not isinstance(node, list):
        return [(name, float(node))]
    found = []
    for index, child in enumerate(node):
        found += leaves_in_order(child, label(name, depth, index), depth + 1)
    return found


def number(value: object) -> float:
    return {"inf": math.inf, "-inf": -math.inf}.get(value, value)  # type: ignore[call-overload, no-any-return]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    depth=st.integers(min_value=1, max_value=4),
    branching=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_the_answer_key_is_what_an_independent_alpha_beta_finds(
    depth: int, branching: int, seed: int
) -> None:
    """The key in the textbooks' form (fail-soft, the default) and in the fail-hard form, each against an
    α-β of that form written above."""
    for algorithm, hard in (("alphabeta", False), ("alphabeta-hard", True)):
        exam = make_exam(depth, branching, seed, algorithm).to_json()
        oracle = Oracle(hard=hard)
        value = oracle.search(exam["leaves"], "", 0, -math.inf, math.inf, True)
        assert number(exam["value"]) == value
        assert exam["nodes"] == len(oracle.windows)
        key = [(n["label"], number(n["alpha"]), number(n["beta"]), number(n["value"])) for n in exam["key"]]
        assert key == oracle.windows
        never = [
            (name, leaf) for name, leaf in leaves_in_order(exam["leaves"]) if name not in oracle.evaluated
        ]
        assert exam["unevaluated_labels"] == [name for name, _ in never]
        assert [number(v) for v in exam["unevaluated"]] == [leaf for _, leaf in never]


@settings(max_examples=100, deadline=None)
@given(depth=st.integers(min_value=1, max_value=4), seed=st.integers(min_value=0, max_value=10**6))
def test_minimax_keys_evaluate_every_leaf_and_agree_with_alpha_beta_on_the_value(
    depth: int, seed: int
) -> None:
    minimax = make_exam(depth, 3, seed, "minimax").to_json()
    alphabeta = make_exam(depth, 3, seed, "alphabeta").to_json()
    assert minimax["leaves"] == alphabeta["leaves"]
    assert minimax["unevaluated"] == [] and minimax["value"] == alphabeta["value"]
    assert minimax["nodes"] == sum(3**level for level in range(depth + 1))


def test_the_same_seed_gives_the_same_tree_and_the_leaves_stay_in_range() -> None:
    assert random_leaves(3, 3, 42) == random_leaves(3, 3, 42) != random_leaves(3, 3, 43)
    assert all(0 <= leaf <= 20 for _, leaf in leaves_in_order(random_leaves(4, 4, 1)))


def test_exam_json_has_the_named_fields() -> None:
    result = runner.invoke(
        app, ["exam", "--depth", "2", "--branching", "3", "--seed", "4", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"leaves", "algo", "value", "nodes", "unevaluated"} <= set(data)
    assert data["leaves"] == random_leaves(2, 3, 4) and data["algo"] == "alphabeta"


def test_exam_text_has_a_blank_question_then_the_key() -> None:
    result = runner.invoke(app, ["exam", "--depth", "2", "--branching", "3", "--seed", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    leaves = json.dumps(random_leaves(2, 3, 4), separators=(",", ":"))
    assert lines[1] == f"Question: {leaves}"
    assert lines[3] == "root  Max  ____"
    assert lines[4] == "├─ a  Min  ____"
    key = lines.index("Answer key")
    assert "____" not in "\n".join(lines[key:])
    assert lines[-1].startswith("pruned: the leaves ")


def test_exam_in_chinese_uses_the_course_terms() -> None:
    result = runner.invoke(app, ["--lang", "zh", "exam", "--depth", "2", "--branching", "3", "--seed", "4"])
    assert result.exit_code == 0, result.output
    for term in ("极大节点", "极小节点", "估价函数", "倒推值", "α 剪枝"):
        assert term in result.output, term
    same = runner.invoke(app, ["exam", "--depth", "2", "--branching", "3", "--seed", "4", "--lang", "zh"])
    assert same.output == result.output


def test_exam_svg_holds_the_blank_question_above_the_key() -> None:
    result = runner.invoke(
        app, ["exam", "--depth", "2", "--branching", "3", "--seed", "4", "--format", "svg"]
    )
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(result.output)
    question, key = root.findall("{http://www.w3.org/2000/svg}svg")
    assert float(key.get("y") or 0) == float(question.get("height") or -1)
    blank_nodes = [g for g in question.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    assert len(blank_nodes) == 13
    inner_values = [g.findall("{http://www.w3.org/2000/svg}text")[0].text for g in blank_nodes[:2]]
    assert inner_values == [None, None]
    assert not [g for g in question.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "pruned"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--depth", "9"], "invalid depth 9: an exam tree has 1 to 6 levels"),
        (["--branching", "1"], "invalid branching 1: an exam tree has 2 to 6 children a node"),
        (["--depth", "6", "--branching", "6"], "invalid branching 6"),
        (["--algo", "mtdf"], "unknown algorithm 'mtdf'"),
        (["--format", "png"], "unknown format 'png': expected one of text, svg, json"),
    ],
)
def test_a_bad_exam_request_says_what_is_wrong(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["exam", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {message}")
    with pytest.raises(InarowError):
        make_exam(9, 2, 1)


def test_exam_without_the_key_prints_the_question_alone_in_every_format() -> None:
    """The lab guide's exercise prints its question with --no-key: no value, no pruned leaf, no key."""
    from typer.testing import CliRunner

    from inarow.cli import app

    runner = CliRunner()
    question = ["exam", "--depth", "3", "--branching", "2", "--seed", "7", "--no-key"]
    text = runner.invoke(app, question).output
    assert "Question: [[[10,4],[12,20]],[[1,2],[17,3]]]" in text
    assert "Answer key" not in text and "✂" not in text and "=" not in text
    data = json.loads(runner.invoke(app, [*question, "--format", "json"]).output)
    assert data == {
        "leaves": [[[10, 4], [12, 20]], [[1, 2], [17, 3]]],
        "algo": "alphabeta",
        "depth": 3,
        "branching": 2,
        "seed": 7,
    }
    drawing = runner.invoke(app, [*question, "--format", "svg"]).output
    assert drawing.startswith("<svg") and "Fill in every node's backed-up value" in drawing
    assert "α=" not in drawing and "α=" in runner.invoke(app, [*question[:-1], "--format", "svg"]).output
    full = runner.invoke(app, question[:-1]).output
    assert full.startswith(text) and "Answer key" in full
