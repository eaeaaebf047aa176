// Reading the search tree of POST /api/explain and the rows of POST /api/compare for drawing: which
// nodes are shown, the best line, where to draw them. The layout is the server's (`x`, `y` on every node,
// `pruned_spots` for the pruned children); the page only closes up the room closed subtrees leave.
// Pure functions: no DOM, so node can test them.

import { N_, numberText, t, valueText } from "./words.js";

/** The searches of the comparison (POST /api/compare rows), by `name`. */
const COMPARED_NAMES = {
  minimax: N_("minimax"),
  alphabeta: "α-β",
  "alphabeta-ordering": N_("α-β, move ordering"),
  "alphabeta-table": N_("α-β, transposition table"),
  "alphabeta-ordering-table": N_("α-β, ordering and table"),
  engine: N_("engine"),
};

/** A row of the comparison's name for people: "α-β, move ordering" (the server's label, a word of the catalog, for the others). */
export const comparedName = (row) => t(COMPARED_NAMES[row.name] ?? row.label);

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

/**
 * A map x -> x that closes up the empty columns closed subtrees leave in the server's layout: each gap
 * wider than one `slot` between neighbouring shown x's shrinks to one slot. It keeps the left-to-right
 * order and the rows, so it places nothing anew; with nothing closed every gap is at most a slot (the
 * leaves fill consecutive slots) and it changes nothing.
 */
export function squeeze(xs, slot) {
  const sorted = [...new Set(xs)].sort((a, b) => a - b);
  const map = new Map();
  let shift = 0;
  sorted.forEach((x, index) => {
    if (index > 0) shift += Math.max(0, x - sorted[index - 1] - slot);
    map.set(x, x - shift);
  });
  return map;
}

/**
 * Where to draw the shown part of the tree when the nodes in `closed` hide their subtrees: `at` (node id
 * -> {x, y}), `pruned` (`${parent}:${move}` -> {x, y}), and the `width` and `height` of the drawing. The
 * places are the server's, squeezed (see squeeze); the margins are the layout's own (half a slot left of
 * the first slot, the root's height above it), and `below` more under the last row for its labels.
 */
export function placement(tree, closed, below = 24) {
  const shown = shownNodes(tree, closed);
  const spots = shownPruned(tree, shown, closed);
  const half = Math.min(...[...tree.nodes, ...tree.pruned_spots].map((spot) => spot.x));
  const nodes = tree.nodes.filter((n) => shown.has(n.id));
  const xs = squeeze([...nodes, ...spots.values()].map((spot) => spot.x), 2 * half);
  const at = new Map(nodes.map((n) => [n.id, { x: xs.get(n.x), y: n.y }]));
  const pruned = new Map([...spots].map(([key, spot]) => [key, { x: xs.get(spot.x), y: spot.y }]));
  const places = [...at.values(), ...pruned.values()];
  return {
    at,
    pruned,
    width: Math.max(...places.map((place) => place.x)) + half,
    height: Math.max(...places.map((place) => place.y)) + tree.nodes[0].y + below,
  };
}

/** How long a search took, for people: "0.4 ms", "12 ms". */
export const millisecondsText = (seconds) => t("{ms} ms", { ms: seconds < 0.01 ? (seconds * 1000).toFixed(1) : Math.round(seconds * 1000) });

/**
 * One row of the comparison table in words: nodes ("> 50,000" when the search was stopped), the
 * effective branching factor, the time and the value from Max's (X's) standpoint, the trees' one
 * standpoint: the textbook value, "0 (a draw)" or "+∞ (proven)" for the engine's proof, or the engine's
 * own evaluation "eval +12 (its scale)"; `bar` is the width of its bar in per cent of the most nodes, on a
 * log scale (minimax's count would leave the others as slivers). `toMove` is the side to move ("x", "o").
 */
