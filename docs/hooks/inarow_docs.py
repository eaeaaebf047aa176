"""inarow's own answers written into the docs' Markdown, so that a page reads whole wherever it is read (a
code host, an editor, the built site at ``/help/``) and no figure is pasted by hand.

``python docs/hooks/inarow_docs.py`` (or ``--check``: only say which pages are stale) runs every command of
``docs/*.md`` and writes what it prints into the page:

- a ```` ```console ```` block: each ``$ inarow …`` line is run and followed by what it printed (a line
  ending in ``> FILE`` writes the file in the scratch folder and shows nothing);
- ``<!-- inarow-table: Header = path | … -->`` above a ```` ```console ```` block of one ``--json``
  command: the Markdown table under the block is filled from the JSON (``rows.*.nodes``: one row per item);
- ``<!-- inarow-svg: COMMAND -->`` above an image ``![…](images/generated/NAME.svg)``: the file is the SVG
  the command prints;
- ``VALUE<!-- inarow: COMMAND -> path -->`` inline: ``VALUE`` is one value of the command's JSON;
- ``<!-- inarow-reference begin [zh] -->`` … ``<!-- inarow-reference end -->``: the ``--help`` of every
  command (``zh``: in Chinese), the CLI reference.

The older forms (```` ```inarow ````, ```` ```inarow-table ````, ```` ```inarow-svg ````,
```` ```inarow-reference ````, ``{{inarow COMMAND -> path}}`` and ``??? note`` admonitions) are turned into
these when the script runs; until then the MkDocs hook (:func:`on_page_markdown`) renders them at build time.
``tests/test_docs.py`` checks that every page is as this script would write it, so a stale output fails.
Commands run in-process in a scratch folder holding ``mine.py``, the textbook e(P) the lab guide has
students write, and ``alphabeta.py``, the unfinished α-β of its part two (``inarow example
alphabeta-skeleton``), with the terminal 100 columns wide and the language English unless ``--lang`` says.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import shlex
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"
GENERATED = DOCS / "images" / "generated"
MINE = ROOT / "src" / "inarow" / "teaching" / "examples" / "textbook_eval.py"

LEGACY = re.compile(
    r"^(?P<indent>[ \t]*)```inarow(?:-(?P<kind>svg|table|reference))?(?P<args>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.M | re.S,
)
LEGACY_INLINE = re.compile(r"\{\{(?P<command>inarow .+?) -> (?P<path>[\w.*-]+)\}\}")
ADMONITION = re.compile(r'^\?\?\?\+? (?P<kind>\w+)(?: "(?P<title>[^"]*)")?\n(?P<body>(?:(?:    .*)?\n)+)', re.M)

CONSOLE = re.compile(r"^(?P<indent>[ \t]*)```console\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
TABLE = re.compile(
    r"^<!-- inarow-table: (?P<spec>.+?) -->\n```console\n\$ (?P<command>.+?)\n```\n\n"
    r"(?P<table>(?:\|.*\n?)*)",
    re.M,
)
SVG = re.compile(r"^<!-- inarow-svg: (?P<command>.+?) -->\n!\[(?P<alt>[^\]]*)\]\((?P<src>[^)]+\.svg)\)", re.M)
INLINE = re.compile(r"(?P<value>[\w.,+\-−∞%/]*)<!-- inarow: (?P<command>inarow .+?) -> (?P<path>[\w.*-]+) -->")
REFERENCE = re.compile(
    r"^<!-- inarow-reference begin(?P<lang> zh)? -->\n.*?^<!-- inarow-reference end -->", re.M | re.S
)
RAW = re.compile(r"```inarow|\{\{inarow|^\?\?\? ", re.M)
"""What a page must not hold once written: the older forms, which read as raw templates on a code host."""


class DocsCommandError(RuntimeError):
    """A command of the docs that failed: the script and the build stop, naming it."""


@functools.cache
def _workdir() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="inarow-docs-"))
    (folder / "mine.py").write_text(MINE.read_text(encoding="utf-8"), encoding="utf-8")
    from inarow.teaching.checking.skeleton import SKELETON_EN

    (folder / "alphabeta.py").write_text(SKELETON_EN, encoding="utf-8")  # part two's own α-β, unfinished
    return folder


@dataclass(frozen=True)
class Command:
    """One command line of a page: the words inarow gets, and the file its output goes to, if any."""

    line: str
    words: tuple[str, ...]
    into: str | None = None

    @classmethod
    def parse(cls, line: str) -> Command:
        words = shlex.split(line, comments=True)
        into = None
        if len(words) >= 2 and words[-2] == ">":
            words, into = words[:-2], words[-1]
        if not words or words[0] != "inarow" or any(word in ("<", ">", "|", "&&", ";") for word in words):
            raise DocsCommandError(f"not a single inarow command: {line!r}")
        return cls(line, tuple(words[1:]), into)


@functools.cache
def run(line: str) -> str:
    """What ``line`` (``inarow …``, split as a shell splits it, ``> FILE`` allowed at the end) prints, run
    in-process; raises :class:`DocsCommandError` when it exits other than 0 (or 1 for ``inarow check``,
    whose 1 is an answer: a case is not exact)."""
    from typer.testing import CliRunner

    from inarow.base import i18n
    from inarow.cli import app
    from inarow.engines.exact import compiled

    command = Command.parse(line)
    compiled.forget()  # each command explores what it explores in a process of its own, whatever ran before
    with contextlib.chdir(_workdir()), i18n.language("en"):  # a --lang of the command ends with it
        result = CliRunner(env={"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "COLUMNS": "100"}).invoke(
            app, list(command.words), prog_name="inarow"
        )
        if result.exit_code != 0 and not ("check" in command.words and result.exit_code == 1):
            raise DocsCommandError(f"{line!r} exited {result.exit_code}: {result.output}{result.exception!r}")
        if command.into is not None:
            Path(command.into).write_text(result.stdout, encoding="utf-8")
            return ""
    return result.output


# ------------------------------------------------------------------------------------ values and tables
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


def _columns(spec: str) -> list[tuple[str, str]]:
    return [(header.strip(), path.strip()) for header, path in (part.rsplit("=", 1) for part in spec.split("|"))]


def table(command: str, columns: list[tuple[str, str]]) -> str:
    """A Markdown table of the JSON ``command`` prints, a column per ``(header, path)``."""
    data = json.loads(run(command))
    cells = [[_cell(value) for value in field(data, path)] for _, path in columns]
    rows = max(len(column) for column in cells)
    lines = ["| " + " | ".join(header for header, _ in columns) + " |", "|" + "---|" * len(columns)]
    for index in range(rows):
        lines.append("| " + " | ".join(c[index] if len(c) > 1 else c[0] for c in cells) + " |")
    return "\n".join(lines)


def value(command: str, path: str) -> str:
    return " ".join(_cell(found) for found in field(json.loads(run(command)), path))


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


# ------------------------------------------------------------------------------------ the older forms
def _svg_name(page: str, command: str) -> str:
    import hashlib

    return f"{page}-{hashlib.sha1(command.encode()).hexdigest()[:8]}.svg"


def upgrade(markdown: str, page: str) -> str:
    """``markdown`` with the older forms written as the current ones (outputs left empty: :func:`fill`
    writes them). ``page`` names the SVG files (``lab``, ``lab.zh``)."""

    def block(found: re.Match[str]) -> str:
        kind, indent = found["kind"], found["indent"]
        lines = [line.strip() for line in found["body"].splitlines() if line.strip()]
        lines = [line for line in lines if not line.startswith("#")]
        if kind == "reference":
            lang = " zh" if found["args"].strip() == "zh" else ""
            return f"<!-- inarow-reference begin{lang} -->\n<!-- inarow-reference end -->"
        if kind == "svg":
            return f"<!-- inarow-svg: {lines[0]} -->\n![]({GENERATED.relative_to(DOCS)}/{_svg_name(page, lines[0])})"
        if kind == "table":
            spec = " | ".join(f"{h.strip()} = {p.strip()}" for h, p in (line.rsplit(":", 1) for line in lines[1:]))
            return f"<!-- inarow-table: {spec} -->\n```console\n$ {lines[0]}\n```\n"
        text = "```console\n" + "\n".join("$ " + line for line in lines) + "\n```"
        return textwrap.indent(text, indent)

    def admonition(found: re.Match[str]) -> str:
        title = found["title"] or found["kind"].capitalize()
        body = textwrap.dedent(found["body"]).strip("\n")
        return f'<details class="{found["kind"]}" markdown="1">\n<summary>{title}</summary>\n\n{body}\n\n</details>\n\n'

    markdown = LEGACY.sub(block, markdown)
    markdown = LEGACY_INLINE.sub(lambda found: f"<!-- inarow: {found['command']} -> {found['path']} -->", markdown)
    return ADMONITION.sub(admonition, markdown)


# ------------------------------------------------------------------------------------ writing the outputs
TIMES = re.compile(r"\d+(?:\.\d+)? s\b|\"(?:load_)?seconds\": [0-9.e-]+|(?<![\d.])\d+\.\d{3}(?![\d.])")
"""What differs from run to run in an output, a time taken (``0.013 s``, ``"seconds": …``, and a number of
three decimals: the seconds column of ``inarow compare``): left out when an output is compared."""


def same(shown: str, printed: str) -> bool:
    """Whether a page's ``shown`` output is what was ``printed``, times taken aside."""
    return TIMES.sub("TIME", shown) == TIMES.sub("TIME", printed)


