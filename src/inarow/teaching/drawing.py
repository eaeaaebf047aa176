"""Drawing a recorded search tree (:class:`inarow.engines.textbook.Tree`): indented text, Graphviz DOT, a
self-drawn SVG, and the layout the SVG and the web page share.

Every drawing shows the same things: each node's move, whether it is a Max or Min node (or, in negamax, who
is to move), α and β on entry, the value it backed up, and the children a cut-off pruned with the reason
(``α ≥ β``, :func:`cut_reason`). Values are in the algorithm's frame (see :mod:`inarow.engines.textbook`).

The layout of :func:`layout` (used by the SVG, and handed to the web page in the ``inarow tree --format
json`` answer) is the plain layered one: the leaves and pruned children take consecutive slots from left to
right in search order, a parent sits centred above its first and last child, and each depth is one row.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from inarow.base.errors import UnknownEvaluationError
from inarow.base.i18n import N_, _
from inarow.engines.textbook import Node, SearchResult, Tree, algorithm_named
from inarow.evaluation.lines import Evaluation, evaluation_named, line_counts
from inarow.rules.game import Position, Side, other
from inarow.teaching.abstract import AbstractState
from inarow.words.phrases import format_value

SLOT = 56
"""Horizontal room per leaf in the layout handed to the web page, pixels."""

ROW = 92
"""Vertical room per depth in the layout handed to the web page, pixels."""


def in_mover_frame(result: SearchResult) -> bool:
    """Whether ``result``'s algorithm declares the negamax frame (each value from the side to move)."""
    return algorithm_named(result.algorithm).frame == "negamax"


def standpoint(result: SearchResult, node: Node) -> Side:
    """The side whose standpoint ``node``'s value takes: MAX's, or in the negamax frame the side to move."""
    return node.to_move if in_mover_frame(result) else result.max_side


def value_bounds(result: SearchResult) -> dict[int, str]:
    """The nodes whose value is a bound, not the value itself, as the textbooks draw fail-soft α-β: ``≤``
    (at most) or ``≥`` (at least), in the node's own frame, by node id. A node that cut off is one (≥ at
    a Max or negamax node, ≤ at a Min node). Above it, a Max node's value is at least what it says when a
    child's is (that child may be worth more), and at most when the children that give it are all at most;
    Min nodes the other way round; both at once, the window says which. Every other value is exact.
    Nothing is marked for an algorithm whose values are clamped to the window (fail-hard) or that has
    none."""
    algorithm = algorithm_named(result.algorithm)
    if not algorithm.windowed or algorithm.clamps:
        return {}
    nodes = recorded_tree(result).nodes
    marks: dict[int, str] = {}
    flip = {"≤": "≥", "≥": "≤", "": ""}
    for node in reversed(nodes):  # children are entered after their parent
        if node.cutoff:
            marks[node.id] = "≤" if node.role == "min" else "≥"
            continue
        if not node.children:
            continue
        negamax = node.role == "negamax"
        seen = [
            (
                -nodes[child].value if negamax else nodes[child].value,
                flip[marks.get(child, "")] if negamax else marks.get(child, ""),
            )
            for child in node.children
        ]
        up = node.role != "min"
        rises, falls = ("≥", "≤") if up else ("≤", "≥")
        loose = any(mark == rises for _, mark in seen)
        giving = [mark for value, mark in seen if value == node.value]
        tight = bool(giving) and all(mark == falls for mark in giving)
        if loose and not tight:
            marks[node.id] = rises
        elif tight and not loose:
            marks[node.id] = falls
        elif loose and node.alpha is not None and node.beta is not None:
            if node.value <= node.alpha:
                marks[node.id] = "≤"
            elif node.value >= node.beta:
                marks[node.id] = "≥"
    # at least +∞ is +∞, at most -∞ is -∞: those values are exact
    return {
        node: mark
        for node, mark in marks.items()
        if not (
            (mark == "≥" and nodes[node].value == math.inf)
            or (mark == "≤" and nodes[node].value == -math.inf)
        )
    }


def value_said(result: SearchResult, node: Node, marks: dict[int, str] | None = None) -> str:
    """A node's value as drawn: ``+3``, or a bound ``≤+2`` (see :func:`value_bounds`)."""
    mark = (value_bounds(result) if marks is None else marks).get(node.id, "")
    return mark + format_value(node.value)


