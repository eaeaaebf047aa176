"""Teaching game-tree search: your own e(P) as weights, exam trees of leaf values, negamax-form α-β,
iterative deepening, move order by rows, quiescence and the horizon effect, and the step record the page
replays. Boards are drawn in the docstrings; values are from X's (Max's) standpoint unless said."""

from __future__ import annotations

import json
import math
import random
import re
import xml.etree.ElementTree as ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from inarow import Game, Position, parse_position
from inarow.base.errors import InarowError, InvalidPositionError, UnknownEvaluationError, UnknownPlayerError
from inarow.cli import app
from inarow.engines.textbook import ALGORITHMS, deepen, forcing_moves, move_scores, search
from inarow.evaluation.lines import EVALUATIONS, evaluation_named, line_counts, parse_weights, static_value
from inarow.play.players import player
from inarow.rules.game import other
from inarow.teaching.abstract import parse_leaves
from inarow.teaching.explain import explain_tree

TICTACTOE = Game.parse("tictactoe")
RUSSELL_NORVIG = "[[3,12,8],[2,4,6],[14,5,2]]"
runner = CliRunner()


def every_position(game: Game) -> list[Position]:
    seen: set[Position] = set()
    todo = [Position.start(game)]
    while todo:
        position = todo.pop()
        if position in seen:
            continue
        seen.add(position)
        if not position.is_over:
            todo.extend(child for _, child in position.children())
    return sorted(seen, key=lambda p: (p.x, p.o))


# ----------------------------------------------------------------------- the oracles: e(P) as the
# evaluations were written before they became weight lists, kept here as independent definitions.
def old_open_lines(game: Game, mine: int, theirs: int) -> int:
    return sum((not theirs & line) - (not mine & line) for line in game.lines)


def old_weighted(game: Game, mine: int, theirs: int) -> int:
    score = 0
    for line in game.lines:
        a, b = (mine & line).bit_count(), (theirs & line).bit_count()
        if a and not b:
            score += 3 ** (a - 1)
        elif b and not a:
            score -= 3 ** (b - 1)
    return score


def old_lines(game: Game, mine: int, theirs: int) -> int:
    return sum((mine & line == line) - (theirs & line == line) for line in game.lines)


# ----------------------------------------------------------------------------------- weights
@pytest.mark.parametrize(
    ("name", "weights", "oracle"),
    [
        ("open-lines", "weights:1,1,1,inf", old_open_lines),
        ("weighted", "weights:0,1,3,inf", old_weighted),
        ("lines", "weights:0,0,0,1", old_lines),
    ],
)
def test_weights_reproduce_each_named_evaluation_on_every_3x3_position(
    name: str, weights: str, oracle: object
) -> None:
    named, own = evaluation_named(name), evaluation_named(weights)
    positions = every_position(TICTACTOE)
    assert len(positions) == 5478
    for position in positions:
        for side in ("x", "o"):
            expected = static_value(position, side, oracle)  # type: ignore[arg-type]
            assert static_value(position, side, own) == static_value(position, side, named) == expected


def test_the_textbook_depth_2_figure_with_weights_1_1_1_inf() -> None:
    """The classic depth-2 search (Nilsson) with e(P) written as weights: centre +1, corners -1, edges -2."""
    scores, _ = move_scores(Position.start(TICTACTOE), "minimax", 2, "weights:1,1,1,inf")
    assert {TICTACTOE.cell_name(bit): value for bit, value in scores.items()} == {
        "a1": -1, "a3": -1, "c1": -1, "c3": -1, "b2": 1, "a2": -2, "b1": -2, "b3": -2, "c2": -2,
    }  # fmt: skip


def test_a_line_scores_its_weight_for_the_side_whose_stones_it_holds() -> None:
    """
    x . x
    . o .      weights 0,1,10,inf: x has the top row with two (10) and the a- and c-files with one
    . . .      (1 + 1); o has the middle row and the b-file with one (1 + 1); the diagonals are dead
    """
    position = parse_position("x.x/.o./...")
    counts = line_counts(position, "x", parse_weights("weights:0,1,10,inf"))
    assert counts is not None
    assert (counts.mine, counts.theirs) == ((1, 2, 1, 0), (1, 2, 0, 0)), "the bottom row is empty"
    assert (counts.mine_total, counts.theirs_total, counts.value) == (12, 2, 10)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("weights:1,x,1,inf", "invalid evaluation 'weights:1,x,1,inf': the weight 'x' must be a number or inf"),
        ("weights:1,-inf,1,inf", "invalid evaluation 'weights:1,-inf,1,inf': the weight '-inf' must be a number or inf"),
        ("weights:5", "invalid evaluation 'weights:5': expected weights:W0,W1,…,Wk, one weight for each number of stones a line can hold"),
        ("mobility", "unknown evaluation 'mobility': expected one of open-lines, weighted, lines, weights:W0,W1,…,Wk such as weights:1,1,1,inf, or a function in a file, PATH.py:FUNCTION"),
    ],
)  # fmt: skip
def test_a_bad_evaluation_says_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(UnknownEvaluationError) as caught:
        evaluation_named(text)
    assert str(caught.value) == message


