// Links that reopen what is on screen, and the shape of a board before the server answers: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { boardShape, formChoices, linkSearch, linkTarget, moveList, readSgf, sgf } from "../../src/inarow/web/static/js/links.js";

describe("links", () => {
  test("a position link opens that position of its game", () => {
    assert.deepEqual(linkTarget("?game=tictactoe&position=b2%20a1"), { kind: "position", game: "tictactoe", position: "b2 a1" });
    assert.deepEqual(linkTarget("?game=connect4"), { kind: "position", game: "connect4", position: "" });
  });
  test("a game's link carries its position too, and a review link wins over both", () => {
    assert.deepEqual(linkTarget("?game=tictactoe&position=b2&id=abc"), { kind: "game", id: "abc", game: "tictactoe", position: "b2" });
    assert.deepEqual(linkTarget("?review=abc&id=def"), { kind: "review", id: "abc" });
  });
  test("the New game form follows a linked game: a preset, a board it can describe, else nothing", () => {
    assert.deepEqual(formChoices("gomoku"), { preset: "gomoku" });
    assert.deepEqual(formChoices("connect4:o-first"), { preset: "connect4" });
    assert.deepEqual(formChoices("6x5:4:gravity"), { preset: "custom", columns: "6", rows: "5", k: "4", gravity: true });
    assert.deepEqual(formChoices("9x9:5"), { preset: "custom", columns: "9", rows: "9", k: "5", gravity: false });
    assert.equal(formChoices("19x19:5:exact"), null);
    assert.equal(formChoices("chess"), null);
  });
  test("Explain's own links are not position links", () => {
    assert.equal(linkTarget("?game=tictactoe&position=b2&explain=alphabeta"), null);
    assert.equal(linkTarget("?leaves=%5B1%2C2%5D"), null);
    assert.equal(linkTarget(""), null);
  });
  test("a link made for a target reads back as that target, spaces as %20", () => {
    for (const target of [
      { kind: "position", game: "gomoku", position: "h8 h9 i8" },
      { kind: "game", id: "x_Y-1", game: "connect4:o-first", position: "4453" },
      { kind: "review", id: "abc" },
    ]) {
      const search = linkSearch(target, "?lang=zh-CN");
      assert.ok(!search.includes("+"), search);
      assert.deepEqual(linkTarget(search), target);
      assert.equal(new URLSearchParams(search).get("lang"), "zh-CN", "other parameters are kept");
    }
  });
});

describe("board shapes", () => {
  test("presets, their O-first forms and custom games", () => {
    assert.deepEqual(boardShape("tictactoe"), { columns: 3, rows: 3, gravity: false });
    assert.deepEqual(boardShape("connect4:o-first"), { columns: 7, rows: 6, gravity: true });
    assert.deepEqual(boardShape("6x5:4:gravity"), { columns: 6, rows: 5, gravity: true });
    assert.deepEqual(boardShape("19x19:5:exact"), { columns: 19, rows: 19, gravity: false });
    assert.equal(boardShape("chess"), null);
  });
});

describe("export", () => {
  const gomoku = {
    game: "gomoku", columns: 15, rows: 15, gravity: false,
    moves: [{ move: "h8", cell: "h8", side: "x" }, { move: "i9", cell: "i9", side: "o" }],
  };
  test("a move list as the command line reads it", () => {
    assert.equal(moveList(gomoku), "h8 i9");
    assert.equal(moveList({ gravity: true, columns: 7, moves: [{ move: "4" }, { move: "4" }, { move: "5" }] }), "445");
  });
  test("Gomoku as SGF, rows from the top, and back", () => {
    assert.equal(sgf(gomoku), "(;GM[4]FF[4]SZ[15];B[hh];W[ig])");
    assert.deepEqual(readSgf(sgf(gomoku), 15), ["h8", "i9"]);
    assert.equal(sgf({ ...gomoku, game: "tictactoe", columns: 3, rows: 3 }), null, "no SGF convention for 3×3");
    assert.equal(readSgf("b2 a1", 15), null);
  });
});
