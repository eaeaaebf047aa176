// The menus built from GET /api/menus: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { menuOptions, playerOptions } from "../../src/inarow/web/static/js/menus.js";

const served = {
  algorithms: ["minimax", "negamax", "alphabeta", "alphabeta-hard", "pvs"],
  evaluations: ["open-lines", "weighted", "lines"],
  levels: ["easy", "medium", "hard", "perfect"],
  players: ["easy", "medium", "hard", "perfect", "random", "rules"],
  max_depth: 9,
  explain_max_nodes: 2000,
  max_player_work: 4000000,
};

const values = (options) => options.map((option) => option.value);
const selected = (options) => options.filter((option) => option.selected).map((option) => option.value);

test("the Explain menus offer exactly the algorithms and evaluations served", () => {
  const menus = menuOptions(served);
  assert.deepEqual(values(menus["explain-algorithm"]), served.algorithms);
  assert.deepEqual(values(menus["explain-evaluation"]), [...served.evaluations, "custom"], "then your own weights");
  assert.deepEqual(menus["explain-algorithm"].map((o) => o.label), ["Minimax", "Negamax", "α-β (fail-soft)", "α-β (fail-hard)", "PVS (NegaScout)"]);
  assert.deepEqual(menus["explain-evaluation"].map((o) => o.label), ["Open lines", "Weighted lines", "Completed lines", "Your own: weights…"]);
});

test("the depths go to 6 plies, then to the end", () => {
  const depths = menuOptions(served)["explain-depth"];
  assert.deepEqual(values(depths), ["1", "2", "3", "4", "5", "6", "end"]);
  assert.deepEqual(depths.map((o) => o.label).slice(0, 2), ["1 ply", "2 plies"]);
  assert.deepEqual(selected(depths), ["2"]);
});

test("a server that searches less deep gets fewer depths", () => {
  assert.deepEqual(values(menuOptions({ ...served, max_depth: 3 })["explain-depth"]), ["1", "2", "3", "end"]);
});

test("the players are every named player served, then the textbook searches the server accepts", () => {
  const players = playerOptions(served);
  assert.deepEqual(values(players), [
    ...served.players,
    "minimax:1:open-lines", "minimax:2:open-lines", "minimax:3:open-lines", "alphabeta:4:open-lines", "alphabeta:4:weighted",
  ]);
  const label = (value) => players.find((o) => o.value === value).label;
  assert.equal(label("rules"), "Rules (win, block, corner…)");
  assert.equal(label("perfect"), "Perfect");
  assert.equal(label("minimax:1:open-lines"), "Minimax, 1 ply");
  assert.equal(label("alphabeta:4:weighted"), "α-β, 4 plies, weighted");
});

test("a search the server does not offer is left out", () => {
  const fewer = { ...served, algorithms: ["minimax"], evaluations: ["open-lines"], max_depth: 2 };
  assert.deepEqual(values(playerOptions(fewer)).slice(served.players.length), ["minimax:1:open-lines", "minimax:2:open-lines"]);
});

test("each menu has one choice: the page's default when offered, else the first", () => {
  const menus = menuOptions(served);
  assert.deepEqual(selected(menus.level), ["medium"]);
  assert.deepEqual(selected(menus["x-player"]), ["rules"]);
  assert.deepEqual(menus["x-player"].at(-1), { value: "own", label: "Your own…", selected: false }, "a player of your own, typed in");
  assert.deepEqual(selected(menus["o-player"]), ["minimax:2:open-lines"]);
  assert.deepEqual(selected(menus["explain-algorithm"]), ["alphabeta"]);
  assert.deepEqual(selected(menus["explain-evaluation"]), ["open-lines"]);
  assert.deepEqual(selected(menuOptions({ ...served, levels: ["hard", "perfect"] }).level), ["hard"]);
  assert.deepEqual(menus.level.map((o) => o.label), ["Easy", "Medium", "Hard", "Perfect"]);
});
