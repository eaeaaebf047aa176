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

A file runs in a child process of its own (:mod:`inarow.evaluation.sandbox`), in a process group of its own
that is killed whole, with a memory limit, a file-size limit, no new process (threads are fine), a
processor-time limit and a wall-clock limit the parent enforces by killing it, and a bound on the size of each
reply, so nothing the code does can hold the command; what it prints is shown on standard error, each line
marked ``e(P) printed:``. Each position is asked once per evaluation (the answers are kept). A call that
raises, exits, returns something other than a real number of size at most 1e9, or runs longer than its limit
raises :class:`~inarow.base.errors.EvaluationCodeError` naming the function and the position, never a wrong
answer.
Pasted source and functions handed to the Python API run in this process, with the same checks of the value
and a time limit of their own.
"""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import Any

from inarow.base.errors import EvaluationCodeError
from inarow.base.i18n import N_, _
from inarow.evaluation.board import Board, board_view
from inarow.evaluation.sandbox import LARGEST, Child, Limits, Reply, checked_function, judged, raised
from inarow.rules.game import Game, Position, Side, other

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_SECONDS",
    "Board",
    "CodeEvaluation",
    "allow_files",
    "board_view",
    "code_evaluation_from_source",
    "files_allowed",
    "is_code_spec",
    "load_code_evaluation",
]

DEFAULT_SECONDS = 1.0
"""How much processor time one call of a student's e(P) may use before it is stopped."""

DEFAULT_LIMITS = Limits(seconds=DEFAULT_SECONDS)
"""The limits of the child process that runs a file: a call, the file's top level, memory."""

CODE_SUFFIX = ".py"


