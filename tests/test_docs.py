"""The README's and the docs' examples are run as written, so they stay true: every page is what
``docs/hooks/inarow_docs.py`` writes (each command's output under it, compared with what inarow prints now),
every other ``inarow`` line of the README and the docs that ends on its own runs, the rest (a game at the
terminal, a server, a long build) parses, and every Python block runs alone."""

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
    exec(compile(api, "README.md", "exec"), {})
    assert capsys.readouterr().out == "b2 1.0\n"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_output_a_page_shows_is_what_its_command_prints_now(page: Path) -> None:
    text, drawings = HOOK.written(page)
    assert text == page.read_text(encoding="utf-8"), (
        f"stale: run python docs/hooks/inarow_docs.py {page.name}"
    )
    for name, drawing in drawings.items():
        assert (ROOT / "docs" / name).read_text(encoding="utf-8") == drawing, name


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_page_shows_a_raw_template_or_an_empty_command_block(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert HOOK.RAW.search(text) is None, f"run python docs/hooks/inarow_docs.py {page.name}"
    for block in HOOK.CONSOLE.finditer(HOOK.TABLE.sub("", text)):
        outputs = HOOK._outputs(block["body"])
        assert outputs, block[0]
        for command, shown in outputs:
            assert shown.strip() or HOOK.Command.parse(command).into, f"{page.name}: {command} shows nothing"


def test_a_value_shown_is_compared_with_its_times_taken_aside() -> None:
    assert HOOK.same("nodes   32 positions in 0.001 s", "nodes   32 positions in 0.013 s")
    assert HOOK.same('{"seconds": 0.5, "nodes": 3}', '{"seconds": 0.25, "nodes": 3}')
    assert not HOOK.same("nodes   32 positions in 0.001 s", "nodes   33 positions in 0.001 s")


def test_the_lab_guide_runs_at_least_ten_commands_in_each_language() -> None:
    for name in ("lab.md", "lab.zh.md"):
        assert len(list(HOOK.commands((ROOT / "docs" / name).read_text(encoding="utf-8")))) >= 10, name


def test_a_block_in_the_older_form_becomes_the_commands_and_what_they_print() -> None:
    page = HOOK.fill(HOOK.upgrade('```inarow\ninarow best "b2 a2"\n```\n', "page"))
    assert page == '```console\n$ inarow best "b2 a2"\nb1 — wins in 3 moves with best play\n```\n'
    assert HOOK.fill(page) == page
    value = HOOK.fill(
        HOOK.upgrade('{{inarow tree "" --depth 2 --format json -> nodes_visited}} nodes', "page")
    )
    assert value == '36<!-- inarow: inarow tree "" --depth 2 --format json -> nodes_visited --> nodes'
    assert HOOK.fill(value.replace("36<", "35<")) == value


def test_an_answer_becomes_a_details_block_that_a_code_host_folds_too() -> None:
    page = HOOK.upgrade(
        '??? note "Answer"\n    ```inarow\n    inarow best "b2 a2"\n    ```\n\nNext.\n', "page"
    )
    assert page.startswith('<details class="note" markdown="1">\n<summary>Answer</summary>\n\n```console\n')
    assert page.endswith("</details>\n\nNext.\n")


def test_a_table_block_is_filled_from_the_json() -> None:
    page = HOOK.fill(
        HOOK.upgrade(
            '```inarow-table\ninarow compare "" --depth 2 --json\nname: rows.*.name\nnodes: rows.*.nodes\n```\n\nNext.\n',
            "page",
        )
    )
    assert "| minimax | 82 |" in page
    assert "| alphabeta | 36 |" in page
    assert HOOK.fill(page) == page and page.endswith("|\n\nNext.\n")


def test_a_failing_docs_command_stops_the_build_naming_it() -> None:
    with pytest.raises(HOOK.DocsCommandError, match="illegal move"):
        HOOK.run('inarow best "b2 b2"')


def _command_lines(text: str) -> list[str]:
    """The ``inarow`` lines of the code blocks (``$ `` prompts, ``NAME=value`` settings before the command
    and ``#`` comments dropped), except redirected ones (``> FILE``: the console blocks run those)."""
    lines, fence = [], None
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fence = stripped[3:] if fence is None else None
            continue
        if fence in ("", "sh", "text", "bash") or (fence == "console" and stripped.startswith("$ ")):
            line = re.sub(r"^(?:[A-Z][A-Z0-9_]*=\S+\s+)+", "", stripped.removeprefix("$ "))
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


ENDLESS = {
    "play": "a game at the terminal, waiting for the player's moves",
    "serve": "the web server, running until stopped (tests/web/test_server.py starts it)",
    "gomocup": "an engine on stdin and stdout for a tournament manager (tests/test_gomocup.py drives it)",
    "warm-up": "compiles every engine, minutes (tests/test_compiled.py compiles them)",
    "book build": "builds a book, minutes to hours (tests/test_book.py builds small ones)",
    "book import": "imports the 12-ply book, seconds to minutes (tests/test_book.py imports it)",
    "book verify": "solves a thousand positions again, minutes (tests/test_book.py verifies a sample)",
}
"""The command lines of the docs that are parsed but not run by the tests: they do not end on their own, or
take minutes; other tests run each of these commands."""


def _reference_lines(text: str) -> list[str]:
    """The ``inarow`` lines of a page's plain and ``sh`` blocks (its console blocks are checked whole)."""
    lines, fence = [], None
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("```"):
            fence = stripped[3:] if fence is None else None
            continue
        if fence in ("", "sh", "bash") and stripped.startswith("inarow "):
            lines.append(stripped)
    return lines


def _verb(line: str) -> str:
    words = shlex.split(line, comments=True)[1:]
    while words and words[0] in ("--lang", "--memory"):
        words = words[2:]
    return " ".join(words[:2]) if words[:1] == ["book"] else words[0]


@pytest.mark.slow
@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda path: path.name)
def test_every_command_line_of_the_readme_and_the_docs_that_ends_on_its_own_runs_as_written(
    path: Path,
) -> None:
    failed, unmade = [], set()
    for line in _reference_lines(path.read_text(encoding="utf-8")):
        words = shlex.split(line, comments=True)
        if _verb(line) in ENDLESS:  # and the files it would write: the lines that read them are not run
            unmade |= {words[i + 1] for i, word in enumerate(words[:-1]) if word in ("--out", "-o")}
            continue
        if unmade & set(words):
            continue
        try:
            HOOK.run(line)
        except HOOK.DocsCommandError as error:
            failed.append(str(error))
    assert failed == []


@pytest.mark.slow
@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda path: path.name)
def test_every_python_block_of_the_readme_and_the_docs_runs_alone(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(HOOK._workdir())
    for index, code in enumerate(
        re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M)
    ):
        exec(compile(code, f"{path.name}, Python block {index + 1}", "exec"), {"__name__": "__docs__"})
    capsys.readouterr()


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
