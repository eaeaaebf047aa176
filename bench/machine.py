"""The machine a benchmark ran on, as every table names it: the processor and how loaded it was."""

from __future__ import annotations

import contextlib
import os
import platform
from pathlib import Path


def processor() -> str:
    """The processor's name, as the system gives it (``model name`` of ``/proc/cpuinfo`` on Linux, else what
    :mod:`platform` knows)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def load() -> str:
    """The load average over the last minute, five and fifteen, as ``top`` shows it."""
    return " ".join(f"{each:.1f}" for each in os.getloadavg())
