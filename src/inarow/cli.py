"""The ``inarow`` command: thin verbs that parse, call the library and present.

An :class:`~inarow.errors.InarowError` prints ``error: …`` on stderr and exits with status 2, without a
traceback. Batch commands read one position per line and never stop at a bad line.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from typer.core import TyperGroup

from inarow import __version__, words
from inarow.analysis import Analysis, analyze, solvable
from inarow.console import render_board
from inarow.errors import InarowError
from inarow.evaluation import evaluation_named
from inarow.explain import (
    COMPARE_MAX_NODES,
    MAX_TREE_NODES,
    MoveValues,
    analyze_moves,
    compare_algorithms,
    explain_tree,
)
from inarow.match import check_games, play_match
from inarow.notation import format_moves, parse_game, parse_position
from inarow.players import player
from inarow.rules import Game, Position
from inarow.search.limits import Limits
from inarow.search.textbook import check_algorithm
from inarow.words import format_value


class _Verbs(TyperGroup):
    """The verbs of ``inarow``, with the one handler of bad input: ``error: …`` on stderr and status 2."""

    def invoke(self, ctx: Any) -> Any:  # Any: typer's Context class moves between releases
        try:
            return super().invoke(ctx)
        except InarowError as error:
            fail(error)


app = typer.Typer(
    cls=_Verbs,
    help="Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)

GameOption = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        help="tictactoe, 4x4, 5x5, connect4, gomoku, or COLSxROWS:K[:gravity] such as 6x4:4:gravity.",
    ),
]
DepthOption = Annotated[
    int | None, typer.Option("--depth", "-d", help="Search this many plies deep, with the evaluation beyond.")
]
TimeOption = Annotated[
    float | None,
    typer.Option(
        "--time",
        "-t",
        help="Think at most this many seconds. Default: no limit, except 10 s on boards too big to solve.",
    ),
]
NodesOption = Annotated[int | None, typer.Option("--nodes", help="Explore at most this many positions.")]
AlgoOption = Annotated[
    str | None,
    typer.Option("--algo", "-a", help="A textbook search: minimax, negamax, alphabeta or alphabeta-soft."),
]
EvalOption = Annotated[
    str, typer.Option("--eval", "-e", help="The evaluation at the leaves: open-lines, weighted or lines.")
]


def fail(error: InarowError) -> NoReturn:
    """Print ``error: …`` on stderr and exit 2."""
    err.print(f"error: {error}", markup=False)
    raise typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        out.print(f"inarow {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line."""


BIG_BOARD_TIME = 10.0
"""Seconds a search takes when no limit is given on a board exact search cannot finish (Gomoku, 9×9, …)."""


def _limits(depth: int | None, time: float | None, nodes: int | None, game: Game | None = None) -> Limits:
    """The limits given; with none at all on a board too big to solve, :data:`BIG_BOARD_TIME` seconds."""
    if game is not None and depth is None and time is None and nodes is None and not solvable(game):
        time = BIG_BOARD_TIME
    return Limits(depth=depth, time=time, nodes=nodes)


def _lines(positions: list[str]) -> Iterator[str]:
    """The positions given as arguments, or else one per line of standard input."""
    if positions:
        yield from positions
        return
    for line in sys.stdin:
        yield line.rstrip("\r\n")


@app.command("analyze")
def analyze_command(
    positions: Annotated[
        list[str] | None,
        typer.Argument(
            help="Positions: a diagram 'x.o/.x./..o', moves 'b2 a1', or digits '4453'. Default: stdin."
        ),
    ] = None,
    game: GameOption = "tictactoe",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per position.")] = False,
    depth: DepthOption = None,
    time: TimeOption = None,
    nodes: NodesOption = None,
    weak: Annotated[bool, typer.Option("--weak", help="Only win, draw or loss (faster).")] = False,
    algo: AlgoOption = None,
    evaluation: EvalOption = "open-lines",
) -> None:
    """The value of each position and of every legal move, the best moves and the line of best play.

    With --algo, a textbook search (minimax, negamax, alphabeta, alphabeta-soft) --depth plies deep (to the
    end without --depth) with the --eval evaluation at its leaves: each move's score is then the value it
    backs up, from the side to move's standpoint (+inf/-inf: a win/loss it can force), and exact is false.

    With no POSITION, reads one position per line from standard input. A bad line gets an error (in JSON,
    {"position": ..., "error": ...}) and the batch goes on; the exit status is 1 if any line failed.
    """
    the_game = parse_game(game)
    limits = _limits(depth, time, nodes, the_game)
    if algo is not None:
        _check_search(algo, evaluation)
    failed = False
    for text in _lines(positions or []):
        try:
            if algo is not None:
                _print_move_values(
                    text,
                    analyze_moves(parse_position(text, the_game), algo, depth, evaluation, limits),
                    as_json,
                )
                continue
            result = analyze(parse_position(text, the_game), limits, weak=weak)
        except InarowError as error:
            failed = True
            if as_json:
                print(json.dumps({"position": text, "error": str(error)}), flush=True)
            else:
                err.print(f"error: {error}", markup=False)
            continue
        if as_json:
            print(json.dumps(result.to_json(text)), flush=True)
        else:
            _print_analysis(text, result)
    if failed:
        raise typer.Exit(1)


