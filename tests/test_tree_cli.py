"""The commands ``tree``, ``compare``, ``match`` and ``analyze --algo`` as a user types them, and the
drawings they make: valid DOT, SVG that parses, JSON with every node."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest
from typer.testing import CliRunner

from inarow import Position, parse_position
from inarow.base.errors import TreeTooLargeError
from inarow.cli import app
from inarow.engines.limits import Limits
from inarow.engines.policy import analyze
from inarow.engines.textbook import search
from inarow.teaching.drawing import SLOT, SVG_SLOT, layout, to_dot, to_svg
from inarow.teaching.explain import ComparisonRow, analyze_moves, compare_algorithms, explain_tree
from inarow.words import phrases

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def test_tree_draws_a_small_alpha_beta_search_as_indented_text() -> None:
    """x o x
    o x o      x wins at a1 or c1: α-β sees +∞ at a1 and prunes the rest
    . . .
    """
    result = runner.invoke(app, ["tree", "xox/oxo/...", "--depth", "2"])
    assert result.exit_code == 0
    assert result.output == (
        "alphabeta, depth 2, open-lines evaluation on 'xox/oxo/...' (tictactoe, x to move); x is Max: values "
        "from x's standpoint\n"
        "e= the evaluation function e(P) at a leaf; = a backed-up value; α cut-off at a Min node (a value ≤ α), "
        "β cut-off at a Max node (a value ≥ β)\n"
        "root  Max  α=-∞ β=+∞  = +∞  best a1  ✂ β cut-off: α=+∞ ≥ β=+∞\n"
        "├─ a1  Min  α=-∞ β=+∞  = +∞ (won)\n"
        "└─ ✂ pruned b1 c1 (β cut-off: α=+∞ ≥ β=+∞)\n"
        "value +∞; best move a1; nodes 2\n"
    )


def test_tree_text_marks_every_cut_off_with_what_it_pruned() -> None:
    """x . .
    . o .      the classic depth-2 exercise: after a1 the other replies are cut off at once
    . . .
    """
    result = runner.invoke(app, ["tree", "x../.o./...", "-d", "2", "--algo", "alphabeta-soft"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[2] == "root  Max  α=-∞ β=+∞  = -1  best a1"
    assert "│  └─ ✂ pruned b1 b3 c1 c2 c3 (α cut-off: α=-1 ≥ β=-2)" in lines
    assert lines[-1] == "value -1; best move a1; nodes 20"


def test_tree_of_minimax_and_negamax_shows_no_window() -> None:
    """O to move: O is MAX unless told otherwise (the side whose standpoint the student takes), so the
    root is a Max node worth -1; ``--max x`` draws it from X's standpoint, a Min node worth +1."""
    for algo, options, root in [
        ("minimax", [], "root  Max  = -1  best a1"),
        ("minimax", ["--max", "x"], "root  Min  = +1  best a1"),
        ("negamax", [], "root  o to move  = -1  best a1"),
    ]:
        result = runner.invoke(app, ["tree", "b2", "--algo", algo, "--depth", "1", *options])
        assert result.exit_code == 0
        assert result.output.splitlines()[2] == root
        assert "α=" not in result.output
        assert result.output.splitlines()[-1].endswith("nodes 9")


