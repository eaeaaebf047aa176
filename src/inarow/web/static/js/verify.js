// The teacher's check of the class board's grades, made in the teacher's browser: each submission's source
// runs again in the lab's sandbox (lab.js) on a sample of the graded positions (every one on request), by
// the very search the student's page ran — the lab's `choose`, with the submission's algorithm and depth, so
// the same move order and the same tie-break among moves of equal value — and the moves it chooses are
// compared with the ones posted. A submission is verified when they are the same everywhere checked,
// flagged where they are not (or the source fails where it must have run). The page runs nothing here:
// `run` and `positions` are handed in, so node can test this.

/** How many positions a check runs when it is not asked for every one. */
export const SAMPLE = 400;

/**
 * `count` distinct indices of 0 … n−1, increasing, drawn with `random` (a function giving a number in
 * [0, 1)): every index when `count` ≥ n.
 */
export function sampleIndices(n, count, random) {
  const indices = Array.from({ length: n }, (_, i) => i);
  const take = Math.min(Math.max(count, 0), n);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (n - i));
    [indices[i], indices[j]] = [indices[j], indices[i]];
  }
  return indices.slice(0, take).sort((a, b) => a - b);
}

/** A random number in [0, 1) from the browser's cryptographic generator: a sample no one can foresee. */
export function unforeseen() {
  const word = new Uint32Array(1);
  crypto.getRandomValues(word);
  return word[0] / 2 ** 32;
}

/** How many positions the moves `chosen` differ in from `posted` (the same length: one move per position checked). */
export const differing = (chosen, posted) => posted.filter((move, i) => chosen[i] !== move).length;

/**
 * Check one board row ({id, game, algorithm, depth, evaluation, source, moves}): resolves to the verdict
 * the server keeps, {id, verified: "yes" | "flagged", checked, differing}, with `error` (the source's own
 * failure, for the page to show) when the source failed. `run(request)` is lab.js's ask; `positions(game)`
 * resolves to the graded positions' diagrams; `count` positions are checked (all when null). A run
 * stopped at its time limit (an error with `stopped`) is no verdict: it rejects, and the row stays
 * unchecked.
 */
export async function checkRow(row, { run, positions, count = SAMPLE, random = unforeseen, onProgress = null }) {
  const diagrams = await positions(row.game);
  const posted = row.moves.split(" ").filter(Boolean);
  if (posted.length !== diagrams.length) return { id: row.id, verified: "flagged", checked: diagrams.length, differing: diagrams.length };
  const indices = sampleIndices(diagrams.length, count ?? diagrams.length, random);
  const request = { op: "choose", args: [row.game, indices.map((i) => diagrams[i]), row.algorithm, row.depth], source: row.source, function: row.evaluation || "e" };
  let chosen;
  try {
    chosen = (await run(request, { onProgress })).moves.split(" ");
  } catch (error) {
    if (error.stopped) throw error;
    return { id: row.id, verified: "flagged", checked: indices.length, differing: indices.length, error: error.message };
  }
  const differ = differing(chosen, indices.map((i) => posted[i]));
  return { id: row.id, verified: differ ? "flagged" : "yes", checked: indices.length, differing: differ };
}
