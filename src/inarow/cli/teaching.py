"""The verbs that show the search think: ``tree`` and ``compare``."""

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from inarow.base.errors import InarowError, UnknownExampleError
from inarow.base.i18n import N_, _
from inarow.cli.app import Verb, app
from inarow.cli.output import (
    POSITION_HELP,
    POSITION_OR_EMPTY_HELP,
    EvalOption,
    FirstOption,
    GameOption,
    OrderOption,
    counting,
    err,
    game_named,
    limits_for,
    out,
    say_line,
)

if TYPE_CHECKING:
    from inarow.engines.textbook import SearchResult
    from inarow.teaching.grading import Grade

COMPARE_MAX_NODES = 1_000_000
"""The default of ``compare --nodes`` (inarow.teaching.explain.COMPARE_MAX_NODES; a test keeps the two
equal)."""
MAX_TREE_NODES = 5_000
"""The default of ``tree --max-nodes`` (inarow.teaching.explain.MAX_TREE_NODES; a test keeps the two
equal)."""


SearchOption = Annotated[
    str,
    typer.Option(
        "--algo",
        "-a",
        metavar="ALGORITHM",
        help=N_(
            "minimax, negamax, alphabeta (fail-soft, as the textbooks draw it), alphabeta-hard, "
            "negamax-alphabeta, negamax-alphabeta-hard or pvs (NegaScout)."
        ),
    ),
]
"""``--algo`` of tree, grade and exam: the textbook search, α-β unless given."""

WindowOption = Annotated[
    str | None,
    typer.Option(
        "--window",
        metavar="RULE",
        help=N_(
            "The form of α-β: fail-soft (the default, as the textbooks draw it: a cut-off node's value is a "
            "bound, ≤ or ≥) or fail-hard (every value clamped to its window)."
        ),
    ),
]
"""``--window`` of tree, grade and exam: the α-β form, the algorithm's own unless given."""

MaxOption = Annotated[
    str | None,
    typer.Option(
        "--max",
        metavar="SIDE",
        help=N_(
            "x or o: MAX, the side whose standpoint the values take (default: the side to move, so the root "
            "is a Max node)."
        ),
    ),
]
"""``--max`` of tree: the side whose standpoint the student takes."""

ToTheEndOption = Annotated[
    int | None,
    typer.Option(
        "--depth", "-d", metavar="PLIES", help=N_("Search this many plies deep (default: to the end).")
    ),
]
"""``--depth`` of compare and grade: the plies searched, to the end of the game unless given."""


TREE_FORMATS = ("text", "json", "dot", "svg")


def check_format(output_format: str, known: tuple[str, ...]) -> None:
    """Refuse an ``--format`` that is not one of ``known``, naming them."""
    if output_format not in known:
        raise InarowError(
            N_("unknown format {format!r}: expected one of {known}"),
            format=output_format,
            known=", ".join(known),
        )


