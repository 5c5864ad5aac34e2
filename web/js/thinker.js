// The computer's thinking, in a worker of its own (started by worker.js), so that the games' worker answers the page
// — a unit's orders, the odds, a replay — while the computer thinks. It is given a game's save when the computer is
// to act (the desk's `computer_turn`), loads it into a desk of its own and answers with the decision the computer
// player makes there: the same player, seeded from the same save, as the games' desk would have made itself.
// `{ seq, id, save }` in; `{ seq, action }` or `{ seq, error }` out.

import { openDesk } from './desk.js';

const desk = openDesk();

onmessage = async ({ data: { seq, id, save } }) => {
  try {
    const call = await desk;
    const loaded = call({ op: 'load', id, save });
    if (loaded.error !== undefined) throw new Error(loaded.error);
    const reply = call({ op: 'computer', id });
    call({ op: 'forget', id });
    if (reply.error !== undefined) throw new Error(reply.error);
    postMessage({ seq, action: reply.ok?.action ?? null });
  } catch (e) {
    postMessage({ seq, error: e.message || String(e) });
  }
};
