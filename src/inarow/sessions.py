"""Game sessions: start a game, play a move and get the computer's reply, take moves back, review a game.

This is the service the web app (and anything else that hosts games) calls. It owns who plays which side
and whose turn it is; the rules stay in :mod:`inarow.rules`, the history in :mod:`inarow.store`.

Searches go through a :class:`concurrent.futures.Executor` given by the caller: an :class:`InlineExecutor`
runs them in the calling thread, a process pool runs them beside the server so a long search never holds
up another request. What crosses to a worker is plain data (game names and move lists), never positions.
Every search has a time limit, at most :attr:`Sessions.think_time` seconds.

In a computer-against-computer game each side may have its own player (``rules`` against
``minimax:2:open-lines``, say); without one, the game's level plays. Textbook searches have no clock, so a
player whose search could visit more than :data:`MAX_PLAYER_WORK` is refused when the game is created.

The computer's moves are reproducible: the move at ply ``n`` of a game is chosen with
``random.Random(f"{seed}:{n}")`` where ``seed`` is stored with the game.
"""

from __future__ import annotations

import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Literal, ParamSpec, TypeVar

from inarow.analysis import AnalysisJSON, analyze
from inarow.errors import SessionError
from inarow.notation import format_moves, parse_moves, parse_position
from inarow.players import DEFAULT_THINK_TIME, SearchPlayer, player
from inarow.rules import Game, Position, other
from inarow.search.limits import Limits
from inarow.store import By, GameRecord, Mode, Score, Store

MODES: tuple[Mode, ...] = ("computer", "humans", "computers")
FIRSTS = ("you", "computer", "random")
SYMBOLS = ("x", "o")

MAX_PLAYER_WORK = 4_000_000
"""The most work a textbook-search player may be given per move, counted as the positions of a full tree of
its depth times the cells of the board (the cost of evaluating a position grows with the board): about two
seconds. ``minimax:7`` on 3×3 and ``alphabeta:4`` on Connect Four pass; ``minimax:2`` on Gomoku does not."""

Waiting = Literal["you", "computer", "human"]
"""Whose move it is: ``you`` (the person, against the computer), ``computer``, or ``human`` (two people)."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


class InlineExecutor(Executor):
    """Runs each task at once in the calling thread (tests, scripts, single-user tools)."""

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


# ------------------------------------------------------------------------------------------ values
@dataclass(frozen=True)
class PlayedMove:
    """A move of a game: ``move`` as the rules name it, ``cell`` the square it landed on (``d1``)."""

    ply: int
    move: str
    cell: str
    side: str
    by: By
    note: str


@dataclass(frozen=True)
class GameState:
    """A game as the person sees it. ``symbols`` maps each side (x moves first) to the mark shown for it:
    a person who chose O but moves first plays the side ``x`` shown as ``o``."""

    id: str
    game: str
    columns: int
    rows: int
    k: int
    gravity: bool
    mode: Mode
    level: str
    players: dict[str, str]
    """Who plays each side: ``you``, ``human`` or the name of a computer player (``rules``, ``medium``…)."""
    you: str | None
    """The side the person plays against the computer (None in the other modes)."""
    symbols: dict[str, str]
    first: str
    """Who was asked to move first: ``you``, ``computer`` or ``random``."""
    first_mover: str
    """Who moves first: ``you`` or ``computer`` against the computer, else ``x``."""
    moves: list[PlayedMove]
    position: str
    """The moves so far, as ``inarow analyze`` and ``POST /api/analyze`` read them."""
    diagram: str
    to_move: str | None
    waiting_for: Waiting | None
    legal_moves: list[str]
    result: str | None
    outcome: str | None
    """``win``, ``draw`` or ``loss`` for the person against the computer, once the game is over."""
    winning_line: list[str]
    created: float
    updated: float
    reply: PlayedMove | None = None
    """The computer's move played while answering this request, if any."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the history."""

    id: str
    game: str
    mode: Mode
    level: str
    players: dict[str, str]
    you: str | None
    symbols: dict[str, str]
    plies: int
    result: str | None
    outcome: str | None
    created: float
    updated: float


