"""A student's e(P) file run in a child process of its own, so that nothing the code does holds the command.

The parent (:class:`Child`) starts ``python -m inarow.evaluation.sandbox``, which loads the file and answers
one position per request; requests and replies are lines of JSON on two pipes of their own (data, never
code, crosses back: the parent unpickles nothing). The parent waits for each reply with a wall-clock limit
that keeps counting while data arrives, reads at most :attr:`Limits.reply_bytes` of it, and kills the child
when either passes: an ``except BaseException`` in a loop, a disarmed alarm, a loop at the top level of the
file, ``os._exit``, a crash or a flood of the reply pipe all end as a :class:`Reply` the parent can word.

The child leads a session (and so a process group) of its own, and the parent kills the whole group, never
the child alone: when it stops the child, on a timeout, and when the command ends. Within the child, set
before the file is read: a memory limit (``RLIMIT_AS``), a file-size limit (``RLIMIT_FSIZE``), no core
files, and no new process. The last is a seccomp filter (through the system's libseccomp) that makes
``fork``, ``vfork`` and every ``clone`` but a thread's fail, since the kernel exempts root from the
process-count limit ``RLIMIT_NPROC``, which counts the user's processes anyway rather than the child's;
where libseccomp is missing a non-root child gets ``RLIMIT_NPROC`` of 1 instead. A processor-time limit
(``RLIMIT_CPU``) is renewed before each call, so that a child whose parent died mid-call still ends.
Standard input is empty and standard output is standard error, while what the function prints through
``sys.stdout`` is captured (at most :data:`PRINTED` characters a reply) and sent back with the reply for the
parent to show, marked as the function's (:mod:`inarow.evaluation.student` words every reply).

The checks of a returned value (:func:`judged`) are shared with the in-process calls of pasted code.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import io
import json
import math
import numbers
import os
import select
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from inarow.evaluation.board import Board

LARGEST = 1e9
"""The largest size of a value an e(P) may return: a bigger one (or an infinite one) is a mistake, since
the search keeps ±inf for won and lost positions and a game's values are small numbers."""

SHOWN = 60
"""How many characters of a returned value or an error's text a message quotes."""

PRINTED = 20_000
"""How many characters of what the function printed one reply carries (the rest is dropped): well within
:attr:`Limits.reply_bytes`, whatever the characters."""


@dataclass(frozen=True)
class Limits:
    """What one child may take: ``seconds`` of wall clock for each call, ``load_seconds`` for the top level
    of the file, ``memory_bytes`` of address space, ``file_bytes`` the largest file it may write,
    ``reply_bytes`` the most the parent reads for one reply (processor time is bounded by the wall clock,
    rounded up a second). ``forks`` lets the code start processes (never, by default: an e(P) computes a
    number; the tests of the group kill turn it on)."""

    seconds: float = 1.0
    load_seconds: float = 5.0
    memory_bytes: int = 1 << 30
    file_bytes: int = 16 << 20
    reply_bytes: int = 1 << 20
    forks: bool = False


@dataclass(frozen=True)
class Reply:
    """What became of a load or a call, as fields (the sentences are made by the caller).

    ``kind`` is one of ``ready`` (loaded), ``value`` (``value`` holds the number), ``raised`` (``error``,
    ``line``), ``returned`` (not a real number, or NaN: ``shown``), ``too-large`` (``shown``),
    ``no-function`` (``known``: the functions the file defines), ``arguments`` (the function does not
    take one argument), ``timeout`` (the child was killed at the wall-clock limit), ``flooded`` (it was
    killed for sending more than ``bytes`` without ending its reply), ``ended`` (the process ended:
    ``status`` or ``signal``). ``printed`` is what the code wrote to ``sys.stdout`` meanwhile. A call
    that had to load the file again and could not says so with the field ``loading``.
    """

    kind: str
    value: float = 0.0
    fields: Mapping[str, str] = field(default_factory=dict)
    printed: str = ""


