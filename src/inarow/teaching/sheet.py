"""Exam sheets to print: question sheets with blank value boxes, then a separate answer key, as one HTML page
with print CSS (A4, no text under 10 pt).

:func:`exam_sheets` makes ``count`` exams from consecutive seeds (:func:`~inarow.teaching.exam.make_exam`)
and asks, about each tree, what MIT 6.034's quizzes ask about α-β: the root's value and the leaves never
evaluated; the order of the children that prunes most; and whether the same leaves are pruned when every
leaf value is rescaled (by a positive affine map, which keeps every comparison and so the pruning; and by a
map that is not monotone, which may not). :class:`SheetAnswers` holds the answers as values; :func:`to_html`
words and draws them in the language of the context (:mod:`inarow.base.i18n`).

The tree is drawn in millimetres: a leaf takes :data:`SLOT` mm, so that a 27-leaf tree (3 levels of 3)
fits the width of an A4 page and its values are printed at 10 pt; wider trees are turned to landscape, and
a tree wider than a landscape page is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from inarow.base import i18n
from inarow.base.errors import InvalidLimitError
from inarow.base.i18n import N_, _
from inarow.engines.textbook import algorithm_named, search
from inarow.teaching.abstract import AbstractGame, AbstractState, Leaves, parse_leaves
from inarow.teaching.drawing import value_bounds
from inarow.teaching.exam import Exam, KeyNodeJSON, make_exam

SLOT = 6.5
"""Millimetres a leaf takes across the page."""

PORTRAIT_WIDTH, LANDSCAPE_WIDTH = 180.0, 267.0
"""The width of the drawing on an A4 page with margins of 15 mm, upright and turned."""

LEVEL = 17.0
"""Millimetres between two levels of the tree."""

POINT = 25.4 / 72
"""One typographic point in millimetres: the drawing's text is 10 pt or more."""

MAX_SHEETS = 40
"""The most sheets one page holds: a class."""

AFFINE = (2, 3)
"""The positive affine map of question 3: v → 2v + 3."""

SQUARE_AT = 10
"""The map of question 4, not monotone: v → (v − 10)²."""


@dataclass(frozen=True)
class SheetAnswers:
    """The answer key of one sheet, as values.

    ``value``: the root's; ``nodes``: the nodes visited; ``key``: every visited node's α, β and value (as
    :meth:`Exam.to_json` gives them); ``unevaluated``: the labels of the leaves never evaluated, left to
    right; ``best_first``: the tree with every node's children in the order that prunes most (best first
    for the side to move there) and ``best_first_evaluated`` the leaves then evaluated; ``root_order``: the
    root's children in that order; ``affine_same`` and ``square_same``: whether the same leaves are pruned
    after v → 2v + 3 and after v → (v − 10)², and ``square_unevaluated`` the leaves pruned after the latter.
    ``bounds[i]`` says whether ``key[i]``'s value is a bound: ``≥`` (at least), ``≤`` (at most) or ``""``
    (exact), as the tree drawn as text says it (:func:`~inarow.teaching.drawing.value_bounds`).
    """

    exam: Exam
    value: float
    nodes: int
    key: list[KeyNodeJSON]
    unevaluated: tuple[str, ...]
    best_first: Leaves
    best_first_evaluated: int
    root_order: tuple[str, ...]
    affine_same: bool
    square_same: bool
    square_unevaluated: tuple[str, ...]
    bounds: tuple[str, ...] = ()


def _mapped(leaves: Leaves, change: Callable[[float], float]) -> Leaves:
    if isinstance(leaves, list):
        return [_mapped(child, change) for child in leaves]
    return change(leaves)


def _unevaluated(leaves: Leaves, algorithm: str) -> tuple[str, ...]:
    """The labels of the leaves ``algorithm`` never evaluates in the tree ``leaves``."""
    root = parse_leaves(json.dumps(leaves))
    result = search(root, algorithm)
    assert result.tree is not None
    seen = {node.state.id for node in result.tree.nodes if isinstance(node.state, AbstractState)}
    game = root.game
    return tuple(
        game.labels[node] for node, value in enumerate(game.values) if value is not None and node not in seen
    )


