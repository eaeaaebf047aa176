"""How moves are chosen: the exact α-β engine, its heuristic fallback and the textbook algorithms."""

from inarow.search.limits import Budget, Limits, SearchAborted

__all__ = ["Budget", "Limits", "SearchAborted"]
