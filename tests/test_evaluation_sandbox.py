"""The process that runs a student's e(P) file is contained from outside: its whole process group is killed
when it stops, on a timeout and when the command ends; it may start no process; its reply is bounded in
size and its deadline counts while data arrives; the files it writes are bounded in size.

Whether a process survives is read from ``/proc`` (every process whose group is the child's, zombies
aside: a killed orphan waits there until the machine's first process reaps it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from inarow.cli import app
from inarow.evaluation import sandbox
from inarow.evaluation import student as student_module
from inarow.evaluation.sandbox import Child, Limits
from inarow.evaluation.student import allow_files

runner = CliRunner()

SMALL = Limits(seconds=1.0, load_seconds=5.0, memory_bytes=256 << 20, file_bytes=1 << 20)
"""Limits small enough for tests: a call may take 1 s, memory 256 MB, a file 1 MiB."""

ROWS = ("...", "...", "...")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture(autouse=True)
def files_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    allow_files()
    monkeypatch.setattr(student_module, "DEFAULT_LIMITS", SMALL)


def write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "student.py"
    path.write_text(textwrap.dedent(body))
    return str(path)


def living(group: int) -> list[int]:
    """The processes of the process group ``group`` that have not ended (zombies are ended), once the
    kill sent to them has taken effect: a killed process ends a moment after the signal is sent, so the
    group is looked at again for up to ten seconds while it still has members."""
    for _ in range(100):
        found = members(group)
        if not found:
            return found
        time.sleep(0.1)
    return found


def members(group: int) -> list[int]:
    """The processes of the process group ``group`` now, zombies aside."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        state, _parent, process_group = stat.rpartition(")")[2].split()[:3]
        if int(process_group) == group and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def children() -> Iterator[list[Child]]:
    """The children a test starts, stopped at its end whatever happened."""
    started: list[Child] = []
    yield started
    for child in started:
        child.stop()


def started(children: list[Child], path: str, limits: Limits) -> tuple[Child, int]:
    """A child of ``path``'s ``e``, loaded, and its process group."""
    child = Child(path, "e", limits)
    children.append(child)
    assert child.start().kind == "ready"
    assert child._process is not None
    return child, child._process.pid


FORKS_A_SLEEPER = """\
    import os, time

    def e(board):
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
        {then}
"""


def test_a_grandchild_is_killed_with_its_group_when_the_child_stops(
    tmp_path: Path, children: list[Child]
) -> None:
    path = write(tmp_path, FORKS_A_SLEEPER.format(then="return 1"))
    child, group = started(children, path, replace(SMALL, forks=True))
    assert child.call(ROWS, 3, "x").value == 1
    assert len(members(group)) == 2  # the child and its sleeping grandchild
    child.stop()
    assert living(group) == []


def test_a_grandchild_is_killed_with_its_group_on_a_timeout(tmp_path: Path, children: list[Child]) -> None:
    body = FORKS_A_SLEEPER.format(then="while True:\n            pass")
    child, group = started(children, write(tmp_path, body), Limits(seconds=0.5, forks=True))
    assert child.call(ROWS, 3, "x").kind == "timeout"
    assert living(group) == []


def test_a_grandchild_holding_standard_error_does_not_hold_the_command(tmp_path: Path) -> None:
    """The command ends (its atexit stops every child) and whoever reads its standard error through a
    pipe (``2>&1 | cat``) sees the end, though the grandchild slept on with the pipe open."""
    path = write(tmp_path, FORKS_A_SLEEPER.format(then="return 1"))
    script = (
        "from inarow.evaluation.sandbox import Child, Limits\n"
        f"child = Child({path!r}, 'e', Limits(forks=True))\n"
        "child.start()\n"
        f"print(child._process.pid, child.call({ROWS!r}, 3, 'x').value, flush=True)\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=600,
        text=True,
    )
    group, value = ran.stdout.split()
    assert (ran.returncode, value) == (0, "1.0")
    assert living(int(group)) == []


@pytest.mark.parametrize(
    "start",
    [
        "os.fork()",
        "subprocess.run(['sleep', '3600'])",
        "os.posix_spawn('/bin/sleep', ['sleep', '3600'], {})",
    ],
)
def test_an_evaluation_may_start_no_process_even_as_root_but_threads_work(tmp_path: Path, start: str) -> None:
    spec = write(
        tmp_path,
        f"""\
        import os, subprocess, threading

        def e(board):
            worker = threading.Thread(target=print, args=("a thread ran",))
            worker.start()
            worker.join()
            {start}
            return 0
        """,
    )
    result = runner.invoke(app, ["analyze", "", "--algo", "minimax", "--depth", "1", "--eval", f"{spec}:e"])
    assert result.exit_code == 2, result.output
    printed, error = result.stderr.splitlines()
    assert printed == "e(P) printed: a thread ran"
    assert error.startswith(f"error: the evaluation '{spec}:e' raised BlockingIOError: [Errno 11] ")
    assert error.endswith(" on '.../.../x..' (Max is x) at line 7")


FLOODS = """\
    import os, sys

    def e(board):
        with open({pid_file!r}, "w") as out:
            out.write(str(os.getpid()))
        reply = int(sys.argv[2])  # the pipe of the replies, as the child was started
        while True:
            os.write(reply, b"x" * 4096)
"""


def test_an_evaluation_that_floods_its_reply_pipe_is_stopped_at_the_size_bound(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    spec = write(tmp_path, FLOODS.format(pid_file=str(pid_file)))
    result = runner.invoke(app, ["grade", "--eval", f"{spec}:e"])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"error: the evaluation '{spec}:e' sent more than 1048576 bytes without ending its reply on "
        "'xxo/oxx/xoo' (Max is x)\n"  # the first position of the lab's list
    )
    assert living(int(pid_file.read_text())) == []


def test_the_deadline_counts_while_a_flood_arrives(
    tmp_path: Path, children: list[Child], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bound on size far beyond what arrives: the flood is ended by the deadline, on a clock that moves
    a quarter of a second each time it is read (so neither the machine's speed nor the pipe's matter)."""
    spec = write(tmp_path, FLOODS.format(pid_file=str(tmp_path / "pid")))
    child, group = started(children, spec, Limits(seconds=1.0, reply_bytes=1 << 40))
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(sandbox, "_clock", lambda: next(ticks) / 4)
    assert child.call(ROWS, 3, "x").kind == "timeout"
    assert next(ticks) <= 7  # read at the start, then once a chunk: the fifth reading is past the deadline
    assert living(group) == []


def test_what_the_function_prints_is_cut_to_a_bound(tmp_path: Path, children: list[Child]) -> None:
    spec = write(tmp_path, "def e(board):\n    print('x' * 50_000_000)\n    return 3\n")
    child, _ = started(children, spec, SMALL)
    reply = child.call(ROWS, 3, "x")
    assert (reply.kind, reply.value, reply.printed) == ("value", 3.0, "x" * sandbox.PRINTED)


def test_a_file_larger_than_the_limit_cannot_be_written(tmp_path: Path) -> None:
    spec = write(
        tmp_path, f"def e(board):\n    open({str(tmp_path / 'big')!r}, 'wb').write(bytes(2 << 20))\n"
    )
    result = runner.invoke(app, ["analyze", "", "--algo", "minimax", "--depth", "1", "--eval", f"{spec}:e"])
    assert result.exit_code == 2, result.output
    assert "raised OSError: [Errno 27] File too large on '.../.../x..' (Max is x) at line 2" in result.stderr
    assert (tmp_path / "big").stat().st_size <= 1 << 20
