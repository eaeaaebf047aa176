"""Deprecated: the old path of :mod:`inarow.engines.exact.reference` (until 0.3)."""

from inarow.search import forward

__getattr__ = forward(__name__, "inarow.engines.exact.reference")
