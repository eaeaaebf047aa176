"""The page's words: the compiled gettext catalogs served as JSON (``GET /i18n/{tags}.json``),
the bilingual glossary page (``GET /glossary``), and the extractor that finds the words of ``index.html``.

The page's JavaScript asks for the catalog of the reader's language and looks each English message up in
it (``t()`` in ``words.js``); English needs no catalog. The words written in ``index.html`` are marked
with ``data-t``: ``data-t="text"`` for the element's text, ``data-t="aria-label title"`` for attributes
(both may be listed). :func:`extract_html` gives them to ``pybabel extract`` (see ``babel.cfg``), and the
page puts each one's translation in place when it starts.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from typing import IO, Any, TypedDict

from inarow.base import i18n
from inarow.base.i18n import N_
from inarow.words.glossary import TERMS

NAMES = {"en": "English", "zh_CN": "中文"}
"""Each language's name in itself, for the page's switch (a catalog without one is named by its code)."""


class Language(TypedDict):
    """A language the page can speak: ``code`` of its catalog, ``tag`` for ``<html lang>`` and
    ``Accept-Language``, ``name`` in itself."""

    code: str
    tag: str
    name: str


class CatalogJSON(TypedDict):
    """The answer of ``GET /i18n/{tags}.json``: the language chosen, the languages on offer, and the
    messages: English message → its translation, or the list of its plural forms."""

    language: str
    tag: str
    languages: list[Language]
    messages: dict[str, str | list[str]]


def tag_of(code: str) -> str:
    """The BCP 47 tag of a catalog's code: ``zh_CN`` → ``zh-CN``."""
    return code.replace("_", "-")


def languages() -> list[Language]:
    """The languages there are catalogs for, English first."""
    return [Language(code=c, tag=tag_of(c), name=NAMES.get(c, tag_of(c))) for c in i18n.available()]


@cache
def messages(code: str) -> dict[str, str | list[str]]:
    """The translated messages of the compiled catalog of ``code`` (none for English): a message, or a
    message with plural forms keyed by its singular; the empty ones are left out, so the page falls back
    to English for them. The entries are read from ``GNUTranslations._catalog``, as Django's JavaScript
    catalog reads them: the standard library keeps them there, a plural's forms under ``(singular, n)``."""
    if code == i18n.DEFAULT:
        return {}
    entries: dict[str | tuple[str, int], str] = i18n.translations(code)._catalog  # type: ignore[attr-defined]
    found: dict[str, str | list[str]] = {}
    plurals: dict[str, dict[int, str]] = {}
    for key, text in entries.items():
        if isinstance(key, tuple):
            plurals.setdefault(key[0], {})[key[1]] = text
        elif key and text:
            found[key] = text
    for singular, forms in plurals.items():
        said = [forms[n] for n in sorted(forms)]
        if all(said):
            found[singular] = said
    return found


def choose(tags: list[str]) -> str:
    """The language for ``tags`` in order of preference: the first tag there is a catalog for (``zh``
    finds ``zh_CN``), English when none has one."""
    for tag in tags:
        code = i18n.negotiate([tag])
        if code != i18n.DEFAULT or tag.strip().lower().startswith(i18n.DEFAULT):
            return code
    return i18n.DEFAULT


def catalog_answer(tags: str) -> tuple[bytes, str]:
    """The JSON body for the language negotiated from ``tags`` (``zh-CN``, or in order of preference
    ``fr,zh-CN,en``) and its ETag. Only the answers per language are kept (:func:`language_answer`): a
    client sending a new tag string with every request adds nothing to the server's memory."""
    return language_answer(choose(tags.split(",")))


@cache
def language_answer(code: str) -> tuple[bytes, str]:
    """The JSON body of the catalog of ``code`` (one of :func:`inarow.base.i18n.available`, so the cache holds
    one answer per language there is) and its ETag."""
    answer = CatalogJSON(language=code, tag=tag_of(code), languages=languages(), messages=messages(code))
    body = json.dumps(answer, ensure_ascii=False, sort_keys=True).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


# ------------------------------------------------------------------------------------ glossary
GLOSSARY_LANGUAGES = (("en", "en", "English"), ("zh_CN", "zh-CN", "中文"))
"""The glossary's languages: catalog code, HTML tag, the language's name in itself."""


