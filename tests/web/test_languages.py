"""The page's languages on the server: the catalog route, the glossary page, the words marked in index.html,
games where O moves first through the API, and the computer's notes as fields (old English notes still read)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from inarow.base import i18n
from inarow.play.players import Choice, player
from inarow.rules.notation import parse_position
from inarow.sessions.notes import MoveNote, note_of, read_note
from inarow.web.app import STATIC, Settings, create_app
from inarow.web.catalog import marked_words
from inarow.words import phrases as said
from inarow.words.glossary import TERMS

ROOT = Path(__file__).resolve().parents[2]


def chinese_catalog() -> dict[str, str]:
    with i18n.catalog_path("zh_CN").open("rb") as po:
        catalog = read_po(po, locale="zh_CN")
    found: dict[str, str] = {}
    for entry in catalog:
        if not entry.id:
            continue
        message = entry.id if isinstance(entry.id, str) else entry.id[0]
        translated = entry.string if isinstance(entry.string, str) else (entry.string or ("",))[0]
        found[str(message)] = str(translated)
    return found


# ------------------------------------------------------------------------------- GET /i18n/{tags}.json
def test_the_catalog_of_a_chinese_browser_is_the_chinese_po_file(client: TestClient) -> None:
    answer = client.get("/i18n/zh-CN.json")
    assert answer.status_code == 200
    catalog = answer.json()
    assert (catalog["language"], catalog["tag"]) == ("zh_CN", "zh-CN")
    assert {"code": "zh_CN", "tag": "zh-CN", "name": "中文"} in catalog["languages"]
    assert {"code": "en", "tag": "en", "name": "English"} in catalog["languages"]
    po = chinese_catalog()
    assert catalog["messages"]["Undo"] == po["Undo"] == "悔棋"
    assert catalog["messages"]["{count} ply"] == ["{count} 层"]  # a plural entry: its forms
    assert catalog["messages"]["α-β pruning"] == "α-β 剪枝"  # the glossary's terms, one catalog


def test_the_first_language_of_the_list_with_a_catalog_is_chosen_and_english_needs_none(
    client: TestClient,
) -> None:
    assert client.get("/i18n/fr-FR,zh,en.json").json()["tag"] == "zh-CN"
    english = client.get("/i18n/en-GB,zh-CN.json").json()
    assert (english["tag"], english["messages"]) == ("en", {})
    assert client.get("/i18n/tlh.json").json()["tag"] == "en"


def test_the_catalog_is_cached_by_its_etag(client: TestClient) -> None:
    first = client.get("/i18n/zh-CN.json")
    assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
    again = client.get("/i18n/zh-CN.json", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/i18n/zh-CN.json", headers={"If-None-Match": '"old"'}).status_code == 200


def test_the_catalog_route_needs_no_token_and_keeps_the_pages_policy(tmp_path: Path) -> None:
    settings = Settings(db=":memory:", pool="inline", token="s3cret")
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as guarded:
        answer = guarded.get("/i18n/zh-CN.json")
        assert answer.status_code == 200
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        assert guarded.get("/api/menus").status_code == 403


# ------------------------------------------------------------------------------------- GET /glossary
def test_the_glossary_page_shows_every_term_in_english_and_chinese(client: TestClient) -> None:
    page = client.get("/glossary")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for term in TERMS:
        english = term.said()
        with i18n.language("zh_CN"):
            chinese = term.said()
        for words in (*english, *chinese):
            assert words.replace("'", "&#x27;") in page.text, words
    for chinese_term in ("博弈树", "估价函数 e(P)", "倒推值", "迭代加深", "静态搜索", "置换表", "走法排序"):
        assert chinese_term in page.text
    assert "<script" not in page.text


# ----------------------------------------------------------------------------- words of index.html
def test_every_word_marked_in_the_page_is_in_the_chinese_catalog() -> None:
    words = [message for _line, message in marked_words((STATIC / "index.html").read_text())]
    assert {"Undo", "New game", "Explain the search", "Who opens", "O moves first", "Glossary"} <= set(words)
    po = chinese_catalog()
    assert [word for word in words if not po.get(word)] == []


def test_the_extractor_reads_text_and_the_attributes_named() -> None:
    page = """<p data-t="text">Two
        lines</p><button data-t="text aria-label" aria-label="Go on">Next</button>
        <input data-t="placeholder" placeholder="type here"><span>not marked</span>"""
    assert marked_words(page) == [(1, "Two lines"), (2, "Go on"), (2, "Next"), (3, "type here")]


# ----------------------------------------------------------------------------------- O moves first
def new_game(client: TestClient, **choices: str) -> dict[str, Any]:
    response = client.post("/api/games", json={"level": "perfect", **choices})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def test_a_game_where_o_moves_first_through_the_api_seats_the_person_as_o() -> None:
    """
    . . .
    . . .
    . . .      tictactoe:o-first: O to move on the empty board, and the person plays O and moves first
    """
    with TestClient(create_app(Settings(pool="inline", seed=3)), base_url="http://127.0.0.1") as client:
        game = new_game(client, game="tictactoe:o-first", you="o", first="you")
        assert (game["game"], game["to_move"], game["waiting_for"]) == ("tictactoe:o-first", "o", "you")
        assert (game["you"], game["symbols"], game["first_mover"]) == ("o", {"x": "x", "o": "o"}, "you")
        answer = client.post(f"/api/games/{game['id']}/moves", json={"move": "b2"}).json()
        assert (answer["moves"][0]["move"], answer["moves"][0]["side"]) == ("b2", "o")
        assert answer["moves"][1]["side"] == "x" and answer["waiting_for"] == "you"
        history = client.get("/api/games").json()["games"]
        assert history[0]["game"] == "tictactoe:o-first"


def test_when_o_moves_first_and_the_computer_opens_it_plays_o() -> None:
    with TestClient(create_app(Settings(pool="inline", seed=3)), base_url="http://127.0.0.1") as client:
        game = new_game(client, game="tictactoe:o-first", you="x", first="computer")
        assert (game["you"], game["first_mover"], game["symbols"]) == ("x", "computer", {"x": "x", "o": "o"})
        assert [m["side"] for m in game["moves"]] == ["o"] and game["to_move"] == "x"
        assert game["waiting_for"] == "you"


def test_two_people_and_analysis_take_o_first_games_too(client: TestClient) -> None:
    game = new_game(client, game="4x4:3:o-first", mode="humans")
    assert (game["to_move"], game["first_mover"], game["waiting_for"]) == ("o", "o", "human")
    analysis = client.post("/api/analyze", json={"game": "tictactoe:o-first", "position": "b2"}).json()
    assert analysis["to_move"] == "x"
    refused = client.post("/api/games", json={"game": "tictactoe:o-last"})
    assert refused.status_code == 400 and "unknown game 'tictactoe:o-last'" in refused.json()["detail"]
    assert client.post("/api/games", json={"game": "tictactoe:x-first"}).status_code == 422


# ---------------------------------------------------------------------------------------- notes
def test_a_note_keeps_its_fields_through_the_database() -> None:
    note = MoveNote(kind="search", algorithm="minimax", depth=2, value="inf")
    assert json.loads(note.stored()) == {"kind": "search", "algorithm": "minimax", "depth": 2, "value": "inf"}
    assert read_note(note.stored()) == note


def test_a_note_stored_as_english_before_notes_had_fields_is_still_read() -> None:
    assert read_note("draw with best play") == MoveNote(kind="text", text="draw with best play")
    assert read_note("{not json") == MoveNote(kind="text", text="{not json")
    assert read_note("") is None  # a person's move


def test_the_note_of_a_choice_says_which_kind_of_reason_it_was() -> None:
    """Each player says why in fields: a random move, a rule of thumb, a textbook search's backed-up value
    (±∞ as ``"inf"``), and the words are made from the fields, in the catalog's language.

    x x .
    o o .
    . . .
    """
    position, rng = parse_position("xx./oo./..."), random.Random(1)
    assert note_of(player("random").choose(position, rng)) == MoveNote(kind="random")
    assert note_of(player("rules").choose(position, rng)) == MoveNote(kind="rule", rule="win")
    searched = note_of(player("minimax:2:open-lines").choose(position, rng))
    assert searched == MoveNote(kind="search", algorithm="minimax", depth=2, value="inf")
    lost = note_of(player("alphabeta:2").choose(parse_position("x.x/.o./o.x"), rng))  # two threats of x
    assert lost == MoveNote(kind="search", algorithm="alphabeta", depth=2, value="-inf")
    assert said.note(searched) == "minimax 2 plies deep: value +∞"
    with i18n.language("zh_CN"):
        assert said.note(MoveNote(kind="rule", rule="corner")) == "规则：" + i18n._("a corner")
    assert said.note(Choice(move="a1", note=MoveNote(kind="engine")).note) == "another engine's move"


# ------------------------------------------------------------------------------ review's judgements
def test_a_gomoku_reviews_judgement_comes_as_fields_the_page_words() -> None:
    """x has four in a row (h8-k8, g8 blocked): c12 lets the win go; x has the open three h8-j8 and o
    plays b2, far away: x's open four wins by force."""
    from inarow.rules.notation import parse_position
    from inarow.sessions.review import review_move

    missed = review_move(parse_position("h8 g8 i8 a1 j8 a2 k8 a3", "gomoku"), "c12", "human", 0.5)
    assert (missed.mistake, missed.mistake_kind, missed.drop) == (True, "missed-win", None)
    through = review_move(parse_position("h8 a1 i8 a2 j8", "gomoku"), "b2", "human", 0.5)
    assert (through.mistake, through.mistake_kind) == (True, "allowed-win")
    small = review_move(parse_position("b2 a1", "tictactoe"), "c3", "human", 0.5)
    assert (small.mistake_kind, small.drop, small.margin) == (None, None, None)
