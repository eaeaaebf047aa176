"""The teaching route for trees of one's own: ``POST /api/explain/tree`` searches an abstract game tree
typed as nested lists of leaf values (Russell and Norvig's ``[[3,12,8],[2,4,6],[14,5,2]]``, a random
exam tree, a teacher's own) with a textbook algorithm and answers what ``/api/explain`` answers for a
position, so the page draws and replays it the same way.

The tree is small (at most :data:`MAX_NODES` nodes drawn) and searched at once, in FastAPI's thread
pool; a tree that is not nested lists of numbers, or too large, is a 400 naming what is wrong.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from inarow.base.errors import InvalidPositionError
from inarow.base.i18n import N_
from inarow.engines.textbook import ALGORITHMS
from inarow.teaching.abstract import parse_leaves
from inarow.teaching.explain import ExplanationJSON, explain_tree
from inarow.web.deps import BODY, responses
from inarow.web.schemas import Ascii

MAX_NODES = 2_000
"""The largest tree drawn, as for a position (``/api/explain``): beyond it a page cannot show it usefully."""

MAX_DEPTH = 16
"""The deepest tree read: deeper nesting is no exam question, and would only exhaust the parser's stack."""

router = APIRouter(tags=["teaching"])


def nesting(text: str) -> int:
    """How deep the brackets of ``text`` nest, counted without parsing it."""
    depth = deepest = 0
    for char in text:
        if char == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "]":
            depth -= 1
    return deepest


class TreeRequest(BaseModel):
    """An abstract tree to search and draw: the arguments of ``inarow tree --leaves``."""

    model_config = ConfigDict(extra="forbid")

    leaves: Ascii = Field(
        max_length=20_000,
        description="nested JSON lists of leaf values from Max's standpoint, Max to move at the root",
        examples=["[[3,12,8],[2,4,6],[14,5,2]]"],
    )
    algorithm: Ascii = Field("alphabeta", max_length=32, description=f"one of {', '.join(ALGORITHMS)}")


@router.post(
    "/api/explain/tree",
    response_model=ExplanationJSON,
    responses=responses(400, *BODY),
)
def explain_leaves(body: TreeRequest) -> ExplanationJSON:
    """Every node of a minimax, negamax or α-β search of the abstract tree ``leaves`` to its leaves, to
    draw and replay step by step: the fields of ``/api/explain`` (``abstract`` true; each pruned spot's
    ``value`` is the leaf's value when the pruned child is a leaf)."""
    if nesting(body.leaves) > MAX_DEPTH:
        raise InvalidPositionError(N_("invalid tree: its lists nest more than {limit} deep"), limit=MAX_DEPTH)
    root = parse_leaves(body.leaves)
    return explain_tree(root, body.algorithm, None, max_nodes=MAX_NODES).to_json()
