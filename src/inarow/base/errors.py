"""The one family of errors inarow raises for bad input.

Every error is a ``ValueError`` so that callers that only know the standard library can still catch it.
Messages are lowercase, quote the bad input with ``!r``, say what was expected and name the position.

A message is written as its English catalog entry with named parameters, marked for extraction::

    raise IllegalMoveError(
        N_("illegal move {move!r} in {position!r}: {reason}"), reason=N_("cell is taken"), move=m, position=p
    )

``str(error)`` is the message in English (logs, programs, tests); :meth:`InarowError.said` is the same
message in the language of the context (the command line's ``--lang``, the API's ``Accept-Language``). A
parameter that is itself a word of the catalog is given as a :class:`Term`.
"""

from __future__ import annotations

from typing import Any


class Term(str):
    """A parameter of a message that is a word of the catalog itself, translated with the message. Mark it
    for extraction where it is written: ``Term(N_("rows"))``."""


class Items(tuple[str, ...]):
    """A parameter that is a list of names (``easy, medium, hard``): joined by ``, `` in English and by the
    language's own list pattern when said (``简单、中等、困难``), see :func:`inarow.base.i18n.listed`."""


class GameName(str):
    """A parameter that is a game's name (``tictactoe``, ``7x6:4:gravity``): the name itself in English,
    the game's title when said in another language (``井字棋``), see
    :func:`inarow.base.i18n.game_title`."""


def _render(template: str, params: dict[str, Any], translate: bool) -> str:
    if translate:
        from inarow.base.i18n import gettext

        template = gettext(template)
    shown = {name: _shown(value, translate) for name, value in params.items()}
    return template.format(**shown) if shown else template


def _shown(value: Any, translate: bool) -> Any:
    """A parameter as the message shows it: a :class:`Term`, :class:`Items`, a :class:`GameName` or another
    error in the language asked for, another tuple as its items joined by ``; ``."""
    if isinstance(value, Items):
        from inarow.base.i18n import listed

        return listed(value) if translate else ", ".join(value)
    if isinstance(value, GameName) and translate:
        from inarow.base.i18n import game_said

        return game_said(value)
    if isinstance(value, tuple):
        return "; ".join(str(_shown(item, translate)) for item in value)
    if isinstance(value, InarowError):
        return value.said() if translate else str(value)
    if translate and isinstance(value, Term):
        from inarow.base.i18n import gettext

        return gettext(value)
    return value


class InarowError(ValueError):
    """Base class of every error caused by input the user gave.

    ``str(error)`` is the whole message in English, naming the input and the position; :attr:`reason` is
    its last clause alone (``cell is taken``), for an interface that already shows the move and the board.
    ``message`` and ``reason`` are catalog entries with ``{named}`` parameters; a ``{reason}`` in the
    message is filled with the reason. A parameter may be another error (its message), and so may the
    reason (its reason): an error that says where in the input a part of it was wrong.
    """

    def __init__(self, message: str, /, *, reason: str | InarowError | None = None, **params: Any) -> None:
        self.message = message
        self.reason_message = reason
        self.params = params
        super().__init__(self._text(translate=False))
        self.reason = self._reason(translate=False)

    def _reason(self, translate: bool) -> str:
        if self.reason_message is None:
            return self._text(translate)
        if isinstance(self.reason_message, InarowError):
            return self.reason_message._reason(translate)
        return _render(self.reason_message, self.params, translate)

    def _text(self, translate: bool) -> str:
        params = self.params
        if self.reason_message is not None and "{reason}" in self.message:
            params = {**params, "reason": self._reason(translate)}
        return _render(self.message, params, translate)

    def said(self) -> str:
        """The whole message in the language of the context."""
        return self._text(translate=True)

    def reason_said(self) -> str:
        """The reason alone in the language of the context."""
        return self._reason(translate=True)

    def fields(self) -> dict[str, Any]:
        """The message as fields, for a page to say in its reader's language from its own catalog:
        ``{"message": catalog entry, "params": {name: value}}``. A value is a string or a number, or
        ``{"message", "params"}`` again (a word of the catalog, another error, the reason), or
        ``{"items": [...]}`` (a list to join)."""
        params = {name: _field(value) for name, value in self.params.items()}
        if self.reason_message is not None and "{reason}" in self.message:
            if isinstance(self.reason_message, InarowError):
                params["reason"] = self.reason_message._reason_fields()
            else:
                params["reason"] = {"message": self.reason_message, "params": params.copy()}
        return {"message": self.message, "params": params}

    def _reason_fields(self) -> dict[str, Any]:
        if self.reason_message is None:
            return self.fields()
        if isinstance(self.reason_message, InarowError):
            return self.reason_message._reason_fields()
        return {"message": self.reason_message, "params": self.fields()["params"]}


def _field(value: Any) -> Any:
    """A parameter of :meth:`InarowError.fields` as JSON."""
    if isinstance(value, InarowError):
        return value.fields()
    if isinstance(value, Items):
        return {"items": list(value)}
    if isinstance(value, Term):
        return {"message": str(value), "params": {}}
    if isinstance(value, tuple):
        return "; ".join(str(_shown(item, False)) for item in value)
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int | float | str):
        return value
    return str(value)


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


class EvaluationCodeError(UnknownEvaluationError):
    """An evaluation written as code (``mine.py:e``) that cannot be loaded, or whose call raised, returned
    something other than a number, or ran too long; the message names the function and the position."""


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

    def __init__(
        self, message: str, /, *, reason: str | InarowError | None = None, retry_after: int = 2, **params: Any
    ) -> None:
        super().__init__(message, reason=reason, **params)
        self.retry_after = retry_after


class StoppedError(InarowError):
    """A search stopped at the server's time cap before it had an answer to give."""


class BookError(InarowError):
    """An opening book file that cannot be used: not a book, truncated or damaged, of another format
    version or another game, or a build checkpoint that belongs to another build."""


class EngineError(InarowError):
    """Another engine played through a protocol (``pbrain:PATH``) that cannot be used: not an executable,
    exited, hung, refused a command or played an illegal move."""


class InvalidNameError(InarowError):
    """A student's name or a class code that cannot be kept: empty, too long, or holding a character no one
    can see (see :mod:`inarow.values.names`)."""


class NameTakenError(InarowError):
    """A submission under a name another browser has claimed, without the secret that claim gave."""


class UnknownStudentError(InarowError):
    """A student or a submission that is not on the class board."""


class UnknownExampleError(InarowError):
    """An example file name that ``inarow example`` does not ship."""