def test_weights_of_the_wrong_length_for_the_game_are_refused_naming_k() -> None:
    with pytest.raises(UnknownEvaluationError) as caught:
        search(Position.start(Game.parse("4x4")), "minimax", 1, "weights:1,1,1,inf")
    assert str(caught.value) == (
        "invalid evaluation 'weights:1,1,1,inf' for 4x4: expected 5 weights W0,…,W4, one for each number "
        "of stones a line of 4 can hold"
    )


def test_weights_name_players_and_the_python_api_takes_any_callable() -> None:
    chosen = player("minimax:2:weights:1,1,1,inf").choose(Position.start(TICTACTOE), random.Random(1))
    assert chosen.move == "b2"
    with pytest.raises(UnknownPlayerError) as caught:
        player("alphabeta:2:weights:1,y")
    assert str(caught.value) == (
        "unknown player 'alphabeta:2:weights:1,y': invalid evaluation 'weights:1,y': the weight 'y' must be "
        "a number or inf"
    )

    def centre_only(game: Game, mine: int, theirs: int) -> int:
        centre = 1 << game.bit(1, 1)
        return (mine & centre != 0) - (theirs & centre != 0)

    result = search(Position.start(TICTACTOE), "alphabeta", 1, centre_only)
    assert (result.move_name, result.frame_value, result.evaluation) == ("b2", 1, "centre_only")


def test_the_breakdown_of_every_leaf_adds_up_to_its_value() -> None:
    explanation = explain_tree(parse_position("b2 a1"), "alphabeta", 2, "weights:0,1,5,inf").to_json()
    leaves = [node for node in explanation["nodes"] if node["leaf"] == "depth"]
    assert leaves
    for node in leaves:
        breakdown = node["breakdown"]
        assert breakdown is not None and breakdown["side"] == "x"
        mine, theirs = breakdown["mine_total"], breakdown["theirs_total"]
        assert isinstance(mine, int) and isinstance(theirs, int)
        assert mine - theirs == breakdown["value"] == node["value"]
        weights = [0, 1, 5]
        assert (
            sum(w * n for w, n in zip(weights, breakdown["mine"][:3], strict=True)) == breakdown["mine_total"]
        )


# ------------------------------------------------------------------------------- abstract trees
def test_the_russell_norvig_tree_minimax_3_and_alpha_beta_3_pruning_exactly_the_leaves_4_and_6() -> None:
    """Max at the root over three Min nodes: a = min(3, 12, 8) = 3, b = min(2, …) ≤ 2, c = min(14, 5, 2)."""
    root = parse_leaves(RUSSELL_NORVIG)
    assert search(root, "minimax").frame_value == 3
    for algorithm in ("alphabeta", "alphabeta-soft", "negamax-alphabeta"):
        result = search(root, algorithm)
        assert (result.mover_value, result.move_name) == (3, "a")
        assert result.tree is not None
        pruned = [bit for node in result.tree.nodes for bit in node.pruned]
        assert [root.game.values[bit] for bit in pruned] == [4, 6], algorithm
        assert [root.game.cell_name(bit) for bit in pruned] == ["b2", "b3"]


