// The HTTP API of inarow serve. Every error answer is JSON with `detail` (the whole message, which names
// the input and the position) and `reason` (its last clause alone, such as "cell is taken", for a page
// that already shows the move and the board); it is thrown as ApiError. Nothing is sent at import.
// Every request says the reader's language (Accept-Language), so the server's errors come back in it.

import { t } from "./words.js";

export class ApiError extends Error {
  /** `detail`: the whole message; `reason`: the short one (the whole message when there is none). */
  constructor(status, detail, reason = detail) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.reason = reason;
  }
}

/** The ApiError for an error answer: its status and the `detail` and `reason` of its JSON body (if any). */
export function errorFrom(status, statusText, body) {
  const detail = typeof body?.detail === "string" ? body.detail : t("error {status}", { status: `${status}${statusText ? ` ${statusText}` : ""}` });
  const reason = typeof body?.reason === "string" && body.reason ? body.reason : detail;
  return new ApiError(status, detail, reason);
}

const unreachable = () =>
  new ApiError(0, t("the server cannot be reached: is inarow serve still running?"), t("the server cannot be reached"));

const said = { language: null };

/** Send `tag` ("zh-CN", "en") as the Accept-Language of every request from now on. */
export function speak(tag) {
  said.language = tag;
}

async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (said.language) options.headers["Accept-Language"] = said.language;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw unreachable();
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw errorFrom(response.status, response.statusText, data);
  if (data === null) throw errorFrom(response.status, t("the answer is not JSON"), null);
  return data;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  // The page's words in the first language of `tags` ("zh-CN,en") there is a catalog for.
  catalog: (tags) => request("GET", `/i18n/${encodeURIComponent(tags)}.json`),
  menus: () => request("GET", "/api/menus"),
  health: () => request("GET", "/api/health"),
  newGame: (choices) => request("POST", "/api/games", choices),
  game: (id) => request("GET", game(id)),
  // `ply`: the number the move is meant to have (moves so far + 1): a repeated click gets 409, not a move.
  play: (id, move, reply = true, ply = undefined) =>
    request("POST", `${game(id)}/moves`, move === null ? { ply } : { move, reply, ply }),
  // `ply` as for a move (moves so far + 1): a second Undo of the same click gets 409 and takes back nothing.
  undo: (id, ply = undefined) => request("POST", `${game(id)}/undo`, { ply }),
  review: (id) => request("GET", `${game(id)}/review`),
  forget: (id) => request("DELETE", game(id)),
  // A position typed or pasted, with moves from the empty board that reach it (see links.js).
  position: (name, position) => request("POST", "/api/positions", { game: name, position }),
  history: (limit = 100) => request("GET", `/api/games?limit=${limit}`),
  scores: () => request("GET", "/api/scores"),
  analyze: (name, position) => request("POST", "/api/analyze", { game: name, position }),
  explain: (choices) => request("POST", "/api/explain", choices),
  explainTree: (choices) => request("POST", "/api/explain/tree", choices),
  // The lab: the positions grading judges, the moves a student's browser chose scored, the class board.
  labPositions: (name) => request("GET", `/api/lab/positions?game=${encodeURIComponent(name)}`),
  gradeMoves: (body) => request("POST", "/api/lab/grade", body),
  submit: (body) => request("POST", "/api/class", body),
  // A student's name on the board: free, theirs (the secret sent is its) or taken; checked before grading.
  checkName: (who) => request("POST", "/api/class/check", who),
  // The error a student's e(P) met, for the teacher's board ({name, class, secret, error}).
  stuck: (report) => request("POST", "/api/class/stuck", report),
  // The check of a student's own search, run in their browser ({name, class, secret, algorithm, passed, total, failed}).
  searchChecked: (report) => request("POST", "/api/class/search", report),
  // A student's own submissions, the latest first ({name, class, secret}).
  mine: (who) => request("POST", "/api/class/mine", who),
  board: (code = "") => request("GET", code ? `/api/class?class=${encodeURIComponent(code)}` : "/api/class"),
  clearBoard: (code = "") => request("DELETE", code ? `/api/class?class=${encodeURIComponent(code)}` : "/api/class"),
  // The teacher's: the students (roster, claims, errors), releasing a name, a roster as CSV, the keys.
  students: (code = "") => request("GET", code ? `/api/class/students?class=${encodeURIComponent(code)}` : "/api/class/students"),
  release: (name, code = "") => request("POST", "/api/class/release", { name, class: code }),
  roster: (csv, code = "") => request("POST", "/api/class/roster", { csv, class: code }),
  verification: (verdict) => request("POST", "/api/class/verification", verdict),
  keys: () => request("GET", "/api/keys"),
  settings: (code = "") => request("GET", `/api/class/settings?class=${encodeURIComponent(code)}`),
  changeSettings: (settings) => request("POST", "/api/class/settings", settings),
  // The ranking a class's students see, when the teacher shows it: {open, rows} (no sources).
  ranking: (code = "") => request("GET", `/api/class/ranking?class=${encodeURIComponent(code)}`),
  turnKeys: () => request("POST", "/api/keys"),
  compare: (name, position, depth, evaluation) => request("POST", "/api/compare", { game: name, position, depth, evaluation }),
};
