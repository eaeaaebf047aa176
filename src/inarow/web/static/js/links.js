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

/** The columns, rows and gravity of a game by its name ("connect4", "6x5:4:gravity:o-first"), or null
 * for a name that is not one: the page draws the empty board of a new game while the server starts it. */
export function boardShape(name) {
  const base = String(name).replace(/:o-first$/, "");
  if (PRESETS[base]) {
    const [columns, rows, gravity] = PRESETS[base];
    return { columns, rows, gravity };
  }
  const custom = /^(\d+)x(\d+):\d+((?::gravity|:exact)*)$/.exec(base);
  if (!custom) return null;
  return { columns: Number(custom[1]), rows: Number(custom[2]), gravity: custom[3].includes(":gravity") };
}

/** What a page's URL asks to open: {kind: "position", game, position} | {kind: "game", id} |
 * {kind: "review", id} | null. A position needs its game; "position" alone is the empty board. */
export function linkTarget(search) {
  const params = new URLSearchParams(search);
  if (params.get("review")) return { kind: "review", id: params.get("review") };
  if (params.get("id")) return { kind: "game", id: params.get("id") };
  if (params.has("game")) return { kind: "position", game: params.get("game"), position: (params.get("position") ?? "").trim() };
  return null;
}

/** The query string of a link to `target` (see linkTarget), other parameters of `search` kept. */
export function linkSearch(target, search = "") {
  const params = new URLSearchParams(search);
  for (const name of ["game", "position", "id", "review"]) params.delete(name);
  if (target?.kind === "position") {
    params.set("game", target.game);
    if (target.position) params.set("position", target.position);
  } else if (target?.kind === "game" || target?.kind === "review") {
    params.set(target.kind === "game" ? "id" : "review", target.id);
  }
  const text = params.toString().replace(/\+/g, "%20");
  return text ? `?${text}` : "";
}

/** The moves of a game as a move list, as the command line reads them: "b2 a1 c3", Connect Four's
 * columns as digits "4453" (up to 9 columns). */
export function moveList(game) {
  const moves = game.moves.map((move) => move.move);
  return game.gravity && game.columns <= 9 ? moves.join("") : moves.join(" ");
}

/** The moves of a text the page can replay: a move list split into moves ("b2 a1", "b2,a1", Connect Four's
 * "4453"), or null for a diagram (rows separated by "/"), which the server reads as a whole. Full-width
 * forms typed by a Chinese input method read as ASCII (NFKC). */
export function splitMoves(text, gravity, columns) {
  const typed = text.normalize("NFKC").replace(/、/g, ",").trim();
  if (typed.includes("/")) return null;
  if (!typed) return [];
  if (gravity && columns <= 9 && /^\d+$/.test(typed)) return [...typed];
  if (!gravity) {
    const pairs = typed.match(/\(\s*\d{1,2}\s*,\s*\d{1,2}\s*\)|\d{1,2},\d{1,2}(?!\d)|[^\s,]+/g);
    return pairs ?? [];
  }
  return typed.split(/[\s,]+/).filter(Boolean);
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
