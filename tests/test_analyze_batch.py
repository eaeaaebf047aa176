"""``inarow analyze`` reading positions from standard input: a line that cannot be read is a bad line like
any other, and the batch goes on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_batch(data: bytes) -> tuple[list[dict[str, object]], int]:
    """``inarow analyze --json`` on ``data`` as strict UTF-8 standard input: one object per line out."""
    done = subprocess.run(
        [sys.executable, "-m", "inarow", "analyze", "--json"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env={"PYTHONIOENCODING": "utf-8:strict", "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    return [json.loads(line) for line in done.stdout.decode().splitlines()], done.returncode


def test_an_undecodable_line_is_a_bad_line_and_the_batch_goes_on() -> None:
    answers, status = run_batch(b"b2\n\xff\xfeb2\na1\n")
    assert [a["position"] for a in answers] == ["b2", "\ufffd\ufffdb2", "a1"]
    assert answers[1]["error"] == "line 2 is not UTF-8 text (byte 0xff at 1)"
    assert "error" not in answers[0] and "error" not in answers[2]
    assert status == 2  # bad input, as on every command; the batch went on


def test_a_line_over_100000_bytes_is_a_bad_line_shown_shortened() -> None:
    answers, status = run_batch(b"b2\n" + b"x" * 5_000_000 + b"\na1\n")
    assert answers[1] == {
        "position": "x" * 20 + "…",
        "error": "line 2 is longer than 100,000 bytes: it cannot be a position",
    }
    assert [a["position"] for a in answers] == ["b2", "x" * 20 + "…", "a1"]
    assert status == 2  # bad input, as on every command; the batch went on
