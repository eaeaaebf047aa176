"""Translations: every sentence a person reads is looked up in a gettext catalog of its language.

The messages are English, written in the code as ``_("{winner} wins in {moves} moves")`` (Python) or
``t("…")`` (the page's JavaScript), with named ``{placeholders}`` filled after the lookup so that a
translation may reorder them. Each language is a folder ``locale/<code>/LC_MESSAGES/`` holding the catalog
``inarow.po`` that translators write and the ``inarow.mo`` compiled from it, which is what inarow reads (with
the standard library's :mod:`gettext`, when the language is first used: Babel is a tool of the build, not a
dependency). After messages change, from the repository's root::

    pybabel extract -F babel.cfg -k N_ -k t --no-location --sort-output --project inarow \
        -o src/inarow/locale/inarow.pot src
    pybabel update -i src/inarow/locale/inarow.pot -d src/inarow/locale -D inarow \
        --no-fuzzy-matching --ignore-obsolete

then translate the new empty entries and compile the catalogs::

    pybabel compile -d src/inarow/locale -D inarow --use-fuzzy

(``tests/test_i18n.py`` fails while an entry is missing or a ``.mo`` is older than its ``.po``). A third
language is its two files dropped in.

The current language is a context variable: the command line sets it once from ``--lang`` or the
environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), the web app per request from
``Accept-Language``. English needs no catalog: its messages are the keys.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "inarow"
LOCALE_DIR = Path(__file__).parent.parent / "locale"
DEFAULT = "en"

_current: ContextVar[str] = ContextVar("inarow_language", default=DEFAULT)


def catalog_path(language: str, directory: Path = LOCALE_DIR, suffix: str = ".po") -> Path:
    """Where the catalog of ``language`` (a code such as ``zh_CN``) lives: its source (``.po``), or with
    ``suffix=".mo"`` the compiled catalog inarow reads."""
    return directory / language / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


@cache
def available(directory: Path = LOCALE_DIR) -> tuple[str, ...]:
    """The languages there are catalogs for in ``directory``, English first: ``("en", "zh_CN")``."""
    found = sorted(p.name for p in directory.iterdir() if catalog_path(p.name, directory, ".mo").is_file())
    return (DEFAULT, *found)


@cache
def translations(language: str, directory: Path = LOCALE_DIR) -> _gettext.NullTranslations:
    """The compiled catalog of ``language`` (English: the messages as they are). Raises ``ValueError`` for a
    language without a catalog."""
    if language == DEFAULT:
        return _gettext.NullTranslations()
    if language not in available(directory):
        known = ", ".join(available(directory))
        raise ValueError(f"no catalog for language {language!r}: expected one of {known}")
    with catalog_path(language, directory, ".mo").open("rb") as compiled:
        return _gettext.GNUTranslations(compiled)


def current() -> str:
    """The language of this context (``en`` unless set)."""
    return _current.get()


def set_language(language: str) -> None:
    """Make ``language`` (a code of :func:`available`) the language of this context from now on."""
    translations(language)  # refuse an unknown language here, not at the first message
    _current.set(language)


@contextmanager
def language(code: str) -> Iterator[None]:
    """Speak ``code`` inside the ``with`` block."""
    translations(code)
    token = _current.set(code)
    try:
        yield
    finally:
        _current.reset(token)


def in_english(say: Callable[[], str]) -> str:
    """What ``say`` says in English, whatever the context's language: the words a JSON answer carries are the
    same in every language, for programs."""
    with language(DEFAULT):
        return say()


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` for ``count``, in the current language."""
    return translations(_current.get()).ngettext(singular, plural, count)


_ = gettext


def negotiate(preferred: Iterable[str]) -> str:
    """The best available language for tags in order of preference (``zh-CN``, ``zh``, ``en-US``…): the
    first tag with a catalog of its own, or of the same language in another region; else English."""
    codes = {code.lower(): code for code in available()}
    for tag in preferred:
        tag = tag.strip().replace("-", "_").lower()
        if not tag or tag == "*":
            continue
        if tag in codes:
            return codes[tag]
        base = tag.split("_")[0]
        for code in available():
            if code.split("_")[0].lower() == base:
                return code
    return DEFAULT


def from_accept_language(header: str | None) -> str:
    """The language for an HTTP ``Accept-Language`` header such as ``zh-CN,zh;q=0.9,en;q=0.8``."""
    if not header:
        return DEFAULT
    weighted = []
    for position, item in enumerate(header.split(",")):
        tag, _sep, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag.strip() and quality > 0:
            weighted.append((-quality, position, tag.strip()))
    return negotiate(tag for _q, _p, tag in sorted(weighted))


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language of the terminal: the first of ``LANGUAGE`` (a ``:`` list), ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set, read as gettext does (``zh_CN.UTF-8`` → ``zh_CN``)."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value and value not in ("C", "POSIX"):
            return negotiate(part.split(".")[0].split("@")[0] for part in value.split(":"))
    return DEFAULT


def N_(message: str) -> str:
    """Mark ``message`` for the catalog where it is written (a table of terms, say) and translate it where it
    is shown, with :func:`gettext`."""
    return message


_GAME_TITLES = {
    "tictactoe": N_("Tic-tac-toe"),
    "4x4": N_("4×4"),
    "5x5": N_("5×5"),
    "connect4": N_("Connect Four"),
    "gomoku": N_("Gomoku"),
    "gomoku-standard": N_("Gomoku (exactly five)"),
}
_CUSTOM_GAME = re.compile(r"([0-9]+x[0-9]+):([0-9]+)(:exact)?(:gravity)?(:exact)?")
_O_FIRST = ":o-first"


def game_title(name: str) -> str:
    """A game's name for people in the current language, as the web page says it (``words.js``'s
    ``gameTitle``): ``Tic-tac-toe`` (井字棋), ``Connect Four``, ``6x5, k = 4 with gravity``; a name that is
    not a game's is given back as it is."""
    if name.endswith(_O_FIRST):
        return gettext("{game}, O moves first").format(game=game_title(name[: -len(_O_FIRST)]))
    if name in _GAME_TITLES:
        return gettext(_GAME_TITLES[name])
    custom = _CUSTOM_GAME.fullmatch(name)
    if custom is None:
        return name
    exact, gravity = bool(custom[3] or custom[5]), bool(custom[4])
    if gravity and exact:
        said = N_("{board}, k = {k}, exactly k with gravity")
    elif gravity:
        said = N_("{board}, k = {k} with gravity")
    elif exact:
        said = N_("{board}, k = {k}, exactly k")
    else:
        said = N_("{board}, k = {k}")
    return gettext(said).format(board=custom[1], k=custom[2])


def game_said(name: str) -> str:
    """A game's name as a message shows it: as typed in English (``tictactoe``, ``--game tictactoe``), its
    title in another language (``井字棋``)."""
    return name if current() == DEFAULT else game_title(name)


def listed(items: Iterable[str]) -> str:
    """``items`` as a list in the current language: ``easy, medium, hard``; ``简单、中等、困难``."""
    pattern = gettext(N_("{list}, {item}"))
    shown = ""
    for number, item in enumerate(items):
        shown = item if number == 0 else pattern.format(list=shown, item=item)
    return shown
