"""Gomoku matches: each level against the one below it, against the threat-based reference player, and
against any Gomocup engine over the protocol.

    .venv/bin/python bench/gomoku.py [--games 10] [--time 1.0] [--game gomoku] [--jobs 1] [--seed 1]
                                     [--pairing perfect:hard ...] [--engine PATH] [--verbose]

With ``--engine PATH`` (a ``pbrain`` engine such as Rapfi's ``pbrain-rapfi``) the pairings are the
ladder: ``perfect`` against the engine limited to 2,000, 20,000, 100,000 and 200,000 nodes a move
(``INFO MAX_NODE``, no turn limit), then to ``--time`` seconds a move (``INFO timeout_turn``). A
pairing's second player may be any player name, ``pbrain:PATH[:nodes=N][:time=S]`` included (see
:mod:`inarow.protocols.pbrain`).

Every pairing plays ``--games`` games on ``--game``, each player given ``--time`` seconds a move (``hard``
uses half of it, ``easy``, ``medium`` and ``threats`` need far less). The levels are deterministic, so
every pair of games starts from its own opening of ``--opening`` random stones in the central 5×5 square
(X, O, X, …; seeded), played once with each player as X: colours swapped, and no game twice. With
``--jobs`` > 1 the pairings are played in parallel processes (one pairing per process).
Prints a table per pairing as it ends, then all of them: wins, draws and losses of the stronger player,
its win rate and score with their 95% Wilson intervals, its points as X and as O, the mean game length, each
player's mean seconds a move (wall clock, the engine's process included) and the seconds taken.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import re
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from inarow.engines.gomoku import analyst, weights
from inarow.engines.gomoku.driver import warm_up
from inarow.engines.gomoku.search import DEFAULT_STYLE, Style
from inarow.engines.gomoku.weights import Tables
from inarow.engines.limits import Limits
from inarow.play.match import Tally, play_game
from inarow.play.players import Choice, Player
from inarow.protocols.pbrain import player
from inarow.rules.game import Game, Position
from inarow.values.answers import analysis_note

PAIRINGS = (
    ("medium", "easy"),
    ("hard", "medium"),
    ("perfect", "hard"),
    ("easy", "threats"),
    ("medium", "threats"),
    ("hard", "threats"),
    ("perfect", "threats"),
)
"""Each level against the one below it, then each level against the reference player."""

LADDER_NODES = (2_000, 20_000, 100_000, 200_000)
"""The node limits a move of the engine's ladder (``--engine``), before its rung at ``--time`` a move."""


def ladder(path: str) -> list[tuple[str, str]]:
    """``perfect`` against the engine at ``path`` at each of :data:`LADDER_NODES`, then at the think time."""
    rungs = [f"pbrain:{path}:nodes={nodes}:time=0" for nodes in LADDER_NODES]
    return [("perfect", rung) for rung in [*rungs, f"pbrain:{path}"]]


VARIANTS: dict[str, Style] = {
    "perfect-step1": replace(DEFAULT_STYLE, step=1),
    "perfect-width8": replace(DEFAULT_STYLE, width=8),
    "perfect-vcfleaf": replace(DEFAULT_STYLE, quiescence=False),
    "perfect-nolmr": replace(DEFAULT_STYLE, lmr=False),
    "perfect-lmr15": replace(DEFAULT_STYLE, lmr_divisor=1.5),
    "perfect-lmr25": replace(DEFAULT_STYLE, lmr_divisor=2.5),
    "perfect-width16": replace(DEFAULT_STYLE, width=16),
    "perfect-lmr125": replace(DEFAULT_STYLE, lmr_divisor=1.25),
    "perfect-lmr1": replace(DEFAULT_STYLE, lmr_divisor=1.0),
    "perfect-lmr075": replace(DEFAULT_STYLE, lmr_divisor=0.75),
    "perfect-noprune": replace(DEFAULT_STYLE, prune=0),
    "perfect-prune1": replace(DEFAULT_STYLE, prune=1),
    "perfect-prunemc": replace(DEFAULT_STYLE, prune_power=1.32),
}
"""Variants of ``perfect`` this script may play, to decide what the level should be (not players of the
package): each one :class:`Style` field or a few changed (the iterations' step, other widths, the short
VCF at the horizon, other reductions). The switches every level had off (the threat search inside the α-β
search, the Python α-β search, razoring and futility pruning, root reductions, the history heuristic,
wider replies and principal variation) were removed from the engine with their variants."""


NODES = re.compile(r"(perfect(?:-[a-z0-9]+)?)@([0-9]+)(?:\+(.+))?")
"""``perfect@N``: ``perfect`` with a budget of N nodes a move instead of the think time, so that its
strength does not depend on the machine's load (about 120,000 nodes are a second of the quiet machine);
``perfect@N+FILE``: and the evaluation's tables of ``FILE`` (see :mod:`inarow.engines.gomoku.weights`;
``bench/gomoku_fit.py --lines FILE`` writes the evaluation before the tables), for a side-by-side match
of two evaluations."""


@dataclass(frozen=True)
class Variant:
    """``perfect`` played with another :class:`Style`, the whole think time a move (or ``nodes`` a move)."""

    name: str
    think_time: float
    nodes: int | None = None
    tables: Tables | None = None

    def choose(self, position: Position, rng: random.Random) -> Choice:
        limits = Limits(nodes=self.nodes) if self.nodes else Limits(time=self.think_time)
        style = VARIANTS.get(self.name, DEFAULT_STYLE)
        analysis = analyst.analyze(position, limits, replace(style, tables=self.tables or style.tables))
        return Choice(move=analysis.best[0], note=analysis_note(analysis), analysis=analysis)


