"""Average words a sentence of each English page of the docs (and the README): the prose only, code blocks,
tables, headings, HTML comments and images left out. Usage: ``python scripts/words_per_sentence.py [PAGE…]``.

A sentence ends at ``.``, ``!`` or ``?`` before a space or the end of a paragraph (a list item is a paragraph);
inline code counts as one word. A readability figure for writers, not a test."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def prose(markdown: str) -> list[str]:
    """The paragraphs of running text of a page."""
    markdown = re.sub(r"^(```|~~~).*?^\1\s*$", "", markdown, flags=re.M | re.S)
    markdown = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)
    markdown = re.sub(r"<[^>]+>", "", markdown)
    paragraphs, current = [], []
    for line in markdown.splitlines():
        stripped = line.strip()
        starts_item = re.match(r"^([-*+]|\d+\.)\s", stripped)
        if not stripped or stripped.startswith(("#", "|", "!", ":::", "    options")) or starts_item:
            if current:
                paragraphs.append(" ".join(current))
            current = [re.sub(r"^([-*+]|\d+\.)\s+", "", stripped)] if starts_item else []
            continue
        current.append(stripped)
    if current:
        paragraphs.append(" ".join(current))
    return [p for p in paragraphs if p]


def sentences(paragraph: str) -> list[str]:
    text = re.sub(r"`[^`]*`", "CODE", paragraph)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\b(e\.g|i\.e|etc|vs|cf)\.", r"\1", text)
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if re.search(r"\w", s)]


def average(path: Path) -> tuple[float, int]:
    found = [s for p in prose(path.read_text(encoding="utf-8")) for s in sentences(p)]
    words = sum(len(re.findall(r"\S+", s)) for s in found)
    return (words / len(found) if found else 0.0), len(found)


def main(names: list[str]) -> int:
    paths = [ROOT / name for name in names] or [
        ROOT / "README.md",
        *sorted(p for p in (ROOT / "docs").glob("*.md") if not p.name.endswith(".zh.md")),
    ]
    print(f"{'page':<22} {'sentences':>9} {'words a sentence':>17}")
    for path in paths:
        mean, count = average(path)
        print(f"{path.name:<22} {count:>9} {mean:>17.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
