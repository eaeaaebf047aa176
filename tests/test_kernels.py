"""The kernel generator (:mod:`inarow.engines.compiling`) writes what is checked in, and the compiled searches
of both engines are compiled and marked done by one mechanism."""

from __future__ import annotations

from pathlib import Path

import pytest

from inarow.engines import compiling
from inarow.rules.game import Game

CONNECT4 = Game(7, 6, 4, gravity=True)


def test_the_generator_writes_the_checked_in_connect_four_kernel_byte_for_byte() -> None:
    """The template is Connect Four's kernel: generating Connect Four's gives it back unchanged, so an
    edit of the geometry block by hand (or a generator that drifted) fails here."""
    assert compiling.source(CONNECT4) == compiling.TEMPLATE.read_text()


def test_another_boards_kernel_differs_only_between_the_markers() -> None:
    template, five = compiling.TEMPLATE.read_text(), compiling.source(Game(5, 4, 4, gravity=True))
    head, tail = template.index(compiling.BEGIN), template.index(compiling.END) + len(compiling.END)
    assert five != template
    assert five.startswith(template[:head]) and five.endswith(template[tail:])
    assert "COLUMNS = 5\nROWS = 4\n" in five


@pytest.mark.parametrize(
    ("items", "lines"),
    [
        (["0x1", "0x2"], ["A = np.array([0x1, 0x2], dtype=np.uint64)"]),
        (
            ["0xFFFFFFFFFFFF"] * 5,
            ["A = np.array(", "    [" + ", ".join(["0xFFFFFFFFFFFF"] * 5) + "], dtype=np.uint64", ")"],
        ),
        (
            ["0x0"] * 20,
            ["A = np.array(", "    [" + ", ".join(["0x0"] * 20) + "],", "    dtype=np.uint64,", ")"],
        ),
        (
            ["0x0"] * 30,
            ["A = np.array(", "    [", *["        0x0,"] * 30, "    ],", "    dtype=np.uint64,", ")"],
        ),
    ],
)
def test_an_array_is_wrapped_as_ruff_format_wraps_it(items: list[str], lines: list[str]) -> None:
    """On one line when it fits in 110 characters; else its arguments on one line; else one argument a
    line, the list on its own line or one item a line."""
    assert compiling._array("A", items, "np.uint64") == lines
    assert all(len(line) <= compiling.LINE for line in lines)


def test_a_marker_is_left_once_a_kernel_is_compiled_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Connect Four's boards and the Gomoku kernels have their markers in the same folder, under the same
    rule: named by what was compiled (a hash of its source), left by :meth:`Unit.mark`."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    units = [compiling.unit(CONNECT4), compiling.unit(Game(5, 4, 4, gravity=True)), compiling.gomoku_unit()]
    assert len({unit.marker for unit in units}) == 3
    for unit in units:
        assert unit.marker.parent == tmp_path / "inarow-kernels"
        assert not unit.compiled_before()
        unit.mark()
        assert unit.compiled_before()
