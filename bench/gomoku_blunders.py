"""Where inarow's Gomoku games against a strong engine are lost, in that engine's own eyes.

    .venv/bin/python bench/gomoku_blunders.py --engine PATH --seeds 171 180 [--nodes 20000]
        [--oracle-nodes 300000] [--times 1 10] [--plies 9]

``perfect`` plays the engine (a ``pbrain`` engine such as Rapfi's ``pbrain-rapfi``, limited to ``--nodes``
nodes a move) at 1 s a move from the openings of seeds ``A`` to ``B - 1`` (``bench/gomoku.py``'s, each with
both colours). For every game inarow lost, the engine at ``--oracle-nodes`` judges each position where inarow
moved, before and after its move: the *drop* is what the move cost in the engine's points (200 a logit, a
found win ±20,000). Then inarow's positions up to ply ``--plies`` of those games are searched again at each
think time of ``--times``, and the drops of the moves chosen are summed up: whether more time would have
chosen better. The first table has a row per lost game: the ply from which the engine saw a forced win,
and inarow's mean drop before it; the second a row per think time.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gomoku import opening  # bench/gomoku.py, beside this script
from gomoku_fit import Oracle
from gomoku_order import opening_moves
from inarow.engines.gomoku import analyst
from inarow.engines.gomoku.driver import warm_up
from inarow.engines.limits import Limits
from inarow.play.match import play_game
from inarow.protocols.pbrain import player
from inarow.rules.game import Game, Position

WON = 20_000
"""The oracle's points for a win it found."""

BAD = 300
"""A drop of more than this many of the oracle's points (1.5 logits) counts as a mistake."""


def lost_games(engine: str, seeds: range, nodes: int) -> list[tuple[int, str, list[str]]]:
    """The games ``perfect`` lost to the engine: seed, inarow's side (``x`` or ``o``) and the moves."""
    game = Game.parse("gomoku")
    rival, inarow = player(f"pbrain:{Path(engine).resolve()}:nodes={nodes}:time=0"), player("perfect", 1.0)
    lost = []
    for seed in seeds:
        start = opening(game, 3, random.Random(seed * 1_000_003))
        for side in ("x", "o"):
            x, o = (inarow, rival) if side == "x" else (rival, inarow)
            final, moves = play_game(game, x, o, random.Random(0), start=start)
            if final.winner not in (side, None):
                names = [game.cell_name(bit) for bit in (*opening_moves(start), *moves)]
                lost.append((seed, side, names))
    return lost


def drop(oracle: Oracle, moves: list[str], move: str) -> int | None:
    """What ``move`` cost the side that played it after ``moves``, in the oracle's points."""
    before, after = oracle.verdict(moves), oracle.verdict([*moves, move])
    return None if before is None or after is None else before + after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="a pbrain engine, such as pbrain-rapfi")
    parser.add_argument("--seeds", type=int, nargs=2, metavar=("A", "B"), default=(171, 180))
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--oracle-nodes", type=int, default=300_000)
    parser.add_argument("--times", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--plies", type=int, default=9)
    args = parser.parse_args()
    warm_up()
    lost = lost_games(args.engine, range(*args.seeds), args.nodes)
    oracle = Oracle(args.engine, args.oracle_nodes)
    print(f"{len(lost)} games lost of {2 * (args.seeds[1] - args.seeds[0])}")
    print("| seed | inarow | plies | a forced win seen from ply | mean drop before | mistakes |")
    print("|---|---|---|---|---|---|")
    early: list[list[str]] = []  # the moves before each of inarow's early moves
    for seed, side, names in lost:
        first = 0 if side == "x" else 1
        drops, lost_at = [], None
        for ply in range(3, len(names)):
            if ply % 2 != first or lost_at is not None:
                continue
            if oracle.verdict(names[:ply]) == -WON:
                lost_at = ply + 1
                continue
            if ply < args.plies:
                early.append(names[:ply])
            cost = drop(oracle, names[:ply], names[ply])
            if cost is not None:
                drops.append(cost)
        shown = f"{mean(drops):.0f}" if drops else "–"
        mistakes = sum(cost > BAD for cost in drops)
        print(f"| {seed} | {side} | {len(names)} | {lost_at or '–'} | {shown} | {mistakes} of {len(drops)} |")
    print()
    print(f"inarow's {len(early)} positions before ply {args.plies + 1} of the lost games, searched again:")
    print(f"| think time | positions judged | mean drop | mistakes (drop > {BAD}) |")
    print("|---|---|---|---|")
    game = Game.parse("gomoku")
    for seconds in args.times:
        drops = []
        for moves in early:
            position = Position.start(game)
            for name in moves:
                position = position.play(position.move_bit(name))
            chosen = analyst.analyze(position, Limits(time=seconds)).best[0]
            cost = drop(oracle, moves, chosen)
            if cost is not None:
                drops.append(cost)
        shown = f"{mean(drops):.0f}" if drops else "–"
        print(f"| {seconds:g} s | {len(drops)} | {shown} | {sum(cost > BAD for cost in drops)} |")
    oracle.close()


if __name__ == "__main__":
    main()