def test_tree_leaves_answers_in_every_format() -> None:
    base = ["tree", "--leaves", RUSSELL_NORVIG]
    text = runner.invoke(app, [*base, "--algo", "minimax"]).output
    assert "value +3; best move a; nodes 13" in text and "pruned: nothing" in text
    text = runner.invoke(app, base).output
    assert text.splitlines()[0] == (
        "alphabeta on the tree [[3,12,8],[2,4,6],[14,5,2]]; Max to move at the root: values from Max's "
        "standpoint"
    )
    assert "└─ ✂ pruned b2 (4) b3 (6) (α cut-off: α=+3 ≥ β=+2)" in text
    assert text.splitlines()[-2:] == [
        "value +3; best move a; nodes 11",
        "pruned: the leaves 4 6 (b2 b3), never evaluated",
    ]
    data = json.loads(runner.invoke(app, [*base, "-f", "json"]).output)
    assert (data["value"], data["move"], data["abstract"], data["game"]) == (3, "a", True, "tree")
    assert [(spot["move"], spot["value"]) for spot in data["pruned_spots"]] == [("b2", 4), ("b3", 6)]
    dot = runner.invoke(app, [*base, "-f", "dot"]).output
    assert len(re.findall(r"^\s*p\d+_\d+ \[label=", dot, re.MULTILINE)) == 2
    svg = runner.invoke(app, [*base, "-f", "svg"]).stdout
    root = ElementTree.fromstring(svg)
    titles = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert sorted(t.split()[0] for t in titles if "pruned" in t and t.split()[0] in ("b2", "b3")) == [
        "b2",
        "b3",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[3,", "invalid tree '[[3,': not JSON (Expecting value)"),
        ("3", "invalid tree '3': expected nested lists of leaf values such as [[3,12,8],[2,4,6],[14,5,2]]"),
        ('[[3,"x"]]', 'invalid tree \'[[3,"x"]]\': "x" at a2 is neither a number nor a list'),
        ("[[3],[]]", "invalid tree '[[3],[]]': the node b is an empty list"),
    ],
)
def test_a_bad_tree_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        parse_leaves(text)
    assert str(caught.value) == message


def test_an_abstract_tree_is_searched_to_its_leaves() -> None:
    with pytest.raises(InvalidPositionError) as caught:
        search(parse_leaves("[[1,[2,3]],[4]]"), "minimax", 1)
    assert str(caught.value) == (
        "invalid tree '[[1,[2,3]],[4]]': node 'a' is not a leaf, and an abstract tree is searched to its "
        "leaves: leave out the depth"
    )
    result = search(parse_leaves("[[1,[2,3]],[4]]"), "minimax")
    assert result.frame_value == 4  # a = min(1, max(2, 3)) = 1, b = 4


def test_tree_refuses_a_position_and_leaves_together_and_a_bad_order() -> None:
    both = runner.invoke(app, ["tree", "b2", "--leaves", "[[1]]"])
    assert both.exit_code == 2 and "error: a position 'b2' and --leaves: give one or the other" in both.output
    order = runner.invoke(app, ["tree", "b2", "--order", "diagonal"])
    assert (
        order.exit_code == 2
        and "error: unknown move order 'diagonal': expected one of columns, rows" in order.output
    )


# ------------------------------------------------------------------------- the syllabus
def test_negamax_alphabeta_searches_each_child_with_the_window_minus_beta_minus_alpha() -> None:
    result = search(parse_position("b2 a1"), "negamax-alphabeta", 3)
    tree = result.tree
    assert tree is not None
    window: dict[int, tuple[float, float]] = {}
    for event in tree.events:
        node = tree.nodes[event.node]
        assert node.role == "negamax"
        if event.kind == "enter":
            assert event.alpha is not None and event.beta is not None
            if node.parent is not None:
                alpha, beta = window[node.parent]
                assert (event.alpha, event.beta) == (-beta, -alpha)
            window[node.id] = (event.alpha, event.beta)
        elif event.kind == "update":
            assert event.alpha is not None and event.beta is not None
            window[node.id] = (event.alpha, event.beta)
    assert any(node.cutoff for node in tree.nodes)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 5), depth=st.integers(1, 4))
def test_iterative_deepening_ends_with_the_direct_search_to_that_depth(
    seed: int, plies: int, depth: int
) -> None:
    rng, position = random.Random(seed), Position.start(TICTACTOE)
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_bits()))
    if position.is_over:
        return
    for algorithm in ("minimax", "alphabeta", "negamax-alphabeta"):
        rows = deepen(position, algorithm, depth, record_last=False)
        assert [row.depth for row in rows] == list(range(1, depth + 1))
        direct = search(position, algorithm, depth, record=False)
        assert rows[-1].mover_value == direct.mover_value
        scores, _ = move_scores(position, "minimax", depth)
        assert rows[-1].move is not None and scores[rows[-1].move] == direct.mover_value


def test_iterative_deepening_searches_the_previous_best_move_first() -> None:
    rows = deepen(parse_position("b2 a1"), "alphabeta", 3)
    last = rows[-1].tree
    assert last is not None and rows[1].move is not None
    root = last.nodes[0]
    assert root.order == "previous-best" and last.nodes[root.children[0]].move == rows[1].move


