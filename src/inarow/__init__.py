"""inarow: tic-tac-toe and the whole k-in-a-row family, with exact game-tree search.

>>> import inarow
>>> position = inarow.parse_position("b2 a1 c3")          # tic-tac-toe unless told otherwise
>>> analysis = inarow.analyze(position)
>>> inarow.describe(analysis), analysis.best
('draw with best play', ('a3', 'c1'))
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the public names, each once; :func:`__getattr__` imports them on first use
    __version__: str
    from inarow.base.errors import BookError as BookError
    from inarow.base.errors import EvaluationCodeError as EvaluationCodeError
    from inarow.base.errors import IllegalMoveError as IllegalMoveError
    from inarow.base.errors import InarowError as InarowError
    from inarow.base.errors import InvalidGameError as InvalidGameError
    from inarow.base.errors import InvalidLimitError as InvalidLimitError
    from inarow.base.errors import InvalidMatchError as InvalidMatchError
    from inarow.base.errors import InvalidMoveError as InvalidMoveError
    from inarow.base.errors import InvalidPositionError as InvalidPositionError
    from inarow.base.errors import ServerBusyError as ServerBusyError
    from inarow.base.errors import SessionError as SessionError
    from inarow.base.errors import StaleMoveError as StaleMoveError
    from inarow.base.errors import StoppedError as StoppedError
    from inarow.base.errors import StoreError as StoreError
    from inarow.base.errors import TreeTooLargeError as TreeTooLargeError
    from inarow.base.errors import UnknownAlgorithmError as UnknownAlgorithmError
    from inarow.base.errors import UnknownEvaluationError as UnknownEvaluationError
    from inarow.base.errors import UnknownExampleError as UnknownExampleError
    from inarow.base.errors import UnknownGameError as UnknownGameError
    from inarow.base.errors import UnknownPlayerError as UnknownPlayerError
    from inarow.engines.exact.solver import load_engine as load_engine
    from inarow.engines.limits import Limits as Limits
    from inarow.engines.policy import analyze as analyze
    from inarow.play.players import LEVELS as LEVELS
    from inarow.play.players import Choice as Choice
    from inarow.play.players import player as player
    from inarow.rules.game import Game as Game
    from inarow.rules.game import Position as Position
    from inarow.rules.notation import format_moves as format_moves
    from inarow.rules.notation import parse_game as parse_game
    from inarow.rules.notation import parse_moves as parse_moves
    from inarow.rules.notation import parse_position as parse_position
    from inarow.values.answers import Analysis as Analysis
    from inarow.values.answers import MoveValue as MoveValue
    from inarow.words.phrases import describe as describe


@cache
def _homes() -> dict[str, str]:
    """Each public name's module, read from the imports above (the one list of them, one name a line): the
    runtime never runs that block, and ``import inarow`` (the command line's start) pays for nothing until
    a name is asked for."""
    import re

    with open(__file__, encoding="utf-8") as source:
        text = source.read()
    return {name: module for module, name in re.findall(r"^    from (\S+) import (\w+) as \2$", text, re.M)}


@cache
def _version() -> str:
    """The installed distribution's version (pyproject.toml's, as the package index knows it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("inarow")
    except PackageNotFoundError:  # a source tree run without installing it
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """The public names, imported on first use; ``__version__`` and ``__all__`` too."""
    if name == "__version__":
        return _version()
    if name == "__all__":
        return sorted([*_homes(), "__version__"])
    module = _homes().get(name)
    if module is None:
        raise AttributeError(f"module 'inarow' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_homes(), "__version__"])
