"""The one family of errors inarow raises for bad input.

Every error is a ``ValueError`` so that callers that only know the standard library can still catch it.
Messages are lowercase, quote the bad input with ``!r``, say what was expected and name the position.
"""


class InarowError(ValueError):
    """Base class of every error caused by input the user gave.

    ``str(error)`` is the whole message, naming the input and the position; :attr:`reason` is its last
    clause alone (``cell is taken``), for an interface that already shows the move and the board.
    """

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


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


class UnknownEvaluationError(InarowError):
    """An evaluation name that is not one of :data:`EVALUATIONS`."""


class SessionError(InarowError):
    """A request that does not fit the state of the game: not your turn, nothing to undo, a bad choice."""


class UnknownPlayerError(InarowError):
    """A player or level name that is not known."""


class InvalidMatchError(InarowError):
    """A match that cannot be played: no games, too many."""


class UnknownAlgorithmError(InarowError):
    """An algorithm name that is not one of :data:`ALGORITHMS`."""


class TreeTooLargeError(InarowError):
    """A search tree with more nodes than the limit set for drawing it, or a comparison's search stopped."""


class UnknownGameError(InarowError):
    """A game id that is not in the store."""


class StoreError(InarowError):
    """A database that cannot be used: a newer schema, or a concurrent write to the same move."""


class StaleMoveError(SessionError):
    """A move sent for a ply that is no longer the next one: a double click, a second tab, a late retry."""


class ServerBusyError(InarowError):
    """Too many requests of one kind wait for the search workers; ``retry_after``: seconds to wait."""

    def __init__(self, message: str, *, reason: str | None = None, retry_after: int = 2) -> None:
        super().__init__(message, reason=reason)
        self.retry_after = retry_after


class StoppedError(InarowError):
    """A search stopped at the server's time cap before it had an answer to give."""


class BookError(InarowError):
    """An opening book file that cannot be used: not a book, truncated or damaged, of another format
    version or another game, or a build checkpoint that belongs to another build."""
