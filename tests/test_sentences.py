"""The sentences the command line and the page both say are composed once, in inarow.words.sentences: the page's
table is what that module writes, neither edge composes them again, and both say the same words for the
same fields, in every language."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

from inarow.base import i18n
from inarow.engines.scores import EXACT
from inarow.rules.game import Side
from inarow.values.answers import MoveNote, SearchValue
from inarow.web.catalog import messages
from inarow.words import phrases
from inarow.words.sentences import FORMATS, FOUND, MODULE_PATH, SENTENCES, TERMS, module, say

ROOT = Path(__file__).parent.parent
SCRIPTS = ROOT / "src" / "inarow" / "web" / "static" / "js"

ALSO_ELSEWHERE = {
    "draw": "a game's result (phrases.finished, game_result, game_value; the history's badge; a leaf of the "
    "explained tree)",
    "draw with best play": "why `inarow best` plays a drawing move (phrases.best_move, the command line's own)",
    "{percent}%": "the share of agreeing moves of the page's grading, to a tenth of a percent (grading.js)",
    "minimax": "a row of the page's comparison of searches (tree.js)",
    "the root": "the root in the replay's path (replay.js)",
}
"""Messages of the table that other sentences, said by one edge only, use too (each with where)."""


def table_messages() -> set[str]:
    found = set()
    for cases in SENTENCES.values():
        for case in cases:
            said = case.get("say")
            found.update([said] if isinstance(said, str) else said or [])
    for names in TERMS.values():
        found.update(names.values())
    return found


def marked(text: str, keywords: str) -> set[str]:
    """The string literals that ``text`` passes first (or second, for ``ngettext``) to the keywords."""
    first = re.findall(rf'\b(?:{keywords})\(\s*"((?:[^"\\]|\\.)*)"', text)
    second = re.findall(r'\bngettext\(\s*"(?:[^"\\]|\\.)*",\s*"((?:[^"\\]|\\.)*)"', text)
    return set(first) | set(second)


def test_the_page_s_table_is_what_the_python_table_writes() -> None:
    """Run ``python -m inarow.words.sentences`` after changing the table."""
    assert MODULE_PATH.read_text(encoding="utf-8") == module()


def test_words_py_composes_none_of_the_table_s_sentences_again() -> None:
    source = (ROOT / "src" / "inarow" / "words" / "phrases.py").read_text(encoding="utf-8")
    assert marked(source, "_|N_|ngettext") & table_messages() <= set(ALSO_ELSEWHERE)


@pytest.mark.parametrize("script", sorted(p.name for p in SCRIPTS.glob("*.js") if p.name != "sentences.js"))
def test_no_script_of_the_page_composes_the_table_s_sentences_again(script: str) -> None:
    source = (SCRIPTS / script).read_text(encoding="utf-8")
    assert marked(source, "t|N_|ngettext") & table_messages() <= set(ALSO_ELSEWHERE)


def test_the_words_marked_elsewhere_are_all_in_the_table() -> None:
    assert set(ALSO_ELSEWHERE) <= table_messages()


def test_the_guard_finds_a_sentence_composed_again() -> None:
    again = 'const said = t("turned a win into a draw");\nngettext("{count} ply", "{count} plies", n);'
    assert marked(again, "t|N_|ngettext") & table_messages() == {
        "turned a win into a draw",
        "{count} ply",
        "{count} plies",
    }


def test_every_expression_of_the_table_names_a_field_a_format_a_term_table_or_a_sentence() -> None:
    def check(expression: str) -> None:
        kind, _, rest = expression.partition(":")
        if kind == "say":
            assert rest in SENTENCES, expression
        elif kind == "term":
            assert rest.partition(":")[0] in TERMS, expression
        elif rest:
            assert kind in FORMATS, expression
        else:
            assert re.fullmatch(r"[a-z_]+", expression), expression

    for name, cases in SENTENCES.items():
        for case in cases:
            assert ("say" in case) != ("is" in case), name
            assert isinstance(case.get("say"), str) or "count" in case or "is" in case, name
            for expression in [*case.get("with", {}).values(), case.get("count", "x"), case.get("is", "x")]:
                check(expression)
            said = case.get("say")
            for message in [said] if isinstance(said, str) else said or []:
                assert set(re.findall(r"\{(\w+)\}", message)) == set(case.get("with", {})), message


# ------------------------------------------------------------------------ both edges say the same
VALUES: tuple[SearchValue, ...] = ("inf", "-inf", 3, -1, 0)
WINNERS: tuple[Side | None, ...] = ("x", "o", None)
NOTES = [
    MoveNote(kind="random"),
    *(MoveNote(kind="rule", rule=rule) for rule in [*TERMS["rules"], "a rule of its own"]),
    *(
        MoveNote(kind="search", algorithm=algorithm, depth=depth, value=value)
        for algorithm, depth, value in itertools.product(TERMS["searches"], (1, 2, 5), VALUES)
    ),
    *(
        MoveNote(kind="analysis", exact=True, winner=winner, plies=plies)
        for winner, plies in itertools.product(WINNERS, (None, 1, 2, 3, 4, 9))
    ),
    *(
        MoveNote(kind="analysis", exact=False, score=score, depth=4)
        for score in (-999_999, -28, 0, 5, 999_999)
    ),
    MoveNote(kind="engine"),
    MoveNote(kind="text", text="an old game's note"),
]

CASES: list[tuple[str, Mapping[str, object]]] = [
    *(("plies", {"depth": depth}) for depth in range(6)),
    *(
        ("move_value", {"outcome": outcome, "plies": plies, "score": score})
        for outcome, plies, score in itertools.product(
            ("win", "draw", "loss", None),
            (None, 1, 2, 3, 6, 11),
            (-999_999, -999_998, -40, -1, 0, 1, 12, 999_998, 999_999),
        )
    ),
    *(
        ("position_value", {"winner": winner, "plies": plies, "proof": proof})
        for winner, plies, proof in itertools.product(
            ("X", "black", "白", None), (None, 1, 2, 3, 4, 7), (None, "vcf", "vct")
        )
    ),
    *(
        ("unsolved", {"score": score, "depth": depth})
        for score in (-999_999, -3, 0, 7, 999_999, None)
        for depth in (1, 7)
    ),
    *(
        ("unsolved_in_time", {"score": score, "depth": depth})
        for score in (-999_999, -3, 0, 7, 999_999, None)
        for depth in (1, 7)
    ),
    *(("note", {k: v for k, v in note.__dict__.items() if v is not None}) for note in NOTES),
    *(("percent", {"rate": rate}) for rate in (0, 0.005, 0.125, 0.5, 0.625, 0.999, 1)),
    *(("turned", {"before": b, "after": a}) for b, a in (("win", "draw"), ("win", "loss"), ("draw", "loss"))),
    *(
        ("mistake", {"kind": kind, "drop": 640, "margin": 400})
        for kind in ("missed-win", "allowed-win", "dropped")
    ),
]

PAGE = """
import { say, useCatalog } from "%s";
const { catalog, cases } = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => done(text));
}));
useCatalog(catalog);
process.stdout.write(JSON.stringify(cases.map(([name, fields]) => say(name, fields))));
"""


def page_says(language: str, cases: list[tuple[str, Mapping[str, object]]]) -> list[str]:
    """What the page's ``say`` (words.js, run by node) says for ``cases`` in ``language``."""
    catalog = {"tag": i18n.DEFAULT if language == i18n.DEFAULT else language.replace("_", "-")}
    catalog["messages"] = messages(language)  # type: ignore[assignment]
    script = PAGE % (SCRIPTS / "words.js").as_uri()
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps({"catalog": catalog, "cases": cases}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return list(json.loads(done.stdout))


@pytest.mark.skipif(
    shutil.which("node") is None, reason="node runs the page's words (scripts/test.sh has it)"
)
@pytest.mark.parametrize("language", i18n.available())
def test_the_page_and_the_command_line_say_the_same_for_the_same_fields(language: str) -> None:
    with i18n.language(language):
        said = [say(name, fields) for name, fields in CASES]
    assert all(said)
    assert page_says(language, CASES) == said


def test_the_command_line_s_words_are_the_table_s() -> None:
    """words/phrases.py's functions pass their fields to the table (the note with its winner named as is)."""
    note = MoveNote(kind="search", algorithm="alphabeta", depth=2, value="-inf")
    assert phrases.note(note) == say("note", note.__dict__) == "α-β 2 plies deep: value −∞"
    assert phrases.move_value("loss", 4, -2) == "loss in 2"
    assert phrases.analysis(result=None, winner="o", exact=True, plies=7, score=None, depth=None) == (
        "o wins in 4 moves"
    )
    assert phrases.percent(0.625) == "63%"
    with i18n.language("zh_CN"):
        assert phrases.turned("win", "draw") == say("turned", {"before": "win", "after": "draw"})
        assert phrases.turned("win", "draw") != "turned a win into a draw"


def test_a_score_at_the_edge_of_the_evaluations_is_a_win_or_loss_found_and_not_proven() -> None:
    """The Gomoku engine clamps a win its selective search found (but did not prove) to one less than an
    exact score: both edges say it in words, not as "eval +999999"."""
    assert FOUND == EXACT - 1
    assert say("move_value", {"outcome": None, "plies": None, "score": EXACT - 1}) == "win found, not proven"
    assert say("move_value", {"outcome": None, "plies": None, "score": 1 - EXACT}) == "loss found, not proven"
    assert say("move_value", {"outcome": None, "plies": None, "score": EXACT - 2}) == f"eval +{EXACT - 2}"
    assert say("move_value", {"outcome": "win", "plies": 3, "score": EXACT - 1}) == "win in 2"
    assert (
        say("unsolved", {"score": EXACT - 1, "depth": 6})
        == say("unsolved_in_time", {"score": EXACT - 1, "depth": 6})
        == "a win for the side to move found at depth 6, not proven"
    )
    assert (
        say("unsolved_in_time", {"score": -28, "depth": 4}) == "not solved in time: evaluation -28 at depth 4"
    )
