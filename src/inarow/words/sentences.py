"""The sentences the command line and the page both say, composed once: which catalog message a sentence
takes for which fields, which field chooses a plural form, and how each field is written into it.

:data:`SENTENCES` is a table, not code, so that both edges read the same one: :func:`say` composes from it
in Python (:mod:`inarow.words.phrases` calls it), and the page's ``words.js`` composes from the same table,
which
:func:`module` writes as the ES module ``web/static/js/sentences.js`` (generated, checked in, and checked by
``tests/test_sentences.py`` to be what this table writes; after changing the table, run
``python -m inarow.words.sentences`` from the repository's root). The messages are marked here with ``N_`` and
``NN_`` (a singular and its plural), so that ``pybabel extract`` finds them; the words are looked up in the
catalog of the reader's language at each edge.

A sentence is a list of cases, tried in order; the first whose ``when`` holds makes it:

- ``when``: field → test, all of which must hold (no ``when``: always). A string: the field equals it;
  ``None``: the field is null or absent; ``True``/``False``: the field is truthy / falsy.
- ``say``: the catalog message, its ``{placeholders}`` filled from ``with``; or ``NN_(singular, plural)``,
  whose form the number ``count`` (an expression) chooses.
- ``is``: instead of ``say``, the whole sentence is this expression (another sentence, or a field as is).
- ``with``: placeholder → expression.

A ``when`` names a field or an expression (``found:score``). An expression is ``field`` (its value as is),
or ``format:field`` with a format of :data:`FORMATS`, or
``term:TABLE:field`` (the field's name for people from :data:`TERMS`, translated; a name not in the table
as it is), or ``say:NAME`` (the sentence ``NAME`` of the same fields).
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypedDict

from inarow.base.i18n import N_, gettext, ngettext


def NN_(singular: str, plural: str) -> list[str]:
    """Marks a message and its plural for the catalog (``babel.cfg`` names it a keyword ``NN_:1,2``)."""
    return [singular, plural]


Test = str | bool | None
"""What a case's ``when`` asks of a field: equal to a string, null (``None``), truthy or falsy."""


Case = TypedDict(
    "Case",
    {"when": dict[str, Test], "say": str | list[str], "count": str, "is": str, "with": dict[str, str]},
    total=False,
)
"""One case of a sentence (see the module's docstring)."""


Fields = Mapping[str, object]
"""A sentence's fields, by name: strings, numbers, booleans or None."""

TERMS: dict[str, dict[str, str]] = {
    "rules": {
        "win": N_("it completes a line"),
        "block": N_("it blocks a line"),
        "corner": N_("a corner"),
        "centre": N_("the centre"),
        "edge": N_("an edge"),
        "any cell": N_("any cell"),
        "five": N_("it makes five"),
        "block four": N_("it blocks a four"),
        "open four or four-three": N_("an open four or a four-three"),
        "block open three": N_("it blocks an open three"),
        "four or open three": N_("a four or an open three"),
        "best cell": N_("the cell worth most"),
    },
    "searches": {
        "minimax": N_("minimax"),
        "negamax": N_("negamax"),
        "alphabeta": "α-β",
        "alphabeta-soft": "α-β",
        "alphabeta-hard": N_("fail-hard α-β"),
        "negamax-alphabeta": N_("negamax α-β"),
        "negamax-alphabeta-hard": N_("fail-hard negamax α-β"),
        "pvs": "PVS",
    },
    "search_bugs": {
        "strict-cutoff": N_("cut with > instead of ≥"),
        "window-not-passed": N_("α and β not passed down"),
        "window-not-narrowed": N_("the window not narrowed"),
        "negamax-sign": N_("negamax's sign"),
        "depth-not-decreased": N_("depth not decreased"),
        "same-player": N_("the same player twice"),
        "returns-alpha": N_("returning α where fail-soft returns the value"),
    },
    "search_bug_meanings": {
        "strict-cutoff": N_(
            "a value equal to the bound must cut off too: once α ≥ β nothing below can change the choice "
            "above"
        ),
        "window-not-passed": N_(
            "a child is searched with (−∞, +∞) instead of the window its parent has narrowed"
        ),
        "window-not-narrowed": N_(
            "α must rise at a Max node (β fall at a Min node) as each child's value comes back, and the "
            "next child is searched with the narrower window"
        ),
        "negamax-sign": N_(
            "in the negamax frame a child's value is from the other side's standpoint: negate it, and search "
            "the child with (−β, −α)"
        ),
        "depth-not-decreased": N_(
            "a child is searched with depth − 1: with the same depth the search never reaches its horizon"
        ),
        "same-player": N_(
            "the players alternate: below a Max node come Min nodes, below a Min node Max nodes"
        ),
        "returns-alpha": N_(
            "fail-soft α-β returns the best value it saw, which may lie outside the window; returning α "
            "(β at a Min node) is fail-hard's rule, and it changes the values backed up"
        ),
    },
}
"""Names for people of the names the fields carry: ``rules``, the rules of thumb of the ``rules`` and
``threats`` players; ``searches``, the textbook searches; ``search_bugs`` and ``search_bug_meanings``, the
classic bugs of a student's search and what each means (:data:`inarow.teaching.checking.bugs.BUGS`, whose
titles and meanings these are: a test keeps them equal)."""

