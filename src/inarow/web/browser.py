"""The Python a student's browser runs (Pyodide, in a Web Worker: ``static/js/lab-worker.js``): a pasted
e(P) compiled and used to score a position, to draw a search tree, to compare the algorithms, to choose
the moves grading scores, and to play the games of the class tournament; a pasted search checked node by
node (:mod:`inarow.teaching.checking`) — with the very modules the command
line uses (rules, the board view of :mod:`inarow.evaluation.student`, :mod:`inarow.engines.textbook`, the tree
of :mod:`inarow.teaching.explain.tree`), shipped to the browser as a zip by :mod:`inarow.web.lab`.

Nothing here runs on the server: the server only zips this file with the others. Each function takes and
returns plain values (strings, numbers, lists, dicts) that cross into JavaScript as JSON. Errors are
:class:`~inarow.base.errors.InarowError` whose sentence the worker sends back; the time and memory limits
are the worker's, enforced from outside (the page terminates a worker that runs too long).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inarow.base.errors import InarowError
from inarow.base.i18n import N_
from inarow.engines.textbook import check_algorithm, search
from inarow.evaluation.lines import Evaluation, evaluation_named, static_value
from inarow.evaluation.student import code_evaluation_from_source
from inarow.rules.game import Position, Side
from inarow.rules.notation import parse_game, parse_position
from inarow.teaching.checking.interface import SearchCodeError
from inarow.teaching.checking.shown import case_tree
from inarow.teaching.checking.skeleton import skeleton
from inarow.teaching.checking.verdict import algorithm_for, check_search, load_search
from inarow.teaching.explain.compare import compare_algorithms
from inarow.teaching.explain.tree import page_tree
from inarow.teaching.explain.values import JsonValue, json_value

UNLIMITED = 1e9
"""The seconds a call may take inside the worker: none of its own, the page's limit stops the worker."""

_loaded: dict[str, Evaluation] = {}
_sources: dict[tuple[str, str], str] = {}

Progress = Callable[[int, str], None]
"""Told the index and diagram of each position before it is searched (the page's limit per position)."""


def load(name: str, source: str, function: str = "e") -> str:
    """Compile ``source`` (running it) and keep its ``function`` as the evaluation ``name``; its text."""
    code = code_evaluation_from_source(source, function, UNLIMITED)
    _loaded[name] = code
    return code.text


def _code(name: str) -> Evaluation:
    return _loaded[name]


def _named(request: dict[str, Any]) -> str:
    """The evaluation a request asks for: ``source`` and ``function`` (compiled once per text), or a
    ``named`` one of the menu's (``open-lines``, ``weights:…``)."""
    if "named" in request:
        name = f"named:{request['named']}"
        _loaded[name] = evaluation_named(str(request["named"]))
        return name
    key = (str(request["source"]), str(request.get("function") or "e"))
    if key not in _sources:
        name = f"code{len(_sources)}"
        load(name, *key)
        _sources[key] = name
    return _sources[key]


OPERATIONS = ("evaluate", "explain", "compare", "choose", "play", "check", "skeleton")


def call(request_text: str, progress: Progress | None = None) -> str:
    """What the worker asks: ``{"op", "args", "source", "function"}`` or ``{"op", "args", "named"}``
    (``play``: ``"second"`` too, the other side's ``{source, function}``), as JSON text. Answers
    ``{"ok": true, "value": …}`` or ``{"ok": false, "error": "the sentence"}``: an
    :class:`~inarow.base.errors.InarowError`'s message in English with ``said``, its fields, for the page
    to say in its reader's language (the function's own errors name it and the position), or the Python
    error (a ``MemoryError``, a ``RecursionError``)."""
    try:
        request = json.loads(request_text)
        operation = str(request["op"])
        if operation not in OPERATIONS:
            raise InarowError(N_("no operation {operation!r}"), operation=operation)
        args = list(request.get("args", []))
        if operation == "check":
            algorithm, seed = args
            source, function = str(request["source"]), str(request.get("function") or "alphabeta")
            value: Any = check(source, function, algorithm, int(seed), progress)
            return json.dumps({"ok": True, "value": value})
        if operation == "skeleton":
            value = skeleton(str(args[0]))
            return json.dumps({"ok": True, "value": value})
        name = _named(request)
        if operation == "play":
            value = play(name, _named(request["second"]), *args)
        elif operation == "choose":
            game, diagrams, algorithm, depth = args
            value = choose(name, game, diagrams, algorithm, depth, progress)
        else:
            value = globals()[operation](name, *args)
        return json.dumps({"ok": True, "value": value})
    except InarowError as error:
        return json.dumps({"ok": False, "error": str(error), "said": error.fields()})
    except (Exception, MemoryError, RecursionError) as error:
        return json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}"})


