"""``inarow serve``: run the web app on uvicorn, by default on 127.0.0.1:8000 with the games in the user's
data folder. ``python -m inarow.web.server`` does the same without the CLI."""

from __future__ import annotations

import argparse
import threading
import time
import webbrowser
from collections.abc import Sequence
from pathlib import Path

import platformdirs
import uvicorn

from inarow.players import DEFAULT_THINK_TIME
from inarow.web.app import Settings, create_app


def default_db_path() -> Path:
    """Where games are kept unless told otherwise: ``<user data dir>/inarow/games.sqlite3``."""
    return Path(platformdirs.user_data_dir("inarow", appauthor=False)) / "games.sqlite3"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: Path | None = None,
    open_browser: bool = False,
    *,
    think_time: float = DEFAULT_THINK_TIME,
    workers: int | None = None,
    seed: int | None = None,
) -> None:
    """Serve the app until interrupted; with ``open_browser``, open the page once the server listens."""
    settings = Settings(db=db or default_db_path(), think_time=think_time, workers=workers, seed=seed)
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host=host, port=port, log_level="info", access_log=False)
    )
    if open_browser:
        shown = host if host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    print(f"inarow: games kept in {settings.db}", flush=True)
    server.run()


def _open_when_started(server: uvicorn.Server, url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started and not server.should_exit and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)


def main(argv: Sequence[str] | None = None) -> None:
    """The command line of ``python -m inarow.web.server``."""
    parser = argparse.ArgumentParser(prog="python -m inarow.web.server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", type=Path, default=None, help=f"default: {default_db_path()}")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.add_argument(
        "--think-time", type=float, default=DEFAULT_THINK_TIME, help="seconds per search, at most"
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="search processes (default: cores, up to 4)"
    )
    parser.add_argument("--seed", type=int, default=None, help="make the games' random choices reproducible")
    args = parser.parse_args(argv)
    serve(
        args.host,
        args.port,
        args.db,
        args.open,
        think_time=args.think_time,
        workers=args.workers,
        seed=args.seed,
    )


if __name__ == "__main__":
    main()
