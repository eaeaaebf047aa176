"""Copy the Pyodide files the page's Web Worker loads from node_modules/pyodide (the npm package pinned in
package-lock.json; run ``npm ci`` first) into src/inarow/web/static/pyodide/, where ``inarow serve`` serves
them (no CDN: a classroom may be offline), each beside its gzip-compressed copy (``NAME.gz``, when that is
smaller by a tenth), which the server sends to a browser that accepts gzip: forty phones on a classroom's
Wi-Fi fetch some 6 MB each instead of 13.5. The folder is git-ignored; scripts/start.sh and scripts/test.sh
run this after ``npm ci``. Usage: ``python scripts/copy_pyodide.py``."""

from __future__ import annotations

import gzip
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "node_modules" / "pyodide"
TARGET = ROOT / "src" / "inarow" / "web" / "static" / "pyodide"
FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def main(target: Path = TARGET) -> int:
    """Copy the files into ``target`` (default: the package's folder in this checkout; the wheel build passes
    the package's folder in the build); 2 when ``npm ci`` has not run."""
    missing = [name for name in FILES if not (SOURCE / name).is_file()]
    if missing:
        print(f"error: {SOURCE} lacks {', '.join(missing)}: run npm ci first", file=sys.stderr)
        return 2
    target.mkdir(parents=True, exist_ok=True)
    served = 0
    for name in FILES:
        shutil.copy2(SOURCE / name, target / name)
        data = (target / name).read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        compressed = target / f"{name}.gz"
        if len(packed) < 0.9 * len(data):
            compressed.write_bytes(packed)
            served += len(packed)
        else:
            compressed.unlink(missing_ok=True)
            served += len(data)
    shutil.copy2(SOURCE / "package.json", target / "package.json")  # its version: the files' URLs name it
    size = sum((target / name).stat().st_size for name in FILES)
    print(f"copied Pyodide ({size / 1e6:.1f} MB, {served / 1e6:.1f} MB as served with gzip) to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
