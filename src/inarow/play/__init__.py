"""Playing: the levels and the other players (:mod:`~inarow.play.players`), the openings games start from
(:mod:`~inarow.play.openings`) and matches between players (:mod:`~inarow.play.match`)."""
