// The class board's rows and the tournament's cross table, from the fields of GET /api/class and the games
// played. Pure functions: no DOM, so node can test them.

const CHECK = { flagged: 2, no: 1, yes: 0 };

/**
 * The board's rows with `blunders` counted, `headline` (the share kept where e(P) decides, -1 when it
 * decides none or the report predates it), `search` ("alphabeta 2") and `check` (flagged 2, not checked 1,
 * verified 0) to sort by.
 */
export const classRows = (rows) =>
  rows.map((row) => ({
    ...row,
    blunders: row.report?.blunders?.length ?? 0,
    headline: row.report?.decisive?.share ?? -1,
    search: `${row.algorithm} ${row.depth ?? "end"}`,
    check: CHECK[row.verified] ?? 1,
  }));

/** The rows sorted by `key` (name, headline, accuracy, blunders, search, submitted, check), ties by name. */
export function sortRows(rows, { key, descending }) {
  const sign = descending ? -1 : 1;
  const compare = (a, b) => (typeof a[key] === "string" ? a[key].localeCompare(b[key]) : a[key] - b[key]);
  return [...rows].sort((a, b) => sign * compare(a, b) || a.name.localeCompare(b.name));
}

/**
 * The cross table of `games` ({x, o, winner: "x" | "o" | null}) between `names`: `points[i][j]` the points
 * of names[i] against names[j] (1 a win, ½ a draw, both colours together), `totals[i]` its sum.
 */
export function crossTable(names, games) {
  const index = new Map(names.map((name, i) => [name, i]));
  const points = names.map(() => names.map(() => 0));
  for (const game of games) {
    const x = index.get(game.x);
    const o = index.get(game.o);
    if (x === undefined || o === undefined || game.error) continue;
    if (game.winner === "x") points[x][o] += 1;
    else if (game.winner === "o") points[o][x] += 1;
    else {
      points[x][o] += 0.5;
      points[o][x] += 0.5;
    }
  }
  return { points, totals: points.map((row) => row.reduce((sum, value) => sum + value, 0)) };
}

/** The latest check of a row's student's own search (GET /api/class/students' `search`), found by class and name; null without one. */
export function searchOf(students, row) {
  const found = students.find((student) => student.class_code === row.class_code && student.name === row.name);
  return found?.search ?? null;
}

/**
 * The page that opens the first case a student's search failed as its tree, searched by `algorithm`: a tree
 * of leaf values by its leaves (`?leaves=…&algo=…`), a board by its position and depth
 * (`?game=tictactoe&position=…&explain=…&depth=…`); null when every case was exact.
 */
export function failedCaseLink(search) {
  const failed = search?.failed;
  if (!failed) return null;
  if (failed.kind === "board") {
    return `/?${new URLSearchParams({ game: "tictactoe", position: failed.position ?? "", explain: search.algorithm, depth: String(failed.depth) })}`;
  }
  return `/?${new URLSearchParams({ leaves: failed.leaves ?? "", algo: search.algorithm })}`;
}
