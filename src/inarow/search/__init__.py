"""Deprecated: the package the engines and the textbook algorithms lived in before 0.2. Its three public
paths still import, with a :class:`DeprecationWarning`, for one release: :mod:`inarow.search.textbook`
(now :mod:`inarow.engines.textbook`), :mod:`inarow.search.abstract` (now :mod:`inarow.teaching.abstract`)
and :mod:`inarow.search.engine` (now :mod:`inarow.engines.exact.reference`)."""