def shown(value: object) -> str:
    """``repr(value)`` cut to :data:`SHOWN` characters, whatever ``repr`` does (an integer too long to
    print is said to be one)."""
    try:
        text = repr(value)
    except Exception:  # an int of more than 4,300 digits, or a repr that raises
        if isinstance(value, int):
            return f"an integer of {math.floor(value.bit_length() * math.log10(2)) + 1} digits"
        return f"a {type(value).__name__}"
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def judged(value: object) -> Reply:
    """``value`` as a reply: ``value`` for a real number of size at most :data:`LARGEST`, ``returned`` for
    anything else that is not a real number (a bool, None, a string, NaN), ``too-large`` for an infinite or
    larger number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return Reply("returned", fields={"shown": shown(value)})
    try:
        number = float(value)
    except OverflowError:
        return Reply("too-large", fields={"shown": shown(value)})
    if math.isnan(number):
        return Reply("returned", fields={"shown": shown(value)})
    if not abs(number) <= LARGEST:
        return Reply("too-large", fields={"shown": shown(value)})
    return Reply("value", number)


def error_text(error: BaseException) -> str:
    """``Type: message`` on one line, cut to a sentence's length."""
    try:
        said = str(error)
    except Exception:
        said = ""
    said = " ".join(said.split())
    if len(said) > 2 * SHOWN:
        said = said[: 2 * SHOWN - 3] + "..."
    name = type(error).__name__
    return f"{name}: {said}" if said else name


def line_of(error: BaseException, source: str) -> str:
    """The line of ``source`` where ``error`` was raised, or ``""`` when it was raised elsewhere."""
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == source]
    return str(lines[-1]) if lines and lines[-1] is not None else ""


def raised(error: BaseException, source: str) -> Reply:
    """An exception of the student's code as a reply."""
    line = str(error.lineno or "") if isinstance(error, SyntaxError) else line_of(error, source)
    return Reply("raised", fields={"error": error_text(error), "line": line})


def checked_function(namespace: Mapping[str, Any], name: str) -> Reply:
    """``ready`` when ``namespace`` holds a function ``name`` that takes one argument, else why not."""
    function = namespace.get(name)
    if not callable(function):
        known = sorted(key for key, value in namespace.items() if inspect.isfunction(value))
        return Reply("no-function", fields={"known": ", ".join(known) or "-"})
    try:
        inspect.signature(function).bind(None)
    except TypeError:
        return Reply("arguments")
    except ValueError:
        pass  # a builtin without a signature: the call will tell
    return Reply("ready")


class Child:
    """The function ``name`` of the file at ``path``, run in a child process with ``limits``: by default an
    e(P), served by this module; ``module`` names another whose ``python -m`` serves the file its own way
    (:func:`main` with its own ``load``: a student's search, :mod:`inarow.teaching.checking.child`).

    :meth:`start` loads the file; :meth:`call` asks about one board, :meth:`ask` sends another request.
    Each returns a :class:`Reply`; a ``timeout``, ``flooded`` or ``ended`` reply leaves no process of the
    child's group behind, and the next :meth:`call` starts a new one.
    """

    def __init__(self, path: str, name: str, limits: Limits, module: str = __name__) -> None:
        self.path, self.name, self.limits, self.module = path, name, limits, module
        self._process: subprocess.Popen[bytes] | None = None
        self._to_child = -1
        self._from_child = -1
        self._buffer = b""

    def start(self) -> Reply:
        """Start the child and load the file: ``ready``, or why the file cannot be used."""
        self.stop()
        child_reads, parent_writes = os.pipe()
        parent_reads, child_writes = os.pipe()
        command = [
            sys.executable,
            "-m",
            self.module,
            str(child_reads),
            str(child_writes),
            self.path,
            self.name,
            repr(self.limits.seconds),
            repr(self.limits.load_seconds),
            str(self.limits.memory_bytes),
            str(self.limits.file_bytes),
            "forks" if self.limits.forks else "alone",
        ]
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=2,  # whatever reaches the child's file descriptor 1 is shown on standard error
                pass_fds=(child_reads, child_writes),
                start_new_session=True,  # a group of its own, killed whole; and Ctrl-C is the parent's
            )
        finally:
            os.close(child_reads)
            os.close(child_writes)
        self._to_child, self._from_child, self._buffer = parent_writes, parent_reads, b""
        _running.add(self)
        return self._reply(self.limits.load_seconds)

    def call(self, rows: Sequence[str], k: int, side: str) -> Reply:
        """e(P) of the board of ``rows`` for Max ``side``, or what went wrong (the file is loaded again
        first if its last child was stopped; a failure to load is then the reply)."""
        return self.ask({"rows": list(rows), "k": k, "max": side})

    def ask(self, request: Mapping[str, object]) -> Reply:
        """The reply to ``request`` (JSON), or what went wrong, within :attr:`Limits.seconds` (the file is
        loaded again first if its last child was stopped; a failure to load is then the reply)."""
        if self._process is None:
            started = self.start()
            if started.kind != "ready":
                return replace(started, fields={**started.fields, "loading": "yes"})
        try:
            os.write(self._to_child, (json.dumps(request) + "\n").encode())
        except OSError:
            return self._ended()
        return self._reply(self.limits.seconds)

    def stop(self) -> None:
        """Kill the child's process group (the child and whatever it started that stayed in it), if the
        child was started, and close its pipes. (The group's number cannot name another group meanwhile:
        the kernel does not reuse a process number while a group bears it.)"""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for fd in (self._to_child, self._from_child):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._to_child = self._from_child = -1
        _running.discard(self)

    def _reply(self, seconds: float) -> Reply:
        """The next reply line within ``seconds``, which keep counting while data arrives, and within
        :attr:`Limits.reply_bytes`."""
        deadline = _clock() + seconds
        pieces = [self._buffer]
        size = len(self._buffer)
        while b"\n" not in pieces[-1]:
            left = deadline - _clock()
            ready = left > 0 and select.select([self._from_child], [], [], left)[0]
            if not ready:
                self.stop()
                return Reply("timeout")
            data = os.read(self._from_child, 1 << 16)
            if not data:
                return self._ended()
            pieces.append(data)
            size += len(data)
            if size > self.limits.reply_bytes:
                self.stop()
                return Reply("flooded", fields={"bytes": str(self.limits.reply_bytes)})
        line, _, self._buffer = b"".join(pieces).partition(b"\n")
        try:
            answer = json.loads(line)
            return Reply(
                str(answer["kind"]),
                float(answer.get("value", 0.0)),
                {str(key): str(value) for key, value in answer.get("fields", {}).items()},
                str(answer.get("printed", "")),
            )
        except (ValueError, KeyError, TypeError, AttributeError):  # the code wrote to the reply pipe
            self.stop()
            return Reply("ended", fields={"status": "?"})

    def _ended(self) -> Reply:
        process = self._process
        code = process.wait() if process is not None else 0
        self.stop()
        if code < 0:
            with contextlib.suppress(ValueError):
                return Reply("ended", fields={"signal": signal.Signals(-code).name})
        return Reply("ended", fields={"status": str(code)})


