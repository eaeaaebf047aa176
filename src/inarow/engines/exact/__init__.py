"""The exact solver: which engine answers (:mod:`~inarow.engines.exact.solver`), the pure-Python reference
engine that is also the oracle and the engine past 64 bits (:mod:`~inarow.engines.exact.reference`, on the
bitboards of :mod:`~inarow.engines.exact.bitboard`), and the compiled one
(:mod:`~inarow.engines.exact.compiled`, from the template :mod:`~inarow.engines.exact.kernel_template`)."""
