// The words a person reads, made from the fields the server sends (outcome, winner, plies, score…),
// never by rewriting the server's English. Pure functions: no DOM, no requests, so node can test them.
//
// `mark(side)` turns a side ("x" or "o") into the mark shown for it, upper case, through the game's
// `symbols`; see markOf.

const GAME_NAMES = { tictactoe: "Tic-tac-toe", "4x4": "4×4", "5x5": "5×5", connect4: "Connect Four", gomoku: "Gomoku", "gomoku-standard": "Gomoku (exactly five)" };
const SEARCH_NAMES = { minimax: "minimax", negamax: "negamax", alphabeta: "α-β", "alphabeta-soft": "α-β" };
const OUTCOME_OF_VALUE = { 1: "win", 0: "draw", "-1": "loss" };

/** The mark a person sees for `side` in `game`: its symbol, upper case ("X", or "O"). */
export const markOf = (game, side) => (game ? game.symbols[side] : side).toUpperCase();

/** A game's name for people: "Tic-tac-toe", "Connect Four", "6x5, k = 4 with gravity". */
export const gameTitle = (name) =>
  GAME_NAMES[name] ?? name.replace(":gravity", " with gravity").replace(":exact", ", exactly k").replace(":", ", k = ");

/** A player's name for people: "rules", "perfect", "minimax, 2 plies", "α-β, 4 plies, weighted". */
export function playerTitle(name) {
  const search = /^(minimax|negamax|alphabeta|alphabeta-soft):(\d+)(?::(.+))?$/.exec(name);
  if (!search) return name;
  const plies = `${search[2]} ${search[2] === "1" ? "ply" : "plies"}`;
  const evaluation = search[3] && search[3] !== "open-lines" ? `, ${search[3]}` : "";
  return `${SEARCH_NAMES[search[1]]}, ${plies}${evaluation}`;
}

/** A number with its sign: "+12", "-3", "0". */
export const signed = (number) => `${number > 0 ? "+" : ""}${number}`;

/**
 * "win", "draw" or "loss" for the side that plays a move (or is to move), when the value is exact; else
 * null. Reads `outcome`; answers from before the server sent it carry only `value` (1, 0, -1).
 */
export function outcomeOf(entry) {
  if (!entry.exact) return null;
  if (entry.outcome !== undefined) return entry.outcome;
  return OUTCOME_OF_VALUE[entry.value] ?? null;
}

/** Who wins an analysed position with best play ("x", "o"), or null for a draw or an inexact answer. */
export function winnerOf(analysis) {
  if (analysis.winner !== undefined) return analysis.winner;
  const outcome = outcomeOf(analysis);
  if (outcome === "win") return analysis.to_move;
  if (outcome === "loss") return analysis.to_move === "x" ? "o" : "x";
  return null;
}

/** Moves of the side that plays first, out of plies to the end: 1 ply is 1 move, 3 plies are 2. */
const movesOf = (plies) => Math.floor((plies + 1) / 2);

/**
 * A move's value, short and long, for the side that plays it: {kind: "win", long: "win in 3", short: "W3"},
 * "draw"/"D", "loss in 2"/"L2", or, when not exact, {kind: "unknown", long: "eval +12", short: "+12"}.
 */
export function moveWords(move) {
  const outcome = outcomeOf(move);
  if (outcome === null) return { kind: "unknown", long: `eval ${signed(move.score)}`, short: signed(move.score) };
  if (outcome === "draw") return { kind: "draw", long: "draw", short: "D" };
  const moves = movesOf(move.plies);
  return { kind: outcome, long: `${outcome} in ${moves}`, short: `${outcome === "win" ? "W" : "L"}${moves}` };
}

/** An exact position's value: "X wins in 2 moves", "draw with best play"; null when not exact. */
export function positionWords(analysis, mark) {
  const outcome = outcomeOf(analysis);
  if (outcome === null) return null;
  if (outcome === "draw") return "draw with best play";
  const moves = movesOf(analysis.plies);
  return `${mark(winnerOf(analysis))} wins in ${moves} ${analysis.plies <= 2 ? "move" : "moves"}`;
}

/** The analysis panel's sentence: "O to move: X wins in 2 moves." or the engine's evaluation. */
export function analysisSummary(analysis, mark) {
  const words =
    positionWords(analysis, mark) ?? `not solved in time: evaluation ${signed(analysis.score)} at depth ${analysis.depth}`;
  return `${mark(analysis.to_move)} to move: ${words}.`;
}

/** The status line after a hint: "Hint: play b2 (draw with best play)." */
export function hintWords(analysis, mark) {
  const move = analysis.best[0];
  const value = analysis.moves.find((m) => m.move === move);
  const words = value?.exact ? positionWords(analysis, mark) : null;
  return `Hint: play ${move} (${words ?? "the engine's best guess"}).`;
}

/**
 * The status line of a game, as [text, kind]: its result, who is thinking, or whose move it is.
 * `busy`: a request that changes the game is under way; `intro`: a sentence said once at the start.
 */
/** What the status line says while the server's engine is still loading (GET /api/health: warming). */
export const WARMING_UP = "Warming up the engine … the first move on a big board waits for it.";

