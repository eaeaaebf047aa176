"""The verbs that answer: ``analyze``, ``best`` and ``solve``."""

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from inarow.base import i18n
from inarow.base.errors import EvaluationCodeError, InarowError
from inarow.base.i18n import N_, _
from inarow.cli.app import Verb, app
from inarow.cli.book import import_on_first_use
from inarow.cli.output import (
    POSITION_HELP,
    AlgoOption,
    BadLine,
    DepthOption,
    EvalOption,
    FirstOption,
    GameOption,
    NodesOption,
    TimeOption,
    counting,
    err,
    game_named,
    input_lines,
    limits_for,
    loading_for,
    out,
    said_error,
    say_line,
    working,
)

if TYPE_CHECKING:
    from inarow.engines.limits import Limits
    from inarow.engines.policy import Analysis
    from inarow.rules.game import Position
    from inarow.teaching.explain import MoveValues

DEFAULT_EVALUATION = "open-lines"
"""The evaluation of ``--algo`` searches when ``--eval`` is not given."""


@app.command(
    "analyze",
    cls=Verb,
    help=N_(
        "The value of each position and of every legal move, the best moves and the line of best "
        "play.\n\n"
        "With --algo, a textbook search (minimax, negamax, alphabeta, alphabeta-hard, negamax-alphabeta, "
        "negamax-alphabeta-hard, pvs) --depth plies deep (to the end without --depth) with the --eval "
        "evaluation at its leaves: each "
        "move's score is then the value it backs up, from the side to move's standpoint "
        "(+inf/-inf: a win/loss it can force); exact is true only when the search reaches the end"
        " of every line. nodes counts one search of the whole tree, root included, as tree and "
        "compare do; move_nodes the full-window searches that gave every move its value.\n\n"
        "With no POSITION, reads one position per line from standard input (blank lines are "
        'skipped). A bad line gets an error (in JSON, {"position": ..., "error": ...}) and the '
        "batch goes on; the exit status is 2 if any line failed, as for any bad input (a failing --eval "
        "function stops the command at once). On a terminal, a long search "
        "shows its progress on standard error."
    ),
)
def analyze_command(
    positions: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="POSITION",
            help=N_(
                "Positions: a diagram 'x.o/.x./..o', moves 'b2 a1' (or '5 1', or '(2,2) (3,1)'), or "
                "Connect Four digits '4453'. Default: stdin."
            ),
        ),
    ] = None,
    game: GameOption = "tictactoe",
    first: FirstOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("One JSON object per position."))] = False,
    depth: DepthOption = None,
    time: TimeOption = None,
    nodes: NodesOption = None,
    weak: Annotated[bool, typer.Option("--weak", help=N_("Only win, draw or loss (faster)."))] = False,
    algo: AlgoOption = None,
    evaluation: EvalOption = DEFAULT_EVALUATION,
    every_move: Annotated[
        bool,
        typer.Option(
            "--all",
            help=N_(
                "Every move in the table: on the boards too big to solve, only the best 5 are shown, with "
                "their win rates and lines, unless this is given."
            ),
        ),
    ] = False,
) -> None:
    from inarow.engines.policy import analyze
    from inarow.rules.notation import parse_position
    from inarow.words import phrases

    the_game = game_named(game, first)
    limits = limits_for(depth, time, nodes, the_game)
    _check_search(algo, evaluation)
    if not positions and sys.stdin.isatty():
        err.print(_("reading positions from standard input, one a line (Ctrl-D ends)…"), markup=False)
    failed = tipped = False
    for text in input_lines(positions or []):
        try:
            if isinstance(text, BadLine):
                raise text.problem
            position = parse_position(text, the_game)
            if algo is None:
                import_on_first_use(the_game, position.ply)
            with working(_("analyzing")) as say:  # only while a search runs, never while input is awaited
                if algo is not None:
                    from inarow.teaching.explain import analyze_moves

                    values = analyze_moves(position, algo, depth, evaluation, limits)
                else:
                    say(phrases.searching(text, i18n.game_said(the_game.name)))
                    result = analyze(position, limits, weak=weak, loading=loading_for(the_game))
        except EvaluationCodeError:
            raise  # the student's e(P) is broken, not this line: the command stops, exit status 2
        except InarowError as error:
            failed = True
            if as_json:
                print(json.dumps({"position": text, "error": str(error)}), flush=True)
            else:
                err.print(said_error(error), markup=False)
            continue
        if algo is not None:
            _print_move_values(text, values, as_json)
            continue
        if as_json:
            print(json.dumps(phrases.analysis_json(result, text)), flush=True)
        else:
            _print_analysis(text, result, weak, every_move)
        if not tipped and result.seconds + result.load_seconds >= SLOW_SECONDS:
            tipped = _tip_book(position)
    if failed:
        raise typer.Exit(2)  # bad input, as every command says it (the batch went on past it)


