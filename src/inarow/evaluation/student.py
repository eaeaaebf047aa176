"""An evaluation e(P) written as Python code: a function in a file (``--eval mine.py:e``) or pasted source.

The function receives one argument, a read-only :class:`Board` (the position as strings, from the
standpoint of the side Max plays), and returns a number from Max's standpoint::

    def e(board):
        mine = sum(1 for line in board.lines() if board.min not in line)
        theirs = sum(1 for line in board.lines() if board.max not in line)
        return mine - theirs

``board.rows`` are the rows from the top, each a string of ``x``, ``o`` and ``.`` read left to right
(``board.rows[-1][0]`` is a1); ``board.k`` the number in a row; ``board.max`` the side whose standpoint
e(P) takes and ``board.min`` the other; ``board.lines()`` every line of k cells as a string (rows from
the top, then columns from the left, then the diagonals). Won and lost positions are the search's business:
the function is only asked about positions without a completed line.

Running a file runs its code, with the rights of whoever runs inarow. The call is checked: a function that
raises, returns something other than a real number (or NaN), or runs longer than its time limit raises
:class:`~inarow.base.errors.EvaluationCodeError` naming the function and the position, never a wrong answer.
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import numbers
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any

from inarow.base.errors import EvaluationCodeError
from inarow.base.i18n import N_
from inarow.rules.game import Game, Position, Side, other

DEFAULT_SECONDS = 1.0
"""How long one call of a student's e(P) may run before it is stopped."""

CODE_SUFFIX = ".py"


