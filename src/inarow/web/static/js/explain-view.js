// What the modules of the Explain panel share: the state of the replay on screen (`view`), the DOM helpers
// and the names of algorithms and leaves. explain.js (requests, keys and wiring), explain-draw.js (the
// tree), explain-panels.js (the words around it), explain-quiz.js (Try it) and explain-compare.js (the
// comparison) all read and write the one `view`. Nothing runs at import.

import { N_, t } from "./words.js";

export const $ = (id) => document.getElementById(id);
export const SVG = "http://www.w3.org/2000/svg";
export const SIZE = 19; // half the size of a node's shape
export const COLLAPSE_OVER = 400; // trees with more nodes start with the nodes of depth 2 closed
export const RUN_EVERY = 450; // milliseconds between two steps of "Run"
export const COMPACT_BELOW = 0.7; // below this scale the window labels are left out, so the values stay readable
export const VALUE_PX = 15; // a value's size in the drawing once compact (style.css: .tree.compact .value)
export const LEAST_PX = 11; // no value is drawn smaller than this on screen, whatever the scale

const LEAVES = { won: N_("won"), lost: N_("lost"), draw: N_("draw"), table: N_("in the table"), depth: N_("depth limit") };
export const leafName = (leaf) => (LEAVES[leaf] ? t(LEAVES[leaf]) : leaf);

export const view = {
  key: null, // what the tree on screen was asked for
  tree: null, // the answer of /api/explain
  step: 0, // the replay shows the steps up to this one
  closed: new Set(), // ids of the nodes whose subtrees are hidden
  timer: null,
  mode: "follow", // or "fit"
  autoFit: false, // "Show the whole tree" fitted the view; a step back before the end follows the search again
  zoom: null, // the part of the whole tree zoomed or panned to (a viewBox), or null: all of it
  box: null, // the viewBox drawn last
  source: "board", // what is explained: "board" (the game on the board), "tree" (leaves typed), "position" (pasted)
  board: null, // the GameState on the board, for going back to it
  arriving: false, // opened from a link: once shown, bring the stage into sight and the keys to the stepper
  student: false, // opened by ?student=1: once shown, bring the e(P) box into sight instead
  selected: null, // the node whose details are shown
  mark: (side) => side.toUpperCase(),
  request: 0, // bumped at each request, so a late answer for an old one is dropped
  quiz: null, // Try it: {questions, answered: Map step -> right, pending}
  logged: 0, // how many steps the log shows
  marked: null, // a checked search's divergence on the tree: {case, node, leaf}, named as data-path names them
};

export const el = (name, attributes = {}, text) => {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

export const html = (name, attributes = {}, text) => {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

export const setState = (state) => {
  $("explain-panel").dataset.state = state;
};

export function summary(text, kind = "") {
  $("explain-summary").textContent = text;
  $("explain-summary").className = `explain-summary ${kind}`.trim();
}

export const lastStep = () => (view.tree ? view.tree.steps - 1 : 0);
export const atEnd = () => view.step >= lastStep();

/** Stop "Run". */
export function stop() {
  clearInterval(view.timer);
  view.timer = null;
  $("explain-run").setAttribute("aria-pressed", "false");
}