def _outputs(body: str) -> list[tuple[str, str]]:
    """The commands of a console block's ``body`` and the output shown under each."""
    found: list[tuple[str, list[str]]] = []
    for line in textwrap.dedent(body).splitlines():
        if line.startswith("$ "):
            found.append((line[2:].strip(), []))
        elif found:
            found[-1][1].append(line)
    return [(command, "\n".join(lines)) for command, lines in found]


def printed(command: str) -> str:
    """What ``command`` prints as a page shows it: each line without its trailing blanks."""
    return "\n".join(line.rstrip() for line in run(command).rstrip("\n").splitlines())


def _console(found: re.Match[str]) -> str:
    indent = found["indent"]
    outputs = _outputs(found["body"])
    if not outputs:
        return found[0]
    lines = ["```console"]
    for command, shown in outputs:
        now = printed(command)
        lines += ["$ " + command, *(shown if same(shown, now) else now).splitlines()]
    lines.append("```")
    return "\n".join(indent + line if line else line for line in lines)


def fill(markdown: str, svgs: dict[str, str] | None = None) -> str:
    """The page with every output written from what inarow prints now; the SVG files it names go into
    ``svgs`` (path relative to ``docs/`` → content) when given."""
    tables: list[str] = []

    def keep_table(found: re.Match[str]) -> str:  # tables first, their console block is not an output
        tables.append(
            f"<!-- inarow-table: {found['spec']} -->\n```console\n$ {found['command']}\n```\n\n"
            + table(found["command"], _columns(found["spec"]))
            + "\n"
        )
        return f"\x00table{len(tables) - 1}\x00"

    def svg(found: re.Match[str]) -> str:
        drawing = "\n".join(line for line in run(found["command"]).splitlines() if line.strip()) + "\n"
        if svgs is not None:
            svgs[found["src"]] = drawing
        return found[0]

    def inline(found: re.Match[str]) -> str:
        return f"{value(found['command'], found['path'])}<!-- inarow: {found['command']} -> {found['path']} -->"

    def ref(found: re.Match[str]) -> str:
        lang = found["lang"] or ""
        text = reference(lang.strip())
        return f"<!-- inarow-reference begin{lang} -->\n{text}\n<!-- inarow-reference end -->"

    markdown = TABLE.sub(keep_table, markdown)
    markdown = CONSOLE.sub(_console, markdown)
    markdown = SVG.sub(svg, markdown)
    markdown = INLINE.sub(inline, markdown)
    markdown = REFERENCE.sub(ref, markdown)
    return re.sub("\x00table(\\d+)\x00", lambda found: tables[int(found[1])], markdown)


