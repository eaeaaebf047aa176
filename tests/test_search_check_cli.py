"""``inarow check``: a student's search file checked in a process of its own, the verdicts as text and as
JSON, the exit status (0 every case exact, 1 one not, 2 a search that cannot be checked: it loops, raises or
returns a string, each said in one line), and ``inarow example alphabeta-skeleton`` in both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from inarow.cli import app
from inarow.teaching.checking import child
from inarow.teaching.checking.skeleton import SKELETONS

SEARCHES = Path(__file__).parent / "data" / "searches"
runner = CliRunner()


def check(*arguments: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *arguments])
    return result.exit_code, result.stdout, result.stderr


def test_a_correct_search_passes_every_case_and_exits_0() -> None:
    code, out, _ = check("--search", f"{SEARCHES / 'alphabeta.py'}:alphabeta", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["ok"] and report["algorithm"] == "alphabeta" and len(report["cases"]) >= 10
    assert all(case["ok"] and case["divergence"] is None for case in report["cases"])
    assert {"name", "ok", "divergence"} <= set(report["cases"][0])


def test_a_planted_bug_fails_with_its_divergence_and_exits_1() -> None:
    path = SEARCHES / "bugs" / "strict_alphabeta.py"
    code, out, _ = check("--search", f"{path}:alphabeta", "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]
    failed = [case for case in report["cases"] if not case["ok"]]
    assert failed and all(case["divergence"]["kind"] for case in failed)
    first = failed[0]
    assert first["name"] == "random-2"
    assert first["divergence"] | {"step": 0} == first["divergence"] | {
        "kind": "pruned",
        "node": "c",
        "leaf": "c2",
        "alpha": 8,
        "beta": 8,
        "bugs": ["strict-cutoff"],
        "step": 0,
    }


def test_the_text_names_the_first_divergent_node_and_the_bug_in_either_language() -> None:
    path = SEARCHES / "bugs" / "strict_alphabeta.py"
    code, out, _ = check("--search", f"{path}:alphabeta")
    assert code == 1
    assert "at c you searched c2, which α-β prunes (α = +8 ≥ β = +8)" in out
    assert "cut with > instead of ≥" in out
    result = runner.invoke(app, ["--lang", "zh", "check", "--search", f"{path}:alphabeta"])
    assert "在 c 处你搜索了 c2，而 α-β 会剪掉它（α = +8 ≥ β = +8）" in result.stdout
    assert "剪枝条件写成了 > 而不是 ≥" in result.stdout


def test_the_algorithm_and_the_seed_can_be_given() -> None:
    path = SEARCHES / "alphabeta_hard.py"
    code, out, _ = check("--search", f"{path}:max_value", "--algo", "alphabeta-hard", "--seed", "5", "--json")
    report = json.loads(out)
    assert report["algorithm"] == "alphabeta-hard" and report["seed"] == 5
    random_trees = [case["leaves"] for case in report["cases"] if case["kind"] == "random"]
    _, again, _ = check("--search", f"{path}:max_value", "--algo", "alphabeta-hard", "--seed", "6", "--json")
    assert random_trees != [case["leaves"] for case in json.loads(again)["cases"] if case["kind"] == "random"]
    assert code in (0, 1)


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "def alphabeta(node, depth, alpha, beta):\n    return 'b2'\n",
            "returned 'b2' at the root in the case russell-norvig: expected a number",
        ),
        (
            "def alphabeta(node, depth, alpha, beta):\n    return [][0]\n",
            "raised IndexError: list index out of range at line 2, at the root in the case russell-norvig",
        ),
        ("import sys\nsys.exit(3)\n", "the search's code failed to run: SystemExit: 3 at line 2"),
        ("def other(node):\n    return 0\n", "the code defines no function 'alphabeta': it defines other"),
        ("def alphabeta(node, depth):\n    return 0\n", "must take (node, depth, alpha, beta)"),
    ],
)
def test_a_search_that_cannot_be_checked_gets_one_line_and_exits_2(
    tmp_path: Path, source: str, said: str
) -> None:
    path = tmp_path / "mine.py"
    path.write_text(source, encoding="utf-8")
    code, out, error = check("--search", f"{path}:alphabeta")
    assert code == 2 and out == ""
    assert error.startswith("error: ") and said in error and error.count("\n") == 1


@pytest.mark.slow
def test_a_search_that_loops_is_stopped_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(child, "CASE_SECONDS", 1.0)
    path = tmp_path / "mine.py"
    path.write_text(
        "def alphabeta(node, depth, alpha, beta):\n    while True:\n        pass\n", encoding="utf-8"
    )
    code, out, error = check("--search", f"{path}:alphabeta")
    assert code == 2 and out == ""
    assert error == (
        f"error: the search '{path}:alphabeta' ran longer than 1 s in the case russell-norvig: it was stopped\n"
    )


@pytest.mark.parametrize("spec", ["mine.txt:alphabeta", "mine.py", "missing.py:alphabeta"])
def test_a_search_spec_that_names_no_file_and_function_is_refused(spec: str) -> None:
    code, _, error = check("--search", spec)
    assert code == 2 and error.startswith("error: ") and spec.partition(":")[0] in error


def test_what_the_search_prints_goes_to_standard_error_marked(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    source = (SEARCHES / "minimax.py").read_text(encoding="utf-8") + "\nprint('loaded')\n"
    path.write_text(source, encoding="utf-8")
    code, out, error = check("--search", f"{path}:minimax")
    assert code == 0 and "minimax printed: loaded" in error and "loaded" not in out


@pytest.mark.parametrize(("lang", "language"), [("en", "en"), ("zh", "zh")])
def test_the_skeleton_is_printed_in_the_language_asked_for(lang: str, language: str) -> None:
    result = runner.invoke(app, ["example", "alphabeta-skeleton", "--lang", lang])
    assert result.exit_code == 0 and result.stdout == SKELETONS[language]
    assert runner.invoke(app, ["--lang", lang, "example", "alphabeta-skeleton"]).stdout == SKELETONS[language]


def test_the_skeleton_runs_and_is_checked_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(SKELETONS["zh"], encoding="utf-8")
    code, out, _ = check("--search", f"{path}:alphabeta", "--json")
    report = json.loads(out)
    assert code == 1 and report["total"] >= 10
    assert all(
        case["divergence"]["kind"] in ("window", "pruned") for case in report["cases"] if not case["ok"]
    )
