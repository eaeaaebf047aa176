"""Deprecated: the package the engines and the textbook algorithms lived in before 0.2. Its three public
paths still import, with a :class:`DeprecationWarning`, for one release: :mod:`inarow.search.textbook`
(now :mod:`inarow.engines.textbook`), :mod:`inarow.search.abstract` (now :mod:`inarow.teaching.abstract`)
and :mod:`inarow.search.engine` (now :mod:`inarow.engines.exact.reference`)."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def forward(old: str, new: str) -> Callable[[str], Any]:
    """Warn that the module ``old`` moved to ``new``, and the module ``__getattr__`` that hands over ``new``'s
    names."""
    warnings.warn(
        f"{old} is deprecated and will be removed in 0.3: import {new}", DeprecationWarning, stacklevel=3
    )
    home = importlib.import_module(new)

    def attribute(name: str) -> Any:
        return getattr(home, name)

    return attribute
