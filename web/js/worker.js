// The games of this browser, in a Web Worker: the engine and the computer players compiled to WebAssembly
// (crates/wasm, `pacw.wasm` beside index.html), each game kept in IndexedDB as its save file after every change.
// The page (browser-api.js) sends `{ seq, request }` and gets `{ seq, ok }` or `{ seq, error, status }`; the
// computer's decisions come as `{ id, update }`, as the server's event stream sends them.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// The desk in linear memory: one JSON request in, one JSON reply out (crates/wasm/src/abi.rs).
const desk = (async () => {
  const imports = { pacw: { now_ms: () => performance.now() } };
  const url = new URL('../pacw.wasm', import.meta.url);
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url), imports);
  const e = instance.exports;
  return (request) => {
    const bytes = encoder.encode(JSON.stringify(request));
    const ptr = e.alloc(bytes.length);
    new Uint8Array(e.memory.buffer, ptr, bytes.length).set(bytes);
    const len = e.call(ptr, bytes.length);
    e.dealloc(ptr, bytes.length);
    return JSON.parse(decoder.decode(new Uint8Array(e.memory.buffer, e.reply_ptr(), len)));
  };
})();

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
const reviewing = new Set();

/// The computer's decisions, one by one, each kept and sent to the page; the worker answers the page between them.
async function think(id) {
  if (thinking.has(id)) return;
  thinking.add(id);
  try {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const update = await ask({ op: 'computer', id });
      if (!update) break;
      await keep(id);
      postMessage({ id, update });
    }
  } catch { /* the game was let go or refused: the page reloads its view */ }
  thinking.delete(id);
}

/// Makes a review a decision at a time, answering the page between them.
async function review(id) {
  if (reviewing.has(id)) return;
  reviewing.add(id);
  try {
    let status = await ask({ op: 'review', id });
    while (status.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 0));
      status = await ask({ op: 'review_step', id, decisions: 1 });
    }
    // Kept with the game, so that it is not made again (the server stores its reviews too).
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
  if (op === 'start_review') review(id);
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
