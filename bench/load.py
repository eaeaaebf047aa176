"""Load benchmark of ``inarow serve``: N simulated players on loopback play whole games at once.

Each player (an asyncio task with its own httpx connection) starts a game, then plays a random legal move
(seeded) and waits for the computer's reply, until the game ends; then starts another, until it has played
``--games`` games or ``--seconds`` have passed. The latency of every move request (your move and the reply)
is recorded. Prints a table: players, games, moves, p50, p99 and max latency in ms, moves per second, errors;
then, per game, how many of the computer's replies were exact (their notes: ``strong``, the exact value with
the plies to the end; ``weak``, won, drawn or lost with best play, proven) and how many not (the evaluation),
and with ``--by-ply`` the latency of the replies by ply.

Players think before each move, as people do: a pause drawn uniformly from 0 to twice ``--pause`` (1 s on
average by default). ``--pause 0`` makes every player move back to back: a saturation test, in which the
load generator itself (50 httpx clients in one Python process) takes about one of the machine's cores and
the latency measures the queue more than the server.

    python bench/load.py                         # 50 players, level perfect, tic-tac-toe, own server
    python bench/load.py --pause 0               # saturation: every player moves back to back
    python bench/load.py --url http://127.0.0.1:8000 --players 20 --game connect4 --level easy
    python bench/load.py --mixed                 # 50 players (3×3 and Connect Four) + 4 teaching hammers
    python bench/load.py --mixed --hammers 0     # the same players alone, to compare

``--mixed``: half the players play tic-tac-toe and half Connect Four, while ``--hammers`` clients (4 by
default) send explanations and comparisons of Gomoku positions back to back, each dropped after
``--hammer-timeout`` seconds as an impatient page would; the table gives the players' move latency per
game and what the hammers got (answered, 503 busy, dropped).

Without ``--url`` it starts ``python -m inarow serve`` on a free port with a throwaway database, and waits
until ``GET /api/health`` says the engine is warm; at the end it says how many solutions the server
remembered in that database (see README, "Remembered solutions").

    python bench/load.py --game connect4         # 50 players at level perfect on Connect Four
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from inarow.values.store import Store


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    games: int = 0
    errors: list[str] = field(default_factory=list)
    proofs: dict[str, int] = field(default_factory=dict)
    """The computer's replies by what their note says: ``strong`` (exact, with the plies to the end),
    ``weak`` (exact: won, drawn or lost with best play), ``not exact`` (the evaluation), ``other``."""
    by_ply: dict[int, list[float]] = field(default_factory=dict)
    """Latencies by the ply of the computer's reply."""
    inexact_by_ply: dict[int, int] = field(default_factory=dict)
    """Replies whose note is not exact, by ply."""

    def count(self, state: dict[str, object], ply: int, seconds: float) -> None:
        """Tally the computer's reply in the answer ``state`` to the move of ``ply``."""
        moves = state["moves"]
        assert isinstance(moves, list)
        reply = moves[-1] if moves and moves[-1]["ply"] == ply + 1 else None
        if reply is None or reply["by"] != "computer":
            return
        self.by_ply.setdefault(ply + 1, []).append(seconds)
        note = reply.get("note") or {}
        if note.get("kind") != "analysis":
            kind = "other"
        elif not note.get("exact"):
            kind = "not exact"
        elif note.get("plies") is None:
            kind = "weak"
        else:
            kind = "strong"
        self.proofs[kind] = self.proofs.get(kind, 0) + 1
        if kind == "not exact":
            self.inexact_by_ply[ply + 1] = self.inexact_by_ply.get(ply + 1, 0) + 1


@dataclass
class Hammered:
    answered: int = 0
    busy: int = 0
    dropped: int = 0
    other: list[str] = field(default_factory=list)


HAMMER_REQUESTS = (
    ("/api/compare", {"game": "gomoku", "position": "h8 h9 i8", "depth": 9}),
    ("/api/explain", {"game": "gomoku", "position": "h8 h9", "algorithm": "alphabeta", "depth": 1}),
    ("/api/compare", {"game": "19x19:5", "position": "", "depth": 9}),
)


PLAYERS_PER_ADDRESS = 50
"""Simulated clients per loopback source address: the server holds at most 64 connections per client
address (``inarow.web.server.MAX_CLIENT_CONNECTIONS``), so more players come from 127.0.0.3, 127.0.0.4…"""


