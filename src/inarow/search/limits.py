"""Search limits and the budget that enforces them."""

from __future__ import annotations

import time
from dataclasses import dataclass

from inarow.errors import InvalidLimitError

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
            raise InvalidLimitError(f"invalid depth {self.depth!r}: expected 0 to {MAX_DEPTH} plies")
        if self.time is not None and not 0 < self.time <= 24 * 3600:
            raise InvalidLimitError(
                f"invalid time {self.time!r}: expected more than 0 and at most 86400 seconds"
            )
        if self.nodes is not None and self.nodes < 1:
            raise InvalidLimitError(f"invalid node limit {self.nodes!r}: expected at least 1")


class SearchAborted(Exception):
    """Raised inside a search when its budget runs out; the caller falls back on what it has."""


class Budget:
    """The clock and node count of one search. The caller makes it, so the caller owns the clock."""

    def __init__(self, limits: Limits = Limits()) -> None:
        self.start = time.perf_counter()
        self.deadline = None if limits.time is None else self.start + limits.time
        self.max_nodes = limits.nodes
        self.nodes = 0

    def check(self) -> None:
        """Raise :class:`SearchAborted` once the time or node limit is passed."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise SearchAborted
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise SearchAborted

    @property
    def elapsed(self) -> float:
        """Seconds since the budget was made."""
        return time.perf_counter() - self.start

    @property
    def remaining(self) -> float | None:
        """Seconds left, or None without a time limit."""
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
