"""Checking a student's search node by node against the registry's algorithm of the same frame and window
rule: the value, the move, the leaves evaluated in order, the nodes expanded, and (where the student's
functions show them) each node's depth, window and value.

:func:`check_case` runs both on one case (:mod:`inarow.teaching.checking.cases`) through the instrumented
interface (:mod:`inarow.teaching.checking.interface`) and compares their trails step by step; the first
step that differs is the :class:`Divergence`, as fields (the sentence is made at the edge:
``inarow.words.sentences``' ``search_divergence``): what the student did, at which node, and what the
algorithm does there, with the α and β that decide it. The classic bugs whose planted form
(:mod:`inarow.teaching.checking.bugs`) leaves the very same trail are named with it.

A step of the registry's trail that the student's cannot show is left out of the comparison: the entry and
return of a node the student's functions were never called on (a leaf evaluated in the loop, say). Nothing
else is: a leaf evaluated that α-β prunes, one α-β evaluates and the student skipped, a subtree searched in
another order, a node searched with another window or depth, a value returned that α-β does not return.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from inarow.base.errors import UnknownAlgorithmError
from inarow.base.i18n import N_
from inarow.engines.textbook import REGISTRY, Algorithm, algorithm_named
from inarow.evaluation.sandbox import error_text, line_of
from inarow.teaching.checking.bugs import bugs_for
from inarow.teaching.checking.cases import Case, cases
from inarow.teaching.checking.interface import (
    Node,
    Path,
    Probe,
    SearchCodeError,
    Spot,
    Step,
    TooLong,
    Tracer,
    Trail,
    Twist,
    instrument,
    move_name,
    node_name,
    value_and_move,
)
from inarow.teaching.explain.values import JsonValue, json_value

DivergenceKind = Literal[
    "pruned", "deeper", "horizon", "skipped", "order", "value", "window", "depth", "move", "extra"
]

PASTED = "<pasted>"


@dataclass(frozen=True)
class Divergence:
    """Where a student's search first parts from the registry's, as fields.

    ``kind`` says what happened; ``node`` is where (a node's name: ``b``, ``b2 a1``; ``""`` the root),
    ``leaf`` the node the student touched there, ``expected`` the one the algorithm goes to instead:

    - ``pruned``: the student ``action`` (``evaluated`` or ``searched``) ``leaf``, which the algorithm prunes
      at ``node``, where ``alpha`` ≥ ``beta`` met;
    - ``deeper``: the student evaluated ``leaf``, which the algorithm searches ``depth`` plies deeper;
    - ``horizon``: the student searched below ``node``, a leaf for the algorithm (``over``: the game is over
      there; else the depth left is 0);
    - ``skipped``: the student never searched ``leaf``, which the algorithm searches with ``alpha``,
      ``beta`` (nothing cut it off);
    - ``order``: the student searched ``leaf`` before ``expected``, which the algorithm searches first;
    - ``value``: ``node`` returned ``value``, where the algorithm returns ``expected_value``;
    - ``window``: the student searched ``node`` with ``alpha``, ``beta``; the algorithm with
      ``expected_alpha``, ``expected_beta``;
    - ``depth``: the student searched ``node`` with ``depth`` plies left; the algorithm with
      ``expected_depth``;
    - ``move``: the student chose ``move``, the algorithm ``expected_move``;
    - ``extra``: the student searched ``leaf`` after the algorithm was done.

    ``step`` counts the steps that agreed before it; ``bugs`` names the classic bugs whose planted form
    leaves the student's trail (:mod:`inarow.teaching.checking.bugs`).
    """

    kind: DivergenceKind
    node: str
    step: int
    leaf: str | None = None
    expected: str | None = None
    action: str | None = None
    alpha: float | None = None
    beta: float | None = None
    expected_alpha: float | None = None
    expected_beta: float | None = None
    value: float | None = None
    expected_value: float | None = None
    depth: int | None = None
    expected_depth: int | None = None
    move: str | None = None
    expected_move: str | None = None
    over: bool = False
    bugs: tuple[str, ...] = ()

    def to_json(self) -> dict[str, JsonValue | bool | list[str]]:
        return {
            "kind": self.kind,
            "node": self.node,
            "step": self.step,
            "leaf": self.leaf,
            "expected": self.expected,
            "action": self.action,
            "alpha": json_value(self.alpha),
            "beta": json_value(self.beta),
            "expected_alpha": json_value(self.expected_alpha),
            "expected_beta": json_value(self.expected_beta),
            "value": json_value(self.value),
            "expected_value": json_value(self.expected_value),
            "depth": self.depth,
            "expected_depth": self.expected_depth,
            "move": self.move,
            "expected_move": self.expected_move,
            "over": self.over,
            "bugs": list(self.bugs),
        }


@dataclass(frozen=True)
class CaseVerdict:
    """One case checked: ``ok`` when every step agreed; the student's ``value`` and ``move`` (None where
    not seen) beside the algorithm's, the leaves each evaluated, and the first :class:`Divergence`."""

    case: Case
    algorithm: str
    ok: bool
    value: float | None
    expected_value: float
    move: str | None
    expected_move: str | None
    evaluated: int
    expected_evaluated: int
    divergence: Divergence | None

    def to_json(self) -> dict[str, Any]:
        case = self.case
        return {
            "name": case.name,
            "kind": case.kind,
            "ok": self.ok,
            "leaves": case.leaves,
            "position": case.position,
            "seed": case.seed,
            "depth": case.depth,
            "max": case.max_side,
            "side": case.root.turn,
            "windowed": case.windowed,
            "alpha": json_value(case.alpha),
            "beta": json_value(case.beta),
            "value": json_value(self.value),
            "expected_value": json_value(self.expected_value),
            "move": self.move,
            "expected_move": self.expected_move,
            "evaluated": self.evaluated,
            "expected_evaluated": self.expected_evaluated,
            "divergence": None if self.divergence is None else self.divergence.to_json(),
        }


