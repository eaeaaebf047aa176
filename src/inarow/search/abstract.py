"""Deprecated: the old path of :mod:`inarow.teaching.abstract`, kept for one release (0.2); import that
instead."""

from __future__ import annotations

import warnings
from typing import Any

import inarow.teaching.abstract as _home

warnings.warn(
    "inarow.search.abstract is deprecated and will be removed in 0.3: import inarow.teaching.abstract",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> Any:
    return getattr(_home, name)
