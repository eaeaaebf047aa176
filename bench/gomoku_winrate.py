"""How well the Gomoku analysis's win rate (a logistic of the evaluation,
:func:`inarow.values.answers.winrate`)
predicts who wins: games of two levels from seeded balanced openings, each position after the opening
evaluated by the analysis the players use, and the side to move's score set against whether it won.

    .venv/bin/python bench/gomoku_winrate.py [--openings 10] [--seed 1] [--time 0.3] [--depth 2]
                                             [--players hard:hard]

Prints a table by evaluation band (positions, the mean win rate the logistic gives, the share the side to
move went on to win, with its 95% Wilson interval), then the scale that fits the games best by maximum
likelihood beside the one in use (:data:`inarow.values.answers.WINRATE_SCALE`). Proven positions (a five, a
VCF, a VCT) are left out: their win rate is exact.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

from inarow.engines.gomoku import analyst
from inarow.engines.limits import Limits
from inarow.play.match import play_match, wilson
from inarow.play.openings import balanced_openings
from inarow.protocols.pbrain import player
from inarow.rules.game import Game, Position
from inarow.values.answers import WINRATE_SCALE, winrate

BANDS = (-(10**9), -8000, -4000, -2000, -600, 600, 2000, 4000, 8000, 10**9)
"""The evaluation bands of the table, in the Gomoku engine's points, for the side to move."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time", type=float, default=0.3, help="think time of the players, seconds")
    parser.add_argument("--depth", type=int, default=2, help="α-β depth of the evaluation of each position")
    parser.add_argument("--players", default="hard:hard")
    args = parser.parse_args()
    game = Game.parse("gomoku")
    first, second = args.players.split(":")
    started = time.perf_counter()
    openings = balanced_openings(game, args.openings, args.seed)
    result = play_match(
        game, player(first, args.time), player(second, args.time), seed=args.seed, openings=openings
    )
    samples: list[tuple[int, bool]] = []
    for record in result.games:
        position = Position.start(game)
        for number, bit in enumerate(record.moves):
            if number >= record.opening and record.result != "draw":
                analysis = analyst.analyze(position, Limits(depth=args.depth))
                if not analysis.exact and analysis.score is not None:
                    samples.append((analysis.score, record.result == position.turn))
            position = position.play(bit)
    print(
        f"{len(result.games)} games of {first} against {second} ({args.openings} openings, seed {args.seed}, "
        f"{args.time} s a move), {len(samples)} positions evaluated at depth {args.depth}, "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(f"{'evaluation band':>22}  {'positions':>9}  {'logistic':>8}  {'won':>6}  {'95% interval':>15}")
    for low, high in itertools.pairwise(BANDS):
        band = [(score, won) for score, won in samples if low <= score < high]
        if not band:
            continue
        wins = sum(won for _, won in band)
        predicted = sum(winrate(score) for score, _ in band) / len(band)
        a, b = wilson(wins, len(band))
        shown = f"[{max(low, -9999):+d}, {min(high, 9999):+d})"
        print(f"{shown:>22}  {len(band):>9}  {predicted:>8.3f}  {wins / len(band):>6.3f}  {a:.3f} – {b:.3f}")
    best = max(range(100, 12001, 100), key=lambda scale: likelihood(samples, scale))
    print(
        f"scale in use {WINRATE_SCALE}: log-likelihood {likelihood(samples, WINRATE_SCALE):.1f}; "
        f"best fit {best}: {likelihood(samples, best):.1f}"
    )


def likelihood(samples: list[tuple[int, bool]], scale: float) -> float:
    """The log-likelihood of the outcomes under the logistic of ``scale`` (clipped away from 0 and 1)."""
    total = 0.0
    for score, won in samples:
        p = min(1 - 1e-6, max(1e-6, 1 / (1 + math.exp(-max(-50.0, min(50.0, score / scale))))))
        total += math.log(p if won else 1 - p)
    return total


if __name__ == "__main__":
    main()
