"""Seeing the search think: the textbooks' trees written as leaves (:mod:`~inarow.teaching.abstract`),
recorded searches and what is said of them (:mod:`inarow.teaching.explain`), drawing them
(:mod:`~inarow.teaching.drawing`), exam sheets (:mod:`~inarow.teaching.exam`), grading a student's e(P)
(:mod:`~inarow.teaching.grading`) and checking a student's own search node by node
(:mod:`inarow.teaching.checking`)."""
