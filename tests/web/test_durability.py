"""A server killed mid-game loses nothing: every move is committed as it is played."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx


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
