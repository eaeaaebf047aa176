"""The textbook algorithms as a registry: each one small pure function that declares its frame and window
rule, recorded from outside; PVS (NegaScout), the algorithm added through the registry alone, checked
against minimax, an independent algorithm, on every reachable 3×3 position and on random exam trees."""

from __future__ import annotations

import json
import math
import random

import pytest
from typer.testing import CliRunner

from inarow import Game, parse_position
from inarow.base.errors import UnknownAlgorithmError
from inarow.cli import app
from inarow.engines.textbook import (
    ALGORITHMS,
    REGISTRY,
    algorithm_named,
    check_algorithm,
    search,
    with_window,
)
from inarow.rules.census import reachable
from inarow.teaching.abstract import parse_leaves
from inarow.teaching.drawing import to_text
from inarow.teaching.exam import random_leaves

runner = CliRunner()
TICTACTOE = Game.parse("tictactoe")


def test_every_registered_algorithm_declares_its_frame_window_and_words() -> None:
    for name, algorithm in REGISTRY.items():
        assert algorithm.name == name and name in ALGORITHMS
        assert algorithm.frame in ("minimax", "negamax")
        assert algorithm.window in ("none", "fail-hard", "fail-soft", "null-window")
        assert algorithm.title and algorithm.summary
    assert check_algorithm(" PVS ") == "pvs"
    assert check_algorithm("alphabeta-soft") == "alphabeta", "the older name still reads"
    with pytest.raises(UnknownAlgorithmError):
        check_algorithm("mtd-f")


def test_the_window_option_picks_the_form_of_the_same_algorithm() -> None:
    assert with_window("alphabeta", "fail-hard") == "alphabeta-hard"
    assert with_window("alphabeta-hard", "fail-soft") == "alphabeta"
    assert with_window("negamax-alphabeta", "fail-hard") == "negamax-alphabeta-hard"
    assert with_window("minimax", "fail-hard") == "minimax", "no window, nothing to choose"
    assert with_window("pvs", "fail-soft") == "pvs"
    with pytest.raises(UnknownAlgorithmError):
        with_window("pvs", "fail-hard")
    with pytest.raises(UnknownAlgorithmError):
        with_window("alphabeta", "fail-medium")


@pytest.mark.slow
def test_pvs_finds_minimax_s_value_on_every_reachable_3x3_position() -> None:
    """5,478 positions, two plies deep with open lines at the leaves: the same value for the side to move
    as minimax, and never more nodes than minimax."""
    positions = reachable(TICTACTOE)
    assert len(positions) == 5_478
    for position in positions:
        full = search(position, "minimax", 2, record=False)
        scout = search(position, "pvs", 2, record=False)
        assert scout.mover_value == full.mover_value, position.diagram()


def test_pvs_finds_minimax_s_value_on_random_exam_trees_with_fractional_leaves() -> None:
    """The zero-width window is (α, next float above α), exact for any leaf values: the leaves are halved
    so that many lie between whole numbers, where a window (α, α+1) would go wrong."""
    for seed in range(200):
        rng = random.Random(seed)
        depth, branching = rng.randint(1, 4), rng.randint(2, 4)
        leaves = json.dumps(random_leaves(depth, branching, seed)).replace(",", " ,")
        halved = json.dumps(_halve(json.loads(leaves)))
        root = parse_leaves(halved)
        assert search(root, "pvs").frame_value == search(root, "minimax").frame_value, halved


def _halve(tree: object) -> object:
    return [_halve(child) for child in tree] if isinstance(tree, list) else float(tree) / 2  # type: ignore[arg-type]


def test_pvs_tests_later_children_with_a_zero_width_window_and_searches_again_on_a_fail_high() -> None:
    """[[3,12,8],[2,4,6],[14,5,2]] reordered so that the best child comes last: [[2,4,6],[3,12,8],[14,5,2]].
    Root: a is searched with the full window (value 2); b is tested with (2, 2⁺) and fails high (3 > 2),
    so it is searched again with (3, +∞), in b's own negamax frame (−∞, −3); c is tested with (3, 3⁺)
    and fails low (2 ≤ 3): no second search."""
    result = search(parse_leaves("[[2,4,6],[3,12,8],[14,5,2]]"), "pvs")
    tree = result.tree
    assert tree is not None and result.frame_value == 3 and result.move_name == "b"
    root = tree.root
    moves = [result.position.game.cell_name(tree.nodes[child].move or 0) for child in root.children]
    assert moves == ["a", "b", "b", "c"], "b tested, then searched again"
    test, again = (tree.nodes[child] for child in root.children[1:3])
    assert (test.alpha, test.beta) == (-math.nextafter(2, math.inf), -2)  # in b's own (negamax) frame
    assert (again.alpha, again.beta) == (-math.inf, -3)


