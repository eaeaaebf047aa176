// Error answers become ApiError with the server's reason: node --test tests/js/
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { ApiError, api, errorFrom } from "../../src/inarow/web/static/js/api.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A fetch that answers `status` with `body` (an object sent as JSON, or a string sent as it is). */
function answer(status, body) {
  globalThis.fetch = async () =>
    new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

test("an error answer's reason is its reason field, its message the whole detail", async () => {
  answer(400, { detail: "illegal move 'b2' in '.../.x./...': cell is taken", reason: "cell is taken" });
  const error = await api.play("g1", "b2").catch((e) => e);
  assert.ok(error instanceof ApiError);
  assert.equal(error.status, 400);
  assert.equal(error.message, "illegal move 'b2' in '.../.x./...': cell is taken");
  assert.equal(error.reason, "cell is taken");
});

test("the reason is never cut out of the message: a message with no reason field is its own reason", () => {
  const error = errorFrom(422, "Unprocessable Entity", { detail: "invalid request: 'move': too long" });
  assert.equal(error.reason, "invalid request: 'move': too long");
});

test("an answer that is not JSON is told by its status", async () => {
  answer(502, "<html>Bad Gateway</html>");
  const error = await api.scores().catch((e) => e);
  assert.equal(error.status, 502);
  assert.equal(error.message, "error 502");
  assert.equal(error.reason, "error 502");
  assert.equal(errorFrom(503, "Service Unavailable", null).message, "error 503 Service Unavailable");
});

test("a server that cannot be reached is said so", async () => {
  globalThis.fetch = async () => {
    throw new TypeError("fetch failed");
  };
  const error = await api.menus().catch((e) => e);
  assert.equal(error.status, 0);
  assert.equal(error.reason, "the server cannot be reached");
  assert.equal(error.message, "the server cannot be reached: is inarow serve still running?");
});

test("a good answer is its JSON; requests go to the routes of inarow serve", async () => {
  const asked = [];
  globalThis.fetch = async (path, options) => {
    asked.push([options.method, path, options.body]);
    return new Response(JSON.stringify({ id: "g 1" }), { status: 200 });
  };
  assert.deepEqual(await api.play("g 1", "4", false), { id: "g 1" });
  await api.play("g 1", null);
  await api.undo("g 1", 5);
  assert.deepEqual(asked, [
    ["POST", "/api/games/g%201/moves", '{"move":"4","reply":false}'],
    ["POST", "/api/games/g%201/moves", "{}"],
    ["POST", "/api/games/g%201/undo", '{"ply":5}'],
  ]);
});