export function statusWords(game, { busy = false, intro = "" } = {}) {
  const mark = (side) => markOf(game, side);
  if (game.result) {
    const line = game.winning_line.length ? ` — ${game.k} in a row` : "";
    if (game.mode === "computer") {
      if (game.outcome === "win") return [`You win${line}!`, "win"];
      if (game.outcome === "loss") return [`The computer wins${line}.`, "loss"];
      return ["Draw.", "draw"];
    }
    return game.result === "draw" ? ["Draw.", "draw"] : [`${mark(game.result)} wins${line}.`, "win"];
  }
  if (busy && game.waiting_for === "computer") {
    if (game.mode === "computers") return [`${mark(game.to_move)} (${playerTitle(game.players[game.to_move])}) is thinking…`, "thinking"];
    return ["The computer is thinking…", "thinking"];
  }
  const before = intro ? `${intro} ` : "";
  if (game.waiting_for === "you") return [`${before}Your move (${mark(game.to_move)}).`, ""];
  if (game.waiting_for === "human") return [`${before}${mark(game.to_move)} to move.`, ""];
  return [`${before}The computer is to move.`, ""];
}

/** Who plays: "Tic-tac-toe · You: X (first) · Computer: O, medium", "… · X: rules · O: minimax, 2 plies". */
export function playersWords(game) {
  const title = gameTitle(game.game);
  if (game.mode === "computer") {
    const other = game.you === "x" ? "o" : "x";
    const you = `${markOf(game, game.you)}${game.you === "x" ? " (first)" : ""}`;
    const it = `${markOf(game, other)}${game.you === "o" ? " (first)" : ""}`;
    return `${title} · You: ${you} · Computer: ${it}, ${game.level.toLowerCase()}`;
  }
  if (game.mode === "humans") return `${title} · Two players: X moves first`;
  return `${title} · X: ${playerTitle(game.players.x)} · O: ${playerTitle(game.players.o)}`;
}

/** The sentence said once when a game starts with a computer's move, or "". */
export function introWords(game) {
  if (game.mode === "computer" && game.first === "random") {
    return game.first_mover === "you" ? "Random draw: you move first." : `Random draw: the computer moves first and played ${game.reply.move}.`;
  }
  return game.reply ? `The computer played ${game.reply.move}.` : "";
}

/** A past game's badge in the history, as [kind, words]: ["win", "won"], ["open", "unfinished"]… */
export function historyBadge(game) {
  if (game.result === null) return ["open", "unfinished"];
  if (game.outcome) return [game.outcome, { win: "won", draw: "draw", loss: "lost" }[game.outcome]];
  return ["draw", game.result === "draw" ? "draw" : `${markOf(game, game.result)} won`];
}

/** Who played a past game: "vs computer (medium)", "two players", "rules vs minimax, 2 plies". */
export function historyPlayers(game) {
  if (game.mode === "computer") return `vs computer (${game.level})`;
  if (game.mode === "humans") return "two players";
  return `${playerTitle(game.players.x)} vs ${playerTitle(game.players.o)}`;
}

/**
 * A reviewed move in words, from the analysis of the position before it (the fields of one of
 * `plies` in GET /api/games/{id}/review): {played: "loss in 3", best: "draw", verdict: "turned a draw
 * into a loss" or ""}.
 */
export function reviewWords(ply) {
  const entry = (move) => ply.moves.find((m) => m.move === move);
  const played = entry(ply.move);
  const best = entry(ply.best[0]);
  let verdict = "";
  if (ply.mistake) {
    // The server's own verdict where it has one (big boards judge by proven wins and evaluation drops).
    verdict = ply.verdict || `turned a ${OUTCOME_OF_VALUE[ply.value_before]} into a ${outcomeOf(played)}`;
  }
  return { played: played ? moveWords(played).long : "", best: best ? moveWords(best).long : "", verdict };
}

/** The review's sentence for one move, or for the final position when `ply` is undefined. */
export function reviewStatus(game, plies, step) {
  const mark = (side) => markOf(game, side);
  const ply = plies[step];
  if (!ply) {
    if (!game.result) return "Final position: the game is unfinished.";
    return `Final position: ${game.result === "draw" ? "draw" : `${mark(game.result)} won`}.`;
  }
  if (ply.reviewed === false) return `Move ${ply.ply} of ${plies.length}: ${mark(ply.side)} played ${ply.move} (not reviewed: the review's time ran out).`;
  const words = reviewWords(ply);
  let text = `Move ${ply.ply} of ${plies.length}: ${mark(ply.side)} played ${ply.move} (${words.played}); best was ${ply.best.slice(0, 3).join(", ")} (${words.best}).`;
  if (ply.mistake) text += ` Mistake: it ${words.verdict}.`;
  return text;
}

/** A search value for people: +∞, −∞ (the JSON's "inf", "-inf"), or the number with its sign. */
export function valueText(value) {
  if (value === null || value === undefined) return "?";
  if (value === "inf") return "+∞";
  if (value === "-inf") return "−∞";
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0";
}

/** "1 ply", "2 plies". */
export const pliesText = (plies) => `${plies} ${plies === 1 ? "ply" : "plies"}`;