@dataclass(frozen=True)
class Report:
    """A whole check: the ``algorithm`` compared with, the ``seed`` of the random trees, every case."""

    function: str
    algorithm: str
    seed: int
    cases: tuple[CaseVerdict, ...]

    @property
    def passed(self) -> int:
        return sum(verdict.ok for verdict in self.cases)

    @property
    def ok(self) -> bool:
        return self.passed == len(self.cases)

    def to_json(self) -> dict[str, Any]:
        """``inarow check --json`` and the page's check: the cases in order, each with ``name``, ``ok``
        and, where not ok, its ``divergence``."""
        return {
            "function": self.function,
            "algorithm": self.algorithm,
            "windowed": REGISTRY[self.algorithm].windowed,
            "seed": self.seed,
            "ok": self.ok,
            "passed": self.passed,
            "total": len(self.cases),
            "cases": [verdict.to_json() for verdict in self.cases],
        }


# ----------------------------------------------------------------------------------- the algorithms
ALIASES = {"alpha-beta": "alphabeta", "negamax-alpha-beta": "negamax-alphabeta", "negascout": "pvs"}


def algorithm_for(function: str, algo: str | None) -> Algorithm:
    """The algorithm a search is checked against: ``algo`` if given, else the one its function is named
    after (``alphabeta``, ``negamax_alphabeta``, ``minimax``…). Raises
    :class:`~inarow.base.errors.UnknownAlgorithmError`."""
    if algo is not None:
        return algorithm_named(algo)
    key = function.strip().lower().replace("_", "-")
    key = ALIASES.get(key, key)
    if key in REGISTRY:
        return REGISTRY[key]
    raise UnknownAlgorithmError(
        N_("the search {function!r} is not named after an algorithm: say which it is with --algo ({known})"),
        function=function,
        known=", ".join(REGISTRY),
    )


