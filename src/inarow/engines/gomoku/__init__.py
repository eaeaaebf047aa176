"""Everything Gomoku: the board with its line patterns (:mod:`~inarow.engines.gomoku.board`,
:mod:`~inarow.engines.gomoku.patterns`), the compiled α-β (:mod:`~inarow.engines.gomoku.kernel`, driven by
:mod:`~inarow.engines.gomoku.driver`), the threat searches (:mod:`~inarow.engines.gomoku.threats`), the
search (:mod:`~inarow.engines.gomoku.search`) and its answer as an analysis, with the judging of a move
(:mod:`~inarow.engines.gomoku.analyst`).

In a process that compiles checked kernels (:func:`inarow.engines.compiling.checking`), importing this package
puts the kernels' checked copy in the place of :mod:`~inarow.engines.gomoku.kernel`."""

from inarow.engines import compiling

if compiling.checking():
    compiling.load_checked_gomoku_kernel()
