"""``inarow book``: build an opening book, or say what a book file holds.

A typer sub-app of the ``inarow`` command (:mod:`inarow.cli.app`). Errors are
:class:`~inarow.base.errors.InarowError` subclasses, printed by the main command's one handler.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from inarow.base.errors import BookError
from inarow.base.i18n import N_, _, ngettext
from inarow.cli.app import PLAIN, Verb, VerbGroup, app
from inarow.cli.output import err, progress_display

if TYPE_CHECKING:
    from collections.abc import Sequence

    from inarow.engines.books.build import Phase, Runner
    from inarow.engines.books.file import Book
    from inarow.rules.game import Game

book_app = typer.Typer(
    cls=VerbGroup,
    help=N_(
        "Books of exact scores: early positions solved, consulted before any search and probed inside it."
    ),
    **PLAIN,
)
app.add_typer(book_app, name="book")


def _size(count: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if count < 1024 or unit == "GB":
            if unit == "bytes":
                return ngettext("{count} byte", "{count} bytes", count).format(count=f"{count:,}")
            return f"{count:,.1f} {unit}"
        count /= 1024  # type: ignore[assignment]
    raise AssertionError("unreachable")  # pragma: no cover


def _runner(workers: int, ray: bool, ray_address: str | None) -> Runner:
    from inarow.engines.books.build import InlineRunner, ProcessRunner, RayRunner

    if ray or ray_address is not None:
        return RayRunner(ray_address, workers)
    return InlineRunner() if workers == 1 else ProcessRunner(workers)


_PHASES: dict[str, str] = {}


def _phase_words(phase: Phase | str) -> str:
    if not _PHASES:
        _PHASES.update(
            {
                "enumerating": _("listing the positions"),
                "solving": _("solving the last ply"),
                "backing up": _("backing up the scores"),
                "deciding": _("deciding the moves of the strategy"),
                "reading": _("reading the book"),
                "checking": _("solving a sample again"),
            }
        )
    return _PHASES[phase]


BookFileArgument = Annotated[
    Path | None,
    typer.Argument(
        metavar="FILE",
        help=N_("A book file (default: the deepest book used for --game: imported, else shipped)."),
    ),
]
"""The book ``info`` and ``verify`` read."""

BookGameOption = Annotated[str, typer.Option("--game", "-g", metavar="GAME", help=N_("The game."))]
"""The game whose books ``info`` and ``verify`` look for without FILE."""


@book_app.command(
    "build",
    cls=Verb,
    help=N_(
        "Build an opening book: solve every position up to N plies (one per mirror pair) and back the scores "
        "up to the empty board. Finished positions are kept in FILE.partial as the build goes, so that the "
        "same command, started again after an interruption, goes on where it stopped. Searches consult the "
        "book when INAROW_BOOK names it (the book shipped in the package is always consulted)."
    ),
)
def build_command(
    plies: Annotated[
        int,
        typer.Option(
            "--plies", "-p", min=0, metavar="N", help=N_("Solve every position with up to N stones.")
        ),
    ],
    game_name: Annotated[
        str,
        typer.Option("--game", "-g", metavar="GAME", help=N_("The game (connect4, or any board up to 8x7).")),
    ] = "connect4",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="FILE", help=N_("The book file to write (default: GAME-N.book).")
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", min=1, metavar="W", help=N_("Processes to solve on (default: one per core).")
        ),
    ] = None,
    ray: Annotated[
        bool, typer.Option("--ray", help=N_("Solve on a local Ray instance (pip install ray)."))
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray-address",
            metavar="ADDRESS",
            help=N_("Solve on the Ray cluster at ADDRESS (auto, or ray://HOST:10001); implies --ray."),
        ),
    ] = None,
    strategy: Annotated[
        bool,
        typer.Option(
            "--strategy",
            help=N_(
                "Build a strategy book instead: for every position a perfect player can meet up to N plies "
                "(the opponent playing any move), its value and a move that keeps it (default FILE: "
                "GAME-N.strategy)."
            ),
        ),
    ] = False,
) -> None:
    from inarow.engines.books import strategy as strategy_book
    from inarow.engines.books.build import build
    from inarow.rules.notation import parse_game

    game = parse_game(game_name)
    suffix = ".strategy" if strategy else ".book"
    target = out or Path(f"{game.name.replace(':', '_')}-{plies}{suffix}")
    checkpoint = target.with_name(target.name + ".partial")
    count = workers or os.cpu_count() or 1
    import_on_first_use(game)  # the 12-ply book: the build's searches stop where they reach it
    start = time.perf_counter()
    runner = _runner(count, ray, ray_address)
    count = getattr(runner, "workers", count)
    if not err.is_terminal:  # a terminal gets a bar; a log gets a line as the build starts and one as it ends
        said = ngettext(
            "building {file}: every position of {game} up to {plies} plies, on {workers} worker…",
            "building {file}: every position of {game} up to {plies} plies, on {workers} workers…",
            count,
        )
        err.print(said.format(file=target, game=game.name, plies=plies, workers=count), markup=False)
    try:
        with _bar() as report:
            make = strategy_book.build if strategy else build
            built = make(game, plies, runner, checkpoint=checkpoint, workers=count, progress=report)
    except KeyboardInterrupt:
        runner.close()
        print(
            _(
                "interrupted: the positions solved so far are kept in {checkpoint}; run the same "
                "command again to go on"
            ).format(checkpoint=checkpoint),
            file=sys.stderr,
        )
        raise typer.Exit(130) from None
    runner.close()
    built.book.save(target)
    seconds = time.perf_counter() - start
    print(_describe(target, built.book, built.per_ply))
    print(
        ngettext(
            "{solved} solved in {seconds:.1f} s on {workers} worker, {resumed} from the checkpoint",
            "{solved} solved in {seconds:.1f} s on {workers} workers, {resumed} from the checkpoint",
            count,
        ).format(solved=f"{built.solved:,}", seconds=seconds, workers=count, resumed=f"{built.resumed:,}")
    )


def _describe(file: Path, book: Book, per_ply: Sequence[int]) -> str:
    """The line that says what a book file holds."""
    if book.kind == "strategy":
        said = _(
            "{file}: strategy book of {game}: {count} positions to {plies} plies ({per_ply} per ply), {size}"
        )
    elif book.first == book.plies and book.plies > 0:
        said = _("{file}: {count} positions of {game} at {plies} plies, {size}")
    else:
        said = _("{file}: {count} positions of {game} up to {plies} plies ({per_ply} per ply), {size}")
    return said.format(
        file=file,
        count=f"{len(book):,}",
        game=book.game.name,
        plies=book.plies,
        per_ply=" + ".join(f"{n:,}" for n in per_ply[book.first :]),
        size=_size(file.stat().st_size),
    )


def _provenance(book: Book) -> str:
    """The line that says where a book comes from and how it was checked."""
    about = book.about
    source = _("built by inarow") if about.source == "inarow" else about.source
    if about.licence:
        source = _("{source} (licence: {licence})").format(source=source, licence=about.licence)
    if about.checked:
        checked = ngettext(
            "{count} position drawn at random (seed {seed}) solved again by inarow: all agree",
            "{count} positions drawn at random (seed {seed}) solved again by inarow: all agree",
            about.checked,
        ).format(count=f"{about.checked:,}", seed=about.seed)
    else:
        checked = _("not checked against inarow's search")
    return _("source: {source}; verified: {checked}").format(source=source, checked=checked)


class _bar:
    """A rich progress bar of the build's phases on standard error when it is a terminal, else nothing;
    entering it gives the function the build reports to."""

    def __enter__(self) -> Any:
        if not err.is_terminal:
            self._progress: Any = None
            return lambda phase, done, total: None
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = progress_display(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("·"),
            TimeRemainingColumn(),
        )
        self._progress.start()
        tasks: dict[str, Any] = {}

        def report(phase: Phase | str, done: int, total: int) -> None:
            task = tasks.get(phase)
            if task is None:
                task = tasks[phase] = self._progress.add_task(_phase_words(phase), total=total)
            self._progress.update(task, completed=done, total=total)

        return report

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


@book_app.command(
    "info",
    cls=Verb,
    help=N_(
        "What a book file holds: its game, plies, positions per ply, size, source and verification, and the "
        "empty board's score."
    ),
)
def info_command(
    file: BookFileArgument = None,
    game_name: BookGameOption = "connect4",
    strategy: Annotated[
        bool, typer.Option("--strategy", help=N_("Without FILE: the strategy book shipped for --game."))
    ] = False,
) -> None:
    from inarow.engines.books.file import Book

    file = file or _default_file(game_name, strategy)
    book = Book.load(file)
    per_ply = book.per_ply(file)
    empty = book.score(0, 0)
    print(_describe(file, book, per_ply))
    print(_provenance(book))
    if empty is not None and book.kind == "strategy":
        from inarow.engines.books.strategy import decode

        value, bit = decode(empty)
        print(
            _("the empty board with best play: {outcome} for the side to move, by {move}").format(
                outcome=(_("loss"), _("draw"), _("win"))[value + 1], move=book.game.cell_name(bit)
            )
        )
    elif empty is not None:
        print(_("score of the empty board for the side to move: {score:+d}").format(score=empty))


def _default_file(game_name: str, strategy: bool) -> Path:
    """The book ``book info`` and ``book verify`` read without FILE: the deepest kept in the user's data
    folder, else the one shipped (with ``strategy``: the strategy book shipped)."""
    from inarow.engines.books.recall import shipped_path, user_folder
    from inarow.rules.notation import parse_game

    game = parse_game(game_name)
    stem = game.name.replace(":", "_") + "-"
    kept = [] if strategy else sorted(user_folder().glob(f"{stem}*.book"), reverse=True)
    file = kept[0] if kept else shipped_path(game, ".strategy" if strategy else ".book")
    if file is None:
        raise BookError(
            N_("cannot show the opening book: {reason}"),
            reason=N_("no book is shipped for {game}"),
            game=game.name,
        )
    return file


def _sample_option() -> Any:
    return typer.Option(
        "--sample", "-n", min=0, metavar="N", help=N_("How many positions, drawn at random, to solve again.")
    )


def _seed_option() -> Any:
    return typer.Option("--seed", metavar="SEED", help=N_("The seed of the random draw."))


@book_app.command(
    "import",
    cls=Verb,
    help=N_(
        "Import a book made by another program into inarow's format, check a random sample of it against "
        "inarow's own search, and keep it in the user's data folder, where every command and the server use "
        "it. SOURCE: bitbully, the 12-ply Connect Four database of the PyPI package bitbully-databases (MIT; "
        "installed with inarow)."
    ),
)
def import_command(
    source: Annotated[str, typer.Argument(metavar="SOURCE", help=N_("bitbully"))],
    sample: Annotated[int, _sample_option()] = 200,
    seed: Annotated[int, _seed_option()] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="FILE", help=N_("Write the book there instead of the data folder.")
        ),
    ] = None,
) -> None:
    from inarow.engines.books import bitbully

    if source != "bitbully":
        raise BookError(
            N_("cannot import the book of {source}: {reason}"),
            reason=N_("the sources known are: bitbully"),
            source=source,
        )
    with _bar() as report:
        target, checked = bitbully.import_book(out, sample=sample, seed=seed, progress=report)
    per_ply = checked.per_ply(target)
    print(_describe(target, checked, per_ply))
    print(_provenance(checked))


def import_on_first_use(game: Game, ply: int = 0) -> None:
    """Import the book ``inarow book import`` brings for ``game`` when a position of ``ply`` stones needs it
    and it is missing (:func:`inarow.engines.books.recall.to_import`), saying so on standard error, with a
    bar on a terminal. A book that cannot be imported is a note on standard error, and the command goes on
    without it."""
    from inarow.engines.books import recall

    plies = recall.to_import(game)
    if plies is None or ply >= plies:
        return
    from inarow.engines.books import bitbully  # numpy: only once there is a book to import

    def starting() -> None:
        said = _(
            "importing the {plies}-ply opening book of {game} from {source}: once per install, about 5 s "
            "(INAROW_BOOK_IMPORT=off leaves it out)…"
        )
        err.print(said.format(plies=plies, game=game.name, source=bitbully.PACKAGE), markup=False)

    start = time.perf_counter()
    try:
        with _bar() as report:
            imported = bitbully.import_missing(game, progress=report, starting=starting)
    except (BookError, OSError) as error:  # OSError: a data folder that cannot be written, a full disk
        said = error.said() if isinstance(error, BookError) else str(error)
        err.print(_("note: going on without the book: {error}").format(error=said), markup=False)
        return
    if imported is None:
        return
    target, book = imported
    err.print(
        _(
            "imported {count} positions in {seconds} s into {path}: every command and the server use it"
        ).format(count=f"{len(book):,}", seconds=f"{time.perf_counter() - start:.1f}", path=target),
        markup=False,
    )


@book_app.command(
    "verify",
    cls=Verb,
    help=N_(
        "Check a book against inarow's own search: solve again a random sample of its positions and compare; "
        "a score that differs refuses the book, naming the position."
    ),
)
def verify_command(
    file: BookFileArgument = None,
    game_name: BookGameOption = "connect4",
    sample: Annotated[int, _sample_option()] = 200,
    seed: Annotated[int, _seed_option()] = 0,
) -> None:
    from inarow.engines.books import verify
    from inarow.engines.books.file import Book

    file = file or _default_file(game_name, False)
    book = Book.load(file)
    book.per_ply(file)
    with _bar() as report:
        checked = verify.check(
            book, file, sample=sample, seed=seed, progress=lambda d, t: report("checking", d, t)
        )
    print(
        ngettext(
            "{file}: {count} position drawn at random (seed {seed}) solved again by inarow: all agree",
            "{file}: {count} positions drawn at random (seed {seed}) solved again by inarow: all agree",
            checked.about.checked,
        ).format(file=file, count=f"{checked.about.checked:,}", seed=seed)
    )
