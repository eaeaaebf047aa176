"""What the server hands a browser so that it runs a student's e(P) itself: Pyodide's files and inarow's
own pure-Python modules as a zip.

The zip holds :mod:`inarow.web.browser` and every inarow module it imports, found by walking the imports
of the installed package (the top-level ``import`` statements; ``TYPE_CHECKING`` blocks skipped), so it is
always the code the command line runs. A package whose ``__init__`` re-exports modules the browser does not
need (and cannot run: numba) is shipped with an empty ``__init__`` (:data:`UNRUN`); ``typing_extensions``
is a stand-in (:data:`SHIMS`). A module importing anything else outside the standard library and inarow
is refused, so that a change that would break the
browser fails here (and in the tests) rather than on a student's phone.

Pyodide (the npm package ``pyodide``, pinned in ``package-lock.json``) is served from
``static/pyodide/``, where ``scripts/copy_pyodide.py`` copies it from ``node_modules`` (``scripts/start.sh``
and ``scripts/test.sh`` run it after ``npm ci``); when it is missing, :func:`pyodide_file` says so. The
files are served under their version too (:func:`pyodide_version`), as files that never change: a browser
that has them asks nothing when the page is opened again.
"""

from __future__ import annotations

import ast
import io
import json
import sys
import zipfile
from functools import cache
from pathlib import Path

from inarow.base.errors import InarowError
from inarow.base.i18n import N_

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed ``inarow`` package's folder."""

PYODIDE = Path(__file__).resolve().parent / "static" / "pyodide"
"""Where Pyodide's files are served from."""

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The files of the npm package the worker loads (no other package of Pyodide's is needed)."""

ENTRY = "inarow.web.browser"
"""The module the worker imports; the zip holds it and what it imports."""

UNRUN = frozenset({"inarow.teaching.explain", "inarow.web"})
"""Packages shipped with an empty ``__init__``: theirs re-exports modules the browser cannot run."""


SHIMS = {
    "typing_extensions": '"""typing_extensions\' names, taken from typing (shipped by inarow.web.lab)."""\n'
    "import typing\n\n\ndef __getattr__(name):\n    return getattr(typing, name)\n",
}
"""Modules outside the standard library that inarow's modules import, shipped as small stand-ins (pydantic
wants ``typing_extensions.TypedDict`` on Python 3.11; Pyodide's Python has ``typing``'s)."""


class LabError(InarowError):
    """The browser's files cannot be made or found."""


def _file(module: str) -> Path | None:
    relative = module.split(".")[1:]
    path = PACKAGE.joinpath(*relative).with_suffix(".py") if relative else None
    if path is not None and path.is_file():
        return path
    package = PACKAGE.joinpath(*relative, "__init__.py")
    return package if package.is_file() else None


def _outside_functions(node: ast.AST) -> list[ast.AST]:
    """``node`` and every node under it, functions' bodies left out (they import when called)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return []
    found = [node]
    for child in ast.iter_child_nodes(node):
        found.extend(_outside_functions(child))
    return found


def _imports(tree: ast.Module) -> list[str]:
    """The modules a module imports when it is imported (``TYPE_CHECKING`` blocks and functions' bodies
    skipped: a module imports those only when the function runs, and the browser may never run it)."""
    found: list[str] = []
    for statement in tree.body:
        if isinstance(statement, ast.If) and "TYPE_CHECKING" in ast.unparse(statement.test):
            continue
        for node in _outside_functions(statement):
            if isinstance(node, ast.Import):
                found.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append(node.module)
                found.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def browser_modules(entry: str = ENTRY) -> dict[str, Path]:
    """Every inarow module ``entry`` needs, by name, with its file (packages included). Raises
    :class:`LabError` for an import outside the standard library and inarow."""
    found: dict[str, Path] = {}
    waiting = [entry]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        path = _file(name)
        if path is None:
            continue  # a name imported from a module, not a module
        found[name] = path
        parts = name.split(".")
        waiting.extend(".".join(parts[:end]) for end in range(1, len(parts)))
        if name in UNRUN:
            continue
        for imported in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            top = imported.split(".")[0]
            if top == "inarow":
                waiting.append(imported)
            elif top not in sys.stdlib_module_names and top not in SHIMS and top != "__future__":
                raise LabError(
                    N_("the module {module!r} imports {imported!r}, which the browser does not have"),
                    module=name,
                    imported=imported,
                )
    return found


@cache
def browser_zip() -> bytes:
    """The zip of :func:`browser_modules`, paths as in the package (``inarow/rules/game.py``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in sorted(browser_modules().items()):
            inside = path.relative_to(PACKAGE.parent).as_posix()
            if name in UNRUN:
                archive.writestr(inside, f'"""{name}: its submodules only (shipped by inarow.web.lab)."""\n')
            else:
                archive.write(path, inside)
        for name, text in SHIMS.items():
            archive.writestr(f"{name}.py", text)
    return buffer.getvalue()


def pyodide_version() -> str:
    """The version of the Pyodide copied into the package (its npm ``package.json``, which
    ``scripts/copy_pyodide.py`` copies beside the files): the files are served under it, to be kept by
    browsers for good. Raises :class:`LabError` when it was not copied."""
    path = PYODIDE / "package.json"
    try:
        version = json.loads(path.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        raise LabError(
            N_(
                "Pyodide is not installed in this inarow ({path}): run npm ci and python "
                "scripts/copy_pyodide.py, then restart inarow serve"
            ),
            path=str(PYODIDE),
        ) from None
    return str(version)


def pyodide_file(name: str) -> Path:
    """The Pyodide file ``name`` to serve. Raises :class:`LabError` for a name not served, or when the
    files were not copied into the package."""
    if name not in PYODIDE_FILES:
        raise LabError(N_("no Pyodide file {name!r}"), name=name)
    path = PYODIDE / name
    if not path.is_file():
        raise LabError(
            N_(
                "Pyodide is not installed in this inarow ({path}): run npm ci and python "
                "scripts/copy_pyodide.py, then restart inarow serve"
            ),
            path=str(PYODIDE),
        )
    return path
