"""The verbs that show the search think: ``tree`` and ``compare``."""

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from inarow.cli.app import Verb, app
from inarow.cli.output import (
    POSITION_HELP,
    POSITION_OR_EMPTY_HELP,
    EvalOption,
    FirstOption,
    GameOption,
    OrderOption,
    err,
    game_named,
    limits_for,
    out,
)
from inarow.errors import InarowError
from inarow.i18n import N_, _

if TYPE_CHECKING:
    from inarow.search.textbook import SearchResult

COMPARE_MAX_NODES = 1_000_000
"""The default of ``compare --nodes`` (inarow.explain.COMPARE_MAX_NODES; a test keeps the two equal)."""
MAX_TREE_NODES = 5_000
"""The default of ``tree --max-nodes`` (inarow.explain.MAX_TREE_NODES; a test keeps the two equal)."""


TREE_FORMATS = ("text", "json", "dot", "svg")


@app.command(
    "tree",
    cls=Verb,
    help=N_(
        "The search tree of a textbook algorithm: every node with its value and α/β, and what α-β"
        " pruned.\n\n"
        "Minimax and α-β nodes are Max (x to move) or Min (o to move), their values from x's "
        "standpoint; negamax and negamax-alphabeta values are from the side to move at each node."
        " The text and JSON end with the number of nodes visited; with dot and svg it goes to "
        "standard error."
    ),
)
def tree_command(
    text: Annotated[
        str | None,
        typer.Argument(metavar="POSITION", help=POSITION_OR_EMPTY_HELP),
    ] = None,
    game_name: GameOption = "tictactoe",
    first: FirstOption = None,
    algo: Annotated[
        str,
        typer.Option(
            "--algo",
            "-a",
            metavar="ALGORITHM",
            help=N_("minimax, negamax, alphabeta (fail-hard), alphabeta-soft or negamax-alphabeta."),
        ),
    ] = "alphabeta",
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth",
            "-d",
            metavar="PLIES",
            help=N_("Search this many plies deep (default 2; with --leaves, all)."),
        ),
    ] = None,
    evaluation: EvalOption = "open-lines",
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help=N_("text, json, dot (Graphviz) or svg (drawn without Graphviz)."),
        ),
    ] = "text",
    max_nodes: Annotated[
        int, typer.Option("--max-nodes", metavar="N", help=N_("Refuse trees of more nodes than this."))
    ] = MAX_TREE_NODES,
    leaves: Annotated[
        str | None,
        typer.Option(
            "--leaves",
            metavar="JSON",
            help=N_(
                "An abstract tree instead of a position: nested JSON lists of leaf values, Max at the "
                "root, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'."
            ),
        ),
    ] = None,
    order: OrderOption = "columns",
    ordering: Annotated[
        bool, typer.Option("--ordering", help=N_("Try the children best-first by e(P) after the move."))
    ] = False,
    quiescence: Annotated[
        bool,
        typer.Option(
            "--quiescence",
            help=N_("At the horizon, search on while the side to move can win at once or must block."),
        ),
    ] = False,
    deepen: Annotated[
        bool,
        typer.Option(
            "--deepen",
            help=N_(
                "Iterative deepening: a row per depth 1..D (best move, value, nodes, time), each depth "
                "searching the previous one's best move first; then the last depth's tree."
            ),
        ),
    ] = False,
) -> None:
    from inarow import drawing
    from inarow.explain import explain_tree
    from inarow.notation import parse_position
    from inarow.search.abstract import parse_leaves
    from inarow.search.textbook import State, check_order

    if output_format not in TREE_FORMATS:
        raise InarowError(
            N_("unknown format {format!r}: expected one of {known}"),
            format=output_format,
            known=", ".join(TREE_FORMATS),
        )
    check_order(order)
    root: State
    if leaves is not None:
        if text:
            raise InarowError(N_("a position {text!r} and --leaves: give one or the other"), text=text)
        root = parse_leaves(leaves)
        plies = depth
    else:
        root = parse_position(text or "", game_named(game_name, first))
        plies = limits_for(2 if depth is None else depth, None, None).depth
    explanation = explain_tree(
        root,
        algo,
        plies,
        evaluation,
        max_nodes=max_nodes,
        order=order,
        ordering=ordering,
        quiescence=quiescence,
        deepen=deepen,
    )
    if deepen:
        _print_deepening(explanation.deepening, output_format)
    result = explanation.search
    if output_format == "json":
        print(json.dumps(explanation.to_json(), ensure_ascii=False))
    elif output_format == "text":
        print(drawing.to_text(result))
    else:
        sys.stdout.write(drawing.to_dot(result) if output_format == "dot" else drawing.to_svg(result))
        err.print(_("nodes visited: {nodes}").format(nodes=f"{result.nodes:,}"))


