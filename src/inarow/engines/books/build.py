"""Building an opening book: every position up to N plies solved, one per symmetry class.

1. **Enumerate** the positions ply by ply from the empty board, one per symmetry class (see
   :mod:`inarow.engines.books.keys`), leaving out those whose game is over.
2. **Solve** the positions of the last ply (the frontier) exactly, in chunks of neighbours (siblings
   follow each other, so one worker's table, kept across its chunks, serves the next), on a
   :class:`Runner`: a local process pool (:class:`ProcessRunner`, ``concurrent.futures``), this process
   (:class:`InlineRunner`) or Ray (:class:`RayRunner`, local or a cluster). Each chunk finished is appended
   to a checkpoint file at once, and a build started again skips what it holds.
3. **Back up** the scores by negamax to the shallower plies: a position's score is the best of its moves',
   a move that wins scoring :func:`~inarow.engines.scores.exact_score`, one that fills the board 0, any
   other the negative of the score of the position it leads to.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal, Protocol

from inarow.base.errors import BookError
from inarow.base.i18n import N_
from inarow.base.processes import process_pool
from inarow.engines.books.file import Book
from inarow.engines.books.keys import keyable, position_key, position_of, unkey
from inarow.engines.exact.solver import ExactSolver, exact_solver
from inarow.engines.limits import Budget
from inarow.engines.scores import exact_score
from inarow.rules.game import Game, Position

Phase = Literal["enumerating", "solving", "backing up", "deciding"]
Progress = Callable[[Phase, int, int], None]
"""Called as work goes on: the phase, how much of it is done and its total."""

MAX_CHUNK = 32
"""The most positions of one task."""

CHECKPOINT_MAGIC = b"INAROWCK"
_CHECKPOINT_HEAD = struct.Struct("<8sHH")
_CHECKPOINT_PLIES = struct.Struct("<H")
_RECORD = struct.Struct("<Qb")


# ------------------------------------------------------------------------------------ enumeration
def levels(game: Game, plies: int, progress: Progress | None = None) -> list[list[int]]:
    """The keys of the positions whose game goes on, ply by ply from 0 to ``plies`` (fewer when the board
    fills first), one per symmetry class, each ply in the order its positions were first reached from the
    previous one's; ``progress`` is told of each ply listed."""
    assert keyable(game), f"{game.name} has no keys"
    found = [[position_key(Position.start(game))]]
    while len(found) <= plies:
        seen: set[int] = set()
        level: list[int] = []
        for value in found[-1]:
            for _, child in position_of(game, value).children():
                if child.is_over:
                    continue
                key = position_key(child)
                if key not in seen:
                    seen.add(key)
                    level.append(key)
        if not level:
            break
        found.append(level)
        if progress is not None:
            progress("enumerating", len(found) - 1, plies)
    return found


def back_up(game: Game, found: Sequence[Sequence[int]], scores: dict[int, int]) -> dict[int, int]:
    """``scores`` (those of the last ply of ``found``) completed by negamax to every shallower ply."""
    scores = dict(scores)
    for level in reversed(found[:-1]):
        for value in level:
            position = position_of(game, value)
            best = -game.cells
            for _, child in position.children():
                if child.winner is not None:
                    score = exact_score(game, position.ply)
                elif child.is_over:
                    score = 0
                else:
                    score = -scores[position_key(child)]
                best = max(best, score)
            scores[value] = best
    return scores


# ------------------------------------------------------------------------------------ solving
@cache
def worker_solver(game: Game, empty: int) -> ExactSolver:
    """This process's exact engine for positions of ``game`` with ``empty`` empty cells, kept (with its
    table) across the chunks it solves or decides. It probes the game's leaf book (Connect Four's 12-ply book
    once imported, :func:`inarow.engines.books.recall.leaf_book`) wherever its search reaches that book's
    ply: a book of fewer plies is then built in seconds instead of hours."""
    from inarow.engines.books.recall import attach_leaf_book

    solver = exact_solver(game, Budget(), empty)
    attach_leaf_book(game, solver)
    return solver


