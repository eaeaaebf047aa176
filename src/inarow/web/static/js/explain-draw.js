// The tree of the Explain panel, drawn as SVG from the nodes the server recorded (POST /api/explain), and
// the replay's moves through it. "Follow the search" draws what the search has reached so far in a tidy
// layout of its own (tree.js: searchedPart, compactPlacement), folding finished subtrees off the way to
// the current node when the tree is too wide, so the way from the root to the node the search is at is
// always in the frame; "Whole tree" draws every node at the server's places, the ones not reached yet as
// outlines, and zooms and pans. Labels never get smaller than 12 px on screen; α and β show on the way
// from the root and on the node pointed at, not on every node.

import { $, SIZE, el, lastStep, leafName, view } from "./explain-view.js";
import { describe, drawLog, drawPath, showDetail, updateStepper } from "./explain-panels.js";
import { bestPath, compactPlacement, descendants, followBox, inside, labelGrowth, placement, roomyDepths, rowHeight, scaleOf, searchedPart, slotWidth, zoomBox } from "./tree.js";
import { currentNode, liveState, pathIds, revealed } from "./replay.js";
import { ngettext, t, valueText } from "./words.js";

const LABEL_PX = 12; // the smallest label's size in the drawing (style.css: .tree .move, .window)
const LEAST_PX = 12; // no label is smaller than this on screen, whatever the scale
const FOLD_BELOW = 0.6; // "Follow" folds finished subtrees when the drawing would need a smaller scale (followBox's least)
const COMPACT_BELOW = 0.7;
const ROW_PX = 120; // the least distance between two rows of the whole tree on screen, when the frame has room // below this scale the move names off the path are left out

/** The step at which each node cut off, by node id. */
const cutSteps = (tree) => new Map(tree.events.flatMap((event, index) => (event.kind === "cutoff" ? [[event.node, index]] : [])));

/** A node's `data-path`: its moves from the root ("b2 a1"), or in an abstract tree its label ("b2"). */
export const pathOf = (tree, node) => (tree.abstract ? (node.move ?? "") : node.path.join(" "));

export function go(step) {
  if (!view.tree) return;
  // "Show the whole tree" fitted the view at the end; a step back before it follows the search again.
  if (view.autoFit && step < lastStep()) {
    view.autoFit = false;
    view.mode = "follow";
    view.zoom = null;
    showMode();
  }
  view.step = Math.max(0, Math.min(step, lastStep()));
  for (let id = currentNode(view.tree, view.step).parent; id !== null && id !== undefined; id = view.tree.nodes[id].parent) view.closed.delete(id);
  drawTree();
}

/** Scroll the page so that the stage (the stepper, the tree and the log) is on screen, if it is not. */
export function stageInSight() {
  const stage = $("explain-stage");
  if (!stage || $("explain-panel").hidden || document.body.classList.contains("presenting")) return;
  const top = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
  const box = stage.getBoundingClientRect();
  if (box.top < top - 1 || box.bottom > window.innerHeight + 1) window.scrollBy({ top: box.top - top - 6, behavior: "instant" });
}

function shape(node) {
  if (node.role === "negamax") return el("circle", { r: SIZE, class: "shape" });
  const s = SIZE + 3;
  const points = node.role === "max" ? [[0, -s], [-s, s * 0.72], [s, s * 0.72]] : [[0, s], [-s, -s * 0.72], [s, -s * 0.72]];
  return el("polygon", { points: points.map((p) => p.join(",")).join(" "), class: "shape" });
}

function roleWords(node) {
  const side = view.mark(node.to_move);
  if (node.role === "negamax") return t("Negamax node, {side} to move", { side });
  return node.role === "max" ? t("Max node ({side} to move)", { side }) : t("Min node ({side} to move)", { side });
}

function frameSize() {
  const box = $("tree-frame").getBoundingClientRect();
  return { width: Math.max(120, box.width - 2), height: Math.max(120, box.height - 2) };
}

