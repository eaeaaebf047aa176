"""What the games are: the boards, moves and results (:mod:`~inarow.rules.game`), Renju's forbidden points
(:mod:`~inarow.rules.renju`), the written forms of positions and moves (:mod:`~inarow.rules.notation`), a
board's symmetries (:mod:`~inarow.rules.symmetry`) and every position a game reaches
(:mod:`~inarow.rules.census`)."""