def contestant(name: str, think_time: float) -> Player:
    """A player of the package, one of :data:`VARIANTS`, or ``perfect@N[+FILE]`` (see :data:`NODES`)."""
    budget = NODES.fullmatch(name)
    if budget:
        tables = weights.read(Path(budget[3])) if budget[3] else None
        return Variant(budget[1], think_time, int(budget[2]), tables)
    return Variant(name, think_time) if name in VARIANTS else player(name, think_time)


@dataclass
class Timed:
    """A player whose moves are timed (wall clock): ``seconds`` over ``moves``."""

    player: Player
    seconds: float = 0.0
    moves: int = 0

    @property
    def name(self) -> str:
        return self.player.name

    def choose(self, position: Position, rng: random.Random) -> Choice:
        started = time.perf_counter()
        choice = self.player.choose(position, rng)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return choice

    @property
    def mean(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0


@dataclass(frozen=True)
class Row:
    second: str
    tally: Tally
    """The first player's results against ``second``."""
    plies: float
    seconds: float
    first_move: float = 0.0
    second_move: float = 0.0
    """Each player's mean seconds a move."""
    as_x: float = 0.0
    as_o: float = 0.0
    """The first player's points (a win 1, a draw ½) in its games as X (black) and as O (white), each
    ``games / 2``: the openings favour X, so the two halves say where a change gains."""

    def line(self) -> str:
        t = self.tally
        low, high = t.win_interval
        score_low, score_high = t.score_interval
        return (
            f"| {t.player} | {self.second} | {t.games} | {t.wins} | {t.draws} | {t.losses} "
            f"| {t.wins / t.games:.0%} ({low:.0%}–{high:.0%}) "
            f"| {t.score:.2f} ({score_low:.2f}–{score_high:.2f}) "
            f"| {self.as_x:g} / {self.as_o:g} of {t.games // 2} "
            f"| {self.plies:.0f} | {self.first_move:.3f} / {self.second_move:.3f} | {self.seconds:.0f} |"
        )


HEADER = (
    "| player | against | games | wins | draws | losses | win rate (95%) | score (95%) "
    "| points as X / as O | mean plies | s a move (player / against) | seconds |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def opening(game: Game, stones: int, rng: random.Random) -> Position:
    """``stones`` random stones, X first, in the central 5×5 square of ``game``, with nobody winning."""
    centre_column, centre_row = game.columns // 2, game.rows // 2
    cells = [
        game.bit(centre_column + dc, centre_row + dr)
        for dc in range(-2, 3)
        for dr in range(-2, 3)
        if 0 <= centre_column + dc < game.columns and 0 <= centre_row + dr < game.rows
    ]
    position = Position.start(game)
    for bit in rng.sample(cells, stones):
        position = position.play(bit)
    return position


def run(
    pairing: tuple[str, str], game_name: str, games: int, think: float, seed: int, stones: int, verbose: bool
) -> Row:
    """Play one pairing and return its row (with ``verbose``, a line per game on standard error)."""
    warm_up()  # compile or load the kernels before the first move is timed
    start = time.perf_counter()
    game = Game.parse(game_name)
    first, second = Timed(contestant(pairing[0], think)), Timed(contestant(pairing[1], think))
    wins = draws = losses = plies = 0
    points = {"x": 0.0, "o": 0.0}
    for number in range(games):
        start_position = opening(game, stones, random.Random(seed * 1_000_003 + number // 2))
        x, o = (first, second) if number % 2 == 0 else (second, first)
        final, moves = play_game(game, x, o, random.Random(seed * 1_000_003 + number), start=start_position)
        plies += stones + len(moves)
        side = "x" if number % 2 == 0 else "o"
        if final.result == "draw":
            draws += 1
            points[side] += 0.5
        elif final.result == side:
            wins += 1
            points[side] += 1
        else:
            losses += 1
        if verbose:
            print(
                f"{pairing[0]}:{pairing[1]} game {number + 1}/{games}: {pairing[0]} as {side}, "
                f"{'draw' if final.result == 'draw' else 'won' if final.result == side else 'lost'} "
                f"in {stones + len(moves)} plies; {wins}-{draws}-{losses}",
                file=sys.stderr,
                flush=True,
            )
    tally = Tally(player=pairing[0], wins=wins, draws=draws, losses=losses)
    seconds = time.perf_counter() - start
    row = Row(pairing[1], tally, plies / games, seconds, first.mean, second.mean, points["x"], points["o"])
    print(row.line(), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--game", default="gomoku")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=3, help="random stones each pair of games starts from")
    parser.add_argument(
        "--pairing",
        nargs="*",
        help="FIRST:SECOND pairings to play instead of all of them (levels, threats, or a variant: "
        + ", ".join(VARIANTS)
        + ")",
    )
    parser.add_argument("--engine", metavar="PATH", help="play the ladder against this Gomocup engine")
    parser.add_argument("--verbose", action="store_true", help="a line per game on standard error")
    args = parser.parse_args()
    pairings = [(p.split(":", 1)[0], p.split(":", 1)[-1]) for p in args.pairing or []]
    if args.engine:
        pairings += ladder(args.engine)
    pairings = pairings or list(PAIRINGS)
    print(
        f"{args.game}, {args.games} games a pairing from {args.games // 2} openings of {args.opening} "
        f"random stones, colours swapped, {args.time:g} s a move, seed {args.seed}"
    )
    print(HEADER, flush=True)
    settings = (args.game, args.games, args.time, args.seed, args.opening, args.verbose)
    jobs = [(pairing, *settings) for pairing in pairings]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rows = pool.starmap(run, jobs)
    else:
        rows = [run(*job) for job in jobs]
    print("\nAll pairings:")
    print(HEADER)
    for row in rows:
        print(row.line())


if __name__ == "__main__":
    main()