def solve_chunk(game_name: str, keys: Sequence[int]) -> list[int]:
    """The exact scores of the positions ``keys`` of the game ``game_name`` (one task of a build)."""
    game = Game.parse(game_name)
    scores = []
    for value in keys:
        cur, opp = unkey(game, value)
        empty = game.cells - (cur | opp).bit_count()
        scores.append(worker_solver(game, empty).solve(cur, opp))
    return scores


Task = Callable[[str, Sequence[int]], list[int]]
"""What a worker does with a chunk: given the game's name and the keys, one integer per key
(:func:`solve_chunk`: the exact scores; :func:`inarow.engines.books.strategy.decide_chunk`: value and
move)."""


class Runner(Protocol):
    """Where the chunks of a build are solved."""

    def solve(
        self, game: Game, chunks: Sequence[Sequence[int]], task: Task = ...
    ) -> Iterator[tuple[Sequence[int], list[int]]]:
        """Each chunk with its answers (by default its exact scores), as they finish (in any order)."""
        ...

    def close(self) -> None:
        """Stop the workers (what is not finished is dropped)."""
        ...


class InlineRunner:
    """Solves the chunks one after the other in this process."""

    workers = 1

    def solve(
        self, game: Game, chunks: Sequence[Sequence[int]], task: Task = solve_chunk
    ) -> Iterator[tuple[Sequence[int], list[int]]]:
        for chunk in chunks:
            yield chunk, task(game.name, chunk)

    def close(self) -> None:
        pass


