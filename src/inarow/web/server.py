"""Run the web app on uvicorn (``inarow serve``), by default on 127.0.0.1:8000 with the games in the user's
data folder."""

from __future__ import annotations

import threading
import time
import webbrowser
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
