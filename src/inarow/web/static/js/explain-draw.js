// The tree of the Explain panel, drawn as SVG from the nodes the server recorded (POST /api/explain) at
// the places the server's layout gives (see tree.js), and the replay's moves through it: go to a step,
// open or close a subtree, follow the search or fit the whole tree.

import { $, COMPACT_BELOW, LEAST_PX, SIZE, VALUE_PX, el, lastStep, leafName, view } from "./explain-view.js";
import { describe, drawLog, drawPath, showDetail, updateStepper } from "./explain-panels.js";
import { ancestorsAt, bestPath, descendants, inside, labelGrowth, placement, roomyDepths, scaleOf, viewBoxFor } from "./tree.js";
import { currentNode, liveState, pathIds, revealed } from "./replay.js";
import { ngettext, t, valueText } from "./words.js";

export function go(step) {
  if (!view.tree) return;
  if (view.autoFit && step < lastStep()) {
    view.autoFit = false;
    view.mode = "follow";
    showMode();
  }
  view.step = Math.max(0, Math.min(step, lastStep()));
  // Open the way to the node the search is at, so a step never happens out of sight.
  for (const id of ancestorsAt(view.tree, view.step)) view.closed.delete(id);
  drawTree();
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

export function drawTree() {
  const tree = view.tree;
  const svg = $("tree");
  svg.replaceChildren();
  if (!tree) return;
  const { at, pruned, width, height } = placement(tree, view.closed);
  const step = view.step;
  const live = liveState(tree, step);
  const current = currentNode(tree, step);
  const onPath = new Set(pathIds(tree, current.id));
  const shown = revealed(tree, step);
  const best = shown ? bestPath(tree) : new Set();
  const edges = el("g", { class: "edges" });
  const shapes = el("g", { class: "nodes" });
  const labels = el("g", { class: "reasons" });
  for (const node of tree.nodes) {
    if (!at.has(node.id) || node.enter > step) continue;
    const { x, y } = at.get(node.id);
    const state = live.get(node.id);
    const done = node.exit <= step;
    if (node.parent !== null) {
      const parent = at.get(node.parent);
      const onBest = best.has(node.id);
      edges.append(el("line", { x1: parent.x, y1: parent.y + SIZE, x2: x, y2: y - SIZE - 3, class: `edge${onBest ? " best" : ""}${onPath.has(node.id) ? " path" : ""}` }));
      edges.append(el("text", { x: (parent.x + x) / 2 + (x >= parent.x ? 5 : -5), y: (parent.y + y) / 2 + 2, class: "move", "text-anchor": x >= parent.x ? "start" : "end" }, node.move));
    }
    const closed = view.closed.has(node.id) && node.children.length > 0;
    const classes = ["node", node.role];
    if (best.has(node.id)) classes.push("best");
    if (node.cutoff && done) classes.push("cutoff");
    if (!done) classes.push("open");
    if (node.leaf) classes.push("leaf");
    if (onPath.has(node.id) && node.id !== current.id) classes.push("path");
    if (node.id === current.id) classes.push("current");
    if (node.id === view.selected) classes.push("selected");
    const g = el("g", { class: classes.join(" "), transform: `translate(${x} ${y})`, "data-id": node.id, "data-depth": node.depth, tabindex: "0", role: "button" });
    if (node.id === current.id) g.setAttribute("data-testid", "tree-current");
    const value = done ? valueText(node.value) : "?";
    const window = state.alpha === null ? "" : `α ${valueText(state.alpha)} β ${valueText(state.beta)}`;
    const words = [roleWords(node), node.path.length ? t("after {moves}", { moves: node.path.join(" ") }) : t("the position on the board"), t("value {value}", { value })];
    if (window) words.push(t("window {window}", { window }));
    if (node.leaf && done) words.push(node.leaf === "depth" ? t("evaluated at the depth limit") : t("a leaf: {leaf}", { leaf: leafName(node.leaf) }));
    if (node.cutoff && done) words.push(t("cut off"));
    if (node.children.length) {
      const hidden = descendants(tree, node);
      const count = node.children.length;
      words.push(closed ? ngettext("{count} node hidden", "{count} nodes hidden", hidden, { count: hidden }) : ngettext("{count} child searched", "{count} children searched", count, { count }));
    }
    g.setAttribute("aria-label", words.join(t("; ")));
    if (node.children.length) g.setAttribute("aria-expanded", String(!closed));
    g.append(el("title", {}, words.join("\n")), shape(node));
    g.append(el("text", { class: "value", y: node.role === "max" ? 6 : node.role === "min" ? 1 : 4, "text-anchor": "middle" }, value));
    if (window) g.append(el("text", { class: `window${done ? "" : " live"}`, y: SIZE + 15, "text-anchor": "middle" }, window));
    if (closed) {
      const count = descendants(tree, node);
      const badge = el("g", { class: "badge", transform: `translate(0 ${SIZE + 30})` });
      badge.append(el("rect", { x: -17, y: -9, width: 34, height: 16, rx: 8 }), el("text", { y: 3, "text-anchor": "middle" }, `+${count}`));
      g.append(badge);
    }
    shapes.append(g);
    // The children a cut-off pruned, once the cut-off has happened.
    const cutEvent = node.cutoff ? tree.events.findIndex((e) => e.kind === "cutoff" && e.node === node.id) : -1;
    if (!view.closed.has(node.id) && node.pruned.length && cutEvent >= 0 && cutEvent <= step) {
      const cut = tree.events[cutEvent];
      const reason = t("{bound} cut-off: {move} returned {value} {relation} = {limit}", {
        bound: cut.bound === "beta" ? "β" : "α",
        move: cut.move,
        value: valueText(cut.value),
        relation: cut.bound === "beta" ? "≥ β" : "≤ α",
        limit: valueText(cut.bound === "beta" ? cut.beta : cut.alpha),
      });
      for (const move of node.pruned) {
        const { x: gx, y: gy } = pruned.get(`${node.id}:${move}`);
        edges.append(el("line", { x1: x, y1: y + SIZE, x2: gx, y2: gy - 12, class: "edge pruned" }));
        const text = t("{move} pruned, never searched: {reason}", { move, reason });
        const p = el("g", { class: "pruned", transform: `translate(${gx} ${gy})`, tabindex: "0", "data-pruned": move, "data-parent": node.id, role: "note", "aria-label": text });
        const wide = Math.max(26, 7 * move.length + 8);
        p.append(el("title", {}, text), el("rect", { x: -wide / 2, y: -11, width: wide, height: 22, rx: 5 }), el("text", { y: 4, "text-anchor": "middle" }, move), el("text", { class: "scissors", y: 24, "text-anchor": "middle" }, "✂"));
        shapes.append(p);
        const label = el("g", { class: "reason", transform: `translate(${gx} ${gy + 44})`, "data-for": `${node.id}:${move}` });
        const short = `${cut.move} ${cut.bound === "beta" ? "≥ β" : "≤ α"}`;
        label.append(el("rect", { x: -48, y: -13, width: 96, height: 19, rx: 5 }), el("text", { "text-anchor": "middle" }, short));
        labels.append(label);
        const show = (on) => label.classList.toggle("shown", on);
        p.addEventListener("mouseenter", () => show(true));
        p.addEventListener("mouseleave", () => show(false));
        p.addEventListener("focus", () => show(true));
        p.addEventListener("blur", () => show(false));
      }
    }
  }
  svg.append(edges, shapes, labels);
  frameTo(at.get(current.id), { width, height }, current.parent === null ? null : at.get(current.parent), at);
  describe();
  drawPath(live, current);
  drawLog();
  updateStepper();
  if (view.selected !== null) showDetail(view.selected, toggleNode);
}

/** Point the frame at the drawing: the whole of it, or the current node (with its parent when it fits). */
function frameTo(focus, size, parent, at) {
  const svg = $("tree");
  // A fitted tree wider than it is tall leaves the frame no taller than the drawing needs.
  $("tree-frame").style.height = "";
  let frame = frameSize();
  if (view.mode === "fit") {
    const fitted = Math.max(160, Math.ceil(((size.height * frame.width) / (size.width + 16)) + 4));
    if (fitted < frame.height) {
      $("tree-frame").style.height = `${fitted}px`;
      frame = frameSize();
    }
  }
  const box = viewBoxFor(view.mode, size, frame, focus ?? { x: size.width / 2, y: 0 }, parent ?? null);
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");
  const scale = scaleOf(box, frame);
  svg.classList.toggle("compact", scale < COMPACT_BELOW);
  // Readable at any size: values grow so that none is smaller than LEAST_PX on screen, and on the levels
  // where they would then overlap they are left out, but for the current node and its path; every value
  // stays in the node's title and its details.
  const grow = scale < COMPACT_BELOW ? labelGrowth(scale, VALUE_PX, LEAST_PX) : 1;
  svg.style.setProperty("--value-grow", String(grow));
  const roomy = roomyDepths(view.tree, at, scale, 2.4 * Math.max(LEAST_PX, VALUE_PX * scale));
  for (const g of svg.querySelectorAll(".node")) g.classList.toggle("quiet", !roomy.has(Number(g.dataset.depth)));
  svg.dataset.mode = view.mode;
  svg.dataset.focusInside = String(focus ? inside(box, focus) : true);
}
export function toggleNode(id) {
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
  showMode();
  drawTree();
}

