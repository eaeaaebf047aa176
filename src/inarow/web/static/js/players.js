// Computer players' names, as people read them.

/** A player's name for people: "rules", "perfect", "minimax, 2 plies", "α-β, 4 plies, weighted". */
export function playerTitle(name) {
  const search = /^(minimax|negamax|alphabeta|alphabeta-soft):(\d+)(?::(.+))?$/.exec(name);
  if (!search) return name;
  const algorithm = { minimax: "minimax", negamax: "negamax", alphabeta: "α-β", "alphabeta-soft": "α-β" }[search[1]];
  return `${algorithm}, ${search[2]} ${search[2] === "1" ? "ply" : "plies"}${search[3] && search[3] !== "open-lines" ? `, ${search[3]}` : ""}`;
}
