// Reading diagrams, landing cells and keys: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { cellName, keyMove, keypadCell, landing, readDiagram } from "../../src/inarow/web/static/js/diagram.js";

test("cells are named by column letter and row number from the bottom-left", () => {
  assert.equal(cellName(0, 0), "a1");
  assert.equal(cellName(2, 1), "c2");
  assert.equal(cellName(14, 14), "o15");
});

test("a diagram lists rows from the top", () => {
  /*
   *   x . o      row 3
   *   . x .      row 2
   *   . . o      row 1
   */
  const stones = readDiagram("x.o/.x./..o");
  assert.deepEqual(Object.fromEntries(stones), { a3: "x", c3: "o", b2: "x", c1: "o" });
});

test("an empty board has no stones", () => {
  assert.equal(readDiagram(".../.../...").size, 0);
});

test("in a gravity game a move lands on the lowest empty cell of its column", () => {
  /*
   *   . . . .
   *   . o . .
   *   x x . .      column 2 is filled to row 2: a disc dropped there lands on b3
   */
  const game = { gravity: true, rows: 3 };
  const stones = readDiagram("..../.o../xx..");
  assert.equal(landing(game, stones, "2"), "b3");
  assert.equal(landing(game, stones, "1"), "a2");
  assert.equal(landing(game, stones, "4"), "d1");
});

test("a full column lands nowhere", () => {
  /*
   *   o
   *   x      a one-column board of two rows, full
   */
  assert.equal(landing({ gravity: true, rows: 2 }, readDiagram("o/x"), "1"), null);
});

test("without gravity a move is its own cell", () => {
  assert.equal(landing({ gravity: false, rows: 3 }, new Map(), "b2"), "b2");
});

test("the keys 1 to 9 are a numeric keypad on 3×3", () => {
  /*
   *   7 8 9      a3 b3 c3
   *   4 5 6      a2 b2 c2
   *   1 2 3      a1 b1 c1
   */
  assert.deepEqual(["1", "3", "5", "7", "9"].map(keypadCell), ["a1", "c1", "b2", "a3", "c3"]);
  assert.equal(keypadCell("0"), null);
  assert.equal(keypadCell("a"), null);
  assert.deepEqual(keyMove({ columns: 3, rows: 3, gravity: false }, "7"), { cell: "a3", column: 1 });
});

test("in a gravity game a digit plays its column, up to the board's width", () => {
  const connect4 = { columns: 7, rows: 6, gravity: true };
  assert.deepEqual(keyMove(connect4, "4"), { cell: "d1", column: 4 });
  assert.equal(keyMove(connect4, "8"), null);
  assert.equal(keyMove({ columns: 15, rows: 15, gravity: false }, "5"), null, "no keys on a big board without gravity");
});
