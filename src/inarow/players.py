"""Computer players: the levels ``easy``, ``medium``, ``hard`` and ``perfect``, the same everywhere.

A player is anything with ``name`` and ``choose(position, rng) -> Choice``; :func:`player` builds one from
its name. Randomness comes from the ``rng`` the caller passes, so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from inarow.analysis import Analysis, analyze
from inarow.errors import InarowError
from inarow.rules import Position
from inarow.search.limits import Limits

LEVELS = ("easy", "medium", "hard", "perfect")

DEFAULT_THINK_TIME = 2.0
"""Seconds a computer player may think per move unless told otherwise."""


class UnknownPlayerError(InarowError):
    """A player or level name that is not known."""


@dataclass(frozen=True)
class Choice:
    """A move a player chose, with the analysis behind it when there was one."""

    move: str
    analysis: Analysis | None
    note: str
    """Why, in a few words: ``random``, ``draw with best play``, ``not solved in time: …``."""


class Player(Protocol):
    """Chooses moves; ``name`` is what :func:`player` reads back."""

    @property
    def name(self) -> str: ...

    def choose(self, position: Position, rng: random.Random) -> Choice: ...


def _pick(analysis: Analysis, rng: random.Random) -> str:
    return rng.choice(analysis.best)


@dataclass(frozen=True)
class Level:
    """One of the levels of play.

    - ``easy``: a random move, or the best one now and then (one move in three);
    - ``medium``: a depth-2 search with the evaluation, as the classic course programs play;
    - ``hard``: a deeper (depth 6) search bounded by half the think time;
    - ``perfect``: the exact search; it never loses a game that can be saved. If the think time runs out
      first (big boards), it plays the best move of the deepest search it finished and says so.
    """

    name: str
    think_time: float = DEFAULT_THINK_TIME

    def limits(self) -> Limits:
        """The search limits of this level."""
        if self.name == "medium":
            return Limits(depth=2)
        if self.name == "hard":
            return Limits(depth=6, time=self.think_time / 2)
        return Limits(time=self.think_time)

    def choose(self, position: Position, rng: random.Random) -> Choice:
        if self.name == "easy" and rng.random() >= 1 / 3:
            return Choice(rng.choice(position.legal_moves()), None, "random")
        analysis = analyze(position, self.limits())
        note = analysis.describe() if analysis.exact else f"not solved in time: {analysis.describe()}"
        return Choice(_pick(analysis, rng), analysis, note)


def player(name: str, think_time: float = DEFAULT_THINK_TIME) -> Player:
    """The player called ``name``: one of :data:`LEVELS`. Raises :class:`UnknownPlayerError`."""
    key = name.strip().lower()
    if key in LEVELS:
        return Level(key, think_time)
    raise UnknownPlayerError(f"unknown player {name!r}: expected one of {', '.join(LEVELS)}")
