"""What every verb of ``inarow`` shares: the consoles, the options, limits, reading positions from standard
input, and progress on a terminal (nothing extra when piped)."""

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer

from inarow.base.errors import InarowError, InvalidPositionError
from inarow.base.i18n import N_

if TYPE_CHECKING:
    from rich.console import Console

    from inarow.engines.limits import Limits
    from inarow.engines.policy import Loading
    from inarow.rules.game import Game


class LazyConsole:
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


def say_line(line: str, bold: str = "") -> None:
    """Print a line of plain text, ``bold`` before it (in bold on a terminal): without rich when standard
    output is not a terminal, so that a piped answer does not pay for importing it."""
    if out.is_terminal:
        from rich.markup import escape

        out.print(f"[bold]{escape(bold)}[/bold]{escape(line)}" if bold else escape(line), soft_wrap=True)
    else:
        print(bold + line)


def real(console: "Console") -> "Console":
    """The rich Console behind :data:`out` or :data:`err`."""
    return cast(LazyConsole, console).real() if isinstance(console, LazyConsole) else console


out = cast("Console", LazyConsole(highlight=False))
err = cast("Console", LazyConsole(stderr=True, highlight=False, soft_wrap=True))


GameOption = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        metavar="GAME",
        help=N_(
            "tictactoe, 4x4, 5x5, connect4, gomoku, gomoku-standard, renju, or "
            "COLSxROWS:K[:gravity][:exact][:renju] such as 6x4:4:gravity; with :o-first at the end, O moves "
            "first."
        ),
    ),
]
POSITION_HELP = N_(
    "The position: a diagram 'x.o/.x./..o' (rows from the top), or the moves from the empty board: "
    "cell names 'b2 a1' (a1 is bottom left), on 3×3 keypad digits '5 1' (5 = b2), or row,column pairs"
    " '(2,2) (3,1)' counted from 1,1 at the top left; with gravity, column numbers '4 4 5' or '445'."
)
POSITION_OR_EMPTY_HELP = N_(
    "The position (default: the empty board): a diagram 'x.o/.x./..o' (rows from the top), or the "
    "moves from the empty board: cell names 'b2 a1' (a1 is bottom left), on 3×3 keypad digits '5 1' "
    "(5 = b2), or row,column pairs '(2,2) (3,1)' counted from 1,1 at the top left; with gravity, "
    "column numbers '4 4 5' or '445'."
)
"""How a position is written, for the help of every verb that reads one."""

FirstOption = Annotated[
    str | None,
    typer.Option(
        "--first",
        metavar="SIDE",
        help=N_(
            "Who moves first: x (the rule) or o, as some course programs let O begin; the same as a game name"
            " ending in :o-first."
        ),
    ),
]


def game_named(name: str, first: str | None = None) -> "Game":
    """The game ``name`` (see :func:`inarow.rules.notation.parse_game`), with ``first`` moving first if
    given."""
    from dataclasses import replace

    from inarow.rules.notation import parse_game

    game = parse_game(name)
    if first is None:
        return game
    side = first.strip().lower()
    if side in ("x", "o"):
        return replace(game, first="o" if side == "o" else "x")
    raise InarowError(N_("invalid first side {side!r}: expected x or o"), side=first)


DepthOption = Annotated[
    int | None,
    typer.Option(
        "--depth", "-d", metavar="PLIES", help=N_("Search this many plies deep, with the evaluation beyond.")
    ),
]
TimeOption = Annotated[
    float | None,
    typer.Option(
        "--time",
        "-t",
        metavar="SECONDS",
        help=N_(
            "Think at most this many seconds. Default: no limit, except 10 s on boards too big to solve."
        ),
    ),
]
NodesOption = Annotated[
    int | None, typer.Option("--nodes", metavar="N", help=N_("Explore at most this many positions."))
]
AlgoOption = Annotated[
    str | None,
    typer.Option(
        "--algo",
        "-a",
        metavar="ALGORITHM",
        help=N_("A textbook search: minimax, negamax, alphabeta, alphabeta-soft or negamax-alphabeta."),
    ),
]


def allow_code_files(value: str) -> str:
    """An ``--eval`` given on the command line may name a student's file (``mine.py:e``): allow it."""
    from inarow.evaluation.student import allow_files

    allow_files()
    return value


EvalOption = Annotated[
    str,
    typer.Option(
        "--eval",
        "-e",
        metavar="EVALUATION",
        callback=allow_code_files,
        help=N_(
            "The evaluation at the leaves: open-lines, weighted, lines, your own weights:W0,W1,…,Wk (a "
            "line with exactly n stones of one side and none of the other scores Wn for it; e.g. "
            "weights:1,1,1,inf is the textbook e(P)), or your own function PATH.py:FUNCTION of the board "
            "(board.rows, board.k, board.max, board.lines()); running it runs that file."
        ),
    ),
]
OrderOption = Annotated[
    str,
    typer.Option(
        "--order",
        metavar="ORDER",
        help=N_(
            "The order children are generated in: columns (a1 a2 a3 b1 …, the default) or rows (row by row "
            "from the top: a3 b3 c3 a2 …, as course material draws trees)."
        ),
    ),
]


def fail(error: InarowError) -> NoReturn:
    """Print ``error: …`` on stderr and exit 2."""
    err.print(said_error(error), markup=False)
    raise typer.Exit(2)


