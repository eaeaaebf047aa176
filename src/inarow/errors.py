"""The one family of errors inarow raises for bad input.

Every error is a ``ValueError`` so that callers that only know the standard library can still catch it.
Messages are lowercase, quote the bad input with ``!r``, say what was expected and name the position.
"""


class InarowError(ValueError):
    """Base class of every error caused by input the user gave."""


class InvalidGameError(InarowError):
    """A game description that is not a preset nor ``COLSxROWS:K[:gravity]`` within the limits."""


class InvalidPositionError(InarowError):
    """A position string that cannot be read, or a board that cannot arise in play."""


class InvalidMoveError(InarowError):
    """A move whose syntax is wrong: not a cell name (or a column number in gravity games)."""


class IllegalMoveError(InarowError):
    """A well-formed move that cannot be played here: the cell is taken, the column full, the game over."""


class InvalidLimitError(InarowError):
    """A search limit out of range (negative depth, non-positive time, ...)."""
