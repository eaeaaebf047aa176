"""``inarow book``: build an opening book, or say what a book file holds.

A typer sub-app of the ``inarow`` command (:mod:`inarow.cli.app`). Errors are
:class:`~inarow.errors.InarowError` subclasses, printed by the main command's one handler.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from inarow.cli.app import PLAIN, Verb, VerbGroup, app
from inarow.cli.output import err, progress_display
from inarow.errors import BookError
from inarow.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from collections.abc import Sequence

    from inarow.book.build import Phase, Runner
    from inarow.book.file import Book

book_app = typer.Typer(
    cls=VerbGroup,
    help=N_("Opening books: every early position solved, consulted before any search."),
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
    from inarow.book.build import InlineRunner, ProcessRunner, RayRunner

    if ray or ray_address is not None:
        return RayRunner(ray_address, workers)
    return InlineRunner() if workers == 1 else ProcessRunner(workers)


_PHASES: dict[str, str] = {}


def _phase_words(phase: Phase) -> str:
    if not _PHASES:
        _PHASES.update(
            {
                "enumerating": _("listing the positions"),
                "solving": _("solving the last ply"),
                "backing up": _("backing up the scores"),
                "deciding": _("deciding the moves of the strategy"),
            }
        )
    return _PHASES[phase]


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
        bool, typer.Option("--ray", help=N_("Solve on a local Ray instance (pip install 'inarow[ray]')."))
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
    from inarow.book import strategy as strategy_book
    from inarow.book.build import build
    from inarow.notation import parse_game

    game = parse_game(game_name)
    suffix = ".strategy" if strategy else ".book"
    target = out or Path(f"{game.name.replace(':', '_')}-{plies}{suffix}")
    checkpoint = target.with_name(target.name + ".partial")
    count = workers or os.cpu_count() or 1
    start = time.perf_counter()
    runner = _runner(count, ray, ray_address)
    count = getattr(runner, "workers", count)
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
    said = (
        _("{file}: strategy book of {game}: {count} positions to {plies} plies ({per_ply} per ply), {size}")
        if book.kind == "strategy"
        else _("{file}: {count} positions of {game} up to {plies} plies ({per_ply} per ply), {size}")
    )
    return said.format(
        file=file,
        count=f"{len(book):,}",
        game=book.game.name,
        plies=book.plies,
        per_ply=" + ".join(f"{n:,}" for n in per_ply),
        size=_size(file.stat().st_size),
    )


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

        def report(phase: Phase, done: int, total: int) -> None:
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
    help=N_("What a book file holds: its game, depth, positions per ply, size, and the empty board's score."),
)
def info_command(
    file: Annotated[
        Path | None,
        typer.Argument(metavar="FILE", help=N_("A book file (default: the book shipped for --game).")),
    ] = None,
    game_name: Annotated[
        str, typer.Option("--game", "-g", metavar="GAME", help=N_("The game."))
    ] = "connect4",
    strategy: Annotated[
        bool, typer.Option("--strategy", help=N_("Without FILE: the strategy book shipped for --game."))
    ] = False,
) -> None:
    from inarow.book.file import Book
    from inarow.book.keys import unkey
    from inarow.book.recall import shipped_path
    from inarow.notation import parse_game

    if file is None:
        game = parse_game(game_name)
        file = shipped_path(game, ".strategy" if strategy else ".book")
        if file is None:
            raise BookError(
                N_("cannot show the opening book: {reason}"),
                reason=N_("no book is shipped for {game}"),
                game=game.name,
            )
    book = Book.load(file)
    per_ply = [0] * (book.plies + 1)
    for value in book.keys:
        cur, opp = unkey(book.game, int(value))
        per_ply[(cur | opp).bit_count()] += 1
    empty = book.score(0, 0)
    print(_describe(file, book, per_ply))
    if empty is not None and book.kind == "strategy":
        from inarow.book.strategy import decode

        value, bit = decode(empty)
        print(
            _("the empty board with best play: {outcome} for the side to move, by {move}").format(
                outcome=(_("loss"), _("draw"), _("win"))[value + 1], move=book.game.cell_name(bit)
            )
        )
    elif empty is not None:
        print(_("score of the empty board for the side to move: {score:+d}").format(score=empty))
