// The HTTP API of inarow serve. Every error answer carries a `detail` string; it is thrown as ApiError.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, "the server cannot be reached: is inarow serve still running?");
  }
  const data = await response.json().catch(() => ({ detail: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new ApiError(response.status, data.detail ?? `error ${response.status}`);
  return data;
}

export const api = {
  newGame: (choices) => request("POST", "/api/games", choices),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  play: (id, move, reply = true) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/moves`, move === null ? {} : { move, reply }),
  undo: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  review: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/review`),
  history: (limit = 100) => request("GET", `/api/games?limit=${limit}`),
  scores: () => request("GET", "/api/scores"),
  analyze: (game, position) => request("POST", "/api/analyze", { game, position }),
  explain: (choices) => request("POST", "/api/explain", choices),
  compare: (game, position, depth, evaluation) => request("POST", "/api/compare", { game, position, depth, evaluation }),
};