def glossary_page(language: str = "en") -> str:
    """The glossary in English and Chinese side by side, as a page of its own with the site's top bar and
    language switch: ``language`` (a catalog code or tag, ``zh-CN``) is the page's own language, its column
    first; anything else is English."""
    chosen = next((entry for entry in GLOSSARY_LANGUAGES if language in entry[:2]), GLOSSARY_LANGUAGES[0])
    other = next(entry for entry in GLOSSARY_LANGUAGES if entry != chosen)
    said: dict[str, list[tuple[str, str]]] = {}
    for code, _, _ in GLOSSARY_LANGUAGES:
        with i18n.language(code):
            said[code] = [term.said() for term in TERMS]
    mine, theirs = said[chosen[0]], said[other[0]]
    rows = [
        f'<tr id="{html.escape(term.key)}"><th scope="row" lang="{chosen[1]}">{html.escape(mine[n][0])}</th>'
        f'<td lang="{other[1]}">{html.escape(theirs[n][0])}</td>'
        f'<td lang="{chosen[1]}">{html.escape(mine[n][1])}</td>'
        f'<td lang="{other[1]}">{html.escape(theirs[n][1])}</td></tr>'
        for n, term in enumerate(TERMS)
    ]
    with i18n.language(chosen[0]):
        play, glossary, term_word, meaning = (
            i18n.gettext(word) for word in (N_("Play"), N_("Glossary"), N_("term"), N_("meaning"))
        )
        intro = i18n.gettext(N_("The terms of game-tree search as the course material names them."))
    with i18n.language(other[0]):
        other_term, other_meaning = i18n.gettext(N_("term")), i18n.gettext(N_("meaning"))
    switch = "".join(
        f'<a class="language" href="/glossary?lang={tag}" lang="{tag}" '
        f'aria-current="{str(tag == chosen[1]).lower()}">{name}</a>'
        for _, tag, name in GLOSSARY_LANGUAGES
    )
    return (
        f'<!doctype html><html lang="{chosen[1]}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>inarow — {html.escape(glossary)}</title>"
        '<link rel="stylesheet" href="/static/style.css"></head>'
        '<body class="glossary-page"><header class="topbar">'
        '<a class="brand" href="/"><span class="brand-mark" aria-hidden="true"></span>inarow</a>'
        f'<nav class="tabs"><a class="tab" href="/">{html.escape(play)}</a>'
        f'<a class="tab" href="/glossary?lang={chosen[1]}" aria-current="page">'
        f"{html.escape(glossary)}</a></nav>"
        f'<div class="languages" role="group">{switch}</div></header>'
        '<main class="card glossary">'
        f"<h1>{html.escape(glossary)}</h1><p>{html.escape(intro)}</p>"
        '<table class="compare-table glossary-table" data-testid="glossary"><thead><tr>'
        f'<th scope="col">{html.escape(term_word)}</th>'
        f'<th scope="col" lang="{other[1]}">{html.escape(other_term)}</th>'
        f'<th scope="col">{html.escape(meaning)}</th>'
        f'<th scope="col" lang="{other[1]}">{html.escape(other_meaning)}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></main></body></html>"
    )


# ------------------------------------------------------------------------------- extraction
class _Marked(HTMLParser):
    """Collects the marked words of an HTML page: (line, message) in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        marks = (values.get("data-t") or "").split()
        line = self.getpos()[0]
        for name in marks:
            if name != "text" and values.get(name):
                self.found.append((line, str(values[name])))
        if tag in ("meta", "link", "input", "img", "br", "hr"):
            return
        self._open.append((tag, line, []) if "text" in marks else None)

    def handle_data(self, data: str) -> None:
        for item in self._open:
            if item is not None:
                item[2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        item = self._open.pop()
        if item is not None:
            text = " ".join("".join(item[2]).split())
            if text:
                self.found.append((item[1], text))


def marked_words(page: str) -> list[tuple[int, str]]:
    """The words marked with ``data-t`` in ``page``, as (line, message), the text collapsed as the page
    reads it (runs of white space become one space)."""
    parser = _Marked()
    parser.feed(page)
    parser.close()
    return parser.found


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extractor (``babel.cfg``: ``[inarow.web.catalog.extract_html: …]``) for the words of an
    HTML page marked with ``data-t``."""
    for line, message in marked_words(fileobj.read().decode("utf-8")):
        yield line, None, message, []
