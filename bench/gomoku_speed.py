"""How fast the Gomoku engine explores positions: the same middle-game positions (every 150th of the
labelled positions in ``tests/data/gomoku/``) each searched to a node limit, one thread, from an empty
transposition table, and the positions a CPU second; with ``--engine PATH`` a Gomocup engine (Rapfi's
``pbrain-rapfi``) searches each at the same node limit beside it, and its own count of nodes and time
(Rapfi's last ``MESSAGE``) give its speed, and the ratio.

    .venv/bin/python bench/gomoku_speed.py [--positions 8] [--nodes 300000] [--repeat 3] [--engine PATH]

The search is deterministic: two versions of the engine that explore the same nodes search the same
tree, so their times compare directly (run each, interleaved, on the same machine). A node is not the
same unit in two engines: Rapfi counts the positions its search visits, inarow every position its
α-β search, quiescence search and threat searches visit.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
from pathlib import Path

from inarow.engines.gomoku import analyst, driver
from inarow.engines.limits import Limits
from inarow.protocols.pbrain import EngineSpec, PbrainEngine
from inarow.rules.game import Game, Position
from machine import processor

LABELS = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku" / "rapfi-labels.txt"

_UNITS = {"": 1, "K": 1_000, "M": 1_000_000, "G": 1_000_000_000}


def positions(count: int, game: Game) -> list[Position]:
    """Every 150th labelled position from the sixth that is not over, ``count`` of them."""
    found = []
    for line in LABELS.read_text().splitlines()[5::150]:
        position = Position.start(game)
        for name in line.split("\t")[0].split():
            position = position.play(position.move_bit(name))
        if not position.is_over:
            found.append(position)
    return found[:count]


def inarow_speed(position: Position, nodes: int) -> tuple[int, float]:
    """The nodes inarow's search of ``position`` explored within ``nodes``, and the CPU seconds."""
    driver.forget()
    started = time.process_time()
    analysis = analyst.analyze(position, Limits(nodes=nodes))
    return analysis.nodes, time.process_time() - started


def engine_speed(engine: PbrainEngine, position: Position) -> tuple[int, float]:
    """The nodes and seconds the engine reports for its search of ``position`` (Rapfi's last message
    says ``Node 300K | Time 461ms``)."""
    engine.move(position)
    for message in reversed(engine.messages):
        nodes = re.search(r"\bNode (\d+(?:\.\d+)?)([KMG]?)\b", message)
        spent = re.search(r"\bTime (\d+)ms\b", message)
        if nodes and spent:
            return round(float(nodes[1]) * _UNITS[nodes[2]]), int(spent[1]) / 1000
    raise SystemExit(f"{engine.name} reported no Node and Time in its messages: {engine.messages[-3:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=300_000, help="the node limit of each search")
    parser.add_argument("--repeat", type=int, default=3, help="runs over the positions (medians shown)")
    parser.add_argument("--engine", metavar="PATH", help="a pbrain engine to time beside inarow")
    args = parser.parse_args()
    game = Game.parse("gomoku")
    driver.warm_up()
    chosen = positions(args.positions, game)
    engine = None
    if args.engine:
        engine = PbrainEngine(EngineSpec.parse(f"pbrain:{args.engine}:nodes={args.nodes}:time=0"), 0)
    runs: list[tuple[int, float, int, float]] = []
    for _ in range(args.repeat):
        ours = [inarow_speed(position, args.nodes) for position in chosen]
        theirs = [engine_speed(engine, position) for position in chosen] if engine else [(0, 0.0)]
        runs.append(
            (
                sum(n for n, _ in ours),
                sum(s for _, s in ours),
                sum(n for n, _ in theirs),
                sum(s for _, s in theirs),
            )
        )
    if engine is not None:
        engine.close()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{processor()}, {os.cpu_count()} cores, load average {load} (1, 5, 15 min) after the runs")
    print(f"{len(chosen)} positions, {args.nodes:,} nodes each, {args.repeat} runs (medians)")
    print("| engine | nodes | seconds | nodes a second |")
    print("|---|---|---|---|")
    nodes, seconds = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
    print(f"| inarow (CPU) | {nodes:,.0f} | {seconds:.2f} | {nodes / seconds:,.0f} |")
    if engine is not None:
        other, spent = statistics.median(r[2] for r in runs), statistics.median(r[3] for r in runs)
        name = f"{engine.name} (its own count and time)"
        print(f"| {name} | {other:,.0f} | {spent:.2f} | {other / spent:,.0f} |")
        print(f"{engine.name} searches {other / spent / (nodes / seconds):.1f} times the nodes a second")


if __name__ == "__main__":
    main()
