"""Each level against the one below on Gomoku, and a Connect Four match, from balanced openings: the strength
matches that used to run inside the tests (their outcome depends on the machine's speed when the levels
think by the clock, so they are measured here, not asserted there).

    python bench/levels.py                           # 0.1 s a move, as the tests played them
    python bench/levels.py --time 1 --openings 10    # longer, more games
    python bench/levels.py --nodes 20000             # node-limited levels: the same games on any machine

Every pair plays each opening twice, colours swapped (``inarow match A B --openings N``), and the table
gives the first player's points, its score and the 95% Wilson interval of its score over the distinct
games, and the wall-clock seconds the match took.
"""

from __future__ import annotations

import argparse
import time

from inarow.play.match import play_match
from inarow.play.openings import balanced_openings
from inarow.play.players import player
from inarow.rules.game import Game

PAIRS = (
    ("gomoku", "perfect", "hard", 5),
    ("gomoku", "hard", "medium", 3),
    ("gomoku", "medium", "easy", 5),
    ("connect4", "rules", "random", 1),
)
"""The board, the two players and the openings' seed of each match."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--openings", type=int, default=5, help="openings per match (two games each)")
    parser.add_argument("--time", type=float, default=0.1, help="think time per move of the levels, s")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per move instead of a think time")
    args = parser.parse_args()
    print("| game | first | second | points | score | 95% interval | seconds |")
    print("|---|---|---|---|---|---|---|")
    for name, first, second, seed in PAIRS:
        game = Game.parse(name)
        openings = balanced_openings(game, args.openings, seed=seed)
        start = time.perf_counter()
        result = play_match(
            game,
            player(first, args.time, args.nodes),
            player(second, args.time, args.nodes),
            seed=seed,
            openings=openings,
        )
        seconds = time.perf_counter() - start
        tally = result.tallies()[0]
        low, high = tally.score_interval
        points = tally.wins + tally.draws / 2
        print(
            f"| {name} | {first} | {second} | {points:g} of {tally.games} | {tally.score:.3f} | "
            f"{low:.3f}–{high:.3f} | {seconds:.1f} |"
        )


if __name__ == "__main__":
    main()
