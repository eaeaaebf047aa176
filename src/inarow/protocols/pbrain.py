"""Other Gomoku engines as players: a client of the Gomocup protocol (the manager's side of
:mod:`inarow.protocols.gomocup`), so that ``inarow match`` can play any ``pbrain`` engine.

A player is named ``pbrain:PATH`` with optional settings after the path, each ``:KEY=VALUE``:

- ``pbrain:/opt/rapfi/pbrain-rapfi``: the engine at PATH, given the match's think time a move;
- ``pbrain:/opt/rapfi/pbrain-rapfi:nodes=20000``: also ``INFO MAX_NODE 20000`` (a node limit a move, a
  Yixin-Board extension that Rapfi and other engines read; whichever of the two limits comes first ends
  the move);
- ``pbrain:/opt/rapfi/pbrain-rapfi:time=0``: its own think time in seconds, whatever the match's (``0`` is
  "no turn limit" to the protocol: with ``nodes=`` it makes the node limit the only one).

The engine runs in its own folder as working directory (engines find their configuration and weights
there), one process for the whole match. Each move is sent the way a manager does: ``BEGIN`` on an empty
board, ``TURN x,y`` when the board is the last one the engine saw plus the opponent's move, else ``RESTART``
and the whole board with ``BOARD`` (the stones alternating, first mover first). Lines the engine sends that
are not a move (``MESSAGE``, ``DEBUG``, ``SUGGEST`` …) are skipped. Coordinates are ``x,y`` from 0 with
``y`` counted from the top, as in :mod:`inarow.protocols.gomocup`; the rule goes as ``INFO rule``: 0
freestyle, 1 exactly five, 4 Renju.

An engine that exits, answers ``ERROR``, plays an illegal move or stays silent past its think time plus
:data:`GRACE` raises :class:`~inarow.base.errors.EngineError` (a hung engine is killed first): never a hang.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import re
import subprocess
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from inarow.base.errors import EngineError
from inarow.base.i18n import N_
from inarow.play.players import DEFAULT_THINK_TIME, Choice, Player
from inarow.play.players import player as inarow_player
from inarow.play.swap2 import Decision
from inarow.rules.game import Game, Position
from inarow.values.answers import MoveNote

PREFIX = "pbrain:"
"""How a player name that is an engine starts."""

GRACE = 10.0
"""Seconds an engine may be late past its think time before it counts as hung (its start, loading its
weights, is included in the first answer)."""

UNLIMITED_GRACE = 120.0
"""Seconds an engine with no turn limit (``time=0``) may take a move before it counts as hung."""

QUIET = 0.05
"""Seconds to wait after an engine's answer before the next command: Rapfi drops a command that arrives
while it is still finishing its move (see the project's FACTS)."""

MAX_NODES = 10**12
"""The largest node limit accepted."""

MAX_TIME = 3600.0
"""The longest think time accepted, seconds."""

_MOVE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")
_SETTING = re.compile(r"(nodes|time)=([0-9]+(?:\.[0-9]+)?)")


@dataclass(frozen=True, kw_only=True)
class EngineSpec:
    """What a ``pbrain:`` name says: the engine's path, its node limit and its own think time."""

    path: Path
    nodes: int | None = None
    time: float | None = None

    @classmethod
    def parse(cls, name: str) -> EngineSpec:
        """Read ``pbrain:PATH[:nodes=N][:time=S]``. Raises :class:`EngineError` for a malformed name or a
        path that is not an executable file."""
        body = name[len(PREFIX) :] if name.lower().startswith(PREFIX) else name
        nodes: int | None = None
        seconds: float | None = None
        while True:
            head, colon, tail = body.rpartition(":")
            setting = _SETTING.fullmatch(tail) if colon and tail.isascii() else None
            if setting is None:
                break
            body = head
            value = setting[2]
            if setting[1] == "nodes":
                if "." in value or len(value) > 13 or not 1 <= int(value) <= MAX_NODES:
                    raise EngineError(
                        N_("invalid engine {name!r}: nodes must be a whole number from 1 to {limit:,}"),
                        name=name,
                        limit=MAX_NODES,
                    )
                nodes = int(value)
            else:
                if len(value) > 12 or float(value) > MAX_TIME:
                    raise EngineError(
                        N_("invalid engine {name!r}: time must be seconds from 0 to {limit:g}"),
                        name=name,
                        limit=MAX_TIME,
                    )
                seconds = float(value)
        path = Path(body).expanduser()
        if not body or not path.is_file() or not os.access(path, os.X_OK):
            raise EngineError(
                N_("invalid engine {name!r}: {path!r} is not an executable file"), name=name, path=body
            )
        return cls(path=path.resolve(), nodes=nodes, time=seconds)


def _read(stream: object, lines: queue.Queue[str | None]) -> None:
    """Put every line of ``stream`` on ``lines``, then None at its end."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:  # type: ignore[attr-defined]
            lines.put(line)
    lines.put(None)


def _stop(process: subprocess.Popen[str]) -> None:
    """Ask the engine to end, then kill it if it is still there a second later."""
    if process.poll() is None:
        with contextlib.suppress(OSError, ValueError):
            assert process.stdin is not None
            process.stdin.write("END\n")
            process.stdin.flush()
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for stream in (process.stdin, process.stdout):
        with contextlib.suppress(OSError, ValueError):
            if stream is not None:
                stream.close()


class PbrainEngine:
    """One engine process, started on the first move and kept for the following ones. Not thread-safe."""

    def __init__(self, spec: EngineSpec, think_time: float, *, grace: float = GRACE) -> None:
        """``think_time``: seconds a move, unless the spec gives its own; ``grace``: seconds an answer may
        be late before the engine counts as hung."""
        self.spec = spec
        self.think_time = spec.time if spec.time is not None else think_time
        self.grace = grace
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._game: Game | None = None
        self._seen: tuple[int, int] | None = None
        """The stones the engine has on its board: its own, its opponent's (bitboards)."""
        self._answered = 0.0
        self._finalizer: weakref.finalize[..., PbrainEngine] | None = None
        self.moves = 0
        """Moves the engine has played."""
        self.messages: list[str] = []
        """The ``MESSAGE`` lines the engine sent with its last answer (their text after the word)."""

    @property
    def name(self) -> str:
        return self.spec.path.name

    # ------------------------------------------------------------------------------- process
    def _start(self, game: Game) -> None:
        self.close()
        try:
            process = subprocess.Popen(
                [str(self.spec.path)],
                cwd=self.spec.path.parent,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(
                N_("engine {path!r} cannot start: {reason}"), path=str(self.spec.path), reason=str(error)
            ) from None
        self._process = process
        self._lines = queue.Queue()
        threading.Thread(target=_read, args=(process.stdout, self._lines), daemon=True).start()
        self._finalizer = weakref.finalize(self, _stop, process)
        if game.columns == game.rows:
            self._send(f"START {game.columns}")
        else:
            self._send(f"RECTSTART {game.columns},{game.rows}")
        self._expect_ok("START", self.grace)
        turn = round(self.think_time * 1000)
        self._send(f"INFO timeout_turn {turn}")
        self._send("INFO timeout_match 0")
        self._send("INFO time_left 2147483647")
        self._send(f"INFO rule {4 if game.renju else 1 if game.exact else 0}")
        if self.spec.nodes is not None:
            self._send(f"INFO MAX_NODE {self.spec.nodes}")
        self._game = game
        self._seen = None

    def close(self) -> None:
        """End the engine's process (``END``, then a kill if it lingers)."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._process = None
        self._game = None
        self._seen = None

    def _send(self, line: str) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        wait = self._answered + QUIET - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            self._fail_exited()

    def _fail_exited(self) -> None:
        process = self._process
        code = None if process is None else process.poll()
        if process is not None and code is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(timeout=1)
        self.close()
        raise EngineError(
            N_("engine {path!r} exited (exit code {code})"), path=str(self.spec.path), code=code
        )

    def _line(self, deadline: float) -> str:
        """The next line the engine sends, waiting until ``deadline`` (monotonic seconds)."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            seconds = self._limit()
            self.close()
            raise EngineError(
                N_("engine {path!r} did not answer within {seconds:g} seconds"),
                path=str(self.spec.path),
                seconds=seconds,
            ) from None
        if line is None:
            self._fail_exited()
        assert line is not None
        return line.strip()

    def _limit(self) -> float:
        return self.think_time + self.grace if self.think_time > 0 else UNLIMITED_GRACE

    def _answer(self, command: str, seconds: float) -> str:
        """The engine's next line that is not a message, debug output or suggestion; an ``ERROR`` or
        ``UNKNOWN`` answer raises."""
        deadline = time.monotonic() + seconds
        self.messages = []
        while True:
            line = self._line(deadline)
            word = line.split(" ", 1)[0].upper()
            if word == "MESSAGE":
                self.messages.append(line[len(word) :].strip())
            if not line or word in ("MESSAGE", "DEBUG", "SUGGEST", "INFO"):
                continue
            self._answered = time.monotonic()
            if word in ("ERROR", "UNKNOWN"):
                self.close()
                raise EngineError(
                    N_("engine {path!r} refused {command}: {answer!r}"),
                    path=str(self.spec.path),
                    command=command,
                    answer=line[:200],
                )
            return line

    def _expect_ok(self, command: str, seconds: float) -> None:
        answer = self._answer(command, seconds)
        if answer.upper() != "OK":
            self.close()
            raise EngineError(
                N_("engine {path!r} answered {answer!r} to {command}, expected OK"),
                path=str(self.spec.path),
                answer=answer[:200],
                command=command,
            )

    # --------------------------------------------------------------------------------- moves
    def _protocol(self, game: Game, bit: int) -> str:
        column, row = game.coordinates(bit)
        return f"{column},{game.rows - 1 - row}"

    def move(self, position: Position) -> int:
        """The engine's move in ``position`` (not over), as a cell bit of ``position.game``. Raises
        :class:`EngineError` if the engine fails (see the module's docstring)."""
        game = position.game
        if self._process is None or self._process.poll() is not None or self._game != game:
            self._start(game)
        mine, theirs = position.sides()
        seen = self._seen
        new = theirs & ~seen[1] if seen is not None else 0
        if mine == 0 and theirs == 0:
            if seen is not None:
                self._send("RESTART")
                self._expect_ok("RESTART", self.grace)
            command = "BEGIN"
        elif seen is not None and mine == seen[0] and theirs & seen[1] == seen[1] and new.bit_count() == 1:
            command = f"TURN {self._protocol(game, new.bit_length() - 1)}"
        else:
            if seen is not None:
                self._send("RESTART")
                self._expect_ok("RESTART", self.grace)
            command = "BOARD"
        self._send(command)
        if command == "BOARD":
            for line in self._board_lines(position):
                self._send(line)
            self._send("DONE")
        answer = self._answer(command.split(" ")[0], self._limit())
        bit = _cell_bit(game, answer)
        if bit < 0 or (position.filled >> bit & 1):
            self.close()
            raise EngineError(
                N_("engine {path!r} played {answer!r}: not an empty cell of the {columns}x{rows} board"),
                path=str(self.spec.path),
                answer=answer[:200],
                columns=game.columns,
                rows=game.rows,
            )
        self._seen = (mine | 1 << bit, theirs)
        self.moves += 1
        return bit

    def swap2(self, position: Position) -> Decision:
        """The engine's answer to ``SWAP2BOARD`` with the stones of ``position`` (none, the opener's three or
        five; Black's and White's alternately, each ``x,y,who`` as ``BOARD`` sends it, ``who`` 1 for Black's
        and 2 for White's: Rapfi reads a stone so, and brains that read ``x,y`` alone, as GomocupJudge sends
        it, read the first two numbers): ``SWAP``, or the stones it places. The next move sends the whole
        board. Raises :class:`EngineError` for an answer that is neither (see the module's docstring)."""
        game = position.game
        if self._process is None or self._process.poll() is not None or self._game != game:
            self._start(game)
        blacks, whites = (
            [self._protocol(game, bit) for bit in range(stones.bit_length()) if stones >> bit & 1]
            for stones in (position.x, position.o)
        )
        self._send("SWAP2BOARD")
        for k, black in enumerate(blacks):
            self._send(f"{black},1")
            if k < len(whites):
                self._send(f"{whites[k]},2")
        self._send("DONE")
        answer = self._answer("SWAP2BOARD", self._limit())
        self._seen = None
        if answer.strip().upper() == "SWAP":
            return Decision(swap=True)
        taken, moves = position.filled, []
        for part in answer.split():
            bit = _cell_bit(game, part)
            if bit < 0 or taken >> bit & 1:
                self.close()
                raise EngineError(
                    N_("engine {path!r} answered {answer!r} to SWAP2BOARD: neither SWAP nor empty cells"),
                    path=str(self.spec.path),
                    answer=answer[:200],
                )
            taken |= 1 << bit
            moves.append(game.cell_name(bit))
        return Decision(stones=tuple(moves))

    def _board_lines(self, position: Position) -> list[str]:
        """``x,y,1`` for the engine's stones and ``x,y,2`` for its opponent's, alternating from the side
        that moved first (stones of the same side in board order)."""
        game = position.game
        mine, theirs = position.sides()

        def cells(stones: int, who: int) -> list[str]:
            return [
                f"{self._protocol(game, bit)},{who}"
                for bit in range(stones.bit_length())
                if stones >> bit & 1
            ]

        own, other = cells(mine, 1), cells(theirs, 2)
        first, second = (own, other) if len(own) == len(other) else (other, own)
        lines = []
        for k in range(len(first)):
            lines.append(first[k])
            if k < len(second):
                lines.append(second[k])
        return lines


def _cell_bit(game: Game, text: str) -> int:
    """The cell ``x,y`` of ``text`` (``y`` from the top, at most 3 digits each) as a bit of ``game``; -1 for
    anything else."""
    found = _MOVE.fullmatch(text) if text.isascii() else None
    if found is not None and len(found[1]) < 4 and len(found[2]) < 4:
        x, y = int(found[1]), int(found[2])
        if x < game.columns and y < game.rows:
            return game.bit(x, game.rows - 1 - y)
    return -1


@dataclass(frozen=True)
class EnginePlayer:
    """``pbrain:PATH[:nodes=N][:time=S]``: another Gomoku engine, played over the Gomocup protocol, one
    process kept for every game of a match."""

    name: str
    engine: PbrainEngine

    def choose(self, position: Position, rng: random.Random) -> Choice:
        bit = self.engine.move(position)
        return Choice(move=position.game.cell_name(bit), note=MoveNote(kind="engine"))

    def swap2(self, position: Position, rng: random.Random) -> Decision:
        return self.engine.swap2(position)


def player(name: str, think_time: float = DEFAULT_THINK_TIME) -> Player:
    """The player called ``name``: an outside engine for ``pbrain:PATH[:KEY=VALUE…]``, else inarow's own
    player of that name (:func:`inarow.play.players.player`). Raises
    :class:`~inarow.base.errors.UnknownPlayerError` or :class:`~inarow.base.errors.EngineError`."""
    if name.strip().lower().startswith(PREFIX):
        return EnginePlayer(name.strip(), PbrainEngine(EngineSpec.parse(name.strip()), think_time))
    return inarow_player(name, think_time)
