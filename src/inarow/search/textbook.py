"""Deprecated: the old path of :mod:`inarow.engines.textbook` (until 0.3)."""

from inarow.search import forward

__getattr__ = forward(__name__, "inarow.engines.textbook")
