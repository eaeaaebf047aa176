// Drawing a board and reading clicks and keys on it. The board knows no rules: it shows what it is given.
// Nothing runs at import: drawBoard is called by the views.

import { cellName } from "./diagram.js";
import { candidateWords, moveWords, sourceOf, t } from "./words.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Whether a board is drawn as a Go-style grid of lines with the stones on the intersections, as Gomoku
 * is played: every board without gravity at least 9 lines a side. */
export const isGrid = (view) => !view.gravity && Math.max(view.columns, view.rows) >= 9;

/** The star points of a grid board, as cell names: the corner points on the 4th line from each edge (3rd on
 * boards under 13 lines) and the centre, and on 19 lines the side points too, as on a Go board. */
export function starPoints(columns, rows) {
  const along = (size) => {
    if (size < 9) return [];
    const edge = size >= 13 ? 3 : 2;
    const points = [edge, size - 1 - edge];
    if (size % 2 === 1) points.splice(1, 0, (size - 1) / 2);
    return points;
  };
  const xs = along(columns);
  const ys = along(rows);
  const named = [];
  for (const x of xs) {
    for (const y of ys) {
      const middleX = xs.length === 3 && x === xs[1];
      const middleY = ys.length === 3 && y === ys[1];
      // The side points (one coordinate in the middle, the other on an edge line) only on 19 lines.
      if (middleX !== middleY && Math.min(columns, rows) < 19) continue;
      named.push(cellName(x, y));
    }
  }
  return named;
}

/** The labels around a board: the column labels under it (letters; numbers with gravity, where a move is a
 * column number) and the row numbers beside it, from the top row down. */
export function coordinates(columns, rows, gravity) {
  return {
    columns: Array.from({ length: columns }, (_, column) => (gravity ? String(column + 1) : LETTERS[column])),
    rows: Array.from({ length: rows }, (_, index) => String(rows - index)),
  };
}

/**
 * Draw `view` into `element`:
 *   {columns, rows, gravity, stones: Map(cell -> side), symbols: {x, o}, legal: Set(cell),
 *    winning: Set(cell), last: cell|null, marks: Map(cell -> className), labels: Map(cell -> move value),
 *    interactive: bool}
 * and, optionally (the Gomoku family): `names(side)`, the word for a side in the cells' labels (else its
 * symbol, upper case); `forbidden`: Map(cell -> why), the points the side to move may not play (Black's in
 * Renju), drawn as a small cross; `numbers`: Map(cell -> ply), each stone's move number, drawn on it;
 * `ranks`: Map(cell -> {rank, move}), the analysis's candidates, numbered on their points (no other point
 * gets a text); `heat`: Map(cell -> level), the quiet heat map of the other analysed points (see heatLevels),
 * a faint disc whose strength is the level, with no text.
 * `onPlay(cell, column)` is called for a click, a tap, Enter or Space on a cell.
 */
/** The quiet heat map of an analysis on a board too big to solve: for every analysed move with a win rate
 * that is not among `shown` (the numbered candidates), its level from 0 (the worst such move) to 1 (the
 * best), in steps of a fifth; moves below the first step are left out, so the far points stay bare.
 * Returns Map(move -> level). */
export function heatLevels(moves, shown) {
  const rated = moves.filter((move) => typeof move.winrate === "number" && !shown.has(move.move));
  if (rated.length === 0) return new Map();
  const rates = rated.map((move) => move.winrate);
  const low = Math.min(...rates);
  const high = Math.max(...rates);
  const levels = new Map();
  if (high - low < 1e-9) return levels;
  for (const move of rated) {
    const level = Math.round(((move.winrate - low) / (high - low)) * 5) / 5;
    if (level > 0) levels.set(move.move, level);
  }
  return levels;
}

