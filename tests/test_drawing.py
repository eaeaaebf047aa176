"""The drawings of a search tree agree with the search: DOT, SVG and text in search order, cut-offs named
α or β, pruned leaves named by value, e(P)'s breakdown on the leaves, and no English in Chinese."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree

import pytest
from typer.testing import CliRunner

from inarow import parse_position
from inarow.cli import app
from inarow.engines.textbook import search
from inarow.teaching.abstract import parse_leaves
from inarow.teaching.drawing import to_dot, to_text

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"
RUSSELL_NORVIG = "[[3,12,8],[2,4,6],[14,5,2]]"


def edges_from(dot: str, node: str) -> list[str]:
    return re.findall(rf"^\s*{node} -> (\w+) ", dot, re.MULTILINE)


def test_the_dot_of_russell_and_norvig_draws_b1_left_of_the_pruned_b2_and_b3() -> None:
    dot = to_dot(search(parse_leaves(RUSSELL_NORVIG), "alphabeta"))
    assert "ordering=out;" in dot
    assert edges_from(dot, "n5") == ["n6", "p5_7", "p5_8"]


@pytest.mark.parametrize("algorithm", ["alphabeta", "alphabeta-soft", "negamax-alphabeta"])
def test_every_dot_node_lists_its_searched_children_before_what_it_pruned(algorithm: str) -> None:
    result = search(parse_position("x../.o./..."), algorithm, 3)
    assert result.tree is not None
    dot = to_dot(result)
    for node in result.tree.nodes:
        expected = [f"n{child}" for child in node.children] + [f"p{node.id}_{bit}" for bit in node.pruned]
        assert edges_from(dot, f"n{node.id}") == expected


def test_text_svg_and_dot_name_the_cut_off_alpha_or_beta() -> None:
    """Min nodes cut off by α, Max and negamax nodes by β. The default α-β is the textbooks' (Russell and
    Norvig, Figure 5.5): fail-soft, so b is drawn ≤ 2 (a bound: b1 = 2 ≤ α = 3 cut b2 and b3 off) and c,
    whose three leaves were all evaluated, is exactly 2 with no cut-off; fail-hard (one option away)
    clamps both to α = +3."""
    result = search(parse_leaves(RUSSELL_NORVIG), "alphabeta")
    text, dot = to_text(result), to_dot(result)
    assert "b  Min  α=+3 β=+∞  ≤ +2  best b1  ✂ α cut-off: α=+3 ≥ β=+2" in text
    assert "└─ c  Min  α=+3 β=+∞  = +2  best c3\n" in text
    assert result.tree is not None and sum(node.cutoff for node in result.tree.nodes) == 1
    hard = to_text(search(parse_leaves(RUSSELL_NORVIG), "alphabeta-hard"))
    assert (
        "b  Min  α=+3 β=+∞  = +3  best b1  (fail-hard: its best child gave +2)  ✂ α cut-off: α=+3 ≥ β=+2"
        in hard
    )
    assert "c  Min  α=+3 β=+∞  = +3  best c3  (fail-hard: its best child gave +2)" in hard
    assert "✂ α cut-off" in dot and "β cut-off" not in dot.split("\n", 1)[1].split("\n", 1)[1]
    negamax = to_text(search(parse_leaves(RUSSELL_NORVIG), "negamax-alphabeta"))
    assert "✂ β cut-off" in negamax and "✂ α cut-off" not in negamax


def test_the_pruned_line_lists_the_leaves_never_evaluated_in_search_order() -> None:
    """[[3,[12,1]],[2,[4,6]],[14,5,2]]: at b, b1 = 2 ≤ α = 3 prunes b2's two leaves 4 and 6."""
    text = to_text(search(parse_leaves("[[3,[12,1]],[2,[4,6]],[14,5,2]]"), "alphabeta"))
    assert text.splitlines()[-1] == "pruned: the leaves 1 4 6 (a2.2 b2.1 b2.2), never evaluated"


