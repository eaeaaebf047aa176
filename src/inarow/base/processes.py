"""Process pools: every pool of worker processes inarow starts (the server's search pools, a book build's
local pool) is made by :func:`process_pool`, so that its workers behave alike when the machine is loaded
to the full and when the person at the terminal presses Ctrl-C."""

from __future__ import annotations

import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any


def process_pool(
    workers: int,
    context: Any,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes started in ``context``, each ignoring Ctrl-C, then running
    ``initializer(*initargs)``.

    Ctrl-C at a terminal interrupts its whole process group, the pool's workers with the process that
    started them: the workers ignore it, and that process stops them (a worker interrupted while it waits
    for a task would print a traceback). The pool's first lock starts multiprocessing's resource tracker,
    which on a machine loaded to the full can die as it starts (the lock then fails with
    ``BrokenPipeError``): the pool is made once more, and its first lock starts the tracker again."""
    make = partial(
        ProcessPoolExecutor,
        workers,
        mp_context=context,
        initializer=_start_ignoring_ctrl_c,
        initargs=(initializer, initargs),
    )
    try:
        return make()
    except BrokenPipeError:
        return make()


def _start_ignoring_ctrl_c(initializer: Callable[..., object] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