def _best_first(leaves: Leaves, maximising: bool) -> tuple[Leaves, float]:
    """``leaves`` with every node's children sorted best first for the side to move there, and its value."""
    if not isinstance(leaves, list):
        return leaves, float(leaves)
    children = [_best_first(child, not maximising) for child in leaves]
    children.sort(key=lambda child: -child[1] if maximising else child[1])
    value = children[0][1]
    return [child for child, _value in children], value


def answers(exam: Exam) -> SheetAnswers:
    """The answer key of ``exam``'s sheet (see :class:`SheetAnswers`)."""
    algorithm = exam.result.algorithm
    document = exam.to_json()
    leaves: Leaves = exam.leaves
    best, _value = _best_first(leaves, True)
    count = sum(1 for value in exam.root.game.values if value is not None)
    evaluated = count - len(_unevaluated(best, algorithm))
    labels = exam.root.game.labels
    kids = exam.root.game.kids[0]
    order = sorted(kids, key=lambda kid: -exam.root.game.minimax[kid])
    scale, shift = AFFINE
    before = tuple(document["unevaluated_labels"])
    square = _unevaluated(_mapped(leaves, lambda v: (v - SQUARE_AT) ** 2), algorithm)
    marks = value_bounds(exam.result)
    tree = exam.result.tree
    assert tree is not None
    return SheetAnswers(
        exam=exam,
        value=exam.result.frame_value,
        nodes=exam.result.nodes,
        key=document["key"],
        unevaluated=before,
        best_first=best,
        best_first_evaluated=evaluated,
        root_order=tuple(labels[kid] for kid in order),
        affine_same=_unevaluated(_mapped(leaves, lambda v: scale * v + shift), algorithm) == before,
        square_same=square == before,
        square_unevaluated=square,
        bounds=tuple(marks.get(node.id, "") for node in tree.nodes),
    )


