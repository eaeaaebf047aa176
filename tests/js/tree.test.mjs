// Reading the server's search tree for drawing: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bestPath, compareCells, descendants, initiallyClosed, labelGrowth, millisecondsText, placement, roomyDepths, shownNodes,
  shownPruned, squeeze,
} from "../../src/inarow/web/static/js/tree.js";

/*
 * A small α-β tree as POST /api/explain sends it, with the server's layout: the leaves and the pruned
 * child take consecutive slots 56 wide (centres 28, 84, 140, 196), parents sit centred over their first
 * and last child, rows are 92 high (centres 46, 138, 230).
 *
 *                 0 (root, max)             x 112
 *               /               \
 *           1 (a1)             2 (b1)       x 56, 168
 *           /    \             |     \
 *      3 (b1)   4 (c1)     5 (a1)   ✂ c1   x 28, 84, 140, 196
 */
const node = (id, parent, move, depth, children, x, { best = null, enter = id, exit = id + 10, pruned = [] } = {}) => ({
  id, parent, move, depth, children, x, y: depth * 92 + 46, best, enter, exit, pruned,
});
const tree = {
  nodes: [
    node(0, null, null, 0, [1, 2], 112, { best: "a1", enter: 0, exit: 11 }),
    node(1, 0, "a1", 1, [3, 4], 56, { best: "c1", enter: 1, exit: 6 }),
    node(2, 0, "b1", 1, [5], 168, { enter: 7, exit: 10, pruned: ["c1"] }),
    node(3, 1, "b1", 2, [], 28, { enter: 2, exit: 3 }),
    node(4, 1, "c1", 2, [], 84, { enter: 4, exit: 5 }),
    node(5, 2, "a1", 2, [], 140, { enter: 8, exit: 9 }),
  ],
  pruned_spots: [{ parent: 2, move: "c1", x: 196, y: 230 }],
};

test("every node shows when none is closed", () => {
  assert.deepEqual([...shownNodes(tree, new Set())].sort(), [0, 1, 2, 3, 4, 5]);
});

test("a closed node shows, its subtree does not", () => {
  assert.deepEqual([...shownNodes(tree, new Set([1]))].sort(), [0, 1, 2, 5]);
});

test("a closed node hides its pruned children too", () => {
  assert.deepEqual([...shownPruned(tree, shownNodes(tree, new Set()), new Set()).keys()], ["2:c1"]);
  assert.equal(shownPruned(tree, shownNodes(tree, new Set([2])), new Set([2])).size, 0);
  assert.equal(shownPruned(tree, shownNodes(tree, new Set([0])), new Set([0])).size, 0, "under a closed root");
});

test("the best line follows each node's best move", () => {
  assert.deepEqual([...bestPath(tree)], [0, 1, 4]);
});

test("descendants counts every node below", () => {
  assert.equal(descendants(tree, tree.nodes[0]), 5);
  assert.equal(descendants(tree, tree.nodes[2]), 1);
  assert.equal(descendants(tree, tree.nodes[3]), 0);
});

test("big trees start with the nodes of depth 2 and below closed", () => {
  assert.equal(initiallyClosed(tree, 60).size, 0);
  const deep = { ...tree, nodes: tree.nodes.map((n) => (n.id === 3 ? { ...n, children: [9] } : n)) };
  assert.deepEqual([...initiallyClosed(deep, 5)], [3]);
});

test("with nothing closed the drawing is the server's layout, as big as its slots", () => {
  const { at, pruned, width, height } = placement(tree, new Set());
  for (const n of tree.nodes) assert.deepEqual(at.get(n.id), { x: n.x, y: n.y });
  assert.deepEqual(pruned.get("2:c1"), { x: 196, y: 230 });
  assert.deepEqual({ width, height }, { width: 196 + 28, height: 230 + 46 + 24 });
});