_EXPRESSIONS = {
    "node": "say:search_node",
    "leaf": "leaf",
    "expected": "expected",
    "algorithm": "term:searches:algorithm",
    "alpha": "value:alpha",
    "beta": "value:beta",
    "expected_alpha": "value:expected_alpha",
    "expected_beta": "value:expected_beta",
    "value": "value:value",
    "expected_value": "value:expected_value",
    "depth": "depth",
    "expected_depth": "expected_depth",
    "move": "move",
    "expected_move": "expected_move",
    "plies": "say:plies",
    "position": "position",
    "side": "side",
    "max": "max",
    "leaves": "leaves",
    "seed": "seed",
    "function": "function",
    "case": "case",
    "error": "error",
    "line": "line",
    "known": "known",
    "arguments": "arguments",
    "shown": "shown",
    "seconds": "seconds",
    "status": "status",
    "bytes": "bytes",
}
"""How the fields of a student's search checked (a divergence, a case, an error) are written into their
sentences."""


def _with(message: str) -> dict[str, str]:
    """The ``with`` of a message about a student's search: each of its placeholders, written as
    :data:`_EXPRESSIONS` says."""
    return {name: _EXPRESSIONS[name] for name in re.findall(r"\{(\w+)\}", message)}


SENTENCES: dict[str, list[Case]] = {
    "plies": [{"say": NN_("{count} ply", "{count} plies"), "count": "depth", "with": {"count": "depth"}}],
    "move_value": [
        {"when": {"outcome": None, "found:score": "win"}, "say": N_("win found, not proven")},
        {"when": {"outcome": None, "found:score": "loss"}, "say": N_("loss found, not proven")},
        {"when": {"outcome": None}, "say": N_("eval {score}"), "with": {"score": "signed:score"}},
        {"when": {"outcome": "draw"}, "say": N_("draw")},
        {"when": {"outcome": "win", "plies": None}, "say": N_("win")},
        {"when": {"outcome": "loss", "plies": None}, "say": N_("loss")},
        {"when": {"outcome": "win"}, "say": N_("win in {moves}"), "with": {"moves": "moves:plies"}},
        {"say": N_("loss in {moves}"), "with": {"moves": "moves:plies"}},
    ],
    "position_value": [
        {"when": {"winner": None}, "say": N_("draw with best play")},
        {"when": {"plies": None}, "say": N_("{side} wins with best play"), "with": {"side": "winner"}},
        {
            "when": {"proof": True},
            "say": N_("{value}: {proof}"),
            "with": {"value": "say:wins_in", "proof": "upper:proof"},
        },
        {"is": "say:wins_in"},
    ],
    "wins_in": [
        {
            "say": NN_("{side} wins in {moves} move", "{side} wins in {moves} moves"),
            "count": "moves:plies",
            "with": {"side": "winner", "moves": "moves:plies"},
        }
    ],
    "unsolved": [
        {
            "when": {"found:score": "win"},
            "say": N_("a win for the side to move found at depth {depth}, not proven"),
            "with": {"depth": "depth"},
        },
        {
            "when": {"found:score": "loss"},
            "say": N_("a loss for the side to move found at depth {depth}, not proven"),
            "with": {"depth": "depth"},
        },
        {
            "say": N_("not solved: evaluation {score} at depth {depth}"),
            "with": {"score": "signed:score", "depth": "depth"},
        },
    ],
    "unsolved_in_time": [
        {"when": {"found:score": True}, "is": "say:unsolved"},
        {
            "say": N_("not solved in time: evaluation {score} at depth {depth}"),
            "with": {"score": "signed:score", "depth": "depth"},
        },
    ],
    "note": [
        {"when": {"kind": "random"}, "say": N_("a random move")},
        {"when": {"kind": "rule"}, "say": N_("rule: {rule}"), "with": {"rule": "term:rules:rule"}},
        {
            "when": {"kind": "search"},
            "say": N_("{algorithm} {depth} deep: value {value}"),
            "with": {"algorithm": "term:searches:algorithm", "depth": "say:plies", "value": "value:value"},
        },
        {"when": {"kind": "analysis", "exact": True}, "is": "say:position_value"},
        {"when": {"kind": "analysis"}, "is": "say:unsolved"},
        {"when": {"kind": "engine"}, "say": N_("another engine's move")},
        {"is": "text"},
    ],
    "percent": [{"say": N_("{percent}%"), "with": {"percent": "percent:rate"}}],
    "turned": [
        {"when": {"before": "win", "after": "draw"}, "say": N_("turned a win into a draw")},
        {"when": {"before": "win", "after": "loss"}, "say": N_("turned a win into a loss")},
        {"when": {"before": "draw", "after": "loss"}, "say": N_("turned a draw into a loss")},
    ],
    "mistake": [
        {"when": {"kind": "missed-win"}, "say": N_("let a proven win go")},
        {"when": {"kind": "allowed-win"}, "say": N_("let the opponent's forced win through")},
        {
            "when": {"kind": "dropped"},
            "say": N_("dropped the evaluation by {drop} points (more than {margin})"),
            "with": {"drop": "drop", "margin": "margin"},
        },
    ],
    "search_node": [{"when": {"node": ""}, "say": N_("the root")}, {"is": "node"}],
    "search_divergence": [
        {
            "when": {"kind": "pruned", "action": "evaluated"},
            "say": N_("at {node} you evaluated {leaf}, which {algorithm} prunes (α = {alpha} ≥ β = {beta})"),
        },
        {
            "when": {"kind": "pruned"},
            "say": N_("at {node} you searched {leaf}, which {algorithm} prunes (α = {alpha} ≥ β = {beta})"),
        },
        {
            "when": {"kind": "deeper"},
            "say": NN_(
                "at {node} you evaluated {leaf}, which {algorithm} searches {depth} ply deeper",
                "at {node} you evaluated {leaf}, which {algorithm} searches {depth} plies deeper",
            ),
            "count": "depth",
        },
        {
            "when": {"kind": "horizon", "over": True},
            "say": N_("you searched below {node}, where the game is over: {algorithm} evaluates it"),
        },
        {
            "when": {"kind": "horizon"},
            "say": N_("you searched below {node}, which {algorithm} evaluates: no depth is left there"),
        },
        {
            "when": {"kind": "skipped", "windowed": True},
            "say": N_(
                "at {node} you never searched {leaf}, which {algorithm} searches with α = {alpha}, "
                "β = {beta}: nothing cuts it off"
            ),
        },
        {
            "when": {"kind": "skipped"},
            "say": N_("at {node} you never searched {leaf}, which {algorithm} searches"),
        },
        {
            "when": {"kind": "order"},
            "say": N_("at {node} you searched {leaf} before {expected}, which {algorithm} searches first"),
        },
        {
            "when": {"kind": "value"},
            "say": N_("{node} returned {value}, where {algorithm} returns {expected_value}"),
        },
        {
            "when": {"kind": "window"},
            "say": N_(
                "you searched {node} with α = {alpha}, β = {beta}, where {algorithm} searches it with "
                "α = {expected_alpha}, β = {expected_beta}"
            ),
        },
        {
            "when": {"kind": "depth"},
            "say": N_(
                "you searched {node} with depth {depth}, where {algorithm} searches it with depth "
                "{expected_depth}"
            ),
        },
        {
            "when": {"kind": "move"},
            "say": N_("you chose {move}, where {algorithm} chooses {expected_move}"),
        },
        {"say": N_("you searched {leaf} after {algorithm} was done")},
    ],
    "search_case": [
        {
            "when": {"kind": "board", "windowed": True},
            "say": N_("{position}, {side} to move, {plies} deep, MAX is {max}, from α = {alpha}, β = {beta}"),
        },
        {
            "when": {"kind": "board"},
            "say": N_("{position}, {side} to move, {plies} deep, MAX is {max}"),
        },
        {
            "when": {"kind": "random", "windowed": True},
            "say": N_("random tree {leaves} (seed {seed}), {plies} deep, from α = {alpha}, β = {beta}"),
        },
        {
            "when": {"kind": "random"},
            "say": N_("random tree {leaves} (seed {seed}), {plies} deep"),
        },
        {
            "when": {"windowed": True},
            "say": N_("the tree {leaves}, from α = {alpha}, β = {beta}"),
        },
        {"say": N_("the tree {leaves}")},
    ],
    "search_error": [
        {
            "when": {"kind": "load", "line": True},
            "say": N_("the search's code failed to run: {error} at line {line}"),
        },
        {
            "when": {"kind": "load"},
            "say": N_("the search's code failed to run: {error}"),
        },
        {
            "when": {"kind": "load-timeout"},
            "say": N_("the search's file was still running its top level after {seconds} s"),
        },
        {
            "when": {"kind": "load-ended"},
            "say": N_("the search's file ended its process while running its top level ({status})"),
        },
        {
            "when": {"kind": "no-function"},
            "say": N_("the code defines no function '{function}': it defines {known}"),
        },
        {
            "when": {"kind": "arguments"},
            "say": N_("the search '{function}' must take ({arguments})"),
        },
        {
            "when": {"kind": "raised", "line": True},
            "say": N_("the search '{function}' raised {error} at line {line}, at {node} in the case {case}"),
        },
        {
            "when": {"kind": "raised"},
            "say": N_("the search '{function}' raised {error} at {node} in the case {case}"),
        },
        {
            "when": {"kind": "returned"},
            "say": N_(
                "the search '{function}' returned {shown} at {node} in the case {case}: expected a number, "
                "or a pair of a number and a move"
            ),
        },
        {
            "when": {"kind": "timeout"},
            "say": N_(
                "the search '{function}' ran longer than {seconds} s in the case {case}: it was stopped"
            ),
        },
        {
            "when": {"kind": "flooded"},
            "say": N_("the search '{function}' wrote more than {bytes} bytes to inarow in the case {case}"),
        },
        {
            "when": {"kind": "ended"},
            "say": N_("the search '{function}' ended its process in the case {case} ({status})"),
        },
    ],
}
"""The sentences both edges say, by name, with their fields:

- ``plies`` (``depth``): ``2 plies``;
- ``move_value`` (``outcome``: win/draw/loss or None when not exact, ``plies`` to the end or None for a
  weak solve, ``score``): a move's value for the side that plays it, ``win in 3``, ``draw``, ``eval +12``;
- ``position_value`` (``winner``: the winning side as the edge names it, None for a draw; ``plies``;
  ``proof``: ``vcf``, ``vct`` or None): an exact position's value, ``X wins in 2 moves``, ``draw with best
  play``, ``black wins in 4 moves: VCF``; ``wins_in`` is its win in so many moves;
- ``unsolved`` (``score``, ``depth``): ``not solved: evaluation +3 at depth 7``, or ``a win for the side
  to move found at depth 6, not proven`` when the score is at the edge of the evaluations (see :data:`FOUND`);
- ``unsolved_in_time`` (``score``, ``depth``): the page's word for an analysis its time cap cut short, ``not
  solved in time: evaluation +3 at depth 7`` (a win or loss found says so, as ``unsolved``);
- ``note``: a :class:`~inarow.values.answers.MoveNote`'s fields (``winner`` named by the edge), why a computer
  player chose its move: ``rule: a corner``, ``minimax 2 plies deep: value +3``;
- ``percent`` (``rate`` from 0 to 1): ``62%``;
- ``turned`` (``before``, ``after``: outcomes, the second worse): ``turned a win into a draw``;
- ``mistake`` (``kind`` of :class:`inarow.engines.gomoku.analyst.Judgement`, ``drop``, ``margin``): why a move
on a big
  board is a mistake, ``let a proven win go``;
- ``search_divergence`` (a :class:`inarow.teaching.checking.verdict.Divergence`'s fields, ``algorithm``,
  and ``windowed``: whether the algorithm has a window): where a student's search first parts from the
  registry's, ``at b you evaluated b2, which α-β prunes (α = +3 ≥ β = +2)``; ``search_node`` names the node
  (``the root``);
- ``search_case`` (a case's fields, ``side`` to move at its root, ``windowed``): what a case searches, ``the
  tree [[3,12,8],[2,4,6],[14,5,2]]``;
- ``search_error`` (``kind`` of :class:`inarow.teaching.checking.interface.SearchCodeError` or ``timeout``
  or ``ended``, and its fields): why a student's search could not be checked."""

