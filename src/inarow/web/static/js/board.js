// Drawing a board and reading clicks and keys on it. The board knows no rules: it shows what it is given.
// Nothing runs at import: drawBoard is called by the views.

import { cellName } from "./diagram.js";
import { moveWords } from "./words.js";

/**
 * Draw `view` into `element`:
 *   {columns, rows, gravity, stones: Map(cell -> side), symbols: {x, o}, legal: Set(cell),
 *    winning: Set(cell), last: cell|null, marks: Map(cell -> className), labels: Map(cell -> move value),
 *    interactive: bool}
 * `onPlay(cell, column)` is called for a click, a tap, Enter or Space on a cell.
 */
export function drawBoard(element, view, onPlay) {
  const { columns, rows } = view;
  const dense = columns > 7 || rows > 7;
  element.style.setProperty("--columns", columns);
  element.style.setProperty("--rows", rows);
  element.classList.toggle("gravity", view.gravity);
  element.classList.toggle("dense", dense);
  const sameShape = element.dataset.shape === `${columns}x${rows}`;
  if (!sameShape) {
    element.replaceChildren();
    element.dataset.shape = `${columns}x${rows}`;
    for (let row = rows - 1; row >= 0; row -= 1) {
      for (let column = 0; column < columns; column += 1) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "cell";
        cell.dataset.cell = cellName(column, row);
        cell.dataset.column = String(column + 1);
        cell.tabIndex = -1;
        element.append(cell);
      }
    }
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
    const parts = [name, mark ? mark.toUpperCase() : "empty"];
    if (view.gravity) parts.push(`column ${cell.dataset.column}`);
    if (words) parts.push(words.long);
    if (view.winning.has(name)) parts.push("winning line");
    cell.setAttribute("aria-label", parts.join(", "));
    cell.className = "cell";
    if (view.winning.has(name)) cell.classList.add("winning");
    if (view.last === name) cell.classList.add("last");
    const extra = view.marks?.get(name);
    if (extra) cell.classList.add(...extra.split(" "));
    cell.disabled = !view.interactive;
    cell.replaceChildren();
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