/** Where each shown node is drawn, for the view chosen: {at, pruned, width, height, folded, part}. */
function layout(tree, step, current, cuts, frame) {
  if (view.mode === "fit") {
    const placed = placement(tree, view.closed);
    // A wide tree fitted to the frame's width would be a strip a few pixels high: its rows are pulled
    // apart to fill the frame's height instead, ROW_PX apart on screen at least when there is room.
    const scale = Math.min(1, frame.width / (placed.width + 24));
    const stretch = Math.max(1, Math.min(ROW_PX / (rowHeight(tree) * scale), frame.height / (placed.height * scale)));
    const lower = (spot) => ({ x: spot.x, y: spot.y * stretch });
    return {
      at: new Map([...placed.at].map(([id, spot]) => [id, lower(spot)])),
      pruned: new Map([...placed.pruned].map(([key, spot]) => [key, lower(spot)])),
      width: placed.width,
      height: placed.height * stretch,
      folded: view.closed,
      part: null,
    };
  }
  let part = searchedPart(tree, step, current.id, cuts, false);
  let placed = compactPlacement(tree, part, slotWidth(tree));
  if (placed.width * FOLD_BELOW > frame.width) {
    part = searchedPart(tree, step, current.id, cuts, true);
    placed = compactPlacement(tree, part, slotWidth(tree));
  }
  return { ...placed, folded: part.folded, part };
}

