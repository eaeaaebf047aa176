"""Checking a student's own minimax and α-β node by node, as CS188's autograder does and beyond.

- :mod:`~inarow.teaching.checking.interface`: the node a student's search is written against, and the
  trail a search leaves (the student's and the registry's, recorded the same way);
- :mod:`~inarow.teaching.checking.cases`: the cases, textbook trees, seeded random trees, 一字棋 positions;
- :mod:`~inarow.teaching.checking.bugs`: the classic bugs as a table, each planted in the registry's
  algorithms;
- :mod:`~inarow.teaching.checking.verdict`: the comparison, case by case, and the first divergence.

Pure Python, so that the student's browser runs it too (:mod:`inarow.web.browser`); the command line runs it
in a child process of its own (:mod:`~inarow.teaching.checking.child`).
"""