test("a closed root draws alone, one row high", () => {
  const { at, pruned, width, height } = placement(tree, new Set([0]), 0);
  assert.deepEqual([...at.keys()], [0]);
  assert.equal(pruned.size, 0);
  assert.deepEqual({ width, height }, { width: 112 + 28, height: 46 + 46 });
});

/*
 *                     0                  x 168
 *            /                 \
 *          1                     2       x 84, 252
 *       /  |  \              /  |  \
 *      3   4   5            6   7   8    x 28, 84, 140, 196, 252, 308
 */
const wide = {
  nodes: [
    node(0, null, null, 0, [1, 2], 168),
    node(1, 0, "a1", 1, [3, 4, 5], 84),
    node(2, 0, "a2", 1, [6, 7, 8], 252),
    ...[3, 4, 5, 6, 7, 8].map((id, slot) => node(id, id < 6 ? 1 : 2, `c${slot}`, 2, [], 28 + 56 * slot)),
  ],
  pruned_spots: [],
};

test("closed subtrees leave no empty columns: the gaps close up to one slot, in the same order", () => {
  const { at, width } = placement(wide, new Set([1, 2]));
  assert.deepEqual([0, 1, 2].map((id) => at.get(id).x), [140, 84, 196], "the root still centred over its children");
  assert.equal(width, 196 + 28);
});

test("closing one subtree moves only what is right of it", () => {
  const { at } = placement(wide, new Set([1]));
  assert.deepEqual([0, 1, 2, 6, 7, 8].map((id) => at.get(id).x), [140, 84, 224, 168, 224, 280]);
});

test("squeeze keeps gaps up to a slot and shrinks wider ones to a slot", () => {
  assert.deepEqual([...squeeze([28, 56, 84, 476, 300], 56)], [[28, 28], [56, 56], [84, 84], [300, 140], [476, 196]]);
});

test("a comparison row speaks from Max's standpoint, whoever is to move", () => {
  const engine = { name: "engine", complete: true, nodes: 10, branching: null, seconds: 0.001, max_value: "inf", engine_evaluation: null };
  assert.equal(compareCells(engine, 10, "o").value, "+∞ (proven)");
  assert.equal(compareCells({ ...engine, max_value: 0 }, 10, "o").value, "0 (a draw)");
  assert.equal(compareCells({ ...engine, max_value: null, engine_evaluation: 12 }, 10, "o").value, "eval −12 (its scale)");
  const minimax = { ...engine, name: "minimax", max_value: -2 };
  assert.equal(compareCells(minimax, 10, "o").value, "−2");
});

test("a comparison row in words", () => {
  const row = { complete: true, nodes: 12345, branching: 4.21699, seconds: 0.0004, value_text: "+∞ (proven)" };
  assert.deepEqual(compareCells(row, 12345), { nodes: "12,345", branching: "4.22", time: "0.4 ms", value: "+∞ (proven)", bar: 100 });
  const stopped = compareCells({ ...row, complete: false, branching: null }, 50000);
  assert.deepEqual([stopped.nodes, stopped.branching, stopped.time, stopped.value], ["> 12,345", "—", "stopped", "—"]);
  assert.equal(compareCells({ ...row, nodes: 0 }, 50000).bar, 3, "the smallest bar still shows");
  assert.equal(millisecondsText(0.0234), "23 ms");
});

test("a level has room for its labels when its nodes stand far enough apart on screen", () => {
  const at = new Map(tree.nodes.map((n) => [n.id, { x: n.x, y: n.y }]));
  // Leaves 56 apart, the two children of the root 112 apart, the root alone.
  assert.deepEqual([...roomyDepths(tree, at, 1, 40)].sort(), [0, 1, 2]);
  assert.deepEqual([...roomyDepths(tree, at, 0.5, 40)].sort(), [0, 1]);
  assert.deepEqual([...roomyDepths(tree, at, 0.2, 40)].sort(), [0]);
});

test("labels grow so that none is smaller than the least size on screen, and never shrink", () => {
  assert.equal(labelGrowth(1, 15, 11), 1);
  assert.equal(labelGrowth(0.5, 15, 11), 11 / 7.5);
  assert.equal(labelGrowth(2, 15, 11), 1);
});

