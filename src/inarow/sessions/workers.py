"""Where searches run: the worker pools beside the server (or the calling thread), and the tasks sent to it.

:class:`SearchPool` is a supervised pool: a cap on waiting tasks (beyond it :class:`ServerBusyError`), a
deadline per task and a cancel flag per task shared with the worker processes (both seen by every
:class:`~inarow.engines.limits.Budget` check inside the task, see :func:`inarow.engines.limits.bounded`),
and a new pool in place of one whose worker died. What crosses to a worker is values
(:class:`~inarow.rules.game.Position` pickles as its game and bitboards), and what comes back too. A process
pool's workers end with the server that started them.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import (
    BrokenExecutor,
    CancelledError,
    Executor,
    Future,
    ThreadPoolExecutor,
)
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal, ParamSpec, TypeVar

from inarow.base.errors import InarowError, ServerBusyError, StoppedError
from inarow.base.i18n import N_
from inarow.base.processes import process_pool
from inarow.engines.books import recall
from inarow.engines.compiling import watching
from inarow.engines.limits import Limits, SearchAborted, bounded, threads
from inarow.engines.limits import stopped as limits_stopped
from inarow.engines.policy import Analysis, analyze, prepare_engine
from inarow.play.players import player
from inarow.rules.game import Game, Position
from inarow.rules.notation import parse_position
from inarow.sessions.notes import MoveNote, note_of

_P = ParamSpec("_P")
_T = TypeVar("_T")

Pool = Literal["process", "thread", "inline"]


class InlineExecutor(Executor):
    """Runs each task at once in the calling thread (tests, scripts, single-user tools)."""

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


def default_workers() -> int:
    """One search process per core, up to 4."""
    return max(1, min(4, os.cpu_count() or 1))


PoolState = Literal["warming", "ready", "broken"]


OUTSIDE_GRACE = 5.0
"""Seconds past a task's own deadline after which its pool stops waiting for it: a task that never checks
its budget (pasted code asleep, a search stuck in compiled code) has its worker replaced and its asker
answered (:class:`~inarow.base.errors.StoppedError`)."""


@dataclass(frozen=True, kw_only=True)
class JobHealth:
    """A task a pool has taken on: what it runs, for how many seconds it has (waiting or running), its own
    deadline (None: none) and whether it is past it."""

    task: str
    age: float
    deadline: float | None
    overdue: bool


@dataclass(frozen=True, kw_only=True)
class PoolHealth:
    """How a :class:`SearchPool` stands: ``state`` is ``warming`` until its workers have loaded the
    engine, ``broken`` when a worker has died (it is replaced on the next request), else ``ready``;
    ``alive`` counts the worker processes running, ``running`` and ``waiting`` the tasks, ``replaced`` how
    many times the pool was replaced, ``jobs`` the tasks taken on, oldest first."""

    name: str
    kind: Pool
    state: PoolState
    workers: int
    alive: int
    running: int
    waiting: int
    max_waiting: int
    replaced: int
    jobs: tuple[JobHealth, ...] = ()


class _Asker(threading.local):
    cancelled: Callable[[], bool] | None = None


_asker = _Asker()


@contextmanager
def asking(cancelled: Callable[[], bool]) -> Iterator[None]:
    """Within the block, the tasks this thread waits for stop once ``cancelled()`` is true (the client that
    asked for them went away)."""
    saved = _asker.cancelled
    _asker.cancelled = cancelled
    try:
        yield
    finally:
        _asker.cancelled = saved


class ClientGone(Exception):
    """The client that asked for a task went away; the task was cancelled."""


_FLAGS: Any = None
"""In a worker process: the pool's shared cancel flags, one byte per slot."""


def _start_worker(parent: int, flags: Any) -> None:
    global _FLAGS
    _FLAGS = flags
    exit_with_parent(parent)