def evaluate(name: str, game: str, position: str, side: str | None = None) -> dict[str, JsonValue]:
    """e(P) of ``position`` by the evaluation ``name`` from ``side``'s standpoint (default: to move)."""
    board = parse_position(position, parse_game(game))
    max_side: Side = "o" if side == "o" else "x" if side == "x" else board.turn
    value = static_value(board, max_side, _code(name))
    return {"position": board.diagram(), "max": max_side, "value": json_value(value)}


@dataclass(frozen=True)
class Asked:
    """The fields of the page's explain request (:class:`~inarow.teaching.explain.tree.TreeAsked`)."""

    algorithm: str = "alphabeta"
    depth: int | None = 2
    order: str = "columns"
    ordering: bool = False
    quiescence: bool = False
    deepen: bool = False


def explain(name: str, game: str, position: str, choices: dict[str, Any]) -> Any:
    """The tree the page draws (``/api/explain``'s fields) with the evaluation ``name`` at the leaves."""
    known = {key: choices[key] for key in Asked.__dataclass_fields__ if key in choices}
    asked = Asked(**known)
    board = parse_position(position, parse_game(game))
    return page_tree(board, asked, _code(name), choices.get("max")).to_json()


def compare(name: str, game: str, position: str, depth: int | None) -> Any:
    """The algorithms side by side (``/api/compare``'s fields) with the evaluation ``name`` at the leaves,
    each bounded by nodes as on the server."""
    board = parse_position(position, parse_game(game))
    return compare_algorithms(board, depth, _code(name)).to_json()


def choose(
    name: str,
    game: str,
    diagrams: list[str],
    algorithm: str,
    depth: int | None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The move the search with the evaluation ``name`` plays in each position of ``diagrams`` (the
    positions grading judges, in its order): ``moves`` one cell index per position, written as a digit
    (boards of at most 9 cells) and ``values`` the value backed up for it, for the side to move."""
    rules = parse_game(game)
    algorithm = check_algorithm(algorithm)
    moves: list[str] = []
    values: list[JsonValue] = []
    for index, diagram in enumerate(diagrams):
        if progress is not None:
            progress(index, diagram)
        result = search(parse_position(diagram, rules), algorithm, depth, _code(name), record=False)
        assert result.move is not None, "graded positions are not over"
        moves.append(rules.cell_name(result.move))
        values.append(json_value(result.mover_value + 0.0))
    return {"moves": " ".join(moves), "values": values}


def play(
    first: str, second: str, game: str, algorithm: str, depth: int | None
) -> dict[str, str | list[str] | None]:
    """A game between the evaluations ``first`` (X) and ``second`` (O), each searching as asked: the
    moves played and the winner (``x``, ``o``, or None for a draw)."""
    rules = parse_game(game)
    position = Position.start(rules)
    moves: list[str] = []
    while not position.is_over:
        side = _code(first) if position.turn == "x" else _code(second)
        move = search(position, algorithm, depth, side, record=False).move
        assert move is not None, "a position that is not over has a move"
        moves.append(rules.cell_name(move))
        position = position.play(move)
    winner = position.result if position.result in ("x", "o") else None
    return {"moves": moves, "winner": winner}


def check(
    source: str, function: str, algorithm: str | None, seed: int, progress: Progress | None = None
) -> dict[str, Any]:
    """The pasted search ``function`` of ``source`` checked node by node against ``algorithm`` (None: the
    one it is named after) on every case of ``seed`` (``inarow check --json``'s fields); ``tree`` is the
    first failing case's tree as Explain draws it (null when every case is exact). A search that cannot be
    checked answers ``{"error": {kind, …}}``, the fields of the sentence ``search_error``."""
    try:
        search = load_search(source, function)
        chosen = algorithm_for(function, algorithm)
        report = check_search(search, chosen, seed, progress)
    except SearchCodeError as error:
        return {"error": {"node": "", "function": function, **error.fields, "kind": error.kind}}
    answer = report.to_json()
    failed = next((verdict for verdict in report.cases if not verdict.ok), None)
    answer["tree"] = None if failed is None else case_tree(failed.case, chosen)
    return answer
