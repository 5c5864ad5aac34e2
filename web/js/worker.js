// The games of this browser, in a Web Worker: the engine and the computer players compiled to WebAssembly
// (desk.js), each game kept in IndexedDB as its save file after every change. The computer thinks, and reviews are
// made, in a worker of its own (thinker.js), so that this one answers the page meanwhile. The page (browser-api.js) sends
// `{ seq, request }` and gets `{ seq, ok }` or `{ seq, error, status }`; the computer's decisions come as
// `{ id, update }`, as the server's event stream sends them.

import { compile, openDesk } from './desk.js';

const module = compile();
const desk = openDesk(module);

// ---------------------------------------------------------------- the saved games (IndexedDB)

const db = new Promise((resolve, reject) => {
  const open = indexedDB.open('pacw', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('games', { keyPath: 'id' });
  open.onsuccess = () => resolve(open.result);
  open.onerror = () => reject(open.error);
});

async function stored(id) {
  const games = (await db).transaction('games').objectStore('games');
  return new Promise((resolve, reject) => {
    const get = games.get(id);
    get.onsuccess = () => resolve(get.result);
    get.onerror = () => reject(get.error);
  });
}

async function store(record) {
  const tx = (await db).transaction('games', 'readwrite');
  tx.objectStore('games').put(record);
  return new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
}

// ---------------------------------------------------------------- answering

class Refusal extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

const open = new Set(); // the games loaded into the desk

async function ask(request) {
  const reply = (await desk)(request);
  if (reply.error !== undefined) throw new Refusal(reply.error, reply.status);
  return reply.ok;
}

/// Loads a saved game into the desk unless it is there.
async function opened(id) {
  if (open.has(id)) return;
  const record = await stored(id);
  if (!record) throw new Refusal('this game is not kept in this browser (games played offline stay in the browser that played them)', 404);
  await ask({ op: 'load', id, save: record.save });
  open.add(id);
  think(id);
}

/// Writes the game's save and its summary to IndexedDB.
async function keep(id) {
  const [{ text }, summary] = await Promise.all([ask({ op: 'save', id }), ask({ op: 'summary', id })]);
  const before = await stored(id);
  const now = Date.now();
  // A review, made once the game is over (when nothing changes it any more), stays with it.
  await store({ id, save: text, summary: { ...summary, created_at: before?.summary.created_at ?? now, updated_at: now }, review: before?.review });
}

const CHANGES = new Set(['act', 'undo', 'resign']);
const thinking = new Set();
const reviewing = new Map(); // game id → where its review stands, while the thinker makes it

// ---------------------------------------------------------------- the computer's thinking (thinker.js)

let thinker = null;
let nextJob = 1;
const jobs = new Map(); // seq → { resolve, reject, progress }

/// A job for the thinker's worker (`decide` or `review`) on the game whose save is `save`: resolves with its
/// result; `progress` hears how a review stands meanwhile.
function toThinker(job, id, save, progress) {
  if (!thinker) {
    thinker = new Worker(new URL('./thinker.js', import.meta.url), { type: 'module' });
    // The module compiled here, so that the thinker neither fetches nor compiles it again.
    module.then((m) => thinker?.postMessage({ module: m }));
    thinker.onmessage = ({ data }) => {
      const j = jobs.get(data.seq);
      if (!j) return;
      if ('progress' in data) return j.progress?.(data.progress);
      jobs.delete(data.seq);
      if ('done' in data) j.resolve(data.done);
      else j.reject(new Error(data.error));
    };
    thinker.onerror = (e) => {
      for (const j of jobs.values()) j.reject(new Error(`the computer player stopped: ${e.message || 'it could not start'}`));
      jobs.clear();
      thinker = null;
    };
  }
  const seq = nextJob++;
  return new Promise((resolve, reject) => {
    jobs.set(seq, { resolve, reject, progress });
    thinker.postMessage({ seq, job, id, save });
  });
}

/// The computer's decisions, one by one, each kept and sent to the page. Each is made in the thinker's worker from
/// the game as it stood; this worker answers the page meanwhile, and plays the decision unless the game has moved
/// on since (then the computer thinks again).
async function think(id) {
  if (thinking.has(id)) return;
  thinking.add(id);
  try {
    for (;;) {
      const turn = await ask({ op: 'computer_turn', id });
      if (!turn) break;
      const action = await toThinker('decide', id, turn.save);
      let update;
      try {
        update = await ask({ op: 'computer', id, action, decisions: turn.decisions });
      } catch (e) {
        if (e.status === 409) continue;
        throw e;
      }
      if (!update) break;
      await keep(id);
      postMessage({ id, update });
    }
  } catch { /* the game was let go or refused: the page reloads its view */ }
  thinking.delete(id);
}

/// Makes a finished game's review in the thinker's worker, where it stands told to the page when it asks; once made
/// it is kept with the game, so that it is not made again (the server stores its reviews too).
async function review(id) {
  if (reviewing.has(id)) return;
  reviewing.set(id, { state: 'running', searched: 0, total: 0 });
  try {
    const { text } = await ask({ op: 'save', id });
    const status = await toThinker('review', id, text, (progress) => reviewing.set(id, progress));
    const record = await stored(id);
    if (status.state === 'done' && record) await store({ ...record, review: status });
  } catch { /* the page sees the review's state when it asks */ }
  reviewing.delete(id);
}

async function answer(request) {
  const { op, id } = request;
  if (op === 'check') return ask(request);
  if (op === 'create' || op === 'load' || op === 'rematch') {
    if (op === 'rematch') await opened(id);
    const reply = await ask(request);
    const made = op === 'rematch' ? request.new_id : id;
    open.add(made);
    await keep(made);
    think(made);
    return reply;
  }
  if (op === 'summary' && !open.has(id)) {
    const record = await stored(id);
    if (!record) throw new Refusal('this game is not kept in this browser', 404);
    return record.summary;
  }
  await opened(id);
  if (op === 'review' || op === 'start_review') {
    const kept = (await stored(id))?.review;
    if (kept) return kept;
    if (reviewing.has(id)) return reviewing.get(id);
    if (op === 'review') return { state: 'none' };
    // As the server answers POST …/review: a game is reviewed once it is over.
    if ((await ask({ op: 'summary', id })).status !== 'finished') throw new Refusal('a game is reviewed once it is over', 409);
    review(id);
    return reviewing.get(id);
  }
  const reply = await ask(request);
  if (CHANGES.has(op)) {
    await keep(id);
    think(id);
  }
  if (op === 'summary') {
    const record = await stored(id);
    return { ...reply, created_at: record?.summary.created_at, updated_at: record?.summary.updated_at };
  }
  return reply;
}

// One request at a time, in order: the desk is not re-entered while a request waits on IndexedDB.
let queue = Promise.resolve();
onmessage = ({ data: { seq, request } }) => {
  queue = queue.then(async () => {
    try {
      postMessage({ seq, ok: await answer(request) });
    } catch (e) {
      postMessage({ seq, error: e.message || String(e), status: e.status || 500 });
    }
  });
};