@app.command(
    "tree",
    cls=Verb,
    help=N_(
        "The search tree of a textbook algorithm: every node with its value and α/β, and what α-β"
        " pruned.\n\n"
        "Minimax and α-β nodes are Max (MAX to move: the side to move at the root unless --max says "
        "otherwise) or Min, their values from MAX's standpoint; negamax, negamax-alphabeta and pvs values "
        "are from the side to move at each node."
        " The text and JSON end with the number of nodes visited; with dot and svg it goes to "
        "standard error."
    ),
)
def tree_command(
    context: typer.Context,
    text: Annotated[
        str | None,
        typer.Argument(metavar="POSITION", help=POSITION_OR_EMPTY_HELP),
    ] = None,
    game_name: GameOption = "tictactoe",
    first: FirstOption = None,
    algo: SearchOption = "alphabeta",
    window: WindowOption = None,
    max_side: MaxOption = None,
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
    from inarow.engines.textbook import State, check_order, with_window
    from inarow.rules.notation import parse_position
    from inarow.teaching import drawing
    from inarow.teaching.abstract import parse_leaves
    from inarow.teaching.explain import explain_tree

    check_format(output_format, TREE_FORMATS)
    check_order(order)
    root: State
    if leaves is not None:
        if text:
            raise InarowError(N_("a position {text!r} and --leaves: give one or the other"), text=text)
        _refuse_board_options(context, order, quiescence)
        root = parse_leaves(leaves)
        plies = depth
    else:
        root = parse_position(text or "", game_named(game_name, first))
        plies = limits_for(2 if depth is None else depth, None, None).depth
    explanation = explain_tree(
        root,
        with_window(algo, window),
        plies,
        evaluation,
        max_nodes=max_nodes,
        order=order,
        ordering=ordering,
        quiescence=quiescence,
        deepen=deepen,
        max_side=max_side,
    )
    if deepen:
        _print_deepening(explanation.deepening, output_format)
    result = explanation.search
    if output_format == "json":
        print(json.dumps(explanation.to_json(), ensure_ascii=False))
    elif output_format == "text":
        print(drawing.to_text(result, explanation.evaluation))
    elif output_format == "dot":
        sys.stdout.write(drawing.to_dot(result, explanation.evaluation))
        err.print(_("nodes visited: {nodes}").format(nodes=f"{result.nodes:,}"))
    else:
        sys.stdout.write(drawing.to_svg(result, evaluation=explanation.evaluation))
        err.print(_("nodes visited: {nodes}").format(nodes=f"{result.nodes:,}"))


def _refuse_board_options(context: typer.Context, order: str, quiescence: bool) -> None:
    """Refuse, with the reason, the options of ``tree`` that mean nothing on an abstract tree."""
    source = context.get_parameter_source("evaluation")
    if source is not None and source.name != "DEFAULT":
        raise InarowError(N_("--eval does not apply to an abstract tree: its leaves carry their values"))
    if order != "columns":
        raise InarowError(
            N_(
                "--order {order} does not apply to an abstract tree: its children come in the order of "
                "its lists"
            ),
            order=order,
        )
    if quiescence:
        raise InarowError(
            N_("--quiescence does not apply to an abstract tree: it has no moves that win or must block")
        )


def _print_deepening(rows: "tuple[SearchResult, ...]", output_format: str) -> None:
    """The table of iterative deepening: one row a depth. On standard output for text, else standard
    error (JSON, DOT and SVG stay whole on standard output)."""
    from rich.table import Table

    from inarow.words.phrases import format_value

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
        "Each searches the same position to the same depth: minimax, negamax, α-β (fail-hard, fail-soft, "
        "negamax form), α-β with move ordering, with a transposition table, with both, and the engine; "
        "with the effective branching factor b* (nodes = 1 + b* + b*² + … + b*^depth)."
    ),
)
def compare_command(
    text: Annotated[str, typer.Argument(metavar="POSITION", help=POSITION_HELP)] = "",
    game_name: GameOption = "tictactoe",
    first: FirstOption = None,
    depth: ToTheEndOption = None,
    evaluation: EvalOption = "open-lines",
    order: OrderOption = "columns",
    max_nodes: Annotated[
        int, typer.Option("--nodes", metavar="N", help=N_("Stop each algorithm after this many nodes."))
    ] = COMPARE_MAX_NODES,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The table as JSON."))] = False,
) -> None:
    from rich.markup import escape
    from rich.table import Table

    from inarow.evaluation.lines import evaluation_named
    from inarow.rules.notation import parse_position
    from inarow.teaching.explain import compare_algorithms
    from inarow.words import phrases

    limits_for(depth, None, max_nodes)
    evaluation_named(evaluation)
    root = parse_position(text, game_named(game_name, first))
    with err.status(_("searching…")) as status:
        report = compare_algorithms(
            root,
            depth,
            evaluation,
            max_nodes=max_nodes,
            order=order,
            progress=lambda label: status.update(_("searching with {algorithm}…").format(algorithm=_(label))),
        )
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return
    heading = phrases.position_heading(text, root.game.name, root.to_move)
    said = _("{heading}, depth {depth}, {evaluation} evaluation")
    line = said.format(heading=heading, depth=report.depth, evaluation=report.evaluation)
    if report.order == "rows":
        line += _(", children row by row from the top")
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
    out.print(
        _("values for Max ({side}), as in the trees; the engine uses its own evaluation").format(
            side=root.turn
        )
    )