SLOW_SECONDS = 2.0
"""An analysis that took this long is worth a word on the book that would answer it at once."""


def _tip_book(position: "Position") -> bool:
    """Say on standard error that ``inarow book import`` would answer ``position`` in under a second, when
    that is so; whether it was said."""
    from inarow.engines.books import recall

    ply = recall.importable_book(position)
    if ply is None:
        return False
    err.print(
        _(
            "tip: one command makes every analysis of a position of fewer than {plies} stones take under a "
            "second: inarow book import bitbully"
        ).format(plies=ply),
        markup=False,
    )
    return True


def _check_search(algorithm: str | None, evaluation: str) -> None:
    """``--algo`` and ``--eval`` as ``analyze`` and ``best`` take them: a textbook search and an evaluation
    both known, or no ``--algo`` and the default evaluation (the engine's own search has its own)."""
    from inarow.engines.textbook import check_algorithm
    from inarow.evaluation.lines import evaluation_named

    if algorithm is None:
        if evaluation != DEFAULT_EVALUATION:
            raise InarowError(
                N_(
                    "--eval {evaluation!r} is used only with --algo: the engine's own search has its own "
                    "evaluation; add --algo minimax (or another textbook search) to search with it"
                ),
                evaluation=evaluation,
            )
        return
    check_algorithm(algorithm)
    evaluation_named(evaluation)


