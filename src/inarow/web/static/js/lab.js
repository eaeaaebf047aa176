// A student's e(P) run in the student's own browser: one Web Worker running Python (lab-worker.js) inside
// the lab's sandbox, an <iframe sandbox="allow-scripts"> of /lab/sandbox.html (an opaque origin: no
// cookies, no way into this page, no network but the lab's files), spoken to by postMessage only. The
// student's own runs, the class tournament and the teacher's check of the grades all come here. Limited
// from outside. The worker answers requests one at a time, in the order sent; each request's time limit
// (per position while grading) starts when the requests before it are answered, so a request that waits
// behind another is never blamed for it. Past its limit the sandbox is removed (its worker with it) and a
// new one started, the request fails with a sentence naming the function and the position, and the
// requests that waited are sent again to the new one. A worker that breaks (memory) is replaced the same
// way. An error of inarow's Python comes as fields, said here from the page's catalog. The page stays
// usable throughout. Of the DOM, only the sandbox's hidden frame.

import { sentence, t } from "./words.js";

/** Seconds a run may take: one position's evaluation, a tree, the comparison, one graded position, a tournament game, one case of a search's check. */
export const LIMITS = { evaluate: 3, explain: 10, compare: 20, choose: 3, play: 10, check: 5, skeleton: 3 };

let worker = null;
let starting = null;
let nextId = 1;
const waiting = new Map();

/**
 * The lab's sandbox, as much of a Worker as this module uses (onmessage, onerror, postMessage, terminate):
 * only messages from its frame are heard, and only objects.
 */
function sandbox() {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("referrerpolicy", "no-referrer");
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.hidden = true;
  frame.src = "/lab/sandbox.html";
  const box = { onmessage: null, onerror: null };
  const hear = ({ data, source }) => {
    if (source !== frame.contentWindow || data === null || typeof data !== "object") return;
    if ("stopped" in data) box.onerror?.({ message: String(data.stopped) });
    else box.onmessage?.({ data });
  };
  addEventListener("message", hear);
  box.postMessage = (message, transfer = []) => frame.contentWindow?.postMessage(message, "*", transfer); // an opaque origin has no name
  box.terminate = () => {
    removeEventListener("message", hear);
    frame.remove();
  };
  document.body.append(frame);
  return box;
}

/**
 * The files the worker would download each time the page opens, by the name it asks for: the sandbox's
 * opaque origin keeps no HTTP cache from one page to the next, this page does (Pyodide's files are
 * revalidated by their ETags, 304 when unchanged), so the page fetches them and hands them over.
 */
const HANDED = {
  "pyodide-lock.json": "/lab/pyodide/pyodide-lock.json",
  "python_stdlib.zip": "/lab/pyodide/python_stdlib.zip",
  "pyodide.asm.wasm": "/lab/pyodide/pyodide.asm.wasm",
  "inarow.zip": "/lab/inarow.zip",
};

/** Hand `box`'s worker the files of HANDED from this page's cache (none when one cannot be had: the worker then fetches them itself). */
async function handFiles(box) {
  let files = null;
  try {
    const fetched = await Promise.all(
      Object.entries(HANDED).map(async ([name, url]) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return [name, await response.arrayBuffer()];
      }),
    );
    files = Object.fromEntries(fetched);
  } catch {
    files = null;
  }
  box.postMessage({ files }, files ? Object.values(files) : []);
}

function start() {
  worker = sandbox();
  const box = worker;
  starting = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if ("wants" in data) {
        handFiles(box);
        return;
      }
      if ("ready" in data) {
        if (data.ready) resolve();
        else reject(new Error(t("Python could not start in this browser: {message}", { message: data.error })));
        return;
      }
      const job = waiting.get(data.id);
      if (!job || (!data.progress && (typeof data.answer !== "object" || data.answer === null))) return;
      if (data.progress) {
        job.position = data.progress.position;
        job.arm();
        job.onProgress?.(data.progress.index);
        return;
      }
      waiting.delete(data.id);
      job.finish();
      if (data.broken) restart(); // the requests waiting go to the new worker, their limits start there
      else armNext();
      if (data.answer.ok) job.resolve(data.answer.value);
      else job.reject(new Error(data.answer.said ? sentence(data.answer.said) : data.answer.error));
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      const message = event.message || t("the worker stopped");
      reject(new Error(message));
      fail(message);
    };
  });
  starting.catch(() => {});
  return starting;
}

function fail(message) {
  for (const job of waiting.values()) {
    job.finish();
    job.reject(new Error(message));
  }
  waiting.clear();
  restart();
}

function restart() {
  worker?.terminate();
  worker = null;
  starting = null;
  if (waiting.size) resend();
}

/** Send the requests still waiting to the new worker once its Python is ready, the first one's limit running. */
function resend() {
  const pending = [...waiting.entries()];
  for (const [, job] of pending) job.finish();
  warmUp().then(
    () => {
      for (const [id, job] of pending) if (waiting.get(id) === job) worker.postMessage({ id, request: job.request });
      armNext();
    },
    (error) => {
      for (const [id, job] of pending) {
        waiting.delete(id);
        job.reject(error);
      }
    },
  );
}

/** Start the limit of the request the worker answers next (the first still waiting), if it is not running. */
function armNext() {
  const next = waiting.values().next().value;
  if (next && !next.armed) next.arm();
}

/** An error saying that a run was stopped at its limit (`stopped`: no fault of the code shown). */
function stopped(message) {
  const error = new Error(message);
  error.stopped = true;
  return error;
}

/**
 * Throw the sandbox away, and whatever code ran in it (a module it patched, a global it left): the next
 * request starts Python afresh. A request still waiting is refused.
 */
export function startAfresh() {
  if (waiting.size) fail(t("stopped: Python started again"));
  else restart();
}

/** Start Python now (the first run waits for it otherwise); resolves once it is ready. */
export function warmUp() {
  return starting ?? start();
}

/**
 * Ask the worker: `request` is {op, args, source, function} or {op, args, named}. `position` names what
 * is run for the limit's message; `onProgress(index)` hears each graded position.
 */
export async function ask(request, { position = "", onProgress = null } = {}) {
  await warmUp();
  if (!worker) await warmUp(); // restarted meanwhile
  const seconds = LIMITS[request.op] ?? 3;
  const id = nextId++;
  const fn = request.named ?? `${request.function || "e"}`;
  return new Promise((resolve, reject) => {
    const job = { request, resolve, reject, position, onProgress, timer: null, armed: false };
    job.finish = () => {
      clearTimeout(job.timer);
      job.armed = false;
    };
    job.arm = () => {
      clearTimeout(job.timer);
      job.armed = true;
      job.timer = setTimeout(() => {
        waiting.delete(id);
        job.armed = false;
        const said = job.position
          ? t("{function} ran longer than {seconds} s on {position}: it was stopped, and Python started again", { function: fn, seconds, position: job.position })
          : t("the code ran longer than {seconds} s before {function} was called (its top level, outside any function): it was stopped, and Python started again", { function: fn, seconds });
        reject(stopped(said));
        restart();
      }, seconds * 1000);
    };
    waiting.set(id, job);
    worker.postMessage({ id, request });
    armNext();
  });
}
