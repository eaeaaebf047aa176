"""The verb that checks a student's own search: ``inarow check --search mine.py:alphabeta``."""

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from inarow.base.errors import InarowError
from inarow.base.i18n import N_, _, listed
from inarow.cli.app import Verb, app
from inarow.cli.output import err, say_line

if TYPE_CHECKING:
    from inarow.engines.textbook import Algorithm


class SearchSpecError(InarowError):
    """A ``--search`` that does not name a function of a Python file that can be read."""


def _said(sentence: str, fields: dict[str, Any]) -> str:
    from inarow.words.sentences import say

    return say(sentence, fields)


def bug_lines(bugs: list[str]) -> list[str]:
    """The classic bugs a divergence names, each with what it means."""
    from inarow.words.sentences import TERMS

    if not bugs:
        return []
    titles = [_(TERMS["search_bugs"][name]) for name in bugs]
    lines = [
        _("the trail is the one this classic bug leaves: {bugs}").format(bugs=listed(titles))
        if len(bugs) == 1
        else _("the trail is the one each of these classic bugs leaves: {bugs}").format(bugs=listed(titles))
    ]
    meanings = TERMS["search_bug_meanings"]
    lines.extend(f"  {title}: {_(meanings[name])}" for name, title in zip(bugs, titles, strict=True))
    return lines


def report_lines(report: dict[str, Any], search: str, algorithm: "Algorithm") -> list[str]:
    """``check``'s report for people: a heading, then one line a case, each failed one with its first
    divergence and the bugs it names."""
    from inarow.words.sentences import TERMS

    title = _(TERMS["searches"].get(algorithm.name, algorithm.name))
    lines = [
        _("{search} against inarow's {algorithm}, seed {seed}: {passed} of {total} cases exact").format(
            search=search,
            algorithm=title,
            seed=report["seed"],
            passed=report["passed"],
            total=report["total"],
        )
    ]
    width = max(len(case["name"]) for case in report["cases"])
    for case in report["cases"]:
        mark = "✓" if case["ok"] else "✗"
        lines.append(f"{mark} {case['name']:<{width}}  {_said('search_case', case)}")
        divergence = case["divergence"]
        if divergence is None:
            continue
        fields = {**divergence, "algorithm": algorithm.name, "windowed": algorithm.windowed}
        lines.append("    " + _said("search_divergence", fields))
        lines.extend("    " + line for line in bug_lines(divergence["bugs"]))
    return lines


def _spec(text: str) -> tuple[Path, str]:
    path_text, colon, name = text.strip().rpartition(":")
    if not colon or not path_text.endswith(".py") or not name.isidentifier():
        raise SearchSpecError(
            N_("invalid search {text!r}: expected a Python file and a function, PATH.py:FUNCTION"), text=text
        )
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise SearchSpecError(N_("cannot read the search file {path!r}: no such file"), path=path_text)
    return path, name


@app.command(
    "check",
    cls=Verb,
    help=N_(
        "Check your own minimax or α-β node by node against inarow's: the value, the move, the leaves it "
        "evaluates in order and the nodes it searches, on textbook trees, seeded random trees and 一字棋 "
        "(tic-tac-toe) positions.\n\n"
        "Your function takes (node, depth) or (node, depth, alpha, beta) and returns the node's value "
        "(inarow example alphabeta-skeleton prints a file to start from). It runs in a process of its own. "
        "Exit status: 0 when every case is exact, 1 when one is not, 2 when the search cannot be checked."
    ),
)
def check_command(
    search: Annotated[
        str,
        typer.Option(
            "--search",
            "-s",
            metavar="PATH.py:FUNCTION",
            help=N_("Your search: a function of a Python file, e.g. mine.py:alphabeta."),
        ),
    ],
    algo: Annotated[
        str | None,
        typer.Option(
            "--algo",
            "-a",
            metavar="ALGORITHM",
            help=N_(
                "The algorithm yours is: minimax, negamax, alphabeta (fail-soft), alphabeta-hard, "
                "negamax-alphabeta, negamax-alphabeta-hard or pvs (default: the function's name)."
            ),
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help=N_("Seed of the random trees."))] = 1,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The verdicts as JSON."))] = False,
) -> None:
    from inarow.teaching.checking.child import SearchFileError, check_file
    from inarow.teaching.checking.verdict import algorithm_for

    path, name = _spec(search)
    algorithm = algorithm_for(name, algo)
    try:
        checked = check_file(str(path.resolve()), name, algorithm, seed)
    except SearchFileError as error:
        fields: dict[str, Any] = {"node": "", **error.fields, "kind": error.kind}
        if error.kind != "no-function" and fields.get("function", name) == name:
            fields["function"] = search  # the search as it was named: mine.py:alphabeta
        err.print(_("error: {message}").format(message=_said("search_error", fields)), markup=False)
        raise typer.Exit(2) from None
    for text in checked.printed:
        for line in text.splitlines():
            err.print(_("{name} printed: {line}").format(name=name, line=line), markup=False)
    verdicts = list(checked.verdicts)
    passed = sum(case["ok"] for case in verdicts)
    report = {
        "search": search,
        "algorithm": algorithm.name,
        "seed": seed,
        "ok": passed == len(verdicts),
        "passed": passed,
        "total": len(verdicts),
        "cases": verdicts,
    }
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
    else:
        for line in report_lines(report, search, algorithm):
            say_line(line)
    if not report["ok"]:
        raise typer.Exit(1)