# The sentences about a student's search write each placeholder as _EXPRESSIONS says.
for _name in ("search_divergence", "search_case", "search_error"):
    for _case in SENTENCES[_name]:
        _said = _case["say"]
        _case["with"] = _with(_said if isinstance(_said, str) else _said[1])


def signed(number: object) -> str:
    """A number with its sign: ``+12``, ``-3``, and ``0`` (also for none)."""
    return f"{number:+d}" if isinstance(number, int) and number else "0"


def search_value(value: object) -> str:
    """A textbook search's value as the JSON gives it (``"inf"``, ``"-inf"`` or an integer): ``+∞``,
    ``−∞``, ``+3``, ``−1``, ``0``; ``?`` for none."""
    if value is None:
        return "?"
    if value == "inf":
        return "+∞"
    if value == "-inf":
        return "−∞"
    number = float(str(value))
    text = str(int(abs(number))) if number.is_integer() else str(abs(number))
    return f"+{text}" if number > 0 else f"−{text}" if number < 0 else "0"


def moves_of_winner(plies: object) -> int:
    """How many moves the winner plays in ``plies`` plies that end with its winning move: ``(plies + 1) //
    2``."""
    return (int(str(plies)) + 1) // 2


FOUND = 999_999
"""The edge of the evaluations of a board too big to solve (one less than ``inarow.engines.scores.EXACT``): a
score this far from 0 that is not exact is a win (or a loss) the selective search found but did not prove
(it searched only its best candidates for the defender)."""


