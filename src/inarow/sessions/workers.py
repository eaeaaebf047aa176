"""Where searches run: the worker pool beside the server (or the calling thread), and the tasks sent to it.

What crosses to a worker is values (:class:`~inarow.rules.Position` pickles as its game and bitboards),
and what comes back too. A process pool's workers end with the server that started them.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Literal, ParamSpec, TypeVar

from inarow.analysis import Analysis, analyze, load_engine
from inarow.notation import parse_position
from inarow.players import player
from inarow.rules import Position
from inarow.search.limits import Limits

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


def make_executor(pool: Pool, workers: int | None = None) -> tuple[Executor, int]:
    """The executor searches run on, and how many workers it has: ``process`` (the default of the web
    app: a search never holds the server's GIL), ``thread`` or ``inline`` (the calling thread)."""
    if pool == "inline":
        return InlineExecutor(), 1
    count = workers or max(1, min(4, os.cpu_count() or 1))
    if pool == "thread":
        return ThreadPoolExecutor(count, thread_name_prefix="inarow-search"), count
    executor = ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
    return executor, count


def exit_with_parent(parent: int, every: float = 1.0) -> None:
    """Pool initializer: end this worker once the process ``parent`` is gone (killed with SIGKILL, say),
    instead of lingering as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="inarow-exit-with-parent", daemon=True).start()


def warm_up() -> bool:
    """A trivial task that makes a fresh worker load the engines before the first real request (3×3 is
    answered by the pure-Python engine, so the compiled one is loaded explicitly)."""
    analyze(parse_position("b2"), Limits(time=1))
    load_engine()
    return True


# ---------------------------------------------------------------------------------------- tasks
def choose_move(position: Position, name: str, think_time: float, seed: str) -> tuple[str, str]:
    """The move the player ``name`` chooses in ``position``, with its note."""
    choice = player(name, think_time).choose(position, random.Random(seed))
    return choice.move, choice.note


def analyze_position(position: Position, limits: Limits) -> Analysis:
    """:func:`inarow.analysis.analyze`, as a task."""
    return analyze(position, limits)