// ------------------------------------------------------------------------- following the search
test("Follow draws only what the search has reached, and a cut-off's pruned children once it has happened", async () => {
  const { searchedPart } = await import("../../src/inarow/web/static/js/tree.js");
  const cuts = new Map([[2, 9]]);
  const early = searchedPart(tree, 4, 4, cuts, false);
  assert.deepEqual([...early.nodes].sort(), [0, 1, 3, 4]);
  assert.deepEqual(early.pruned, []);
  const late = searchedPart(tree, 9, 2, cuts, false);
  assert.deepEqual([...late.nodes].sort(), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(late.pruned.map((spot) => spot.move), ["c1"]);
});

test("folded, the finished subtrees off the way to the current node keep only their root", async () => {
  const { searchedPart } = await import("../../src/inarow/web/static/js/tree.js");
  const part = searchedPart(tree, 8, 5, new Map(), true);
  assert.deepEqual([...part.folded], [1], "a1 is done and not on the way to b1's a1");
  assert.deepEqual([...part.nodes].sort(), [0, 1, 2, 5]);
});

test("the tidy layout gives each shown leaf a slot in search order and centres each parent over its children", async () => {
  const { compactPlacement, searchedPart, slotWidth } = await import("../../src/inarow/web/static/js/tree.js");
  assert.equal(slotWidth(tree), 56);
  const part = searchedPart(tree, 9, 2, new Map([[2, 9]]), false);
  const { at, pruned, width } = compactPlacement(tree, part, 56);
  assert.deepEqual([3, 4, 5].map((id) => at.get(id).x), [28, 84, 140]);
  assert.deepEqual(pruned.get("2:c1"), { x: 196, y: 230 });
  assert.equal(at.get(1).x, 56);
  assert.equal(at.get(2).x, 168, "b1 sits over a1 and the pruned c1");
  assert.equal(at.get(0).x, 112);
  assert.equal(width, 224);
  const folded = compactPlacement(tree, searchedPart(tree, 8, 5, new Map(), true), 56);
  assert.deepEqual([1, 5].map((id) => folded.at.get(id).x), [28, 84], "folded a1 takes one slot");
});

test("the Follow view shows the whole drawing when it fits, else the way from the root, and always the current node", async () => {
  const { followBox, inside } = await import("../../src/inarow/web/static/js/tree.js");
  const frame = { width: 600, height: 400 };
  const small = followBox({ width: 224, height: 300 }, frame, [{ x: 112, y: 46 }], { x: 112, y: 46 });
  assert.ok(inside(small, { x: 0, y: 0 }) && inside(small, { x: 224, y: 300 }), "a small drawing is shown whole");
  assert.ok(small.width <= 600 / 1.3, "and enlarged");
  const broad = { width: 5000, height: 300 };
  const way = [{ x: 2500, y: 46 }, { x: 2300, y: 138 }, { x: 2200, y: 230 }];
  const box = followBox(broad, frame, way, way[2]);
  for (const point of way) assert.ok(inside(box, point), `${point.x} is in the frame`);
  assert.ok(frame.width / box.width >= 0.6 - 1e-9, "never below the least scale");
  const far = [{ x: 4900, y: 46 }, { x: 100, y: 230 }];
  assert.ok(inside(followBox(broad, frame, far, far[1]), far[1]), "too far apart: the current node wins");
});

test("zooming keeps the point zoomed about where it was", async () => {
  const { zoomBox } = await import("../../src/inarow/web/static/js/tree.js");
  const box = { x: 0, y: 0, width: 400, height: 200 };
  const closer = zoomBox(box, 2, { x: 100, y: 50 });
  assert.deepEqual(closer, { x: 50, y: 25, width: 200, height: 100 });
  assert.equal((100 - closer.x) / closer.width, (100 - box.x) / box.width);
});