def _check_search(algorithm: str, evaluation: str) -> None:
    check_algorithm(algorithm)
    evaluation_named(evaluation)


def _print_move_values(text: str, report: MoveValues, as_json: bool) -> None:
    """The depth-limited values of a textbook search (``inarow analyze --algo``)."""
    if as_json:
        print(json.dumps(report.to_json(text)), flush=True)
        return
    position, game = report.position, report.position.game
    turn = f"{position.to_move} to move" if position.to_move else "game over"
    out.print(f"[bold]{text or '(empty board)'}[/bold]  ({game.name}, {turn})")
    out.print(render_board(position), markup=False)
    if position.is_over:
        out.print(f"result  {report.describe()}")
        out.print()
        return
    out.print(f"value   {report.describe()}  (not exact: depth-limited)", markup=False)
    out.print(f"best    {' '.join(game.cell_name(bit) for bit in report.best)}")
    out.print(f"line    {' '.join(game.cell_name(bit) for bit in report.pv)}")
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("move")
    table.add_column(f"value for {position.to_move}", justify="right")
    for move in report.moves:
        table.add_row(game.cell_name(move.move), format_value(move.mover_value))
    out.print(table)
    out.print(f"nodes   {report.nodes:,} in {report.seconds:.3f} s")
    out.print()


def _print_analysis(text: str, result: Analysis) -> None:
    position = result.position
    turn = f"{result.to_move} to move" if result.to_move else "game over"
    out.print(f"[bold]{text or '(empty board)'}[/bold]  ({position.game.name}, {turn})")
    out.print(render_board(position), markup=False)
    if result.result is not None:
        out.print(f"result  {result.describe()}")
        out.print()
        return
    exactness = "exact" if result.exact else f"not exact: depth {result.depth}"
    out.print(f"value   {result.describe()}  (score {result.score:+d}, {exactness})")
    out.print(f"best    {' '.join(result.best)}")
    out.print(f"line    {' '.join(result.pv)}")
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("move", "for the mover", "score", "plies"):
        table.add_column(column, justify="left" if column != "score" else "right")
    for move in sorted(result.moves, key=lambda m: m.score if not m.exact else m.score * 10**9, reverse=True):
        plies = "" if move.plies is None else str(move.plies)
        table.add_row(move.move, move.describe(), f"{move.score:+d}", plies)
    out.print(table)
    out.print(f"nodes   {result.nodes:,} in {result.seconds:.3f} s")
    out.print()


@app.command()
def best(
    position: Annotated[str, typer.Argument(help="The position: a diagram, a move list, or digits.")],
    game: GameOption = "tictactoe",
    depth: DepthOption = None,
    time: TimeOption = None,
    nodes: NodesOption = None,
) -> None:
    """The move to play and why, from the standpoint of the side to move."""
    the_position = parse_position(position, parse_game(game))
    if the_position.is_over:
        raise InarowError(f"no move in {the_position.diagram()!r}: the game is over ({the_position.result})")
    result = analyze(the_position, _limits(depth, time, nodes, the_position.game))
    move = result.pv[0] if result.pv else result.best[0]
    why = words.best_move(outcome=result.outcome, plies=result.plies, score=result.score, depth=result.depth)
    out.print(f"{move} — {why}", markup=False)


