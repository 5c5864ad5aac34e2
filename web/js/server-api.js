// The games on the server: its JSON API (docs/api.md). Every call returns parsed JSON or throws an Error with the
// server's message. Pages reach it only through api.js.

/// The logged-in session's anti-forgery token (from `GET /api/me`), sent with every call once known.
let csrf = null;

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (csrf) init.headers['x-pacw-csrf'] = csrf;
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const reply = await fetch(path, init);
  const text = await reply.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!reply.ok) {
    const error = new Error((data && data.error) || `${reply.status} ${reply.statusText}`);
    error.status = reply.status;
    error.data = data;
    throw error;
  }
  return data;
}

/// `POST /api/scenarios/balance`: the reply is a stream of JSON lines, progress first and the result last. `own` is
/// a variant file of one's own (`{text, file}`) the battle is played by, as `check` takes it.
async function balance(text, file, progress, own) {
  const body = { text, file, variant_text: own?.text, variant_file: own?.file };
  const reply = await fetch('/api/scenarios/balance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!reply.ok) {
    const data = await reply.json().catch(() => ({}));
    throw new Error(data.error || `${reply.status} ${reply.statusText}`);
  }
  const reader = reply.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      if (line.error) throw new Error(line.error);
      if (line.result) return line.result;
      progress(line.done, line.of);
    }
    if (done) throw new Error('the test stopped before its result');
  }
}