def test_the_svg_is_ready_for_a_slide() -> None:
    result = runner.invoke(app, ["tree", "--leaves", RUSSELL_NORVIG, "--format", "svg"])
    root = ElementTree.fromstring(result.stdout)
    texts = {t.get("class"): t.text for t in root.findall(f"{SVG}text")}
    assert texts["title"] == "alphabeta on the tree [[3,12,8],[2,4,6],[14,5,2]]"
    assert texts["legend"] is not None and "β cut-off at a Max node" in texts["legend"]
    pruned = [g for g in root.findall(f"{SVG}g") if g.get("class") == "pruned"]
    shown = [[t.text for t in g.findall(f"{SVG}text")] for g in pruned]
    assert [texts[:2] for texts in shown] == [["b2", "4"], ["b3", "6"]]
    assert shown[0][2:] == ["✂ α cut-off", "α=+3 ≥ β=+2"]
    windows = [
        t.text for g in root.findall(f"{SVG}g") for t in g.findall(f"{SVG}text") if t.get("class") == "window"
    ]
    assert "α = -∞" in windows and "β = +∞" in windows


def test_every_leaf_at_the_horizon_shows_how_e_p_was_found() -> None:
    """x . .
    . o .      x plays a1: open for x, 1 empty line, 2 with one x, 1 with two (column a): 4;
    x . .      open for o, 1 empty line and 2 with one o: 3. e(P) = 4 − 3 = +1
    """
    text = runner.invoke(app, ["tree", "x../.o./...", "--depth", "1", "--algo", "minimax"]).output
    assert "├─ a1  Min  e=+1 (x: 1×1 + 2×1 + 1×1 = 4; o: 1×1 + 2×1 = 3)" in text
    svg = ElementTree.fromstring(
        runner.invoke(app, ["tree", "x../.o./...", "--depth", "1", "--format", "svg"]).stdout
    )
    breakdowns = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "breakdown"]
    assert breakdowns[:2] == ["x: 1×1+2×1+1×1=4", "o: 1×1+2×1=3"]


@pytest.mark.parametrize("output_format", ["text", "dot", "svg"])
def test_chinese_drawings_use_the_course_terms_and_leave_no_english(output_format: str) -> None:
    result = runner.invoke(
        app, ["--lang", "zh", "tree", "--leaves", RUSSELL_NORVIG, "--format", output_format]
    )
    drawn = result.stdout
    if output_format == "svg":
        drawn = " ".join(ElementTree.fromstring(drawn).itertext())
    for english in ("pruned", "nodes", "cut-off", "evaluation", "backed-up", "root", "Max node", "Min node"):
        assert english not in drawn, english
    for term in ("极大节点", "极小节点", "α 剪枝", "倒推值", "估价函数"):
        assert term in drawn, term


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            ["--eval", "weighted"],
            "error: --eval does not apply to an abstract tree: its leaves carry their values",
        ),
        (["--eval", "open-lines"], "error: --eval does not apply to an abstract tree"),
        (["--order", "rows"], "error: --order rows does not apply to an abstract tree"),
        (["--quiescence"], "error: --quiescence does not apply to an abstract tree"),
    ],
)
def test_options_that_mean_nothing_on_an_abstract_tree_are_refused_with_the_reason(
    option: list[str], message: str
) -> None:
    result = runner.invoke(app, ["tree", "--leaves", RUSSELL_NORVIG, *option])
    assert result.exit_code == 2
    assert result.stderr.startswith(message)


def test_ordering_on_an_abstract_tree_tries_children_best_first_by_their_minimax_value() -> None:
    """[[3,12,8],[2,4,6],[14,5,2]] best-first: a (3) first at the root, then b and c each cut off at once
    by their smallest child, b1 (2) and c3 (2); minimax's order would let c search all three."""
    result = runner.invoke(app, ["tree", "--leaves", RUSSELL_NORVIG, "--ordering", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["value"], data["move"]) == (3, "a")
    paths = [" ".join(node["path"]) for node in data["nodes"]]
    assert paths == ["", "a", "a a1", "a a3", "a a2", "b", "b b1", "c", "c c3"]
    assert data["nodes_visited"] == 9


def test_deepen_on_an_abstract_tree_gives_a_row_per_depth() -> None:
    result = runner.invoke(app, ["tree", "--leaves", RUSSELL_NORVIG, "--deepen"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[:5] for line in lines[2:4]] == [
        ["1", "-", "a", "+3", "4"],
        ["2", "a", "a", "+3", "11"],
    ]


def test_with_move_ordering_the_pruned_line_follows_the_search_not_the_lists() -> None:
    """Best-first, c searches c3 (2) first and prunes c2 (5) then c1 (14)."""
    result = runner.invoke(app, ["tree", "--leaves", RUSSELL_NORVIG, "--ordering"])
    assert result.output.splitlines()[-1] == "pruned: the leaves 4 6 5 14 (b2 b3 c2 c1), never evaluated"