class _InFlight:
    """The searches every pool of this process has taken on and not yet answered (running or waiting)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def add(self, change: int) -> None:
        with self._lock:
            self.count += change


_in_flight = _InFlight()


def thread_share(in_flight: int, cores: int | None = None) -> int:
    """The threads one search may use when ``in_flight`` searches share the machine's ``cores``: all of
    them for a search alone, one each once there are as many searches as cores. A Gomoku search uses a
    helper thread per core it may have (:attr:`inarow.engines.gomoku.search.Style.threads`); without this cap
    two games at once on a 2-core server would run four threads on its two cores."""
    cores = cores or os.cpu_count() or 1
    return max(1, cores // max(1, in_flight))


def _run(
    flags: Any,
    slot: int,
    seconds: float | None,
    most: int,
    fn: Callable[_P, _T],
    /,
    *args: _P.args,
    **kwargs: _P.kwargs,
) -> _T:
    """Run ``fn`` on at most ``most`` threads (see :func:`thread_share`) under a deadline of ``seconds``,
    stopping (SearchAborted inside the search) once the slot's cancel flag is raised; an error raised
    because the time ran out says so."""
    shared = _FLAGS if flags is None else flags
    slots = len(shared) // 3
    shared[2 * slots + slot] = 1  # the third part: the slot's task has started (its deadline counts)
    compiling = slots + slot  # the second part: whether the slot's task is compiling now

    def watch(on: bool) -> None:
        shared[compiling] = 1 if on else 0

    with threads(most), watching(watch), bounded(seconds, lambda: shared[slot] != 0):
        try:
            return fn(*args, **kwargs)
        except (InarowError, SearchAborted):
            if not limits_stopped():
                raise
    if seconds is None:
        raise StoppedError(
            N_("the search was stopped: ask for less (a smaller depth or board)"),
            reason=N_("the search ran out of time"),
        )
    raise _stopped(seconds)


def _stopped(seconds: float) -> StoppedError:
    return StoppedError(
        N_(
            "the search was stopped after {seconds:g} s, the server's cap on one search: ask "
            "for less (a smaller depth or board)"
        ),
        reason=N_("the search ran out of time"),
        seconds=seconds,
    )


class SearchPool:
    """A supervised pool of search workers with a cap on waiting tasks and a cancel flag per task.

    ``kind`` is ``process`` (spawned processes that load the engine when the pool starts), ``thread`` or
    ``inline`` (the calling thread). At most ``workers`` tasks run and ``max_waiting`` more wait; beyond
    that :meth:`run` raises :class:`ServerBusyError`. A pool with a dead worker is replaced by the next
    :meth:`run` (a task lost with the dead worker is run once more on the new pool). A task whose asker
    goes away (see :func:`asking`) is cancelled: taken off the queue, or stopped at its next budget check.
    """

    def __init__(
        self,
        name: str,
        kind: Pool,
        workers: int | None = None,
        max_waiting: int = 64,
        warm: bool = True,
        grace: float = OUTSIDE_GRACE,
    ) -> None:
        self.name, self.kind, self.max_waiting, self.warm, self.grace = name, kind, max_waiting, warm, grace
        self._jobs: dict[int, tuple[str, float, float | None]] = {}
        self.workers = 1 if kind == "inline" else workers or default_workers()
        slots = self.workers + max_waiting
        self._context = multiprocessing.get_context("spawn")
        # A cancel flag per slot, then one raised while its task compiles an engine, then one raised once
        # its task has started on a worker.
        self._flags: Any = (
            self._context.RawArray("b", 3 * slots) if kind == "process" else bytearray(3 * slots)
        )
        self._slots = slots
        self._free = list(range(slots))
        self._lock = threading.Lock()
        self._running = 0
        self.replaced = 0
        self._executor: Executor = InlineExecutor()
        self._warming: list[Future[bool]] = []
        self._start()

    # ----------------------------------------------------------------------------- running
    def run(self, seconds: float | None, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``fn(*args, **kwargs)`` on a worker, within ``seconds`` (None: no deadline of its own), waiting
        for the answer. Raises :class:`ServerBusyError` when too many tasks wait, :class:`ClientGone` when
        the asker went away, and whatever ``fn`` raises."""
        slot = self._take_slot()
        cancelled = _asker.cancelled
        started = time.monotonic()
        with self._lock:
            self._jobs[slot] = (getattr(fn, "__name__", "task"), started, seconds)
        try:
            for attempt in range(2):
                future, executor = self._submit(slot, seconds, fn, args, kwargs)
                try:
                    return self._wait(future, slot, cancelled, seconds, executor)
                except (BrokenExecutor, CancelledError):
                    # Its worker died, or was replaced under it (a task past its deadline): once more.
                    if attempt:
                        raise
                    self._replace_if_broken(failed=executor)
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            with self._lock:
                self._jobs.pop(slot, None)
            self._release_slot(slot)

    def _wait(
        self,
        future: Future[_T],
        slot: int,
        cancelled: Callable[[], bool] | None,
        seconds: float | None,
        executor: Executor,
    ) -> _T:
        """The task's answer; ClientGone once the asker has gone; StoppedError once the task is
        :attr:`grace` seconds past its deadline (its worker replaced when it runs, so that whatever holds it
        holds it no longer)."""
        if self.kind == "inline" or (cancelled is None and seconds is None):
            return future.result()
        deadline = None  # counted from when the task has started on a worker, not from when it was queued
        while True:
            try:
                return future.result(timeout=0.1)
            except TimeoutError:
                if cancelled is not None and cancelled():
                    self._flags[slot] = 1
                    future.cancel()
                    raise ClientGone from None
                started = self._flags[2 * self._slots + slot]
                if seconds is not None and (
                    (deadline is None and started) or self._flags[self._slots + slot]
                ):
                    deadline = time.monotonic() + seconds + self.grace  # compiling is not searching
                if deadline is not None and time.monotonic() >= deadline:
                    self._flags[slot] = 1
                    if not future.cancel():
                        self._replace_if_broken(failed=executor)
                    assert seconds is not None
                    raise _stopped(seconds) from None

    def _submit(
        self, slot: int, seconds: float | None, fn: Callable[..., _T], args: Any, kwargs: Any
    ) -> tuple[Future[_T], Executor]:
        """The task on the current executor (replaced first if broken), and that executor."""
        self._replace_if_broken()
        flags = None if self.kind == "process" else self._flags
        most = thread_share(_in_flight.count)
        if self.kind == "inline":
            inline = InlineExecutor()
            return inline.submit(_run, flags, slot, seconds, most, fn, *args, **kwargs), inline
        executor = self._executor
        try:
            return executor.submit(_run, flags, slot, seconds, most, fn, *args, **kwargs), executor
        except (BrokenExecutor, RuntimeError):
            self._replace_if_broken(failed=executor)
            executor = self._executor
            return executor.submit(_run, flags, slot, seconds, most, fn, *args, **kwargs), executor

    def _take_slot(self) -> int:
        with self._lock:
            if not self._free:
                raise ServerBusyError(
                    N_(
                        "the {name} workers are busy: {workers} searches running and {max_waiting} "
                        "waiting; try again in a few seconds"
                    ),
                    name=self.name,
                    workers=self.workers,
                    max_waiting=self.max_waiting,
                    reason=N_("the {name} workers are busy"),
                    retry_after=2,
                )
            slot = self._free.pop()
            for part in range(3):
                self._flags[part * self._slots + slot] = 0
            self._running += 1
        _in_flight.add(1)
        return slot

    def _release_slot(self, slot: int) -> None:
        with self._lock:
            self._free.append(slot)
            self._running -= 1
        _in_flight.add(-1)

    # ------------------------------------------------------------------------- supervision
    def _start(self) -> None:
        if self.kind == "inline":
            self._executor = InlineExecutor()
        elif self.kind == "thread":
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix=f"inarow-{self.name}")
        else:
            self._executor = process_pool(
                self.workers, self._context, _start_worker, (os.getpid(), self._flags)
            )
        if self.warm and self.kind == "process":
            # Start every worker now, without waiting: the page is served while the engine loads.
            self._warming = [self._executor.submit(warm_up) for _ in range(self.workers)]

    def _processes(self) -> list[Any]:
        processes = getattr(self._executor, "_processes", None) or {}
        return list(processes.values())

    def _is_broken(self) -> bool:
        if self.kind != "process":
            return False
        if getattr(self._executor, "_broken", False):
            return True
        return any(not p.is_alive() for p in self._processes())

    def _replace_if_broken(self, failed: Executor | None = None) -> None:
        """Replace the executor if it is broken, or if it is ``failed`` (one a task of ours broke on) and
        no other thread has replaced it already."""
        with self._lock:
            if not (self._executor is failed or self._is_broken()):
                return
            old = self._executor
            self.replaced += 1
            self._start()
        _kill(old)

    def health(self) -> PoolHealth:
        """The pool's state, read now."""
        with self._lock:
            processes = self._processes()
            alive = sum(p.is_alive() for p in processes) if self.kind == "process" else self.workers
            broken = self._is_broken()
            warming = any(not f.done() for f in self._warming)
            running = min(self._running, self.workers)
            now = time.monotonic()
            jobs = tuple(
                JobHealth(
                    task=task,
                    age=round(now - started, 3),
                    deadline=seconds,
                    overdue=seconds is not None and now - started > seconds,
                )
                for task, started, seconds in sorted(self._jobs.values(), key=lambda job: job[1])
            )
            return PoolHealth(
                name=self.name,
                kind=self.kind,
                state="broken" if broken else "warming" if warming else "ready",
                workers=self.workers,
                alive=alive,
                running=running,
                waiting=self._running - running,
                max_waiting=self.max_waiting,
                replaced=self.replaced,
                jobs=jobs,
            )

    def shutdown(self) -> None:
        """Stop the workers, cancelling what waits, and wait for the pool's own thread to close its queues
        (else their locks outlive the server, and multiprocessing warns of leaked semaphores as it exits)."""
        _kill(self._executor, wait=True)


