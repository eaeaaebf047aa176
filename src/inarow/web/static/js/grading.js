// A class ranking its evaluation functions: the answers of POST /api/lab/grade (the fields of
// `inarow grade --json`) in words, and the ranking of every e(P) graded on this page. Pure functions: no
// DOM, so node can test them.

import { N_, numberText, t } from "./words.js";

/** A share for people: "95.1%" (one decimal: 4,520 positions tell 0.1% apart). */
export const shareText = (rate) => t("{percent}%", { percent: (Math.round(rate * 1000) / 10).toFixed(1) });

/** How the graded e(P) did over every position, in a sentence: "kept the value in 4,297 of 4,520 positions (95.1%)". */
export const keptWords = (answer) =>
  t("kept the value in {kept} of {positions} positions ({share})", { kept: numberText(answer.kept), positions: numberText(answer.positions), share: shareText(answer.accuracy) });

/** The headline's share: of the positions e(P) decides, those kept (0–1); null when it decides none (or an old answer without it). */
export const headlineShare = (answer) => answer.decisive?.share ?? null;

/**
 * The headline in a sentence: "where e(P) decides, kept the value in 244 of 467 positions (52.2%); e ≡ 0
 * keeps 39.6%, a random e(P) 41.8%".
 */
export function headlineWords(answer) {
  const decisive = answer.decisive;
  if (!decisive) return "";
  if (!decisive.positions) return t("e(P) decides no position at this depth: the search alone decides every one");
  return t("where e(P) decides, kept the value in {kept} of {positions} positions ({share}); e ≡ 0 keeps {zero}, a random e(P) {random}", {
    kept: numberText(decisive.kept),
    positions: numberText(decisive.positions),
    share: shareText(decisive.share),
    zero: shareText(answer.baselines.zero),
    random: shareText(answer.baselines.random),
  });
}

const OUTCOMES = { win: N_("a win"), draw: N_("a draw"), loss: N_("a loss") };
const outcomeWords = (outcome) => t(OUTCOMES[outcome] ?? outcome);

/** One blunder in words: "..o/x../.x., O to move: b2 turns a win into a loss (a3 c1 would have kept it)". */
export function blunderWords(blunder, mark = (side) => side.toUpperCase()) {
  return t("{position}, {side} to move: {move} turns {before} into {after} ({keeping} would have kept it)", {
    position: blunder.position,
    side: mark(blunder.to_move),
    move: blunder.move,
    before: outcomeWords(blunder.before),
    after: outcomeWords(blunder.after),
    keeping: blunder.keeping.join(" "),
  });
}

/** The match rows in words: "against open-lines: 0 won, 2 drawn, 0 lost". */
export const matchWords = (row) =>
  t("against {opponent}: {wins} won, {draws} drawn, {losses} lost", { opponent: row.opponent, wins: row.results.wins, draws: row.results.draws, losses: row.results.losses });

/**
 * The ranking's entry for a graded answer: {who, evaluation, algorithm, depth, positions, kept, accuracy,
 * headline}. `who` is the name given (the evaluation's own when none was given); `headline` the share kept
 * where e(P) decides (null when it decides none).
 */
export const rankEntry = (answer, who) => ({
  who: who.trim() || answer.evaluation,
  evaluation: answer.evaluation,
  algorithm: answer.algorithm,
  depth: answer.depth,
  positions: answer.positions,
  kept: answer.kept,
  accuracy: answer.accuracy,
  headline: headlineShare(answer),
});

const headlineOf = (entry) => entry.headline ?? -1;

/**
 * The ranking with `entry` in it: one entry per name, algorithm and depth (a new grade replaces the old),
 * best headline first (where e(P) decides), then best accuracy over every position, then by name.
 */
export function ranked(list, entry) {
  const same = (a) => a.who === entry.who && a.algorithm === entry.algorithm && a.depth === entry.depth;
  const next = [...list.filter((a) => !same(a)), entry];
  return next.sort((a, b) => headlineOf(b) - headlineOf(a) || b.accuracy - a.accuracy || a.who.localeCompare(b.who));
}