def test_pvs_is_offered_by_tree_and_compare() -> None:
    result = runner.invoke(app, ["tree", "--leaves", "[[3,12,8],[2,4,6],[14,5,2]]", "--algo", "pvs"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("pvs on the tree")
    assert "value +3; best move a; nodes" in result.output
    data = json.loads(runner.invoke(app, ["compare", "b2 a1", "--depth", "3", "--json"]).output)
    rows = {row["name"]: row for row in data["rows"]}
    assert rows["pvs"]["value"] == rows["minimax"]["value"]
    assert rows["pvs"]["nodes"] == search(parse_position("b2 a1"), "pvs", 3, record=False).nodes


def test_the_course_s_alpha_beta_is_fail_soft_and_fail_hard_is_one_option_away() -> None:
    """Exam seed 7 (3 levels, 3 children): every leaf of b2 (6, 1, 2) is evaluated, so the textbook value of
    b2 is 6, the fail-soft value; fail-hard clamped it to the window's α, 12."""
    text = runner.invoke(app, ["exam", "--seed", "7"]).output
    assert "│  ├─ b2  Max  α=+12 β=+18  = +6  best b2.1" in text
    assert "├─ b  Min  α=+12 β=+∞  ≤ +6  best b2  ✂ α cut-off: α=+12 ≥ β=+6" in text
    hard = runner.invoke(app, ["exam", "--seed", "7", "--window", "fail-hard"]).output
    assert "b2  Max  α=+12 β=+18  = +12  best b2.1  (fail-hard: its best child gave +6)" not in hard
    assert "b2  Max  α=+12 β=+18  = +12" in hard


def test_max_is_the_side_the_student_takes_and_the_root_is_always_a_max_node() -> None:
    """O to move after X's centre: by default O is MAX, the root a Max node with O's value; ``--max x``
    takes X's standpoint again. In Chinese the root is a 极大节点 either way and no English role is left."""
    for options, role, value in (
        ([], "Max", "-1"),
        (["--max", "o"], "Max", "-1"),
        (["--max", "x"], "Min", "+1"),
    ):
        text = runner.invoke(app, ["tree", "b2", "-d", "1", "--algo", "minimax", *options]).output
        assert text.splitlines()[2] == f"root  {role}  = {value}  best a1", options
    data = json.loads(runner.invoke(app, ["tree", "b2", "-d", "1", "-f", "json"]).output)
    assert (data["max"], data["frame"], data["nodes"][0]["role"], data["value"]) == ("o", "o", "max", -1)
    zh = runner.invoke(app, ["--lang", "zh", "tree", "b2", "-d", "2", "--window", "fail-hard"]).output
    assert "极大节点" in zh.splitlines()[2]
    assert "Max" not in zh and "Min" not in zh and "fail-hard" not in zh
    refused = runner.invoke(app, ["tree", "b2", "--max", "z"])
    assert refused.exit_code == 2 and refused.output.startswith("error: unknown side 'z'")


def test_every_algorithm_is_recorded_from_outside_the_same_way() -> None:
    """The recording reads what an algorithm declares: a window only for the α-β family, Max and Min
    roles in the minimax frame, one role in the negamax frame."""
    position = parse_position("b2 a1")
    for name in REGISTRY:
        result = search(position, name, 2)
        algorithm = algorithm_named(name)
        assert result.tree is not None
        roles = {node.role for node in result.tree.nodes}
        assert roles == ({"negamax"} if algorithm.frame == "negamax" else {"max", "min"}), name
        windows = {node.alpha is None for node in result.tree.nodes}
        assert windows == {not algorithm.windowed}, name
        assert to_text(result).splitlines()[-1].startswith("value ")