@app.command()
def solve(
    game: GameOption = "tictactoe",
    symmetry: Annotated[bool, typer.Option(help="Also count positions and games up to symmetry.")] = True,
    time: TimeOption = None,
) -> None:
    """Solve a small board: the value of the empty board and the whole table of reachable positions."""
    from inarow.census import MAX_TABLE_CELLS, census

    the_game = parse_game(game)
    if the_game.cells > MAX_TABLE_CELLS:
        result = analyze(Position.start(the_game), _limits(None, time, None, the_game))
        out.print(f"{the_game.name}: {result.describe()} (score {result.score:+d})")
        explored = f"{result.nodes:,} positions explored in {result.seconds:.2f} s"
        out.print(f"best first moves: {' '.join(result.best)}; {explored}")
        out.print(f"(whole tables are built for boards of at most {MAX_TABLE_CELLS} cells)")
        return
    with Progress(
        TextColumn("solving {task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(the_game.name, total=None)
        table = census(
            the_game,
            symmetry=symmetry,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    value = table.value
    out.print(f"[bold]{the_game.name}[/bold]: {words.game_value(value)} with perfect play (score {value:+d})")
    rows = [
        ("positions reachable (empty board included)", table.positions),
        ("terminal positions", len(table.terminal)),
        (
            "positions won by x / o / drawn with perfect play",
            "{x:,} / {o:,} / {draw:,}".format(**table.positions_by_value),
        ),
        ("games (move sequences to the end)", table.games),
        ("games won by x", table.x_wins),
        ("games won by o", table.o_wins),
        ("games drawn", table.draws),
    ]
    if table.symmetric_positions is not None:
        rows += [
            ("positions up to symmetry", table.symmetric_positions),
            ("games up to symmetry", table.symmetric_games),
        ]
    grid = Table(show_header=False, box=None)
    grid.add_column()
    grid.add_column(justify="right")
    for label, count in rows:
        grid.add_row(label, f"{count:,}" if isinstance(count, int) else str(count))
    out.print(grid)


@app.command()
def play(
    game: GameOption = "tictactoe",
    you: Annotated[str | None, typer.Option(help="Play x or o (asked if not given).")] = None,
    first: Annotated[
        str | None, typer.Option(help="Who starts: you, computer or random (asked if not given).")
    ] = None,
    level: Annotated[
        str | None, typer.Option(help="easy, medium, hard or perfect (asked if not given).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed the computer's random choices.")] = None,
    time: Annotated[
        float, typer.Option("--time", "-t", help="The computer's think time per move, seconds.")
    ] = 2.0,
) -> None:
    """Play against the computer in the terminal. On 3×3 the keys 1-9 follow the numeric keypad."""
    from inarow.console import ConsoleGame

    ConsoleGame(parse_game(game), out, seed=seed, think_time=time).run(you, first, level)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="The SQLite file of the games (default: the user data folder).")
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")] = False,
    think_time: Annotated[
        float, typer.Option("--think-time", help="The server-wide cap on one search, seconds.")
    ] = 2.0,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Search processes (default: one per core, up to 4).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Make the games' random choices reproducible.")] = None,
) -> None:
    """Start the web app: play in the browser; every game is kept."""
    from inarow.web.server import serve as run

    if not 0 < think_time <= 60:
        raise InarowError(f"invalid think time {think_time!r}: expected more than 0 and at most 60 seconds")
    run(host, port, db, open_browser, think_time=think_time, workers=workers, seed=seed)


TREE_FORMATS = ("text", "json", "dot", "svg")


@app.command("tree")
def tree_command(
    text: Annotated[
        str, typer.Argument(metavar="POSITION", help="The position: a diagram, a move list, or digits.")
    ],
    game_name: GameOption = "tictactoe",
    algo: Annotated[
        str, typer.Option("--algo", "-a", help="minimax, negamax, alphabeta (fail-hard) or alphabeta-soft.")
    ] = "alphabeta",
    depth: Annotated[int, typer.Option("--depth", "-d", help="Search this many plies deep.")] = 2,
    evaluation: EvalOption = "open-lines",
    output_format: Annotated[
        str,
        typer.Option("--format", "-f", help="text, json, dot (Graphviz) or svg (drawn without Graphviz)."),
    ] = "text",
    max_nodes: Annotated[
        int, typer.Option("--max-nodes", help="Refuse trees of more nodes than this.")
    ] = MAX_TREE_NODES,
) -> None:
    """The search tree of a textbook algorithm: every node with its value and α/β, and what α-β pruned.

    Minimax and α-β nodes are Max (x to move) or Min (o to move), their values from x's standpoint;
    negamax values are from the side to move at each node. The text and JSON end with the number of nodes
    visited; with dot and svg it goes to standard error.
    """
    from inarow import drawing

    if output_format not in TREE_FORMATS:
        raise InarowError(f"unknown format {output_format!r}: expected one of {', '.join(TREE_FORMATS)}")
    root = parse_position(text, parse_game(game_name))
    explanation = explain_tree(root, algo, _limits(depth, None, None).depth, evaluation, max_nodes=max_nodes)
    result = explanation.search
    if output_format == "json":
        print(json.dumps(explanation.to_json(), ensure_ascii=False))
    elif output_format == "text":
        print(drawing.to_text(result))
    else:
        sys.stdout.write(drawing.to_dot(result) if output_format == "dot" else drawing.to_svg(result))
        err.print(f"nodes visited: {result.nodes:,}")


@app.command("compare")
def compare_command(
    text: Annotated[
        str, typer.Argument(metavar="POSITION", help="The position: a diagram, a move list, or digits.")
    ] = "",
    game_name: GameOption = "tictactoe",
    depth: Annotated[
        int | None, typer.Option("--depth", "-d", help="Search this many plies deep (default: to the end).")
    ] = None,
    evaluation: EvalOption = "open-lines",
    max_nodes: Annotated[
        int, typer.Option("--nodes", help="Stop each algorithm after this many nodes.")
    ] = COMPARE_MAX_NODES,
    as_json: Annotated[bool, typer.Option("--json", help="The table as JSON.")] = False,
) -> None:
    """Nodes visited and time of minimax, α-β and its refinements, and the engine, on one position.

    Each searches the same position to the same depth: minimax, α-β, α-β with move ordering, with a
    transposition table, with both, and the engine; with the effective branching factor b*
    (nodes = 1 + b* + b*² + … + b*^depth).
    """
    _limits(depth, None, max_nodes)
    evaluation_named(evaluation)
    root = parse_position(text, parse_game(game_name))
    with err.status("searching…") as status:
        report = compare_algorithms(
            root,
            depth,
            evaluation,
            max_nodes=max_nodes,
            progress=lambda label: status.update(f"searching with {label}…"),
        )
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return
    out.print(
        f"[bold]{text or '(empty board)'}[/bold]  ({root.game.name}, {root.turn} to move), "
        f"depth {report.depth}, {report.evaluation} evaluation",
        soft_wrap=True,
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("algorithm", "nodes", "seconds", "b*", "value", "move"):
        table.add_column(column, justify="left" if column in ("algorithm", "value", "move") else "right")
    for row in report.rows:
        nodes = f"{row.nodes:,}" if row.complete else f"> {row.nodes:,} (stopped)"
        branching = "" if row.branching is None else f"{row.branching:.2f}"
        move = "" if row.move is None else root.game.cell_name(row.move)
        table.add_row(row.label, nodes, f"{row.seconds:.3f}", branching, row.value_text(), move)
    out.print(table)
    out.print("values from the side to move's standpoint; the engine uses its own evaluation")


@app.command("match")
def match_command(
    player_x: Annotated[str, typer.Argument(help="The first player (x in the first game).")],
    player_o: Annotated[str, typer.Argument(help="The second player.")],
    game_name: GameOption = "tictactoe",
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")] = 10,
    swap: Annotated[bool, typer.Option("--swap", help="Swap colours every other game.")] = False,
    seed: Annotated[int | None, typer.Option(help="Seed the players' random choices.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The results and the games as JSON.")] = False,
    time: Annotated[
        float | None, typer.Option("--time", "-t", help="Think time per move of the levels, seconds.")
    ] = None,
) -> None:
    """Computer against computer: each player's wins, draws and losses, and the games as move lists.

    The results come with a 95% interval of each player's score.

    Players: random, rules, easy, medium, hard, perfect, or ALGORITHM:DEPTH[:EVALUATION] such as
    minimax:2:open-lines or alphabeta:4:weighted.
    """
    game = parse_game(game_name)
    check_games(games)
    options = {} if time is None else {"think_time": time}
    first, second = player(player_x, **options), player(player_o, **options)
    with Progress(
        TextColumn("playing"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} games"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("match", total=games)
        result = play_match(
            game,
            first,
            second,
            games,
            swap=swap,
            seed=seed,
            progress=lambda done, total: bar.update(task, completed=done),
        )
    if as_json:
        print(json.dumps(result.to_json()))
        return
    out.print(
        f"[bold]{player_x}[/bold] against [bold]{player_o}[/bold] on {game.name}: {games} games"
        f"{', colours swapped every other game' if swap else ''} (seed {result.seed})",
        soft_wrap=True,
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("player", "wins", "draws", "losses", "score", "95% interval"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for tally in result.tallies():
        low, high = tally.score_interval
        table.add_row(
            tally.player,
            str(tally.wins),
            str(tally.draws),
            str(tally.losses),
            f"{tally.score:.3f}",
            f"{low:.3f} – {high:.3f}",
        )
    out.print(table)
    width = len(str(games))
    for number, record in enumerate(result.games, start=1):
        moves = format_moves(game, record.moves)
        outcome = words.game_result(record.result)
        out.print(f"{number:>{width}}. x {record.x}, o {record.o}: {moves} — {outcome}", markup=False)


@app.command("gomocup")
def gomocup_command() -> None:
    """Play Gomoku over the Gomocup protocol on standard input and output (a pbrain engine for Piskvork
    and other managers): START, RESTART, BEGIN, TURN, BOARD … DONE, TAKEBACK, INFO, ABOUT, END."""
    from inarow import gomocup

    gomocup.serve()
