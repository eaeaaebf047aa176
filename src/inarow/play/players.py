"""Computer players, the same everywhere: the levels ``easy``, ``medium``, ``hard`` and ``perfect``,
``random``, ``rules`` and the textbook searches ``minimax:D:EVAL`` and ``alphabeta:D:EVAL``.

A player is anything with ``name`` and ``choose(position, rng) -> Choice``; :func:`player` builds one from
its name. Randomness comes from the ``rng`` the caller passes, so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from inarow.base.errors import Items, UnknownEvaluationError, UnknownPlayerError
from inarow.base.i18n import N_
from inarow.engines.gomoku import analyst
from inarow.engines.gomoku.board import GomokuBoard
from inarow.engines.limits import MAX_DEPTH, Limits
from inarow.engines.policy import Analysis, analyze, play
from inarow.engines.textbook import ALGORITHMS, evaluation_name, move_scores
from inarow.evaluation.lines import EVALUATIONS, Evaluation, parse_weights
from inarow.evaluation.student import is_code_spec, load_code_evaluation
from inarow.play import swap2
from inarow.rules.game import Position
from inarow.values.answers import MoveNote, analysis_note, search_value

LEVELS = ("easy", "medium", "hard", "perfect")

DEFAULT_THINK_TIME = 2.0
"""Seconds a computer player may think per move unless told otherwise."""


RANDOM = MoveNote(kind="random")


@dataclass(frozen=True, kw_only=True)
class Choice:
    """A move a player chose, with the analysis behind it when there was one."""

    move: str
    note: MoveNote
    """Why, as fields: a random move, a rule of thumb, the analysis's value, a textbook search's."""
    analysis: Analysis | None = None
    """The analysis behind the move, when there was one."""
    value: float | None = None
    """The backed-up value of a textbook search's move (``±inf`` for a proven win or loss)."""


class Player(Protocol):
    """Chooses moves; ``name`` is what :func:`player` reads back."""

    @property
    def name(self) -> str: ...

    def choose(self, position: Position, rng: random.Random) -> Choice: ...


def _pick(analysis: Analysis, rng: random.Random) -> str:
    return rng.choice(analysis.best)


def most_natural(position: Position, moves: Sequence[str]) -> list[str]:
    """Of equally good ``moves``, the ones a player would call natural: on the most lines of k (on 3×3 the
    centre is on four, a corner on three, an edge on two), then nearest the centre. Level ``perfect`` picks
    among these, so it opens 3×3 in the centre and answers a centre with a corner, never an edge."""
    game = position.game
    centre = ((game.columns - 1) / 2, (game.rows - 1) / 2)

    def rank(move: str) -> tuple[int, float]:
        bit = position.move_bit(move)
        column, row = game.coordinates(bit)
        return -len(game.lines_through[bit]), abs(column - centre[0]) + abs(row - centre[1])

    best = min(rank(move) for move in moves)
    return [move for move in moves if rank(move) == best]


@dataclass(frozen=True)
class Level:
    """One of the levels of play.

    - ``easy``: a random move, or the best one now and then (one move in three);
    - ``medium``: a depth-2 search with the evaluation, as the classic course programs play;
    - ``hard``: a deeper (depth 6) search bounded by half the think time;
    - ``perfect``: the exact search; it never loses a game that can be saved and wins every game it can.
      It needs a move that keeps the value, not every move's score (:func:`inarow.engines.policy.play`): from
      the books, a strategy book, or weak searches on the process's table; the strong analysis (the
      fastest win) where it is cheap. If the think time runs out first (big boards, or the opening of
      Connect Four without a strategy book), it plays the best move of the deepest search it finished and
      says so.
    """

    name: str
    think_time: float = DEFAULT_THINK_TIME
    nodes: int | None = None
    """With a node limit, each search is bounded by it instead of the think time: the same moves on any
    machine, however busy (tests, reproducible benchmarks)."""

    def limits(self) -> Limits:
        """The search limits of this level."""
        if self.name == "medium":
            return Limits(depth=2)
        if self.nodes is not None:
            return Limits(depth=6 if self.name == "hard" else None, nodes=self.nodes)
        if self.name == "hard":
            return Limits(depth=6, time=self.think_time / 2)
        return Limits(time=self.think_time)

    def choose(self, position: Position, rng: random.Random) -> Choice:
        if analyst.supports(position.game):
            return self._gomoku(position, rng)
        if self.name == "easy" and rng.random() >= 1 / 3:
            return Choice(move=rng.choice(position.legal_moves()), note=RANDOM)
        if self.name == "perfect":
            analysis = play(position, self.limits())
            move = rng.choice(most_natural(position, analysis.best))
            return Choice(move=move, note=analysis_note(analysis), analysis=analysis)
        analysis = analyze(position, self.limits())
        return Choice(move=_pick(analysis, rng), note=analysis_note(analysis), analysis=analysis)

    def swap2(self, position: Position, rng: random.Random) -> swap2.Decision:
        """This level's decision at a step of swap2 (:mod:`inarow.play.swap2`: no stone, three or five),
        each analysis bounded by the node limit, or by a share of the think time."""
        limits = (
            Limits(nodes=self.nodes)
            if self.nodes is not None
            else Limits(time=self.think_time / swap2.ANALYSES)
        )
        if position.ply == 0:
            return swap2.Decision(stones=swap2.propose(position.game, rng.randrange(2**31), limits))
        return (swap2.respond if position.ply == 3 else swap2.choose)(position, limits)

    def _gomoku(self, position: Position, rng: random.Random) -> Choice:
        """On the Gomoku engine's boards: ``easy`` a random cell near the stones two moves in three, else as
        ``medium``; ``medium`` the best move one ply deep by the pattern evaluation, without threat search
        (it still makes a five and blocks a four); ``hard`` two plies with VCF and defence against the
        opponent's at the root, in half the think time; ``perfect`` VCF and VCT at the root, defence against
        the opponent's VCF and VCT, iterative deepening as deep as the whole think time allows."""
        if self.name == "easy" and rng.random() >= 1 / 3:
            board = GomokuBoard.from_position(position)
            near = sorted(board.to_bit(i) for i in board.candidates or {board.centre})
            bits = [bit for bit in near if bit not in position.forbidden] or position.legal_bits()
            return Choice(move=position.game.cell_name(rng.choice(bits)), note=RANDOM)
        style = analyst.STYLES["medium" if self.name == "easy" else self.name]
        time = self.think_time / 2 if self.name == "hard" else self.think_time
        limits = Limits(time=time) if self.nodes is None else Limits(nodes=self.nodes)
        analysis = analyst.analyze(position, limits, style)
        return Choice(move=_pick(analysis, rng), note=analysis_note(analysis), analysis=analysis)