# ------------------------------------------------------------------------------------ the student's
@dataclass
class StudentSearch:
    """A student's search, loaded: the function ``name`` of the code run into ``namespace``, its own
    functions wrapped to record their calls (:func:`~inarow.teaching.checking.interface.instrument`).
    ``source`` names the code in errors (a file's path, or ``<pasted>``)."""

    namespace: dict[str, Any]
    name: str
    source: str = PASTED
    running: Probe | None = None
    function: Callable[..., object] = field(init=False)

    def __post_init__(self) -> None:
        instrument(self.namespace, lambda: self.running)
        self.function = self.namespace[self.name]

    def takes(self, algorithm: Algorithm) -> None:
        """Raise :class:`SearchCodeError` (``arguments``) unless the function takes the arguments the
        algorithm is called with: (node, depth, alpha, beta), or (node, depth) without a window."""
        import inspect

        arguments = (None, 0, -math.inf, math.inf) if algorithm.windowed else (None, 0)
        try:
            inspect.signature(self.function).bind(*arguments)
        except TypeError:
            raise SearchCodeError(
                "arguments",
                function=self.name,
                arguments="node, depth, alpha, beta" if algorithm.windowed else "node, depth",
            ) from None
        except ValueError:
            pass

    def run(self, case: Case, algorithm: Algorithm, limit: int) -> tuple[Trail, object]:
        """The student's search of ``case``: its trail (stopped past ``limit`` steps) and what it returned
        (None when stopped). Raises :class:`SearchCodeError` when it raises or returns no value."""
        root = Spot(case.root)
        probe = Probe(algorithm, case.evaluation, case.max_side, root, Trail(limit))
        node = Node(root, probe)
        self.running = probe
        try:
            if algorithm.windowed:
                result = self.function(node, case.depth, case.alpha, case.beta)
            else:
                result = self.function(node, case.depth)
        except TooLong:
            result = None
        except SearchCodeError as error:
            raise SearchCodeError(error.kind, **error.fields, case=case.name) from None
        except (Exception, SystemExit) as error:
            where = node_name(case.root, probe.current[-1]) if probe.current else ""
            raise SearchCodeError(
                "raised",
                function=self.name,
                case=case.name,
                node=where,
                error=error_text(error),
                line=line_of(error, self.source),
            ) from None
        finally:
            self.running = None
        return probe.trail, result


def load_search(source: str, name: str, filename: str = PASTED) -> StudentSearch:
    """The search ``name`` defined by ``source`` (run now, in this process). Raises
    :class:`SearchCodeError`: ``load`` (the code raised or does not compile), ``no-function``."""
    import inspect

    namespace: dict[str, Any] = {"__name__": "inarow_student", "__file__": filename}
    try:
        exec(compile(source, filename, "exec"), namespace)
    except SyntaxError as error:
        raise SearchCodeError(
            "load", error=f"SyntaxError: {error.msg}", line=str(error.lineno or "")
        ) from None
    except (Exception, SystemExit) as error:
        raise SearchCodeError("load", error=error_text(error), line=line_of(error, filename)) from None
    if not callable(namespace.get(name)):
        known = sorted(key for key, value in namespace.items() if inspect.isfunction(value))
        raise SearchCodeError("no-function", function=name, known=", ".join(known) or "-")
    return StudentSearch(namespace, name, filename)


# ------------------------------------------------------------------------------------ the comparison
def reference(
    case: Case, algorithm: Algorithm, limit: int, run: Any = None, twist: Twist | None = None
) -> Trail:
    """The trail of the registry's ``algorithm`` on ``case`` (bent by ``run`` and ``twist``, for a planted
    bug), stopped past ``limit`` steps."""
    tracer = Tracer(algorithm, case.evaluation, case.max_side, Spot(case.root), limit, run, twist or Twist())
    with contextlib.suppress(TooLong):
        tracer.search(None, tracer.root, case.depth, case.alpha, case.beta)
    return tracer.trail


def shown_steps(steps: Iterable[Step], mine: Sequence[Step]) -> list[Step]:
    """``steps`` without the entries and returns of nodes that ``mine`` has none of (what the student's
    functions cannot show)."""
    entered = {step.path for step in mine if step.kind == "enter"}
    returned = {step.path for step in mine if step.kind == "return"}
    return [
        step
        for step in steps
        if step.kind in ("expand", "evaluate")
        or (step.kind == "enter" and step.path in entered)
        or (step.kind == "return" and step.path in returned)
    ]


def _same(mine: Step, theirs: Step) -> bool:
    if (mine.kind, mine.path) != (theirs.kind, theirs.path):
        return False
    if mine.kind == "enter":
        return all(
            seen is None or seen == wanted
            for seen, wanted in (
                (mine.depth, theirs.depth),
                (mine.alpha, theirs.alpha),
                (mine.beta, theirs.beta),
            )
        )
    if mine.kind == "return":
        return mine.value == theirs.value
    return True


def first_difference(mine: Sequence[Step], theirs: Sequence[Step]) -> int | None:
    """The index of the first step where the two trails differ (one ending first counts), else None."""
    for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if not _same(a, b):
            return index
    return None if len(mine) == len(theirs) else min(len(mine), len(theirs))


