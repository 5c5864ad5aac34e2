// The computer's thinking, in a worker of its own (started by worker.js), so that the games' worker answers the page
// — a unit's orders, the odds, a replay — while the computer thinks. Each job names a game and gives its save (the
// desk's `computer_turn`, or `save`), which is loaded into a desk of its own:
// - `decide`: the decision the computer player makes there, the same player seeded from the same save as the games'
//   desk would have made itself (the game kept for its next decision, which is then given only what was played
//   since);
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

// The game the thinker decided in last, kept: its next decision in that game is given only the decisions made since
// (the desk's `follow`) instead of replaying the whole save, which grows with the game (docs/PERFORMANCE.md, "The
// thinker's reload"). `actions`: the decisions it holds, each as `canonical` writes it.
let held = null;

/// An action's JSON with its keys sorted, so that the save's and the desk's replies compare equal.
function canonical(value) {
  return JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/// Brings the game `id` to `save`: by following it when the game held is the same one, the save its decisions and
/// more (nothing taken back since), else by loading the save.
function bring(call, id, save) {
  // The save's seed is a u64 beyond a JavaScript number, but only its decisions are read here.
  const actions = JSON.parse(save).actions;
  const written = actions.map(canonical);
  const follows = held?.id === id && held.actions.length <= written.length && held.actions.every((a, i) => a === written[i]);
  if (follows && !call({ op: 'follow', id, decisions: held.actions.length, actions: actions.slice(held.actions.length) }).error) {
    held.actions = written;
    return;
  }
  if (held) call({ op: 'forget', id: held.id });
  held = null;
  ok(call({ op: 'load', id, save }));
  held = { id, actions: written };
}

async function decide(call, id, save) {
  try {
    bring(call, id, save);
    const action = ok(call({ op: 'computer', id }))?.action ?? null;
    if (action !== null) held.actions.push(canonical(action));
    return action;
  } catch (e) {
    if (held) call({ op: 'forget', id: held.id });
    held = null;
    throw e;
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