def exam_sheets(
    seed: int, count: int = 1, depth: int = 3, branching: int = 3, algorithm: str = "alphabeta"
) -> list[SheetAnswers]:
    """The sheets of the seeds ``seed`` … ``seed + count - 1``. Raises
    :class:`~inarow.base.errors.InvalidLimitError` for a count out of range or a tree too wide to print,
    and what :func:`~inarow.teaching.exam.make_exam` raises."""
    if not 1 <= count <= MAX_SHEETS:
        raise InvalidLimitError(
            N_("invalid count {count!r}: a printed exam has 1 to {limit} sheets"),
            count=count,
            limit=MAX_SHEETS,
        )
    if branching**depth * SLOT > LANDSCAPE_WIDTH:
        raise InvalidLimitError(
            N_("a tree of {leaves} leaves is too wide to print: at most {most} leaves fit on an A4 page"),
            leaves=branching**depth,
            most=int(LANDSCAPE_WIDTH // SLOT),
        )
    return [answers(make_exam(depth, branching, seed + index, algorithm)) for index in range(count)]


def _number(value: object) -> str:
    if value == "inf" or value == float("inf"):
        return "+∞"
    if value == "-inf" or value == float("-inf"):
        return "−∞"
    if value is None:
        return ""
    number = float(str(value))
    text = str(int(number)) if number.is_integer() else f"{number:g}"
    return text.replace("-", "−")


def tree_svg(game: AbstractGame, width: float) -> str:
    """The question's tree: a blank box at every inner node (▲ above it for Max, ▼ for Min), its label
    beside it, the leaf values below; in millimetres, ``width`` wide."""
    leaves = [node for node, value in enumerate(game.values) if value is not None]
    used = len(leaves) * SLOT
    left = (width - used) / 2
    x: dict[int, float] = {leaf: left + SLOT * (index + 0.5) for index, leaf in enumerate(leaves)}
    for node in reversed(range(len(game.labels))):
        if game.kids[node]:
            x[node] = (x[game.kids[node][0]] + x[game.kids[node][-1]]) / 2
    depth = max(game.depths)
    height = LEVEL * depth + 14
    font = 11 * POINT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.1f}mm" height="{height:.1f}mm" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" font-size="{font:.2f}">'
    ]

    def y(node: int) -> float:
        return 6 + LEVEL * game.depths[node]

    for node, kids in enumerate(game.kids):
        for kid in kids:
            parts.append(
                f'<line x1="{x[node]:.2f}" y1="{y(node) + 3:.2f}" x2="{x[kid]:.2f}" y2="{y(kid) - 3:.2f}" '
                'stroke="black" stroke-width="0.25"/>'
            )
    for node, kids in enumerate(game.kids):
        cx, cy = x[node], y(node)
        if not kids:
            parts.append(
                f'<text x="{cx:.2f}" y="{cy + 1.5:.2f}" text-anchor="middle" class="leaf">'
                f"{escape(_number(game.values[node]))}</text>"
            )
            continue
        maximising = game.depths[node] % 2 == 0
        parts.append(
            f'<rect x="{cx - 4.5:.2f}" y="{cy - 3:.2f}" width="9" height="6" fill="white" stroke="black" '
            'stroke-width="0.35" class="box"/>'
        )
        mark = "▲" if maximising else "▼"
        parts.append(f'<text x="{cx + 5.2:.2f}" y="{cy + 1.5:.2f}">{mark}</text>')
        label = game.labels[node] or _("root")
        parts.append(f'<text x="{cx - 5.2:.2f}" y="{cy + 1.5:.2f}" text-anchor="end">{escape(label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


CSS = """
@page { size: A4; margin: 15mm; }
@page landscape { size: A4 landscape; margin: 15mm; }
body { font-family: sans-serif; font-size: 11pt; line-height: 1.4; margin: 0; }
h1 { font-size: 15pt; margin: 0 0 3mm; }
h2 { font-size: 13pt; margin: 4mm 0 2mm; }
.sheet, .key { page-break-after: always; break-after: page; }
h1, h2 { page-break-after: avoid; break-after: avoid; }
.answer, li, tr { page-break-inside: avoid; break-inside: avoid; }
.key { page-break-before: always; break-before: page; }
.head { display: flex; justify-content: space-between; font-size: 12pt; margin-bottom: 4mm; }
.name { border-bottom: 0.3mm solid black; display: inline-block; min-width: 60mm; }
.wide { page: landscape; }
ol { padding-left: 6mm; }
li { margin: 2mm 0; }
.blank { display: inline-block; border: 0.3mm solid black; min-width: 25mm; height: 6mm; }
.long { min-width: 90mm; }
table { border-collapse: collapse; font-size: 10pt; }
td, th { border: 0.2mm solid #888; padding: 0.5mm 2mm; text-align: right; }
td:first-child, th:first-child { text-align: left; }
svg text { font-size: 3.9px; }
@media screen { body { max-width: 210mm; margin: 0 auto; padding: 10mm; } }
"""
"""The print style: A4, 11 pt text, 10 pt tables; the tree's text is 3.9 mm (11 pt) in its own units."""


def to_html(sheets: list[SheetAnswers], algorithm_said: str | None = None) -> str:
    """The question sheets, then the answer key, as one HTML page in the context's language."""
    if not sheets:
        return ""
    first = sheets[0].exam
    algorithm = algorithm_said or _algorithm_words(first.result.algorithm)
    count = len(sheets)
    pages: list[str] = []
    scale, shift = AFFINE
    said_name, said_seed, said_sheet = _("Name:"), _("Seed: {seed}"), _("sheet {number} of {count}")
    said_value, said_pruned = _("The root’s value:"), _("The leaves never evaluated, left to right:")
    said_order = _("The order of the root’s children that prunes most (children of every node best first):")
    said_map = _("If every leaf value v becomes {map}, are the same leaves pruned? yes / no")
    said_how = _(
        "Search the tree with {algorithm}, children from left to right; ▲ is Max, ▼ is Min, and Max moves "
        "at the root. Write every node’s value in its box and cross out the leaves never evaluated."
    )
    for number, sheet in enumerate(sheets, 1):
        exam = sheet.exam
        game = exam.root.game
        leaves = sum(1 for value in game.values if value is not None)
        wide = leaves * SLOT > PORTRAIT_WIDTH
        width = LANDSCAPE_WIDTH if wide else PORTRAIT_WIDTH
        pages.append(
            f'<section class="sheet{" wide" if wide else ""}" data-seed="{exam.seed}">\n'
            f'<div class="head"><span>{escape(said_name)} <span class="name" data-field="name"></span></span>'
            f"<span>{escape(said_seed.format(seed=exam.seed))} · "
            f"{escape(said_sheet.format(number=number, count=count))}</span></div>\n"
            f"<h1>{escape(_('α-β exam'))}</h1>\n"
            f"<p>{escape(said_how.format(algorithm=algorithm))}</p>\n" + tree_svg(game, width) + "\n<ol>\n"
            f'<li data-question="1">{escape(said_value)} <span class="blank"></span></li>\n'
            f'<li data-question="2">{escape(said_pruned)} <span class="blank long"></span></li>\n'
            f'<li data-question="3">{escape(said_order)} '
            '<span class="blank long"></span></li>\n'
            f'<li data-question="4">{escape(said_map.format(map=f"{scale}v + {shift}"))}</li>\n'
            f'<li data-question="5">{escape(said_map.format(map=f"(v − {SQUARE_AT})²"))}</li>\n'
            "</ol>\n</section>"
        )
    key: list[str] = [f'<section class="key">\n<h1>{escape(_("Answer key"))}</h1>']
    for sheet in sheets:
        exam = sheet.exam
        key.append(
            f'<div class="answer" data-seed="{exam.seed}">\n'
            f"<h2>{escape(said_seed.format(seed=exam.seed))}</h2>\n<ol>\n"
            f'<li data-question="1">{escape(said_value)} '
            f'<b data-answer="value">{escape(_number(sheet.value))}</b></li>\n'
            f'<li data-question="2">{escape(said_pruned)} <b data-answer="unevaluated">'
            f"{escape(', '.join(sheet.unevaluated) or _('none'))}</b></li>\n"
            f'<li data-question="3"><b data-answer="order">{escape(", ".join(sheet.root_order))}</b>: '
            + escape(
                _("then {evaluated} of {leaves} leaves are evaluated").format(
                    evaluated=sheet.best_first_evaluated,
                    leaves=sum(1 for value in exam.root.game.values if value is not None),
                )
            )
            + "</li>\n"
            f'<li data-question="4" data-answer="affine">{escape(_yes_no(sheet.affine_same, ()))}</li>\n'
            f'<li data-question="5" data-answer="square">'
            f"{escape(_yes_no(sheet.square_same, sheet.square_unevaluated))}</li>\n"
            "</ol>\n<table>\n<tr>"
            + "".join(f"<th>{escape(head)}</th>" for head in (_("node"), _("role"), "α", "β", _("value")))
            + "</tr>\n"
        )
        for node, bound in zip(sheet.key, sheet.bounds or [""] * len(sheet.key), strict=True):
            if node["leaf"]:
                continue
            value = f"{bound} {_number(node['value'])}" if bound else _number(node["value"])
            key.append(
                f'<tr data-label="{escape(node["label"])}"><td>{escape(node["label"] or _("root"))}</td>'
                f"<td>{escape(_role(node['role']))}</td><td>{escape(_number(node['alpha']))}</td>"
                f"<td>{escape(_number(node['beta']))}</td><td>{escape(value)}</td></tr>\n"
            )
        key.append("</table>\n</div>")
    key.append("</section>")
    title, language = _("α-β exam"), i18n.current().replace("_", "-")
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(language)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        + "\n".join(pages)
        + "\n"
        + "".join(key)
        + "\n</body>\n</html>\n"
    )


ALGORITHM_WORDS = {"alphabeta": N_("α-β pruning")}
"""How a sheet names the course's own algorithm (fail-soft α-β, the textbooks'); the others by their
titles."""


def _algorithm_words(name: str) -> str:
    return _(ALGORITHM_WORDS.get(name) or algorithm_named(name).title)


def _yes_no(same: bool, pruned: tuple[str, ...]) -> str:
    if same:
        return _("yes: the same leaves are pruned")
    return _("no: the leaves never evaluated become {leaves}").format(leaves=", ".join(pruned) or _("none"))


def _role(role: str) -> str:
    return {"max": _("Max"), "min": _("Min")}.get(role, role)
