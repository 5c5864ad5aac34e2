// The games in this browser: the engine and the computer players compiled to WebAssembly, run in a Web Worker
// (worker.js), kept in IndexedDB. It answers the calls of the server's API (server-api.js) with the same JSON; pages
// reach it only through api.js. Addresses are in the fragment (`#/game/{id}`), so any static host serves the app.

let worker = null;
let nextSeq = 1;
const waiting = new Map(); // seq → { resolve, reject }
const streams = new Map(); // game id → the event targets of its pages

function start() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.update) {
      for (const target of streams.get(data.id) || []) {
        target.dispatchEvent(new MessageEvent('update', { data: JSON.stringify(data.update) }));
      }
      return;
    }
    const w = waiting.get(data.seq);
    if (!w) return;
    waiting.delete(data.seq);
    if ('ok' in data) w.resolve(data.ok);
    else {
      const error = new Error(data.error);
      error.status = data.status;
      w.reject(error);
    }
  };
  worker.onerror = (e) => {
    for (const w of waiting.values()) w.reject(new Error(`the game engine stopped: ${e.message || 'it could not start'}`));
    waiting.clear();
  };
  return worker;
}

/// One request to the worker's desk (crates/wasm, docs/api.md): `{ op, id, … }`.
function call(request) {
  start();
  const seq = nextSeq++;
  return new Promise((resolve, reject) => {
    waiting.set(seq, { resolve, reject });
    worker.postMessage({ seq, request });
  });
}

/// A fresh id for a game: 128 random bits in hex, the shape of a server's token.
function newId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/// A fresh seed for the dice, as decimal digits (a JavaScript number cannot hold 64 bits).
function newSeed() {
  const [hi, lo] = crypto.getRandomValues(new Uint32Array(2));
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}

/// A JSON file of the static build (written by `pacw static`).
async function file(name) {
  const reply = await fetch(new URL(`../api/${name}`, import.meta.url));
  if (!reply.ok) throw new Error(`${name}: ${reply.status} ${reply.statusText}`);
  return reply.json();
}

function refused(what) {
  return Promise.reject(new Error(`${what} needs a pacw server; offline, play against the computer or hot-seat`));
}

/// A created game as the server's reply has it: its one token (the id), its link, its first view.
function created(reply, you) {
  const role = you || reply.view.role;
  return { id: reply.id, tokens: { [role]: reply.id }, links: { [role]: browser.gameHref(reply.id) }, view: reply.view, you: role };
}

export const browser = {
  features: { twoPlayers: false, watch: false, notices: false, editor: true, balance: false, upload: true, club: false, storedHere: true },
  /// The page the fragment shows: `#/game/{id}` a game (`?replay`, `?review`, `?rules` the rules it is played by,
  /// `?rules#R6.4` at a rule's section), `#/editor` the scenario editor, anything else the lobby. A new fragment is a
  /// new page.
  route() {
    if (!browser.listening) {
      browser.listening = true;
      window.addEventListener('hashchange', () => location.reload());
    }
    if (location.hash === '#/editor') return { page: 'editor' };
    const match = location.hash.match(/^#\/game\/([0-9a-fA-F]+)(?:\?(replay|review|rules))?(?:#(.+))?$/);
    if (!match) return { page: 'lobby' };
    if (match[2] === 'rules') return { page: 'rules', token: match[1], section: match[3] && decodeURIComponent(match[3]) };
    if (match[2]) return { page: 'replay', token: match[1], review: match[2] === 'review' };
    return { page: 'battle', token: match[1] };
  },
  gameHref: (token, what = '') => `./#/game/${token}${what ? `?${what}` : ''}`,
  /// The rules a game is played by: a shipped variant's page above the rules of play (the static build writes
  /// one for each), a variant of the player's own made by the engine (`#/game/{id}?rules`), else the rules of play.
  rulesHref(token, scenario) {
    if (scenario?.variant) return browser.pageHref(`rules/${scenario.variant}`);
    return scenario?.rules ? browser.gameHref(token, 'rules') : browser.pageHref('rules');
  },
  /// A page of the site ('' the lobby, `rules`, `guide`, `rules/{variant}` …) by its folder, found from where this
  /// module is: the build works from any folder of a host. The editor is a page of the app (`#/editor`).
  pageHref(name) {
    const root = new URL('../', import.meta.url).pathname;
    if (name === 'editor') return `${root}#/editor`;
    return name ? `${root}${name}/` : root;
  },
  info: () => file('info.json'),
  scenarios: () => file('scenarios.json'),
  check: (text, file, variant) => call({ op: 'check', text, file, variant_text: variant?.text, variant_file: variant?.file }),
  balance: () => refused('Testing a battle’s balance by playing games (`pacw balance` on the downloaded file does it)'),
  async create(request) {
    const id = newId();
    if (request.save !== undefined) {
      const save = typeof request.save === 'string' ? request.save : JSON.stringify(request.save);
      return created(await call({ op: 'load', id, save }));
    }
    if (!['computer', 'hotseat'].includes(request.mode)) return refused('This mode');
    const options = Object.entries(request.options || {}).map(([k, v]) => `${k}=${v}`);
    const { mode, scenario, scenario_text, scenario_file, variant, variant_text, variant_file, human_side, computer } = request;
    return created(await call({ op: 'create', id, seed: newSeed(), mode, scenario, scenario_text, scenario_file, variant, variant_text, variant_file, human_side, computer, options }));
  },
  view: (token, logFrom) => call({ op: 'view', id: token, log_from: logFrom || 0 }),
  saveText: async (token) => (await call({ op: 'save', id: token })).text,
  summary: (token) => call({ op: 'summary', id: token }),
  unit: (token, unit) => call({ op: 'unit', id: token, unit }),
  explain: (token, unit, action) => call({ op: 'explain', id: token, unit, action }),
  act: (token, action, decisions) => call({ op: 'act', id: token, action, decisions }),
  actIndex: (token, index, decisions) => call({ op: 'act', id: token, index, decisions }),
  undo: (token, count, decisions) => call({ op: 'undo', id: token, count, decisions }),
  resign: (token) => call({ op: 'resign', id: token }),
  rematch: async (token) => {
    const reply = await call({ op: 'rematch', id: token, new_id: newId(), seed: newSeed() });
    return created(reply, reply.you);
  },
  replay: (token) => call({ op: 'replay', id: token }),
  /// The rules the game is played by, as a page: `{ title, html }` (the server writes it at `rulesHref`).
  rules: (token) => call({ op: 'rules', id: token }),
  replayAt: (token, decision) => call({ op: 'replay_at', id: token, decision }),
  review: (token) => call({ op: 'review', id: token }),
  startReview: (token) => call({ op: 'start_review', id: token }),
  /// No accounts here: everyone is a guest.
  me: async () => ({ account: null }),
  contact: () => refused('Notices'),
  setContact: () => refused('Notices'),
  /// The game's updates, as the server's event stream sends them: `hello` first, then an `update` for each of the
  /// computer's decisions.
  events(token) {
    const target = new EventTarget();
    target.close = () => streams.get(token)?.delete(target);
    if (!streams.has(token)) streams.set(token, new Set());
    streams.get(token).add(target);
    call({ op: 'view', id: token, log_from: 1e9 }).then((v) => {
      target.dispatchEvent(new MessageEvent('hello', { data: JSON.stringify({ id: v.id, role: v.role, revision: v.revision, decisions: v.decisions, log_len: v.log_len }) }));
    }).catch(() => target.onerror?.());
    return target;
  },
};