def recorded_tree(result: SearchResult) -> Tree:
    """The tree ``result`` recorded; raises ValueError for a search run with ``record=False``."""
    if result.tree is None:
        raise ValueError("the search was run without recording its tree (record=False)")
    return result.tree


def _nodes(result: SearchResult) -> tuple[Node, ...]:
    return recorded_tree(result).nodes


def cut_reason(node: Node) -> str | None:
    """Why a node cut off, e.g. ``α=3 ≥ β=2``; None without a cut-off."""
    if node.cut is None:
        return None
    alpha, beta = node.cut
    return f"α={format_value(alpha)} ≥ β={format_value(beta)}"


def cut_kind(node: Node) -> str | None:
    """Which cut-off ended ``node``, in words: an α cut-off at a Min node (a child's value ≤ α), a β
    cut-off at a Max or negamax node (a value ≥ β); None without one."""
    if node.cut is None:
        return None
    return _("α cut-off") if node.role == "min" else _("β cut-off")


def _cut_said(node: Node) -> str:
    """``β cut-off: α=+3 ≥ β=+2``."""
    return _("{kind}: {reason}").format(kind=cut_kind(node), reason=cut_reason(node))


def heading(result: SearchResult) -> str:
    """One line saying what was searched and whose standpoint the values take."""
    position = result.position
    options = "".join(
        [
            _(", children row by row from the top") if result.order == "rows" else "",
            _(", quiescence at the horizon") if result.quiescence else "",
            _(", an inner node at the horizon or ordered by value takes its minimax value")
            if isinstance(position, AbstractState) and position.game.estimates
            else "",
        ]
    )
    negamax = in_mover_frame(result)
    if not isinstance(position, Position):
        frame = (
            _("values from the side to move at each node")
            if negamax
            else _("Max to move at the root: values from Max's standpoint")
        )
        said = _("{algorithm} on the tree {tree}{options}; {frame}")
        return said.format(algorithm=result.algorithm, tree=position.diagram(), options=options, frame=frame)
    frame = (
        _("values from the side to move at each node")
        if negamax
        else _("{side} is Max: values from {side}'s standpoint").format(side=result.max_side)
    )
    said = _(
        "{algorithm}, depth {depth}, {evaluation} evaluation on {position} ({game}, {side} to move)"
        "{options}; {frame}"
    )
    return said.format(
        algorithm=result.algorithm,
        depth=result.depth,
        evaluation=result.evaluation,
        position=repr(position.diagram()),
        game=position.game.name,
        side=position.turn,
        options=options,
        frame=frame,
    )


def legend() -> str:
    """What the marks of a drawn tree mean, in the course's words."""
    return _(
        "e= the evaluation function e(P) at a leaf; = a backed-up value; α cut-off at a Min node "
        "(a value ≤ α), β cut-off at a Max node (a value ≥ β)"
    )


def leaf_value_text(result: SearchResult, bit: int) -> str | None:
    """An abstract tree's leaf value as the drawings show it (``4``, ``-2``); None for a board or an inner
    node."""
    position = result.position
    if isinstance(position, AbstractState):
        value = position.game.values[bit]
        if value is not None:
            return format_value(value).lstrip("+")
    return None


def hidden_leaves(result: SearchResult, bit: int) -> tuple[str, ...]:
    """The leaf values under a pruned node of an abstract tree, left to right (the node's own value for a
    leaf); () for a board."""
    position = result.position
    if not isinstance(position, AbstractState):
        return ()
    game = position.game
    if game.values[bit] is not None:
        return (leaf_value_text(result, bit) or "",)
    return tuple(value for kid in game.kids[bit] for value in hidden_leaves(result, kid))


def pruned_name(result: SearchResult, bit: int) -> str:
    """A pruned move's name; in an abstract tree a pruned leaf's value follows it: ``b2 (4)``."""
    name = result.position.game.cell_name(bit)
    value = leaf_value_text(result, bit)
    return name if value is None else f"{name} ({value})"


