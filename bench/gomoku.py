"""Gomoku matches: each level against the one below it, and against the threat-based reference player.

    .venv/bin/python bench/gomoku.py [--games 10] [--time 1.0] [--game gomoku] [--jobs 1] [--seed 1]
                                     [--pairing perfect:hard ...]

Every pairing plays ``--games`` games on ``--game`` with colours swapped every other game, each player
given ``--time`` seconds a move (``hard`` uses half of it, ``easy``, ``medium`` and ``threats`` need
far less). With ``--jobs`` > 1 the pairings are played in parallel processes (one pairing per process).
Prints a table per pairing as it ends, then all of them: wins, draws and losses of the stronger player,
its win rate and score with their 95% Wilson intervals, the mean game length and the seconds taken.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import dataclass

from inarow.match import play_match, wilson
from inarow.players import player
from inarow.rules import Game

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


@dataclass(frozen=True)
class Row:
    first: str
    second: str
    wins: int
    draws: int
    losses: int
    plies: float
    seconds: float

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        score = (self.wins + self.draws / 2) / self.games
        score_low, score_high = wilson(self.wins + self.draws / 2, self.games)
        return (
            f"| {self.first} | {self.second} | {self.games} | {self.wins} | {self.draws} | {self.losses} "
            f"| {self.wins / self.games:.0%} ({low:.0%}–{high:.0%}) "
            f"| {score:.2f} ({score_low:.2f}–{score_high:.2f}) "
            f"| {self.plies:.0f} | {self.seconds:.0f} |"
        )


HEADER = (
    "| player | against | games | wins | draws | losses | win rate (95%) | score (95%) "
    "| mean plies | seconds |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def run(pairing: tuple[str, str], game_name: str, games: int, think: float, seed: int) -> Row:
    """Play one pairing and return its row."""
    start = time.perf_counter()
    first, second = pairing
    result = play_match(
        Game.parse(game_name), player(first, think), player(second, think), games, swap=True, seed=seed
    )
    tally = result.tally(0)
    plies = sum(len(record.moves) for record in result.games) / len(result.games)
    row = Row(first, second, tally.wins, tally.draws, tally.losses, plies, time.perf_counter() - start)
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
    parser.add_argument("--pairing", nargs="*", help="FIRST:SECOND pairings to play instead of all of them")
    args = parser.parse_args()
    pairings = [(p.split(":")[0], p.split(":")[-1]) for p in args.pairing] if args.pairing else list(PAIRINGS)
    print(
        f"{args.game}, {args.games} games a pairing, colours swapped, {args.time:g} s a move, "
        f"seed {args.seed}"
    )
    print(HEADER, flush=True)
    jobs = [(pairing, args.game, args.games, args.time, args.seed) for pairing in pairings]
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
