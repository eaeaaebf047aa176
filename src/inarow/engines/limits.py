"""Search limits and the budget that enforces them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from inarow.base.errors import InvalidLimitError
from inarow.base.i18n import N_

clock: Callable[[], float] = time.perf_counter
"""The clock every :class:`Budget` and :func:`bounded` reads (a test puts a clock of its own here, so that a
time cap is tested without waiting for it and whatever the machine's load)."""

MAX_DEPTH = 400
"""More plies than any board has (19×19 = 361)."""


@dataclass(frozen=True)
class Limits:
    """How far a search may go: ``depth`` in plies, ``time`` in seconds, ``nodes`` positions explored.

    None means no limit. A search that stops at a limit before it is exact says so in its result.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and not 0 <= self.depth <= MAX_DEPTH:
            raise InvalidLimitError(
                N_("invalid depth {depth!r}: expected 0 to {limit} plies"),
                depth=self.depth,
                limit=MAX_DEPTH,
            )
        if self.time is not None and not 0 < self.time <= 24 * 3600:
            raise InvalidLimitError(
                N_("invalid time {time!r}: expected more than 0 and at most 86400 seconds"), time=self.time
            )
        if self.nodes is not None and self.nodes < 1:
            raise InvalidLimitError(N_("invalid node limit {nodes!r}: expected at least 1"), nodes=self.nodes)


class SearchAborted(Exception):
    """Raised inside a search when its budget runs out; the caller falls back on what it has."""


class Budget:
    """The clock and node count of one search. The caller makes it, so the caller owns the clock."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.start = clock()
        self.deadline = None if limits.time is None else self.start + limits.time
        self.max_nodes = limits.nodes
        self.nodes = 0

    def check(self) -> None:
        """Raise :class:`SearchAborted` once the time or node limit is passed."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchAborted
        if self.deadline is not None and clock() >= self.deadline:
            raise SearchAborted
        if _scope.active and _scope.stopped():
            raise SearchAborted

    @property
    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return clock() - self.start

    @property
    def remaining(self) -> float | None:
        """Seconds left, or None without a time limit."""
        return None if self.deadline is None else max(0.0, self.deadline - clock())

    def slice_nodes(self, rate: float, seconds: float, least: int, unlimited: int) -> int:
        """How many positions a compiled search may explore before it looks at this budget again: what it
        explores at ``rate`` a second in ``seconds``, or in the time left if that is less, but at least
        ``least``; and no more than the node limit leaves (at least 1). ``unlimited`` without either
        limit."""
        limit = unlimited
        if self.max_nodes is not None:
            limit = min(limit, self.max_nodes - self.nodes)
        remaining = self.remaining
        if remaining is not None:
            limit = min(limit, max(least, int(rate * min(seconds, remaining))))
        return max(1, limit)


class _Scope(threading.local):
    active = False
    deadline: float | None = None
    cancelled: Callable[[], bool] | None = None

    def stopped(self) -> bool:
        if self.deadline is not None and clock() >= self.deadline:
            return True
        return self.cancelled is not None and self.cancelled()


_scope = _Scope()


@contextmanager
def bounded(seconds: float | None = None, cancelled: Callable[[], bool] | None = None) -> Iterator[None]:
    """Within the block, every :class:`Budget` checked in this thread also runs out once ``seconds`` have
    passed or ``cancelled()`` is true: a whole task (a comparison of five searches, a review of many
    moves) gets one deadline, and work whose asker has gone stops at the next check."""
    saved = (_scope.active, _scope.deadline, _scope.cancelled)
    _scope.active = True
    _scope.deadline = None if seconds is None else clock() + seconds
    _scope.cancelled = cancelled
    try:
        yield
    finally:
        _scope.active, _scope.deadline, _scope.cancelled = saved


class _Threads(threading.local):
    most: int | None = None


_threads = _Threads()


@contextmanager
def threads(most: int | None) -> Iterator[None]:
    """Within the block, every search started in this thread uses at most ``most`` threads (None: as
    many as it would): a Gomoku manager's ``INFO thread_num``."""
    saved = _threads.most
    _threads.most = most
    try:
        yield
    finally:
        _threads.most = saved


def thread_limit() -> int | None:
    """The most threads a search started in this thread may use (see :func:`threads`), or None."""
    return _threads.most


def stopped() -> bool:
    """Whether the task running in this thread has passed its :func:`bounded` deadline or been cancelled."""
    return _scope.active and _scope.stopped()