def test_tree_deepen_prints_a_row_per_depth_then_the_last_tree() -> None:
    output = runner.invoke(app, ["tree", "b2 a1", "--deepen", "-d", "3"]).output
    lines = output.splitlines()
    assert lines[0] == "iterative deepening: each depth searches the previous depth's best move first"
    assert lines[1].split() == ["depth", "searched", "first", "best", "move", "value", "nodes", "time"]
    assert [line.split()[0] for line in lines[2:5]] == ["1", "2", "3"]
    assert lines[5].startswith("alphabeta, depth 3")
    assert lines[6].startswith("e= the evaluation function e(P) at a leaf")
    assert "(children ordered: the previous depth's best move first)" in lines[7]


def test_rows_order_goes_row_by_row_from_the_top_and_never_changes_minimax() -> None:
    """The empty board's moves as course material lists them: a3 b3 c3 / a2 b2 c2 / a1 b1 c1."""
    result = search(Position.start(TICTACTOE), "minimax", 1, order="rows")
    assert result.tree is not None
    moves = [TICTACTOE.cell_name(result.tree.nodes[c].move or 0) for c in result.tree.root.children]
    assert moves == ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
    for depth in (2, 3):
        by_columns = search(Position.start(TICTACTOE), "minimax", depth, record=False)
        by_rows = search(Position.start(TICTACTOE), "minimax", depth, record=False, order="rows")
        assert (by_rows.nodes, by_rows.frame_value) == (by_columns.nodes, by_columns.frame_value)


def test_quiescence_makes_the_horizon_effect_disappear() -> None:
    """
    . . .
    . o .      o to move; x threatens b1. One ply deep, o sees a3's open lines and not x's b1 beyond
    x . x      the horizon; with quiescence the leaf where x can win at once is searched on, and o blocks.
    """
    position = parse_position(".../.o./x.x")
    assert forcing_moves(position) == ([TICTACTOE.parse_cell("b1")], "block")
    plain = search(position, "alphabeta", 1)
    quiet = search(position, "alphabeta", 1, quiescence=True)
    assert (plain.move_name, plain.mover_value) == ("a3", 1)
    assert (quiet.move_name, quiet.mover_value) == ("b1", -2)
    assert quiet.tree is not None
    extended = [node for node in quiet.tree.nodes if node.extended]
    assert extended and all(node.depth >= 1 for node in extended)
    truth = search(position, "alphabeta", 3, record=False)
    assert truth.move_name == "b1"
    text = runner.invoke(app, ["tree", ".../.o./x.x", "-d", "1", "--quiescence"]).output
    assert "quiescence at the horizon" in text.splitlines()[0]
    assert "(quiescence: searched on at the horizon)" in text


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(4, 8))
def test_quiescence_never_changes_a_search_that_ends_every_line(seed: int, plies: int) -> None:
    rng, position = random.Random(seed), Position.start(TICTACTOE)
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_bits()))
    full = position.game.cells - position.ply
    for algorithm in ALGORITHMS:
        assert (
            search(position, algorithm, full, record=False, quiescence=True).mover_value
            == search(position, algorithm, full, record=False).mover_value
        )


# ------------------------------------------------------------------------------ the record
def test_every_step_is_an_event_with_fields_and_the_cutoffs_name_what_they_pruned() -> None:
    tree = search(parse_position("b2 a1"), "alphabeta", 2).tree
    assert tree is not None
    assert tree.events[0].kind == "enter" and tree.events[-1].kind == "return"
    for event in tree.events:
        node = tree.nodes[event.node]
        if event.kind == "cutoff":
            assert event.pruned == node.pruned and event.move in [tree.nodes[c].move for c in node.children]
            limit = event.beta if event.bound == "beta" else event.alpha
            assert limit is not None and event.value is not None
            assert event.value >= limit if event.bound == "beta" else event.value <= limit
        if event.kind == "update":
            assert event.bound in ("alpha", "beta")
    for node in tree.nodes:
        if node.leaf == "depth":
            assert isinstance(node.state, Position)
            assert static_value(node.state, "x", EVALUATIONS["open-lines"]) == node.value


def test_a_fail_hard_node_records_the_child_value_it_clamped() -> None:
    root = parse_leaves(RUSSELL_NORVIG)
    tree = search(root, "alphabeta-hard").tree
    assert tree is not None
    b = next(node for node in tree.nodes if node.move is not None and root.game.cell_name(node.move) == "b")
    assert (b.value, b.seen) == (3, 2)
    assert all(node.seen is None for node in tree.nodes if node.leaf)


def test_other_is_the_opponent() -> None:
    assert other("x") == "o" and math.isinf(
        static_value(parse_position("xxx/oo./..."), "o", EVALUATIONS["lines"])
    )


def test_errors_are_inarow_errors() -> None:
    assert issubclass(UnknownEvaluationError, InarowError) and issubclass(InvalidPositionError, InarowError)
