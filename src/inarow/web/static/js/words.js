// The words a person reads, made from the fields the server sends (outcome, winner, plies, score…),
// never by rewriting the server's English. Pure functions: no DOM, no requests, so node can test them.
//
// Every sentence is an English message looked up in the catalog of the reader's language with t() (or
// ngettext() where a number chooses the form): the catalogs are the gettext .po files the Python code
// speaks from, served by GET /i18n/{tags}.json; `pybabel extract` finds the messages written here.
// English needs no catalog. `{name}` placeholders are filled after the lookup, so a translation may
// reorder them.
//
// The sentences the command line says too (a move's value, a position's, a computer's note, a mistake…)
// are composed by say() from the table of sentences.js, which Python's inarow.words.sentences writes: the one
// place where they are composed. The others are composed here.
//
// `mark(side)` turns a side ("x" or "o") into the mark shown for it, upper case, through the game's
// `symbols`, or, in the Gomoku family, into "Black" or "White"; see markOf.

import { FOUND, SENTENCES, TERMS } from "./sentences.js";

// ------------------------------------------------------------------------------ translation
const catalog = { tag: "en", messages: {} };

/** Speak the language of `answer` (GET /i18n/{tags}.json: {tag, messages}); no answer: English. */
export function useCatalog(answer) {
  catalog.tag = answer?.tag ?? "en";
  catalog.messages = answer?.messages ?? {};
}

/** The language spoken, as a tag for <html lang> and Accept-Language: "en", "zh-CN". */
export const languageTag = () => catalog.tag;

/** `text` with each {name} replaced by params[name] (a placeholder without a value stays as it is). */
export const fill = (text, params = {}) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));

/** Marks `message` for the catalog where it is written (a table of names); t() translates it where shown. */
export const N_ = (message) => message;