def test_tree_json_holds_every_node_with_its_window_and_the_pruned_moves() -> None:
    result = runner.invoke(app, ["tree", "x../.o./...", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["nodes_visited"] == len(data["nodes"]) == 20
    assert data["value"] == -1 and data["move"] == "a1" and data["frame"] == "x"
    root = data["nodes"][0]
    assert (root["alpha"], root["beta"], root["parent"], root["path"]) == ("-inf", "inf", None, [])
    cut = [node for node in data["nodes"] if node["cutoff"]]
    assert len(cut) == 6 and all(node["pruned"] for node in cut)
    assert len(data["pruned_spots"]) == sum(len(node["pruned"]) for node in cut)
    events = data["events"]
    assert data["steps"] == len(events)
    for node in data["nodes"]:
        assert events[node["enter"]] | {"kind": "enter", "node": node["id"]} == events[node["enter"]]
        assert events[node["exit"]]["kind"] == "return" and events[node["exit"]]["value"] == node["value"]
    cutoffs = [event for event in events if event["kind"] == "cutoff"]
    assert [event["pruned"] for event in cutoffs] == [node["pruned"] for node in cut]


def dot_statements(dot: str) -> tuple[set[str], list[tuple[str, str]]]:
    """A small structural parse of our DOT: the node ids declared and the edges, checking the frame, the
    quoting and the statement ends on the way."""
    assert dot.startswith("digraph search {\n") and dot.endswith("}\n")
    body = dot[len("digraph search {\n") : -2]
    nodes, edges = set(), []
    for line in body.splitlines():
        line = line.strip()
        assert line.endswith(";"), line
        assert line.count('"') % 2 == 0 or '\\"' in line, line
        edge = re.fullmatch(r"(\w+) -> (\w+) \[.*\];", line)
        node = re.fullmatch(r"(\w+) \[label=\".*\".*\];", line)
        if edge:
            edges.append((edge[1], edge[2]))
        elif node:
            nodes.add(node[1])
        else:
            assert re.fullmatch(r"(label|labelloc|ordering|node|edge)\b.*;", line), line
    return nodes, edges


def test_dot_output_declares_every_node_before_its_edges_reach_it() -> None:
    result = runner.invoke(app, ["tree", "x../.o./...", "--format", "dot"])
    assert result.exit_code == 0
    assert result.stderr.strip() == "nodes visited: 20"
    nodes, edges = dot_statements(result.stdout)
    assert len([n for n in nodes if n.startswith("n")]) == 20
    assert len([n for n in nodes if n.startswith("p")]) == 30
    assert len(edges) == 19 + 30
    assert all(a in nodes and b in nodes for a, b in edges)


@pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz is not installed (the product never needs it)"
)
def test_graphviz_reads_the_dot_output() -> None:
    for algorithm in ("minimax", "negamax", "alphabeta", "alphabeta-soft"):
        dot = to_dot(search(parse_position("b2 a1"), algorithm, 2))
        done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        ElementTree.fromstring(done.stdout)


def test_svg_output_parses_as_xml_with_a_group_per_node_and_per_pruned_child() -> None:
    result = runner.invoke(app, ["tree", "x../.o./...", "--format", "svg"])
    assert result.exit_code == 0
    root = ElementTree.fromstring(result.stdout)
    assert root.tag == f"{SVG}svg"
    groups = root.findall(f"{SVG}g")
    assert len([g for g in groups if g.get("class") == "node"]) == 20
    pruned = [g for g in groups if g.get("class") == "pruned"]
    assert len(pruned) == 30
    assert all("cut-off: α=" in (g.findtext(f"{SVG}title") or "") for g in pruned)


def test_svg_draws_negamax_and_won_positions_too() -> None:
    for algorithm in ("negamax", "minimax"):
        svg = to_svg(search(parse_position("xx./oo./..."), algorithm, 2))
        ElementTree.fromstring(svg)
        assert "+∞" in svg


def test_tree_errors_print_a_message_and_exit_2() -> None:
    for args, message in [
        (
            ["tree", "b2", "--format", "png"],
            "error: unknown format 'png': expected one of text, json, dot, svg",
        ),
        (["tree", "b2", "--algo", "mtdf"], "error: unknown algorithm 'mtdf'"),
        (["tree", "b2", "--eval", "mobility"], "error: unknown evaluation 'mobility'"),
        (["tree", "b2", "--depth", "-1"], "error: invalid depth -1"),
        (["tree", "", "--algo", "minimax", "--depth", "3", "--max-nodes", "100"], "error: the minimax tree"),
        (["tree", "q9"], "error: move 1 of 'q9': invalid cell 'q9'"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith(message), (args, result.stderr)
        assert "Traceback" not in result.output


def test_every_new_command_has_help() -> None:
    for command in ("tree", "compare", "match", "analyze"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "Usage" in result.output


# ------------------------------------------------------------------------------ analyze --algo
def test_analyze_algo_gives_the_depth_limited_value_of_every_move() -> None:
    result = runner.invoke(app, ["analyze", "", "--algo", "minimax", "--depth", "2", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["exact"] is False and data["score"] == 1 and data["best"] == ["b2"]
    assert {m["move"]: m["score"] for m in data["moves"]} == {
        "a1": -1, "a2": -2, "a3": -1, "b1": -2, "b2": 1, "b3": -2, "c1": -1, "c2": -2, "c3": -1
    }  # fmt: skip
    assert all(m["exact"] is False for m in data["moves"])
    assert (data["algorithm"], data["evaluation"], data["depth"], data["nodes"]) == (
        "minimax",
        "open-lines",
        2,
        1 + 9 + 9 * 8,
    )


def test_analyze_algo_counts_nodes_as_tree_and_compare_do_and_says_what_else_it_searched() -> None:
    analyzed = json.loads(
        runner.invoke(app, ["analyze", "", "--algo", "alphabeta", "-d", "2", "--json"]).output
    )
    tree = json.loads(runner.invoke(app, ["tree", "", "--algo", "alphabeta", "-d", "2", "-f", "json"]).output)
    compared = json.loads(runner.invoke(app, ["compare", "", "-d", "2", "--json"]).output)
    alphabeta = next(row for row in compared["rows"] if row["name"] == "alphabeta")
    assert analyzed["nodes"] == tree["nodes_visited"] == alphabeta["nodes"] == 36
    assert analyzed["move_nodes"] == 1 + 81, "every move searched with a full window, and the root"
    text = " ".join(runner.invoke(app, ["analyze", "", "--algo", "alphabeta", "-d", "2"]).output.split())
    assert (
        "nodes 36 (one alphabeta search of the whole tree, root included, as tree and compare count; "
        "each move's own value took 82 nodes, every move searched with a full window)"
    ) in text
    assert "(not exact: depth-limited)" in text


def test_analyze_algo_to_the_end_is_exact_and_says_so() -> None:
    """x o .
    . x .      x to move, searched to the end: a1 and a2 win
    . . o
    """
    text = " ".join(runner.invoke(app, ["analyze", "xo./.x./..o", "--algo", "minimax"]).output.split())
    assert "minimax to the end with open-lines: +∞ for x (exact: searched to the end)" in text
    data = json.loads(runner.invoke(app, ["analyze", "xo./.x./..o", "--algo", "minimax", "--json"]).output)
    assert data["exact"] is True and data["best"] == ["a1", "a2"]


def test_analyze_algo_scores_a_forced_win_as_infinity_in_json_strings() -> None:
    """x x .
    o o .      x to move: c3 wins (+∞), every other move lets o win (-∞)
    . . .
    """
    result = runner.invoke(app, ["analyze", "xx./oo./...", "--algo", "alphabeta", "-d", "3", "--json"])
    data = json.loads(result.output)
    assert data["score"] == "inf" and data["pv"] == ["c3"]
    assert {m["move"]: m["score"] for m in data["moves"]} == {
        "a1": "-inf", "b1": "-inf", "c1": "-inf", "c2": 1, "c3": "inf"
    }  # fmt: skip


def test_analyze_algo_in_text_shows_a_table_of_values() -> None:
    result = runner.invoke(app, ["analyze", "b2", "--algo", "negamax", "--depth", "1"])
    assert result.exit_code == 0
    assert "value   negamax to depth 1 with open-lines: -1 for o  (not exact: depth-limited)" in result.output
    assert re.search(r"^a1 +-1$", result.output, re.MULTILINE)
    assert re.search(r"^a2 +-2$", result.output, re.MULTILINE)


def test_analyze_algo_refuses_a_bad_algorithm_before_reading_positions() -> None:
    result = runner.invoke(app, ["analyze", "b2", "--algo", "mtdf"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown algorithm 'mtdf': expected one of minimax, negamax")


def test_analyze_moves_is_stopped_by_a_node_limit() -> None:
    with pytest.raises(
        TreeTooLargeError,
        match=r"^the minimax search of '\.\.\./\.\.\./\.\.\.' was stopped by the limits after 500 nodes: "
        r"lower the depth or raise the limits$",
    ):
        analyze_moves(parse_position(""), "minimax", None, "open-lines", Limits(nodes=500))


@pytest.mark.parametrize("text", ["b2 a1", "xxx/oo./..."])
def test_analyze_moves_answers_with_the_keys_of_the_analysis(text: str) -> None:
    """The same keys as ``inarow analyze --json``, at the top and for every move, and the two that say what
    was run; on an unfinished position and a won one.

    . . .      x x x
    . x .      o o .
    x . .      . . .
    """
    position = parse_position(text)
    textbook = analyze_moves(position, "alphabeta", 2).to_json()
    exact = phrases.analysis_json(analyze(position))
    assert set(textbook) == set(exact) | {"algorithm", "evaluation", "move_nodes"}
    for textbook_move, exact_move in zip(textbook["moves"], exact["moves"], strict=True):
        assert set(textbook_move) == set(exact_move)


# ------------------------------------------------------------------------------------ compare
def test_compare_shows_every_algorithm_with_the_same_value() -> None:
    result = runner.invoke(app, ["compare", "x../.o./...", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    rows = {row["name"]: row for row in data["rows"]}
    assert list(rows) == [
        "minimax", "negamax", "alphabeta", "alphabeta-hard", "negamax-alphabeta", "negamax-alphabeta-hard",
        "pvs", "alphabeta-ordering", "alphabeta-table", "alphabeta-ordering-table", "engine"
    ]  # fmt: skip
    assert data["depth"] == 7
    assert (
        rows["minimax"]["nodes"] == search(parse_position("x../.o./..."), "minimax", None, record=False).nodes
    )
    assert {row["value"] for row in data["rows"]} == {0}
    assert rows["alphabeta"]["nodes"] < rows["minimax"]["nodes"]
    assert rows["alphabeta-ordering-table"]["nodes"] < rows["alphabeta"]["nodes"]
    for row in data["rows"]:
        b = row["branching"]
        assert sum(b**i for i in range(data["depth"] + 1)) == pytest.approx(row["nodes"], rel=1e-6)


def test_compare_says_when_an_algorithm_was_stopped() -> None:
    result = runner.invoke(app, ["compare", "b2 c3", "--game", "4x4", "--depth", "4", "--nodes", "2000"])
    assert result.exit_code == 0
    assert re.search(r"^minimax +> 2,000 \(stopped\)", result.output, re.MULTILINE)
    assert re.search(r"^engine +[\d,]+ ", result.output, re.MULTILINE)


def test_compare_errors_exit_2() -> None:
    result = runner.invoke(app, ["compare", "xxx/oo./..."])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: nothing to compare in 'xxx/oo./...': the game is over")


# -------------------------------------------------------------------------------------- match
def test_match_prints_the_results_and_every_game() -> None:
    result = runner.invoke(app, ["match", "perfect", "random", "--games", "4", "--swap", "--seed", "1"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert (
        lines[0] == "perfect against random on tictactoe: 4 games, colours swapped every other game (seed 1)"
    )
    assert lines[1].split() == ["player", "wins", "draws", "losses", "score", "95%", "CI"]
    assert lines[2].split()[0] == "perfect" and lines[2].split()[3] == "0"
    games = [line for line in lines if re.match(r"\d\. x ", line)]
    assert len(games) == 4 and games[1].startswith("2. x random, o perfect: ")


def test_match_json_replays_from_its_seed() -> None:
    args = ["match", "rules", "minimax:2:weighted", "-n", "3", "--seed", "5", "--json"]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0 and first.stdout == again.stdout
    data = json.loads(first.stdout)
    assert data["players"] == ["rules", "minimax:2:weighted"] and len(data["games"]) == 3


def test_match_errors_exit_2() -> None:
    for args, message in [
        (["match", "perfect", "foo"], "error: unknown player 'foo': expected one of"),
        (["match", "random", "random", "--games", "0"], "error: invalid number of games 0"),
        (["match", "random", "random", "--game", "chess"], "error: unknown game 'chess'"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith(message), (args, result.stderr)


# ------------------------------------------------------------------------------- the services
def test_explain_tree_gives_the_web_page_the_layout_the_svg_is_drawn_with() -> None:
    """x . .
    . o .      the page's layout and the SVG's are the same placement at two scales
    . . .
    """
    explanation = explain_tree(parse_position("x../.o./..."), "alphabeta", 2)
    data = explanation.to_json()
    json.dumps(data)
    svg = ElementTree.fromstring(to_svg(explanation.search))
    assert explanation.layout == layout(explanation.tree)
    assert len(data["nodes"]) + len(data["pruned_spots"]) == len(explanation.layout)
    drawn = {
        g.get("data-id"): g.find(f"{SVG}text") for g in svg.findall(f"{SVG}g") if g.get("class") == "node"
    }
    scale = SVG_SLOT / SLOT
    for node in data["nodes"]:
        text = drawn[str(node["id"])]
        assert text is not None
        assert float(text.get("x") or "nan") == pytest.approx(node["x"] * scale, abs=0.05)


def test_compare_algorithms_reports_progress() -> None:
    seen: list[str] = []
    compare_algorithms(parse_position("b2 a1 c3"), 3, progress=seen.append)
    assert seen == [
        "minimax", "negamax", "α-β", "α-β, fail-hard", "α-β, negamax form", "α-β, negamax form, fail-hard",
        "PVS (NegaScout)", "α-β, move ordering", "α-β, transposition table", "α-β, ordering and table",
        "engine"
    ]  # fmt: skip


def test_a_compare_row_says_its_value_in_words() -> None:
    """What the engine proved, what it only estimated, and a textbook value, from the same fields."""

    def row(**fields: object) -> ComparisonRow:
        base: dict[str, object] = {
            "name": "engine", "label": "engine", "complete": True, "nodes": 10, "seconds": 0.0,
            "mover_value": None, "move": None, "branching": None,
        }  # fmt: skip
        return ComparisonRow(**(base | fields))  # type: ignore[arg-type]

    assert row(mover_value=float("inf"), proven=True).value_text() == "+∞ (proven)"
    assert row(mover_value=float("-inf"), proven=True).value_text() == "-∞ (proven)"
    assert row(mover_value=0.0, proven=True).value_text() == "0 (a draw)"
    assert row(engine_evaluation=12).value_text() == "eval +12 (its scale)"
    assert row(mover_value=-2.0).value_text() == "-2"
    assert row(complete=False).value_text() == ""


def test_the_teaching_results_are_frozen_values() -> None:
    explanation = explain_tree(Position.start(parse_position("").game), "minimax", 1)
    with pytest.raises(AttributeError):
        explanation.tree.root.value = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        explanation.search.mover_value = 0  # type: ignore[misc]


def test_a_tree_too_large_to_draw_names_the_limit_without_a_diagram() -> None:
    result = runner.invoke(app, ["tree", "", "--algo", "minimax", "-d", "3", "--max-nodes", "100"])
    assert result.exit_code == 2
    assert result.output == (
        "error: the minimax tree to depth 3 of this tictactoe position has more than 100 nodes, too many "
        "to draw: lower the depth or raise the node limit\n"
    )


def test_compare_speaks_from_max_s_standpoint_like_the_trees() -> None:
    """
    x x .
    o o .      o to move after x's a1: the trees and the table both say o's values, and o, the side
    x . .      to move, is MAX (the side whose standpoint the student takes)
    """
    tree = json.loads(runner.invoke(app, ["tree", "xx./oo./x..", "-d", "2", "-f", "json"]).output)
    compared = json.loads(runner.invoke(app, ["compare", "xx./oo./x..", "-d", "2", "--json"]).output)
    alphabeta = next(row for row in compared["rows"] if row["name"] == "alphabeta")
    assert tree["to_move"] == tree["max"] == "o" and tree["value"] == alphabeta["max_value"] == "inf"
    assert alphabeta["value"] == "inf", "the side to move's value stays in value"
    text = runner.invoke(app, ["compare", "xx./oo./x..", "-d", "2"]).output
    assert "values for Max (o), as in the trees; the engine uses its own evaluation" in text
    assert re.search(r"^α-β +\d+ .* \+∞ ", text, re.M)


def test_compare_runs_every_textbook_algorithm_in_the_order_asked() -> None:
    """Each textbook row counts what a search of that algorithm and order counts; all agree on the value."""
    position = parse_position("b2 a1")
    for order in ("columns", "rows"):
        result = runner.invoke(app, ["compare", "b2 a1", "--depth", "3", "--order", order, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["order"] == order
        rows = {row["name"]: row for row in data["rows"]}
        for algorithm in ("minimax", "negamax", "alphabeta", "alphabeta-hard", "negamax-alphabeta", "pvs"):
            expected = search(position, algorithm, 3, record=False, order=order)
            assert rows[algorithm]["nodes"] == expected.nodes, (order, algorithm)
        assert len({row["max_value"] for row in data["rows"] if row["name"] != "engine"}) == 1
    text = runner.invoke(app, ["compare", "b2 a1", "--depth", "2", "--order", "rows"]).output
    assert text.splitlines()[0].endswith(", children row by row from the top")
