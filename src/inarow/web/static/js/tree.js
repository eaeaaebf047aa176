// Reading the search tree of POST /api/explain and the rows of POST /api/compare for drawing: which
// nodes are shown, the best line, the room the drawing takes. The layout itself is the server's (`x`,
// `y` on every node, `pruned_spots` for the pruned children); nothing here places a node.
// Pure functions: no DOM, so node can test them.

/** Ids of the nodes shown when the nodes in `closed` hide their subtrees (a closed node itself shows). */
export function shownNodes(tree, closed) {
  const shown = new Set();
  const walk = (id) => {
    shown.add(id);
    if (!closed.has(id)) for (const child of tree.nodes[id].children) walk(child);
  };
  walk(0);
  return shown;
}

/** The pruned children shown: those of shown, open nodes, keyed `${parent}:${move}` -> {x, y}. */
export function shownPruned(tree, shown, closed) {
  const spots = new Map();
  for (const spot of tree.pruned_spots) {
    if (shown.has(spot.parent) && !closed.has(spot.parent)) spots.set(`${spot.parent}:${spot.move}`, spot);
  }
  return spots;
}

/** The ids of the principal variation: the root, then the child the best move leads to, and so on. */
export function bestPath(tree) {
  const best = new Set([0]);
  let node = tree.nodes[0];
  while (node && node.best !== null) {
    const next = node.children.map((id) => tree.nodes[id]).find((child) => child.move === node.best);
    if (!next) break;
    best.add(next.id);
    node = next;
  }
  return best;
}

/** How many nodes lie below `node`. */
export const descendants = (tree, node) => node.children.reduce((total, id) => total + 1 + descendants(tree, tree.nodes[id]), 0);

/** The nodes closed when a tree is first drawn: in trees of more than `over` nodes, those at depth 2 and below. */
export function initiallyClosed(tree, over) {
  if (tree.nodes.length <= over) return new Set();
  return new Set(tree.nodes.filter((n) => n.depth >= 2 && n.children.length).map((n) => n.id));
}

/** The ancestors of the node the search is at on `step` (entering or leaving it), to open for a replay. */
export function ancestorsAt(tree, step) {
  const current = tree.nodes.find((n) => n.enter === step || n.exit === step);
  const ids = [];
  for (let id = current?.parent; id !== null && id !== undefined; id = tree.nodes[id].parent) ids.push(id);
  return ids;
}

/**
 * The room the shown part of the tree takes, in the server's pixels: as wide as the rightmost shown spot
 * plus the margin the layout leaves left of its first slot, as tall as the lowest shown row plus the
 * margin above the root, and `below` more for the labels under the last row.
 */
export function extent(tree, shown, pruned, below = 24) {
  const all = [...tree.nodes, ...tree.pruned_spots];
  const left = Math.min(...all.map((spot) => spot.x));
  const spots = [...tree.nodes.filter((n) => shown.has(n.id)), ...pruned.values()];
  const width = Math.max(...spots.map((spot) => spot.x)) + left;
  const height = Math.max(...spots.map((spot) => spot.y)) + tree.nodes[0].y + below;
  return { width, height };
}

/** How long a search took, for people: "0.4 ms", "12 ms". */
export const millisecondsText = (seconds) => `${seconds < 0.01 ? (seconds * 1000).toFixed(1) : Math.round(seconds * 1000)} ms`;

/**
 * One row of the comparison table in words: nodes ("> 50,000" when the search was stopped), the
 * effective branching factor, the time and the value; `bar` is the width of its bar in per cent of the
 * most nodes, on a log scale (minimax's count would leave the others as slivers).
 */
export function compareCells(row, most) {
  return {
    nodes: row.complete ? row.nodes.toLocaleString("en") : `> ${row.nodes.toLocaleString("en")}`,
    branching: row.branching === null ? "—" : row.branching.toFixed(2),
    time: row.complete ? millisecondsText(row.seconds) : "stopped",
    value: row.complete ? row.value_text.replace(/^inf/, "+∞").replace(/^-inf/, "−∞") : "—",
    bar: Math.max(3, (100 * Math.log1p(row.nodes)) / Math.log1p(most)),
  };
}