def _kill(executor: Executor, wait: bool = False) -> None:
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        if process.is_alive():
            process.kill()
    executor.shutdown(wait=wait, cancel_futures=True)


def exit_with_parent(parent: int, every: float = 1.0) -> None:
    """Pool initializer: end this worker once the process ``parent`` is gone (killed with SIGKILL, say),
    instead of lingering as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="inarow-exit-with-parent", daemon=True).start()


def warm_up() -> bool:
    """A trivial task that makes a fresh worker load the Python engines before the first real request, and
    makes sure Connect Four's compiled search is compiled (in a short-lived process of its own, once per
    install). numba is not loaded here: a worker loads a board's compiled search from numba's cache when
    its first search needs it (a fraction of a second), so an idle server stays small."""
    analyze(parse_position("b2"), Limits(time=1))
    prepare_engine()
    return True


# ---------------------------------------------------------------------------------------- tasks
ANSWER_MARGIN = 0.15
"""Seconds kept from a move's think time for answering (the store, the HTTP answer) when its deadline
counts from the request."""

MIN_THINK = 0.05
"""The least think time a move is given, however long it waited: the depth-limited search's first depth
always finishes, so there is a move."""


def choose_move(
    position: Position, name: str, think_time: float, seed: str, asked: float | None = None
) -> tuple[str, MoveNote]:
    """The move the player ``name`` chooses in ``position``, with its note. With ``asked`` (``time.time()``
    when the request came) the think time counts from then: the time the move waited in the queue is
    taken off (at least :data:`MIN_THINK` is left)."""
    if asked is not None:
        think_time = max(MIN_THINK, min(think_time, think_time - (time.time() - asked) - ANSWER_MARGIN))
    choice = player(name, think_time).choose(position, random.Random(seed))
    return choice.move, note_of(choice)


def analyze_position(position: Position, limits: Limits) -> Analysis:
    """:func:`inarow.engines.policy.analyze`, as a task."""
    return analyze(position, limits)


def remembering(
    game: Game,
    known: dict[int, int],
    min_nodes: int,
    fn: Callable[_P, _T],
    /,
    *args: _P.args,
    **kwargs: _P.kwargs,
) -> tuple[_T, dict[int, int]]:
    """``fn(*args, **kwargs)`` (a search task on a position of ``game``) answering from the remembered
    solutions ``known`` (key → exact score) too, with the exact scores it found worth keeping: those whose
    search explored at least ``min_nodes`` positions (:data:`inarow.engines.books.recall.REMEMBER_MIN_NODES`
    is the usual bound)."""
    with recall.remembering(game, known, min_nodes) as memory:
        result = fn(*args, **kwargs)
    return result, memory.learned