def said_error(error: InarowError) -> str:
    """``error: …`` in the language of the command."""
    from inarow.base.i18n import _

    return _("error: {message}").format(message=error.said())


BIG_BOARD_TIME = 10.0
"""Seconds a search takes when no limit is given on a board exact search cannot finish (Gomoku, 9×9, …)."""


def bound_memory(megabytes: float) -> None:
    """Bound the compiled engine's tables to ``megabytes`` in this process and the processes it starts."""
    if not megabytes > 0:
        raise InarowError(
            N_("invalid memory {memory!r}: expected a positive number of megabytes"), memory=megabytes
        )
    os.environ["INAROW_MEMORY"] = repr(megabytes)


def limits_for(
    depth: int | None,
    time: float | None,
    nodes: int | None,
    game: "Game | None" = None,
    big_board_time: float = BIG_BOARD_TIME,
) -> "Limits":
    """The limits given; with none at all on a board too big to solve, ``big_board_time`` seconds."""
    from inarow.engines.limits import Limits
    from inarow.engines.policy import solvable

    if game is not None and depth is None and time is None and nodes is None and not solvable(game):
        time = big_board_time
    return Limits(depth=depth, time=time, nodes=nodes)


MAX_LINE = 100_000
"""The longest line ``inarow analyze`` reads from standard input, in bytes; a longer one is a bad line."""


class BadLine(str):
    """A line of standard input that cannot be a position (undecodable, too long): its text as far as it
    can be shown, and what is wrong with it."""

    problem: InvalidPositionError


def bad_line(shown: str, problem: InvalidPositionError) -> BadLine:
    line = BadLine(shown)
    line.problem = problem
    return line


def input_lines(positions: list[str]) -> Iterator[str]:
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
            too_long = N_("line {number} is longer than {limit} bytes: it cannot be a position")
            yield bad_line(shown, InvalidPositionError(too_long, number=number, limit=f"{MAX_LINE:,}"))
            continue
        raw = raw.rstrip(b"\r\n")
        if not raw.strip():
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield bad_line(
                raw.decode("utf-8", errors="replace"),
                InvalidPositionError(
                    N_("line {number} is not UTF-8 text (byte {byte} at {offset})"),
                    number=number,
                    byte=f"{raw[error.start]:#04x}",
                    offset=error.start + 1,
                ),
            )


# ------------------------------------------------------------------------ progress, on a terminal only
@contextmanager
def working(description: str) -> Iterator[Callable[[str], None]]:
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

    with progress_display(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn()) as bar:
        task = bar.add_task(description, total=None)

        def say(text: str) -> None:
            bar.update(task, description=text)
            _spinners[-1] = (say, text)

        _spinners.append((say, description))
        try:
            yield say
        finally:
            _spinners.pop()


@contextmanager
def announced(description: str) -> Iterator[Callable[[str], None]]:
    """:func:`working` on a terminal; elsewhere (a log, a script's output) ``description`` as a line on
    standard error when the work starts, so that a long silent wait says what it waits for."""
    if not err.is_terminal:
        err.print(description, markup=False)
    with working(description) as say:
        yield say


def progress_display(*columns: Any) -> Any:
    """A rich progress display of ``columns`` on the real standard error, gone once done, standard output
    printed above it when that is a terminal too."""
    from rich.progress import Progress

    return Progress(
        *columns,
        console=real(err),
        transient=True,
        redirect_stdout=out.is_terminal,
        redirect_stderr=False,
    )


_spinners: list[tuple[Callable[[str], None], str]] = []
"""The spinner on screen, if any, and what it said before a nested piece of work (see :func:`working`)."""


@contextmanager
def counting(description: str, total: int | None) -> Iterator[Callable[[int, int | None], None]]:
    """A progress bar on standard error (``done/total``) when it is a terminal, else nothing; yields the
    function that moves it."""
    if not err.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    with progress_display(
        TextColumn(description), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done, total: bar.update(task, completed=done, total=total)


@contextmanager
def engine_loading(compiling: bool, gomoku: bool = False) -> Iterator[None]:
    """What a compiled engine's first load shows on a terminal (``gomoku``: the Gomoku engine's compiled
    search): a progress line while it loads and, when numba had to compile it, a line that stays; nothing
    when standard error is not a terminal."""
    from inarow.words import phrases

    if not err.is_terminal:
        yield
        return
    start = time.perf_counter()
    with working(phrases.loading_gomoku(compiling) if gomoku else phrases.loading_engine(compiling)):
        yield
    if compiling:
        err.print(phrases.engine_compiled(time.perf_counter() - start), markup=False)


def loading_for(game: "Game") -> "Loading":
    """:func:`engine_loading` in the words of the engine that plays ``game``."""
    from inarow.engines.gomoku.search import supports

    return partial(engine_loading, gomoku=supports(game))


def prepare_engine(game: "Game") -> None:
    """Load the compiled engine now, with its progress line, if ``game`` will need it (play, match): on the
    Gomoku engine's boards its compiled search, compiled here first if it never was, rather than play the
    static order while it compiles elsewhere."""
    from inarow.engines.gomoku import search
    from inarow.engines.policy import engine_for, load_engine

    if search.supports(game):
        search.load(loading_for(game))
    elif engine_for(game) == "compiled":
        load_engine(engine_loading, game)
