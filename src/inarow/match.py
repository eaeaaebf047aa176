"""Computer against computer: single games, matches of many games with the score and a 95% interval, and
the step-by-step moves a web page needs to let two players play each other on its board.

Every game of a match gets its own random generator seeded from the match seed and the game's number, so
one game of a match replays on its own (:func:`game_seed`). A match without a seed draws one and reports
it, so it can be replayed too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from typing_extensions import TypedDict

from inarow.errors import IllegalMoveError, InvalidMatchError
from inarow.i18n import N_
from inarow.notation import format_moves
from inarow.players import Player
from inarow.rules import Game, Position, Result, Side

MAX_GAMES = 100_000
"""The most games one match may have."""

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution, for 95% intervals."""


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` (from 0) of a match seeded ``seed``."""
    return seed * 1_000_003 + number


class MatchGameJSON(TypedDict):
    """One game of :class:`MatchJSON`."""

    x: str
    o: str
    moves: str
    result: Result
    seed: int


@dataclass(frozen=True, kw_only=True)
class MatchGame:
    """One finished game of a match: who played X and O, the moves (cell bits), the result (``x``, ``o``
    or ``draw``) and the seed it replays from."""

    x: str
    o: str
    moves: tuple[int, ...]
    result: Result
    seed: int

    def to_json(self, game: Game) -> MatchGameJSON:
        """The game with its moves as a move list of ``game`` (:func:`inarow.notation.format_moves`)."""
        return {
            "x": self.x,
            "o": self.o,
            "moves": format_moves(game, self.moves),
            "result": self.result,
            "seed": self.seed,
        }


def play_game(
    game: Game,
    x: Player,
    o: Player,
    rng: random.Random,
    start: Position | None = None,
    on_move: Callable[[Position, str, str], None] | None = None,
) -> tuple[Position, tuple[int, ...]]:
    """Play ``x`` against ``o`` from ``start`` (the empty board) to the end; returns the final position and
    the moves played (cell bits). ``on_move(position before, move, note)`` is called after each choice."""
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
    """``inarow match --json``: the players by name, the seed, the results of each, and every game."""

    game: str
    players: list[str]
    seed: int
    swap: bool
    results: list[TallyJSON]
    games: list[MatchGameJSON]


@dataclass(frozen=True, kw_only=True)
class MatchResult:
    """A match between two players named ``first`` and ``second`` (``first`` plays X in game 0)."""

    game: Game
    first: str
    second: str
    seed: int
    swap: bool
    games: tuple[MatchGame, ...]

    def tally(self, which: int) -> Tally:
        """The results of ``first`` (``which`` 0) or ``second`` (1)."""
        wins = draws = losses = 0
        for number, record in enumerate(self.games):
            plays_x = (which == 0) != (self.swap and number % 2 == 1)
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
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of ``first`` against ``second`` (see :func:`inarow.players.player`). ``first``
    plays X in every game, or with ``swap`` in every other one, starting with game 0. ``progress(done,
    total)`` is called after each game.

    Raises :class:`InvalidMatchError` for a number of games out of range.
    """
    check_games(games)
    players = (first, second)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    records = []
    for number in range(games):
        a, b = players if not (swap and number % 2 == 1) else players[::-1]
        rng = random.Random(game_seed(seed, number))
        final, moves = play_game(game, a, b, rng)
        assert final.result is not None
        records.append(
            MatchGame(x=a.name, o=b.name, moves=moves, result=final.result, seed=game_seed(seed, number))
        )
        if progress is not None:
            progress(number + 1, games)
    return MatchResult(
        game=game, first=first.name, second=second.name, seed=seed, swap=swap, games=tuple(records)
    )


class StepJSON(TypedDict):
    """One move of a computer-against-computer game shown move by move."""

    player: str
    side: Side
    move: str
    note: str
    position: str
    result: Result | None


@dataclass(frozen=True, kw_only=True)
class Step:
    """The move ``player`` chose for ``side`` with its ``note``, and the position it leads to."""

    player: str
    side: Side
    move: str
    note: str
    after: Position

    def to_json(self) -> StepJSON:
        """The step with ``position`` the diagram after the move and ``result`` x, o, draw or null."""
        return {
            "player": self.player,
            "side": self.side,
            "move": self.move,
            "note": self.note,
            "position": self.after.diagram(),
            "result": self.after.result,
        }


def next_move(position: Position, mover: Player, seed: int | None = None) -> Step:
    """The move ``mover`` chooses in ``position``, for a page that shows two players playing each other one
    move at a time ("Watch").

    Raises :class:`~inarow.errors.IllegalMoveError` at a finished position.
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
