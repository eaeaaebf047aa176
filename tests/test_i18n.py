"""Translations: every message marked in the code has a Chinese translation, languages are negotiated as
browsers and terminals ask, and a third language is a catalog dropped in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from inarow import i18n
from inarow.glossary import TERMS

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\{(\w*)[^}]*\}")


def messages_in_the_code() -> set[str]:
    """Every message the code marks, extracted the way ``pybabel extract -F babel.cfg`` does."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "t": None}
    found = set()
    for _filename, _line, message, _comments, _context in extract_from_dir(
        ROOT / "src", method_map, options_map, keywords=keywords
    ):
        found.update([message] if isinstance(message, str) else [m for m in message if m])
    return found


def test_every_message_in_the_code_has_a_chinese_translation() -> None:
    messages = messages_in_the_code()
    assert {term.name for term in TERMS} <= messages  # the extraction sees the marked messages
    with i18n.catalog_path("zh_CN").open("rb") as po:
        catalog = read_po(po, locale="zh_CN")
    translated = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    assert sorted(messages - set(translated)) == []
    for message in messages:
        text = translated[message]
        assert isinstance(text, str)
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(message)), message


def test_the_glossary_speaks_the_language_of_the_context() -> None:
    alpha_beta = next(term for term in TERMS if term.key == "alpha-beta")
    assert alpha_beta.said()[0] == "α-β pruning"
    with i18n.language("zh_CN"):
        assert alpha_beta.said()[0] == "α-β 剪枝"
        assert dict(term.said() for term in TERMS)["倒推值"].startswith("节点由其子节点的值得到的值")
    assert i18n.current() == "en"


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh_CN"),
        ("en-US,en;q=0.9,zh-CN;q=0.8", "en"),
        ("zh", "zh_CN"),
        ("fr-FR, de;q=0.5", "en"),
        ("fr;q=0.9, zh-CN;q=0.5", "zh_CN"),
        ("zh-CN;q=0, en", "en"),
        ("", "en"),
        (None, "en"),
        ("*", "en"),
        ("zh-CN;q=bad, en", "en"),
    ],
)
def test_the_language_of_a_request_follows_accept_language(header: str | None, language: str) -> None:
    assert i18n.from_accept_language(header) == language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({}, "en"),
        ({"LANGUAGE": "fr:zh_CN", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
    ],
)
def test_the_language_of_the_terminal_follows_the_environment(environ: dict[str, str], language: str) -> None:
    assert i18n.from_environment(environ) == language


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"no catalog for language 'xx': expected one of en, zh_CN"):
        i18n.set_language("xx")


def test_a_third_language_is_a_catalog_dropped_in(tmp_path: Path) -> None:
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "inarow.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "game tree"\nmsgstr "arbre de jeu"\n',
        encoding="utf-8",
    )
    assert i18n.available(tmp_path) == ("en", "fr")
    assert i18n.translations("fr", tmp_path).gettext("game tree") == "arbre de jeu"


def test_the_readme_glossary_is_the_catalogs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for term in TERMS:
        name, meaning = term.said()
        with i18n.language("zh_CN"):
            chinese_name, chinese_meaning = term.said()
        assert f"| {name} | {chinese_name} | {meaning} | {chinese_meaning} |" in readme, term.key
