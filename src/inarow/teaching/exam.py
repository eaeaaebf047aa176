"""Exam sheets: a random game tree of leaf values (a question) and its answer key.

:func:`random_leaves` draws a uniform tree, ``depth`` levels below the root, ``branching`` children a
node, leaf values whole numbers from :data:`LOW` to :data:`HIGH`, from a seed (the same seed gives the
same tree on every machine: :class:`random.Random` is specified). :func:`make_exam` searches it with a
textbook algorithm (:mod:`inarow.engines.textbook` on :mod:`inarow.teaching.abstract`) and keeps what an
answer key needs: the root's value, every node's value and window, the leaves never evaluated (those
under a cut-off) in left-to-right order, which is the search's order, and the number of nodes visited.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from typing_extensions import TypedDict

from inarow.base.errors import InvalidLimitError
from inarow.base.i18n import N_
from inarow.engines.textbook import Role, SearchResult, check_algorithm, search
from inarow.teaching.abstract import AbstractState, Leaves, parse_leaves
from inarow.teaching.explain.values import JsonValue, json_value

LOW, HIGH = 0, 20
"""The range of the leaf values drawn."""

MAX_EXAM_DEPTH = 6
MAX_BRANCHING = 6
MAX_EXAM_LEAVES = 1_000
"""The largest sheet: more leaves than a page holds."""


def random_leaves(depth: int, branching: int, seed: int) -> list[Leaves]:
    """A uniform tree ``depth`` levels below the root, ``branching`` children a node, as nested lists of
    leaf values drawn from ``seed``. Raises :class:`~inarow.base.errors.InvalidLimitError` for a size out of
    range."""
    if not 1 <= depth <= MAX_EXAM_DEPTH:
        raise InvalidLimitError(
            N_("invalid depth {depth!r}: an exam tree has 1 to {limit} levels"),
            depth=depth,
            limit=MAX_EXAM_DEPTH,
        )
    if not 2 <= branching <= MAX_BRANCHING or branching**depth > MAX_EXAM_LEAVES:
        raise InvalidLimitError(
            N_(
                "invalid branching {branching!r}: an exam tree has 2 to {limit} children a node and at most "
                "{leaves:,} leaves"
            ),
            branching=branching,
            limit=MAX_BRANCHING,
            leaves=MAX_EXAM_LEAVES,
        )
    rng = random.Random(seed)

    def node(level: int) -> Leaves:
        if level == depth:
            return rng.randint(LOW, HIGH)
        return [node(level + 1) for _ in range(branching)]

    tree = node(0)
    assert isinstance(tree, list)
    return tree


class KeyNodeJSON(TypedDict):
    """One visited node of the answer key: its label (``""`` the root), Max or Min (or negamax), the window
    on entry (null for minimax and negamax), its value, and whether it is a leaf."""

    label: str
    role: Role
    alpha: JsonValue
    beta: JsonValue
    value: JsonValue
    leaf: bool


class ExamJSON(TypedDict):
    """``inarow exam --format json``: the question (``leaves``) and its key."""

    leaves: list[Leaves]
    algo: str
    depth: int
    branching: int
    seed: int
    value: JsonValue
    nodes: int
    unevaluated: list[JsonValue]
    unevaluated_labels: list[str]
    key: list[KeyNodeJSON]


@dataclass(frozen=True, kw_only=True)
class Exam:
    """A question and its answer key (see the module docstring): ``unevaluated`` are the leaves (preorder
    ids of :attr:`root`'s game) never evaluated, left to right."""

    leaves: list[Leaves]
    depth: int
    branching: int
    seed: int
    root: AbstractState
    result: SearchResult
    question: SearchResult
    unevaluated: tuple[int, ...]

    def to_json(self) -> ExamJSON:
        game = self.root.game
        tree = self.result.tree
        assert tree is not None
        return {
            "leaves": self.leaves,
            "algo": self.result.algorithm,
            "depth": self.depth,
            "branching": self.branching,
            "seed": self.seed,
            "value": json_value(self.result.frame_value),
            "nodes": self.result.nodes,
            "unevaluated": [json_value(game.values[leaf]) for leaf in self.unevaluated],
            "unevaluated_labels": [game.labels[leaf] for leaf in self.unevaluated],
            "key": [
                {
                    "label": game.labels[node.state.id] if isinstance(node.state, AbstractState) else "",
                    "role": node.role,
                    "alpha": json_value(node.alpha),
                    "beta": json_value(node.beta),
                    "value": json_value(node.value),
                    "leaf": node.leaf is not None,
                }
                for node in tree.nodes
            ],
        }


def make_exam(depth: int, branching: int, seed: int, algorithm: str = "alphabeta") -> Exam:
    """The exam on the random tree of ``depth``, ``branching`` and ``seed`` (:func:`random_leaves`),
    answered by ``algorithm``. Raises :class:`~inarow.base.errors.InarowError` subclasses for a bad size or
    algorithm."""
    algorithm = check_algorithm(algorithm)
    leaves = random_leaves(depth, branching, seed)
    root = parse_leaves(json.dumps(leaves))
    result = search(root, algorithm)
    question = search(root, "minimax")  # every node, for the blank copy
    assert result.tree is not None
    evaluated = {node.state.id for node in result.tree.nodes if isinstance(node.state, AbstractState)}
    game = root.game
    unevaluated = tuple(
        node for node, value in enumerate(game.values) if value is not None and node not in evaluated
    )
    return Exam(
        leaves=leaves,
        depth=depth,
        branching=branching,
        seed=seed,
        root=root,
        result=result,
        question=question,
        unevaluated=unevaluated,
    )