class ProcessRunner:
    """Solves the chunks on a local pool of ``workers`` processes (``concurrent.futures``)."""

    def __init__(self, workers: int) -> None:
        import multiprocessing

        self.workers = workers
        self._pending: dict[Future[list[int]], Sequence[int]] = {}
        self._executor = process_pool(workers, multiprocessing.get_context("spawn"))

    def solve(
        self, game: Game, chunks: Sequence[Sequence[int]], task: Task = solve_chunk
    ) -> Iterator[tuple[Sequence[int], list[int]]]:
        self._pending = pending = {
            self._executor.submit(task, game.name, list(chunk)): chunk for chunk in chunks
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()

    def close(self) -> None:
        if not self._pending:
            self._executor.shutdown(wait=True)
            return
        # Stopped midway: a worker in the middle of a solve does not look at signals until it ends
        # (minutes, early in a Connect Four book), so the workers are stopped rather than waited for. Their
        # chunks are lost, and solved again by the next build.
        for process in list((getattr(self._executor, "_processes", None) or {}).values()):
            if process.is_alive():
                process.terminate()
        self._executor.shutdown(wait=False, cancel_futures=True)


class RayRunner:
    """Solves the chunks as Ray tasks: on a local Ray instance of ``workers`` CPUs, or on the cluster at
    ``address`` (``auto``, or ``ray://HOST:10001``). Every node needs inarow installed (``pip install
    'inarow[ray]'``). A Ray already initialised by the caller is used as it is, and left running."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BookError(
                N_("cannot build on Ray: {reason}; pip install ray"),
                reason=N_("ray is not installed"),
            ) from None
        self._ray = ray
        self._owned = not ray.is_initialized()
        if self._owned:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.workers = int(resources.get("CPU", 1))
        self._remotes: dict[Task, Any] = {}

    def solve(
        self, game: Game, chunks: Sequence[Sequence[int]], task: Task = solve_chunk
    ) -> Iterator[tuple[Sequence[int], list[int]]]:
        ray = self._ray
        if task not in self._remotes:
            self._remotes[task] = ray.remote(num_cpus=1)(task)
        remote = self._remotes[task]
        pending = {remote.remote(game.name, list(chunk)): chunk for chunk in chunks}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)

    def close(self) -> None:
        if self._owned:
            self._ray.shutdown()


# ------------------------------------------------------------------------------------ checkpoint
class Checkpoint:
    """The positions of the frontier solved so far, appended as chunks finish: ``INAROWCK``, a version, the
    game's name and the plies, then records of a key (uint64) and a score (int8). A record cut short by an
    interruption is ignored."""

    VERSION = 1

    def __init__(self, path: Path, game: Game, plies: int, magic: bytes = CHECKPOINT_MAGIC) -> None:
        self.path, self.game, self.plies, self.magic = path, game, plies, magic

    def _header(self) -> bytes:
        name = self.game.name.encode()
        head = _CHECKPOINT_HEAD.pack(self.magic, self.VERSION, len(name))
        return head + name + _CHECKPOINT_PLIES.pack(self.plies)

    def load(self) -> dict[int, int]:
        """The scores it holds (none if there is no file yet); :class:`BookError` if it is another build's."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        header = self._header()
        if data[: len(header)] != header:
            raise BookError(
                N_(
                    "cannot resume from the checkpoint {path!r}: it belongs to another build (not {plies} "
                    "plies of {game}); delete it or choose another --out"
                ),
                reason=N_("it belongs to another build"),
                path=str(self.path),
                plies=self.plies,
                game=self.game.name,
            )
        body = data[len(header) :]
        whole = len(body) - len(body) % _RECORD.size
        return dict(_RECORD.iter_unpack(body[:whole]))

    def append(self, keys: Sequence[int], scores: Sequence[int]) -> None:
        """Add solved positions (creating the file with its header first)."""
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("ab") as file:
            if fresh:
                file.write(self._header())
            else:
                size = self.path.stat().st_size - len(self._header())
                file.truncate(len(self._header()) + size - size % _RECORD.size)  # drop a torn record
            file.write(b"".join(_RECORD.pack(k, s) for k, s in zip(keys, scores, strict=True)))
            file.flush()
            os.fsync(file.fileno())

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


# ------------------------------------------------------------------------------------ the build
@dataclass(frozen=True, kw_only=True)
class Built:
    """What a build did: the book, the positions per ply, how many it solved now and how many it found
    in the checkpoint."""

    book: Book
    per_ply: tuple[int, ...]
    solved: int
    resumed: int


def chunks_of(keys: Sequence[int], workers: int) -> list[list[int]]:
    """``keys`` cut into runs of neighbours: at least four per worker, at most :data:`MAX_CHUNK` each."""
    size = max(1, min(MAX_CHUNK, len(keys) // (4 * max(1, workers))))
    return [list(keys[i : i + size]) for i in range(0, len(keys), size)]


def check_buildable(game: Game, plies: int) -> None:
    """Raise :class:`BookError` unless a book of ``game`` to ``plies`` plies can be built: the game's
    positions fit the keys and ``plies`` is not negative."""
    if not keyable(game):
        raise BookError(
            N_("cannot build a book of {game}: its positions do not fit the book's 63-bit keys"),
            reason=N_("its positions do not fit the book's keys"),
            game=game.name,
        )
    if plies < 0:
        raise BookError(
            N_("invalid plies {plies}: expected 0 or more"),
            reason=N_("expected 0 or more plies"),
            plies=plies,
        )


def build(
    game: Game,
    plies: int,
    runner: Runner,
    *,
    checkpoint: Path | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Built:
    """The book of ``game`` to ``plies`` plies, its frontier solved on ``runner``, finished chunks kept in
    ``checkpoint`` (and read from it first: a build that was stopped resumes; the file is removed once the
    book is complete). Raises :class:`BookError` for a game without keys or a foreign checkpoint."""
    check_buildable(game, plies)
    report = progress or (lambda phase, done, total: None)
    report("enumerating", 0, plies)
    found = levels(game, plies, report)
    report("enumerating", plies, plies)
    plies = len(found) - 1
    frontier = found[-1]
    saved = Checkpoint(checkpoint, game, plies) if checkpoint is not None else None
    scores = saved.load() if saved is not None else {}
    wanted = set(frontier)
    scores = {k: s for k, s in scores.items() if k in wanted}
    resumed = len(scores)
    todo = [k for k in frontier if k not in scores]
    report("solving", resumed, len(frontier))
    for chunk, solved in runner.solve(game, chunks_of(todo, workers)):
        if saved is not None:
            saved.append(chunk, solved)
        scores.update(zip(chunk, solved, strict=True))
        report("solving", len(scores), len(frontier))
    report("backing up", 0, 1)
    book = Book.of(game, plies, back_up(game, found, scores))
    report("backing up", 1, 1)
    if saved is not None:
        saved.remove()
    return Built(book=book, per_ply=tuple(map(len, found)), solved=len(todo), resumed=resumed)
