"""What an opening book of Connect Four costs: positions per ply and CPU time per solve, extrapolated.

A book to N plies solves every position of ply N exactly (one per mirror pair) and backs the scores up,
which costs next to nothing; so its cost is (positions at ply N) × (mean CPU time of one solve at ply N).
For each ply asked, this script counts the positions (by enumerating them, one per mirror pair, with the
build's own code) and solves a random sample of them, each with a fresh table (a build keeps one table per
worker across neighbouring positions, which can only help), timing the CPU time of the solve alone
(thread time: the machine's other work does not count). It prints the mean, the median and the
extrapolation in CPU hours. Plies past ``--count-up-to`` are sampled from the leaf book of that ply when one
is installed (``inarow book import bitbully``: the 4,200,899 positions of 12 stones that need a search,
uniform), else by random play (not uniform over positions, and their count is left out).

    python bench/book.py                         # plies 6 8 10, 12 positions each
    python bench/book.py --plies 8 10 12 --sample 30
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from inarow.engines.books import recall
from inarow.engines.books.build import levels
from inarow.engines.books.keys import position_of
from inarow.engines.exact.compiled import CompiledEngine
from inarow.engines.limits import Budget
from inarow.engines.policy import load_engine
from inarow.rules.game import Game, Position


def random_position(game: Game, plies: int, rng: random.Random) -> Position:
    """A position of ``plies`` stones whose game goes on, by random play (retried until one is)."""
    while True:
        position = Position.start(game)
        for _ in range(plies):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_bits()))
        if not position.is_over and position.ply == plies:
            return position


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plies", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--sample", type=int, default=12, help="positions solved per ply")
    parser.add_argument("--count-up-to", type=int, default=10, help="enumerate the plies up to this one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = Game.parse("connect4")
    load_engine()
    rng = random.Random(args.seed)
    counted = levels(game, min(args.count_up_to, max(args.plies)))
    heads = ("positions", 10), ("sample", 6), ("mean s", 8), ("median s", 9), ("max s", 8), ("CPU hours", 10)
    print(f"{'ply':>4} " + " ".join(f"{name:>{width}}" for name, width in heads))
    leaf = recall.leaf_book(game)
    for ply in args.plies:
        count: int | None
        if leaf is not None and ply == leaf.plies == leaf.first and ply >= len(counted):
            count = len(leaf)
            chosen = rng.sample(range(count), min(args.sample, count))
            sample = [position_of(game, int(leaf.keys[i])) for i in chosen]
        elif ply < len(counted):
            count = len(counted[ply])
            sample = [
                position_of(game, v) for v in rng.sample(counted[ply], min(args.sample, len(counted[ply])))
            ]
        else:
            count = None
            sample = [random_position(game, ply, rng) for _ in range(args.sample)]
        seconds = []
        for position in sample:
            engine = CompiledEngine(game, Budget(), fresh=True)
            start = time.thread_time()
            engine.solve(*position.sides())
            seconds.append(time.thread_time() - start)
        mean = statistics.fmean(seconds)
        hours = "" if count is None else f"{count * mean / 3600:,.1f}"
        shown = "" if count is None else f"{count:,}"
        print(
            f"{ply:>4} {shown:>10} {len(seconds):>6} {mean:>8.3f} {statistics.median(seconds):>9.3f} "
            f"{max(seconds):>8.2f} {hours:>10}",
            flush=True,
        )


if __name__ == "__main__":
    main()