def unevaluated_leaves(result: SearchResult) -> tuple[int, ...]:
    """The leaves of an abstract tree the search never evaluated, in the order the search would have met
    them (left to right, unless move ordering changed the order): those under a cut-off, and under an
    inner node scored at the horizon; () for a board."""
    position = result.position
    if not isinstance(position, AbstractState):
        return ()
    game, nodes = position.game, _nodes(result)
    found: list[int] = []

    def below(node: int) -> None:
        if game.values[node] is not None:
            found.append(node)
        for kid in game.kids[node]:
            below(kid)

    def walk(node: Node) -> None:
        state = node.state
        assert isinstance(state, AbstractState)
        if not node.children and game.values[state.id] is None:
            below(state.id)  # an inner node scored at the horizon: nothing under it was evaluated
        for child in node.children:
            walk(nodes[child])
        for bit in node.pruned:
            below(bit)

    walk(nodes[0])
    return tuple(found)


def _label(result: SearchResult, node: Node) -> str:
    game = result.position.game
    return _("root") if node.move is None else game.cell_name(node.move)


ROLE_WORDS = {"max": N_("Max"), "min": N_("Min")}
"""A node's role as the drawings name it (极大节点 / 极小节点 in Chinese)."""


def _role(node: Node) -> str:
    role = ROLE_WORDS.get(node.role)
    return _(role) if role is not None else _("{side} to move").format(side=node.to_move)


def breakdown(result: SearchResult, node: Node, evaluation: Evaluation | None = None) -> str | None:
    """How a weight-list e(P) scored a leaf at the horizon, e.g. ``x: 3×1 + 2×1 = 5; o: 4×1 = 4``, for
    the side whose standpoint the value takes; None for other leaves and other evaluations."""
    state = node.state
    if node.leaf != "depth" or not isinstance(state, Position):
        return None
    if evaluation is None:
        try:
            evaluation = evaluation_named(result.evaluation)
        except UnknownEvaluationError:
            return None
    side = standpoint(result, node)
    counts = line_counts(state, side, evaluation)
    if counts is None:
        return None

    def terms(owner: Side, lines: tuple[int, ...], total: float) -> str:
        parts = [
            f"{count}×{format_value(weight).lstrip('+')}"
            for count, weight in zip(lines, counts.weights, strict=True)
            if count and weight
        ]
        return f"{owner}: {' + '.join(parts) or '0'} = {format_value(total).lstrip('+')}"

    return "; ".join(
        [terms(side, counts.mine, counts.mine_total), terms(other(side), counts.theirs, counts.theirs_total)]
    )


def _describe(
    result: SearchResult,
    node: Node,
    evaluation: Evaluation | None = None,
    marks: dict[int, str] | None = None,
) -> str:
    parts = [_label(result, node), _role(node)]
    value = format_value(node.value)
    if marks is None:
        marks = value_bounds(result)
    if node.alpha is not None and node.beta is not None:
        parts.append(f"α={format_value(node.alpha)} β={format_value(node.beta)}")
    if node.leaf == "depth":
        found = breakdown(result, node, evaluation)
        parts.append(f"e={value}" + ("" if found is None else f" ({found})"))
    elif node.leaf == "table":
        parts.append(_("= {value} (from the table)").format(value=value))
    elif node.leaf == "leaf":
        parts.append(f"= {value}")
    elif node.leaf is not None:
        parts.append(f"= {value} ({_(LEAF_WORDS.get(node.leaf, node.leaf))})")
    else:
        mark = marks.get(node.id)
        parts.append(f"= {value}" if mark is None else f"{mark} {value}")
        if node.best is not None:
            parts.append(_("best {move}").format(move=result.position.game.cell_name(node.best)))
        if node.seen is not None:
            parts.append(_("(fail-hard: its best child gave {value})").format(value=format_value(node.seen)))
        if node.extended:
            parts.append(_("(quiescence: searched on at the horizon)"))
        elif node.order in ("evaluation", "previous-best") and node.children:
            parts.append(_("(children ordered: {order})").format(order=_(ORDER_WORDS[node.order])))
        if node.cutoff:
            parts.append(_("✂ {cut}").format(cut=_cut_said(node)))
    return "  ".join(parts)


LEAF_WORDS = {"won": N_("won"), "lost": N_("lost"), "draw": N_("draw")}
"""How a node that ends the game is marked in the text."""


