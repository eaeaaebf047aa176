"""Drawing a recorded search tree (:class:`inarow.search.textbook.Tree`): indented text, Graphviz DOT, a
self-drawn SVG, and the layout the SVG and the web page share.

Every drawing shows the same things: each node's move, whether it is a Max or Min node (or, in negamax, who
is to move), α and β on entry, the value it backed up, and the children a cut-off pruned with the reason
(``α ≥ β``, :func:`cut_reason`). Values are in the algorithm's frame (see :mod:`inarow.search.textbook`).

The layout of :func:`layout` (used by the SVG, and handed to the web page in the ``inarow tree --format
json`` answer) is the plain layered one: the leaves and pruned children take consecutive slots from left to
right in search order, a parent sits centred above its first and last child, and each depth is one row.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from inarow.i18n import N_, _
from inarow.rules import Position
from inarow.search.abstract import AbstractState
from inarow.search.textbook import Node, SearchResult, Tree
from inarow.words import format_value

SLOT = 56
"""Horizontal room per leaf in the SVG, pixels."""

ROW = 92
"""Vertical room per depth in the SVG, pixels."""

_NODE_SIZE = 15


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


def heading(result: SearchResult) -> str:
    """One line saying what was searched and whose standpoint the values take."""
    position = result.position
    options = "".join(
        [
            _(", children row by row from the top") if result.order == "rows" else "",
            _(", quiescence at the horizon") if result.quiescence else "",
        ]
    )
    negamax = result.algorithm in ("negamax", "negamax-alphabeta")
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
        else _("x is Max: values from x's standpoint")
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


def pruned_name(result: SearchResult, bit: int) -> str:
    """A pruned move's name; in an abstract tree a pruned leaf's value follows it: ``b2 (4)``."""
    position = result.position
    name = position.game.cell_name(bit)
    if isinstance(position, AbstractState):
        value = position.game.values[bit]
        if value is not None:
            return f"{name} ({format_value(value).lstrip('+')})"
    return name


def _label(result: SearchResult, node: Node) -> str:
    game = result.position.game
    return _("root") if node.move is None else game.cell_name(node.move)


def _role(node: Node) -> str:
    return {"max": "Max", "min": "Min"}.get(node.role) or _("{side} to move").format(side=node.to_move)


LEAF_WORDS = {"won": N_("won"), "lost": N_("lost"), "draw": N_("draw")}
"""How a node that ends the game is marked in the text."""


def _describe(result: SearchResult, node: Node) -> str:
    parts = [_label(result, node), _role(node)]
    value = format_value(node.value)
    if node.alpha is not None and node.beta is not None:
        parts.append(f"α={format_value(node.alpha)} β={format_value(node.beta)}")
    if node.leaf == "depth":
        parts.append(f"e={value}")
    elif node.leaf == "table":
        parts.append(_("= {value} (from the table)").format(value=value))
    elif node.leaf == "leaf":
        parts.append(f"= {value}")
    elif node.leaf is not None:
        parts.append(f"= {value} ({_(LEAF_WORDS.get(node.leaf, node.leaf))})")
    else:
        parts.append(f"= {value}")
        if node.best is not None:
            parts.append(_("best {move}").format(move=result.position.game.cell_name(node.best)))
        if node.seen is not None:
            parts.append(_("(fail-hard: its best child gave {value})").format(value=format_value(node.seen)))
        if node.extended:
            parts.append(_("(quiescence: searched on at the horizon)"))
        elif node.order in ("evaluation", "previous-best") and node.children:
            parts.append(_("(children ordered: {order})").format(order=_(ORDER_WORDS[node.order])))
        if node.cutoff:
            parts.append(_("✂ cut-off: {reason}").format(reason=cut_reason(node)))
    return "  ".join(parts)


def to_text(result: SearchResult) -> str:
    """The tree as indented text, one node a line, with ``✂`` marking what each cut-off pruned."""
    nodes = _nodes(result)
    lines = [heading(result)]

    def walk(node: Node, prefix: str, last: bool, root: bool) -> None:
        branch = "" if root else ("└─ " if last else "├─ ")
        lines.append(prefix + branch + _describe(result, node))
        inner = prefix if root else prefix + ("   " if last else "│  ")
        for index, child in enumerate(node.children):
            walk(nodes[child], inner, index == len(node.children) - 1 and not node.pruned, False)
        if node.pruned:
            moves = " ".join(pruned_name(result, bit) for bit in node.pruned)
            lines.append(
                inner + "└─ " + _("✂ pruned {moves} ({reason})").format(moves=moves, reason=cut_reason(node))
            )

    walk(nodes[0], "", True, True)
    lines.append(
        _("value {value}; best move {move}; nodes {nodes}").format(
            value=format_value(result.frame_value), move=result.move_name or "-", nodes=f"{result.nodes:,}"
        )
    )
    if isinstance(result.position, AbstractState):
        pruned = [pruned_name(result, bit) for node in nodes for bit in node.pruned]
        lines.append(_("pruned: {moves}").format(moves=" ".join(pruned) if pruned else _("nothing")))
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


def layout(tree: Tree) -> tuple[Spot, ...]:
    """Places for every node and every pruned child, in pixels (see the module docstring), ordered by node
    id, each node before its pruned children."""
    nodes = tree.nodes
    spots: list[Spot] = []
    slot = 0

    def place(node: Node) -> float:
        nonlocal slot
        xs = [place(nodes[child]) for child in node.children]
        for bit in node.pruned:
            x = SLOT / 2 + slot * SLOT
            slot += 1
            spots.append(Spot(node=node.id, pruned=bit, x=x, y=(node.depth + 1) * ROW + ROW / 2))
            xs.append(x)
        if xs:
            x = (xs[0] + xs[-1]) / 2
        else:
            x = SLOT / 2 + slot * SLOT
            slot += 1
        spots.append(Spot(node=node.id, pruned=None, x=x, y=node.depth * ROW + ROW / 2))
        return x

    place(nodes[0])
    return tuple(sorted(spots, key=lambda spot: (spot.node, spot.pruned is not None, spot.pruned or 0)))


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(result: SearchResult) -> str:
    """The tree in Graphviz DOT: Max nodes as triangles, Min nodes upside down, pruned children dashed
    grey."""
    nodes, game = _nodes(result), result.position.game
    shapes = {"max": "triangle", "min": "invtriangle", "negamax": "circle"}
    lines = [
        "digraph search {",
        f"  label={_dot_string(heading(result) + f'; {result.nodes:,} nodes')};",
        '  labelloc="t";',
        "  ordering=out;",
        '  node [fontname="Helvetica", fontsize=10, margin=0.02];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for node in nodes:
        label = [_role(node)]
        if node.alpha is not None and node.beta is not None:
            label.append(f"α={format_value(node.alpha)} β={format_value(node.beta)}")
        label.append(("e=" if node.leaf == "depth" else "v=") + format_value(node.value))
        if node.leaf in ("won", "lost", "draw", "table"):
            label.append(str(node.leaf))
        attributes = [f"label={_dot_string(chr(10).join(label))}", f"shape={shapes[node.role]}"]
        if node.cutoff:
            attributes.append("color=red")
        lines.append(f"  n{node.id} [{', '.join(attributes)}];")
        if node.parent is not None and node.move is not None:
            lines.append(f"  n{node.parent} -> n{node.id} [label={_dot_string(game.cell_name(node.move))}];")
        for bit in node.pruned:
            name = f"p{node.id}_{bit}"
            reason = f"pruned\n{cut_reason(node)}" if node.cutoff else "pruned"
            grey = "style=dashed, color=grey, fontcolor=grey"
            lines.append(f"  {name} [label={_dot_string(reason)}, shape=box, {grey}];")
            lines.append(
                f"  n{node.id} -> {name} [label={_dot_string(game.cell_name(bit))}, style=dashed, "
                "color=grey, fontcolor=grey];"
            )
    lines.append("}")
    return "\n".join(lines) + "\n"


def _triangle(x: float, y: float, up: bool) -> str:
    s = _NODE_SIZE
    if up:
        points = f"{x:.1f},{y - s:.1f} {x - s:.1f},{y + s * 0.8:.1f} {x + s:.1f},{y + s * 0.8:.1f}"
    else:
        points = f"{x:.1f},{y + s:.1f} {x - s:.1f},{y - s * 0.8:.1f} {x + s:.1f},{y - s * 0.8:.1f}"
    return points


def to_svg(result: SearchResult) -> str:
    """The tree drawn as SVG without Graphviz: Max nodes ▲, Min nodes ▼, negamax nodes ●, values inside,
    α/β under each node, the move on each edge, pruned children grey and dashed with the reason."""
    nodes, game = _nodes(result), result.position.game
    spots = layout(recorded_tree(result))
    where = {(spot.node, spot.pruned): spot for spot in spots}
    width = max(spot.x for spot in spots) + SLOT / 2
    height = max(spot.y for spot in spots) + ROW / 2 + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="10">',
        f"<title>{escape(heading(result))}</title>",
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    edges, shapes = [], []
    for node in nodes:
        here = where[node.id, None]
        if node.parent is not None and node.move is not None:
            above = where[node.parent, None]
            edges.append(
                f'<line x1="{above.x:.1f}" y1="{above.y + _NODE_SIZE:.1f}" x2="{here.x:.1f}" '
                f'y2="{here.y - _NODE_SIZE:.1f}" stroke="#555"/>'
            )
            edges.append(
                f'<text x="{(above.x + here.x) / 2 + 3:.1f}" y="{(above.y + here.y) / 2:.1f}" '
                f'fill="#225">{escape(game.cell_name(node.move))}</text>'
            )
        for bit in node.pruned:
            gone = where[node.id, bit]
            edges.append(
                f'<line x1="{here.x:.1f}" y1="{here.y + _NODE_SIZE:.1f}" x2="{gone.x:.1f}" '
                f'y2="{gone.y - _NODE_SIZE:.1f}" stroke="#bbb" stroke-dasharray="4 3"/>'
            )
            reason = escape(cut_reason(node) or "")
            shapes.append(
                f'<g class="pruned"><title>{escape(game.cell_name(bit))} pruned: {reason}</title>'
                f'<rect x="{gone.x - 14:.1f}" y="{gone.y - 10:.1f}" width="28" height="20" '
                f'fill="#f4f4f4" stroke="#bbb" stroke-dasharray="3 2"/>'
                f'<text x="{gone.x:.1f}" y="{gone.y + 4:.1f}" '
                f'text-anchor="middle" fill="#999">{escape(game.cell_name(bit))}</text>'
                f'<text x="{gone.x:.1f}" y="{gone.y + 22:.1f}" text-anchor="middle" fill="#999">✂</text></g>'
            )
        fill = "#fde2e2" if node.cutoff else "#e8f0fe"
        if node.role == "negamax":
            figure = (
                f'<circle cx="{here.x:.1f}" cy="{here.y:.1f}" r="{_NODE_SIZE}" fill="{fill}" stroke="#333"/>'
            )
        else:
            points = _triangle(here.x, here.y, node.role == "max")
            figure = f'<polygon points="{points}" fill="{fill}" stroke="#333"/>'
        title = escape(_describe(result, node) + (f"; pruned: {cut_reason(node)}" if node.cutoff else ""))
        window = ""
        if node.alpha is not None and node.beta is not None:
            window = (
                f'<text x="{here.x:.1f}" y="{here.y + _NODE_SIZE + 11:.1f}" text-anchor="middle" '
                f'fill="#666" font-size="8">α{escape(format_value(node.alpha))} '
                f"β{escape(format_value(node.beta))}</text>"
            )
        shapes.append(
            f'<g class="node" data-id="{node.id}"><title>{title}</title>{figure}'
            f'<text x="{here.x:.1f}" y="{here.y + 4:.1f}" text-anchor="middle" font-weight="bold">'
            f"{escape(format_value(node.value))}</text>{window}</g>"
        )
    out += edges + shapes
    out.append("</svg>")
    return "\n".join(out) + "\n"
