"""Checking a student's own minimax and α-β node by node: the registry's algorithms written as student files
pass every case, each classic bug planted in a student file is caught and named at its first divergent node,
the planted bugs of the table are the registry's algorithms bent, and a search that raises or returns a
string is refused with what and where. The student files are in tests/data/searches/."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from inarow.engines.textbook import REGISTRY, algorithm_named, search
from inarow.evaluation.lines import evaluation_named
from inarow.teaching.abstract import parse_leaves
from inarow.teaching.checking.bugs import BUG_NAMES, BUGS, bent_alphabeta, bugs_for
from inarow.teaching.checking.cases import Case, cases, random_tree
from inarow.teaching.checking.interface import SearchCodeError, move_name
from inarow.teaching.checking.verdict import (
    StudentSearch,
    algorithm_for,
    check_case,
    check_search,
    derived_move,
    load_search,
    reference,
)
from inarow.words.sentences import TERMS, say

SEARCHES = Path(__file__).parent / "data" / "searches"
CORRECT = sorted(SEARCHES.glob("*.py"))
PLANTED = sorted((SEARCHES / "bugs").glob("*.py"))
PLANTED_BUG = {
    "strict": "strict-cutoff",
    "notpassed": "window-not-passed",
    "notnarrowed": "window-not-narrowed",
    "sign": "negamax-sign",
    "depth": "depth-not-decreased",
    "sameplayer": "same-player",
    "returnsalpha": "returns-alpha",
}
"""A planted file's bug, by the first part of its name (``strict_alphabeta.py``)."""