def client_transport(url: str, number: int) -> httpx.AsyncHTTPTransport | None:
    """For a server on 127.0.0.1, a transport whose connections come from the loopback address of client
    ``number`` (127.0.0.2 for the first 50, then 127.0.0.3…), as players on different machines would;
    None (the default) for any other server."""
    if httpx.URL(url).host != "127.0.0.1":
        return None
    return httpx.AsyncHTTPTransport(local_address=f"127.0.0.{2 + number // PLAYERS_PER_ADDRESS}")


async def hammer(number: int, url: str, args: argparse.Namespace, deadline: float, tally: Hammered) -> None:
    """Send teaching requests on Gomoku back to back until ``deadline``, dropping each after
    ``--hammer-timeout`` seconds."""
    transport = client_transport(url, number)
    async with httpx.AsyncClient(base_url=url, timeout=args.hammer_timeout, transport=transport) as client:
        turn = number
        while time.monotonic() < deadline:
            path, body = HAMMER_REQUESTS[turn % len(HAMMER_REQUESTS)]
            turn += 1
            try:
                response = await client.post(path, json=body)
            except httpx.TimeoutException:
                tally.dropped += 1
                continue
            except httpx.HTTPError as error:
                tally.other.append(f"{type(error).__name__}: {error}")
                await asyncio.sleep(0.1)
                continue
            if response.status_code == 200:
                tally.answered += 1
            elif response.status_code == 503:
                tally.busy += 1
                await asyncio.sleep(0.05)
            else:
                tally.other.append(f"{path}: {response.status_code} {response.text[:120]}")


