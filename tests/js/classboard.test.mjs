import assert from "node:assert/strict";
import { test } from "node:test";

import { classRows, crossTable, failedCaseLink, searchOf, sortRows } from "../../src/inarow/web/static/js/classboard.js";

const rows = classRows([
  { name: "Bo", accuracy: 0.9, algorithm: "alphabeta", depth: 2, submitted: 2, report: { blunders: [{}, {}] } },
  { name: "Al", accuracy: 0.9, algorithm: "minimax", depth: null, submitted: 3, report: { blunders: [] } },
  { name: "Cy", accuracy: 0.5, algorithm: "alphabeta", depth: 1, submitted: 1, report: { blunders: [{}] } },
]);

test("the board sorts by accuracy best first, ties by name", () => {
  assert.deepEqual(sortRows(rows, { key: "accuracy", descending: true }).map((row) => row.name), ["Al", "Bo", "Cy"]);
});

test("the board sorts by name and by blunders counted", () => {
  assert.deepEqual(sortRows(rows, { key: "name", descending: false }).map((row) => row.name), ["Al", "Bo", "Cy"]);
  assert.deepEqual(sortRows(rows, { key: "blunders", descending: true }).map((row) => row.blunders), [2, 1, 0]);
  assert.equal(rows[1].search, "minimax end");
});

test("the cross table gives a point a win and half a draw, both colours together", () => {
  const games = [
    { x: "Al", o: "Bo", winner: "x" },
    { x: "Bo", o: "Al", winner: null },
    { x: "Al", o: "Cy", winner: "o" },
    { x: "Cy", o: "Al", winner: null, error: "stopped" },
  ];
  const table = crossTable(["Al", "Bo", "Cy"], games);
  assert.deepEqual(table.points, [[0, 1.5, 0], [0.5, 0, 0], [1, 0, 0]]);
  assert.deepEqual(table.totals, [1.5, 0.5, 1]);
});

test("the board sorts flagged rows first by the check, then those not checked, then the verified", () => {
  const checked = classRows([
    { name: "Al", verified: "yes", report: {} },
    { name: "Bo", verified: "flagged", report: {} },
    { name: "Cy", verified: "no", report: {} },
    { name: "Di", report: {} },
  ]);
  assert.deepEqual(sortRows(checked, { key: "check", descending: true }).map((row) => row.name), ["Bo", "Cy", "Di", "Al"]);
});

test("a row's student's search check is found by class and name, and its first failing case opens as its tree", () => {
  const tree = { algorithm: "alphabeta", passed: 11, total: 20, failed: { name: "random-2", kind: "random", leaves: "[[1,2],[3]]", position: null, depth: 3 } };
  const board = { algorithm: "alphabeta-hard", passed: 3, total: 20, failed: { name: "board-2", kind: "board", leaves: null, position: "x../.o./...", depth: 3 } };
  const students = [
    { name: "王芳", class_code: "1", search: tree },
    { name: "王芳", class_code: "2", search: board },
    { name: "Bo", class_code: "1", search: null },
  ];
  assert.equal(searchOf(students, { name: "王芳", class_code: "2" }), board);
  assert.equal(searchOf(students, { name: "Bo", class_code: "1" }), null);
  assert.equal(searchOf(students, { name: "Cy", class_code: "1" }), null);
  assert.equal(failedCaseLink(tree), "/?leaves=%5B%5B1%2C2%5D%2C%5B3%5D%5D&algo=alphabeta");
  assert.equal(failedCaseLink(board), "/?game=tictactoe&position=x..%2F.o.%2F...&explain=alphabeta-hard&depth=3");
  assert.equal(failedCaseLink({ ...tree, failed: null }), null);
});
