"""The README's and the docs' examples are run as written, so they stay true: every command of an
``inarow`` block of ``docs/`` runs (the same function writes its output into the page when the site is
built), and every other ``inarow`` command line of the README and the docs parses."""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from inarow.base import i18n
from inarow.cli import app

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
PAGES = sorted((ROOT / "docs").glob("*.md"))
EXAMPLE = ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("inarow_docs", ROOT / "docs" / "hooks" / "inarow_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["inarow_docs"] = module
    spec.loader.exec_module(module)
    return module


HOOK = _hook()


def test_the_python_example_runs_and_prints_what_its_comments_say(
    capsys: pytest.CaptureFixture[str],
) -> None:
    (code,) = [
        block for block in re.findall(r"```python\n(.*?)```", README, re.S) if "inarow.analyze" in block
    ]
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("draw with best play ('a3', 'c1') ('a3',")
    assert "a2 loss in 2 -2" in printed
    assert printed.rstrip().endswith("False ('h8',)")


def test_the_commented_best_moves_of_the_command_line_examples_are_what_inarow_prints() -> None:
    examples = re.findall(r'^inarow best "([^"]*)"\s+# (.*)$', README, re.M)
    assert len(examples) == 2
    for position, said in examples:
        assert CliRunner().invoke(app, ["best", position]).output == said + "\n", position


def test_the_readmes_student_e_p_is_the_example_file_and_the_textbook_weights(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from inarow import parse_position
    from inarow.evaluation.lines import evaluation_named, static_value
    from inarow.evaluation.student import code_evaluation_from_source

    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    (student,) = [block for block in blocks if block.startswith("def e(board):")]
    example = EXAMPLE.read_text()
    assert student.split('"""', 2)[2].strip() in example
    pasted = code_evaluation_from_source(student)
    textbook = evaluation_named("weights:1,1,1,inf")
    for moves in ("", "b2", "b2 a1", "b2 a1 c3 a3", "a1 b2 c3 b1 b3"):
        position = parse_position(moves)
        assert static_value(position, "x", pasted) == static_value(position, "x", textbook), moves
    (api,) = [block for block in blocks if "from inarow.engines.textbook import search" in block]
    exec(compile("import inarow\n" + api, "README.md", "exec"), {})
    assert capsys.readouterr().out == "b2 1.0\n"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_command_of_a_docs_page_runs_and_exits_0(page: Path) -> None:
    for command in HOOK.commands(page.read_text(encoding="utf-8")):
        assert HOOK.run(command) is not None, command


def test_the_lab_guide_runs_at_least_ten_commands_in_each_language() -> None:
    for name in ("lab.md", "lab.zh.md"):
        assert len(list(HOOK.commands((ROOT / "docs" / name).read_text(encoding="utf-8")))) >= 10, name


def test_a_block_of_the_lab_guide_becomes_the_commands_and_what_they_print() -> None:
    page = HOOK.render('```inarow\ninarow best "b2 a2"\n```\n')
    assert page == '```text\n$ inarow best "b2 a2"\nb1 — wins in 3 moves with best play\n```\n'
    value = HOOK.render('{{inarow tree "" --depth 2 --format json -> nodes_visited}} nodes')
    assert value == "36 nodes"


def test_a_table_block_is_filled_from_the_json() -> None:
    page = HOOK.render(
        '```inarow-table\ninarow compare "" --depth 2 --json\nname: rows.*.name\nnodes: rows.*.nodes\n```\n'
    )
    assert "| minimax | 82 |" in page
    assert "| alphabeta | 36 |" in page


def test_a_failing_docs_command_stops_the_build_naming_it() -> None:
    with pytest.raises(HOOK.DocsCommandError, match="illegal move"):
        HOOK.run('inarow best "b2 b2"')


def _command_lines(text: str) -> list[str]:
    """The ``inarow`` lines of the code blocks (``$ `` prompts and ``#`` comments dropped), except
    elided ones (``…``, redirections)."""
    lines, fence = [], None
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fence = stripped[3:] if fence is None else None
            continue
        if fence in ("", "sh", "text", "bash", "inarow"):
            line = stripped.removeprefix("$ ")
            if line.startswith("inarow ") and not any(mark in line for mark in ("…", "<", ">", "--help")):
                lines.append(line.split("  #", 1)[0].strip())
    return lines


def _rest(context: Any) -> list[str]:
    """The words a group's context left for its command (click keeps the first apart)."""
    return [*getattr(context, "_protected_args", []), *context.args]


@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda path: path.name)
def test_every_inarow_command_line_of_the_readme_and_the_docs_parses(path: Path) -> None:
    group: Any = typer.main.get_command(app)
    for line in _command_lines(path.read_text(encoding="utf-8")):
        args = shlex.split(line)[1:]
        with (
            i18n.language(i18n.current()),  # parsing --lang sets the language: the tests after keep theirs
            group.make_context("inarow", list(args), resilient_parsing=False) as context,
        ):
            name, command, rest = group.resolve_command(context, _rest(context))
            assert command is not None, line
            while hasattr(command, "resolve_command"):
                sub = command.make_context(name, rest, parent=context)
                name, command, rest = command.resolve_command(sub, _rest(sub))
            command.make_context(name, rest, parent=context)


def test_inarow_example_prints_the_shipped_textbook_eval() -> None:
    result = CliRunner().invoke(app, ["example", "textbook-eval"])
    assert result.exit_code == 0
    assert result.output == EXAMPLE.read_text()


def test_inarow_example_of_an_unknown_name_says_which_exist_and_exits_2() -> None:
    result = CliRunner().invoke(app, ["example", "mine"])
    assert result.exit_code == 2
    assert "error: unknown example 'mine': expected one of textbook-eval" in result.output


def test_the_readme_is_read_in_five_minutes() -> None:
    assert len(README.splitlines()) <= 200


def test_every_image_and_page_a_built_help_page_links_to_is_there() -> None:
    """The site as ``scripts/test.sh`` builds it (before the tests): a Chinese page's image once pointed
    into ``zh/``, where the build had not put it."""
    from inarow.web.routes.pages import HELP

    pages = sorted(HELP.rglob("*.html"))
    if not pages:
        pytest.skip("the docs site is not built (scripts/test.sh builds it before the tests)")
    missing = []
    for page in pages:
        html = page.read_text()
        images = re.findall(r'<img[^>]* src="([^"]+)"', html)
        for link in images + re.findall(r' href="([^"#:?]+\.html)', html):
            # the 404 page links from the site's root, where the app serves it: /help/
            target = HELP / link.removeprefix("/help/") if link.startswith("/") else page.parent / link
            if not target.resolve().is_file():
                missing.append(f"{page.relative_to(HELP)}: {link}")
    assert missing == []