@cache
def _line_cells(columns: int, rows: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every line of k cells as indexes into the rows joined top to bottom: rows from the top, then
    columns from the left, then the diagonals going down-right, then those going up-right."""

    def index(row: int, column: int) -> int:
        return row * columns + column

    found: list[tuple[int, ...]] = []
    for row in range(rows):
        for column in range(columns - k + 1):
            found.append(tuple(index(row, column + i) for i in range(k)))
    for column in range(columns):
        for row in range(rows - k + 1):
            found.append(tuple(index(row + i, column) for i in range(k)))
    for row in range(rows - k + 1):
        for column in range(columns - k + 1):
            found.append(tuple(index(row + i, column + i) for i in range(k)))
    for row in range(k - 1, rows):
        for column in range(columns - k + 1):
            found.append(tuple(index(row - i, column + i) for i in range(k)))
    return tuple(found)


@dataclass(frozen=True)
class Board:
    """The position an e(P) written as code is asked about, read-only.

    ``rows``: the rows from the top, each a string of ``x``, ``o`` and ``.`` from left to right; ``k``: how
    many in a row win; ``max``: the side whose standpoint e(P) takes (``x`` or ``o``), ``min`` the other.
    """

    rows: tuple[str, ...]
    k: int
    max: Side
    _flat: str = field(repr=False, compare=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "_flat", "".join(self.rows))

    @property
    def min(self) -> Side:
        """The opponent of :attr:`max`."""
        return other(self.max)

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.rows)

    def lines(self) -> tuple[str, ...]:
        """Every line of k cells as a string of ``x``, ``o`` and ``.``: rows from the top, then columns from
        the left (each read from the top), then the diagonals."""
        flat = self._flat
        return tuple(
            "".join(flat[i] for i in cells) for cells in _line_cells(self.width, self.height, self.k)
        )

    def __str__(self) -> str:
        return "/".join(self.rows)


def board_view(position: Position, side: Side) -> Board:
    """``position`` as the :class:`Board` an e(P) for ``side`` (Max) receives."""
    return Board(tuple(position.diagram().split("/")), position.game.k, side)


class _Timeout(BaseException):
    """Raised inside a student's function when its time is up (a BaseException, so that an ``except
    Exception`` in their code does not swallow it)."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_Timeout` in the code run inside once ``seconds`` have passed. On the main thread an
    interval timer does it (and fires again every 50 ms, should the code catch it); elsewhere (a web
    server's worker thread) a trace function looks at the clock at every line of Python."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):

        def ring(signum: int, frame: FrameType | None) -> None:
            raise _Timeout

        previous = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return
    deadline = time.perf_counter() + seconds

    def watch(frame: FrameType, event: str, arg: Any) -> Any:
        if time.perf_counter() > deadline:
            raise _Timeout
        return watch

    tracer = sys.gettrace()
    sys.settrace(watch)
    try:
        yield
    finally:
        sys.settrace(tracer)


@dataclass(frozen=True, eq=False)
class CodeEvaluation:
    """An e(P) written as a Python function of a :class:`Board` (see the module docstring).

    ``text`` is how the user named it (``mine.py:e``), ``source`` the file or ``<pasted>``, ``seconds`` the
    time one call may take. :meth:`score` is what searches call; ``hook`` (if set) runs before each call
    (a node counter, say). Raises :class:`~inarow.base.errors.EvaluationCodeError` for a call that fails.
    """

    function: Callable[[Board], object]
    text: str
    source: str
    seconds: float = DEFAULT_SECONDS
    hook: Callable[[], None] | None = None

    def with_hook(self, hook: Callable[[], None]) -> CodeEvaluation:
        """The same evaluation running ``hook`` before each call."""
        return CodeEvaluation(self.function, self.text, self.source, self.seconds, hook)

    def score(self, position: Position, side: Side) -> float:
        """e(P) of ``position`` from ``side``'s standpoint (``side`` is Max). Raises
        :class:`~inarow.base.errors.EvaluationCodeError`."""
        if self.hook is not None:
            self.hook()
        board = board_view(position, side)
        try:
            with _time_limit(self.seconds):
                value = self.function(board)
        except _Timeout:
            raise EvaluationCodeError(
                N_("the evaluation {name!r} took more than {seconds} s on {position!r} (Max is {side})"),
                name=self.text,
                seconds=f"{self.seconds:g}",
                position=position.diagram(),
                side=side,
            ) from None
        except (Exception, SystemExit) as error:
            raise EvaluationCodeError(
                N_("the evaluation {name!r} raised {error} on {position!r} (Max is {side}){where}"),
                name=self.text,
                error=f"{type(error).__name__}: {error}",
                position=position.diagram(),
                side=side,
                where=_where(error, self.source),
            ) from None
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(float(value)):
            raise EvaluationCodeError(
                N_(
                    "the evaluation {name!r} returned {value} on {position!r} (Max is {side}): expected a "
                    "number from Max's standpoint"
                ),
                name=self.text,
                value=_shown(value),
                position=position.diagram(),
                side=side,
            )
        return float(value)

    def __call__(self, game: Game, mine: int, theirs: int) -> float:
        """e(P) for the side holding ``mine``, for callers that know only the stones: that side is found
        by counting (the side that moved first holds as many stones as the other or one more; with equal
        counts the side to move, which is the first player, is taken to hold ``mine``)."""
        first = game.first
        side = other(first) if mine.bit_count() < theirs.bit_count() else first
        x, o = (mine, theirs) if side == "x" else (theirs, mine)
        return self.score(Position(game, x, o), side)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _where(error: BaseException, source: str) -> str:
    """`` at line N`` of the student's code where ``error`` was raised, if it was raised there."""
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == source]
    return f" at line {lines[-1]}" if lines else ""


def is_code_spec(text: str) -> bool:
    """Whether ``text`` names a function in a file: ``PATH.py:FUNCTION``."""
    path, colon, function = text.strip().rpartition(":")
    return bool(colon) and path.endswith(CODE_SUFFIX) and bool(function)


_files_allowed = False


def allow_files() -> None:
    """Let :func:`load_code_evaluation` read files from now on in this process. The command line does so
    for an ``--eval`` or a player it was given; a server never does, so that no request can make it run a
    file of its disk (pasted code is a separate, explicit route: :func:`code_evaluation_from_source`)."""
    global _files_allowed
    _files_allowed = True


