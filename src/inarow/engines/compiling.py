"""One compiled search per board: :mod:`inarow.engines.exact.kernel_template` specialised with the board's
constants.

:func:`kernel` writes, once per board and version of the template, a copy of ``kernel.py`` whose block
between the ``geometry`` markers holds the board's constants (its masks, move order, symmetries) and its
line test written out for its k and directions; imports it; and hands back the module, whose
:func:`solve` numba compiles on first call (or loads from its cache: ``cache=True``). The copies live in
:func:`kernel_folder`; a copy's name holds the board and a hash of its text, so a changed template makes new
files (and numba new machine code) instead of reusing stale ones.

Cost, on the project's 2-core machine: compiling one board's kernel takes a few seconds, once per install
and board; loading it from numba's cache in a later process a fraction of a second.

Checked kernels: in a process started with :data:`CHECKS_VARIABLE` set, every kernel is compiled with its
``DEBUG`` flag True, so that its Pons-style asserts run (a failed one raises AssertionError out of the
kernel): the boards' copies are written with ``DEBUG = True``, and the Gomoku kernels are loaded from such a
copy of :data:`GOMOKU_KERNEL` in place of the package's module (:func:`load_checked_gomoku_kernel`, called
when :mod:`inarow.engines.gomoku` is imported), all in a folder of their own (:func:`kernel_folder`), so
that the checked machine code never mixes with the unchecked one in numba's cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

from inarow.rules.game import Game
from inarow.rules.symmetry import symmetries

TEMPLATE = Path(__file__).parent / "exact" / "kernel_template.py"
"""The template: Connect Four's kernel, whose geometry block is replaced for every other board."""

BEGIN = "# ------------------------------------------------------------------------------ geometry begin"
END = "# -------------------------------------------------------------------------------- geometry end"

GOMOKU_KERNEL = Path(__file__).parent / "gomoku" / "kernel.py"
"""The Gomoku engine's kernels (one module for every board, see :mod:`inarow.engines.gomoku.driver`)."""

LAYOUT_BITS = 64

CHECKS_VARIABLE = "INAROW_KERNEL_CHECKS"
"""An environment variable: set to anything but ``""`` or ``0``, the process compiles checked kernels (see the
module's docstring). Slower, and for tests: no level or command sets it."""

DEBUG_OFF = "DEBUG = False\n"
DEBUG_ON = "DEBUG = True\n"
"""The line of a kernel module that switches its asserts off, and the one that switches them on."""


def checking() -> bool:
    """Whether this process compiles checked kernels (:data:`CHECKS_VARIABLE`)."""
    return os.environ.get(CHECKS_VARIABLE, "") not in ("", "0")


def _checked(text: str) -> str:
    """A kernel module's text with its asserts on (one ``DEBUG = False`` line, AssertionError otherwise)."""
    assert text.count(DEBUG_OFF) == 1, "a kernel has one DEBUG line"
    return text.replace(DEBUG_OFF, DEBUG_ON)


_lock = threading.Lock()
_loaded: dict[tuple[int, int, int, bool], ModuleType] = {}


def _key(game: Game) -> tuple[int, int, int, bool]:
    return game.columns, game.rows, game.k, game.gravity


LINE = 110
"""The project's line length (``ruff``'s ``line-length``): the geometry block is written as ``ruff format``
writes it, so that the checked-in template is byte for byte what :func:`source` gives for Connect Four."""


def _hex(value: int) -> str:
    """An integer in hexadecimal as ``ruff format`` writes it: ``0xFDFB``."""
    return f"0x{value:X}"


def _array(name: str, items: list[str], dtype: str) -> list[str]:
    """The lines of ``NAME = np.array([items], dtype=...)`` wrapped as ``ruff format`` wraps them: on one
    line; else the arguments on one indented line; else one argument a line, the list on one line or,
    when it does not fit either, one item a line."""
    listed = "[" + ", ".join(items) + "]"
    one = f"{name} = np.array({listed}, dtype={dtype})"
    if len(one) <= LINE:
        return [one]
    arguments = f"    {listed}, dtype={dtype}"
    if len(arguments) <= LINE:
        return [f"{name} = np.array(", arguments, ")"]
    if len(f"    {listed},") <= LINE:
        body = [f"    {listed},"]
    else:
        body = ["    [", *(f"        {item}," for item in items), "    ],"]
    return [f"{name} = np.array(", *body, f"    dtype={dtype},", ")"]