export function drawTree() {
  const tree = view.tree;
  const svg = $("tree");
  svg.replaceChildren();
  if (!tree) return;
  const step = view.step;
  const current = currentNode(tree, step);
  const live = liveState(tree, step);
  // The words first: they may change the stage's rows, and so the frame the tree is fitted to.
  describe();
  drawPath(live, current);
  drawLog();
  updateStepper();
  const cuts = cutSteps(tree);
  const frame = frameSize();
  const { at, pruned, width, height, folded } = layout(tree, step, current, cuts, frame);
  const onPath = new Set(pathIds(tree, current.id));
  const best = revealed(tree, step) ? bestPath(tree) : new Set();
  const edges = el("g", { class: "edges" });
  const shapes = el("g", { class: "nodes" });
  const labels = el("g", { class: "reasons" });
  for (const node of tree.nodes) {
    if (!at.has(node.id)) continue;
    const { x, y } = at.get(node.id);
    const entered = node.enter <= step;
    const state = live.get(node.id);
    const done = node.exit <= step;
    if (node.parent !== null && at.has(node.parent)) {
      const parent = at.get(node.parent);
      const kind = `${best.has(node.id) ? " best" : ""}${onPath.has(node.id) ? " path" : ""}${entered ? "" : " unvisited"}`;
      edges.append(el("line", { x1: parent.x, y1: parent.y + SIZE, x2: x, y2: y - SIZE - 3, class: `edge${kind}` }));
      edges.append(el("text", { x: (parent.x + x) / 2 + (x >= parent.x ? 5 : -5), y: (parent.y + y) / 2 + 2, class: `move${kind}`, "text-anchor": x >= parent.x ? "start" : "end" }, node.move));
    }
    const closed = folded.has(node.id) && node.children.length > 0;
    const classes = ["node", node.role];
    if (!entered) classes.push("unvisited");
    if (best.has(node.id)) classes.push("best");
    if (node.cutoff && done) classes.push("cutoff");
    if (entered && !done) classes.push("open");
    if (node.leaf) classes.push("leaf");
    if (onPath.has(node.id) && node.id !== current.id) classes.push("path");
    if (node.id === current.id) classes.push("current");
    if (node.id === view.selected) classes.push("selected");
    const g = el("g", {
      class: classes.join(" "), transform: `translate(${x} ${y})`, "data-id": node.id, "data-depth": node.depth, tabindex: "0", role: "button",
      "data-testid": "tree-node", "data-path": pathOf(tree, node), "data-state": entered ? "searched" : "unvisited",
    });
    // An abstract tree's leaves are the question itself: their values show before the search reaches them.
    const given = tree.abstract && node.leaf && !entered;
    const value = done || given ? valueText(node.value) : entered ? "?" : "";
    const window = state && state.alpha !== null ? `α ${valueText(state.alpha)}  β ${valueText(state.beta)}` : "";
    const words = [roleWords(node), node.path.length ? t("after {moves}", { moves: node.path.join(" ") }) : t("the position on the board")];
    if (entered) words.push(t("value {value}", { value }));
    else words.push(t("not searched yet"));
    if (window) words.push(t("window {window}", { window }));
    if (node.leaf && done) words.push(node.leaf === "depth" ? t("evaluated at the depth limit") : t("a leaf: {leaf}", { leaf: leafName(node.leaf) }));
    if (node.cutoff && done) words.push(t("cut off"));
    if (node.children.length && done) {
      const hidden = descendants(tree, node);
      const count = node.children.length;
      words.push(closed ? ngettext("{count} node hidden", "{count} nodes hidden", hidden, { count: hidden }) : ngettext("{count} child searched", "{count} children searched", count, { count }));
    }
    g.setAttribute("aria-label", words.join(t("; ")));
    if (node.children.length && done) g.setAttribute("aria-expanded", String(!closed));
    g.append(el("title", {}, words.join("\n")), shape(node));
    g.append(el("text", { class: "value", y: node.role === "max" ? 7 : node.role === "min" ? 1 : 5, "text-anchor": "middle" }, value));
    // Above the node, clear of the edges to its children and of the move names halfway up its own edge.
    if (window) g.append(el("text", { class: `window${done ? "" : " live"}`, y: -(SIZE + 10), "text-anchor": "middle" }, window));
    if (closed) {
      const count = descendants(tree, node);
      const badge = el("g", { class: "badge", transform: `translate(0 ${SIZE + 34})` });
      badge.append(el("rect", { x: -20, y: -10, width: 40, height: 19, rx: 9 }), el("text", { y: 4, "text-anchor": "middle" }, `+${count}`));
      g.append(badge);
    }
    if (node.id === current.id) {
      // The hook of the node the search is at wraps it, so the node keeps its own.
      const holder = el("g", { "data-testid": "tree-current" });
      holder.append(g);
      shapes.append(holder);
    } else shapes.append(g);
    if (closed || !node.pruned.length) continue;
    // The children a cut-off pruned: once it has happened, pruned; in the whole tree before, not searched yet.
    const cutAt = cuts.get(node.id);
    const cutDone = cutAt !== undefined && cutAt <= step;
    const cut = cutDone ? tree.events[cutAt] : null;
    const reason = cut
      ? t("{bound} cut-off: {move} returned {value} {relation} = {limit}", {
          bound: cut.bound === "beta" ? "β" : "α",
          move: cut.move,
          value: valueText(cut.value),
          relation: cut.bound === "beta" ? "≥ β" : "≤ α",
          limit: valueText(cut.bound === "beta" ? cut.beta : cut.alpha),
        })
      : "";
    for (const spot of tree.pruned_spots.filter((s) => s.parent === node.id)) {
      const place = pruned.get(`${node.id}:${spot.move}`);
      if (!place) continue;
      const { x: gx, y: gy } = place;
      edges.append(el("line", { x1: x, y1: y + SIZE, x2: gx, y2: gy - 12, class: `edge ${cutDone ? "pruned" : "unvisited"}` }));
      if (tree.abstract) edges.append(el("text", { x: (x + gx) / 2 + (gx >= x ? 5 : -5), y: (y + gy) / 2 + 2, class: "move", "text-anchor": gx >= x ? "start" : "end" }, spot.move));
      const text = cutDone ? t("{move} pruned, never searched: {reason}", { move: spot.move, reason }) : t("{move}: not searched yet", { move: spot.move });
      const shown = tree.abstract && spot.value !== null && spot.value !== undefined ? valueText(spot.value) : spot.move;
      const p = el("g", {
        class: cutDone ? "pruned" : "pruned unvisited", transform: `translate(${gx} ${gy})`, tabindex: "0", "data-pruned": spot.move, "data-parent": node.id, role: "note", "aria-label": text,
        "data-testid": "tree-node", "data-path": tree.abstract ? spot.move : [...node.path, spot.move].join(" "), "data-state": cutDone ? "pruned" : "unvisited",
      });
      const wide = Math.max(30, 8 * shown.length + 10);
      p.append(el("title", {}, text), el("rect", { x: -wide / 2, y: -12, width: wide, height: 24, rx: 5 }), el("text", { y: 5, "text-anchor": "middle" }, shown));
      if (cutDone) p.append(el("text", { class: "scissors", y: 27, "text-anchor": "middle" }, "✂"));
      shapes.append(p);
      if (!cut) continue;
      const label = el("g", { class: "reason", transform: `translate(${gx} ${gy + 48})`, "data-for": `${node.id}:${spot.move}` });
      const short = `${cut.move} ${cut.bound === "beta" ? "≥ β" : "≤ α"}`;
      label.append(el("rect", { x: -52, y: -14, width: 104, height: 21, rx: 5 }), el("text", { "text-anchor": "middle" }, short));
      labels.append(label);
      const show = (on) => label.classList.toggle("shown", on);
      p.addEventListener("mouseenter", () => show(true));
      p.addEventListener("mouseleave", () => show(false));
      p.addEventListener("focus", () => show(true));
      p.addEventListener("blur", () => show(false));
    }
  }
  svg.append(edges, shapes, labels, marks(shapes));
  const focus = at.get(current.id);
  const keep = [...onPath].filter((id) => at.has(id)).map((id) => at.get(id));
  for (const child of current.children) if (at.has(child)) keep.push(at.get(child));
  frameTo(focus, { width, height }, keep, at, frame);
  if (view.selected !== null) showDetail(view.selected, toggleNode);
}