def _clock() -> float:
    return time.monotonic()


_running: set[Child] = set()


@atexit.register
def _stop_all() -> None:
    for child in list(_running):
        child.stop()


class _Printed(io.StringIO):
    """What the function prints, kept up to :data:`PRINTED` characters (the rest is dropped as it comes,
    so that printing cannot use up the child's memory)."""

    def write(self, text: str) -> int:
        room = PRINTED - self.tell()
        if room > 0:
            super().write(text[:room])
        return len(text)


Answer = Callable[[dict[str, Any]], Reply]
"""A loaded file's answer to one request."""

Load = Callable[[dict[str, Any], str, str], tuple[Reply, Answer | None]]
"""What a child does once the file has run into ``namespace``: ``load(namespace, name, path)`` is ``ready``
and the answer to each request, or why the file cannot be used and None."""


def _evaluation(namespace: dict[str, Any], name: str, path: str) -> tuple[Reply, Answer | None]:
    """An e(P): the function ``name`` of one argument, asked about one board a request."""
    loaded = checked_function(namespace, name)
    if loaded.kind != "ready":
        return loaded, None
    function = namespace[name]

    def answer(request: dict[str, Any]) -> Reply:
        board = Board(tuple(request["rows"]), int(request["k"]), request["max"])
        try:
            value = function(board)
        except BaseException as error:
            return raised(error, path)
        return judged(value)

    return loaded, answer


def _serve(
    reads: TextIO,
    writes: TextIO,
    path: str,
    name: str,
    seconds: float,
    load_seconds: float,
    load: Load = _evaluation,
) -> None:
    """The child's side: load ``path``, then answer each request line until the input ends."""
    captured = _Printed()
    sys.stdout = captured

    def send(reply: Reply) -> None:
        printed = captured.getvalue()
        captured.seek(0)
        captured.truncate()
        answer = {"kind": reply.kind, "value": reply.value, "fields": dict(reply.fields), "printed": printed}
        writes.write(json.dumps(answer) + "\n")
        writes.flush()

    _limit_processor_time(load_seconds)
    namespace: dict[str, Any] = {"__name__": "inarow_student", "__file__": path}
    try:
        with open(path, encoding="utf-8") as source:
            code = compile(source.read(), path, "exec")
        exec(code, namespace)
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: the file could not be used
        send(raised(error, path))
        return
    loaded, answer = load(namespace, name, path)
    send(loaded)
    if answer is None:
        return
    for line in reads:
        _limit_processor_time(seconds)
        send(answer(json.loads(line)))