def _print_deepening(rows: "tuple[SearchResult, ...]", output_format: str) -> None:
    """The table of iterative deepening: one row a depth. On standard output for text, else standard
    error (JSON, DOT and SVG stay whole on standard output)."""
    from rich.table import Table

    from inarow.words import format_value

    console = out if output_format == "text" else err
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column, right in (
        (_("depth"), True),
        (_("searched first"), False),
        (_("best move"), False),
        (_("value"), True),
        (_("nodes"), True),
        (_("time"), False),
    ):
        table.add_column(column, justify="right" if right else "left")
    previous: str | None = None
    for row in rows:
        table.add_row(
            str(row.depth),
            previous or "-",
            row.move_name or "-",
            format_value(row.frame_value),
            f"{row.nodes:,}",
            _("{milliseconds} ms").format(milliseconds=f"{row.seconds * 1000:.1f}"),
        )
        previous = row.move_name
    console.print(_("iterative deepening: each depth searches the previous depth's best move first"))
    console.print(table)


@app.command(
    "compare",
    cls=Verb,
    help=N_(
        "Nodes visited and time of minimax, α-β and its refinements, and the engine, on one "
        "position.\n\n"
        "Each searches the same position to the same depth: minimax, α-β, α-β with move ordering,"
        " with a transposition table, with both, and the engine; with the effective branching "
        "factor b* (nodes = 1 + b* + b*² + … + b*^depth)."
    ),
)
def compare_command(
    text: Annotated[str, typer.Argument(metavar="POSITION", help=POSITION_HELP)] = "",
    game_name: GameOption = "tictactoe",
    first: FirstOption = None,
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth", "-d", metavar="PLIES", help=N_("Search this many plies deep (default: to the end).")
        ),
    ] = None,
    evaluation: EvalOption = "open-lines",
    max_nodes: Annotated[
        int, typer.Option("--nodes", metavar="N", help=N_("Stop each algorithm after this many nodes."))
    ] = COMPARE_MAX_NODES,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The table as JSON."))] = False,
) -> None:
    from rich.markup import escape
    from rich.table import Table

    from inarow import words
    from inarow.evaluation import evaluation_named
    from inarow.explain import compare_algorithms
    from inarow.notation import parse_position

    limits_for(depth, None, max_nodes)
    evaluation_named(evaluation)
    root = parse_position(text, game_named(game_name, first))
    with err.status(_("searching…")) as status:
        report = compare_algorithms(
            root,
            depth,
            evaluation,
            max_nodes=max_nodes,
            progress=lambda label: status.update(_("searching with {algorithm}…").format(algorithm=_(label))),
        )
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return
    heading = words.position_heading(text, root.game.name, root.to_move)
    said = _("{heading}, depth {depth}, {evaluation} evaluation")
    line = said.format(heading=heading, depth=report.depth, evaluation=report.evaluation)
    out.print(f"[bold]{escape(line)}[/bold]", soft_wrap=True)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column, right in (
        (_("algorithm"), False),
        (_("nodes"), True),
        (_("seconds"), True),
        ("b*", True),
        (_("value"), False),
        (_("move"), False),
    ):
        table.add_column(column, justify="right" if right else "left")
    for row in report.rows:
        nodes = f"{row.nodes:,}" if row.complete else _("> {nodes} (stopped)").format(nodes=f"{row.nodes:,}")
        branching = "" if row.branching is None else f"{row.branching:.2f}"
        move = "" if row.move is None else root.game.cell_name(row.move)
        value = row.max_value_text(root.turn)
        table.add_row(_(row.label), nodes, f"{row.seconds:.3f}", branching, value, move)
    out.print(table)
    out.print(_("values for Max (x), as in the trees; the engine uses its own evaluation"))