GRADE_SHOWN = 10
"""How many blunders ``grade`` lists unless told otherwise."""


@app.command(
    "grade",
    cls=Verb,
    help=N_(
        "Grade an evaluation against perfect play: from every non-terminal position (a seeded sample on "
        "boards bigger than 3×3), the move a depth-D search with it plays, judged by the exact value.\n\n"
        "A move keeps the value when it still wins a won position, still draws a drawn one (every move keeps "
        "a loss); the positions where it throws a win or a draw away are listed worst first, and a small "
        "match against the named evaluations follows."
    ),
)
def grade_command(
    evaluation: EvalOption = "open-lines",
    depth: ToTheEndOption = None,
    algo: SearchOption = "alphabeta",
    game_name: GameOption = "tictactoe",
    first: FirstOption = None,
    sample: Annotated[
        int, typer.Option("--sample", metavar="N", help=N_("Positions sampled on boards bigger than 3×3."))
    ] = 200,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help=N_("Seed of the sample and the match."))
    ] = 1,
    games: Annotated[
        int,
        typer.Option("--games", metavar="N", help=N_("Games against each named evaluation (0: no match).")),
    ] = 10,
    shown: Annotated[
        int,
        typer.Option("--blunders", metavar="N", help=N_("How many blunders to list (text only).")),
    ] = GRADE_SHOWN,
    draw_tree: Annotated[
        bool, typer.Option("--tree", help=N_("Draw the search tree of the worst blunder (text only)."))
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help=N_("The grade as JSON."))] = False,
) -> None:
    from inarow.evaluation.lines import evaluation_named
    from inarow.teaching import drawing
    from inarow.teaching.explain import explain_tree
    from inarow.teaching.grading import grade

    game = game_named(game_name, first)
    function = evaluation_named(evaluation)
    with counting(_("grading"), None) as moved:
        report = grade(game, function, depth, algo, sample=sample, seed=seed, games=games, progress=moved)
    if as_json:
        payload = report.to_json()
        payload["evaluation"] = evaluation
        print(json.dumps(payload, ensure_ascii=False))
        return
    for line in _grade_lines(report, evaluation, shown):
        say_line(line)
    if draw_tree and report.blunders:
        worst = report.blunders[0]
        explanation = explain_tree(worst.position, report.algorithm, depth, evaluation)
        say_line("")
        print(drawing.to_text(explanation.search))


OUTCOME_WORDS = {1: N_("win"), 0: N_("draw"), -1: N_("loss")}
"""A position's exact value for the side to move, in ``grade``'s report."""


def _headline_line(report: "Grade") -> str:
    """The grade's headline: the share kept where e(P) decides, beside ``e ≡ 0``'s and a random e(P)'s."""
    head = report.decisive
    if not head.positions:
        return _("where e(P) decides: no position at this depth (the search alone decides every one)")
    return _(
        "where e(P) decides, the move played keeps the value in {kept} of {positions} positions: {percent} "
        "(e ≡ 0: {zero}, a random e(P): {random})"
    ).format(
        kept=f"{head.kept:,}",
        positions=f"{head.positions:,}",
        percent=f"{head.kept / head.positions:.1%}",
        zero=f"{head.zero / head.positions:.1%}",
        random=f"{head.random / head.positions:.1%}",
    )


