"""A server killed mid-game loses nothing: every move is committed as it is played (a person's move with
the computer's reply, together or not at all), and requests that race or are retried change a game once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from inarow.base.errors import ServerBusyError, StaleMoveError
from inarow.rules.game import Game
from inarow.sessions import Sessions
from inarow.sessions.workers import SearchPool
from inarow.values.store import Store


@pytest.mark.slow
def test_a_game_survives_sigkill_and_is_finished_on_the_restarted_server(
    make_server: Callable[..., Any],
) -> None:
    server = make_server().start()
    game: dict[str, Any] = httpx.post(f"{server.url}/api/games", json={"level": "perfect"}).json()
    game = httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": "b2"}).json()
    move = next(m for m in ("a1", "c3", "a3", "c1") if m in game["legal_moves"])
    before_kill = httpx.post(f"{server.url}/api/games/{game['id']}/moves", json={"move": move}).json()
    # The person's next move is committed; the server dies before the computer replies.
    mine = before_kill["legal_moves"][0]
    pending = httpx.post(
        f"{server.url}/api/games/{game['id']}/moves", json={"move": mine, "reply": False}
    ).json()
    assert pending["waiting_for"] == "computer"
    server.kill()

    again = make_server(db=server.db).start()
    resumed = httpx.get(f"{again.url}/api/games/{game['id']}").json()
    assert resumed["moves"] == pending["moves"]
    assert resumed["waiting_for"] == "computer"
    current = httpx.post(f"{again.url}/api/games/{game['id']}/moves", json={}).json()
    while current["waiting_for"] == "you":
        current = httpx.post(
            f"{again.url}/api/games/{game['id']}/moves", json={"move": current["legal_moves"][0]}
        ).json()
    assert current["result"] in ("o", "draw"), "perfect never loses"
    history = httpx.get(f"{again.url}/api/games").json()
    assert [g["id"] for g in history["games"]] == [game["id"]]
    assert history["games"][0]["result"] == current["result"]


# ------------------------------------------------------------------- a move and its reply, undo
def blocker(started: threading.Event, release: threading.Event) -> str:
    """A task that holds a worker until ``release`` is set."""
    started.set()
    release.wait(30)
    return "released"


def test_a_move_whose_reply_is_refused_busy_is_not_stored_and_the_same_move_sent_again_is_played(
    tmp_path: Path,
) -> None:
    """The play pool is full (its one worker busy, no queue): the person's Connect Four move gets
    ServerBusyError and nothing is stored; sent again for the same ply once the worker is free, it is
    played with the computer's reply, both stored."""
    store = Store(tmp_path / "games.sqlite3")
    play = SearchPool("play", "thread", workers=1, max_waiting=0)
    sessions = Sessions(store, think_time=0.5, seed=3, play=play)
    game = sessions.new_game(Game.parse("connect4"), first="you", level="easy")
    started, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=play.run, args=(None, blocker, started, release))
    holder.start()
    assert started.wait(10)
    with pytest.raises(ServerBusyError):
        sessions.play(game.id, "4", ply=1)
    assert store.load(game.id).moves == ()
    release.set()
    holder.join(10)
    answered = sessions.play(game.id, "4", ply=1)
    assert [(m.ply, m.move, m.by) for m in answered.moves][:1] == [(1, "4", "human")]
    assert answered.reply is not None and answered.reply.ply == 2
    assert [(m.ply, m.by) for m in store.load(game.id).moves] == [(1, "human"), (2, "computer")]
    play.shutdown()
    store.close()


def undo_at_once(sessions: Sessions, game_id: str, ply: int) -> list[str]:
    """Two threads send Undo for ``ply`` of the game at once: what each got, ``undone`` or ``stale``."""
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def undo() -> None:
        barrier.wait()
        try:
            sessions.undo(game_id, ply)
            outcomes.append("undone")
        except StaleMoveError:
            outcomes.append("stale")

    threads = [threading.Thread(target=undo) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return outcomes


def test_two_undos_sent_at_once_for_the_same_ply_take_back_one_move(tmp_path: Path) -> None:
    """Twenty games of tic-tac-toe, two moves each with the computer's replies; in each, two threads send
    Undo for the same ply at once: one takes back the last move and its reply, the other is refused as
    stale, and the game keeps its first move and reply."""
    store = Store(tmp_path / "games.sqlite3")
    sessions = Sessions(store, seed=5)
    for _ in range(20):
        game = sessions.new_game(Game.parse("tictactoe"), first="you", level="easy")
        game = sessions.play(game.id, game.legal_moves[0], ply=1)
        game = sessions.play(game.id, game.legal_moves[0], ply=3)
        outcomes = undo_at_once(sessions, game.id, len(game.moves) + 1)
        assert sorted(outcomes) == ["stale", "undone"]
        assert [m.ply for m in store.load(game.id).moves] == [1, 2]
    store.close()
