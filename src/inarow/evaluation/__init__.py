"""How unfinished positions are scored: the open-lines family of evaluations e(P)
(:mod:`~inarow.evaluation.lines`) and a student's own e(P) written in Python
(:mod:`~inarow.evaluation.student`)."""
