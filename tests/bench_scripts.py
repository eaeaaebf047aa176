"""The scripts under ``bench/`` as modules, for the tests that check their parts (they are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name: str) -> Any:
    """The module of the script ``bench/NAME.py`` (registered as ``NAME``, as running it would, so that its
    dataclasses resolve their annotations), with ``bench/`` on the path, as running it puts it (the scripts
    import their neighbours: ``machine``, ``load``)."""
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