async def player(
    number: int, url: str, args: argparse.Namespace, deadline: float, tally: Tally, game_name: str
) -> None:
    rng = random.Random(args.seed * 1000 + number)
    limits = httpx.Limits(max_connections=1)
    transport = client_transport(url, number)
    async with httpx.AsyncClient(
        base_url=url, timeout=args.timeout, limits=limits, transport=transport
    ) as client:
        for _ in range(args.games):
            if time.monotonic() >= deadline:
                return
            try:
                response = await client.post(
                    "/api/games", json={"game": game_name, "level": args.level, "first": "random"}
                )
                if response.status_code != 201:
                    tally.errors.append(f"new game: {response.status_code} {response.text[:120]}")
                    continue
                game = response.json()
                while game["waiting_for"] == "you" and time.monotonic() < deadline:
                    if args.pause:
                        await asyncio.sleep(rng.uniform(0, 2 * args.pause))
                    move = rng.choice(game["legal_moves"])
                    start = time.perf_counter()
                    ply = len(game["moves"]) + 1
                    response = await client.post(
                        f"/api/games/{game['id']}/moves", json={"move": move, "ply": ply}
                    )
                    seconds = time.perf_counter() - start
                    tally.latencies.append(seconds)
                    if response.status_code != 200:
                        tally.errors.append(f"move {move}: {response.status_code} {response.text[:120]}")
                        break
                    game = response.json()
                    tally.count(game, ply, seconds)
                tally.games += game["result"] is not None
            except httpx.HTTPError as error:
                tally.errors.append(f"{type(error).__name__}: {error}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(url: str, args: argparse.Namespace) -> tuple[dict[str, Tally], Hammered]:
    games = ["tictactoe", "connect4"] if args.mixed else [args.game]
    tallies = {name: Tally() for name in games}
    hammered = Hammered()
    deadline = time.monotonic() + args.seconds
    hammers = args.hammers if args.mixed else 0
    await asyncio.gather(
        *(
            player(n, url, args, deadline, tallies[games[n % len(games)]], games[n % len(games)])
            for n in range(args.players)
        ),
        *(hammer(n, url, args, deadline, hammered) for n in range(hammers)),
    )
    return tallies, hammered


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    folder: Path, options: Sequence[str] = (), headers: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``inarow serve OPTIONS`` on a free port with a database in ``folder``, once its health says the
    engine is warm (asked with ``headers``: a token, say); the process and its URL."""
    port = free_port()
    command = [sys.executable, "-m", "inarow", "serve", "--port", str(port), "--db", str(folder / "bench.db")]
    server = subprocess.Popen([*command, *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=1, headers=headers).json().get("status") == "ok":
                return server, url
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start within 120 s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a running server; default: start one")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--games", type=int, default=3, help="games per player")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop starting moves after this long")
    parser.add_argument("--game", default="tictactoe")
    parser.add_argument("--level", default="perfect")
    parser.add_argument("--pause", type=float, default=1.0, help="mean seconds a player thinks per move")
    parser.add_argument("--workers", type=int, default=None, help="search processes of the started server")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mixed", action="store_true", help="3×3 and Connect Four players + hammers")
    parser.add_argument("--hammers", type=int, default=4, help="teaching clients of --mixed")
    parser.add_argument("--hammer-timeout", type=float, default=3.0, help="seconds before a hammer drops")
    parser.add_argument("--think-time", type=float, default=2.0, help="of the started server")
    parser.add_argument("--by-ply", action="store_true", help="latency of the computer's replies by ply")
    args = parser.parse_args()
    if not 1 <= args.players <= 500:
        parser.error("--players: from 1 to 500")
    if not 0 < args.seconds <= 600:
        parser.error("--seconds: more than 0, at most 600")

    with tempfile.TemporaryDirectory() as folder:
        options = ["--think-time", str(args.think_time)] + (
            ["--workers", str(args.workers)] if args.workers else []
        )
        server, url = (None, args.url) if args.url else start_server(Path(folder), options)
        try:
            started = time.perf_counter()
            tallies, hammered = asyncio.run(run(url, args))
            elapsed = time.perf_counter() - started
        finally:
            if server is not None:
                server.terminate()
                server.wait(20)
        remembered = None if args.url else Store(Path(folder) / "bench.sqlite3").solution_count()
    print(
        f"{'players':>8} {'game':>10} {'level':>8} {'games':>6} {'moves':>6} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'moves/s':>8} {'errors':>6}"
    )
    errors: list[str] = []
    for name, tally in tallies.items():
        moves = tally.latencies
        errors += tally.errors
        count = args.players // len(tallies) + (name == next(iter(tallies)) and args.players % len(tallies))
        if moves:
            print(
                f"{count:>8} {name:>10} {args.level:>8} {tally.games:>6} {len(moves):>6} "
                f"{statistics.median(moves) * 1000:>8.1f} {percentile(moves, 0.99) * 1000:>8.1f} "
                f"{max(moves) * 1000:>8.1f} {len(moves) / elapsed:>8.1f} {len(tally.errors):>6}"
            )
        else:
            print(f"{count:>8} {name:>10} no move was played")
    for name, tally in tallies.items():
        replies = sum(tally.proofs.values())
        if not replies:
            continue
        exact = tally.proofs.get("strong", 0) + tally.proofs.get("weak", 0)
        print(
            f"{name}: {replies} computer replies, exact {exact} ({100 * exact / replies:.1f}%): strong "
            f"{tally.proofs.get('strong', 0)}, weak {tally.proofs.get('weak', 0)}; not exact "
            f"{tally.proofs.get('not exact', 0)}; other notes {tally.proofs.get('other', 0)}"
        )
        if args.by_ply:
            print(f"{'ply':>5} {'replies':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'not exact':>9}")
            for ply, seconds in sorted(tally.by_ply.items()):
                print(
                    f"{ply:>5} {len(seconds):>8} {statistics.median(seconds) * 1000:>8.1f} "
                    f"{percentile(seconds, 0.99) * 1000:>8.1f} {max(seconds) * 1000:>8.1f} "
                    f"{tally.inexact_by_ply.get(ply, 0):>9}"
                )
    if args.mixed:
        print(
            f"teaching hammers: {args.hammers}, answered {hammered.answered}, busy (503) {hammered.busy}, "
            f"dropped after {args.hammer_timeout:g} s {hammered.dropped}, other {len(hammered.other)}"
        )
        for problem in sorted(set(hammered.other))[:5]:
            print("teaching error:", problem)
    if remembered is not None:
        print(f"solutions the server remembered in its store: {remembered:,}")
    for error in errors[:10]:
        print("error:", error)
    errors += hammered.other
    raise SystemExit(1 if errors else 0)


if __name__ == "__main__":
    main()