def derived_move(steps: Sequence[Step], negamax: bool) -> Path | None:
    """The root's move a trail shows: the first child whose returned value backs up the root's (negated
    in the negamax frame), None when the trail does not show them."""
    root = next((step.value for step in reversed(steps) if step.kind == "return" and not step.path), None)
    if root is None:
        return None
    for step in steps:
        child = step.kind == "return" and len(step.path) == 1 and step.value is not None
        if child and (-(step.value or 0.0) if negamax else step.value) == root:
            return step.path
    return None


@dataclass
class _Known:
    """What the registry's trail says of one node."""

    evaluated: bool = False
    expanded: bool = False
    depth: int | None = None
    alpha: float | None = None
    beta: float | None = None
    value: float | None = None
    children: list[Path] = field(default_factory=list)
    values: list[float] = field(default_factory=list)


def _known(steps: Sequence[Step]) -> dict[Path, _Known]:
    known: dict[Path, _Known] = {}
    for step in steps:
        here = known.setdefault(step.path, _Known())
        if step.kind == "evaluate":
            here.evaluated = True
        elif step.kind == "expand":
            here.expanded = True
        elif step.kind == "enter" and here.depth is None:
            here.depth, here.alpha, here.beta = step.depth, step.alpha, step.beta
            if step.path:
                known.setdefault(step.path[:-1], _Known()).children.append(step.path)
        elif step.kind == "return" and step.value is not None:
            here.value = step.value
            if step.path:
                known.setdefault(step.path[:-1], _Known()).values.append(step.value)
    return known


def classify(
    case: Case,
    algorithm: Algorithm,
    theirs: Sequence[Step],
    shown: Sequence[Step],
    mine: Sequence[Step],
    index: int,
) -> Divergence:
    """The :class:`Divergence` at step ``index`` of the student's trail ``mine`` against ``shown`` (the
    registry's trail as the student's can show it; ``theirs`` the whole of it)."""

    def name(path: Path) -> str:
        return node_name(case.root, path)

    known = _known(theirs)
    got = mine[index] if index < len(mine) else None
    expected = shown[index] if index < len(shown) else None
    negamax = algorithm.frame == "negamax"
    if got is not None and got.path not in known:
        # A node the algorithm never touches: below one of its leaves, or in a subtree it prunes.
        for cut in range(len(got.path) - 1, -1, -1):
            above = got.path[:cut]
            info = known.get(above)
            if info is None:
                continue
            if info.evaluated:
                return Divergence("horizon", name(above), index, leaf=name(got.path), over=_over(case, above))
            last = info.values[-1] if info.values else None
            up = negamax or _maximizing(case, algorithm, above)
            value = None if last is None else (-last if negamax else last)
            alpha, beta = (value, info.beta) if up else (info.alpha, value)
            return Divergence(
                "pruned",
                name(above),
                index,
                leaf=name(got.path),
                action="evaluated" if Step("evaluate", got.path) in mine[index:] else "searched",
                alpha=alpha,
                beta=beta,
            )
    if got is not None and got.path in known:
        info = known[got.path]
        if got.kind == "evaluate" and not info.evaluated:
            return Divergence("deeper", name(got.path[:-1]), index, leaf=name(got.path), depth=info.depth)
        if got.kind == "expand" and info.evaluated:
            return Divergence("horizon", name(got.path), index, over=_over(case, got.path))
        if expected is not None and expected.kind == got.kind and expected.path == got.path:
            if got.kind == "enter" and got.depth is not None and got.depth != expected.depth:
                return Divergence(
                    "depth", name(got.path), index, depth=got.depth, expected_depth=expected.depth
                )
            if got.kind == "enter":
                return Divergence(
                    "window",
                    name(got.path),
                    index,
                    alpha=got.alpha,
                    beta=got.beta,
                    expected_alpha=expected.alpha,
                    expected_beta=expected.beta,
                )
            if got.kind == "return":
                return Divergence(
                    "value", name(got.path), index, value=got.value, expected_value=expected.value
                )
    if expected is None:
        assert got is not None, "a difference has a step on one side"
        return Divergence("extra", name(got.path[:-1]), index, leaf=name(got.path))
    touched = {step.path for step in mine}
    if got is None or expected.path not in touched:
        info = known.get(expected.path, _Known())
        return Divergence(
            "skipped",
            name(expected.path[:-1]),
            index,
            leaf=name(expected.path),
            alpha=info.alpha,
            beta=info.beta,
        )
    return Divergence("order", name(got.path[:-1]), index, leaf=name(got.path), expected=name(expected.path))


