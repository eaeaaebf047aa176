"""The MkDocs hook that writes inarow's own answers into the docs at build time, so no figure is pasted.

A page asks for them in fenced blocks, which the hook replaces before Markdown sees the page:

- ```` ```inarow ````: one ``inarow …`` command a line; each is run and shown with what it printed.
- ```` ```inarow-svg ````: one command printing an SVG (``--format svg``); the drawing goes inline.
- ```` ```inarow-table ````: a command printing JSON, then ``Header: path`` lines (``rows.*.nodes``: one
  table row per item of ``rows``); the table is filled from the JSON.
- ```` ```inarow-reference ````: the ``--help`` of every command of the typer app (``zh`` after it: in
  Chinese), the CLI reference.

and inline, ``{{inarow COMMAND -> path}}`` is one value of a command's JSON. ``tests/test_docs.py`` runs
every command of every page with :func:`commands` and :func:`run`, the same functions the build uses.
Commands run in a scratch folder holding ``mine.py``, the textbook e(P) the lab guide has students write,
and ``alphabeta.py``, the skeleton of part two's own α-β (``inarow example alphabeta-skeleton``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import shlex
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
MINE = ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py"

BLOCK = re.compile(
    r"^(?P<indent>[ \t]*)```inarow(?:-(?P<kind>svg|table|reference))?(?P<args>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.M | re.S,
)
INLINE = re.compile(r"\{\{(?P<command>inarow .+?) -> (?P<path>[\w.*-]+)\}\}")


class DocsCommandError(RuntimeError):
    """A command of the docs that failed: the build stops, naming it."""


@functools.cache
def _workdir() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="inarow-docs-"))
    (folder / "mine.py").write_text(MINE.read_text(encoding="utf-8"), encoding="utf-8")
    from inarow.teaching.checking.skeleton import SKELETON_EN

    (folder / "alphabeta.py").write_text(SKELETON_EN, encoding="utf-8")
    return folder


@functools.cache
def run(command: str) -> str:
    """What ``command`` (``inarow …``, as a shell would split it) prints, run in-process; raises
    :class:`DocsCommandError` when it exits other than 0 (or 1 for ``inarow check``, whose 1 is an answer:
    a case is not exact)."""
    from typer.testing import CliRunner

    from inarow.base import i18n
    from inarow.cli import app

    words = shlex.split(command)
    if not words or words[0] != "inarow":
        raise DocsCommandError(f"not an inarow command: {command!r}")
    with contextlib.chdir(_workdir()), i18n.language("en"):  # a --lang of the command ends with it
        result = CliRunner(env={"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "COLUMNS": "100"}).invoke(
            app, words[1:]
        )
    if result.exit_code != 0 and not ("check" in words and result.exit_code == 1):
        raise DocsCommandError(f"{command!r} exited {result.exit_code}: {result.output}{result.exception!r}")
    return result.output


def _lines(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def commands(markdown: str) -> Iterator[str]:
    """Every command a page runs, in page order."""
    for block in BLOCK.finditer(markdown):
        kind, lines = block["kind"], _lines(block["body"])
        if kind == "reference":
            continue
        yield from (lines if kind is None else lines[:1])
    for inline in INLINE.finditer(markdown):
        yield inline["command"]


def field(data: Any, path: str) -> list[Any]:
    """The values at ``path`` (dotted; ``*`` is every item of a list) in parsed JSON."""
    values = [data]
    for key in path.split("."):
        step: list[Any] = []
        for value in values:
            if key == "*":
                step.extend(value)
            elif isinstance(value, list):
                step.append(value[int(key)])
            else:
                step.append(value[key])
        values = step
    return values


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, list):
        return " ".join(map(str, value))
    return "" if value is None else str(value)


def table(command: str, columns: list[tuple[str, str]]) -> str:
    """A Markdown table of the JSON ``command`` prints, a column per ``(header, path)``."""
    data = json.loads(run(command))
    cells = [[_cell(value) for value in field(data, path)] for _, path in columns]
    rows = max(len(column) for column in cells)
    lines = ["| " + " | ".join(header for header, _ in columns) + " |", "|" + "---|" * len(columns)]
    for index in range(rows):
        lines.append("| " + " | ".join(c[index] if len(c) > 1 else c[0] for c in cells) + " |")
    return "\n".join(lines)


def reference(language: str) -> str:
    """The CLI reference: the help of ``inarow`` and of each command, in ``language``."""
    import typer.main

    from inarow.cli import app

    lang = ["--lang", language] if language else []
    group = typer.main.get_command(app)
    parts = ["```text", run(shlex.join(["inarow", *lang, "--help"])).rstrip(), "```"]
    for name in group.commands:  # type: ignore[attr-defined]
        help_text = run(shlex.join(["inarow", *lang, name, "--help"])).rstrip()
        parts += ["", f"### `inarow {name}`", "", "```text", help_text, "```"]
    return "\n".join(parts)


def _replace(block: re.Match[str]) -> str:
    """The block's output, indented as the block was (inside an admonition, say)."""
    text = _output(block)
    return "\n".join(block["indent"] + line if line else line for line in text.splitlines())


def _output(block: re.Match[str]) -> str:
    kind, lines = block["kind"], _lines(block["body"])
    if kind == "svg":
        svg = "\n".join(line for line in run(lines[0]).splitlines() if line.strip())
        return f'<div class="inarow-figure" markdown="0">\n{svg}\n</div>\n'
    if kind == "table":
        columns = [tuple(part.strip() for part in line.rsplit(":", 1)) for line in lines[1:]]
        return "```text\n$ " + lines[0] + "\n```\n\n" + table(lines[0], columns) + "\n"  # type: ignore[arg-type]
    if kind == "reference":
        return reference(block["args"].strip())
    shown = []
    for command in lines:
        shown += ["$ " + command, run(command).rstrip()]
    return "```text\n" + "\n".join(shown) + "\n```"


def _inline(found: re.Match[str]) -> str:
    return " ".join(_cell(value) for value in field(json.loads(run(found["command"])), found["path"]))


def render(markdown: str) -> str:
    """The page with every inarow block and value replaced by what inarow prints."""
    return INLINE.sub(_inline, BLOCK.sub(_replace, markdown))


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs: run the page's commands."""
    return render(markdown)
