"""Deprecated: the old path of :mod:`inarow.engines.textbook`, kept for one release (0.2); import that
instead."""

from __future__ import annotations

import warnings
from typing import Any

import inarow.engines.textbook as _home

warnings.warn(
    "inarow.search.textbook is deprecated and will be removed in 0.3: import inarow.engines.textbook",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> Any:
    return getattr(_home, name)