def function_of(path: Path) -> str:
    found = re.search(r"^def (\w+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None
    return found.group(1)


def loaded(path: Path) -> StudentSearch:
    return load_search(path.read_text(encoding="utf-8"), function_of(path), str(path))


def tree_case(leaves: str, name: str = "tree") -> Case:
    root = parse_leaves(leaves)
    return Case(
        name=name,
        kind="tree",
        root=root,
        depth=root.game.cells,
        max_side="x",
        evaluation=evaluation_named("open-lines"),
        leaves=root.game.text,
    )


def sentence(verdict_json: dict[str, Any], algorithm: str) -> str:
    fields = {
        **verdict_json["divergence"],
        "algorithm": algorithm,
        "windowed": algorithm_named(algorithm).windowed,
    }
    return say("search_divergence", fields)


@pytest.mark.parametrize("path", CORRECT, ids=lambda path: path.stem)
def test_the_registrys_algorithms_written_as_student_files_pass_every_case(path: Path) -> None:
    algorithm = algorithm_for(function_of(path), None)
    report = check_search(loaded(path), algorithm)
    assert len(report.cases) >= 10
    assert [verdict.case.name for verdict in report.cases if not verdict.ok] == []
    assert report.ok and report.to_json()["passed"] == report.to_json()["total"]


def test_every_registered_algorithm_has_a_student_file_that_passes() -> None:
    assert {algorithm_for(function_of(path), None).name for path in CORRECT} == set(REGISTRY)


@pytest.mark.parametrize("path", PLANTED, ids=lambda path: path.stem)
def test_each_planted_bug_fails_with_its_name_and_the_first_divergent_node(path: Path) -> None:
    bug = PLANTED_BUG[path.stem.split("_")[0]]
    algorithm = algorithm_for(function_of(path), None)
    report = check_search(loaded(path), algorithm)
    failed = [verdict for verdict in report.cases if not verdict.ok]
    assert failed, "a planted bug fails at least one case"
    assert all(verdict.divergence is not None for verdict in failed)
    alone = [verdict for verdict in failed if verdict.divergence and verdict.divergence.bugs == (bug,)]
    assert alone, f"{bug} is named alone on at least one case"
    first = alone[0].to_json()
    node = first["divergence"]["node"] or "the root"
    assert node in sentence(first, algorithm.name)


def test_every_bug_of_the_table_is_planted_in_each_frame_where_it_can_happen() -> None:
    planted = {
        (PLANTED_BUG[path.stem.split("_")[0]], algorithm_for(function_of(path), None).frame)
        for path in PLANTED
    }
    for bug in BUGS:
        frames = {algorithm_named(name).frame for name in bug.algorithms}
        assert {(bug.name, frame) for frame in frames} <= planted, bug.name
    assert {name for name, _ in planted} == set(BUG_NAMES)


@pytest.mark.parametrize(
    "name", ["alphabeta", "alphabeta-hard", "negamax-alphabeta", "negamax-alphabeta-hard"]
)
def test_the_bent_alphabeta_unbent_is_the_registrys_step_for_step(name: str) -> None:
    algorithm = algorithm_named(name)
    for case in cases(3, algorithm):
        mine = reference(case, algorithm, 10**6, bent_alphabeta(algorithm)).steps
        assert mine == reference(case, algorithm, 10**6).steps, case.name


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_the_move_read_from_the_trail_is_the_registrys_move(name: str) -> None:
    algorithm = algorithm_named(name)
    for case in cases(1, algorithm):
        if case.windowed:
            continue
        result = search(case.root, name, case.depth, case.evaluation, record=False, max_side=case.max_side)
        path = derived_move(reference(case, algorithm, 10**6).steps, algorithm.frame == "negamax")
        assert path is not None and move_name(case.root, path) == result.move_name, case.name
        value = reference(case, algorithm, 10**6).steps[-1].value
        assert value == result.frame_value, case.name


def test_a_cut_with_greater_than_is_caught_where_alpha_equals_beta() -> None:
    """[[3,5],[3,9]]: a is 3, so α = 3 at the root; b1 is 3 too, and α-β cuts b off at once (3 ≤ α). A
    search testing < evaluates b2."""
    search_code = (SEARCHES / "bugs" / "strict_alphabeta.py").read_text(encoding="utf-8")
    verdict = check_case(
        load_search(search_code, "alphabeta"), tree_case("[[3,5],[3,9]]"), algorithm_named("alphabeta")
    )
    assert not verdict.ok and verdict.divergence is not None
    assert verdict.divergence.bugs == ("strict-cutoff",)
    assert (
        sentence(verdict.to_json(), "alphabeta")
        == "at b you evaluated b2, which α-β prunes (α = +3 ≥ β = +3)"
    )
    assert verdict.value == verdict.expected_value == 3  # the right value: only the leaves tell


def test_a_search_that_skips_a_leaf_is_told_which_and_with_what_window() -> None:
    """Cutting at the root's first child already (value ≥ α instead of ≥ β) skips a2."""
    code = """
def alphabeta(node, depth, alpha, beta):
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    best = None
    for child in node.children():
        value = alphabeta(child, depth - 1, alpha, beta)
        best = value if best is None else (max(best, value) if node.is_max() else min(best, value))
        if not node.is_max() and value <= 3:
            break
    return best
"""
    verdict = check_case(
        load_search(code, "alphabeta"), tree_case("[[3,12,8],[2,4,6],[14,5,2]]"), algorithm_named("alphabeta")
    )
    assert verdict.divergence is not None and verdict.divergence.kind == "skipped"
    assert sentence(verdict.to_json(), "alphabeta") == (
        "at a you never searched a2, which α-β searches with α = −∞, β = +3: nothing cuts it off"
    )


def test_a_move_returned_beside_the_value_is_compared() -> None:
    code = """
def minimax(node, depth):
    if depth == 0 or node.is_terminal():
        return node.evaluate(), None
    values = [minimax(child, depth - 1)[0] for child in node.children()]
    best = max(values) if node.is_max() else min(values)
    return best, node.children()[-1]
"""
    verdict = check_case(
        load_search(code, "minimax"), tree_case("[[3,12,8],[2,4,6],[14,5,2]]"), algorithm_named("minimax")
    )
    assert verdict.divergence is not None and verdict.divergence.kind == "move"
    assert sentence(verdict.to_json(), "minimax") == "you chose c, where minimax chooses a"


def test_seeded_random_trees_are_reproducible_and_have_ties() -> None:
    assert [case.leaves for case in cases(7)] == [case.leaves for case in cases(7)]
    assert [case.leaves for case in cases(7)] != [case.leaves for case in cases(8)]
    for seed in range(1, 30):
        text = json.dumps(random_tree(seed, 3))
        values = [int(value) for value in re.findall(r"\d+", text)]
        assert len(values) > len(set(values)), "equal values on purpose"
    shapes = [(case.kind, case.depth) for case in cases(1) if case.kind == "random"]
    assert {depth for _, depth in shapes} == {2, 3, 4}


def test_the_cases_cover_trees_random_trees_and_boards_from_either_side() -> None:
    alphabeta, negamax = algorithm_named("alphabeta"), algorithm_named("negamax")
    found = cases(1, alphabeta)
    assert {case.kind for case in found} == {"tree", "random", "board"}
    boards = [case for case in found if case.kind == "board"]
    assert {case.depth for case in boards} == {1, 2, 3, 4}
    assert {case.root.turn for case in boards} == {"x", "o"}
    assert any(case.max_side != case.root.turn for case in boards)
    assert not any(case.max_side != case.root.turn for case in cases(1, negamax))
    assert not any(case.windowed for case in cases(1, negamax))


def test_every_bug_applies_only_where_it_can_happen() -> None:
    assert "negamax-sign" not in {bug.name for bug in bugs_for(algorithm_named("alphabeta"))}
    assert "same-player" not in {bug.name for bug in bugs_for(algorithm_named("negamax-alphabeta"))}
    assert "returns-alpha" not in {bug.name for bug in bugs_for(algorithm_named("alphabeta-hard"))}


def test_a_search_returning_a_string_is_refused_naming_the_node_and_the_case() -> None:
    code = "def minimax(node, depth):\n    return 'b2'\n"
    with pytest.raises(SearchCodeError) as caught:
        check_search(load_search(code, "minimax"), algorithm_named("minimax"))
    error = caught.value
    assert error.kind == "returned"
    fields = {**error.fields, "kind": error.kind}
    assert say("search_error", fields) == (
        "the search 'minimax' returned 'b2' at the root in the case russell-norvig: expected a number, or a pair "
        "of a number and a move"
    )


def test_a_search_that_raises_is_refused_with_its_error_line_and_node() -> None:
    code = "def minimax(node, depth):\n    if node.move == 'b':\n        return 1 / 0\n    return 0 if depth == 0 else minimax(node.children()[0], depth - 1) + sum(minimax(c, depth - 1) for c in node.children()[1:])\n"
    with pytest.raises(SearchCodeError) as caught:
        check_search(load_search(code, "minimax"), algorithm_named("minimax"))
    fields = {**caught.value.fields, "kind": caught.value.kind}
    assert say("search_error", fields) == (
        "the search 'minimax' raised ZeroDivisionError: division by zero at line 3, at b in the case russell-norvig"
    )


@pytest.mark.parametrize(
    ("code", "function", "kind", "said"),
    [
        (
            "def f(:\n",
            "alphabeta",
            "load",
            "the search's code failed to run: SyntaxError: invalid syntax at line 1",
        ),
        (
            "x = 1 / 0\n",
            "alphabeta",
            "load",
            "the search's code failed to run: ZeroDivisionError: division by zero at line 1",
        ),
        (
            "def other(node):\n    return 0\n",
            "alphabeta",
            "no-function",
            "the code defines no function 'alphabeta': it defines other",
        ),
    ],
)
def test_code_that_cannot_be_loaded_is_refused_saying_why(
    code: str, function: str, kind: str, said: str
) -> None:
    with pytest.raises(SearchCodeError) as caught:
        load_search(code, function)
    assert caught.value.kind == kind
    assert say("search_error", {**caught.value.fields, "kind": kind}) == said


def test_a_search_taking_the_wrong_arguments_is_refused() -> None:
    with pytest.raises(SearchCodeError) as caught:
        check_search(
            load_search("def alphabeta(node, depth):\n    return 0\n", "alphabeta"),
            algorithm_named("alphabeta"),
        )
    assert say("search_error", {**caught.value.fields, "kind": caught.value.kind}) == (
        "the search 'alphabeta' must take (node, depth, alpha, beta)"
    )


def test_the_algorithm_is_read_from_the_function_name_or_refused() -> None:
    assert algorithm_for("negamax_alphabeta", None).name == "negamax-alphabeta"
    assert algorithm_for("search", "alphabeta-hard").name == "alphabeta-hard"
    with pytest.raises(Exception, match="not named after an algorithm"):
        algorithm_for("search", None)


def test_listing_the_children_of_a_leaf_and_evaluating_twice_cost_nothing() -> None:
    """A search that asks every node for its children first, and evaluates a leaf twice, does what α-β does."""
    code = """
import math
def alphabeta(node, depth, alpha, beta):
    kids = node.children()
    if depth == 0 or not kids:
        node.evaluate()
        return node.evaluate()
    value = -math.inf if node.is_max() else math.inf
    for child in kids:
        found = alphabeta(child, depth - 1, alpha, beta)
        if node.is_max():
            value = max(value, found)
            if value >= beta:
                break
            alpha = max(alpha, value)
        else:
            value = min(value, found)
            if value <= alpha:
                break
            beta = min(beta, value)
    return value
"""
    report = check_search(load_search(code, "alphabeta"), algorithm_named("alphabeta"))
    assert report.ok


def test_a_node_shows_the_interface_the_docs_promise() -> None:
    seen: dict[str, object] = {}
    code = """
def minimax(node, depth):
    if node.move is None:
        SEEN.update(turn=node.turn, max=node.is_max(), kids=[c.move for c in node.children()], text=repr(node))
    if depth == 0 or node.is_terminal():
        return node.evaluate()
    values = [minimax(c, depth - 1) for c in node.children()]
    return max(values) if node.is_max() else min(values)
"""
    student = load_search(code, "minimax")
    student.namespace["SEEN"] = seen
    check_case(student, tree_case("[[3,12,8],[2,4,6],[14,5,2]]"), algorithm_named("minimax"))
    assert seen == {"turn": "x", "max": True, "kids": ["a", "b", "c"], "text": "Node(root)"}


def test_the_words_of_each_bug_are_the_tables_own() -> None:
    assert {bug.name: bug.title for bug in BUGS} == TERMS["search_bugs"]
    assert {bug.name: bug.meaning for bug in BUGS} == TERMS["search_bug_meanings"]


def test_the_browsers_check_answers_the_verdicts_and_the_first_failing_cases_tree() -> None:
    from inarow.web import browser

    source = (SEARCHES / "bugs" / "strict_alphabeta.py").read_text(encoding="utf-8")
    seen: list[str] = []
    request = {"op": "check", "args": ["alphabeta", 1], "source": source, "function": "alphabeta"}
    answer = json.loads(browser.call(json.dumps(request), lambda index, name: seen.append(name)))
    assert answer["ok"]
    value = answer["value"]
    assert seen == [case["name"] for case in value["cases"]] and value["windowed"] is True
    failed = next(case for case in value["cases"] if not case["ok"])
    paths = {node["move"] for node in value["tree"]["nodes"]} | {
        spot["move"] for spot in value["tree"]["pruned_spots"]
    }
    assert failed["divergence"]["node"] in paths and failed["divergence"]["leaf"] in paths
    passing = {**request, "source": (SEARCHES / "alphabeta.py").read_text(encoding="utf-8")}
    assert json.loads(browser.call(json.dumps(passing)))["value"]["tree"] is None
    broken = {**request, "source": "def alphabeta(node, depth, alpha, beta):\n    return None\n"}
    error = json.loads(browser.call(json.dumps(broken)))["value"]["error"]
    assert say("search_error", error) == (
        "the search 'alphabeta' returned None at the root in the case russell-norvig: expected a number, or a "
        "pair of a number and a move"
    )
    skeleton = json.loads(browser.call(json.dumps({"op": "skeleton", "args": ["zh-CN"]})))["value"]
    assert skeleton.startswith('"""我自己的 α-β')


def test_a_windowed_case_is_drawn_searched_from_its_window() -> None:
    from inarow.teaching.checking.shown import case_tree

    algorithm = algorithm_named("alphabeta")
    case = next(case for case in cases(1, algorithm) if case.name == "russell-norvig-window")
    tree = case_tree(case, algorithm)
    assert (tree["nodes"][0]["alpha"], tree["nodes"][0]["beta"]) == (2, 5)
    assert tree["nodes_visited"] == sum(
        step.kind == "enter" for step in reference(case, algorithm, 10**6).steps
    )
