// Links that reopen what is on screen, and the shape of a board before the server has answered.
// Pure functions of strings and URLSearchParams: no DOM, so node can test them; main.js and history.js use
// them.
//
//   /?game=tictactoe&position=b2%20a1   that position, to play on (a move list, or a diagram x.o/.x./...)
//   /?id=GAME_ID                        a game of this server, as it stands
//   /?review=GAME_ID                    the review of a game
//
// The Explain panel's own parameters (explain=, leaves=, algo=, depth=, lang=) are explain.js's.

const PRESETS = {
  tictactoe: [3, 3, false],
  "4x4": [4, 4, false],
  "5x5": [5, 5, false],
  connect4: [7, 6, true],
  gomoku: [15, 15, false],
  "gomoku-standard": [15, 15, false],
  renju: [15, 15, false],
};

/** A game's name read: {preset} for a preset's name, {columns, rows, k, gravity, exact} for a custom
 * board's ("6x5:4:gravity"), null for a name that is neither; who moves first (":o-first") is left out. */
function readName(name) {
  const base = String(name).replace(/:o-first$/, "");
  if (PRESETS[base]) return { preset: base };
  const custom = /^(\d+)x(\d+):(\d+)((?::gravity|:exact)*)$/.exec(base);
  if (!custom) return null;
  const [columns, rows, k] = custom.slice(1, 4).map(Number);
  return { columns, rows, k, gravity: custom[4].includes(":gravity"), exact: custom[4].includes(":exact") };
}

/** The columns, rows and gravity of a game by its name ("connect4", "6x5:4:gravity:o-first"), or null
 * for a name that is not one: the page draws the empty board of a new game while the server starts it. */
export function boardShape(name) {
  const read = readName(name);
  if (!read) return null;
  const [columns, rows, gravity] = read.preset ? PRESETS[read.preset] : [read.columns, read.rows, read.gravity];
  return { columns, rows, gravity };
}

/** The New game form's choices that start another game like `name`: {preset} for a preset, {preset:
 * "custom", columns, rows, k, gravity} for a board the form can describe, else null (who opens is left as
 * chosen). A link that opens a Gomoku position thus leaves "New game" on Gomoku, not on the last choice. */
export function formChoices(name) {
  const read = readName(name);
  if (!read || read.exact) return null;
  if (read.preset) return { preset: read.preset };
  return { preset: "custom", columns: String(read.columns), rows: String(read.rows), k: String(read.k), gravity: read.gravity };
}

/** What a page's URL asks to open: {kind: "review", id} | {kind: "game", id, game, position} |
 * {kind: "position", game, position} | null. A game's link carries its position too, so that it opens on
 * another server (or after the game is forgotten) as the position. */
export function linkTarget(search) {
  const params = new URLSearchParams(search);
  if (params.has("explain") || params.has("leaves")) return null; // the Explain panel's link (explain.js)
  const position = { game: params.get("game"), position: (params.get("position") ?? "").trim() };
  if (params.get("review")) return { kind: "review", id: params.get("review") };
  if (params.get("id")) return { kind: "game", id: params.get("id"), ...position };
  if (params.has("game")) return { kind: "position", ...position };
  return null;
}

/** The query string of a link to `target` (see linkTarget), other parameters of `search` kept. */
export function linkSearch(target, search = "") {
  const params = new URLSearchParams(search);
  for (const name of ["game", "position", "id", "review"]) params.delete(name);
  if (target?.kind === "review") params.set("review", target.id);
  if (target?.game) params.set("game", target.game);
  if (target?.game && target.position) params.set("position", target.position);
  if (target?.kind === "game") params.set("id", target.id);
  const text = params.toString().replace(/\+/g, "%20");
  return text ? `?${text}` : "";
}

/** The moves of a game as a move list, as the command line reads them: "b2 a1 c3", Connect Four's
 * columns as digits "4453" (up to 9 columns). */
export function moveList(game) {
  const moves = game.moves.map((move) => move.move);
  return game.gravity && game.columns <= 9 ? moves.join("") : moves.join(" ");
}

/** A game as SGF-like text where the game has that convention (Gomoku: "(;GM[4]SZ[15];B[hh];W[ii])",
 * columns from a, rows from the top), else null. */
export function sgf(game) {
  if (game.gravity || game.columns !== game.rows || game.columns < 9) return null;
  const size = game.columns;
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const nodes = game.moves.map((move) => {
    const column = letters.indexOf(move.cell[0]);
    const row = size - Number(move.cell.slice(1));
    const colour = move.side === (game.game.endsWith(":o-first") ? "o" : "x") ? "B" : "W";
    return `;${colour}[${letters[column]}${letters[row]}]`;
  });
  return `(;GM[4]FF[4]SZ[${size}]${nodes.join("")})`;
}

/** The moves of SGF-like text ("(;GM[4]SZ[15];B[hh];W[ii])") as cell names for a board of `size` lines,
 * or null when the text is not SGF. */
export function readSgf(text, size) {
  if (!/^\s*\(\s*;/.test(text)) return null;
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return [...text.matchAll(/;\s*[BW]\[([a-z])([a-z])\]/g)].map(([, column, row]) => `${column}${size - letters.indexOf(row)}`);
}
