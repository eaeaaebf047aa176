"""The Python a student's browser runs (Pyodide, in a Web Worker: ``static/js/lab-worker.js``): a pasted
e(P) compiled and used to score a position, to draw a search tree, to choose the moves grading scores,
and to play the games of the class tournament — with the very modules the command line uses (rules,
the board view of :mod:`inarow.evaluation.student`, :mod:`inarow.engines.textbook`, the tree of
:mod:`inarow.teaching.explain.tree`), shipped to the browser as a zip by :mod:`inarow.web.lab`.

Nothing here runs on the server: the server only zips this file with the others. Each function takes and
returns plain values (strings, numbers, lists, dicts) that cross into JavaScript as JSON. Errors are
:class:`~inarow.base.errors.InarowError` whose sentence the worker sends back; the time and memory limits
are the worker's, enforced from outside (the page terminates a worker that runs too long).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inarow.engines.textbook import check_algorithm, search
from inarow.evaluation.lines import static_value
from inarow.evaluation.student import CodeEvaluation, code_evaluation_from_source
from inarow.rules.game import Position, Side
from inarow.rules.notation import parse_game, parse_position
from inarow.teaching.explain.tree import page_tree
from inarow.teaching.explain.values import JsonValue, json_value

UNLIMITED = 1e9
"""The seconds a call may take inside the worker: none of its own, the page's limit stops the worker."""

_loaded: dict[str, CodeEvaluation] = {}


def load(name: str, source: str, function: str = "e") -> str:
    """Compile ``source`` (running it) and keep its ``function`` as the evaluation ``name``; its text."""
    code = code_evaluation_from_source(source, function, UNLIMITED)
    _loaded[name] = code
    return code.text


def _code(name: str) -> CodeEvaluation:
    return _loaded[name]


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
    return page_tree(board, asked, _code(name)).to_json()


def choose(name: str, game: str, diagrams: list[str], algorithm: str, depth: int | None) -> dict[str, Any]:
    """The move the search with the evaluation ``name`` plays in each position of ``diagrams`` (the
    positions grading judges, in its order): ``moves`` one cell index per position, written as a digit
    (boards of at most 9 cells) and ``values`` the value backed up for it, for the side to move."""
    rules = parse_game(game)
    algorithm = check_algorithm(algorithm)
    moves: list[str] = []
    values: list[JsonValue] = []
    for diagram in diagrams:
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
