// The computer's thinking, in a worker of its own (started by worker.js), so that the games' worker answers the page
// — a unit's orders, the odds, a replay — while the computer thinks. Each job names a game and gives its save (the
// desk's `computer_turn`, or `save`), which is loaded into a desk of its own:
// - `decide`: the decision the computer player makes there, the same player seeded from the same save as the games'
//   desk would have made itself;
// - `review`: the game's review, searched a decision at a time (its progress sent after each), other games'
//   decisions made in between.
// First `{ module }`, the compiled pacw.wasm; then `{ seq, job, id, save }` in; `{ seq, progress }` while a review
// runs, then `{ seq, done }` or `{ seq, error }`.

import { openDesk } from './desk.js';

let given;
const desk = openDesk(new Promise((resolve) => { given = resolve; }));

/// The desk's answer, or an Error with its words.
function ok(reply) {
  if (reply.error !== undefined) throw new Error(reply.error);
  return reply.ok;
}

async function decide(call, id, save) {
  ok(call({ op: 'load', id, save }));
  try {
    return ok(call({ op: 'computer', id }))?.action ?? null;
  } finally {
    call({ op: 'forget', id });
  }
}

async function review(call, id, save, progress) {
  const key = `review:${id}`;
  ok(call({ op: 'load', id: key, save }));
  try {
    let status = ok(call({ op: 'start_review', id: key }));
    while (status.state === 'running') {
      progress(status);
      await new Promise((resolve) => setTimeout(resolve, 0));
      status = ok(call({ op: 'review_step', id: key, decisions: 1 }));
    }
    return status;
  } finally {
    call({ op: 'forget', id: key });
  }
}

onmessage = async ({ data: { module, seq, job, id, save } }) => {
  if (module) {
    given(module);
    return;
  }
  try {
    const call = await desk;
    const done = job === 'review'
      ? await review(call, id, save, (status) => postMessage({ seq, progress: status }))
      : await decide(call, id, save);
    postMessage({ seq, done });
  } catch (e) {
    postMessage({ seq, error: e.message || String(e) });
  }
};