@dataclass(frozen=True)
class History:
    """A page of the history, most recent first, and how many games there are in all."""

    total: int
    games: list[GameSummary]
    scores: list[Score]


@dataclass(frozen=True)
class MoveEvaluation:
    """What one legal move leads to with best play, for the side that plays it."""

    move: str
    exact: bool
    value: int | None
    score: int
    plies: int | None
    description: str


@dataclass(frozen=True)
class ReviewedMove:
    """A move of a game judged by the analysis of the position before it.

    ``mistake`` is True when the move turned a win into a draw or a loss, or a draw into a loss; it is
    only ever set from exact values (on boards too big to solve in time, nothing is marked).
    """

    ply: int
    move: str
    cell: str
    side: str
    by: By
    before: str
    """The diagram of the position the move was played in."""
    exact: bool
    value_before: int | None
    value: int | None
    description: str
    best: list[str]
    best_description: str
    pv: list[str]
    mistake: bool
    verdict: str
    moves: list[MoveEvaluation] = field(default_factory=list)


@dataclass(frozen=True)
class Review:
    """A whole game replayed with the analysis of every move."""

    game: GameState
    plies: list[ReviewedMove]
    mistakes: int


# ----------------------------------------------------------------------- work done in the pool
def choose_move(game: str, moves: Sequence[str], level: str, think_time: float, seed: str) -> tuple[str, str]:
    """The move the player ``level`` chooses after ``moves``, with its note. Runs in a worker."""
    position = parse_moves(moves, game)
    choice = player(level, think_time).choose(position, random.Random(seed))
    return choice.move, choice.note


def analyze_text(game: str, text: str, depth: int | None, seconds: float) -> AnalysisJSON:
    """The fields of ``inarow analyze --json`` for ``text`` in ``game``. Runs in a worker."""
    position = parse_position(text, game)
    return analyze(position, Limits(depth=depth, time=seconds)).to_json(text)


def review_ply(game: str, moves: Sequence[str], ply: int, by: By, seconds: float) -> ReviewedMove:
    """Judge move number ``ply`` of ``moves`` by the analysis of the position before it. Runs in a worker."""
    before = parse_moves(moves[: ply - 1], game)
    bit = before.move_bit(moves[ply - 1])
    name = before.game.cell_name(bit)
    analysis = analyze(before, Limits(time=seconds))
    played = next(m for m in analysis.moves if m.move == name)
    evaluations = [
        MoveEvaluation(m.move, m.exact, m.value, m.score, m.plies, m.describe()) for m in analysis.moves
    ]
    best = next(m for m in analysis.moves if m.move == analysis.best[0])
    mistake, verdict = False, ""
    if analysis.exact and played.exact and analysis.value is not None and played.value is not None:
        mistake = played.value < analysis.value
        words = {1: "win", 0: "draw", -1: "loss"}
        verdict = f"turned a {words[analysis.value]} into a {words[played.value]}" if mistake else ""
    return ReviewedMove(
        ply=ply,
        move=name,
        cell=before.game.square_name(bit),
        side=before.turn,
        by=by,
        before=before.diagram(),
        exact=analysis.exact,
        value_before=analysis.value,
        value=played.value,
        description=played.describe(),
        best=list(analysis.best),
        best_description=best.describe(),
        pv=list(analysis.pv),
        mistake=mistake,
        verdict=verdict,
        moves=evaluations,
    )