def files_allowed() -> bool:
    """Whether :func:`allow_files` was called in this process."""
    return _files_allowed


def load_code_evaluation(text: str, seconds: float = DEFAULT_SECONDS) -> CodeEvaluation:
    """The function ``FUNCTION`` of the file ``PATH.py`` named by ``text`` (``PATH.py:FUNCTION``), as an
    evaluation. Runs the file. Raises :class:`~inarow.base.errors.EvaluationCodeError` when files are not
    allowed in this process (:func:`allow_files`), or the file cannot be read or run, or has no such
    function of one argument."""
    spec_text = text.strip()
    if not _files_allowed:
        raise EvaluationCodeError(
            N_("the evaluation {text!r} is a file, and files are read only on the command line"),
            text=spec_text,
        )
    path_text, _, name = spec_text.rpartition(":")
    path = Path(path_text).expanduser()
    try:
        stamp = path.stat()
    except OSError as error:
        raise EvaluationCodeError(
            N_("cannot read the evaluation file {path!r}: {error}"), path=path_text, error=error.strerror
        ) from None
    function = _load_file(str(path.resolve()), stamp.st_mtime_ns, stamp.st_size, name, spec_text)
    return CodeEvaluation(function, spec_text, str(path.resolve()), seconds)


@cache
def _load_file(path: str, mtime: int, size: int, name: str, text: str) -> Callable[[Board], object]:
    """The function ``name`` of the file at ``path``, run once per version of the file (``mtime``,
    ``size``)."""
    spec = importlib.util.spec_from_file_location(f"inarow_student_{abs(hash(path))}", path)
    if spec is None or spec.loader is None:
        raise EvaluationCodeError(N_("cannot read the evaluation file {path!r}"), path=path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        raise EvaluationCodeError(
            N_("the evaluation file {path!r} failed to run: {error}{where}"),
            path=path,
            error=f"{type(error).__name__}: {error}",
            where=_where(error, path),
        ) from None
    return _function(vars(module), name, text)


def code_evaluation_from_source(
    source: str, function: str = "e", seconds: float = DEFAULT_SECONDS
) -> CodeEvaluation:
    """The function ``function`` defined by pasted ``source`` as an evaluation named ``<pasted>:FUNCTION``.
    Runs the code. Raises :class:`~inarow.base.errors.EvaluationCodeError`."""
    where = "<pasted>"
    text = f"{where}:{function}"
    try:
        code = compile(source, where, "exec")
        namespace: dict[str, Any] = {"__name__": "inarow_pasted"}
        exec(code, namespace)
    except SyntaxError as error:
        raise EvaluationCodeError(
            N_("the pasted evaluation does not compile: {error} at line {line}"),
            error=error.msg,
            line=error.lineno or 0,
        ) from None
    except (Exception, SystemExit) as error:
        raise EvaluationCodeError(
            N_("the pasted evaluation failed to run: {error}{where}"),
            error=f"{type(error).__name__}: {error}",
            where=_where(error, where),
        ) from None
    return CodeEvaluation(_function(namespace, function, text), text, where, seconds)


def _function(namespace: dict[str, Any], name: str, text: str) -> Callable[[Board], object]:
    function = namespace.get(name)
    if not callable(function):
        known = sorted(key for key, value in namespace.items() if inspect.isfunction(value))
        raise EvaluationCodeError(
            N_("the evaluation {text!r} names no function {name!r}: the code defines {known}"),
            text=text,
            name=name,
            known=", ".join(known) or "-",
        )
    try:
        inspect.signature(function).bind(None)
    except TypeError:
        raise EvaluationCodeError(
            N_("the evaluation {text!r} must take one argument, the board"), text=text
        ) from None
    except ValueError:
        pass  # a builtin without a signature: the call will tell
    checked: Callable[[Board], object] = function
    return checked
