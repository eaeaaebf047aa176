"""A case as the Explain panel draws it: the registry's search of the case recorded and laid out, so that
the page marks on it where a student's search went another way (a
:class:`~inarow.teaching.checking.verdict.Divergence`'s ``node`` and ``leaf`` name nodes as the tree's
``data-path`` does)."""

from __future__ import annotations

from inarow.engines.textbook import Algorithm, Recorder, SearchResult, Walker, evaluation_name
from inarow.teaching.checking.cases import Case
from inarow.teaching.drawing import layout
from inarow.teaching.explain.tree import Explanation, ExplanationJSON, explain_tree


def case_tree(case: Case, algorithm: Algorithm) -> ExplanationJSON:
    """The tree of ``algorithm`` on ``case``, as ``POST /api/explain`` gives it; searched from the case's
    window at the root (the Explain panel's own searches start from (−∞, +∞))."""
    if not case.windowed:
        return explain_tree(
            case.root, algorithm.name, case.depth, case.evaluation, max_side=case.max_side
        ).to_json()
    recorder = Recorder()
    walker = Walker(algorithm, case.evaluation, recorder, max_side=case.max_side, root_ply=case.root.ply)
    value = walker.search(None, case.root, case.depth, case.alpha, case.beta)
    tree = recorder.finish()
    assert tree is not None, "a recorder keeps its tree by default"
    mover = algorithm.frame == "negamax" or case.root.turn == case.max_side
    result = SearchResult(
        algorithm=algorithm.name,
        position=case.root,
        depth=case.depth,
        evaluation=evaluation_name(case.evaluation),
        frame_value=value,
        mover_value=value if mover else -value,
        move=recorder.root_best,
        nodes=recorder.count,
        max_depth=recorder.max_depth,
        seconds=0.0,
        tree=tree,
        max_side=case.max_side,
    )
    return Explanation(search=result, tree=tree, layout=layout(tree), evaluation=case.evaluation).to_json()
