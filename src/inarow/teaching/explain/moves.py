"""The value a textbook search backs up for each legal move, to check a hand calculation."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from typing_extensions import TypedDict

from inarow.base.errors import TreeTooLargeError
from inarow.base.i18n import N_, in_english
from inarow.engines.limits import Budget, Limits, SearchAborted
from inarow.engines.policy import PositionJSON, position_json
from inarow.engines.textbook import (
    check_algorithm,
    move_scores,
    search,
)
from inarow.rules.game import Position
from inarow.teaching.explain.values import JsonValue, json_value
from inarow.words import phrases


class MoveValueJSON(TypedDict):
    """One move of :class:`MoveValuesJSON`, with the keys of a move of ``inarow analyze --json``."""

    move: str
    exact: bool
    value: None
    score: JsonValue
    plies: None
    outcome: None
    winrate: None
    line: list[str]
    source: Literal["search"]


class MoveValuesJSON(PositionJSON):
    """``inarow analyze --algo … --json``: the keys of ``inarow analyze --json`` and ``algorithm`` and
    ``evaluation``."""

    outcome: None
    exact: bool
    value: None
    score: JsonValue
    plies: None
    proof: None
    best: list[str]
    pv: list[str]
    moves: list[MoveValueJSON]
    description: str
    depth: int | None
    algorithm: str
    evaluation: str
    nodes: int
    move_nodes: int
    seconds: float
    load_seconds: float
    """Always 0: the textbook searches are pure Python, nothing to load (the analysis's key)."""


@dataclass(frozen=True, kw_only=True)
class MoveValue:
    """A legal move (a cell bit) and the value a textbook search backs up for it, from the standpoint of
    the side to move, which plays it."""

    move: int
    mover_value: float


@dataclass(frozen=True, kw_only=True)
class MoveValues:
    """The answer of :func:`analyze_moves`. Values are for the side to move at ``position``, on the
    evaluation's scale (±inf: a win/loss it can force within the depth); none of them is exact.

    ``mover_value`` is the top value (None when the game is over), ``best`` the moves that reach it, ``pv``
    the line each side's first best move makes. ``exact`` is True when the search reached the end of
    every line (no evaluation used). ``nodes`` counts one search of the whole tree, root included, as
    ``inarow tree`` and ``compare`` do; ``move_nodes`` the nodes of the searches that gave every move its
    own value (each with a full window, plus the root).
    """

    position: Position
    algorithm: str
    evaluation: str
    depth: int | None
    mover_value: float | None
    moves: tuple[MoveValue, ...]
    best: tuple[int, ...]
    pv: tuple[int, ...]
    nodes: int
    move_nodes: int = 0
    seconds: float
    exact: bool = False

    def describe(self) -> str:
        """The result in words: ``minimax to depth 2 with open-lines: +1 for x``, or the finished game's."""
        position = self.position
        if position.result is not None:
            return phrases.finished(position.result)
        return phrases.textbook_value(
            self.algorithm, self.depth, self.evaluation, self.mover_value, position.turn
        )

    def to_json(self, text: str | None = None) -> MoveValuesJSON:
        """The keys of ``inarow analyze --json`` (``exact`` false, ``value``/``plies``/``outcome`` null,
        ``score`` the textbook value) and ``algorithm`` and ``evaluation``; ``text`` is the position as
        the user wrote it."""
        position, game = self.position, self.position.game
        return {
            **position_json(position, text, position.winner),
            "outcome": None,
            "exact": self.exact,
            "value": None,
            "score": json_value(self.mover_value),
            "plies": None,
            "proof": None,
            "best": [game.cell_name(bit) for bit in self.best],
            "pv": [game.cell_name(bit) for bit in self.pv],
            "moves": [
                {
                    "move": game.cell_name(move.move),
                    "exact": self.exact,
                    "value": None,
                    "score": json_value(move.mover_value),
                    "plies": None,
                    "outcome": None,
                    "winrate": None,
                    "line": [],
                    "source": "search",
                }
                for move in self.moves
            ],
            "description": in_english(self.describe),
            "depth": self.depth,
            "algorithm": self.algorithm,
            "evaluation": self.evaluation,
            "nodes": self.nodes,
            "move_nodes": self.move_nodes,
            "seconds": round(self.seconds, 6),
            "load_seconds": 0.0,
        }


def analyze_moves(
    position: Position,
    algorithm: str = "minimax",
    depth: int | None = 2,
    evaluation: str = "open-lines",
    limits: Limits | None = None,
) -> MoveValues:
    """The value a ``depth``-ply textbook search backs up for every legal move of ``position``, from the
    standpoint of the side to move, the best moves and the expected line. ``limits`` bounds the nodes
    and the time.

    Raises :class:`~inarow.base.errors.InarowError` subclasses for a bad algorithm or evaluation and
    :class:`TreeTooLargeError` when the limits stop the search.
    """
    algorithm = check_algorithm(algorithm)
    budget = Budget(limits or Limits())
    start = time.perf_counter()
    if position.is_over:
        return MoveValues(
            position=position,
            algorithm=algorithm,
            evaluation=evaluation,
            depth=depth,
            mover_value=None,
            moves=(),
            best=(),
            pv=(),
            nodes=0,
            seconds=0.0,
        )
    try:
        scores, move_nodes = move_scores(position, algorithm, depth, evaluation, budget)
        nodes = search(position, algorithm, depth, evaluation, record=False, budget=budget).nodes
        top = max(scores.values())
        best = tuple(bit for bit, value in scores.items() if value == top)
        line = _line(position, best[0], algorithm, depth, evaluation, budget)
    except SearchAborted:
        raise TreeTooLargeError(
            N_(
                "the {algorithm} search of {position!r} was stopped by the limits after {nodes:,}"
                " nodes: lower the depth or raise the limits"
            ),
            algorithm=algorithm,
            position=position.diagram(),
            nodes=budget.nodes,
        ) from None
    return MoveValues(
        position=position,
        algorithm=algorithm,
        evaluation=evaluation,
        depth=depth,
        mover_value=top,
        moves=tuple(MoveValue(move=bit, mover_value=value) for bit, value in scores.items()),
        best=best,
        pv=line,
        nodes=nodes,
        move_nodes=move_nodes + 1,
        seconds=time.perf_counter() - start,
        exact=depth is None or depth >= position.game.cells - position.ply,
    )


def _line(
    position: Position, first: int, algorithm: str, depth: int | None, evaluation: str, budget: Budget
) -> tuple[int, ...]:
    """The expected line: ``first``, then each side's first best move with the plies left of ``depth``."""
    line, current = [first], position.play(first)
    left = None if depth is None else depth - 1
    while not current.is_over and (left is None or left > 0):
        scores, _ = move_scores(current, algorithm, left, evaluation, budget)
        top = max(scores.values())
        line.append(next(bit for bit, value in scores.items() if value == top))
        current, left = current.play(line[-1]), None if left is None else left - 1
    return tuple(line)