def _winning(game: Game, shifts: set[int]) -> list[str]:
    """The source of ``_winning`` written out for the board's k and line directions.

    For each direction ``d``, ``a{i}`` marks the cells with ``i`` stones just after them and ``b{i}`` those
    with ``i`` just before; a cell with ``j`` behind and ``k - 1 - j`` ahead completes a line. Shifts of 64
    or more give nothing and are left out.
    """
    k = game.k
    body = [
        '@njit(cache=True, inline="always")',
        "def _winning(s: np.uint64, empty: np.uint64) -> np.uint64:",
        '    """The cells of ``empty`` where one more stone completes a line for ``s``'
        ' (written out per board)."""',
    ]
    if k == 1:
        return [*body, "    return empty"]
    body.append("    found = np.uint64(0)")
    for d in game.directions:
        ahead = behind = 0  # how many of a1.. / b1.. are defined (the rest are 0)
        for i in range(1, k):
            if d * i >= LAYOUT_BITS:
                break
            shifts.add(d * i)
            body.append(f"    a{i} = " + (f"a{i - 1} & (s >> U{d * i})" if i > 1 else f"s >> U{d * i}"))
            body.append(f"    b{i} = " + (f"b{i - 1} & (s << U{d * i})" if i > 1 else f"s << U{d * i}"))
            ahead = behind = i
        terms = []
        if ahead == k - 1:
            terms.append(f"a{k - 1}")
        if behind == k - 1:
            terms.append(f"b{k - 1}")
        terms += [f"(b{j} & a{k - 1 - j})" for j in range(1, k - 1) if j <= behind and k - 1 - j <= ahead]
        if terms:
            body.append("    found |= " + " | ".join(terms))
    return [*body, "    return found & empty"]


def geometry_block(game: Game) -> str:
    """The lines between the template's markers for ``game``: its constants and its ``_winning``."""
    width, height, gravity = game.columns, game.height, game.gravity
    assert width * height <= LAYOUT_BITS, f"{game.name} needs {width * height} bits"
    if gravity:
        # Pons' column order: the centre, then alternately left and right of it.
        ids = [width // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(width)]
        id_masks = list(game.column_masks)
    else:
        ids = list(game.cell_order)
        id_masks = [1 << b for b in range(width * height)]
    group = symmetries(game)
    nsym = 1 if gravity else len(group)
    nchunks = (width * height + 7) // 8
    shifts: set[int] = {1}
    winning = _winning(game, shifts)
    lines = [
        BEGIN,
        f"# Generated by inarow.engines.compiling for {game.name}.",
        f"COLUMNS = {width}",
        f"ROWS = {game.rows}",
        f"K = {game.k}",
        f"CELLS = {game.cells}",
        f"GRAVITY = {gravity}",
        f"KEY_WORDS = {2 if gravity else 3}",
        f"BOARD = np.uint64({_hex(game.board_mask)})",
        f"BOTTOM = np.uint64({_hex(game.bottom_mask)})",
        f"NORDER = {len(ids)}",
        *_array("ORDER", [_hex(id_masks[i]) for i in ids], "np.uint64"),
        *_array("ORDER_ID", [str(i) for i in ids], "np.int64"),
        *_array("ID_MASKS", [_hex(m) for m in id_masks + [0] * (LAYOUT_BITS - len(id_masks))], "np.uint64"),
        f"NSYM = {nsym}",
        f"NCHUNKS = {nchunks}",
    ]
    if nsym == 1:
        lines.append("PERM = np.zeros((2, 1, 64), dtype=np.int64)")
    else:
        # PERM[0, s] maps a move id (a cell bit) to its image under symmetry s, PERM[1, s] back.
        perm = [[[0] * LAYOUT_BITS for _ in range(nsym)] for _ in range(2)]
        for s in range(nsym):
            for bit, image in group.permutations[s].items():
                perm[0][s][bit] = image
                perm[1][s][image] = bit
        lines.append(f"PERM = np.array({perm}, dtype=np.int64)")
    lines += [f"U{n} = np.uint64({n})" for n in sorted(shifts)]
    lines += ["", "", *winning, "", "", END]
    return "\n".join(lines)


def source(game: Game) -> str:
    """The text of ``game``'s kernel module: the template with its geometry block replaced."""
    text = TEMPLATE.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    text = text[:start] + geometry_block(game) + text[end:]
    return _checked(text) if checking() else text


def kernel_folder() -> Path:
    """Where the boards' kernel modules are written (numba keeps their machine code beside them, in
    ``__pycache__``, or under ``NUMBA_CACHE_DIR`` when it is set): ``NUMBA_CACHE_DIR/inarow-kernels``, else
    ``__pycache__/kernels`` next to this file, else (a read-only install) a folder in the temporary folder;
    for checked kernels (:func:`checking`), its subfolder ``checked``."""
    folder = _unchecked_folder()
    return folder / "checked" if checking() else folder


def _unchecked_folder() -> Path:
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured) / "inarow-kernels"
    here = Path(__file__).parent / "__pycache__" / "kernels"
    try:
        here.mkdir(parents=True, exist_ok=True)
        if os.access(here, os.W_OK):
            return here
    except OSError:
        pass
    return Path(tempfile.gettempdir()) / f"inarow-kernels-{os.getuid()}"


