// Reading the server's board diagrams and naming cells: pure functions, no DOM, so node can test them.
// The server owns the rules; these only say where a stone is, as the diagram and the game's shape tell.

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The name of a cell from its 0-based column and row: (0, 0) is "a1", bottom-left. */
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

/**
 * The cell a move lands on in `game` ({gravity, rows}): the cell name itself, or in gravity games, where
 * a move is a column number, the lowest empty cell of that column (null when the column is full).
 */
export function landing(game, stones, move) {
  if (!game.gravity) return move;
  const column = Number(move) - 1;
  for (let row = 0; row < game.rows; row += 1) {
    if (!stones.has(cellName(column, row))) return cellName(column, row);
  }
  return null;
}

/** On 3×3 boards, the keys 1–9 laid out as a numeric keypad: 7 8 9 on top, 1 2 3 at the bottom. */
export function keypadCell(key) {
  if (!/^[1-9]$/.test(key)) return null;
  const index = Number(key) - 1;
  return cellName(index % 3, Math.floor(index / 3));
}

/**
 * The cell and column a key plays in `game` ({columns, rows, gravity}), or null: the keypad on 3×3, the
 * column's number in gravity games (its bottom cell stands for the column).
 */
export function keyMove(game, key) {
  if (game.columns === 3 && game.rows === 3 && !game.gravity) {
    const cell = keypadCell(key);
    return cell ? { cell, column: 1 } : null;
  }
  if (game.gravity && /^[1-9]$/.test(key) && Number(key) <= game.columns) {
    const column = Number(key);
    return { cell: cellName(column - 1, 0), column };
  }
  return null;
}