def _grade_lines(report: "Grade", evaluation: str, shown: int) -> list[str]:
    """``grade``'s report for people, one string a line."""
    game = report.game
    depth = _("to the end") if report.depth is None else _("depth {depth}").format(depth=report.depth)
    where = (
        _("every non-terminal position ({count})").format(count=f"{report.positions:,}")
        if report.every_position
        else _("{count} positions sampled with seed {seed}").format(
            count=f"{report.positions:,}", seed=report.seed
        )
    )
    lines = [
        _("{evaluation} with {algorithm}, {depth}, on {game}: {where}").format(
            evaluation=evaluation, algorithm=report.algorithm, depth=depth, game=game.name, where=where
        ),
        _headline_line(report),
        _("over every position, the move played keeps the value in {kept} of {positions}: {percent}").format(
            kept=f"{report.kept:,}", positions=f"{report.positions:,}", percent=f"{report.accuracy:.1%}"
        ),
    ]
    names = {
        1: N_("won positions"),
        0: N_("drawn positions"),
        -1: N_("lost positions (every move keeps a loss)"),
    }
    for value in (1, 0, -1):
        kept, total = report.by_value[value]
        lines.append(
            "  "
            + _("{what}: {kept} of {total}").format(
                what=_(names[value]), kept=f"{kept:,}", total=f"{total:,}"
            )
        )
    lines.append(
        _(
            "blunders: {count}, worst first (a win thrown to a loss, a win to a draw, a draw to a loss)"
        ).format(count=f"{len(report.blunders):,}")
    )
    for blunder in report.blunders[:shown]:
        position = blunder.position
        lines.append(
            "  "
            + _("{position}  {side} to move  plays {move}: {before} → {after}; {keeping} keep it").format(
                position=position.diagram(),
                side=position.turn,
                move=game.cell_name(blunder.move),
                before=_(OUTCOME_WORDS[blunder.before]),
                after=_(OUTCOME_WORDS[blunder.after]),
                keeping=" ".join(game.cell_name(bit) for bit in blunder.keeping),
            )
        )
    if report.blunders:
        worst = report.blunders[0].position.diagram()
        depth_option = "" if report.depth is None else f" --depth {report.depth}"
        lines.append(
            _("draw one as a tree: {command}").format(
                command=f"inarow tree '{worst}'{depth_option} --algo {report.algorithm} --eval {evaluation}"
            )
        )
    if report.matches:
        games = report.matches[0][1].games
        lines.append(
            _("against the named evaluations ({games} games each, colours swapped):").format(games=games)
        )
        for opponent, tally in report.matches:
            lines.append(
                "  "
                + _("{opponent}: {wins} won, {draws} drawn, {losses} lost").format(
                    opponent=opponent, wins=tally.wins, draws=tally.draws, losses=tally.losses
                )
            )
    return lines


EXAM_FORMATS = ("text", "svg", "json", "html")