def _over(case: Case, path: Path) -> bool:
    spot = Spot(case.root)
    for move in path:
        spot = next(child for bit, child in spot.children() if bit == move)
    return spot.is_over


def _maximizing(case: Case, algorithm: Algorithm, path: Path) -> bool:
    turns = case.root.turn
    flipped = len(path) % 2 == 1
    side = turns if not flipped else ("o" if turns == "x" else "x")
    return side == case.max_side


def diagnose(case: Case, algorithm: Algorithm, mine: Trail) -> tuple[str, ...]:
    """The classic bugs whose planted form leaves the student's trail ``mine`` on ``case``, step for step
    (up to where the student's search was stopped, if it was)."""
    named: list[str] = []
    for bug in bugs_for(algorithm):
        for variant in bug.variants:
            run = None if variant.body is None else variant.body(algorithm)
            planted = reference(case, algorithm, len(mine.steps) + 1, run, variant.twist)
            steps = shown_steps(planted.steps, mine.steps)
            if mine.stopped:
                steps = steps[: len(mine.steps)]
            if first_difference(mine.steps, steps) is None:
                named.append(bug.name)
                break
    return tuple(named)


def check_case(search: StudentSearch, case: Case, algorithm: Algorithm) -> CaseVerdict:
    """The student's ``search`` and the registry's ``algorithm`` on ``case``, compared (see the module
    docstring). Raises :class:`SearchCodeError` when the student's search raises or returns no value."""
    theirs = reference(case, algorithm, 1_000_000).steps
    trail, result = search.run(case, algorithm, 3 * len(theirs) + 100)
    mine = trail.steps
    shown = shown_steps(theirs, mine)
    negamax = algorithm.frame == "negamax"
    expected_path = None if case.windowed else derived_move(theirs, negamax)
    expected_move = None if expected_path is None else move_name(case.root, expected_path)
    expected_value = next(step.value for step in reversed(theirs) if step.kind == "return" and not step.path)
    assert expected_value is not None, "the root returns a value"
    value, said = value_and_move(result)
    if isinstance(said, Node):
        move: str | None = said.move
    elif isinstance(said, str):
        move = said.strip()
    elif result is not None and not case.windowed:
        mine_path = derived_move(mine, negamax)
        move = None if mine_path is None else move_name(case.root, mine_path)
    else:
        move = None
    index = first_difference(mine, shown)
    divergence: Divergence | None = None
    if index is not None:
        divergence = classify(case, algorithm, theirs, shown, mine, index)
    elif value != expected_value:
        divergence = Divergence("value", "", len(mine), value=value, expected_value=expected_value)
    elif isinstance(said, Node | str) and not case.windowed and move != expected_move:
        divergence = Divergence("move", "", len(mine), move=move, expected_move=expected_move)
    if divergence is not None:
        divergence = replace(divergence, bugs=diagnose(case, algorithm, trail))
    return CaseVerdict(
        case=case,
        algorithm=algorithm.name,
        ok=divergence is None,
        value=value,
        expected_value=expected_value,
        move=move,
        expected_move=expected_move,
        evaluated=sum(step.kind == "evaluate" for step in mine),
        expected_evaluated=sum(step.kind == "evaluate" for step in theirs),
        divergence=divergence,
    )


def check_search(
    search: StudentSearch,
    algorithm: Algorithm,
    seed: int = 1,
    progress: Callable[[int, str], None] | None = None,
) -> Report:
    """Every case of ``seed`` checked (:func:`check_case`); ``progress`` hears each case's index and name
    before it runs. Raises :class:`SearchCodeError` as :func:`check_case` does."""
    search.takes(algorithm)
    verdicts = []
    for index, case in enumerate(cases(seed, algorithm)):
        if progress is not None:
            progress(index, case.name)
        verdicts.append(check_case(search, case, algorithm))
    return Report(search.name, algorithm.name, seed, tuple(verdicts))