/**
 * Where a checked search parted from inarow's (view.marked): a ring round the node (search-divergence) and a
 * dashed one round the node the student touched there, if the tree draws it (a pruned child, say).
 */
function marks(shapes) {
  const group = el("g", { class: "marks" });
  const marked = view.marked;
  if (!marked) return group;
  for (const [role, path] of [["node", marked.node], ["leaf", marked.leaf]]) {
    if (path === null || path === undefined) continue;
    const drawn = [...shapes.querySelectorAll('[data-testid="tree-node"]')].find((g) => g.dataset.path === path);
    const place = drawn?.getAttribute("transform")?.match(/translate\(([-\d.e]+) ([-\d.e]+)\)/);
    if (!place) continue;
    const ring = el("circle", { class: `diverged ${role}`, cx: place[1], cy: place[2], r: SIZE + (role === "node" ? 10 : 7), "data-path": path });
    if (role === "node") ring.setAttribute("data-testid", "search-divergence");
    ring.append(el("title", {}, role === "node" ? t("where your search parted from inarow's") : t("what your search did there")));
    group.append(ring);
  }
  return group;
}

/** Point the frame at the drawing: the view around the current node, or the whole tree (zoomed, panned). */
function frameTo(focus, size, keep, at, frame) {
  const svg = $("tree");
  let box;
  if (view.mode === "fit") {
    const pad = 12;
    box = view.zoom ?? { x: -pad, y: 0, width: size.width + 2 * pad, height: size.height };
    const scale = Math.min(frame.width / box.width, frame.height / box.height);
    box = { x: box.x + box.width / 2 - frame.width / scale / 2, y: box.y + box.height / 2 - frame.height / scale / 2, width: frame.width / scale, height: frame.height / scale };
  } else box = followBox(size, frame, keep, focus);
  view.box = box;
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");
  const scale = scaleOf(box, frame);
  svg.classList.toggle("compact", scale < COMPACT_BELOW);
  // Readable at any size: labels grow so that none is smaller than LEAST_PX on screen, and on the levels
  // where values would then overlap they are left out, but for the current node and its path; every value
  // stays in the node's title and its details.
  svg.style.setProperty("--grow", String(labelGrowth(scale, LABEL_PX, LEAST_PX)));
  const roomy = roomyDepths(view.tree, at, scale, 2.2 * LEAST_PX);
  for (const g of svg.querySelectorAll(".node")) g.classList.toggle("quiet", !roomy.has(Number(g.dataset.depth)));
  svg.dataset.mode = view.mode;
  svg.dataset.focusInside = String(focus ? inside(box, focus) : true);
}

/** Zoom the whole tree by `factor` about `at` (a point of the drawing; the middle of the view if left out). */
export function zoom(factor, at) {
  if (!view.tree || !view.box) return;
  const start = view.box;
  if (view.mode !== "fit") {
    view.mode = "fit";
    showMode();
  }
  view.zoom = zoomBox(start, factor, at);
  drawTree();
}

/** Move the whole tree's view by (dx, dy) drawing pixels. */
export function pan(dx, dy) {
  if (!view.box || view.mode !== "fit") return;
  view.zoom = { ...view.box, x: view.box.x - dx, y: view.box.y - dy };
  drawTree();
}

export function toggleNode(id) {
  if (view.mode !== "fit") {
    view.mode = "fit";
    showMode();
  }
  if (view.closed.has(id)) view.closed.delete(id);
  else view.closed.add(id);
  drawTree();
  $("tree").querySelector(`g.node[data-id="${id}"]`)?.focus();
}

export function nodeOf(event) {
  const g = event.target.closest?.("g.node");
  return g && view.tree ? Number(g.dataset.id) : null;
}

export function showMode() {
  $("tree-follow").setAttribute("aria-pressed", String(view.mode === "follow"));
  $("tree-fit").setAttribute("aria-pressed", String(view.mode === "fit"));
}

export function setMode(mode) {
  view.mode = mode;
  view.autoFit = false;
  view.zoom = null;
  showMode();
  drawTree();
}