def found(score: object) -> str | None:
    """``win`` or ``loss`` for a score at the edge of the evaluations (:data:`FOUND`), else None."""
    if not isinstance(score, int):
        return None
    return "win" if score >= FOUND else "loss" if score <= -FOUND else None


def percent(rate: object) -> int:
    """A rate from 0 to 1 in whole percent, halves rounded up (as JavaScript's ``Math.round``)."""
    return math.floor(float(str(rate)) * 100 + 0.5)


FORMATS: dict[str, Callable[[object], object]] = {
    "signed": signed,
    "moves": moves_of_winner,
    "upper": lambda text: str(text).upper(),
    "percent": percent,
    "value": search_value,
    "found": found,
}
"""How a field is written into a sentence (the page's ``words.js`` has the same formats by these names):
``signed`` (``+12``, ``-3``, ``0``), ``moves`` (plies to the winner's moves), ``upper``, ``percent`` (a
rate in whole percent), ``value`` (a textbook search's value, ``+∞``), ``found`` (``win``/``loss`` for a
score at the edge of the evaluations, else null)."""


def _holds(test: Test, value: object) -> bool:
    if test is None:
        return value is None
    if isinstance(test, bool):
        return bool(value) == test
    return value == test


def _value(expression: str, fields: Fields) -> object:
    kind, _, rest = expression.partition(":")
    if not rest:
        return fields.get(expression)
    if kind == "say":
        return say(rest, fields)
    if kind == "term":
        table, _, name = rest.partition(":")
        value = fields.get(name)
        names = TERMS[table]
        return gettext(names[value]) if isinstance(value, str) and value in names else value
    return FORMATS[kind](fields.get(rest))