export const server = {
  /// What this place offers: everything.
  features: { twoPlayers: true, watch: true, notices: true, editor: true, balance: true, upload: true, club: true, storedHere: false },
  /// Sends `token` with every call from now on (null: none).
  setCsrf(token) {
    csrf = token || null;
  },
  /// The page an address shows: the lobby at `/`, the editor at `/editor`, a game at `/game/{token}` (its replay with
  /// `?replay`, its review with `?review`); the club's pages: `/account`, `/leaderboard`, `/room`, an invitation
  /// `/room/{id}` and a player's page `/players/{name}`.
  route() {
    const query = new URLSearchParams(location.search);
    const path = location.pathname;
    if (/^\/editor\/?$/.test(path)) return { page: 'editor' };
    if (/^\/account\/?$/.test(path)) return { page: 'account' };
    if (/^\/leaderboard\/?$/.test(path)) return { page: 'leaderboard' };
    if (/^\/room\/?$/.test(path)) return { page: 'room' };
    const invitation = path.match(/^\/room\/([0-9a-fA-F]{32})\/?$/);
    if (invitation) return { page: 'invitation', id: invitation[1] };
    const player = path.match(/^\/players\/([^/]+)\/?$/);
    if (player) return { page: 'player', name: decodeURIComponent(player[1]) };
    const match = location.pathname.match(/^\/game\/([0-9a-fA-F]+)\/?$/);
    if (!match) return { page: 'lobby' };
    if (query.has('replay') || query.has('review')) return { page: 'replay', token: match[1], review: query.has('review') };
    return { page: 'battle', token: match[1] };
  },
  /// The address of a game's page (`what`: '', 'replay' or 'review').
  gameHref: (token, what = '') => `/game/${token}${what ? `?${what}` : ''}`,
  /// The rules a game is played by (its variant's, above the rules of play).
  rulesHref: (token) => `/game/${token}/rules`,
  /// A page of the site: '' the lobby, `rules`, `guide`, `format`, `review`, `editor`, `rules/{variant}`.
  pageHref: (name) => `/${name}`,
  info: () => call('GET', '/api/info'),
  scenarios: () => call('GET', '/api/scenarios'),
  check: (text, file, variant) => call('POST', '/api/scenarios/check', { text, file, variant_text: variant?.text, variant_file: variant?.file }),
  balance,
  create: (request) => call('POST', '/api/games', request),
  view: (token, logFrom) => call('GET', `/api/play/${token}${logFrom ? `?log_from=${logFrom}` : ''}`),
  /// A finished game's save file, as text (its 64-bit seed would not survive JSON.parse).
  saveText: async (token) => {
    const reply = await fetch(`/api/play/${token}/save`);
    const text = await reply.text();
    if (!reply.ok) throw new Error((() => { try { return JSON.parse(text).error; } catch { return text; } })());
    return text;
  },
  summary: (token) => call('GET', `/api/play/${token}/summary`),
  unit: (token, unit) => call('GET', `/api/play/${token}/units/${unit}`),
  explain: (token, unit, action) => call('POST', `/api/play/${token}/explain`, { unit, action }),
  act: (token, action, decisions) => call('POST', `/api/play/${token}/actions`, { action, decisions }),
  actIndex: (token, index, decisions) => call('POST', `/api/play/${token}/actions`, { index, decisions }),
  undo: (token, count, decisions) => call('POST', `/api/play/${token}/undo`, { count, decisions }),
  resign: (token) => call('POST', `/api/play/${token}/resign`, {}),
  rematch: (token) => call('POST', `/api/play/${token}/rematch`, {}),
  replay: (token) => call('GET', `/api/play/${token}/replay`),
  replayAt: (token, decision) => call('GET', `/api/play/${token}/replay/${decision}`),
  review: (token) => call('GET', `/api/play/${token}/review`),
  startReview: (token) => call('POST', `/api/play/${token}/review`, {}),
  contact: (token) => call('GET', `/api/play/${token}/notify`),
  setContact: (token, email, webhook) => call('PUT', `/api/play/${token}/notify`, { email, webhook }),
  events: (token) => new EventSource(`/api/play/${token}/events`),
  chat: (token) => call('GET', `/api/play/${token}/chat`),
  say: (token, text) => call('POST', `/api/play/${token}/chat`, { text }),
  takeback: (token) => call('GET', `/api/play/${token}/takeback`),
  askTakeback: (token) => call('POST', `/api/play/${token}/takeback`, {}),
  answerTakeback: (token, accept) => call('POST', `/api/play/${token}/takeback/answer`, { accept }),
  draw: (token) => call('GET', `/api/play/${token}/draw`),
  offerDraw: (token) => call('POST', `/api/play/${token}/draw`, {}),
  answerDraw: (token, accept) => call('POST', `/api/play/${token}/draw/answer`, { accept }),
  clock: (token) => call('GET', `/api/play/${token}/clock`),
  claimWin: (token) => call('POST', `/api/play/${token}/clock/claim`, {}),
  me: () => call('GET', '/api/me'),
  signUp: (name, password, email, webhook) => call('POST', '/api/account/signup', { name, password, email, webhook }),
  logIn: (name, password) => call('POST', '/api/account/login', { name, password }),
  logOut: () => call('POST', '/api/account/logout', {}),
  forgotPassword: (who) => call('POST', '/api/account/forgot', { who }),
  resetPassword: (token, password) => call('POST', '/api/account/reset', { token, password }),
  accountSettings: (email, webhook) => call('PUT', '/api/account', { email, webhook }),
  claim: (token) => call('POST', '/api/account/claim', { token }),
  startVacation: (days) => call('POST', '/api/account/vacation', { days }),
  endVacation: () => call('DELETE', '/api/account/vacation'),
  player: (name) => call('GET', `/api/players/${encodeURIComponent(name)}`),
  leaderboard: () => call('GET', '/api/leaderboard'),
  room: () => call('GET', '/api/room'),
  post: (posting) => call('POST', '/api/room', posting),
  posting: (id) => call('GET', `/api/room/${encodeURIComponent(id)}`),
  join: (id) => call('POST', `/api/room/${encodeURIComponent(id)}/join`, {}),
  mySeek: () => call('GET', '/api/room/seek'),
  seek: (request) => call('POST', '/api/room/seek', request),
  withdrawSeek: () => call('DELETE', '/api/room/seek'),
  withdraw: (id) => call('DELETE', `/api/room/${encodeURIComponent(id)}`),
};