def _limit_processor_time(seconds: float) -> None:
    """Let this process use ``seconds`` more processor time (rounded up, and a second more), then be
    killed by SIGXCPU. (``resource`` is imported here, in the child: the browser's Python, which runs the
    rest of :mod:`inarow.evaluation` for the lab, has no such module.)"""
    import resource

    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = used.ru_utime + used.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(spent + math.ceil(seconds) + 1)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _limit(name: str, most: int) -> None:
    """Lower the resource limit ``name`` (``RLIMIT_AS``, say) to ``most``, soft and hard, so that the code
    cannot raise it again."""
    import resource  # the child's only, as above

    which = getattr(resource, name)
    _, hard = resource.getrlimit(which)
    most = most if hard == resource.RLIM_INFINITY else min(most, hard)
    resource.setrlimit(which, (most, most))


_CLONE_THREAD = 0x00010000
_EAGAIN, _ENOSYS = 11, 38


def _forbid_processes() -> bool:
    """Make every new process fail in this process and whatever it runs, threads excepted: ``fork``,
    ``vfork`` and a ``clone`` without ``CLONE_THREAD`` fail with EAGAIN (as at a process-count limit);
    ``clone3``, whose flags a filter cannot read, answers ENOSYS, and the C library then makes its threads
    with ``clone``. A seccomp filter through the system's libseccomp; False where there is none (or the
    kernel refuses), and nothing is changed. (ctypes is imported here, in the child, as ``resource`` is.)"""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    import ctypes.util

    class ArgumentTest(ctypes.Structure):
        """libseccomp's ``struct scmp_arg_cmp``: argument ``arg`` compared by ``op`` with ``a`` and ``b``."""

        _fields_ = (
            ("arg", ctypes.c_uint),
            ("op", ctypes.c_int),
            ("a", ctypes.c_uint64),
            ("b", ctypes.c_uint64),
        )

    found = ctypes.util.find_library("seccomp")
    if found is None:
        return False
    try:
        library = ctypes.CDLL(found)
    except OSError:
        return False
    library.seccomp_init.restype = ctypes.c_void_p
    library.seccomp_init.argtypes = (ctypes.c_uint32,)
    library.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    library.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(ArgumentTest),
    )
    library.seccomp_load.argtypes = (ctypes.c_void_p,)
    library.seccomp_release.argtypes = (ctypes.c_void_p,)
    allow, fail = 0x7FFF0000, 0x00050000  # SCMP_ACT_ALLOW, SCMP_ACT_ERRNO(0)
    masked_equal = 7  # SCMP_CMP_MASKED_EQ: (argument & a) == b
    context = library.seccomp_init(allow)
    if not context:
        return False
    try:
        no_thread = (ArgumentTest * 1)(ArgumentTest(0, masked_equal, _CLONE_THREAD, 0))
        rules = (("fork", _EAGAIN, None), ("vfork", _EAGAIN, None), ("clone", _EAGAIN, no_thread))
        for call, errno, tests in (*rules, ("clone3", _ENOSYS, None)):
            number = library.seccomp_syscall_resolve_name(call.encode())
            if number < 0:
                continue  # a call this machine does not have (fork on arm64)
            if library.seccomp_rule_add_array(
                context, fail | errno, number, 0 if tests is None else 1, tests
            ):
                return False
        return bool(library.seccomp_load(context) == 0)
    finally:
        library.seccomp_release(context)


def _contain(memory_bytes: int, file_bytes: int, forks: bool) -> None:
    """Set the child's limits, before it reads the student's file."""
    _limit("RLIMIT_AS", memory_bytes)
    _limit("RLIMIT_FSIZE", file_bytes)  # a bigger write fails (Python ignores SIGXFSZ)
    _limit("RLIMIT_CORE", 0)
    if not forks and not _forbid_processes() and os.geteuid() != 0:
        _limit("RLIMIT_NPROC", 1)  # counts the user's processes: so none more, nor threads


def main(arguments: Sequence[str], load: Load = _evaluation) -> None:
    """``python -m inarow.evaluation.sandbox READ_FD WRITE_FD PATH NAME SECONDS LOAD_SECONDS MEMORY FILE
    FORKS``: contain this process, then serve the file (an e(P), or as ``load`` says)."""
    reads_fd, writes_fd, path, name, seconds, load_seconds, memory, file_bytes, forks = arguments
    _contain(int(memory), int(file_bytes), forks == "forks")
    with (
        os.fdopen(int(reads_fd), encoding="utf-8") as reads,
        os.fdopen(int(writes_fd), "w", encoding="utf-8") as writes,
    ):
        _serve(reads, writes, path, name, float(seconds), float(load_seconds), load)


if __name__ == "__main__":
    main(sys.argv[1:])
