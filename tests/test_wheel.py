"""The install path the docs give, as a newcomer takes it: a wheel built from a fresh clone of this
repository, installed in a clean virtual environment outside it, run with a fresh data folder. It holds the
help pages (both languages), Pyodide for the lab and Connect Four's books, and no cache; its size and the
first analysis's time are printed (and written to ``test-artifacts/wheel.txt``), never asserted."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def _run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, capture_output=True, text=True, **options)  # type: ignore[call-overload]
    assert result.returncode == 0, f"{command} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result  # type: ignore[no-any-return]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.mark.slow
def test_a_wheel_from_a_fresh_clone_installs_and_serves_the_help_the_lab_and_the_book(tmp_path: Path) -> None:
    clone, dist, venv, home = tmp_path / "clone", tmp_path / "dist", tmp_path / "venv", tmp_path / "home"
    _run(["git", "clone", "--quiet", str(ROOT), str(clone)])
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist), str(clone)])
    (wheel,) = dist.glob("inarow-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "inarow/web/help/index.html" in names and "inarow/web/help/zh/lab.html" in names
    assert {f"inarow/web/static/pyodide/{name}" for name in PYODIDE} <= set(names)
    assert "inarow/engines/books/data/connect4-12.book" in names
    assert [name for name in names if "__pycache__" in name or name.endswith((".nbi", ".nbc", ".pyc"))] == []

    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(venv)])
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], cwd=tmp_path)
    env = {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "LANG": "C.UTF-8",
    }
    home.mkdir()
    inarow = str(venv / "bin" / "inarow")

    started = time.monotonic()
    analysis = json.loads(
        _run([inarow, "analyze", "44", "--game", "connect4", "--json"], cwd=home, env=env).stdout
    )
    first_use = time.monotonic() - started
    assert analysis["exact"] and analysis["outcome"] == "win"
    assert len(analysis["moves"]) == 7 and all(move["exact"] for move in analysis["moves"])
    assert not (home / "data" / "inarow" / "books").exists()  # nothing imported: the wheel's book answered

    port = _free_port()
    server = subprocess.Popen(
        [inarow, "serve", "--port", str(port), "--db", str(home / "games.sqlite3"), "--workers", "1"],
        cwd=home,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and server.poll() is None:
            try:
                httpx.get(f"{url}/api/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        page = httpx.get(f"{url}/help/", follow_redirects=True, timeout=10)
        assert page.status_code == 200 and "Getting started" in page.text
        lab = httpx.get(f"{url}/help/zh/lab.html", timeout=10)
        assert lab.status_code == 200 and "实验指导" in lab.text
        for name in PYODIDE:
            assert httpx.get(f"{url}/static/pyodide/{name}", timeout=30).status_code == 200, name
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert "semaphore" not in output and "Traceback" not in output, output

    size = wheel.stat().st_size
    figures = (
        f"wheel {wheel.name}: {size / 1e6:.1f} MB; analyze 44 --game connect4 on first use: {first_use:.2f} s"
    )
    print(figures)
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "wheel.txt").write_text(figures + "\n")
    shutil.rmtree(clone, ignore_errors=True)