export function compareCells(row, most, toMove = "x") {
  const sign = toMove === "x" ? 1 : -1;
  let value = "—";
  if (row.complete && row.engine_evaluation !== null && row.engine_evaluation !== undefined) {
    value = t("eval {score} (its scale)", { score: valueText(sign * row.engine_evaluation) });
  } else if (row.complete && row.max_value !== undefined && row.max_value !== null) {
    value = valueText(row.max_value);
    if (row.name === "engine") value = row.max_value === 0 ? t("{value} (a draw)", { value }) : t("{value} (proven)", { value });
  } else if (row.complete) value = row.value_text ?? "—";
  return {
    nodes: row.complete ? numberText(row.nodes) : `> ${numberText(row.nodes)}`,
    branching: row.branching === null ? "—" : row.branching.toFixed(2),
    time: row.complete ? millisecondsText(row.seconds) : t("stopped"),
    value,
    bar: Math.max(3, (100 * Math.log1p(row.nodes)) / Math.log1p(most)),
  };
}

/** How many screen pixels a drawing pixel takes when `box` (a viewBox) is shown in `frame`, aspect kept. */
export const scaleOf = (box, frame) => Math.min(frame.width / box.width, frame.height / box.height);

/**
 * The depths of `tree` whose drawn nodes (`at`: id → {x, y}) stand at least `gap` screen pixels apart when
 * the drawing is shown at `scale`: the levels where a label per node fits without overlapping the next.
 */
export function roomyDepths(tree, at, scale, gap) {
  const xs = new Map();
  for (const node of tree.nodes) {
    const spot = at.get(node.id);
    if (!spot) continue;
    if (!xs.has(node.depth)) xs.set(node.depth, []);
    xs.get(node.depth).push(spot.x);
  }
  const roomy = new Set();
  for (const [depth, list] of xs) {
    list.sort((a, b) => a - b);
    let least = Infinity;
    for (let i = 1; i < list.length; i += 1) least = Math.min(least, list[i] - list[i - 1]);
    if (least * scale >= gap) roomy.add(depth);
  }
  return roomy;
}

/** How much to enlarge labels of `px` pixels so that at `scale` they are never smaller than `least` on screen. */
export const labelGrowth = (scale, px, least) => Math.max(1, least / (px * scale));

/** Whether `point` lies inside `box` (a viewBox), `margin` pixels in from its edges. */
export const inside = (box, point, margin = 0) =>
  point.x >= box.x + margin && point.x <= box.x + box.width - margin && point.y >= box.y + margin && point.y <= box.y + box.height - margin;

// ------------------------------------------------------------------------- following the search
/** The ids from the root down to the node `id`, root first. */
const pathTo = (tree, id) => {
  const ids = [];
  for (let at = id; at !== null && at !== undefined; at = tree.nodes[at].parent) ids.unshift(at);
  return ids;
};

/**
 * The part of the tree the search has drawn by `step`, for "Follow the search": every node entered so
 * far, and the children a cut-off pruned once it has happened (`cuts`: node id -> the step of its
 * cut-off). With `fold`, the finished subtrees off the way to `current` (the node the search is at) are
 * folded into their root, which keeps its value: the tree then holds the way from the root to the
 * current node and its siblings, however big the search. Returns {nodes: Set of ids, folded: Set of ids
 * whose children are hidden, pruned: [{parent, move, value}]}.
 */
export function searchedPart(tree, step, current, cuts, fold) {
  const way = new Set(pathTo(tree, current));
  const nodes = new Set();
  const folded = new Set();
  const pruned = [];
  const walk = (id) => {
    const node = tree.nodes[id];
    nodes.add(id);
    const done = node.exit <= step;
    if (fold && done && !way.has(id) && node.children.length) {
      folded.add(id);
      return;
    }
    for (const child of node.children) if (tree.nodes[child].enter <= step) walk(child);
    if (cuts.has(id) && cuts.get(id) <= step) {
      for (const spot of tree.pruned_spots) if (spot.parent === id) pruned.push(spot);
    }
  };
  walk(0);
  return { nodes, folded, pruned };
}

