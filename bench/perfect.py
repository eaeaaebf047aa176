"""What a move of level ``perfect`` costs on Connect Four, in one process, against a random opponent.

Plays ``--games`` games (the computer first in even games, second in odd ones) on one process's kept table,
as a server's worker would, timing each computer move in CPU time (``time.thread_time`` around
``Level.choose``) and sorting it by where it came from: ``no search`` (an exact answer without a search:
the strategy book, the opening book, or a stone that wins at once), ``weak`` (proven by weak searches),
``strong`` (the exact analysis), ``not exact`` (the think time ran out). Prints the results of the games,
the counts, the mean CPU time, and the mean and slowest by ply.

    python bench/perfect.py                          # 40 games, the shipped books
    INAROW_BOOK=c4-10.strategy python bench/perfect.py --games 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from inarow.protocols.pbrain import player
from inarow.rules.game import Game, Position


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--think-time", type=float, default=2.0)
    args = parser.parse_args()
    game = Game.parse("connect4")
    rng = random.Random(args.seed)
    perfect = player("perfect", args.think_time)
    moves: list[tuple[int, float, str]] = []
    results = {"win": 0, "draw": 0, "loss": 0}
    for number in range(args.games):
        position = Position.start(game)
        computer = game.first if number % 2 == 0 else ("o" if game.first == "x" else "x")
        while not position.is_over:
            if position.turn != computer:
                position = position.play(rng.choice(position.legal_bits()))
                continue
            start = time.thread_time()
            choice = perfect.choose(position, rng)
            seconds = time.thread_time() - start
            found = choice.analysis
            assert found is not None
            if not found.exact:
                kind = "not exact"
            elif found.nodes == 0:
                kind = "no search"
            else:
                kind = "weak" if found.plies is None else "strong"
            moves.append((position.ply, seconds, kind))
            position = position.play(position.move_bit(choice.move))
        results["draw" if position.winner is None else "win" if position.winner == computer else "loss"] += 1
    kinds: dict[str, int] = {}
    for _, _, kind in moves:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"games: {results['win']} won, {results['draw']} drawn, {results['loss']} lost")
    print(
        f"computer moves: {len(moves)}, "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    )
    print(f"CPU a move: mean {statistics.mean(s for _, s, _ in moves) * 1000:.1f} ms")
    print(f"{'ply':>4} {'moves':>6} {'mean ms':>8} {'max ms':>8}")
    for ply in sorted({p for p, _, _ in moves}):
        times = [s for p, s, _ in moves if p == ply]
        print(f"{ply:>4} {len(times):>6} {statistics.mean(times) * 1000:>8.1f} {max(times) * 1000:>8.1f}")


if __name__ == "__main__":
    main()
