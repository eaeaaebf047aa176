"""Attack run of ``inarow serve`` on loopback: what a hostile or unlucky client can do to it, in figures.

Two parts, each printing a table:

- **durability**: ``--players`` clients play tic-tac-toe (two people on one device, so every move is the
  client's and is acknowledged by a 200) back to back while the server is killed with SIGKILL every
  ``--kill-every`` seconds and started again on the same database, ``--kills`` times. At the end every
  acknowledged move must be in the database: the table gives the moves acknowledged, the moves lost
  (acknowledged but not stored), the answers that were 5xx, and the requests that found no server.
- **hostile requests**: a fixed list of requests a page, a script or a fuzzer may send (malformed JSON,
  wrong types, huge numbers, deep nesting, bodies too large or declared wrong, foreign hosts and origins,
  odd paths, methods and headers, many language tags); the table counts the answers by status, and any
  5xx or answer that is not JSON with ``detail`` (for the API) is listed.

    python bench/attack.py                      # 8 players, 10 kills every 3 s, then the hostile requests
    python bench/attack.py --kills 0            # the hostile requests alone

The schemathesis run over the OpenAPI schema is ``tests/web/test_schema_fuzz.py`` (pytest -s shows its
summary).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from inarow.values.store import Store


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(db: Path, port: int, think_time: float) -> subprocess.Popen[bytes]:
    """``inarow serve`` on ``port`` and ``db``, once it answers."""
    command = [sys.executable, "-m", "inarow", "serve", "--port", str(port), "--db", str(db)]
    command += ["--think-time", str(think_time), "--workers", "1"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start within 120 s")


# ------------------------------------------------------------------------------------- durability
@dataclass
class Acknowledged:
    moves: dict[tuple[str, int], str] = field(default_factory=dict)
    """(game id, ply) → the move the server answered 200 for."""
    server_errors: list[str] = field(default_factory=list)
    refused: int = 0
    """Requests that found no server (it was down) or lost their answer."""
    stale: int = 0
    """409 answers: a move whose first sending was stored but whose answer was lost in a kill."""


async def durable_player(number: int, url: str, stop: asyncio.Event, tally: Acknowledged) -> None:
    rng = random.Random(number)
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        game: dict[str, object] | None = None
        while not stop.is_set():
            try:
                if game is None or game["result"] is not None:
                    answer = await client.post("/api/games", json={"mode": "humans"})
                    if answer.status_code >= 500:
                        tally.server_errors.append(f"new game: {answer.status_code} {answer.text[:100]}")
                    game = answer.json() if answer.status_code == 201 else None
                    continue
                legal = game["legal_moves"]
                moves = game["moves"]
                assert isinstance(legal, list) and isinstance(moves, list)
                move, ply = rng.choice(legal), len(moves) + 1
                answer = await client.post(f"/api/games/{game['id']}/moves", json={"move": move, "ply": ply})
                if answer.status_code == 200:
                    tally.moves[(str(game["id"]), ply)] = move
                    game = answer.json()
                elif answer.status_code == 409:
                    tally.stale += 1
                    game = (await client.get(f"/api/games/{game['id']}")).json()
                elif answer.status_code >= 500:
                    tally.server_errors.append(f"move: {answer.status_code} {answer.text[:100]}")
            except (httpx.HTTPError, ValueError):
                tally.refused += 1
                await asyncio.sleep(0.05)


async def durability(args: argparse.Namespace, folder: Path) -> tuple[Acknowledged, Path]:
    db, port = folder / "attack.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    tally, stop = Acknowledged(), asyncio.Event()
    server = start(db, port, args.think_time)
    players = [asyncio.create_task(durable_player(n, url, stop, tally)) for n in range(args.players)]
    try:
        for _ in range(args.kills):
            await asyncio.sleep(args.kill_every)
            os.kill(server.pid, signal.SIGKILL)
            server.wait(10)
            server = await asyncio.to_thread(start, db, port, args.think_time)
        await asyncio.sleep(args.kill_every)
    finally:
        stop.set()
        await asyncio.gather(*players)
        server.kill()
        server.wait(10)
    return tally, db


def lost_moves(tally: Acknowledged, db: Path) -> list[tuple[str, int, str]]:
    """The acknowledged moves the database does not hold as acknowledged."""
    store = Store(db)
    stored: dict[tuple[str, int], str] = {}
    for game_id in {game_id for game_id, _ in tally.moves}:
        for move in store.load(game_id).moves:
            stored[(game_id, move.ply)] = move.move
    store.close()
    return [(g, p, m) for (g, p), m in tally.moves.items() if stored.get((g, p)) != m]


# ------------------------------------------------------------------------------- hostile requests
def hostile_requests() -> list[tuple[str, str, dict[str, object]]]:
    """(method, path, httpx request options) of every hostile request."""
    json_headers = {"Content-Type": "application/json"}
    nested = "[" * 5000 + "]" * 5000
    requests: list[tuple[str, str, dict[str, object]]] = []
    for body in (
        b"{",
        b"null",
        b"[]",
        b'"x"',
        b"\xff\xfe",
        nested.encode(),
        b'{"game": 1e999}',
        b'{"game": "' + b"9" * 5000 + b'"}',
        b'{"game": "3x3", "position": "' + "ａ１".encode() * 3000 + b'"}',
        b'{"game": "99999x99999:5"}',
        b'{"game": "0x0:0"}',
        b'{"game": "connect4", "position": "4" * 99}',
        b'{"game": "tictactoe", "first": "\\u0000"}',
        b'{"game": "gomoku", "level": "minimax:99"}',
        b'{"mode": "computers", "x_player": "alphabeta:9:weights:' + b"1," * 2000 + b'1"}',
    ):
        requests.append(("POST", "/api/games", {"content": body, "headers": json_headers}))
        requests.append(("POST", "/api/analyze", {"content": body, "headers": json_headers}))
        requests.append(("POST", "/api/explain", {"content": body, "headers": json_headers}))
        requests.append(("POST", "/api/compare", {"content": body, "headers": json_headers}))
    for body_json in (
        {"position": "b2", "depth": -1},
        {"position": "b2", "depth": 10**30},
        {"position": "b2", "time": -0.0},
        {"position": "x" * 70_000},
        {"game": "gomoku", "position": "h8 " * 300},
        {"game": "connect4", "position": "4444444"},
        {"position": "٥"},
        {"position": "（2，2）"},
    ):
        requests.append(("POST", "/api/analyze", {"json": body_json}))
    for ply in (-1, 0, 2**63, "1", None, 1.5):
        requests.append(("POST", "/api/games/nope/moves", {"json": {"move": "b2", "ply": ply}}))
        requests.append(("POST", "/api/games/nope/undo", {"json": {"ply": ply}}))
    for path in (
        "/api/games/" + "x" * 5000,
        "/api/games/%00",
        "/api/games/..%2f..%2fetc%2fpasswd",
        "/api/games?limit=-1",
        "/api/games?limit=99999999999999999999",
        "/api/games?offset=1e9",
        "/static/../../pyproject.toml",
        "/static/%2e%2e/%2e%2e/pyproject.toml",
        "/i18n/" + "zh," * 500 + ".json",
        "/i18n/%ff.json",
        "/nope",
        "/docs?x=<script>",
    ):
        requests.append(("GET", path, {}))
    for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"):
        requests.append((method, "/api/games", {}))
    for headers in (
        {"Host": "evil.example"},
        {"Host": ""},
        {"Host": "127.0.0.1:99999"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Accept-Language": "zz;q=abc," * 200},
        {"Content-Type": "text/plain"},
        {"Cookie": ("inarow_token=" + "é" * 10).encode()},
        {"X-Inarow-Token": "密码".encode()},
    ):
        requests.append(("POST", "/api/games", {"headers": headers, "content": b"{}"}))
    for raw in (
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{}",
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000000\r\n\r\n{}",
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n{}",
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
        b"Content-Length: 2\r\n\r\n0\r\n\r\n",
        b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"y" * 20_000 + b"\r\n\r\n",
        b"GET /api/games HTTP/1.1\r\nHost: a\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GARBAGE\r\n\r\n",
        b"GET /api/games HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
    ):
        requests.append(("RAW", raw.split(b"\r\n", 1)[0].decode("latin-1"), {"raw": raw}))
    requests.append(("POST", "/api/games", {"content": b"x" * 200_000}))
    return requests


def raw_request(url: str, request: bytes) -> int:
    """Send ``request`` as it is and read the status of the answer (0: the server closed the connection
    without answering, or took more than 15 s)."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=15) as connection:
        connection.sendall(request)
        answer = b""
        try:
            while b"\r\n" not in answer and (chunk := connection.recv(4096)):
                answer += chunk
        except (TimeoutError, ConnectionResetError):
            return 0
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def hostile(url: str) -> tuple[Counter[int], list[str]]:
    statuses: Counter[int] = Counter()
    problems: list[str] = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for method, path, options in hostile_requests():
            if method == "RAW":
                status = raw_request(url, options["raw"])  # type: ignore[arg-type]
                statuses[status] += 1
                if status >= 500:
                    problems.append(f"{path[:60]}: {status}")
                continue
            try:
                answer = client.request(method, path, **options)  # type: ignore[arg-type]
            except httpx.HTTPError as error:
                problems.append(f"{method} {path[:60]}: {type(error).__name__}")
                continue
            statuses[answer.status_code] += 1
            if answer.status_code >= 500 or "Traceback" in answer.text:
                problems.append(f"{method} {path[:60]}: {answer.status_code} {answer.text[:100]}")
            elif path.startswith("/api/") and answer.status_code >= 400 and method != "HEAD":
                try:
                    detail = answer.json().get("detail")
                except ValueError:
                    detail = None
                if not isinstance(detail, str):
                    problems.append(f"{method} {path[:60]}: {answer.status_code} without a JSON detail")
    return statuses, problems


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--kill-every", type=float, default=3.0, help="seconds between two SIGKILLs")
    parser.add_argument("--think-time", type=float, default=1.0)
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        if args.kills:
            tally, db = asyncio.run(durability(args, Path(folder)))
            lost = lost_moves(tally, db)
            head = ("kills", "players", "acknowledged", "lost", "5xx", "no server", "409")
            print(" ".join(f"{word:>{max(6, len(word))}}" for word in head))
            row = [args.kills, args.players, len(tally.moves), len(lost), len(tally.server_errors)]
            row += [tally.refused, tally.stale]
            print(" ".join(f"{value:>{max(6, len(word))}}" for word, value in zip(head, row, strict=True)))
            for problem in [*map(str, lost[:5]), *tally.server_errors[:5]]:
                print("durability:", problem)
            failed |= bool(lost or tally.server_errors)
        port = free_port()
        server = start(Path(folder) / "hostile.sqlite3", port, args.think_time)
        try:
            statuses, problems = hostile(f"http://127.0.0.1:{port}")
        finally:
            server.terminate()
            server.wait(20)
    print(f"{'hostile requests':>17} " + " ".join(f"{code:>5}" for code in sorted(statuses)))
    print(f"{sum(statuses.values()):>17} " + " ".join(f"{statuses[code]:>5}" for code in sorted(statuses)))
    for problem in problems:
        print("hostile:", problem)
    raise SystemExit(1 if failed or problems else 0)


if __name__ == "__main__":
    main()
