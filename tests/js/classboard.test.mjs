import assert from "node:assert/strict";
import { test } from "node:test";

import { classRows, crossTable, sortRows } from "../../src/inarow/web/static/js/classboard.js";

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