def to_text(result: SearchResult, evaluation: Evaluation | None = None) -> str:
    """The tree as indented text, one node a line, with ``✂`` marking what each cut-off pruned and which
    cut-off it was; then the value, and on an abstract tree the leaves never evaluated, in search order.
    ``evaluation`` is the one searched with (default: the one the result names), for e(P)'s breakdown."""
    nodes = _nodes(result)
    lines = [heading(result), legend()]
    marks = value_bounds(result)

    def walk(node: Node, prefix: str, last: bool, root: bool) -> None:
        branch = "" if root else ("└─ " if last else "├─ ")
        lines.append(prefix + branch + _describe(result, node, evaluation, marks))
        inner = prefix if root else prefix + ("   " if last else "│  ")
        for index, child in enumerate(node.children):
            walk(nodes[child], inner, index == len(node.children) - 1 and not node.pruned, False)
        if node.pruned:
            moves = " ".join(pruned_name(result, bit) for bit in node.pruned)
            lines.append(
                inner + "└─ " + _("✂ pruned {moves} ({reason})").format(moves=moves, reason=_cut_said(node))
            )

    walk(nodes[0], "", True, True)
    lines.append(
        _("value {value}; best move {move}; nodes {nodes}").format(
            value=format_value(result.frame_value), move=result.move_name or "-", nodes=f"{result.nodes:,}"
        )
    )
    if isinstance(result.position, AbstractState):
        never = unevaluated_leaves(result)
        game = result.position.game
        if never:
            values = " ".join(leaf_value_text(result, leaf) or "" for leaf in never)
            labels = " ".join(game.labels[leaf] for leaf in never)
            lines.append(
                _("pruned: the leaves {values} ({labels}), never evaluated").format(
                    values=values, labels=labels
                )
            )
        else:
            lines.append(_("pruned: {moves}").format(moves=_("nothing")))
    return "\n".join(lines)


def to_blank_text(result: SearchResult) -> str:
    """The tree of ``result`` (a search that visited every node: minimax) as a question to fill in: each
    inner node's move and role with a blank for its value, each leaf with its value."""
    nodes = _nodes(result)
    lines: list[str] = []

    def walk(node: Node, prefix: str, last: bool, root: bool) -> None:
        branch = "" if root else ("└─ " if last else "├─ ")
        if node.children:
            said = f"{_label(result, node)}  {_role(node)}  ____"
        else:
            said = f"{_label(result, node)}  {format_value(node.value).lstrip('+')}"
        lines.append(prefix + branch + said)
        inner = prefix if root else prefix + ("   " if last else "│  ")
        for index, child in enumerate(node.children):
            walk(nodes[child], inner, index == len(node.children) - 1, False)

    walk(nodes[0], "", True, True)
    return "\n".join(lines)


ORDER_WORDS = {
    "columns": N_("column by column"),
    "rows": N_("row by row from the top"),
    "evaluation": N_("best first by e(P) after the move"),
    "previous-best": N_("the previous depth's best move first"),
    "forcing": N_("only the forcing moves (win at once or block)"),
}
"""Why a node's children come in the order searched."""


@dataclass(frozen=True, kw_only=True)
class Spot:
    """Where :func:`layout` puts a node (``pruned`` None) or a pruned child of ``node`` (``pruned`` its
    move), in pixels."""

    node: int
    pruned: int | None
    x: float
    y: float