def commands(markdown: str) -> Iterator[str]:
    """Every command a page runs, in page order (the older forms included)."""
    page = upgrade(markdown, "page")
    for found in TABLE.finditer(page):
        yield found["command"]
    without_tables = TABLE.sub("", page)
    for found in CONSOLE.finditer(without_tables):
        for line in found["body"].splitlines():
            if line.strip().startswith("$ "):
                yield line.strip()[2:]
    for found in SVG.finditer(page):
        yield found["command"]
    for found in INLINE.finditer(page):
        yield found["command"]


def written(path: Path) -> tuple[str, dict[str, str]]:
    """The page at ``path`` as this script writes it, and the SVG files it draws."""
    svgs: dict[str, str] = {}
    text = fill(upgrade(path.read_text(encoding="utf-8"), path.stem), svgs)
    return text, svgs


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    named = [DOCS / name for name in argv if not name.startswith("--")]
    stale = []
    for path in named or pages():
        text, svgs = written(path)
        changed = text != path.read_text(encoding="utf-8")
        changed |= any(
            not (DOCS / name).is_file() or (DOCS / name).read_text(encoding="utf-8") != drawing
            for name, drawing in svgs.items()
        )
        if not changed:
            continue
        stale.append(path.name)
        if not check:
            path.write_text(text, encoding="utf-8")
            for name, drawing in svgs.items():
                (DOCS / name).parent.mkdir(parents=True, exist_ok=True)
                (DOCS / name).write_text(drawing, encoding="utf-8")
    verb = "stale" if check else "written"
    print(f"{verb}: {', '.join(stale)}" if stale else "every page is up to date")
    return 1 if check and stale else 0


# ------------------------------------------------------------------------------------ MkDocs
def render(markdown: str) -> str:
    """A page still in the older forms, with its outputs, SVG drawn inline (the build's fallback)."""
    svgs: dict[str, str] = {}
    text = fill(upgrade(markdown, "page"), svgs)
    for found in SVG.finditer(text):
        figure = f'<div class="inarow-figure" markdown="0">\n{svgs[found["src"]]}</div>\n'
        text = text.replace(found[0], figure)
    return text


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs: a page written by this script is built as it is; one still in the older forms is rendered."""
    return render(markdown) if RAW.search(markdown) else markdown


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main(sys.argv[1:]))