def kernel_path(game: Game) -> Path:
    """The file of ``game``'s kernel module (which may not be written yet)."""
    text = source(game)
    digest = hashlib.sha1(text.encode()).hexdigest()[:12]
    kind = "gravity" if game.gravity else "free"
    return kernel_folder() / f"kernel_{game.columns}x{game.rows}_{game.k}_{kind}_{digest}.py"


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` unless it holds it already (numba's cache is keyed on the file's time, so
    an unchanged kernel is never rewritten); atomically, as several processes may start at once."""
    if path.is_file() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(text)
    os.replace(partial, path)


def kernel(game: Game) -> ModuleType:
    """``game``'s kernel module, written and imported on first use in the process (numba compiles or loads
    its functions on their first call)."""
    key = _key(game)
    found = _loaded.get(key)
    if found is not None:
        return found
    with _lock:
        found = _loaded.get(key)
        if found is None:
            path = kernel_path(game)
            _write(path, source(game))
            name = f"inarow_{path.stem}"
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            found = importlib.util.module_from_spec(spec)
            sys.modules[name] = found
            spec.loader.exec_module(found)
            _loaded[key] = found
    return found


COMPILING_VARIABLE = "INAROW_COMPILING"


class _Watch(threading.local):
    hook: Callable[[bool], None] | None = None


_watch = _Watch()


@contextlib.contextmanager
def watching(hook: Callable[[bool], None]) -> Iterator[None]:
    """Within the block, ``hook(True)`` as this thread starts compiling a unit (or waiting for another
    process to) and ``hook(False)`` once it is done: a pool that bounds its tasks from outside does not
    count that time against them."""
    saved = _watch.hook
    _watch.hook = hook
    try:
        yield
    finally:
        _watch.hook = saved


"""Set by :meth:`Unit.compile_elsewhere` for its child: the unit whose lock the parent holds for it."""


@dataclass(frozen=True)
class Unit:
    """Compiled code that one process compiles for all the others, which then load it from numba's cache:
    a board's Connect Four kernel (:func:`unit`) or the Gomoku kernels (:func:`gomoku_unit`), the same
    way for both.

    ``name`` holds a hash of the source, so an edited kernel counts as not compiled; ``warm_up`` is the
    Python a child process runs to compile it. Its marker (:attr:`marker`) is left once it has run
    (:meth:`mark`), and a lock file (:meth:`compiling`) makes processes that compile at once wait for the
    first one instead of each running the compiler.
    """

    name: str
    warm_up: str

    @property
    def marker(self) -> Path:
        """The file left once the unit has been compiled, in :func:`kernel_folder`."""
        return kernel_folder() / f"{self.name}.ready"

    def compiled_before(self) -> bool:
        """Whether the unit was compiled before, so that a process loads it from numba's cache (a fraction
        of a second) rather than compiles it (seconds). A guess from the marker: numba still recompiles
        when numba or the CPU has changed."""
        return self.marker.is_file()

    def mark(self) -> None:
        """Leave the marker, once the unit has run in this process."""
        if not self.marker.is_file():
            with contextlib.suppress(OSError):
                self.marker.parent.mkdir(parents=True, exist_ok=True)
                self.marker.touch()

    @contextlib.contextmanager
    def compiling(self) -> Iterator[None]:
        """Hold the unit's lock while this process compiles it (a child of :meth:`compile_elsewhere` runs
        under its parent's). Without file locks (Windows), nothing is held: at worst two processes
        compile at once."""
        if os.environ.get(COMPILING_VARIABLE) == self.name:
            yield
            return
        hook = _watch.hook
        with contextlib.ExitStack() as stack:
            if hook is not None:
                hook(True)
                stack.callback(hook, False)
            with contextlib.suppress(OSError, ImportError):
                import fcntl

                self.marker.parent.mkdir(parents=True, exist_ok=True)
                lock = stack.enter_context(open(self.marker.with_suffix(".lock"), "w"))
                fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def compile_elsewhere(self, *, quiet: bool = False) -> bool:
        """Compile the unit in a child process unless it was compiled before; whether it compiled. The
        child holds numba and the compiler's memory only while it compiles. Raises
        :class:`subprocess.CalledProcessError` when the child fails."""
        if self.compiled_before():
            return False
        with self.compiling():
            if self.compiled_before():
                return False
            output = subprocess.DEVNULL if quiet else None
            subprocess.run(
                [sys.executable, "-c", self.warm_up],
                check=True,
                env={**os.environ, COMPILING_VARIABLE: self.name},
                stdout=output,
                stderr=output,
            )
        return True


def unit(game: Game) -> Unit:
    """``game``'s Connect Four kernel as a :class:`Unit`."""
    code = (
        "from inarow.rules.game import Game\n"
        "from inarow.engines.exact.compiled import warm_up\n"
        f"warm_up(Game({game.columns}, {game.rows}, {game.k}, gravity={game.gravity}))\n"
    )
    return Unit(kernel_path(game).stem, code)


def gomoku_source() -> str:
    """The text of the Gomoku kernels' module: :data:`GOMOKU_KERNEL`'s, with its asserts on when
    :func:`checking`."""
    text = GOMOKU_KERNEL.read_text()
    return _checked(text) if checking() else text


@cache
def gomoku_unit() -> Unit:
    """The Gomoku kernels (:data:`GOMOKU_KERNEL`, one module for every board) as a :class:`Unit`."""
    digest = hashlib.sha1(gomoku_source().encode()).hexdigest()[:12]
    return Unit(f"gomoku_kernel_{digest}", "from inarow.engines.gomoku.driver import warm_up; warm_up()")


GOMOKU_MODULE = "inarow.engines.gomoku.kernel"


def load_checked_gomoku_kernel() -> ModuleType:
    """Write the Gomoku kernels' checked copy (:func:`gomoku_source`) to :func:`kernel_folder` and import it
    as :data:`GOMOKU_MODULE`, before the package's module is imported (so every importer gets the copy)."""
    assert checking(), f"checked kernels are compiled only with {CHECKS_VARIABLE} set"
    with _lock:
        found = sys.modules.get(GOMOKU_MODULE)
        if found is not None:
            assert found.DEBUG, "the unchecked Gomoku kernels were imported first"
            return found
        path = kernel_folder() / f"{gomoku_unit().name}.py"
        _write(path, gomoku_source())
        spec = importlib.util.spec_from_file_location(GOMOKU_MODULE, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[GOMOKU_MODULE] = module
        spec.loader.exec_module(module)
    return module
