"""The package's imports go one way, down the layers, and never round a circle.

Every ``import`` of an ``inarow`` module is read from the source (at the top of a module, inside a function
or under ``TYPE_CHECKING`` alike: a function-level import "because it imports this" is a circle all the
same), and each module has a layer: a module may import its own layer or the layers below, and the imports
inside a layer must not go round a circle.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "src" / "inarow"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("inarow.base",),
    ("inarow.rules",),
    ("inarow.values",),
    ("inarow.evaluation",),
    ("inarow.engines",),
    ("inarow.words",),
    ("inarow.play",),
    ("inarow.teaching",),
    ("inarow.sessions",),
    ("inarow.cli", "inarow.web", "inarow.protocols", "inarow.__main__", "inarow"),
)
"""One package per layer, from the bottom up: the errors and the catalogs; the rules of the games; the
answers as values (and the stored records); how unfinished positions are scored; the engines (the exact
solver, Gomoku, the books, the textbook algorithms and the policy that asks them in turn); the words said of
the values; playing (the levels, the openings, matches); teaching (trees, drawing, exams, grading); the
server's sessions; the interfaces (the command line, the web app, the Gomocup protocol's two halves, and
the package's facade, ``inarow``, which names the public API)."""

LOOSE = ("inarow", "inarow.__main__")
"""The only modules outside a layer's package: the facade and ``python -m inarow``."""


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue  # the boards' generated kernels (see inarow.engines.compiling)
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The ``inarow`` modules that ``name`` imports, anywhere in its source."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], base]
                ).strip(".")
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in MODULES else base)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def layer(module: str) -> int:
    """The layer of ``module``: that of the longest prefix named in :data:`LAYERS` (``inarow`` names the
    package's facade alone, so that a new module must be given its layer)."""
    best, found = -1, -1
    for index, names in enumerate(LAYERS):
        for prefix in names:
            within = module.startswith(prefix + ".") and prefix != "inarow"  # the facade is one module
            if (module == prefix or within) and len(prefix) > best:
                best, found = len(prefix), index
    return found


def test_every_module_has_a_layer() -> None:
    assert [module for module in MODULES if layer(module) < 0] == []


def test_every_module_but_the_facade_lives_in_its_layer_s_package() -> None:
    """No loose modules beside the packages: ``inarow/X.py`` is a package's ``inarow/LAYER/X.py``."""
    assert sorted(module for module in MODULES if module.count(".") < 2 and module not in LOOSE) == sorted(
        name for names in LAYERS for name in names if name not in LOOSE
    )


def test_no_import_runs_up_the_layers() -> None:
    upward = sorted(
        f"{module} (layer {layer(module)}) imports {target} (layer {layer(target)})"
        for module, targets in GRAPH.items()
        for target in targets
        if layer(target) > layer(module)
    )
    assert upward == []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_imports_go_round_a_circle() -> None:
    assert _circles(GRAPH) == []


def test_the_circle_finder_finds_a_circle_of_three_and_ignores_a_chain() -> None:
    """The check above is not empty by construction: a → b → c → a is found, d → e is not."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]


def test_the_graph_sees_imports_inside_functions() -> None:
    """The Connect Four engine is imported inside functions (numba loads only when needed): still an edge."""
    assert "inarow.engines.exact.compiled" in GRAPH["inarow.engines.exact.solver"]


COMPILED_KERNELS = ("engines/exact/kernel_template.py", "engines/gomoku/kernel.py")
"""numba's kernels: one recursion each, written out for speed (see their modules)."""

LONGEST_FUNCTION = 120


def _lengths(path: Path) -> list[tuple[int, str]]:
    """The length in lines of every function of ``path`` (methods and nested functions too), and where."""
    return [
        ((node.end_lineno or node.lineno) - node.lineno + 1, f"{node.name} at line {node.lineno}")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_no_function_outside_the_compiled_kernels_is_longer_than_120_lines() -> None:
    long = sorted(
        f"{path.relative_to(PACKAGE)}: {where} ({lines} lines)"
        for path in MODULES.values()
        if path.relative_to(PACKAGE).as_posix() not in COMPILED_KERNELS
        for lines, where in _lengths(path)
        if lines > LONGEST_FUNCTION
    )
    assert long == []


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    source = tmp_path / "long.py"
    source.write_text("def f() -> None:\n" + "    pass\n" * 130, encoding="utf-8")
    assert _lengths(source) == [(131, "f at line 1")]


README = PACKAGE.parent.parent / "README.md"
LAYER_NAMES = ("base", "rules", "values", "evaluation", "engines", "words", "play", "teaching", "sessions")
"""The names of the layers below the interfaces, in :data:`LAYERS`' order."""


def _contents(folder: Path) -> str:
    """What a package holds, as the folders show it: its modules, then each sub-package with its own."""
    modules = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    subs = sorted(p for p in folder.iterdir() if (p / "__init__.py").exists())
    return " ".join([*modules, *(f"{sub.name}/({_contents(sub)})" for sub in subs)])


def drawing(width: int = 110) -> str:
    """The layers as the folders hold them, from the interfaces down: the README's Layout picture."""
    import textwrap

    rows = [("interfaces", [name for name in LAYERS[-1] if "." in name and (PACKAGE / name[7:]).is_dir()])]
    rows += [(label, list(names)) for label, names in reversed(list(zip(LAYER_NAMES, LAYERS, strict=False)))]
    lines = []
    for label, names in rows:
        text = " · ".join(
            f"{name.split('.')[1]}/ ({_contents(PACKAGE / name.split('.')[1])})" for name in names
        )
        wrapped = textwrap.wrap(text, width - 13, break_on_hyphens=False)
        lines += [f"{label if n == 0 else '':<13}{line}" for n, line in enumerate(wrapped)]
    return "\n".join(lines) + "\n"


def _readme_block() -> tuple[str, str, str]:
    """The README before the Layout picture, the picture, and after it."""
    text = README.read_text(encoding="utf-8")
    start = text.index("<!-- layout begin -->\n```\n") + len("<!-- layout begin -->\n```\n")
    end = text.index("```\n<!-- layout end -->")
    return text[:start], text[start:end], text[end:]


def test_the_readme_draws_the_layers_as_the_folders_hold_them() -> None:
    """The Layout picture is made from the folders (``python tests/test_layers.py`` writes it again)."""
    assert _readme_block()[1] == drawing()


if __name__ == "__main__":
    before, _, after = _readme_block()
    README.write_text(before + drawing() + after, encoding="utf-8")


PYPROJECT = PACKAGE.parent.parent / "pyproject.toml"


def _requirement_name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _outside_imports() -> dict[str, set[str]]:
    """The top-level modules outside the standard library and inarow that the package imports, and where."""
    found: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                if top not in sys.stdlib_module_names and top not in ("inarow", "__future__"):
                    found.setdefault(top, set()).add(name)
    return found


def test_every_package_the_source_imports_is_declared_in_pyproject() -> None:
    """A package imported by name is a dependency of its own (``llvmlite`` beside numba, ``starlette``
    beside FastAPI), not one that arrives with another; the optional extras count for the modules that
    import theirs inside a function (``ray``)."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    required = {_requirement_name(r) for r in project["dependencies"]}
    optional = {_requirement_name(r) for extra in project["optional-dependencies"].values() for r in extra}
    distributions = packages_distributions()
    undeclared = {}
    for top, where in _outside_imports().items():
        names = {name.lower().replace("_", "-") for name in distributions.get(top, [])}
        if not names & (required | optional):
            undeclared[top] = sorted(where)
    assert undeclared == {}
    assert "llvmlite" in required and "ray" in optional
