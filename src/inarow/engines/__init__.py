"""How moves are chosen: the search limits (:mod:`~inarow.engines.limits`) and one score scale
(:mod:`~inarow.engines.scores`); the exact solver (:mod:`inarow.engines.exact`), the Gomoku engine
(:mod:`inarow.engines.gomoku`) and the books (:mod:`inarow.engines.books`); the depth-limited search of the
other boards (:mod:`~inarow.engines.heuristic`); the textbook algorithms (:mod:`~inarow.engines.textbook`);
and the policy that asks them in turn, books → exact → depth-limited (:mod:`~inarow.engines.policy`). The
compiled kernels are written and compiled by :mod:`~inarow.engines.compiling`."""

from inarow.engines.limits import Budget, Limits, SearchAborted

__all__ = ["Budget", "Limits", "SearchAborted"]
