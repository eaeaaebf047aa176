"""The ``inarow`` command: thin verbs that parse, call the library and present.

An :class:`~inarow.errors.InarowError` prints ``error: …`` on stderr and exits with status 2, without a
traceback. Batch commands read one position per line and never stop at a bad line.
"""

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer
from typer.core import TyperGroup

from inarow import __version__
from inarow.cli_book import app as book_app
from inarow.errors import InarowError, InvalidPositionError

if TYPE_CHECKING:
    from rich.console import Console

    from inarow.analysis import Analysis
    from inarow.explain import MoveValues
    from inarow.rules import Game
    from inarow.search.limits import Limits
    from inarow.search.textbook import SearchResult

# The verbs import what they use when they run: ``inarow --help`` and a 3×3 ``inarow best`` stay quick, and
# numba is imported only by a board that needs the compiled engine (see inarow.analysis.engine_for).
COMPARE_MAX_NODES = 1_000_000
"""The default of ``compare --nodes`` (inarow.explain.COMPARE_MAX_NODES; a test keeps the two equal)."""
MAX_TREE_NODES = 5_000
"""The default of ``tree --max-nodes`` (inarow.explain.MAX_TREE_NODES; a test keeps the two equal)."""


class _Verbs(TyperGroup):
    """The verbs of ``inarow``, with the one handler of bad input: ``error: …`` on stderr and status 2."""

    def invoke(self, ctx: Any) -> Any:  # Any: typer's Context class moves between releases
        try:
            return super().invoke(ctx)
        except InarowError as error:
            fail(error)

    def parse_args(self, ctx: Any, args: list[str]) -> Any:
        for param in self.get_params(ctx):
            _quick_reading(param)
        return super().parse_args(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_arguments(command, ctx)
        return command


def _plain_arguments(command: Any, ctx: Any) -> None:
    """Arguments in help as a person reads them: ``POSITION`` in the usage line and no ``<str>`` type
    placeholder after its name (typer writes ``{POSITION}`` and ``POSITION <str>``); and every parameter
    read without building a pydantic validator (see :func:`_quick_reading`)."""
    for param in command.get_params(ctx):
        _quick_reading(param)
        if param.param_type_name != "argument":
            continue
        name = param.display_name_raw
        usage = name if param.required else f"[{name}]"
        usage += "..." if param.nargs != 1 else ""
        param.display_type_rich = lambda ctx: None
        param._usage_display_name = lambda usage=usage: usage


_KINDS: dict[Any, tuple[Callable[[Any], Any], str]] = {
    bool: (bool, "yes or no"),
    str: (str, "text"),
    int: (int, "whole number"),
    float: (float, "number"),
    Path: (Path, "path"),
}


def _quick_reading(param: Any) -> None:
    """Read a plain ``str``, ``int``, ``float``, ``Path`` or ``list[str]`` parameter with the type itself.

    typer 0.2x builds a pydantic validator for every parameter of the command run: importing pydantic
    and building them took 0.15–0.2 s, most of a 3×3 answer. Parameters with bounds (``min=``) or a
    parser keep typer's own reading, and so does everything where typer's internals are not what this
    expects (another typer release): then it only costs time.
    """
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", True) is not None:
        return
    info = descriptor.parameter_info
    if getattr(info, "min", None) is not None or getattr(info, "max", None) is not None or info.parser:
        return
    annotation = descriptor.annotation
    if annotation == list[str]:
        kind = _KINDS[str]
    elif annotation in _KINDS:
        kind = _KINDS[annotation]
    else:
        return
    reader = _reader_class()
    if reader is not None:
        param._runtime_param = reader(parameter_info=info, annotation=annotation, kind=kind)


@cache
def _reader_class() -> Any:
    """typer's RuntimeParam with the reading of :func:`_quick_reading` (None if typer has no such class)."""
    try:
        from dataclasses import dataclass

        from typer._coercion import RuntimeParam
    except ImportError:  # pragma: no cover - another typer release
        return None

    @dataclass(frozen=True)
    class PlainReading(RuntimeParam):
        kind: tuple[Callable[[Any], Any], str]

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            convert, name = self.kind
            if isinstance(value, tuple | list):
                return [self._coerce_value(item, param, ctx) for item in value]
            if isinstance(value, bool) or value is None:
                return value
            try:
                return convert(value)
            except (TypeError, ValueError):
                raise typer.BadParameter(f"{value!r} is not a {name}", ctx=ctx, param=param) from None

    return PlainReading


app = typer.Typer(
    cls=_Verbs,
    help="Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(book_app, name="book")


class _LazyConsole:
    """A rich Console made on first use (importing rich costs what a 3×3 answer costs)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Console | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)

    @property
    def is_terminal(self) -> bool:
        """Whether the stream is a terminal, as rich says, without importing rich when it plainly is not
        (no tty and none of the variables with which rich can be told otherwise)."""
        if self._console is None:
            stream = sys.stderr if self._options.get("stderr") else sys.stdout
            isatty = getattr(stream, "isatty", None)
            forced = any(
                os.environ.get(name) for name in ("FORCE_COLOR", "TTY_INTERACTIVE", "TTY_COMPATIBLE")
            )
            if not forced and not (isatty is not None and isatty()):
                return False
        return bool(self.real().is_terminal)

    def real(self) -> "Console":
        """The Console itself, for what needs more than its methods (``with console:`` in rich's Live)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console


def _say(line: str, bold: str = "") -> None:
    """Print a line of plain text, ``bold`` before it (in bold on a terminal): without rich when standard
    output is not a terminal, so that a piped answer does not pay for importing it."""
    if out.is_terminal:
        from rich.markup import escape

        out.print(f"[bold]{escape(bold)}[/bold]{escape(line)}" if bold else escape(line), soft_wrap=True)
    else:
        print(bold + line)


def _real(console: "Console") -> "Console":
    """The rich Console behind :data:`out` or :data:`err`."""
    return cast(_LazyConsole, console).real() if isinstance(console, _LazyConsole) else console


out = cast("Console", _LazyConsole(highlight=False))
err = cast("Console", _LazyConsole(stderr=True, highlight=False, soft_wrap=True))


GameOption = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        metavar="GAME",
        help="tictactoe, 4x4, 5x5, connect4, gomoku, or COLSxROWS:K[:gravity] such as 6x4:4:gravity.",
    ),
]
DepthOption = Annotated[
    int | None,
    typer.Option(
        "--depth", "-d", metavar="PLIES", help="Search this many plies deep, with the evaluation beyond."
    ),
]
TimeOption = Annotated[
    float | None,
    typer.Option(
        "--time",
        "-t",
        metavar="SECONDS",
        help="Think at most this many seconds. Default: no limit, except 10 s on boards too big to solve.",
    ),
]
NodesOption = Annotated[
    int | None, typer.Option("--nodes", metavar="N", help="Explore at most this many positions.")
]
AlgoOption = Annotated[
    str | None,
    typer.Option(
        "--algo",
        "-a",
        metavar="ALGORITHM",
        help="A textbook search: minimax, negamax, alphabeta, alphabeta-soft or negamax-alphabeta.",
    ),
]
EvalOption = Annotated[
    str,
    typer.Option(
        "--eval",
        "-e",
        metavar="EVALUATION",
        help="The evaluation at the leaves: open-lines, weighted, lines, or your own weights:W0,W1,…,Wk "
        "(a line with exactly n stones of one side and none of the other scores Wn for it; e.g. "
        "weights:1,1,1,inf is the textbook e(P)).",
    ),
]
OrderOption = Annotated[
    str,
    typer.Option(
        "--order",
        metavar="ORDER",
        help="The order children are generated in: columns (a1 a2 a3 b1 …, the default) or rows (row by "
        "row from the top: a3 b3 c3 a2 …, as course material draws trees).",
    ),
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
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
    memory: Annotated[
        float | None,
        typer.Option(
            "--memory",
            metavar="MB",
            help="The most memory the compiled engine's table may take, in megabytes (default: sized to "
            "the board, at most 128 MB on Connect Four and 192 MB on 5x5).",
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="LANGUAGE",
            help="en or zh (简体中文) for the words of the answers; default: the terminal's locale (LANG). "
            "--json is the same in every language.",
        ),
    ] = None,
) -> None:
    """Tic-tac-toe and every k-in-a-row game: exact game-tree search from the command line."""
    from inarow import i18n

    if lang is None:
        code = i18n.from_environment()
    else:
        code = i18n.negotiate([lang])
        if code == i18n.DEFAULT and not lang.strip().lower().startswith(i18n.DEFAULT):
            raise InarowError(f"unknown language {lang!r}: expected one of en, zh")
    ctx.with_resource(i18n.language(code))  # for this command only: the language is restored after it
    if memory is not None:
        if not memory > 0:
            raise InarowError(f"invalid memory {memory!r}: expected a positive number of megabytes")
        os.environ["INAROW_MEMORY"] = repr(memory)


BIG_BOARD_TIME = 10.0
"""Seconds a search takes when no limit is given on a board exact search cannot finish (Gomoku, 9×9, …)."""


def _limits(depth: int | None, time: float | None, nodes: int | None, game: "Game | None" = None) -> "Limits":
    """The limits given; with none at all on a board too big to solve, :data:`BIG_BOARD_TIME` seconds."""
    from inarow.analysis import solvable
    from inarow.search.limits import Limits

    if game is not None and depth is None and time is None and nodes is None and not solvable(game):
        time = BIG_BOARD_TIME
    return Limits(depth=depth, time=time, nodes=nodes)


MAX_LINE = 100_000
"""The longest line ``inarow analyze`` reads from standard input, in bytes; a longer one is a bad line."""


class _BadLine(str):
    """A line of standard input that cannot be a position (undecodable, too long): its text as far as it
    can be shown, and what is wrong with it."""

    problem: str


def _bad_line(shown: str, problem: str) -> _BadLine:
    line = _BadLine(shown)
    line.problem = problem
    return line


def _lines(positions: list[str]) -> Iterator[str]:
    """The positions given as arguments, or else one per line of standard input, read a line at a time
    (never the whole input, never more than :data:`MAX_LINE` bytes of one line), blank lines skipped (the
    empty board is the argument ``""``; in a batch it would start a search nobody asked for)."""
    if positions:
        yield from positions
        return
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes beneath (tests)
        for text in sys.stdin:
            if text.strip():
                yield text.rstrip("\r\n")
        return
    number = 0
    while raw := stream.readline(MAX_LINE + 1):
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while (rest := stream.readline(65536)) and not rest.endswith(b"\n"):
                pass  # skip the rest of the over-long line, a piece at a time
            shown = raw[:20].decode("utf-8", errors="replace") + "…"
            yield _bad_line(
                shown, f"line {number} is longer than {MAX_LINE:,} bytes: it cannot be a position"
            )
            continue
        raw = raw.rstrip(b"\r\n")
        if not raw.strip():
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield _bad_line(
                raw.decode("utf-8", errors="replace"),
                f"line {number} is not UTF-8 text (byte {raw[error.start]:#04x} at {error.start + 1})",
            )


# ------------------------------------------------------------------------ progress, on a terminal only
@contextmanager
def _working(description: str) -> Iterator[Callable[[str], None]]:
    """A spinner with the time elapsed on standard error while long work runs, when it is a terminal;
    nothing at all when it is not. Yields a function that changes the description."""
    if not err.is_terminal:
        yield lambda _: None
        return
    if _spinners:  # rich shows one live display at a time: the spinner already running says it
        say, before = _spinners[-1]
        say(description)
        try:
            yield say
        finally:
            say(before)
        return
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

    with _progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn()) as bar:
        task = bar.add_task(description, total=None)

        def say(text: str) -> None:
            bar.update(task, description=text)
            _spinners[-1] = (say, text)

        _spinners.append((say, description))
        try:
            yield say
        finally:
            _spinners.pop()


