"""inarow: tic-tac-toe and the whole k-in-a-row family, with exact game-tree search.

>>> import inarow
>>> position = inarow.parse_position("b2 a1 c3")          # tic-tac-toe unless told otherwise
>>> analysis = inarow.analyze(position)
>>> analysis.describe(), analysis.best
('draw with best play', ('a3', 'c1'))
"""

from inarow.analysis import Analysis, MoveValue, analyze
from inarow.errors import (
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
    UnknownGameError,
    UnknownPlayerError,
)
from inarow.notation import format_moves, parse_game, parse_moves, parse_position
from inarow.players import LEVELS, Choice, player
from inarow.rules import Game, Position
from inarow.search.limits import Limits

__version__ = "0.1.0"

__all__ = [
    "LEVELS",
    "Analysis",
    "Choice",
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
    "UnknownGameError",
    "UnknownPlayerError",
    "__version__",
    "analyze",
    "format_moves",
    "parse_game",
    "parse_moves",
    "parse_position",
    "player",
]