@dataclass(frozen=True)
class RandomPlayer:
    """``random``: any legal move, all equally likely."""

    name: str = "random"

    def choose(self, position: Position, rng: random.Random) -> Choice:
        return Choice(move=rng.choice(position.legal_moves()), note=RANDOM)


@dataclass(frozen=True)
class RulesPlayer:
    """``rules``: the classic hand-written strategy, on any board. Win if a stone completes a line; else
    block a cell where the opponent would complete one; else take a corner, else a centre cell (those
    nearest the middle of the board), else an edge cell, else any cell. Ties are broken by the ``rng``."""

    name: str = "rules"

    def choose(self, position: Position, rng: random.Random) -> Choice:
        game, legal = position.game, position.legal_bits()
        mine, theirs = position.sides()
        moves = sum(1 << bit for bit in legal)
        last_column, last_row = game.columns - 1, game.rows - 1
        middle = (last_column / 2, last_row / 2)

        def distance(bit: int) -> float:
            column, row = game.coordinates(bit)
            return max(abs(column - middle[0]), abs(row - middle[1]))

        def on_edge(bit: int) -> bool:
            column, row = game.coordinates(bit)
            return column in (0, last_column) or row in (0, last_row)

        nearest = min(distance(bit) for bit in legal)
        corners = {game.bit(c, r) for c in (0, last_column) for r in (0, last_row)}
        for note, cells in (
            ("win", [b for b in legal if game.winning_cells(mine, moves) >> b & 1]),
            ("block", [b for b in legal if game.winning_cells(theirs, moves) >> b & 1]),
            ("corner", [b for b in legal if b in corners]),
            ("centre", [b for b in legal if distance(b) == nearest and not on_edge(b)]),
            ("edge", [b for b in legal if on_edge(b)]),
            ("any cell", legal),
        ):
            if cells:
                return Choice(move=game.cell_name(rng.choice(cells)), note=MoveNote(kind="rule", rule=note))
        raise AssertionError("a player was asked to move in a finished game")


@dataclass(frozen=True)
class ThreatPlayer:
    """``threats``: the Gomoku player's rules of thumb, one ply deep. Make five; else block the opponent's
    five; else make an open four, two fours or a four-three; else block the opponent's open three (its open
    four, double-four and four-three cells); else make a four or an open three; else the cell worth most to
    both sides. Ties go to the cell worth most, then to the ``rng``. On games the Gomoku engine does not
    play it plays as ``rules``."""

    name: str = "threats"

    def choose(self, position: Position, rng: random.Random) -> Choice:
        if not analyst.supports(position.game):
            return RulesPlayer().choose(position, rng)
        board = GomokuBoard.from_position(position)
        me = 1 if position.turn == "x" else 2
        opp = 3 - me
        mine, theirs = board.value[me], board.value[opp]
        allowed = {board.from_bit(bit) for bit in position.legal_bits()}  # Renju: not a forbidden point
        for note, found in (
            ("five", board.fives[me]),
            ("block four", board.fives[opp]),
            ("open four or four-three", board.wins[me] | (board.fours[me] & board.threes[me])),
            ("block open three", board.wins[opp]),
            ("four or open three", board.fours[me] | board.threes[me]),
            ("best cell", board.candidates or {board.centre}),
            ("any cell", allowed),
        ):
            cells = found & allowed
            if cells:
                top = max(mine[i] + theirs[i] for i in cells)
                best = sorted(i for i in cells if mine[i] + theirs[i] == top)
                move = position.game.cell_name(board.to_bit(rng.choice(best)))
                return Choice(move=move, note=MoveNote(kind="rule", rule=note))
        raise AssertionError("a player was asked to move in a finished game")


