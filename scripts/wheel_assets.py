"""Put into a wheel what the repository does not hold, so that a wheel built from a fresh clone has it all:

- the help pages, built by ``mkdocs build --strict`` into ``inarow/web/help`` (``inarow serve`` serves them
  at ``/help/``);
- Pyodide for the lab, from ``node_modules/pyodide`` (``npm ci`` is run first when it is missing; the
  version is pinned in ``package-lock.json``) into ``inarow/web/static/pyodide``;
- Connect Four's 12-ply book, read from the ``bitbully-databases`` package, checked on 50 positions by
  inarow's own search and saved in inarow's format as ``inarow/engines/books/data/connect4-12.book``, so
  that a fresh install answers early Connect Four positions at once, with no import on first use.

``setup.py`` runs this for every wheel (``pip install .``, ``pip wheel .``, ``python -m build``) on the
package's folder in the build, never on ``src/``; an editable install (``pip install -e .``) leaves it out,
and ``scripts/start.sh`` does the same steps in the checkout. Its tools are the build's own requirements
(``[build-system]`` in ``pyproject.toml``), and npm for Pyodide. Usage::

    python scripts/wheel_assets.py build/lib/inarow
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import copy_pyodide  # noqa: E402 - beside this file


def _step(name: str, started: float) -> None:
    print(f"wheel assets: {name} in {time.monotonic() - started:.1f} s", flush=True)


def _environment(scratch: Path) -> dict[str, str]:
    """The build's environment for inarow's own code: this checkout's ``src`` first, numba's cache and the
    user's data folder in a scratch folder (nothing written into the checkout or the user's home)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env["NUMBA_CACHE_DIR"] = str(scratch / "numba")
    env["XDG_DATA_HOME"] = str(scratch / "data")
    env["INAROW_BOOK_IMPORT"] = "off"
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


def help_pages(package: Path, env: dict[str, str]) -> None:
    started = time.monotonic()
    site = package / "web" / "help"
    shutil.rmtree(site, ignore_errors=True)
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"]
    subprocess.run([*command, "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)], cwd=ROOT, env=env, check=True)
    _step("the help pages", started)


def pyodide(package: Path) -> None:
    started = time.monotonic()
    if any(not (copy_pyodide.SOURCE / name).is_file() for name in copy_pyodide.FILES):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("error: the wheel needs Pyodide for the lab: install npm (Node.js), then build again")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT, check=True)
    target = package / "web" / "static" / "pyodide"
    shutil.rmtree(target, ignore_errors=True)
    if copy_pyodide.main(target) != 0:
        raise SystemExit(2)
    _step("Pyodide", started)


BOOK = """
import sys
from pathlib import Path
from inarow.engines.books import bitbully
path, book = bitbully.import_book(Path(sys.argv[1]), sample=50)
print(f"{len(book):,} positions, {path.stat().st_size / 1e6:.1f} MB")
"""


def connect4_book(package: Path, env: dict[str, str]) -> None:
    started = time.monotonic()
    target = package / "engines" / "books" / "data" / "connect4-12.book"
    subprocess.run([sys.executable, "-c", BOOK, str(target)], cwd=ROOT, env=env, check=True)
    _step("Connect Four's 12-ply book", started)


def main(package: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="inarow-wheel-") as scratch:
        env = _environment(Path(scratch))
        help_pages(package, env)
        pyodide(package)
        connect4_book(package, env)
    for cache in [*package.rglob("__pycache__"), *package.rglob("*.nbi"), *package.rglob("*.nbc")]:
        if cache.is_dir():
            shutil.rmtree(cache)
        else:
            cache.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python scripts/wheel_assets.py PACKAGE_FOLDER")
    raise SystemExit(main(Path(sys.argv[1]).resolve()))