def _print_move_values(text: str, report: "MoveValues", as_json: bool) -> None:
    """The depth-limited values of a textbook search (``inarow analyze --algo``)."""
    from rich.markup import escape
    from rich.table import Table

    from inarow.cli.console import render_board
    from inarow.words import phrases
    from inarow.words.phrases import format_value

    if as_json:
        print(json.dumps(report.to_json(text)), flush=True)
        return
    position, game = report.position, report.position.game
    heading = phrases.position_heading(text, i18n.game_said(game.name), position.to_move)
    out.print(f"[bold]{escape(heading)}[/bold]")
    out.print(render_board(position), markup=False)
    if position.is_over:
        out.print(phrases.label(_("result")) + report.describe(), markup=False)
        out.print()
        return
    exactness = phrases.textbook_exactness(report.exact)
    out.print(phrases.label(_("value")) + f"{report.describe()}  ({exactness})", markup=False)
    out.print(phrases.label(_("best")) + " ".join(game.cell_name(bit) for bit in report.best), markup=False)
    out.print(phrases.label(_("line")) + " ".join(game.cell_name(bit) for bit in report.pv), markup=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column(_("move"))
    table.add_column(_("value for {side}").format(side=position.to_move), justify="right")
    for move in report.moves:
        table.add_row(game.cell_name(move.move), format_value(move.mover_value))
    out.print(table)
    nodes = phrases.textbook_nodes(report.nodes, report.algorithm, report.move_nodes)
    out.print(phrases.label(_("nodes")) + nodes, markup=False)
    out.print(
        phrases.label(_("time")) + _("{seconds} s").format(seconds=f"{report.seconds:.3f}"), markup=False
    )
    out.print()


SHOWN_CANDIDATES = 5
"""How many moves the table of an analysis of a board too big to solve shows, without ``--all``."""


def _print_analysis(text: str, result: "Analysis", weak: bool = False, every_move: bool = False) -> None:
    """An analysis in text: the same fields as its JSON, in words (see :mod:`inarow.words.phrases`). On the
    boards too big to solve (whose moves carry a win rate), the best :data:`SHOWN_CANDIDATES` moves with their
    win rates and lines, the best move first, unless ``every_move``."""
    from rich.markup import escape
    from rich.table import Table

    from inarow.cli.console import render_board
    from inarow.values.answers import ranked
    from inarow.words import phrases

    position = result.position
    heading = phrases.position_heading(text, position.game, result.to_move)
    out.print(f"[bold]{escape(heading)}[/bold]")
    out.print(render_board(position), markup=False)
    if result.result is not None:
        out.print(phrases.label(_("result")) + phrases.describe(result), markup=False)
        out.print()
        return
    exactness = phrases.exactness(result.exact, weak)
    value = _("{value}  (score {score}, {exactness})").format(
        value=phrases.describe(result), score=f"{result.score:+d}", exactness=exactness
    )
    out.print(phrases.label(_("value")) + value, markup=False, soft_wrap=True)
    out.print(phrases.label(_("best")) + " ".join(result.best), markup=False)
    out.print(phrases.label(_("line")) + " ".join(result.pv), markup=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    rated = any(move.winrate is not None for move in result.moves)
    columns = [(_("move"), False), (_("for the mover"), False), (_("score"), True)]
    columns += [(_("win rate"), True), (_("line"), False)] if rated else [(_("plies"), False)]
    for column, right in columns:
        table.add_column(column, justify="right" if right else "left", no_wrap=column != _("line"))
    moves = ranked(result.moves, result.best[0] if result.best else None)  # the JSON's and the page's order
    shown = moves if every_move or not rated else moves[:SHOWN_CANDIDATES]
    for move in shown:
        if rated:
            rate = "" if move.winrate is None else phrases.percent(move.winrate)
            score = ("≤" if move.source == "bound" else "") + f"{move.score:+d}"  # a bound: at most that
            table.add_row(move.move, phrases.describe(move), score, rate, " ".join(move.line))
        else:
            plies = "" if move.plies is None else str(move.plies)
            table.add_row(move.move, phrases.describe(move), f"{move.score:+d}", plies)
    out.print(table)
    if len(shown) < len(moves):
        hidden = _("the best {shown} of {moves} moves; --all shows every one")
        out.print(hidden.format(shown=len(shown), moves=len(moves)), markup=False)
    work = phrases.work(result.nodes, result.seconds, result.load_seconds)
    out.print(phrases.label(_("nodes")) + work, markup=False)
    out.print()


@app.command(
    cls=Verb,
    help=N_(
        "The move to play and why, from the standpoint of the side to move.\n\n"
        "With --algo, the move a textbook search (minimax, negamax, alphabeta, alphabeta-hard, "
        "negamax-alphabeta, negamax-alphabeta-hard, pvs) chooses --depth plies deep (to the end without "
        "--depth) with the --eval "
        "evaluation at its leaves, the side to move being Max, and the value it backs up."
    ),
)
def best(
    position: Annotated[str, typer.Argument(metavar="POSITION", help=POSITION_HELP)],
    game: GameOption = "tictactoe",
    first: FirstOption = None,
    depth: DepthOption = None,
    time: TimeOption = None,
    nodes: NodesOption = None,
    algo: AlgoOption = None,
    evaluation: EvalOption = DEFAULT_EVALUATION,
) -> None:
    from inarow.engines.policy import analyze
    from inarow.rules.notation import parse_position
    from inarow.words import phrases

    the_position = parse_position(position, game_named(game, first))
    _check_search(algo, evaluation)
    if the_position.is_over:
        raise InarowError(
            N_("no move in {position!r}: the game is over ({result})"),
            position=the_position.diagram(),
            result=the_position.result,
        )
    if algo is not None:
        _best_by_textbook(
            the_position, algo, depth, evaluation, limits_for(depth, time, nodes, the_position.game)
        )
        return
    import_on_first_use(the_position.game, the_position.ply)
    with working(phrases.searching(position, i18n.game_said(the_position.game.name))):
        result = analyze(
            the_position,
            limits_for(depth, time, nodes, the_position.game),
            loading=loading_for(the_position.game),
        )
    move = result.pv[0] if result.pv else result.best[0]
    why = phrases.best_move(
        outcome=result.outcome, plies=result.plies, score=result.score, depth=result.depth
    )
    say_line(f"{move} — {why}")


def _best_by_textbook(
    position: "Position", algorithm: str, depth: int | None, evaluation: str, limits: "Limits"
) -> None:
    """Say the move ``algorithm`` chooses for the side to move (Max) and the value it backs up."""
    from inarow.base.errors import TreeTooLargeError
    from inarow.engines.limits import Budget, SearchAborted
    from inarow.engines.textbook import check_algorithm, search
    from inarow.values.answers import search_value
    from inarow.words import phrases
    from inarow.words.sentences import search_value as said_value

    algorithm = check_algorithm(algorithm)
    budget = Budget(limits)
    with working(phrases.searching(position.diagram(), i18n.game_said(position.game.name))):
        try:
            result = search(position, algorithm, depth, evaluation, record=False, budget=budget)
        except SearchAborted:
            raise TreeTooLargeError(
                N_(
                    "the {algorithm} search of {position!r} was stopped by the limits after {nodes:,}"
                    " nodes: lower the depth or raise the limits"
                ),
                algorithm=algorithm,
                position=position.diagram(),
                nodes=budget.nodes,
            ) from None
    move = result.move_name or "?"
    fields = {
        "value": said_value(search_value(result.mover_value)),
        "side": (position.to_move or "?").upper(),
        "algorithm": algorithm,
        "evaluation": result.evaluation,
        "nodes": f"{result.nodes:,}",
    }
    if depth is None:
        why = _("{value} for {side} (Max) by {algorithm} to the end of the game, {nodes} nodes").format(
            **fields
        )
    else:
        why = _(
            "{value} for {side} (Max) by {algorithm} at depth {depth} with {evaluation}, {nodes} nodes"
        ).format(depth=depth, **fields)
    say_line(f"{move} — {why}")


@app.command(
    cls=Verb,
    help=N_(
        "Solve a small board: the value of the empty board and the whole table of reachable "
        "positions.\n\nBoards of more cells than a table can hold get the value of the empty board alone."
    ),
)
def solve(
    game: GameOption = "tictactoe",
    first: FirstOption = None,
    symmetry: Annotated[
        bool,
        typer.Option("--symmetry/--no-symmetry", help=N_("Also count positions and games up to symmetry.")),
    ] = True,
    time: TimeOption = None,
) -> None:
    from inarow.rules.census import MAX_TABLE_CELLS, census
    from inarow.words import phrases

    the_game = game_named(game, first)
    if the_game.cells > MAX_TABLE_CELLS:
        from inarow.engines.policy import analyze
        from inarow.rules.game import Position

        with working(phrases.slow_solve(i18n.game_said(the_game.name))):
            result = analyze(
                Position.start(the_game),
                limits_for(None, time, None, the_game),
                loading=loading_for(the_game),
            )
        explored = phrases.work(result.nodes, result.seconds, result.load_seconds)
        for line in (
            _("{game}: {value} (score {score})").format(
                game=i18n.game_said(the_game.name), value=phrases.describe(result), score=f"{result.score:+d}"
            ),
            _("best first moves: {moves}; {work}").format(moves=" ".join(result.best), work=explored),
            _("(whole tables are built for boards of at most {limit} cells)").format(limit=MAX_TABLE_CELLS),
        ):
            say_line(line)
        return
    with counting(_("solving {game}").format(game=i18n.game_said(the_game.name)), None) as progress:
        table = census(the_game, symmetry=symmetry, progress=progress)
    value = table.value
    value_line = _(": {value} with perfect play (score {score})")
    say_line(
        value_line.format(value=phrases.game_value(value), score=f"{value:+d}"),
        bold=i18n.game_said(the_game.name),
    )
    rows: list[tuple[str, str]] = [
        (_("positions reachable (empty board included)"), f"{table.positions:,}"),
        (_("terminal positions"), f"{len(table.terminal):,}"),
        (
            _("positions won by x / o / drawn with perfect play"),
            "{x:,} / {o:,} / {draw:,}".format(**table.positions_by_value),
        ),
        (_("games (move sequences to the end)"), f"{table.games:,}"),
        (_("games won by x"), f"{table.x_wins:,}"),
        (_("games won by o"), f"{table.o_wins:,}"),
        (_("games drawn"), f"{table.draws:,}"),
    ]
    if table.symmetric_positions is not None:
        rows += [
            (_("positions up to symmetry"), f"{table.symmetric_positions:,}"),
            (_("games up to symmetry"), f"{table.symmetric_games:,}"),
        ]
    label_width = max(phrases.width_of(label) for label, _count in rows)
    count_width = max(len(count) for _label, count in rows)
    for label, count in rows:
        say_line(phrases.label(label, label_width + 2) + f"{count:>{count_width}}")