/**
 * A tidy layout of a part of the tree (`part` from searchedPart): the shown leaves (and folded nodes and
 * pruned children) take consecutive slots `slot` wide in search order, each parent sits centred over its
 * first and last child, rows keep the server's heights. Returns the same shape as placement.
 */
export function compactPlacement(tree, part, slot, below = 24) {
  const at = new Map();
  const prunedAt = new Map();
  const rowY = (depth) => tree.nodes[0].y + depth * rowHeight(tree);
  let next = slot / 2;
  const place = (id) => {
    const node = tree.nodes[id];
    const kids = part.folded.has(id) ? [] : node.children.filter((child) => part.nodes.has(child));
    const spots = part.folded.has(id) ? [] : part.pruned.filter((spot) => spot.parent === id);
    const xs = [];
    for (const child of kids) xs.push(place(child));
    for (const spot of spots) {
      prunedAt.set(`${id}:${spot.move}`, { x: next, y: rowY(node.depth + 1) });
      xs.push(next);
      next += slot;
    }
    let x;
    if (xs.length) x = (xs[0] + xs[xs.length - 1]) / 2;
    else {
      x = next;
      next += slot;
    }
    at.set(id, { x, y: node.y });
    return x;
  };
  place(0);
  const places = [...at.values(), ...prunedAt.values()];
  return {
    at,
    pruned: prunedAt,
    width: Math.max(...places.map((p) => p.x)) + slot / 2,
    height: Math.max(...places.map((p) => p.y)) + tree.nodes[0].y + below,
  };
}

/** The height of a row of the server's layout (the root's y is half of it). */
export const rowHeight = (tree) => 2 * tree.nodes[0].y;

/** The width of a slot of the server's layout: twice the left margin of the leftmost spot. */
export const slotWidth = (tree) => 2 * Math.min(...[...tree.nodes, ...tree.pruned_spots].map((spot) => spot.x));

/**
 * The view of "Follow the search" (a viewBox) of a drawing of `size` in `frame` (pixels): the whole
 * drawing when it fits at a scale of at least `least` (enlarged up to `most` when small); else the
 * box around `keep` (points: the way from the root to the current node, and its children), as large as
 * the frame allows down to `least`, and centred on `focus` (the current node) when even that is too
 * wide. The focus is always inside the box.
 */
export function followBox(size, frame, keep, focus, { least = 0.6, most = 1.5, margin = 80 } = {}) {
  const fits = (width, height) => Math.min(most, frame.width / width, frame.height / height);
  // Room at the sides for the α and β written over the nodes at the edges.
  const whole = fits(size.width + margin, size.height);
  let box;
  if (whole >= least) box = { x: -margin / 2, y: 0, width: size.width + margin, height: size.height };
  else {
    const xs = keep.map((p) => p.x);
    box = { x: Math.min(...xs) - margin, y: 0, width: Math.max(...xs) - Math.min(...xs) + 2 * margin, height: size.height };
  }
  const scale = Math.max(least, fits(box.width, box.height));
  const width = frame.width / scale;
  const height = frame.height / scale;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const out = { x: centre.x - width / 2, y: centre.y - height / 2, width, height };
  if (!inside(out, focus, margin / 2)) {
    out.x = focus.x - width / 2;
    if (!inside(out, focus, margin / 2)) out.y = focus.y - height / 2;
  }
  return out;
}

/** `box` (a viewBox) zoomed by `factor` (> 1: closer) about the point `at` of the drawing. */
export function zoomBox(box, factor, at = { x: box.x + box.width / 2, y: box.y + box.height / 2 }) {
  const width = box.width / factor;
  const height = box.height / factor;
  return { x: at.x - ((at.x - box.x) * width) / box.width, y: at.y - ((at.y - box.y) * height) / box.height, width, height };
}
