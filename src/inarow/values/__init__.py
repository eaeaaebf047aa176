"""The answers as values, fields and never sentences: an analysis and its moves
(:mod:`~inarow.values.answers`), and the records the server keeps (:mod:`~inarow.values.store`, SQLite)."""