@dataclass(frozen=True)
class SearchPlayer:
    """``ALGORITHM:DEPTH:EVALUATION`` such as ``minimax:2:open-lines``: a textbook search (see
    :mod:`inarow.engines.textbook`) ``depth`` plies deep; it plays a move of the best backed-up value, one
    that wins at once if there is one, else at random among the best."""

    algorithm: str
    depth: int
    evaluation: str | Evaluation
    """A name (``open-lines``, ``weights:…``, ``mine.py:e``) or an evaluation itself (pasted code)."""

    @property
    def name(self) -> str:
        evaluation = self.evaluation
        said = evaluation if isinstance(evaluation, str) else evaluation_name(evaluation)
        return f"{self.algorithm}:{self.depth}:{said}"

    def choose(self, position: Position, rng: random.Random) -> Choice:
        scores, _ = move_scores(position, self.algorithm, self.depth, self.evaluation)
        top = max(scores.values())
        best = [bit for bit, score in scores.items() if score == top]
        winning = [bit for bit in best if position.play(bit).winner is not None]
        bit = (winning or [rng.choice(best)])[0]
        note = MoveNote(kind="search", algorithm=self.algorithm, depth=self.depth, value=search_value(top))
        return Choice(move=position.game.cell_name(bit), note=note, value=top)


PLAYER_NAMES = (*LEVELS, "random", "rules")
"""The players known by a single name that the menus offer; the textbook searches are named
``ALGORITHM:DEPTH[:EVALUATION]``, and ``threats``, Gomoku's reference player for ``bench/gomoku.py``, is
known by name too."""


def player(name: str, think_time: float = DEFAULT_THINK_TIME, nodes: int | None = None) -> Player:
    """The player called ``name``: one of :data:`PLAYER_NAMES`, or ``ALGORITHM:DEPTH[:EVALUATION]`` for a
    textbook search (``minimax:2:open-lines``, ``alphabeta:4:weighted``; the evaluation defaults to
    ``open-lines``). A level given ``nodes`` searches that many nodes a move instead of ``think_time``
    seconds. Raises :class:`UnknownPlayerError`."""
    key = name.strip().lower()
    if key in LEVELS:
        return Level(key, think_time, nodes)
    if key == "random":
        return RandomPlayer()
    if key == "rules":
        return RulesPlayer()
    if key == "threats":
        return ThreatPlayer()
    parts = key.split(":", 2)  # the evaluation may hold colons: minimax:2:weights:1,1,1,inf
    if parts[0] in ALGORITHMS and len(parts) in (2, 3):
        depth, evaluation = parts[1], parts[2] if len(parts) == 3 else "open-lines"
        written = name.strip().split(":", 2)[-1]  # a file's name keeps its case: minimax:2:Mine.py:e
        if len(parts) == 3 and is_code_spec(written):
            evaluation = written
        if not (depth.isascii() and depth.isdigit() and 1 <= int(depth) <= MAX_DEPTH):
            raise UnknownPlayerError(
                N_(
                    "unknown player {name!r}: the depth {depth!r} must be a number of plies from 1 to {limit}"
                ),
                name=name,
                depth=depth,
                limit=MAX_DEPTH,
            )
        if evaluation not in EVALUATIONS:
            try:
                if is_code_spec(evaluation):
                    load_code_evaluation(evaluation)
                else:
                    evaluation = parse_weights(evaluation).text if evaluation.startswith("weights:") else ""
            except UnknownEvaluationError as error:
                raise UnknownPlayerError(
                    N_("unknown player {name!r}: {reason}"), name=name, reason=error
                ) from None
            if not evaluation:
                raise UnknownPlayerError(
                    N_(
                        "unknown player {name!r}: the evaluation {evaluation!r} must be one of {known}, "
                        "weights:W0,W1,…,Wk, or PATH.py:FUNCTION"
                    ),
                    name=name,
                    evaluation=parts[2],
                    known=Items(EVALUATIONS),
                )
        return SearchPlayer(parts[0], int(depth), evaluation)
    raise UnknownPlayerError(
        N_(
            "unknown player {name!r}: expected one of {known}, threats, or "
            "ALGORITHM:DEPTH[:EVALUATION] with an algorithm of {algorithms}, e.g. "
            "'minimax:2:open-lines'"
        ),
        name=name,
        known=Items(PLAYER_NAMES),
        algorithms=Items(ALGORITHMS),
    )
