// "Try it": before each value and each cut-off is shown, the student says what it will be; the run is
// scored at the end. The questions and their answers are replay.js's.

import { $, atEnd, stop, view } from "./explain-view.js";
import { go } from "./explain-draw.js";
import { resetLog, updateStepper } from "./explain-panels.js";
import { isRight, questionWords, questions, scoreWords, whyWords } from "./replay.js";
import { ngettext, t, valueText } from "./words.js";

export function newQuiz(tree) {
  return { questions: questions(tree), answered: new Map(), pending: null };
}

export function toggleTry() {
  stop();
  view.quiz = view.quiz ? null : newQuiz(view.tree);
  $("explain-try").setAttribute("aria-pressed", String(Boolean(view.quiz)));
  $("explain-quiz").hidden = !view.quiz;
  $("quiz-feedback").textContent = "";
  $("quiz-question").textContent = view.quiz ? t("Press Step: before each value and each cut-off is shown, say what it will be.") : "";
  $("quiz-value").hidden = true;
  $("quiz-cutoff").hidden = true;
  resetLog();
  go(0);
  drawScore();
}

export function ask(question) {
  view.quiz.pending = question;
  $("quiz-question").textContent = questionWords(view.tree, question);
  $("quiz-value").hidden = question.kind !== "value";
  $("quiz-cutoff").hidden = question.kind !== "cutoff";
  $("quiz-feedback").textContent = "";
  if (question.kind === "value") {
    $("quiz-input").value = "";
    $("quiz-input").focus();
  } else $("quiz-yes").focus();
  updateStepper();
}

export function answerQuestion(given) {
  const quiz = view.quiz;
  const question = quiz?.pending;
  if (!question) return;
  const right = isRight(question, given);
  quiz.answered.set(question.step, right);
  quiz.pending = null;
  const truth = question.kind === "value" ? t("it returns {value}", { value: valueText(question.answer) }) : question.answer ? t("it is a cut-off") : t("no cut-off");
  // A wrong answer is explained: the comparison that makes the cut-off (or not), how the value is taken.
  $("quiz-feedback").textContent = right ? t("Right: {truth}.", { truth }) : t("Not quite: {truth}; {why}.", { truth, why: whyWords(view.tree, question) });
  $("quiz-feedback").className = `quiz-feedback ${right ? "right" : "wrong"}`;
  $("quiz-value").hidden = true;
  $("quiz-cutoff").hidden = true;
  $("quiz-question").textContent = "";
  go(question.step);
  drawScore();
  $("explain-step").focus();
}

export function drawScore() {
  const quiz = view.quiz;
  if (!quiz) return;
  const right = [...quiz.answered.values()].filter(Boolean).length;
  const score = scoreWords(right, quiz.answered.size);
  const so = ngettext("{score} so far, {count} question in all", "{score} so far, {count} questions in all", quiz.questions.length, { score, count: quiz.questions.length });
  $("quiz-score").textContent = atEnd() ? t("Score: {score}.", { score }) : so;
}