@app.command(
    "exam",
    cls=Verb,
    help=N_(
        "An exam sheet: a random game tree of leaf values (the question, with a blank copy to fill in) and "
        "its answer key.\n\n"
        "The key gives the root's value, every node's backed-up value and window, the leaves never "
        "evaluated (by value, in search order) and the number of nodes visited. The same seed gives the "
        "same tree."
    ),
)
def exam_command(
    depth: Annotated[
        int,
        typer.Option("--depth", "-d", metavar="LEVELS", help=N_("Levels below the root (1 to 6).")),
    ] = 3,
    branching: Annotated[
        int, typer.Option("--branching", "-b", metavar="N", help=N_("Children of every inner node (2 to 6)."))
    ] = 3,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help=N_("Seed of the leaf values."))] = 1,
    algo: SearchOption = "alphabeta",
    window: WindowOption = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help=N_(
                "text, svg (the blank question above the answer key), json, or html: sheets to print on A4, "
                "one a seed from --seed on (--count), then a separate answer key."
            ),
        ),
    ] = "text",
    count: Annotated[
        int,
        typer.Option(
            "--count", "-n", metavar="N", help=N_("Sheets of --format html, from consecutive seeds.")
        ),
    ] = 1,
    key: Annotated[
        bool,
        typer.Option(
            "--key/--no-key",
            help=N_(
                "With --no-key, the question alone: the blank tree in text or svg, the leaves and the "
                "tree's shape in json (html sheets keep their separate key)."
            ),
        ),
    ] = True,
    lang: Annotated[
        str | None,
        typer.Option("--lang", metavar="LANGUAGE", help=N_("en or zh (简体中文), as inarow --lang.")),
    ] = None,
) -> None:
    from inarow.engines.textbook import with_window
    from inarow.teaching import drawing
    from inarow.teaching.exam import make_exam

    check_format(output_format, EXAM_FORMATS)
    if output_format == "html":
        from inarow.teaching.sheet import exam_sheets, to_html

        sys.stdout.write(to_html(exam_sheets(seed, count, depth, branching, with_window(algo, window))))
        return
    exam = make_exam(depth, branching, seed, with_window(algo, window))
    if output_format == "json":
        data = dict(exam.to_json())
        if not key:
            data = {name: data[name] for name in ("leaves", "algo", "depth", "branching", "seed")}
        print(json.dumps(data, ensure_ascii=False))
        return
    if output_format == "svg":
        blank = drawing.to_svg(exam.question, blank=True)
        sys.stdout.write(drawing.exam_svg(exam.question, exam.result) if key else blank)
        return
    leaves = json.dumps(exam.leaves, separators=(",", ":"))
    print(
        _(
            "Exam: {algorithm} on a tree of depth {depth}, branching {branching} (seed {seed}); "
            "Max to move at the root"
        ).format(algorithm=exam.result.algorithm, depth=depth, branching=branching, seed=seed)
    )
    print(_("Question: {leaves}").format(leaves=leaves))
    print(_("Fill in every node's backed-up value and α, β on entry; cross out the leaves never evaluated."))
    print(drawing.to_blank_text(exam.question))
    if not key:
        return
    print()
    print(_("Answer key"))
    print(drawing.to_text(exam.result))


EXAMPLES = {"textbook-eval": "textbook_eval.py", "alphabeta-skeleton": ""}
"""The example files shipped in the package (``inarow/teaching/examples/``), by the name ``example`` takes;
``alphabeta-skeleton`` is the starting file of ``inarow check``, in the command's language
(:mod:`inarow.teaching.checking.skeleton`)."""


@app.command(
    "example",
    cls=Verb,
    help=N_(
        "Print an example file shipped with inarow, to start your own from: textbook-eval, the textbook "
        "e(P) for --eval (inarow example textbook-eval > mine.py, then --eval mine.py:e); "
        "alphabeta-skeleton, your own α-β to write and check (inarow example alphabeta-skeleton > mine.py, "
        "then inarow check --search mine.py:alphabeta), in the language of --lang."
    ),
)
def example_command(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help=N_("The example: textbook-eval or alphabeta-skeleton."))
    ],
    lang: Annotated[
        str | None,
        typer.Option("--lang", metavar="LANGUAGE", help=N_("en or zh (简体中文), as inarow --lang.")),
    ] = None,
) -> None:
    from importlib import resources

    from inarow.base import i18n

    if name not in EXAMPLES:
        raise UnknownExampleError(
            N_("unknown example {name!r}: expected one of {names}"),
            name=name,
            names=", ".join(EXAMPLES),
        )
    if name == "alphabeta-skeleton":
        from inarow.teaching.checking.skeleton import skeleton

        sys.stdout.write(skeleton(i18n.current()))
        return
    source = resources.files("inarow.teaching").joinpath("examples", EXAMPLES[name])
    sys.stdout.write(source.read_text(encoding="utf-8"))
