// Drawing a board and reading clicks and keys on it. The board knows no rules: it shows what it is given.

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export const cellName = (column, row) => `${LETTERS[column]}${row + 1}`;

/** Stones by cell name ("b2" -> "x") from a diagram such as "x.o/.x./..o" (rows from the top). */
export function readDiagram(diagram) {
  const rows = diagram.split("/");
  const stones = new Map();
  rows.forEach((line, index) => {
    const row = rows.length - 1 - index;
    [...line].forEach((mark, column) => {
      if (mark !== ".") stones.set(cellName(column, row), mark);
    });
  });
  return stones;
}

/** The cell a move lands on: a cell name, or in gravity games the lowest empty cell of a column. */
export function landing(game, stones, move) {
  if (!game.gravity) return move;
  const column = Number(move) - 1;
  for (let row = 0; row < game.rows; row += 1) {
    if (!stones.has(cellName(column, row))) return cellName(column, row);
  }
  return null;
}

/** Short and long words for a move's value: "win in 3", "draw", "loss in 2", or an evaluation. */
export function valueWords(move) {
  if (!move.exact || move.value === null) {
    const sign = move.score > 0 ? "+" : "";
    return { kind: "unknown", long: `eval ${sign}${move.score}`, short: `${sign}${move.score}` };
  }
  if (move.value === 0) return { kind: "draw", long: "draw", short: "D" };
  const moves = Math.floor((move.plies + 1) / 2);
  const kind = move.value > 0 ? "win" : "loss";
  return { kind, long: `${kind} in ${moves}`, short: `${kind === "win" ? "W" : "L"}${moves}` };
}

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
    const words = label ? valueWords(label) : null;
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

/** On 3×3 boards, the keys 1–9 laid out as a numeric keypad: 7 8 9 on top, 1 2 3 at the bottom. */
export function keypadCell(key) {
  if (!/^[1-9]$/.test(key)) return null;
  const index = Number(key) - 1;
  return cellName(index % 3, Math.floor(index / 3));
}