def say(name: str, fields: Fields) -> str:
    """The sentence ``name`` of :data:`SENTENCES` for ``fields``, in the current language; ``""`` when no
    case holds. Raises ``KeyError`` for a name that is not in the table."""
    for case in SENTENCES[name]:
        if not all(_holds(test, _value(field, fields)) for field, test in case.get("when", {}).items()):
            continue
        if "is" in case:
            value = _value(case["is"], fields)
            return "" if value is None else str(value)
        message = case["say"]
        params = {key: _value(expression, fields) for key, expression in case.get("with", {}).items()}
        if isinstance(message, list):
            count = _value(case["count"], fields)
            return ngettext(message[0], message[1], count if isinstance(count, int) else 0).format(**params)
        return gettext(message).format(**params)
    return ""


def module() -> str:
    """The ES module ``web/static/js/sentences.js``: :data:`TERMS` and :data:`SENTENCES` for ``words.js``."""
    return (
        "// Generated by `python -m inarow.words.sentences` from src/inarow/words/sentences.py: "
        "do not edit.\n"
        "// The sentences the command line and the page both say, composed once; words.js says them.\n"
        f"export const FOUND = {FOUND};\n\n"
        f"export const TERMS = {json.dumps(TERMS, ensure_ascii=False, indent=2)};\n\n"
        f"export const SENTENCES = {json.dumps(SENTENCES, ensure_ascii=False, indent=2)};\n"
    )


MODULE_PATH = Path(__file__).parent.parent / "web" / "static" / "js" / "sentences.js"
"""Where :func:`module` is checked in."""


if __name__ == "__main__":
    MODULE_PATH.write_text(module(), encoding="utf-8")
    sys.stdout.write(f"wrote {MODULE_PATH}\n")
