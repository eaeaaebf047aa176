"""Fixtures of the web tests: an app on a fresh database, a real ``inarow serve`` process, a browser."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pages import desktop_page

from inarow.web.app import Settings, create_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real chromium through Playwright")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh database, searches run inline, random choices seeded."""
    settings = Settings(db=tmp_path / "games.sqlite3", pool="inline", seed=7, think_time=1.0)
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PortTaken(RuntimeError):
    """The port :func:`free_port` gave was taken by another process before the server bound it."""


class Server:
    """An ``inarow serve`` process on a free localhost port."""

    def __init__(
        self,
        db: Path,
        seed: int = 11,
        think_time: float = 1.0,
        host: str = "127.0.0.1",
        extra: tuple[str, ...] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        self.db, self.seed, self.think_time, self.host, self.extra = db, seed, think_time, host, extra
        self.headers = headers or {}
        self.process: subprocess.Popen[bytes] | None = None
        self._take_port()

    def _take_port(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.db.with_suffix(f".{self.port}.log")

    def start(self, timeout: float = 90.0, tries: int = 3) -> Server:
        """Start and wait until the engine has loaded. The port was free when this server was made, but
        another process of this shared machine may take it before the server binds it: then the server
        says so and exits, and it starts again on another free port (at most ``tries`` times)."""
        for _ in range(tries - 1):
            try:
                return self._start(timeout)
            except PortTaken:
                self._take_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> Server:
        command = [
            sys.executable, "-m", "inarow", "serve",
            "--host", self.host, "--port", str(self.port), "--db", str(self.db),
            "--seed", str(self.seed), "--think-time", str(self.think_time), "--workers", "1", *self.extra,
        ]  # fmt: skip
        log = open(self.log, "ab")  # noqa: SIM115 - kept open for the child
        # A process group of its own, as a server started at a terminal has: Ctrl-C there reaches the whole
        # group (see interrupt()).
        self.process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log.close()
                if "the port is in use" in self.log.read_text():
                    raise PortTaken(self.port)
                raise RuntimeError(f"inarow serve exited with {self.process.returncode}")
            try:
                # Up once it answers; ready once the engine has loaded (the health route says "ok"), which
                # the tests that time nothing but use a fixed httpx timeout wait for.
                answer = httpx.get(f"{self.url}/api/health", timeout=1, headers=self.headers)
                if answer.status_code == 403 or answer.json().get("status") == "ok":
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"inarow serve did not answer within {timeout} s")

    def interrupt(self) -> None:
        """Ctrl-C at the terminal: SIGINT to the server's whole process group, its workers included."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGINT)

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Build servers on a database in the test's folder; every one is stopped at the end."""
    servers: list[Server] = []

    def make(db: Path | None = None, **options: Any) -> Server:
        server = Server(db or tmp_path / "games.sqlite3", **options)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One ``inarow serve`` for every browser test."""
    server = Server(tmp_path_factory.mktemp("serve") / "games.sqlite3", seed=5).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM) or shutil.which(CHROMIUM) is None:
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (CI installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, live_server: Server) -> Iterator[Any]:
    """A desktop-size page of the live server (see :func:`pages.desktop_page`)."""
    with desktop_page(browser, live_server.url) as page:
        yield page


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
