"""Deprecated: the old path of :mod:`inarow.teaching.abstract` (until 0.3)."""

from inarow.search import forward

__getattr__ = forward(__name__, "inarow.teaching.abstract")
