// Reading the server's search tree for drawing: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ancestorsAt, bestPath, compareCells, descendants, extent, initiallyClosed, millisecondsText, shownNodes, shownPruned,
} from "../../src/inarow/web/static/js/tree.js";

/*
 * A small α-β tree as POST /api/explain sends it, with the server's layout (slots 56 wide, rows 92 high):
 *
 *                 0 (root, max)
 *               /               \
 *           1 (a1)             2 (b1)  ✂ c1 pruned
 *           /    \               |
 *      3 (b1)   4 (c1)        5 (a1)
 */
const node = (id, parent, move, depth, children, x, { best = null, enter = id, exit = id + 10, pruned = [] } = {}) => ({
  id, parent, move, depth, children, x, y: depth * 92 + 46, best, enter, exit, pruned,
});
const tree = {
  nodes: [
    node(0, null, null, 0, [1, 2], 168, { best: "a1", enter: 0, exit: 11 }),
    node(1, 0, "a1", 1, [3, 4], 56, { best: "c1", enter: 1, exit: 6 }),
    node(2, 0, "b1", 1, [5], 224, { enter: 7, exit: 10, pruned: ["c1"] }),
    node(3, 1, "b1", 2, [], 28, { enter: 2, exit: 3 }),
    node(4, 1, "c1", 2, [], 84, { enter: 4, exit: 5 }),
    node(5, 2, "a1", 2, [], 196, { enter: 8, exit: 9 }),
  ],
  pruned_spots: [{ parent: 2, move: "c1", x: 252, y: 230 }],
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

test("a replay opens the way to the node the search is at", () => {
  assert.deepEqual(ancestorsAt(tree, 4), [1, 0], "entering c1 under a1");
  assert.deepEqual(ancestorsAt(tree, 0), [], "the root");
});

test("the drawing is as big as the server's layout of the shown part", () => {
  const all = shownNodes(tree, new Set());
  assert.deepEqual(extent(tree, all, shownPruned(tree, all, new Set())), { width: 252 + 28, height: 230 + 46 + 24 });
  const closed = new Set([0]);
  assert.deepEqual(extent(tree, shownNodes(tree, closed), new Map(), 0), { width: 168 + 28, height: 46 + 46 });
});

test("a comparison row in words", () => {
  const row = { complete: true, nodes: 12345, branching: 4.21699, seconds: 0.0004, value_text: "-inf" };
  assert.deepEqual(compareCells(row, 12345), { nodes: "12,345", branching: "4.22", time: "0.4 ms", value: "−∞", bar: 100 });
  const stopped = compareCells({ ...row, complete: false, branching: null }, 50000);
  assert.deepEqual([stopped.nodes, stopped.branching, stopped.time, stopped.value], ["> 12,345", "—", "stopped", "—"]);
  assert.equal(compareCells({ ...row, nodes: 0 }, 50000).bar, 3, "the smallest bar still shows");
  assert.equal(millisecondsText(0.0234), "23 ms");
});