class _Timeout(BaseException):
    """Raised inside a student's function when its time is up (a BaseException, so that an ``except
    Exception`` in their code does not swallow it)."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_Timeout` in the code run inside once it has used ``seconds`` of processor time, which
    other processes on a busy machine do not eat into (a run that sleeps instead is stopped from outside:
    the command line's child process has a wall-clock limit, the browser's worker is terminated). On the
    main thread a profiling interval timer does it (and fires again every 50 ms of processor time, should
    the code catch it or the signal land where Python cannot raise, in a garbage collector's callback);
    elsewhere a trace function looks at the thread's processor time at every line of Python (at the wall
    clock in the browser, whose Python has no thread clock)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):

        def ring(signum: int, frame: FrameType | None) -> None:
            raise _Timeout

        previous = signal.signal(signal.SIGPROF, ring)
        signal.setitimer(signal.ITIMER_PROF, seconds, 0.05)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        return
    clock = getattr(time, "thread_time", time.perf_counter)  # Pyodide has none: the page stops its worker
    deadline = clock() + seconds

    def watch(frame: FrameType, event: str, arg: Any) -> Any:
        if clock() > deadline:
            raise _Timeout
        return watch

    tracer = sys.gettrace()
    sys.settrace(watch)
    try:
        yield
    finally:
        sys.settrace(tracer)


def _on_stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


@dataclass(frozen=True, eq=False)
class CodeEvaluation:
    """An e(P) written as a Python function of a :class:`Board` (see the module docstring).

    ``text`` is how the user named it (``mine.py:e``), ``source`` the file or ``<pasted>``, ``seconds`` the
    time one call may take. :meth:`score` is what searches call; ``hook`` (if set) runs before each call
    (a node counter, say). ``child`` (a file's) runs the function in its own process, and ``show`` is
    handed each line it printed, worded; ``function`` is then the same call made from here. Raises
    :class:`~inarow.base.errors.EvaluationCodeError` for a call that fails.
    """

    function: Callable[[Board], object]
    text: str
    source: str
    seconds: float = DEFAULT_SECONDS
    hook: Callable[[], None] | None = None
    child: Child | None = None
    show: Callable[[str], None] = _on_stderr
    known: dict[tuple[Position, Side], float] = field(default_factory=dict, repr=False)

    def with_hook(self, hook: Callable[[], None]) -> CodeEvaluation:
        """The same evaluation running ``hook`` before each call."""
        return replace(self, hook=hook)

    def score(self, position: Position, side: Side) -> float:
        """e(P) of ``position`` from ``side``'s standpoint (``side`` is Max). Raises
        :class:`~inarow.base.errors.EvaluationCodeError`."""
        if self.hook is not None:
            self.hook()
        if self.child is not None:
            return self._asked(position, side, self.child)
        board = board_view(position, side)
        try:
            with _time_limit(self.seconds):
                value = self.function(board)
        except _Timeout:
            raise self._refused(Reply("timeout"), position, side) from None
        except (Exception, SystemExit) as error:
            raise self._refused(raised(error, self.source), position, side) from None
        reply = judged(value)
        if reply.kind != "value":
            raise self._refused(reply, position, side)
        return reply.value

    def _asked(self, position: Position, side: Side, child: Child) -> float:
        key = (position, side)
        if key in self.known:
            return self.known[key]
        board = board_view(position, side)
        reply = child.call(board.rows, board.k, side)
        if reply.printed:
            name = self.text.rpartition(":")[2]
            self.show(
                "".join(
                    _("{name}(P) printed: {line}").format(name=name, line=line) + "\n"
                    for line in reply.printed.splitlines()
                )
            )
        if "loading" in reply.fields:  # its child was stopped, and the file failed when loaded again
            loading = _load_refusal(reply, self.source, self.text, child.limits)
            if loading is not None:
                raise loading
        if reply.kind != "value":
            raise self._refused(reply, position, side)
        self.known[key] = reply.value
        return reply.value

    def _refused(self, reply: Reply, position: Position, side: Side) -> EvaluationCodeError:
        """The error saying what became of a call on ``position`` for Max ``side``."""
        where = {"name": self.text, "position": position.diagram(), "side": side}
        fields = reply.fields
        if reply.kind == "timeout":
            return EvaluationCodeError(
                N_("the evaluation {name!r} took more than {seconds} s on {position!r} (Max is {side})"),
                seconds=f"{self.seconds:g}",
                **where,
            )
        if reply.kind == "returned":
            return EvaluationCodeError(
                N_(
                    "the evaluation {name!r} returned {value} on {position!r} (Max is {side}): expected a "
                    "number from Max's standpoint"
                ),
                value=fields.get("shown", "?"),
                **where,
            )
        if reply.kind == "too-large":
            return EvaluationCodeError(
                N_(
                    "the evaluation {name!r} returned {value} on {position!r} (Max is {side}): expected a "
                    "finite number of size at most {largest}"
                ),
                value=fields.get("shown", "?"),
                largest=f"1e{round(math.log10(LARGEST))}",
                **where,
            )
        if reply.kind == "flooded":
            return EvaluationCodeError(
                N_(
                    "the evaluation {name!r} sent more than {size} bytes without ending its reply on "
                    "{position!r} (Max is {side})"
                ),
                size=fields.get("bytes", "?"),
                **where,
            )
        if reply.kind == "ended" and "signal" in fields:
            return EvaluationCodeError(
                N_("the evaluation {name!r} was killed by {signal} on {position!r} (Max is {side})"),
                signal=fields["signal"],
                **where,
            )
        if reply.kind == "ended":
            return EvaluationCodeError(
                N_(
                    "the evaluation {name!r} ended its process with status {status} on {position!r} "
                    "(Max is {side})"
                ),
                status=fields.get("status", "?"),
                **where,
            )
        line = fields.get("line", "")
        if line:
            return EvaluationCodeError(
                N_("the evaluation {name!r} raised {error} on {position!r} (Max is {side}) at line {line}"),
                error=fields.get("error", "?"),
                line=line,
                **where,
            )
        return EvaluationCodeError(
            N_("the evaluation {name!r} raised {error} on {position!r} (Max is {side})"),
            error=fields.get("error", "?"),
            **where,
        )

    def __call__(self, game: Game, mine: int, theirs: int) -> float:
        """e(P) for the side holding ``mine``, for callers that know only the stones: that side is found
        by counting (the side that moved first holds as many stones as the other or one more; with equal
        counts the side to move, which is the first player, is taken to hold ``mine``)."""
        first = game.first
        side = other(first) if mine.bit_count() < theirs.bit_count() else first
        x, o = (mine, theirs) if side == "x" else (theirs, mine)
        return self.score(Position(game, x, o), side)


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


def load_code_evaluation(text: str, seconds: float | None = None) -> CodeEvaluation:
    """The function ``FUNCTION`` of the file ``PATH.py`` named by ``text`` (``PATH.py:FUNCTION``), as an
    evaluation run in a child process with :data:`DEFAULT_LIMITS` (``seconds`` a call, if given). Runs the
    file's top level there (once per version of the file). Raises
    :class:`~inarow.base.errors.EvaluationCodeError` when files are not allowed in this process
    (:func:`allow_files`), or the file cannot be read or run, or has no such function of one argument."""
    spec_text = text.strip()
    if not _files_allowed:
        raise EvaluationCodeError(
            N_("the evaluation {text!r} is a file, and files are read only on the command line"),
            text=spec_text,
        )
    path_text, _colon, name = spec_text.rpartition(":")
    path = Path(path_text).expanduser()
    try:
        stamp = path.stat()
    except OSError as error:
        raise EvaluationCodeError(
            N_("cannot read the evaluation file {path!r}: {error}"), path=path_text, error=error.strerror
        ) from None
    limits = DEFAULT_LIMITS if seconds is None else replace(DEFAULT_LIMITS, seconds=seconds)
    resolved = str(path.resolve())
    key = (resolved, stamp.st_mtime_ns, stamp.st_size, name, spec_text, limits)
    if key not in _loaded:
        child = Child(resolved, name, limits)
        refusal = _load_refusal(child.start(), resolved, spec_text, limits)
        if refusal is not None:
            child.stop()
            raise refusal
        _loaded[key] = CodeEvaluation(
            _ChildCall(child, spec_text), spec_text, resolved, limits.seconds, child=child
        )
    return _loaded[key]


_loaded: dict[tuple[str, int, int, str, str, Limits], CodeEvaluation] = {}
"""The files loaded, by version and limits: each child loads its file once."""


@dataclass(frozen=True)
class _ChildCall:
    """A file's function called through its child, for callers that hold a :class:`Board`."""

    child: Child
    text: str

    def __call__(self, board: Board) -> object:
        reply = self.child.call(board.rows, board.k, board.max)
        if reply.kind != "value":
            raise EvaluationCodeError(
                N_("the evaluation {name!r} failed on {position!r}"), name=self.text, position=str(board)
            )
        return reply.value


def _load_refusal(reply: Reply, path: str, text: str, limits: Limits) -> EvaluationCodeError | None:
    """Why the file at ``path`` cannot be used, from its child's first reply (None when it is ready)."""
    fields = reply.fields
    if reply.kind == "ready":
        return None
    if reply.kind == "no-function":
        return EvaluationCodeError(
            N_("the evaluation {text!r} names no function {name!r}: the code defines {known}"),
            text=text,
            name=text.rpartition(":")[2],
            known=fields.get("known", "-"),
        )
    if reply.kind == "arguments":
        return EvaluationCodeError(N_("the evaluation {text!r} must take one argument, the board"), text=text)
    if reply.kind == "timeout":
        return EvaluationCodeError(
            N_("the evaluation file {path!r} was still running its top level after {seconds} s"),
            path=path,
            seconds=f"{limits.load_seconds:g}",
        )
    if reply.kind == "flooded":
        return EvaluationCodeError(
            N_(
                "the evaluation file {path!r} sent more than {size} bytes without ending its reply while "
                "running its top level"
            ),
            path=path,
            size=fields.get("bytes", "?"),
        )
    if reply.kind == "ended" and "signal" in fields:
        return EvaluationCodeError(
            N_("the evaluation file {path!r} was killed by {signal} while running its top level"),
            path=path,
            signal=fields["signal"],
        )
    if reply.kind == "ended":
        return EvaluationCodeError(
            N_(
                "the evaluation file {path!r} ended its process with status {status} while running its top "
                "level"
            ),
            path=path,
            status=fields.get("status", "?"),
        )
    if reply.kind == "raised":
        line = fields.get("line", "")
        if line:
            return EvaluationCodeError(
                N_("the evaluation file {path!r} failed to run: {error} at line {line}"),
                path=path,
                error=fields.get("error", "?"),
                line=line,
            )
        return EvaluationCodeError(
            N_("the evaluation file {path!r} failed to run: {error}"),
            path=path,
            error=fields.get("error", "?"),
        )
    return None


def code_evaluation_from_source(
    source: str, function: str = "e", seconds: float = DEFAULT_SECONDS
) -> CodeEvaluation:
    """The function ``function`` defined by pasted ``source`` as an evaluation named ``<pasted>:FUNCTION``.
    Runs the code in this process. Raises :class:`~inarow.base.errors.EvaluationCodeError`."""
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
        line = raised(error, where).fields["line"]
        if line:
            raise EvaluationCodeError(
                N_("the pasted evaluation failed to run: {error} at line {line}"),
                error=f"{type(error).__name__}: {error}",
                line=line,
            ) from None
        raise EvaluationCodeError(
            N_("the pasted evaluation failed to run: {error}"), error=f"{type(error).__name__}: {error}"
        ) from None
    refusal = _load_refusal(checked_function(namespace, function), where, text, DEFAULT_LIMITS)
    if refusal is not None:
        raise refusal
    checked: Callable[[Board], object] = namespace[function]
    return CodeEvaluation(checked, text, where, seconds)