/** `message` in the reader's language, its {placeholders} filled from `params`. */
export function t(message, params = {}) {
  const found = catalog.messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

/** Python's repr() of a parameter, as a message's `{name!r}` shows it: a string quoted ('b2'), a number as it is. */
function pythonRepr(value) {
  if (typeof value !== "string") return String(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  const escaped = value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\t/g, "\\t");
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

/** A parameter of a sentence sent as fields: a word or sentence of the catalog, a list, or a value. */
function fieldText(value) {
  if (value && typeof value === "object" && "message" in value) return sentence(value);
  if (value && typeof value === "object" && Array.isArray(value.items)) return value.items.reduce((list, item, i) => (i ? t("{list}, {item}", { list, item }) : String(item)), "");
  return value;
}

/**
 * A sentence sent as fields (`{message, params}`: an error of inarow's Python, InarowError.fields) in the
 * reader's language: the message looked up in the catalog, its `{name}` and `{name!r}` filled as Python fills them.
 */
export function sentence(fields) {
  const params = Object.fromEntries(Object.entries(fields.params ?? {}).map(([name, value]) => [name, fieldText(value)]));
  const found = catalog.messages[fields.message];
  const text = typeof found === "string" && found ? found : fields.message;
  return text.replace(/\{(\w+)(!r)?\}/g, (whole, name, repr) => (Object.hasOwn(params, name) ? (repr ? pythonRepr(params[name]) : String(params[name])) : whole));
}

const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

/** Which plural form of `forms` a count takes in the reader's language: the forms of a .po entry are in
 * the order of the language's plural categories (CLDR), as Intl.PluralRules names them. */
function pluralIndex(count, forms) {
  const rules = new Intl.PluralRules(catalog.tag);
  const order = CATEGORIES.filter((category) => rules.resolvedOptions().pluralCategories.includes(category));
  return Math.min(Math.max(0, order.indexOf(rules.select(count))), forms - 1);
}

/** The form of `singular`/`plural` for `count` in the reader's language, placeholders filled. */
export function ngettext(singular, plural, count, params = {}) {
  const forms = catalog.messages[singular];
  if (Array.isArray(forms) && forms.length) return fill(forms[pluralIndex(count, forms.length)], params);
  return fill(count === 1 ? singular : plural, params);
}

/** A number written as the reader's language writes it: "1,234". */
export const numberText = (number) => number.toLocaleString(catalog.tag);

// ------------------------------------------------------------------------ the shared sentences
/** How a field is written into a sentence of the table, by the names of inarow.words.sentences.FORMATS. */
const FORMATS = {
  signed: (number) => (number ? signed(number) : "0"),
  moves: (plies) => movesOf(plies),
  upper: (text) => String(text).toUpperCase(),
  percent: (rate) => Math.round(rate * 100),
  value: (value) => valueText(value),
  found: (score) => (!Number.isInteger(score) ? null : score >= FOUND ? "win" : score <= -FOUND ? "loss" : null),
};

/** Whether a case's test of a field (or an expression) holds: null (null or absent), true/false (truthy/falsy), or equal. */
function holds(test, value) {
  if (test === null) return value === null || value === undefined;
  if (typeof test === "boolean") return Boolean(value) === test;
  return value === test;
}

/** An expression of the table (`field`, `format:field`, `term:TABLE:field`, `say:NAME`) for `fields`. */
function expressionValue(expression, fields) {
  const [kind, first, second] = expression.split(":");
  if (first === undefined) return fields[expression];
  if (kind === "say") return say(first, fields);
  if (kind === "term") return Object.hasOwn(TERMS[first], fields[second] ?? "") ? t(TERMS[first][fields[second]]) : fields[second];
  return FORMATS[kind](fields[first]);
}

/** The sentence `name` of the table (sentences.js) for `fields`, in the reader's language; "" when no
 * case holds. Its first case whose `when` holds makes it: `is` an expression, or `say` a message (a
 * [singular, plural] pair whose form `count` chooses) filled `with` expressions. */
export function say(name, fields) {
  for (const rule of SENTENCES[name]) {
    if (!Object.entries(rule.when ?? {}).every(([field, test]) => holds(test, expressionValue(field, fields)))) continue;
    if (rule.is !== undefined) {
      const value = expressionValue(rule.is, fields);
      return value === null || value === undefined ? "" : String(value);
    }
    const params = Object.fromEntries(Object.entries(rule.with ?? {}).map(([key, expression]) => [key, expressionValue(expression, fields)]));
    if (Array.isArray(rule.say)) {
      const count = expressionValue(rule.count, fields);
      return ngettext(rule.say[0], rule.say[1], Number.isInteger(count) ? count : 0, params);
    }
    return t(rule.say, params);
  }
  return "";
}

/** Items as a list in the page's language: "a1, a2, a3"; "a1、a2、a3" (the catalog's "{list}, {item}"). */
export const listWords = (items) => (items.length ? items.reduce((list, item) => t("{list}, {item}", { list, item })) : "");

// ---------------------------------------------------------------------------------- words
const GAME_NAMES = {
  tictactoe: N_("Tic-tac-toe"),
  "4x4": N_("4×4"),
  "5x5": N_("5×5"),
  connect4: N_("Connect Four"),
  gomoku: N_("Gomoku"),
  "gomoku-standard": N_("Gomoku (exactly five)"),
  renju: N_("Renju"),
};
const OUTCOME_OF_VALUE = { 1: "win", 0: "draw", "-1": "loss" };
// The evaluations by the names the server gives them (the names are English words: "open-lines").
const EVALUATION_NAMES = { "open-lines": N_("open-lines"), weighted: N_("weighted"), lines: N_("lines") };
const LEVEL_NAMES = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), perfect: N_("perfect"), random: N_("random"), rules: N_("rules"), threats: N_("threats") };

/** An evaluation's name for people: "open-lines", "weighted" (开放线, 加权); "weights:1,2,3,inf" as written. */
export const evaluationTitle = (name) => (EVALUATION_NAMES[name] ? t(EVALUATION_NAMES[name]) : name);

/** Whether `game` (a game's state or a line of the history) is of the Gomoku family — five in a row
 * without gravity: Gomoku, Renju, a custom board with k = 5 — whose sides are black, who moves first, and
 * white. The JSON keeps "x" and "o"; the first side (x, or o in an ":o-first" game) is black. */
export function stoneGame(game) {
  if (!game) return false;
  if (game.k !== undefined) return !game.gravity && game.k === 5;
  return /^(gomoku|gomoku-standard|renju|\d+x\d+:5(:exact)?(:renju)?)(:o-first)?$/.test(game.game);
}

/** The mark a person sees for `side` in `game`: its symbol, upper case ("X", or "O"); in the Gomoku
 * family "Black" for the side that moves first and "White" for the other (黑, 白). */
export function markOf(game, side) {
  if (stoneGame(game)) return side === firstSide(game) ? t("Black") : t("White");
  return (game ? game.symbols[side] : side).toUpperCase();
}

/** The stone drawn for each side: as the symbols say, but in the Gomoku family black ("x", the board's
 * dark stone) for the side that moves first and white ("o") for the other. */
