"""inarow: tic-tac-toe and the whole k-in-a-row family, with exact game-tree search.

>>> import inarow
>>> position = inarow.parse_position("b2 a1 c3")          # tic-tac-toe unless told otherwise
>>> analysis = inarow.analyze(position)
>>> inarow.describe(analysis), analysis.best
('draw with best play', ('a3', 'c1'))
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inarow.base.errors import (
        BookError,
        EvaluationCodeError,
        IllegalMoveError,
        InarowError,
        InvalidGameError,
        InvalidLimitError,
        InvalidMatchError,
        InvalidMoveError,
        InvalidPositionError,
        ServerBusyError,
        SessionError,
        StaleMoveError,
        StoppedError,
        StoreError,
        TreeTooLargeError,
        UnknownAlgorithmError,
        UnknownEvaluationError,
        UnknownExampleError,
        UnknownGameError,
        UnknownPlayerError,
    )
    from inarow.engines.exact.solver import load_engine
    from inarow.engines.limits import Limits
    from inarow.engines.policy import analyze
    from inarow.play.players import LEVELS, Choice, player
    from inarow.rules.game import Game, Position
    from inarow.rules.notation import format_moves, parse_game, parse_moves, parse_position
    from inarow.values.answers import Analysis, MoveValue
    from inarow.words.phrases import describe

_HOMES = {
    "inarow.engines.policy": ("analyze",),
    "inarow.values.answers": ("Analysis", "MoveValue"),
    "inarow.base.errors": (
        "BookError",
        "EvaluationCodeError",
        "IllegalMoveError",
        "InarowError",
        "InvalidGameError",
        "InvalidLimitError",
        "InvalidMatchError",
        "InvalidMoveError",
        "InvalidPositionError",
        "ServerBusyError",
        "SessionError",
        "StaleMoveError",
        "StoppedError",
        "StoreError",
        "TreeTooLargeError",
        "UnknownAlgorithmError",
        "UnknownEvaluationError",
        "UnknownExampleError",
        "UnknownGameError",
        "UnknownPlayerError",
    ),
    "inarow.rules.notation": ("format_moves", "parse_game", "parse_moves", "parse_position"),
    "inarow.play.players": ("LEVELS", "Choice", "player"),
    "inarow.rules.game": ("Game", "Position"),
    "inarow.engines.exact.solver": ("load_engine",),
    "inarow.engines.limits": ("Limits",),
    "inarow.words.phrases": ("describe",),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """The public names, imported on first use: ``import inarow`` (and the command line's start) does not
    pay for the modules a task does not need."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'inarow' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


__version__ = "0.2.0"

__all__ = [
    "LEVELS",
    "Analysis",
    "BookError",
    "Choice",
    "EvaluationCodeError",
    "Game",
    "IllegalMoveError",
    "InarowError",
    "InvalidGameError",
    "InvalidLimitError",
    "InvalidMatchError",
    "InvalidMoveError",
    "InvalidPositionError",
    "Limits",
    "MoveValue",
    "Position",
    "ServerBusyError",
    "SessionError",
    "StaleMoveError",
    "StoppedError",
    "StoreError",
    "TreeTooLargeError",
    "UnknownAlgorithmError",
    "UnknownEvaluationError",
    "UnknownExampleError",
    "UnknownGameError",
    "UnknownPlayerError",
    "__version__",
    "analyze",
    "describe",
    "format_moves",
    "load_engine",
    "parse_game",
    "parse_moves",
    "parse_position",
    "player",
]