export function drawBoard(element, view, onPlay) {
  const { columns, rows } = view;
  const dense = columns > 7 || rows > 7;
  element.style.setProperty("--columns", columns);
  element.style.setProperty("--rows", rows);
  element.classList.toggle("gravity", view.gravity);
  element.classList.toggle("dense", dense);
  const grid = isGrid(view);
  element.classList.toggle("grid", grid);
  const shape = `${columns}x${rows}${view.gravity ? "g" : ""}`;
  if (element.dataset.shape !== shape) {
    element.replaceChildren();
    element.dataset.shape = shape;
    const labels = coordinates(columns, rows, view.gravity);
    const stars = new Set(grid ? starPoints(columns, rows) : []);
    for (let row = rows - 1; row >= 0; row -= 1) {
      element.append(coordLabel("coord row-label", labels.rows[rows - 1 - row]));
      for (let column = 0; column < columns; column += 1) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.dataset.cell = cellName(column, row);
        cell.dataset.column = String(column + 1);
        const edges = [];
        if (column === 0) edges.push("left");
        if (column === columns - 1) edges.push("right");
        if (row === 0) edges.push("bottom");
        if (row === rows - 1) edges.push("top");
        cell.dataset.edge = edges.join(" ");
        if (stars.has(cell.dataset.cell)) cell.dataset.star = "true";
        cell.tabIndex = -1;
        element.append(cell);
      }
    }
    element.append(coordLabel("coord corner", ""));
    for (const text of labels.columns) element.append(coordLabel("coord column-label", text));
    element.onclick = (event) => {
      const cell = event.target.closest(".cell");
      if (cell && element.contains(cell) && element.onplay) element.onplay(cell.dataset.cell, Number(cell.dataset.column));
    };
    element.onkeydown = (event) => moveFocus(element, event, columns, rows);
  }
  element.onplay = view.interactive ? onPlay : null;
  let focusable = element.querySelector('.cell[tabindex="0"]');
  for (const cell of element.querySelectorAll(".cell")) {
    const name = cell.dataset.cell;
    const side = view.stones.get(name);
    const mark = side ? view.symbols[side] : "";
    cell.dataset.stone = mark;
    const label = view.labels?.get(name);
    const words = label ? moveWords(label) : null;
    const said = side && view.names ? view.names(side) : mark.toUpperCase();
    const parts = [name, said || t("empty")];
    const number = side ? view.numbers?.get(name) : undefined;
    if (number !== undefined) parts.push(t("move {number}", { number }));
    const forbidden = !side ? view.forbidden?.get(name) : undefined;
    if (forbidden) parts.push(t("forbidden point"));
    const ranked = !side ? view.ranks?.get(name) : undefined;
    if (ranked) parts.push(candidateWords(ranked.move, ranked.rank));
    if (view.gravity) parts.push(t("column {column}", { column: cell.dataset.column }));
    if (words) parts.push(words.long, sourceOf(label));
    if (view.winning.has(name)) parts.push(t("winning line"));
    if (view.last === name) parts.push(t("last move"));
    cell.setAttribute("aria-label", parts.join(t(", ")));
    cell.className = "cell";
    if (label) cell.dataset.source = label.source; // book or search: where the label's value came from
    else delete cell.dataset.source;
    if (view.winning.has(name)) cell.classList.add("winning");
    if (view.last === name) cell.classList.add("last");
    const extra = view.marks?.get(name);
    if (extra) cell.classList.add(...extra.split(" "));
    if (forbidden) {
      cell.classList.add("forbidden");
      cell.dataset.forbidden = forbidden;
    } else delete cell.dataset.forbidden;
    cell.disabled = !view.interactive;
    cell.replaceChildren();
    if (number !== undefined) {
      const text = document.createElement("span");
      text.className = "move-number";
      text.textContent = String(number);
      text.setAttribute("aria-hidden", "true");
      cell.append(text);
    }
    const level = !side && !ranked ? view.heat?.get(name) : undefined;
    if (level !== undefined) {
      const disc = document.createElement("span");
      disc.className = "heat";
      disc.style.setProperty("--heat", String(level));
      disc.setAttribute("aria-hidden", "true");
      cell.dataset.heat = String(level);
      cell.append(disc);
    } else delete cell.dataset.heat;
    if (ranked) {
      const badge = document.createElement("span");
      badge.className = `candidate${ranked.rank === 1 ? " first" : ""}`;
      badge.textContent = String(ranked.rank);
      badge.setAttribute("aria-hidden", "true");
      cell.append(badge);
    }
    if (words && !side) {
      const badge = document.createElement("span");
      badge.className = `eval ${words.kind}`;
      badge.textContent = dense ? words.short : words.long;
      badge.setAttribute("aria-hidden", "true");
      cell.append(badge);
    }
  }
  if (!focusable) focusable = element.querySelector(".cell");
  for (const cell of element.querySelectorAll(".cell")) cell.tabIndex = cell === focusable ? 0 : -1;
}

function coordLabel(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  element.setAttribute("aria-hidden", "true");
  return element;
}

function moveFocus(element, event, columns, rows) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  const step = steps[event.key];
  const current = event.target.closest(".cell");
  if (!step || !current) return;
  event.preventDefault();
  const column = Number(current.dataset.column) - 1;
  const row = Number(current.dataset.cell.slice(1)) - 1;
  const next = element.querySelector(
    `[data-cell="${cellName(
      Math.min(columns - 1, Math.max(0, column + step[0])),
      Math.min(rows - 1, Math.max(0, row + step[1])),
    )}"]`,
  );
  current.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
