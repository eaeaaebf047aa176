"""The Gomocup protocol, both halves: inarow as a ``pbrain`` engine for Gomoku managers
(:mod:`~inarow.protocols.gomocup`) and other ``pbrain`` engines as inarow's players
(:mod:`~inarow.protocols.pbrain`)."""