export function stonesOf(game) {
  if (!stoneGame(game)) return game.symbols;
  const first = firstSide(game);
  return { [first]: "x", [first === "x" ? "o" : "x"]: "o" };
}

/** Whether a game's name says O moves first (":o-first"). */
export const oFirst = (name) => name.endsWith(":o-first");

/** A game's name for people: "Tic-tac-toe", "Connect Four", "6x5, k = 4 with gravity", "Tic-tac-toe, O
 * moves first". */
export function gameTitle(name) {
  if (oFirst(name)) return t("{game}, O moves first", { game: gameTitle(name.slice(0, -":o-first".length)) });
  if (GAME_NAMES[name]) return t(GAME_NAMES[name]);
  const renju = /^(\d+x\d+):5:renju$/.exec(name);
  if (renju) return t("Renju on {board}", { board: renju[1] });
  const custom = /^(\d+x\d+):(\d+)(:exact)?(:gravity)?(:exact)?$/.exec(name);
  if (!custom) return name;
  const exact = Boolean(custom[3] || custom[5]);
  const gravity = Boolean(custom[4]);
  const board = { board: custom[1], k: custom[2] };
  if (gravity && exact) return t("{board}, k = {k}, exactly k with gravity", board);
  if (gravity) return t("{board}, k = {k} with gravity", board);
  if (exact) return t("{board}, k = {k}, exactly k", board);
  return t("{board}, k = {k}", board);
}

/** A player's name for people: "rules", "perfect", "minimax, 2 plies", "α-β, 4 plies, weighted lines". */
export function playerTitle(name) {
  const search = /^(minimax|negamax|alphabeta|alphabeta-soft):(\d+)(?::(.+))?$/.exec(name);
  if (!search) return LEVEL_NAMES[name] ? t(LEVEL_NAMES[name]) : name;
  const algorithm = t(TERMS.searches[search[1]]);
  const plies = pliesText(Number(search[2]));
  if (search[3] && search[3] !== "open-lines") return t("{algorithm}, {plies}, {evaluation}", { algorithm, plies, evaluation: evaluationTitle(search[3]) });
  return t("{algorithm}, {plies}", { algorithm, plies });
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
  const long = say("move_value", { outcome, plies: move.plies, score: move.score });
  if (outcome === null) return { kind: "unknown", long, short: signed(move.score) };
  if (outcome === "draw") return { kind: "draw", long, short: t("D") };
  const moves = movesOf(move.plies);
  if (outcome === "win") return { kind: outcome, long, short: t("W{moves}", { moves }) };
  return { kind: outcome, long, short: t("L{moves}", { moves }) };
}

/** An exact position's value: "X wins in 2 moves", "draw with best play"; null when not exact. */
export function positionWords(analysis, mark) {
  const outcome = outcomeOf(analysis);
  if (outcome === null) return null;
  // A Gomoku win proven by a threat sequence says how: "Black wins in 4 moves: VCF".
  const winner = outcome === "draw" ? null : mark(winnerOf(analysis));
  return say("position_value", { winner, plies: analysis.plies, proof: analysis.proof });
}

/** The analysis panel's sentence: "O to move: X wins in 2 moves." or the engine's evaluation. */
export function analysisSummary(analysis, mark) {
  const words =
    positionWords(analysis, mark) ?? say("unsolved_in_time", { score: analysis.score, depth: analysis.depth });
  return t("{side} to move: {words}.", { side: mark(analysis.to_move), words });
}

/** How many candidates the analysis of a Gomoku-family board shows, numbered on the board. */
export const CANDIDATES = 10;

/** Where a move stands in an analysis's list, as Python's inarow.values.answers.rank_key says (smaller
 * first): the best move; proven wins, the fastest first; scores from a completed search; upper bounds; the
 * unsearched moves; proven draws; proven losses. Kinds of scores are never interleaved. */
export function rankKey(move, best) {
  if (move.move === best) return [0, 0];
  if (move.exact) return [move.value > 0 || move.outcome === "win" ? 1 : move.value === 0 || move.outcome === "draw" ? 5 : 6, -move.score];
  return [{ book: 2, search: 2, bound: 3, evaluation: 4 }[move.source ?? "search"], -move.score];
}

/** The candidate moves of an analysis on a board too big to solve: the moves the server gave a line (its
 * best few), at most CANDIDATES, in the order of rankKey, the command line's and the JSON's. */
export function candidates(analysis) {
  const best = analysis.best[0];
  const key = (move) => rankKey(move, best);
  const lined = analysis.moves.filter((move) => move.line && move.line.length > 0);
  lined.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
  return lined.slice(0, CANDIDATES);
}

