"""How the server runs: :class:`Settings`, given to :func:`inarow.web.app.create_app`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inarow.play.players import DEFAULT_THINK_TIME
from inarow.sessions import Pool, warm_up


@dataclass(frozen=True)
class Settings:
    """How the server runs.

    ``db``: the SQLite file (``":memory:"`` for none); ``think_time``: the most seconds any one search may
    take (computer moves, hints, analysis, explanations, comparisons); ``pool``: where searches run,
    ``process`` (``workers`` processes for play, default one per core up to 4, and ``teach_workers`` for
    teaching and reviews, default half as many), ``thread`` or ``inline``; ``teach_queue``: how many
    teaching requests may wait before the answer is 503; ``seed``: makes the games' random choices
    reproducible; ``max_body``: the largest request body accepted, in bytes, ``body_timeout`` the most
    seconds a whole body may take to arrive; ``hosts``: the host names the server answers to besides
    loopback's; ``token``: the class's key (the students'), ``teacher_token`` the teacher's (the one not
    given is made when the other is; neither: no keys, anyone who reaches the server is the teacher, see
    :mod:`inarow.web.roles`); ``warm_up``: what loads the engine in the server's own process, in the
    background when the pool is not ``inline`` (the health route says ``warming`` until it returns).
    """

    db: Path | str = ":memory:"
    think_time: float = DEFAULT_THINK_TIME
    pool: Pool = "process"
    workers: int | None = None
    teach_workers: int | None = None
    teach_queue: int = 4
    seed: int | None = None
    max_body: int = 64 * 1024
    body_timeout: float = 10.0
    hosts: tuple[str, ...] = field(default_factory=tuple)
    token: str | None = None
    teacher_token: str | None = None
    warm_up: Callable[[], object] = warm_up
