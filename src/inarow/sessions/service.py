"""The game service: start a game, play a move and get the computer's reply, take moves back, review a game.

This is the service the web app (and anything else that hosts games) calls. It owns who plays which side
and whose turn it is; the rules stay in :mod:`inarow.rules.game`, the history in :mod:`inarow.values.store`.

Searches run in :class:`~inarow.sessions.workers.SearchPool` s given by the caller: ``play`` for the
computer's moves alone, ``teach`` (smaller, with a short queue) for every heavy read — analyses and hints,
explanations, comparisons and reviews — so no amount of reading delays a player's move: when the reads
are too many they are refused (busy, try again) while the moves go on; searches on small boards run in
the calling thread. What crosses to a worker is values. Every search has a time limit, at most
:attr:`Sessions.think_time` seconds; a review has a total of :attr:`Sessions.REVIEW_TIME`.

In a computer-against-computer game each side may have its own player (``rules`` against
``minimax:2:open-lines``, say); without one, the game's level plays. Textbook searches have no clock, so a
player whose search could visit more than :data:`MAX_PLAYER_WORK` is refused when the game is created.

The computer's moves are reproducible: the move at ply ``n`` of a game is chosen with
``random.Random(f"{seed}:{n}")`` where ``seed`` is stored with the game.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

from inarow.base.errors import SessionError, StaleMoveError
from inarow.base.i18n import N_
from inarow.engines.books import recall
from inarow.engines.books.keys import keyable
from inarow.engines.limits import Limits
from inarow.engines.policy import Analysis
from inarow.play.players import DEFAULT_THINK_TIME, SearchPlayer, player
from inarow.rules.game import Game, Position, other
from inarow.rules.notation import format_moves, parse_moves
from inarow.sessions.models import GameState, GameSummary, History, PlayedMove, Review, Waiting
from inarow.sessions.notes import read_note
from inarow.sessions.review import review_moves
from inarow.sessions.workers import SearchPool, analyze_position, choose_move, remembering
from inarow.values.store import By, GameRecord, Mode, Store

_P = ParamSpec("_P")
_T = TypeVar("_T")

MODES: tuple[Mode, ...] = ("computer", "humans", "computers")
FIRSTS = ("you", "computer", "random")
SYMBOLS = ("x", "o")

MAX_PLAYER_WORK = 4_000_000
"""The most work a textbook-search player may be given per move, counted as the positions of a full tree of
its depth times the cells of the board (the cost of evaluating a position grows with the board): about two
seconds. ``minimax:7`` on 3×3 and ``alphabeta:4`` on Connect Four pass; ``minimax:2`` on Gomoku does not."""


class Sessions:
    """Games kept in ``store``, searches run on the ``play`` and ``teach`` pools (inline when not given),
    each search limited to ``think_time`` seconds.

    ``seed`` makes the games' random choices (who moves first when drawn, the computer's picks among equal
    moves) reproducible; without it they come from the operating system. ``remember_min_nodes``: the
    store keeps an exact score a search found only if that search explored at least this many positions.
    Every method raises
    :class:`~inarow.base.errors.InarowError` subclasses for bad input.
    """

    INLINE_CELLS = 12
    """Searches on boards of at most this many cells take milliseconds: they run in the calling thread,
    which spares them the round trip to a worker process. Bigger boards go to the executor."""

    REVIEW_TIME = 8.0
    """Seconds of search a review may spend in all, shared between its moves (each gets at least 0.05 and
    at most the think time); the moves past it are left unreviewed and the review says so."""

    def __init__(
        self,
        store: Store,
        think_time: float = DEFAULT_THINK_TIME,
        seed: int | None = None,
        *,
        play: SearchPool | None = None,
        teach: SearchPool | None = None,
        remember_min_nodes: int = recall.REMEMBER_MIN_NODES,
    ) -> None:
        Limits(time=think_time)  # checks the range
        self.remember_min_nodes = remember_min_nodes
        self.store = store
        self._inline = SearchPool("inline", "inline")
        self.play_pool = play or self._inline
        self.teach_pool = teach or self._inline
        self.think_time = think_time
        # Moves and analyses stop at the think time by their own limits; this deadline only stops one
        # that would not (a textbook player has no clock of its own).
        self._backstop = 2 * think_time + 1
        self._seeds: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self._seed_lock = threading.Lock()
        # One lock a game: two requests on one game (a double click) run one after the other, and a game
        # waiting for a long search never holds up another game.
        self._locks: weakref.WeakValueDictionary[str, _GameLock] = weakref.WeakValueDictionary()
        self._locks_lock = threading.Lock()

    def _lock(self, game_id: str) -> _GameLock:
        with self._locks_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = _GameLock()
            return lock

    # ------------------------------------------------------------------------------- commands
    def new_game(
        self,
        rules: Game,
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
        :func:`inarow.play.players.player`); either left out is the ``level``.
        """
        asked = time.time()
        level, you, first, mode = (s.strip().lower() for s in (level, you, first, mode))
        level = _check_player("level", level, rules)
        _check_choice("you", you, SYMBOLS)
        _check_choice("first", first, FIRSTS)
        _check_choice("mode", mode, MODES)
        players: dict[str, str | None] = {"x_player": x_player, "o_player": o_player}
        for name, value in players.items():
            if value is not None and mode != "computers":
                raise SessionError(
                    N_(
                        "invalid {name} {value!r}: only a computer-against-computer game (mode "
                        "'computers') chooses the players; the level plays against you"
                    ),
                    name=name,
                    value=value,
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
            # The person plays the side that opens (x, or o in a game named with ":o-first") or the other.
            human = rules.first if goes_first else other(rules.first)
            symbol = you
        game_id = secrets.token_urlsafe(9)
        record = self.store.create_game(
            game_id, rules.name, mode, level, human, symbol, first, seed,  # type: ignore[arg-type]
            x_player=players["x_player"], o_player=players["o_player"],
        )  # fmt: skip
        position = Position.start(rules)
        reply = None
        if mode == "computer" and human != rules.first:
            with self._lock(game_id):
                position, reply, note = self._computer_choice(record, position, asked)
                self.store.add_move(game_id, reply.ply, reply.move, "computer", note, position.result)
        return self._state(self.store.load(game_id), position, reply)

    def get(self, game_id: str) -> GameState:
        """The game ``game_id`` as it stands. Raises :class:`~inarow.values.store.UnknownGameError`."""
        record = self.store.load(game_id)
        return self._state(record, _replay(record))

    def play(self, game_id: str, move: str | None, reply: bool = True, ply: int | None = None) -> GameState:
        """Play the person's ``move`` and, against the computer, its reply (unless ``reply`` is False).

        With ``move`` None the computer plays the move it owes: its reply after a person's move played
        with ``reply=False``, or the next move of a computer-against-computer game. ``ply`` is the number
        the move was meant to have (the moves played so far plus one): a move sent twice, or from a page
        that missed a move, raises :class:`StaleMoveError` and changes nothing.

        The computer's move is chosen within the think time counted from now: what it waited for the
        game's lock or for a free worker is taken off its search time.
        """
        asked = time.time()
        with self._lock(game_id):
            record = self.store.load(game_id)
            position = _replay(record)
            if ply is not None and ply != position.ply + 1:
                stale = (
                    N_(
                        "the computer's move was sent for ply {ply} of game {game_id!r}, which is at ply "
                        "{now} now: reload the game"
                    )
                    if move is None
                    else N_(
                        "move {move!r} was sent for ply {ply} of game {game_id!r}, which is at ply {now} "
                        "now: reload the game"
                    )
                )
                raise StaleMoveError(
                    stale,
                    reason=N_("the game has moved on: reload the game"),
                    move=move,
                    ply=ply,
                    game_id=game_id,
                    now=position.ply + 1,
                )
            waiting = _waiting_for(record, position)
            if move is None:
                if waiting != "computer":
                    if position.is_over:
                        raise SessionError(
                            N_("game {game_id!r} is over: {reason}"),
                            game_id=game_id,
                            reason=N_("the computer has no move to play"),
                        )
                    raise SessionError(
                        N_("it is not the computer's move in game {game_id!r}: {reason}"),
                        game_id=game_id,
                        reason=N_("send a move"),
                    )
                after, owed, note = self._computer_choice(record, position, asked)
                self.store.add_move(game_id, owed.ply, owed.move, "computer", note, after.result)
                return self._state(self.store.load(game_id), after, owed)
            if waiting == "computer":
                raise SessionError(
                    N_("illegal move {move!r} in game {game_id!r}: {reason}"),
                    move=move,
                    game_id=game_id,
                    reason=N_("it is the computer's move, not yours"),
                )
            bit = position.move_bit(move)
            name, after = position.game.cell_name(bit), position.play(bit)
            if not (reply and record.mode == "computer" and not after.is_over):
                self.store.add_move(game_id, position.ply + 1, name, "human", "", after.result)
                return self._state(self.store.load(game_id), after)
            # The move and the reply are stored together: a reply that fails (busy, the client gone)
            # leaves nothing stored, so the same move sent again is played, not refused as stale.
            final, played, note = self._computer_choice(record, after, asked)
            moves: list[tuple[str, By, str]] = [(name, "human", ""), (played.move, "computer", note)]
            self.store.add_moves(game_id, after.ply, moves, final.result)
            return self._state(self.store.load(game_id), final, played)

    def undo(self, game_id: str, ply: int | None = None) -> GameState:
        """Take back the person's last move and every move after it (the computer's reply).

        With two people, or computer against computer, take back the last move. ``ply`` is what the
        asker saw, as for a move: the moves played so far plus one. An Undo sent for a game that has moved
        on (a second Undo of the same click, a page that missed a move) raises :class:`StaleMoveError` and
        takes nothing back. Raises :class:`SessionError` when there is nothing to take back.
        """
        with self._lock(game_id):
            record = self.store.load(game_id)
            if ply is not None and ply != len(record.moves) + 1:
                raise StaleMoveError(
                    N_(
                        "the undo was sent for ply {ply} of game {game_id!r}, which is at ply {now} now: "
                        "reload the game"
                    ),
                    reason=N_("the game has moved on: reload the game"),
                    ply=ply,
                    game_id=game_id,
                    now=len(record.moves) + 1,
                )
            if record.mode == "computer":
                human = [m.ply for m in record.moves if m.by == "human"]
                if not human:
                    raise SessionError(
                        N_("nothing to undo in game {game_id!r}: {reason}"),
                        game_id=game_id,
                        reason=N_("you have not moved yet"),
                    )
                start = human[-1]
            else:
                if not record.moves:
                    raise SessionError(
                        N_("nothing to undo in game {game_id!r}: {reason}"),
                        game_id=game_id,
                        reason=N_("no move has been played"),
                    )
                start = record.moves[-1].ply
            kept = parse_moves([m.move for m in record.moves[: start - 1]], record.game)
            self.store.remove_moves(game_id, start, kept.result)
            return self._state(self.store.load(game_id), kept)

    def review(self, game_id: str) -> Review:
        """Every move of the game judged by the analysis of the position before it, mistakes marked.

        Each move gets at most the think time and the whole review :attr:`REVIEW_TIME` seconds; moves
        beyond it are left unreviewed (``reviewed`` false) and the review's ``complete`` is false."""
        record = self.store.load(game_id)
        start = Position.start(Game.parse(record.game))
        moves = [(m.move, m.by) for m in record.moves]
        seconds = min(self.think_time, max(0.05, self.REVIEW_TIME / max(1, len(moves))))
        positions = [start]
        for move, _ in moves[:-1]:
            positions.append(positions[-1].play(move))
        plies = self._remembering(
            self.teach_pool,
            self.REVIEW_TIME + self.think_time,
            positions,
            review_moves,
            start,
            moves,
            seconds,
            self.REVIEW_TIME,
        )
        return Review(
            game=self._state(record, _replay(record)),
            plies=plies,
            mistakes=sum(p.mistake for p in plies),
            complete=all(p.reviewed for p in plies),
        )

    def analyze(self, position: Position, depth: int | None = None, seconds: float | None = None) -> Analysis:
        """:func:`inarow.engines.policy.analyze` of ``position`` (a hint, an analysis), searching at most
        :attr:`think_time` seconds, on the teaching pool (a read never waits in the players' queue).
        Raises :class:`~inarow.base.errors.ServerBusyError` when too many teaching searches wait."""
        limit = self.think_time if seconds is None else min(seconds, self.think_time)
        limits = Limits(depth=depth, time=limit)
        pool = self._inline if position.game.cells <= self.INLINE_CELLS else self.teach_pool
        return self._remembering(pool, self._backstop, [position], analyze_position, position, limits)

    def history(self, limit: int = 50, offset: int = 0) -> History:
        """The games played, most recently played first, with the person's score per kind of game."""
        games = [
            GameSummary(
                id=r.id,
                game=r.game,
                mode=r.mode,
                level=r.level,
                players=_players(r),
                you=r.human,
                symbols=_symbols(r),
                plies=plies,
                result=r.result,
                outcome=_outcome(r, r.result),
                created=r.created,
                updated=r.updated,
            )
            for r, plies in self.store.games(limit, offset)
        ]
        return History(total=self.store.count(), games=games, scores=self.store.scores())

    def search(self, task: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run ``task`` (a teaching search, given and answering in values) on the teaching pool, stopped
        after the think time (and a moment to answer), and wait for its answer. Raises
        :class:`~inarow.base.errors.ServerBusyError` when too many wait,
        :class:`~inarow.base.errors.StoppedError`
        when the time ran out before there was an answer."""
        return self.teach_pool.run(self.think_time + 0.25, task, *args, **kwargs)

    # ------------------------------------------------------------------------------- helpers
    def _pool_for(self, game: Game) -> SearchPool:
        return self._inline if game.cells <= self.INLINE_CELLS else self.play_pool

    def _solve(
        self, position: Position, task: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs
    ) -> _T:
        """Run ``task`` (the computer's move in ``position``) on the play pool, answering from the
        solutions the store remembers for the positions that follow, and keep the new ones it found."""
        return self._remembering(
            self._pool_for(position.game), self._backstop, [position], task, *args, **kwargs
        )

    def _remembering(
        self,
        pool: SearchPool,
        seconds: float,
        positions: Sequence[Position],
        task: Callable[_P, _T],
        /,
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> _T:
        """Run ``task`` (searches of ``positions``, all of one game) on ``pool`` for at most ``seconds``,
        answering from the solutions the store remembers for the positions that follow them, and keep
        the new ones it found. Boards solved in the server's own process (3×3) are not kept."""
        game = positions[0].game
        if game.cells <= self.INLINE_CELLS or not keyable(game):
            return pool.run(seconds, task, *args, **kwargs)
        keys = sorted({key for position in positions for key in recall.neighbourhood(position)})
        known = self.store.solutions(game.name, keys)
        result, learned = pool.run(
            seconds, remembering, game, known, self.remember_min_nodes, task, *args, **kwargs
        )
        self.store.remember(game.name, learned)
        return result

    def _computer_choice(
        self, record: GameRecord, position: Position, asked: float
    ) -> tuple[Position, PlayedMove, str]:
        """The computer's move in ``position`` of the game ``record``, chosen within the think time
        counted from ``asked`` (``time.time()`` when the request came): the position after it, the move,
        and its note as stored. The caller stores it."""
        ply = position.ply + 1
        name = _players(record)[position.turn]
        move, note = self._solve(
            position, choose_move, position, name, self.think_time, f"{record.seed}:{ply}", asked
        )
        bit = position.move_bit(move)
        after = position.play(bit)
        played = PlayedMove(
            ply=ply,
            move=move,
            cell=position.game.square_name(bit),
            side=position.turn,
            by="computer",
            note=note,
        )
        return after, played, note.stored()

    def _state(self, record: GameRecord, position: Position, reply: PlayedMove | None = None) -> GameState:
        game = position.game
        moves, bits, current = [], [], Position.start(game)
        for m in record.moves:
            bit = current.move_bit(m.move)
            cell = game.square_name(bit)
            moves.append(
                PlayedMove(
                    ply=m.ply, move=m.move, cell=cell, side=current.turn, by=m.by, note=read_note(m.note)
                )
            )
            bits.append(bit)
            current = current.play(bit)
        if record.mode != "computer":
            first_mover: str = game.first
        else:
            first_mover = "you" if record.human == game.first else "computer"
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
            forbidden={game.square_name(bit): why for bit, why in sorted(position.forbidden.items())},
        )


class _GameLock:
    """The lock of one game, kept only while someone holds or waits for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> _GameLock:
        self._lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def _check_player(field: str, name: str, game: Game) -> str:
    """The normalised name of player ``name``, if it exists and its search is small enough for ``game``."""
    chosen = player(name)
    if isinstance(chosen, SearchPlayer):
        size = _tree_size(game, chosen.depth)
        if size * game.cells > MAX_PLAYER_WORK:
            raise SessionError(
                N_(
                    "invalid {field} {name!r}: a {depth}-ply {algorithm} search on {game} could visit"
                    " {size:,} positions a move, too many to wait for: choose a smaller depth"
                ),
                field=field,
                name=name,
                depth=chosen.depth,
                algorithm=chosen.algorithm,
                game=game.name,
                size=size,
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
        raise SessionError(
            N_("invalid {name} {value!r}: expected one of {known}"),
            name=name,
            value=value,
            known=", ".join(choices),
        )


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