/** A win rate as a percentage: "62%". */
export const percentText = (rate) => say("percent", { rate });

/** Where an exact analysis's values came from: the opening book, a search now, or some of each; null for
 * an analysis that is not exact (its moves say so one by one). */
export function sourceWords(analysis) {
  if (!analysis.exact || !analysis.moves.length) return null;
  const book = analysis.moves.filter((move) => move.source === "book").length;
  const searched = analysis.moves.length - book;
  if (!book) return t("Every value searched now.");
  if (!searched) return t("Every value from the opening book, without a search.");
  return t("{book} from the opening book, {searched} searched now.", { book, searched });
}

/** How one move's value came, for its cell: "from the opening book" or "searched". */
export const sourceOf = (move) => (move.source === "book" ? t("from the opening book") : t("searched"));

/** A candidate of the analysis panel: "1. h8 — 62%, eval +240 — h8 i9 j10 k11", a proven one with its exact
 * words ("win in 3"). The line shows its first moves. */
export function candidateWords(move, rank) {
  const value = moveWords(move).long;
  const bounded = move.source === "bound" ? `≤ ${value}` : value; // a bound: worth at most that
  const rate = move.winrate === null || move.winrate === undefined ? bounded : t("{rate}, {value}", { rate: percentText(move.winrate), value: bounded });
  return t("{rank}. {move} — {rate} — {line}", { rank, move: move.move, rate, line: move.line.slice(0, 6).join(" ") });
}

/** The status line after a hint: "Hint: play b2 (draw with best play)." */
export function hintWords(analysis, mark) {
  const move = analysis.best[0];
  const value = analysis.moves.find((m) => m.move === move);
  const guess = t("the engine's best guess");
  const words = value?.exact ? positionWords(analysis, mark) : guess;
  return t("Hint: play {move} ({words}).", { move, words });
}

/** What the status line says while the server's engine is still loading (GET /api/health: warming). */
export const warmingUp = () => t("Warming up the engine … the first move on a big board waits for it.");

/**
 * The status line of a game, as [text, kind]: its result, who is thinking, or whose move it is.
 * `busy`: a request that changes the game is under way; `intro`: a sentence said once at the start.
 */
export function statusWords(game, { busy = false, intro = "" } = {}) {
  const mark = (side) => markOf(game, side);
  if (game.result) {
    const lined = game.winning_line.length > 0;
    const k = game.k;
    if (game.mode === "computer") {
      if (game.outcome === "win") return [lined ? t("You win — {k} in a row!", { k }) : t("You win!"), "win"];
      if (game.outcome === "loss") return [lined ? t("The computer wins — {k} in a row.", { k }) : t("The computer wins."), "loss"];
      return [t("Draw."), "draw"];
    }
    if (game.result === "draw") return [t("Draw."), "draw"];
    const side = mark(game.result);
    return [lined ? t("{side} wins — {k} in a row.", { side, k }) : t("{side} wins.", { side }), "win"];
  }
  if (busy && game.waiting_for === "computer") {
    if (game.mode === "computers") return [t("{side} ({player}) is thinking…", { side: mark(game.to_move), player: playerTitle(game.players[game.to_move]) }), "thinking"];
    return [t("The computer is thinking…"), "thinking"];
  }
  const side = mark(game.to_move);
  let text;
  if (game.waiting_for === "you") text = t("Your move ({side}).", { side });
  else if (game.waiting_for === "human") text = t("{side} to move.", { side });
  else text = t("The computer is to move.");
  return [intro ? t("{intro} {status}", { intro, status: text }) : text, ""];
}

/** Which side moves first in `game`: "x", or "o" in a game named with ":o-first". */
function firstSide(game) {
  return oFirst(game.game) ? "o" : "x";
}

/** Who plays: "Tic-tac-toe · You: X (first) · Computer: O, medium", "… · X: rules · O: minimax, 2 plies". */
export function playersWords(game) {
  const title = gameTitle(game.game);
  const first = firstSide(game);
  // In the Gomoku family black is the side that moves first: "Black (first)" would say it twice.
  const named = (side) => (side === first && !stoneGame(game) ? t("{side} (first)", { side: markOf(game, side) }) : markOf(game, side));
  if (game.mode === "computer") {
    const other = game.you === "x" ? "o" : "x";
    return t("{game} · You: {you} · Computer: {computer}, {level}", { game: title, you: named(game.you), computer: named(other), level: playerTitle(game.level) });
  }
  if (game.mode === "humans") return t("{game} · Two players: {side} moves first", { game: title, side: markOf(game, first) });
  const plain = (side) => (first === "x" ? markOf(game, side) : named(side));
  return t("{game} · {x}: {x_player} · {o}: {o_player}", { game: title, x: plain("x"), o: plain("o"), x_player: playerTitle(game.players.x), o_player: playerTitle(game.players.o) });
}