def _progress(*columns: Any) -> Any:
    """A rich progress display of ``columns`` on the real standard error, gone once done, standard output
    printed above it when that is a terminal too."""
    from rich.progress import Progress

    return Progress(
        *columns,
        console=_real(err),
        transient=True,
        redirect_stdout=out.is_terminal,
        redirect_stderr=False,
    )


_spinners: list[tuple[Callable[[str], None], str]] = []
"""The spinner on screen, if any, and what it said before a nested piece of work (see :func:`_working`)."""


@contextmanager
def _counting(description: str, total: int | None) -> Iterator[Callable[[int, int | None], None]]:
    """A progress bar on standard error (``done/total``) when it is a terminal, else nothing; yields the
    function that moves it."""
    if not err.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    with _progress(TextColumn(description), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done, total: bar.update(task, completed=done, total=total)


@contextmanager
def _loading(compiling: bool) -> Iterator[None]:
    """What the compiled engine's first load shows on a terminal: a progress line while it loads and, when
    numba had to compile it, a line that stays; nothing when standard error is not a terminal."""
    from inarow import words

    if not err.is_terminal:
        yield
        return
    start = time.perf_counter()
    with _working(words.loading_engine(compiling)):
        yield
    if compiling:
        err.print(words.engine_compiled(time.perf_counter() - start), markup=False)


def _prepare(game: "Game") -> None:
    """Load the compiled engine now, with its progress line, if ``game`` will need it (play, match)."""
    from inarow.analysis import engine_for, load_engine

    if engine_for(game) == "compiled":
        load_engine(_loading)


@app.command("analyze")
def analyze_command(
    positions: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="POSITION",
            help="Positions: a diagram 'x.o/.x./..o', moves 'b2 a1', or digits '4453'. Default: stdin.",
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
    backs up, from the side to move's standpoint (+inf/-inf: a win/loss it can force); exact is true only
    when the search reaches the end of every line. nodes counts one search of the whole tree, root
    included, as tree and compare do; move_nodes the full-window searches that gave every move its value.

    With no POSITION, reads one position per line from standard input (blank lines are skipped). A bad
    line gets an error (in JSON, {"position": ..., "error": ...}) and the batch goes on; the exit status
    is 1 if any line failed. On a terminal, a long search shows its progress on standard error.
    """
    from inarow import words
    from inarow.analysis import analyze
    from inarow.notation import parse_game, parse_position

    the_game = parse_game(game)
    limits = _limits(depth, time, nodes, the_game)
    if algo is not None:
        _check_search(algo, evaluation)
    failed = False
    with _working("analyzing") as say:
        for text in _lines(positions or []):
            try:
                if isinstance(text, _BadLine):
                    raise InvalidPositionError(text.problem)
                if algo is not None:
                    from inarow.explain import analyze_moves

                    _print_move_values(
                        text,
                        analyze_moves(parse_position(text, the_game), algo, depth, evaluation, limits),
                        as_json,
                    )
                    continue
                position = parse_position(text, the_game)
                say(words.searching(text, the_game.name))
                result = analyze(position, limits, weak=weak, loading=_loading)
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
                _print_analysis(text, result, weak)
    if failed:
        raise typer.Exit(1)


def _check_search(algorithm: str, evaluation: str) -> None:
    from inarow.evaluation import evaluation_named
    from inarow.search.textbook import check_algorithm

    check_algorithm(algorithm)
    evaluation_named(evaluation)


def _print_move_values(text: str, report: "MoveValues", as_json: bool) -> None:
    """The depth-limited values of a textbook search (``inarow analyze --algo``)."""
    from rich.table import Table

    from inarow import words
    from inarow.console import render_board
    from inarow.words import format_value

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
    out.print(f"value   {report.describe()}  ({words.textbook_exactness(report.exact)})", markup=False)
    out.print(f"best    {' '.join(game.cell_name(bit) for bit in report.best)}")
    out.print(f"line    {' '.join(game.cell_name(bit) for bit in report.pv)}")
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("move")
    table.add_column(f"value for {position.to_move}", justify="right")
    for move in report.moves:
        table.add_row(game.cell_name(move.move), format_value(move.mover_value))
    out.print(table)
    out.print(
        f"nodes   {words.textbook_nodes(report.nodes, report.algorithm, report.move_nodes)}", markup=False
    )
    out.print(f"time    {report.seconds:.3f} s")
    out.print()


def _print_analysis(text: str, result: "Analysis", weak: bool = False) -> None:
    """An analysis in text: the same fields as its JSON, in words (see :mod:`inarow.words`)."""
    from rich.markup import escape
    from rich.table import Table

    from inarow import words
    from inarow.console import render_board
    from inarow.i18n import _

    position = result.position
    heading = words.position_heading(text, position.game.name, result.to_move)
    out.print(f"[bold]{escape(heading)}[/bold]")
    out.print(render_board(position), markup=False)
    if result.result is not None:
        out.print(words.label(_("result")) + result.describe(), markup=False)
        out.print()
        return
    exactness = words.exactness(result.exact, weak)
    value = _("{value}  (score {score}, {exactness})").format(
        value=result.describe(), score=f"{result.score:+d}", exactness=exactness
    )
    out.print(words.label(_("value")) + value, markup=False, soft_wrap=True)
    out.print(words.label(_("best")) + " ".join(result.best), markup=False)
    out.print(words.label(_("line")) + " ".join(result.pv), markup=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column, right in (
        (_("move"), False),
        (_("for the mover"), False),
        (_("score"), True),
        (_("plies"), False),
    ):
        table.add_column(column, justify="right" if right else "left", no_wrap=True)
    for move in sorted(result.moves, key=lambda m: m.score if not m.exact else m.score * 10**9, reverse=True):
        plies = "" if move.plies is None else str(move.plies)
        table.add_row(move.move, move.describe(), f"{move.score:+d}", plies)
    out.print(table)
    work = words.work(result.nodes, result.seconds, result.load_seconds)
    out.print(words.label(_("nodes")) + work, markup=False)
    out.print()


@app.command()
def best(
    position: Annotated[
        str, typer.Argument(metavar="POSITION", help="The position: a diagram, a move list, or digits.")
    ],
    game: GameOption = "tictactoe",
    depth: DepthOption = None,
    time: TimeOption = None,
    nodes: NodesOption = None,
) -> None:
    """The move to play and why, from the standpoint of the side to move."""
    from inarow import words
    from inarow.analysis import analyze
    from inarow.notation import parse_game, parse_position

    the_position = parse_position(position, parse_game(game))
    if the_position.is_over:
        raise InarowError(f"no move in {the_position.diagram()!r}: the game is over ({the_position.result})")
    with _working(words.searching(position, the_position.game.name)):
        result = analyze(the_position, _limits(depth, time, nodes, the_position.game), loading=_loading)
    move = result.pv[0] if result.pv else result.best[0]
    why = words.best_move(outcome=result.outcome, plies=result.plies, score=result.score, depth=result.depth)
    _say(f"{move} — {why}")


@app.command()
def solve(
    game: GameOption = "tictactoe",
    symmetry: Annotated[
        bool, typer.Option("--symmetry/--no-symmetry", help="Also count positions and games up to symmetry.")
    ] = True,
    time: TimeOption = None,
) -> None:
    """Solve a small board: the value of the empty board and the whole table of reachable positions.

    Boards of more cells than a table can hold get the value of the empty board alone.
    """
    from inarow import words
    from inarow.census import MAX_TABLE_CELLS, census
    from inarow.notation import parse_game

    the_game = parse_game(game)
    if the_game.cells > MAX_TABLE_CELLS:
        from inarow.analysis import analyze
        from inarow.rules import Position

        with _working(words.slow_solve(the_game.name)):
            result = analyze(Position.start(the_game), _limits(None, time, None, the_game), loading=_loading)
        explored = words.work(result.nodes, result.seconds, result.load_seconds)
        for line in (
            f"{the_game.name}: {result.describe()} (score {result.score:+d})",
            f"best first moves: {' '.join(result.best)}; {explored}",
            f"(whole tables are built for boards of at most {MAX_TABLE_CELLS} cells)",
        ):
            _say(line)
        return
    with _counting(f"solving {the_game.name}", None) as progress:
        table = census(the_game, symmetry=symmetry, progress=progress)
    value = table.value
    _say(f": {words.game_value(value)} with perfect play (score {value:+d})", bold=the_game.name)
    rows: list[tuple[str, str]] = [
        ("positions reachable (empty board included)", f"{table.positions:,}"),
        ("terminal positions", f"{len(table.terminal):,}"),
        (
            "positions won by x / o / drawn with perfect play",
            "{x:,} / {o:,} / {draw:,}".format(**table.positions_by_value),
        ),
        ("games (move sequences to the end)", f"{table.games:,}"),
        ("games won by x", f"{table.x_wins:,}"),
        ("games won by o", f"{table.o_wins:,}"),
        ("games drawn", f"{table.draws:,}"),
    ]
    if table.symmetric_positions is not None:
        rows += [
            ("positions up to symmetry", f"{table.symmetric_positions:,}"),
            ("games up to symmetry", f"{table.symmetric_games:,}"),
        ]
    label_width = max(len(label) for label, _ in rows)
    count_width = max(len(count) for _, count in rows)
    for label, count in rows:
        _say(f"{label:<{label_width}}  {count:>{count_width}}")


@app.command()
def play(
    game: GameOption = "tictactoe",
    you: Annotated[str | None, typer.Option(metavar="SIDE", help="Play x or o (asked if not given).")] = None,
    first: Annotated[
        str | None,
        typer.Option(metavar="WHO", help="Who starts: you, computer or random (asked if not given)."),
    ] = None,
    level: Annotated[
        str | None, typer.Option(metavar="LEVEL", help="easy, medium, hard or perfect (asked if not given).")
    ] = None,
    seed: Annotated[int | None, typer.Option(metavar="N", help="Seed the computer's random choices.")] = None,
    time: Annotated[
        float,
        typer.Option("--time", "-t", metavar="SECONDS", help="The computer's think time per move, seconds."),
    ] = 2.0,
) -> None:
    """Play against the computer in the terminal. On 3×3 the keys 1-9 follow the numeric keypad."""
    from inarow.console import ConsoleGame
    from inarow.notation import parse_game

    the_game = parse_game(game)
    _prepare(the_game)
    ConsoleGame(the_game, _real(out), seed=seed, think_time=time).run(you, first, level)


@app.command("warm-up")
def warm_up_command() -> None:
    """Load the compiled engine now: compile it (once per install, about 10 s) or load it from numba's
    cache, so that no later search pays for it. bash scripts/start.sh runs it after installing."""
    from inarow import words
    from inarow.analysis import load_engine

    compiling: list[bool] = []

    def loading(compiles: bool) -> AbstractContextManager[object]:
        compiling.append(compiles)
        return _loading(compiles)

    seconds = load_engine(loading)  # numba's import included
    from inarow.search import compiled

    folder = str(compiled.cache_folder())
    out.print(words.engine_ready(seconds, any(compiling), folder), markup=False, soft_wrap=True)


@app.command()
def serve(
    host: Annotated[str, typer.Option(metavar="ADDRESS", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="The port to listen on.")] = 8000,
    db: Annotated[
        Path | None,
        typer.Option(metavar="PATH", help="The SQLite file of the games (default: the user data folder)."),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")] = False,
    think_time: Annotated[
        float,
        typer.Option("--think-time", metavar="SECONDS", help="The server-wide cap on one search, seconds."),
    ] = 2.0,
    workers: Annotated[
        int | None,
        typer.Option(min=1, metavar="N", help="Search processes (default: one per core, up to 4)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Make the games' random choices reproducible.")
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host", metavar="HOST", help="Another host name the server answers to (repeatable)."
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            metavar="TOKEN",
            help="The token API requests must carry (made up when listening beyond loopback).",
        ),
    ] = None,
) -> None:
    """Start the web app: play in the browser; every game is kept.

    Listening beyond this machine (--host 0.0.0.0) needs a token: one is made and printed in the URL
    unless --token gives it. Only loopback names, the --host address and --allow-host names are answered.
    """
    from inarow.web.server import serve as run

    if not 0 < think_time <= 60:
        raise InarowError(f"invalid think time {think_time!r}: expected more than 0 and at most 60 seconds")
    run(
        host,
        port,
        db,
        open_browser,
        think_time=think_time,
        workers=workers,
        seed=seed,
        allow_hosts=tuple(allow_host or ()),
        token=token,
    )


TREE_FORMATS = ("text", "json", "dot", "svg")


@app.command("tree")
def tree_command(
    text: Annotated[
        str | None,
        typer.Argument(
            metavar="POSITION", help="The position: a diagram, a move list, or digits (default: empty)."
        ),
    ] = None,
    game_name: GameOption = "tictactoe",
    algo: Annotated[
        str,
        typer.Option(
            "--algo",
            "-a",
            metavar="ALGORITHM",
            help="minimax, negamax, alphabeta (fail-hard), alphabeta-soft or negamax-alphabeta.",
        ),
    ] = "alphabeta",
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth",
            "-d",
            metavar="PLIES",
            help="Search this many plies deep (default 2; with --leaves, all).",
        ),
    ] = None,
    evaluation: EvalOption = "open-lines",
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="text, json, dot (Graphviz) or svg (drawn without Graphviz).",
        ),
    ] = "text",
    max_nodes: Annotated[
        int, typer.Option("--max-nodes", metavar="N", help="Refuse trees of more nodes than this.")
    ] = MAX_TREE_NODES,
    leaves: Annotated[
        str | None,
        typer.Option(
            "--leaves",
            metavar="JSON",
            help="An abstract tree instead of a position: nested JSON lists of leaf values, Max at the "
            "root, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.",
        ),
    ] = None,
    order: OrderOption = "columns",
    ordering: Annotated[
        bool, typer.Option("--ordering", help="Try the children best-first by e(P) after the move.")
    ] = False,
    quiescence: Annotated[
        bool,
        typer.Option(
            "--quiescence",
            help="At the horizon, search on while the side to move can win at once or must block.",
        ),
    ] = False,
    deepen: Annotated[
        bool,
        typer.Option(
            "--deepen",
            help="Iterative deepening: a row per depth 1..D (best move, value, nodes, time), each depth "
            "searching the previous one's best move first; then the last depth's tree.",
        ),
    ] = False,
) -> None:
    """The search tree of a textbook algorithm: every node with its value and α/β, and what α-β pruned.

    Minimax and α-β nodes are Max (x to move) or Min (o to move), their values from x's standpoint;
    negamax and negamax-alphabeta values are from the side to move at each node. The text and JSON end
    with the number of nodes visited; with dot and svg it goes to standard error.
    """
    from inarow import drawing
    from inarow.explain import explain_tree
    from inarow.notation import parse_game, parse_position
    from inarow.search.abstract import parse_leaves
    from inarow.search.textbook import State, check_order

    if output_format not in TREE_FORMATS:
        raise InarowError(f"unknown format {output_format!r}: expected one of {', '.join(TREE_FORMATS)}")
    check_order(order)
    root: State
    if leaves is not None:
        if text:
            raise InarowError(f"a position {text!r} and --leaves: give one or the other")
        root = parse_leaves(leaves)
        plies = depth
    else:
        root = parse_position(text or "", parse_game(game_name))
        plies = _limits(2 if depth is None else depth, None, None).depth
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
        err.print(f"nodes visited: {result.nodes:,}")


def _print_deepening(rows: "tuple[SearchResult, ...]", output_format: str) -> None:
    """The table of iterative deepening: one row a depth. On standard output for text, else standard
    error (JSON, DOT and SVG stay whole on standard output)."""
    from rich.table import Table

    from inarow.words import format_value

    console = out if output_format == "text" else err
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("depth", "searched first", "best move", "value", "nodes", "time"):
        table.add_column(column, justify="right" if column in ("depth", "value", "nodes") else "left")
    previous: str | None = None
    for row in rows:
        table.add_row(
            str(row.depth),
            previous or "-",
            row.move_name or "-",
            format_value(row.frame_value),
            f"{row.nodes:,}",
            f"{row.seconds * 1000:.1f} ms",
        )
        previous = row.move_name
    console.print("iterative deepening: each depth searches the previous depth's best move first")
    console.print(table)


@app.command("compare")
def compare_command(
    text: Annotated[
        str, typer.Argument(metavar="POSITION", help="The position: a diagram, a move list, or digits.")
    ] = "",
    game_name: GameOption = "tictactoe",
    depth: Annotated[
        int | None,
        typer.Option(
            "--depth", "-d", metavar="PLIES", help="Search this many plies deep (default: to the end)."
        ),
    ] = None,
    evaluation: EvalOption = "open-lines",
    max_nodes: Annotated[
        int, typer.Option("--nodes", metavar="N", help="Stop each algorithm after this many nodes.")
    ] = COMPARE_MAX_NODES,
    as_json: Annotated[bool, typer.Option("--json", help="The table as JSON.")] = False,
) -> None:
    """Nodes visited and time of minimax, α-β and its refinements, and the engine, on one position.

    Each searches the same position to the same depth: minimax, α-β, α-β with move ordering, with a
    transposition table, with both, and the engine; with the effective branching factor b*
    (nodes = 1 + b* + b*² + … + b*^depth).
    """
    from rich.table import Table

    from inarow.evaluation import evaluation_named
    from inarow.explain import compare_algorithms
    from inarow.notation import parse_game, parse_position

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
        value = row.max_value_text(root.turn)
        table.add_row(row.label, nodes, f"{row.seconds:.3f}", branching, value, move)
    out.print(table)
    out.print("values for Max (x), as in the trees; the engine uses its own evaluation")


@app.command("match")
def match_command(
    player_x: Annotated[
        str, typer.Argument(metavar="PLAYER_X", help="The first player (x in the first game).")
    ],
    player_o: Annotated[str, typer.Argument(metavar="PLAYER_O", help="The second player.")],
    game_name: GameOption = "tictactoe",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="How many games to play.")] = 10,
    swap: Annotated[bool, typer.Option("--swap", help="Swap colours every other game.")] = False,
    seed: Annotated[int | None, typer.Option(metavar="N", help="Seed the players' random choices.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The results and the games as JSON.")] = False,
    time: Annotated[
        float | None,
        typer.Option("--time", "-t", metavar="SECONDS", help="Think time per move of the levels, seconds."),
    ] = None,
) -> None:
    """Computer against computer: each player's wins, draws and losses, and the games as move lists.

    The results come with a 95% interval of each player's score.

    Players: random, rules, easy, medium, hard, perfect, or ALGORITHM:DEPTH[:EVALUATION] such as
    minimax:2:open-lines or alphabeta:4:weighted.
    """
    from rich.table import Table

    from inarow import words
    from inarow.match import check_games, play_match
    from inarow.notation import format_moves, parse_game
    from inarow.players import player

    game = parse_game(game_name)
    check_games(games)
    options = {} if time is None else {"think_time": time}
    first, second = player(player_x, **options), player(player_o, **options)
    _prepare(game)
    with _counting("playing", games) as progress:
        result = play_match(game, first, second, games, swap=swap, seed=seed, progress=progress)
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