def exit_with_parent(parent: int, every: float = 1.0) -> None:
    """Pool initializer: end this worker once the process ``parent`` is gone (killed with SIGKILL, say),
    instead of lingering as an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="inarow-exit-with-parent", daemon=True).start()


def warm_up() -> bool:
    """A trivial task that makes a fresh worker import the engine before the first real request."""
    analyze(parse_position("b2"), Limits(time=1))
    return True


# -------------------------------------------------------------------------------------- service
class Sessions:
    """Games kept in ``store``, searches run on ``executor``, each search limited to ``think_time`` seconds.

    ``seed`` makes the games' random choices (who moves first when drawn, the computer's picks among equal
    moves) reproducible; without it they come from the operating system. Every method raises
    :class:`~inarow.errors.InarowError` subclasses for bad input.
    """

    INLINE_CELLS = 12
    """Searches on boards of at most this many cells take milliseconds: they run in the calling thread,
    which spares them the round trip to a worker process. Bigger boards go to the executor."""

    REVIEW_TIME = 8.0
    """Seconds of search a review may spend in all, shared between its moves (each gets at least 0.05)."""

    def __init__(
        self,
        store: Store,
        executor: Executor | None = None,
        think_time: float = DEFAULT_THINK_TIME,
        seed: int | None = None,
    ) -> None:
        Limits(time=think_time)  # checks the range
        self.store = store
        self.executor = executor or InlineExecutor()
        self._inline = InlineExecutor()
        self.think_time = think_time
        self._seeds: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self._seed_lock = threading.Lock()
        # Striped locks: two requests on one game (a double click) run one after the other.
        self._locks = tuple(threading.Lock() for _ in range(64))

    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    # ------------------------------------------------------------------------------- commands
    def new_game(
        self,
        game: str = "tictactoe",
        you: str = "x",
        first: str = "you",
        level: str = "medium",
        mode: str = "computer",
        x_player: str | None = None,
        o_player: str | None = None,
    ) -> GameState:
        """Start a game; against the computer, if it moves first its move is played before returning.

        ``you`` is the mark the person plays (``x`` or ``o``), ``first`` who moves first (``you``,
        ``computer`` or ``random``; the state says who was drawn), ``mode`` one of :data:`MODES`.
        ``x_player`` and ``o_player`` name the players of a computer-against-computer game (see
        :func:`inarow.players.player`); either left out is the ``level``.
        """
        rules = Game.parse(game)
        level, you, first, mode = (s.strip().lower() for s in (level, you, first, mode))
        level = _check_player("level", level, rules)
        _check_choice("you", you, SYMBOLS)
        _check_choice("first", first, FIRSTS)
        _check_choice("mode", mode, MODES)
        players: dict[str, str | None] = {"x_player": x_player, "o_player": o_player}
        for name, value in players.items():
            if value is not None and mode != "computers":
                raise SessionError(
                    f"invalid {name} {value!r}: only a computer-against-computer game (mode 'computers') "
                    "chooses the players; the level plays against you"
                )
            if value is not None:
                players[name] = _check_player(name, value, rules)
        with self._seed_lock:
            seed = self._seeds.getrandbits(62)
        human: str | None = None
        symbol = "x"
        if mode == "computer":
            goes_first = first == "you" or (
                first == "random" and random.Random(f"{seed}:first").random() < 0.5
            )
            human = "x" if goes_first else "o"
            symbol = you
        game_id = secrets.token_urlsafe(9)
        record = self.store.create_game(
            game_id, rules.name, mode, level, human, symbol, first, seed,  # type: ignore[arg-type]
            x_player=players["x_player"], o_player=players["o_player"],
        )  # fmt: skip
        position = Position.start(rules)
        reply = None
        if mode == "computer" and human == "o":
            with self._lock(game_id):
                position, reply = self._computer_move(record, [], position)
        return self._state(self.store.load(game_id), position, reply)

    def get(self, game_id: str) -> GameState:
        """The game ``game_id`` as it stands. Raises :class:`~inarow.store.UnknownGameError`."""
        record = self.store.load(game_id)
        return self._state(record, _replay(record))

    def play(self, game_id: str, move: str | None, reply: bool = True) -> GameState:
        """Play the person's ``move`` and, against the computer, its reply (unless ``reply`` is False).

        With ``move`` None the computer plays the move it owes: its reply after a person's move played
        with ``reply=False``, or the next move of a computer-against-computer game.
        """
        with self._lock(game_id):
            record = self.store.load(game_id)
            position = _replay(record)
            waiting = _waiting_for(record, position)
            if move is None:
                if waiting != "computer":
                    if position.is_over:
                        raise SessionError(
                            f"game {game_id!r} is over: the computer has no move to play",
                            reason="the computer has no move to play",
                        )
                    raise SessionError(
                        f"it is not the computer's move in game {game_id!r}: send a move",
                        reason="send a move",
                    )
                moves = [m.move for m in record.moves]
                position, owed = self._computer_move(record, moves, position)
                return self._state(self.store.load(game_id), position, owed)
            if waiting == "computer":
                raise SessionError(
                    f"illegal move {move!r} in game {game_id!r}: it is the computer's move, not yours",
                    reason="it is the computer's move, not yours",
                )
            bit = position.move_bit(move)
            name, after = position.game.cell_name(bit), position.play(bit)
            self.store.add_move(game_id, position.ply + 1, name, "human", "", after.result)
            played: PlayedMove | None = None
            if reply and record.mode == "computer" and not after.is_over:
                after, played = self._computer_move(record, [*(m.move for m in record.moves), name], after)
            return self._state(self.store.load(game_id), after, played)

    def undo(self, game_id: str) -> GameState:
        """Take back the person's last move and every move after it (the computer's reply).

        With two people, or computer against computer, take back the last move. Raises
        :class:`SessionError` when there is nothing to take back.
        """
        with self._lock(game_id):
            record = self.store.load(game_id)
            if record.mode == "computer":
                human = [m.ply for m in record.moves if m.by == "human"]
                if not human:
                    raise SessionError(
                        f"nothing to undo in game {game_id!r}: you have not moved yet",
                        reason="you have not moved yet",
                    )
                start = human[-1]
            else:
                if not record.moves:
                    raise SessionError(
                        f"nothing to undo in game {game_id!r}: no move has been played",
                        reason="no move has been played",
                    )
                start = record.moves[-1].ply
            kept = parse_moves([m.move for m in record.moves[: start - 1]], record.game)
            self.store.remove_moves(game_id, start, kept.result)
            return self._state(self.store.load(game_id), kept)

    def review(self, game_id: str) -> Review:
        """Every move of the game judged by the analysis of the position before it, mistakes marked."""
        record = self.store.load(game_id)
        position = _replay(record)
        moves = [m.move for m in record.moves]
        seconds = min(self.think_time, max(0.05, self.REVIEW_TIME / max(1, len(moves))))
        executor = self._executor_for(position.game)
        futures = [
            executor.submit(review_ply, record.game, moves, m.ply, m.by, seconds) for m in record.moves
        ]
        plies = [f.result() for f in futures]
        return Review(self._state(record, position), plies, sum(p.mistake for p in plies))

    def analyze(
        self, game: str, position: str, depth: int | None = None, seconds: float | None = None
    ) -> AnalysisJSON:
        """The fields of ``inarow analyze --json``, the search limited to at most :attr:`think_time`."""
        limit = self.think_time if seconds is None else min(seconds, self.think_time)
        Limits(depth=depth, time=limit)
        executor = self._executor_for(Game.parse(game))
        return executor.submit(analyze_text, game, position, depth, limit).result()

    def history(self, limit: int = 50, offset: int = 0) -> History:
        """The games played, most recently played first, with the person's score per kind of game."""
        games = [
            GameSummary(
                r.id,
                r.game,
                r.mode,
                r.level,
                _players(r),
                r.human,
                _symbols(r),
                plies,
                r.result,
                _outcome(r, r.result),
                r.created,
                r.updated,
            )
            for r, plies in self.store.games(limit, offset)
        ]
        return History(self.store.count(), games, self.store.scores())

    # ------------------------------------------------------------------------------- helpers
    def _executor_for(self, game: Game) -> Executor:
        return self._inline if game.cells <= self.INLINE_CELLS else self.executor

    def _computer_move(
        self, record: GameRecord, moves: list[str], position: Position
    ) -> tuple[Position, PlayedMove]:
        """Let the computer play in ``position``, reached by ``moves``, and commit its move."""
        ply = position.ply + 1
        name = _players(record)[position.turn]
        move, note = (
            self._executor_for(position.game)
            .submit(choose_move, record.game, moves, name, self.think_time, f"{record.seed}:{ply}")
            .result()
        )
        bit = position.move_bit(move)
        after = position.play(bit)
        self.store.add_move(record.id, ply, move, "computer", note, after.result)
        played = PlayedMove(ply, move, position.game.square_name(bit), position.turn, "computer", note)
        return after, played

    def _state(self, record: GameRecord, position: Position, reply: PlayedMove | None = None) -> GameState:
        game = position.game
        moves, bits, current = [], [], Position.start(game)
        for m in record.moves:
            bit = current.move_bit(m.move)
            moves.append(PlayedMove(m.ply, m.move, game.square_name(bit), current.turn, m.by, m.note))
            bits.append(bit)
            current = current.play(bit)
        first_mover = "x" if record.mode != "computer" else "you" if record.human == "x" else "computer"
        return GameState(
            id=record.id,
            game=game.name,
            columns=game.columns,
            rows=game.rows,
            k=game.k,
            gravity=game.gravity,
            mode=record.mode,
            level=record.level,
            players=_players(record),
            you=record.human,
            symbols=_symbols(record),
            first=record.first,
            first_mover=first_mover,
            moves=moves,
            position=format_moves(game, bits),
            diagram=position.diagram(),
            to_move=position.to_move,
            waiting_for=_waiting_for(record, position),
            legal_moves=position.legal_moves(),
            result=position.result,
            outcome=_outcome(record, position.result),
            winning_line=[game.square_name(b) for b in position.winning_line_bits()],
            created=record.created,
            updated=record.updated,
            reply=reply,
        )