def layout(tree: Tree, slot: float = SLOT, row: float = ROW) -> tuple[Spot, ...]:
    """Places for every node and every pruned child, in pixels (see the module docstring; ``slot`` the room
    per leaf, ``row`` per depth), ordered by node id, each node before its pruned children."""
    nodes = tree.nodes
    spots: list[Spot] = []
    count = 0

    def place(node: Node) -> float:
        nonlocal count
        xs = [place(nodes[child]) for child in node.children]
        for bit in node.pruned:
            x = slot / 2 + count * slot
            count += 1
            spots.append(Spot(node=node.id, pruned=bit, x=x, y=(node.depth + 1) * row + row / 2))
            xs.append(x)
        if xs:
            x = (xs[0] + xs[-1]) / 2
        else:
            x = slot / 2 + count * slot
            count += 1
        spots.append(Spot(node=node.id, pruned=None, x=x, y=node.depth * row + row / 2))
        return x

    place(nodes[0])
    return tuple(sorted(spots, key=lambda spot: (spot.node, spot.pruned is not None, spot.pruned or 0)))


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(result: SearchResult, evaluation: Evaluation | None = None) -> str:
    """The tree in Graphviz DOT, in search order (each node's searched children, then what its cut-off
    pruned, so that ``ordering=out`` draws them left to right as searched): Max nodes as triangles, Min
    nodes upside down, pruned children dashed grey boxes naming the cut-off (and, in an abstract tree,
    the leaf value they hide); leaves at the horizon show e(P)'s breakdown."""
    nodes, game = _nodes(result), result.position.game
    shapes = {"max": "triangle", "min": "invtriangle", "negamax": "circle"}
    marks = value_bounds(result)
    title = heading(result) + "; " + _("{nodes} nodes visited").format(nodes=f"{result.nodes:,}")
    lines = [
        "digraph search {",
        f"  label={_dot_string(title + chr(10) + legend())};",
        '  labelloc="t";',
        "  ordering=out;",
        '  node [fontname="Helvetica", fontsize=10, margin=0.02];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]

    def emit(node: Node) -> None:
        label = [_role(node)]
        if node.alpha is not None and node.beta is not None:
            label.append(f"α={format_value(node.alpha)} β={format_value(node.beta)}")
        label.append(("e=" if node.leaf == "depth" else "v=") + value_said(result, node, marks))
        found = breakdown(result, node, evaluation)
        if found is not None:
            label.append(found)
        if node.leaf in LEAF_WORDS:
            label.append(_(LEAF_WORDS[node.leaf]))
        elif node.leaf == "table":
            label.append(_("from the table"))
        if node.cutoff:
            label.append(f"✂ {cut_kind(node)}")
        attributes = [f"label={_dot_string(chr(10).join(label))}", f"shape={shapes[node.role]}"]
        if node.cutoff:
            attributes.append("color=red")
        lines.append(f"  n{node.id} [{', '.join(attributes)}];")
        if node.parent is not None and node.move is not None:
            lines.append(f"  n{node.parent} -> n{node.id} [label={_dot_string(game.cell_name(node.move))}];")
        for child in node.children:
            emit(nodes[child])
        for bit in node.pruned:
            name = f"p{node.id}_{bit}"
            said = [_("pruned")]
            value = leaf_value_text(result, bit)
            if value is not None:
                said.append(value)
            said.append(_cut_said(node))
            grey = "style=dashed, color=grey, fontcolor=grey"
            lines.append(f"  {name} [label={_dot_string(chr(10).join(said))}, shape=box, {grey}];")
            lines.append(
                f"  n{node.id} -> {name} [label={_dot_string(game.cell_name(bit))}, style=dashed, "
                "color=grey, fontcolor=grey];"
            )

    emit(nodes[0])
    lines.append("}")
    return "\n".join(lines) + "\n"


SVG_SLOT = 76
"""Horizontal room per leaf in the SVG, pixels (the page's layout, :data:`SLOT`, is tighter)."""

SVG_ROW = 118
"""Vertical room per depth in the SVG, pixels."""

SVG_TOP = 64
"""Room above the tree for the title and the legend, pixels."""

_MARGIN = 20
"""Room left of the first leaf in the SVG, for the text under it, pixels."""

_SIZE = 21
"""Half the width of a node's shape in the SVG, pixels."""


def _triangle(x: float, y: float, up: bool) -> str:
    s = _SIZE
    if up:
        return (
            f"{x:.1f},{y - s:.1f} {x - s * 1.15:.1f},{y + s * 0.8:.1f} {x + s * 1.15:.1f},{y + s * 0.8:.1f}"
        )
    return f"{x:.1f},{y + s:.1f} {x - s * 1.15:.1f},{y - s * 0.8:.1f} {x + s * 1.15:.1f},{y - s * 0.8:.1f}"


def _text(x: float, y: float, text: str, **attributes: str) -> str:
    """A text with a white halo, so that no edge crosses its letters."""
    extra = "".join(f' {name.rstrip("_").replace("_", "-")}="{value}"' for name, value in attributes.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" stroke="white" stroke-width="3" paint-order="stroke"{extra}>'
        f"{escape(text)}</text>"
    )


def _pruned_svg(result: SearchResult, node: Node, bit: int, gx: float, gy: float, *, captioned: bool) -> str:
    """The grey dashed box of ``node``'s pruned child ``bit`` at (``gx``, ``gy``), naming the leaf values
    it hides; with ``captioned`` (the first pruned child, not a blank question) the cut-off under it."""
    game = result.position.game
    value = " ".join(hidden_leaves(result, bit)) or None
    said = f"{game.cell_name(bit)} " + _("pruned") + (f" ({value})" if value is not None else "")
    caption = ""
    if captioned:
        caption = _text(gx, gy + 30, f"✂ {cut_kind(node)}", text_anchor="middle", fill="#b22", font_size="10")
        caption += _text(
            gx, gy + 42, cut_reason(node) or "", text_anchor="middle", fill="#b22", font_size="9"
        )
    inside = value if value is not None and len(value) <= 8 else "✂"
    return (
        f'<g class="pruned"><title>{escape(said)}: {escape(_cut_said(node))}</title>'
        f'<rect x="{gx - 18:.1f}" y="{gy - 16:.1f}" width="36" height="32" rx="3" fill="#f4f4f4" '
        'stroke="#bbb" stroke-dasharray="3 2"/>'
        f'<text x="{gx:.1f}" y="{gy - 3:.1f}" text-anchor="middle" fill="#888" font-size="9">'
        f"{escape(game.cell_name(bit))}</text>"
        f'<text x="{gx:.1f}" y="{gy + 11:.1f}" text-anchor="middle" fill="#888" font-weight="bold">'
        f"{escape(inside)}</text>{caption}</g>"
    )


def to_svg(result: SearchResult, *, blank: bool = False, evaluation: Evaluation | None = None) -> str:
    """The tree drawn as SVG without Graphviz, ready for a slide: a title and a legend on top; Max nodes
    ▲, Min nodes ▼, negamax nodes ●, each value inside its shape; the window ``α = … β = …`` beside an
    inner node (below a leaf), clear of the edges; the move on each edge; e(P)'s breakdown under each
    leaf at the horizon; pruned children grey dashed boxes naming the leaf value they hide, with the
    cut-off (α or β) under them. With ``blank``, a question to fill in: inner values and windows left
    out, leaf values kept."""
    nodes, game = _nodes(result), result.position.game
    spots = layout(recorded_tree(result), SVG_SLOT, SVG_ROW)
    where = {(spot.node, spot.pruned): spot for spot in spots}
    marks = value_bounds(result)

    def y_of(spot: Spot) -> float:
        return spot.y + SVG_TOP

    width = max(max(spot.x for spot in spots) + SVG_SLOT / 2 + 40 + _MARGIN, 480)
    height = max(y_of(spot) for spot in spots) + SVG_ROW / 2 + 40
    title = heading(result) if not blank else _("Fill in every node's backed-up value and α, β on entry")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="{-_MARGIN} 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(heading(result))}</title>",
        f'<rect x="{-_MARGIN}" width="100%" height="100%" fill="white"/>',
    ]
    head = re.split(r"; |；", title, maxsplit=1)
    out.append(_text(8 - _MARGIN, 18, head[0], font_size="13", font_weight="bold", class_="title"))
    if len(head) > 1:
        out.append(_text(8 - _MARGIN, 34, head[1], font_size="11", fill="#333"))
    key = _(
        "▲ Max node   ▼ Min node   values: e(P) at a leaf, backed up above   "
        "✂ pruned: α cut-off at a Min node, β cut-off at a Max node"
    )
    out.append(_text(8 - _MARGIN, 50, key, font_size="10", fill="#555", class_="legend"))
    edges, labels, shapes = [], [], []
    leaf_index = -1
    for node in nodes:
        here = where[node.id, None]
        hx, hy = here.x, y_of(here)
        if node.parent is not None and node.move is not None:
            above = where[node.parent, None]
            ax, ay = above.x, y_of(above)
            edges.append(
                f'<line x1="{ax:.1f}" y1="{ay + _SIZE:.1f}" x2="{hx:.1f}" y2="{hy - _SIZE:.1f}" '
                'stroke="#555"/>'
            )
            lx, ly = ax + (hx - ax) * 0.62, ay + _SIZE + (hy - ay - 2 * _SIZE) * 0.62
            labels.append(_text(lx + 4, ly, game.cell_name(node.move), fill="#225", font_size="10"))
        for index, bit in enumerate(node.pruned):
            gone = where[node.id, bit]
            gx, gy = gone.x, y_of(gone)
            edges.append(
                f'<line x1="{hx:.1f}" y1="{hy + _SIZE:.1f}" x2="{gx:.1f}" y2="{gy - 16:.1f}" stroke="#bbb" '
                'stroke-dasharray="4 3"/>'
            )
            shapes.append(_pruned_svg(result, node, bit, gx, gy, captioned=index == 0 and not blank))
        hidden = blank and bool(node.children)
        fill = "#fde2e2" if node.cutoff and not blank else "#e8f0fe"
        if node.role == "negamax":
            figure = f'<circle cx="{hx:.1f}" cy="{hy:.1f}" r="{_SIZE}" fill="{fill}" stroke="#333"/>'
            baseline = hy + 4
        else:
            up = node.role == "max"
            figure = f'<polygon points="{_triangle(hx, hy, up)}" fill="{fill}" stroke="#333"/>'
            baseline = hy + (0.2 * _SIZE + 4 if up else -0.2 * _SIZE + 4)
        title_text = _describe(result, node, evaluation, marks) if not blank else _label(result, node)
        value_text = "" if hidden else value_said(result, node, marks)
        if node.leaf == "leaf" and isinstance(node.state, AbstractState):
            value_text = leaf_value_text(result, node.state.id) or value_text  # as the question's lists
        parts = [
            f'<g class="node" data-id="{node.id}"><title>{escape(title_text)}</title>{figure}',
            f'<text x="{hx:.1f}" y="{baseline:.1f}" text-anchor="middle" font-weight="bold" font-size="12">'
            f"{escape(value_text)}</text>",
        ]
        if node.alpha is not None and node.beta is not None and not blank:
            alpha, beta = f"α = {format_value(node.alpha)}", f"β = {format_value(node.beta)}"
            if node.children or node.pruned:
                parts.append(
                    _text(hx + _SIZE * 1.2 + 4, hy - 3, alpha, fill="#555", font_size="10", class_="window")
                )
                parts.append(
                    _text(hx + _SIZE * 1.2 + 4, hy + 10, beta, fill="#555", font_size="10", class_="window")
                )
            else:
                parts.append(
                    _text(
                        hx,
                        hy + _SIZE + 13,
                        f"{alpha}  {beta}",
                        text_anchor="middle",
                        fill="#555",
                        font_size="9",
                        class_="window",
                    )
                )
        if not blank and not node.children:
            found = breakdown(result, node, evaluation)
            if found is not None:
                leaf_index += 1
                below = 24 * (leaf_index % 2)  # neighbouring leaves' breakdowns alternate in height
                for number, piece in enumerate(found.split("; ")):
                    piece = piece.replace(" ", "").replace(":", ": ", 1)
                    parts.append(
                        _text(
                            hx,
                            hy + _SIZE + 26 + below + 11 * number,
                            piece,
                            text_anchor="middle",
                            fill="#264",
                            font_size="9",
                            class_="breakdown",
                        )
                    )
        parts.append("</g>")
        shapes.append("".join(parts))
    out += edges + shapes + labels
    out.append("</svg>")
    return "\n".join(out) + "\n"


def exam_svg(question: SearchResult, key: SearchResult) -> str:
    """An exam sheet as one SVG: the blank question (``question``, a search that visited every node) above
    its answer key (``key``), each drawn by :func:`to_svg` and nested whole."""
    top, bottom = to_svg(question, blank=True), to_svg(key)
    sizes = [_svg_size(top), _svg_size(bottom)]
    width = max(size[0] for size in sizes)
    height = sizes[0][1] + sizes[1][1]
    title = _("Exam: the question, then its answer key")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">\n'
        f"<title>{escape(title)}</title>\n"
        + top.replace("<svg ", '<svg x="0" y="0" ', 1)
        + bottom.replace("<svg ", f'<svg x="0" y="{sizes[0][1]:.0f}" ', 1)
        + "</svg>\n"
    )


def _svg_size(document: str) -> tuple[float, float]:
    head = document.split(">", 1)[0]
    width = float(head.split('width="', 1)[1].split('"', 1)[0])
    height = float(head.split('height="', 1)[1].split('"', 1)[0])
    return width, height
