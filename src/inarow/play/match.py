"""Computer against computer: single games, matches of many games with the score and a 95% interval, and
the step-by-step moves a web page needs to let two players play each other on its board.

Every game of a match gets its own random generator seeded from the match seed and the game's number, so
one game of a match replays on its own (:func:`game_seed`). A match without a seed draws one and reports
it, so it can be replayed too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from typing_extensions import TypedDict

from inarow.base.errors import IllegalMoveError, InvalidMatchError
from inarow.base.i18n import N_
from inarow.play import swap2
from inarow.play.openings import Opening
from inarow.play.players import Player
from inarow.rules.game import Game, Position, Result, Side
from inarow.rules.notation import format_moves
from inarow.values.answers import MoveNote

MAX_GAMES = 100_000
"""The most games one match may have."""

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution, for 95% intervals."""


def new_seed() -> int:
    """A seed for a match that was given none (it is reported, so the match replays)."""
    return random.SystemRandom().randrange(2**31)


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` (from 0) of a match seeded ``seed``."""
    return seed * 1_000_003 + number


class MatchGameJSON(TypedDict):
    """One game of :class:`MatchJSON`."""

    x: str
    o: str
    moves: str
    opening: int
    result: Result
    seed: int


@dataclass(frozen=True, kw_only=True)
class MatchGame:
    """One finished game of a match: who played X and O, the moves (cell bits) from the empty board, the
    first ``opening`` of which were the opening's, the result (``x``, ``o`` or ``draw``) and the seed it
    replays from."""

    x: str
    o: str
    moves: tuple[int, ...]
    result: Result
    seed: int
    opening: int = 0
    first: Side | None = None
    """The side the match's first player took, where the opening rule decided it (swap2)."""

    @property
    def key(self) -> tuple[str, str, tuple[int, ...]]:
        """What makes two games the same game: the players on each side and the moves."""
        return (self.x, self.o, self.moves)

    def to_json(self, game: Game) -> MatchGameJSON:
        """The game with its moves as a move list of ``game`` (:func:`inarow.rules.notation.format_moves`)."""
        return {
            "x": self.x,
            "o": self.o,
            "moves": format_moves(game, self.moves),
            "opening": self.opening,
            "result": self.result,
            "seed": self.seed,
        }


def play_game(
    game: Game,
    x: Player,
    o: Player,
    rng: random.Random,
    start: Position | None = None,
    on_move: Callable[[Position, str, MoveNote], None] | None = None,
) -> tuple[Position, tuple[int, ...]]:
    """Play ``x`` against ``o`` from ``start`` (the empty board) to the end; returns the final position and
    the moves played from ``start`` (cell bits). ``on_move(position before, move, note)`` is called after
    each choice."""
    position = start if start is not None else Position.start(game)
    moves: list[int] = []
    while not position.is_over:
        mover = x if position.turn == "x" else o
        choice = mover.choose(position, rng)
        if on_move is not None:
            on_move(position, choice.move, choice.note)
        moves.append(position.move_bit(choice.move))
        position = position.play(moves[-1])
    return position, tuple(moves)


class TallyJSON(TypedDict):
    """One player's results in :class:`MatchJSON`; the intervals are ``[low, high]``."""

    player: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    score_interval: list[float]
    win_rate_interval: list[float]


@dataclass(frozen=True, kw_only=True)
class Tally:
    """One player's results over a match, with 95% Wilson intervals for its win rate and for its score
    (a win 1, a draw ½, a loss 0, averaged over the games)."""

    player: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def score_interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws / 2, self.games)

    def to_json(self) -> TallyJSON:
        """The results, the score and both intervals rounded to 4 places."""
        return {
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "score_interval": [round(v, 4) for v in self.score_interval],
            "win_rate_interval": [round(v, 4) for v in self.win_interval],
        }


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional, for a score with
    draws as halves); (0, 1) when there are no trials. Unlike the normal approximation it stays inside
    [0, 1] and is not empty when every game went the same way."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


class MatchJSON(TypedDict):
    """``inarow match --json``: the players by name, the seed, the openings, the results of each over the
    distinct games, how many games were played and how many of them were distinct, and every game."""

    game: str
    players: list[str]
    seed: int
    swap: bool
    opening_rule: str | None
    openings: list[str]
    played: int
    distinct: int
    results: list[TallyJSON]
    games: list[MatchGameJSON]


@dataclass(frozen=True, kw_only=True)
class MatchResult:
    """A match between two players named ``first`` and ``second`` (``first`` plays X in game 0).

    The results count each distinct game once (:attr:`MatchGame.key`): deterministic players that meet
    again from the same start play the same game again, which says nothing more about them, so the
    intervals are over the distinct games only. With openings, games ``2i`` and ``2i + 1`` start from
    opening ``i``, colours swapped. With the ``swap2`` opening rule the players take turns as opener and
    each game's opening decides the colours.
    """

    game: Game
    first: str
    second: str
    seed: int
    swap: bool
    games: tuple[MatchGame, ...]
    openings: tuple[Opening, ...] = ()
    opening_rule: str | None = None

    def distinct(self) -> list[int]:
        """The numbers of the games that are not a repeat of an earlier one."""
        seen: set[tuple[str, str, tuple[int, ...]]] = set()
        numbers = []
        for number, record in enumerate(self.games):
            if record.key not in seen:
                seen.add(record.key)
                numbers.append(number)
        return numbers

    def tally(self, which: int) -> Tally:
        """The results of ``first`` (``which`` 0) or ``second`` (1) over the distinct games."""
        wins = draws = losses = 0
        for number in self.distinct():
            record = self.games[number]
            first_x = record.first == "x" if record.first is not None else not (self.swap and number % 2 == 1)
            plays_x = (which == 0) == first_x
            side: Side = "x" if plays_x else "o"
            if record.result == "draw":
                draws += 1
            elif record.result == side:
                wins += 1
            else:
                losses += 1
        return Tally(player=self.second if which else self.first, wins=wins, draws=draws, losses=losses)

    def tallies(self) -> tuple[Tally, Tally]:
        return self.tally(0), self.tally(1)

    def to_json(self) -> MatchJSON:
        """The match: both tallies and every game."""
        return {
            "game": self.game.name,
            "players": [self.first, self.second],
            "seed": self.seed,
            "swap": self.swap,
            "opening_rule": self.opening_rule,
            "openings": [format_moves(self.game, opening) for opening in self.openings],
            "played": len(self.games),
            "distinct": len(self.distinct()),
            "results": [tally.to_json() for tally in self.tallies()],
            "games": [record.to_json(self.game) for record in self.games],
        }


def check_games(games: int) -> None:
    """Raise :class:`InvalidMatchError` unless a match may have ``games`` games."""
    if not 1 <= games <= MAX_GAMES:
        raise InvalidMatchError(
            N_("invalid number of games {games!r}: expected 1 to {limit:,}"),
            games=games,
            limit=MAX_GAMES,
        )


def play_match(
    game: Game,
    first: Player,
    second: Player,
    games: int = 10,
    *,
    swap: bool = False,
    seed: int | None = None,
    openings: Sequence[Opening] = (),
    opening_rule: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of ``first`` against ``second`` (see :func:`inarow.play.players.player`).
    ``first`` plays X in every game, or with ``swap`` in every other one, starting with game 0. With
    ``openings`` (see :mod:`inarow.play.openings`) each is played twice, colours swapped, and ``games`` and
    ``swap`` are ignored: games ``2i`` and ``2i + 1`` start from opening ``i``. With ``opening_rule="swap2"``
    (:mod:`inarow.play.swap2`) ``first`` opens the even games and ``second`` the odd ones, and each game's
    opening decides the colours. ``progress(done, total)`` is called after each game.

    Raises :class:`InvalidMatchError` for a number of games out of range, an opening rule other than
    swap2, with openings, or with a player that cannot play it.
    """
    if opening_rule is not None:
        if opening_rule != "swap2":
            raise InvalidMatchError(N_("unknown opening rule {rule!r}: expected swap2"), rule=opening_rule)
        if openings:
            raise InvalidMatchError(N_("openings and the swap2 opening rule do not go together"))
        if not swap2.plays(game):
            raise InvalidMatchError(
                N_("swap2 is an opening rule of Gomoku without Renju's rules: not of {game}"), game=game.name
            )
        negotiators = (swap2.negotiator(first), swap2.negotiator(second))
    if openings:
        games, swap = 2 * len(openings), True
    check_games(games)
    players = (first, second)
    if seed is None:
        seed = new_seed()
    records = []
    for number in range(games):
        a, b = players if not (swap and number % 2 == 1) else players[::-1]
        rng = random.Random(game_seed(seed, number))
        opening = tuple(openings[number // 2]) if openings else ()
        first_side: Side | None = None
        if opening_rule is not None:
            opener, responder = negotiators if number % 2 == 0 else negotiators[::-1]
            opening, opener_black = swap2.opening(game, opener, responder, rng)
            first_side = "x" if opener_black == (number % 2 == 0) else "o"
            a, b = players if first_side == "x" else players[::-1]
        start = Position.start(game)
        for bit in opening:
            start = start.play(bit)
        final, moves = play_game(game, a, b, rng, start)
        assert final.result is not None
        records.append(
            MatchGame(
                x=a.name,
                o=b.name,
                moves=opening + moves,
                result=final.result,
                seed=game_seed(seed, number),
                opening=len(opening),
                first=first_side,
            )
        )
        if progress is not None:
            progress(number + 1, games)
    return MatchResult(
        game=game,
        first=first.name,
        second=second.name,
        seed=seed,
        swap=swap,
        games=tuple(records),
        openings=tuple(tuple(opening) for opening in openings),
        opening_rule=opening_rule,
    )


class StepJSON(TypedDict):
    """One move of a computer-against-computer game shown move by move."""

    player: str
    side: Side
    move: str
    note: dict[str, str | int | bool]
    position: str
    result: Result | None


@dataclass(frozen=True, kw_only=True)
class Step:
    """The move ``player`` chose for ``side`` with its ``note``, and the position it leads to."""

    player: str
    side: Side
    move: str
    note: MoveNote
    after: Position

    def to_json(self) -> StepJSON:
        """The step with ``position`` the diagram after the move and ``result`` x, o, draw or null."""
        return {
            "player": self.player,
            "side": self.side,
            "move": self.move,
            "note": self.note.fields(),
            "position": self.after.diagram(),
            "result": self.after.result,
        }


def next_move(position: Position, mover: Player, seed: int | None = None) -> Step:
    """The move ``mover`` chooses in ``position``, for a page that shows two players playing each other one
    move at a time ("Watch").

    Raises :class:`~inarow.base.errors.IllegalMoveError` at a finished position.
    """
    if position.is_over:
        raise IllegalMoveError(
            N_("no move in {position!r}: the game is over ({result})"),
            position=position.diagram(),
            result=position.result,
        )
    choice = mover.choose(position, random.Random(seed))
    return Step(
        player=mover.name,
        side=position.turn,
        move=choice.move,
        note=choice.note,
        after=position.play(choice.move),
    )