def _check_player(field: str, name: str, game: Game) -> str:
    """The normalised name of player ``name``, if it exists and its search is small enough for ``game``."""
    chosen = player(name)
    if isinstance(chosen, SearchPlayer):
        size = _tree_size(game, chosen.depth)
        if size * game.cells > MAX_PLAYER_WORK:
            raise SessionError(
                f"invalid {field} {name!r}: a {chosen.depth}-ply {chosen.algorithm} search on {game.name} "
                f"could visit {size:,} positions a move, too many to wait for: choose a smaller depth"
            )
    return chosen.name


def _tree_size(game: Game, depth: int) -> int:
    """The positions of a full tree ``depth`` plies deep from the empty board of ``game``: every cell a move,
    or in gravity games every column."""
    total, width = 1, 1
    for ply in range(min(depth, game.cells)):
        width *= game.columns if game.gravity else game.cells - ply
        total += width
    return total


def _players(record: GameRecord) -> dict[str, str]:
    if record.mode == "computers":
        return {"x": record.x_player or record.level, "o": record.o_player or record.level}
    if record.mode == "humans":
        return {"x": "human", "o": "human"}
    computer = "o" if record.human == "x" else "x"
    return {computer: record.level, other(computer): "you"}  # type: ignore[arg-type]


def _check_choice(name: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        raise SessionError(f"invalid {name} {value!r}: expected one of {', '.join(choices)}")


def _replay(record: GameRecord) -> Position:
    return parse_moves([m.move for m in record.moves], record.game)


def _waiting_for(record: GameRecord, position: Position) -> Waiting | None:
    if position.is_over:
        return None
    if record.mode == "humans":
        return "human"
    if record.mode == "computers":
        return "computer"
    return "you" if position.turn == record.human else "computer"


def _symbols(record: GameRecord) -> dict[str, str]:
    if record.mode != "computer" or record.human is None or record.human == record.symbol:
        return {"x": "x", "o": "o"}
    return {record.human: record.symbol, other(record.human): other(record.symbol)}  # type: ignore[arg-type]


def _outcome(record: GameRecord, result: str | None) -> str | None:
    if record.mode != "computer" or result is None:
        return None
    if result == "draw":
        return "draw"
    return "win" if result == record.human else "loss"