/** The keys that play on `game`'s board: arrows and Enter everywhere, 1–9 as a keypad on 3×3, the
 * column numbers with gravity (up to 9 columns). */
export function keysWords(game) {
  if (game.columns === 3 && game.rows === 3 && !game.gravity) return t("Keys: arrows and Enter to play, or 1–9 laid out as on a numeric keypad.");
  if (game.gravity && game.columns <= 9) return t("Keys: arrows and Enter to play, or 1–{last} to drop a stone in that column.", { last: game.columns });
  return t("Keys: arrows and Enter to play.");
}

/** The sentence said once when a game starts with a computer's move, or "". */
export function introWords(game) {
  if (game.mode === "computer" && game.first === "random") {
    return game.first_mover === "you" ? t("Random draw: you move first.") : t("Random draw: the computer moves first and played {move}.", { move: game.reply.move });
  }
  return game.reply ? t("The computer played {move}.", { move: game.reply.move }) : "";
}

/** Why the computer played a move, from its `note` (GameState moves: kind, rule, exact, winner, plies,
 * score, depth, algorithm, value), as a tooltip: "Computer: draw with best play". "" for a person's move
 * (null note) beyond "played by a person". An old game's note is its stored English text. */
export function noteWords(move, mark) {
  const note = move.note;
  if (move.by === "human" || !note) return move.by === "human" ? t("played by a person") : "";
  const why = say("note", { ...note, winner: note.winner ? mark(note.winner) : null });
  return t("The computer: {why}", { why });
}

/** A past game's badge in the history, as [kind, words]: ["win", "won"], ["open", "unfinished"]… */
export function historyBadge(game) {
  if (game.result === null) return ["open", t("unfinished")];
  if (game.outcome) return [game.outcome, { win: t("won"), draw: t("draw"), loss: t("lost") }[game.outcome]];
  return ["draw", game.result === "draw" ? t("draw") : t("{side} won", { side: markOf(game, game.result) })];
}

/** Who played a past game: "vs computer (medium)", "two players", "rules vs minimax, 2 plies". */
export function historyPlayers(game) {
  if (game.mode === "computer") return t("vs computer ({level})", { level: playerTitle(game.level) });
  if (game.mode === "humans") return t("two players");
  return t("{x_player} vs {o_player}", { x_player: playerTitle(game.players.x), o_player: playerTitle(game.players.o) });
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
    const before = OUTCOME_OF_VALUE[ply.value_before];
    const after = played ? outcomeOf(played) : null;
    // Exact values say it in the reader's words; on big boards the server's judgement (proven wins let
    // go or through, evaluation drops) does; its English verdict only for a kind this page does not know.
    const judged = { kind: ply.mistake_kind, drop: ply.drop, margin: ply.margin };
    verdict = say("turned", { before, after }) || say("mistake", judged) || ply.verdict || "";
  }
  return { played: played ? moveWords(played).long : "", best: best ? moveWords(best).long : "", verdict };
}

/** The review's sentence for one move, or for the final position when `ply` is undefined. */
export function reviewStatus(game, plies, step) {
  const mark = (side) => markOf(game, side);
  const ply = plies[step];
  if (!ply) {
    if (!game.result) return t("Final position: the game is unfinished.");
    if (game.result === "draw") return t("Final position: draw.");
    return t("Final position: {side} won.", { side: mark(game.result) });
  }
  const fields = { ply: ply.ply, plies: plies.length, side: mark(ply.side), move: ply.move };
  if (ply.reviewed === false) return t("Move {ply} of {plies}: {side} played {move} (not reviewed: the review's time ran out).", fields);
  const words = reviewWords(ply);
  let text = t("Move {ply} of {plies}: {side} played {move} ({played}); best was {best} ({best_value}).", {
    ...fields,
    played: words.played,
    best: listWords(ply.best.length > 3 ? [...ply.best.slice(0, 3), "…"] : ply.best),
    best_value: words.best,
  });
  if (ply.mistake) text = t("{text} Mistake: it {verdict}.", { text, verdict: words.verdict });
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
export const pliesText = (plies) => say("plies", { depth: plies });
