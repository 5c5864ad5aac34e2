// "Your games": the links of the games this browser created or opened, kept in local storage (the server does not
// list tokens). Export and import move them to another browser.

const KEY = 'pacw-games';

/// Every remembered game: { token: { id, role, title, links, added } }.
export function remembered() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || '{}');
    return data && typeof data === 'object' && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function store(all) {
  localStorage.setItem(KEY, JSON.stringify(all));
}

/// Remembers a link of a game (merging what is known of it).
export function remember(token, facts) {
  const all = remembered();
  all[token] = { ...(all[token] || { added: Date.now() }), ...facts };
  store(all);
}

/// Remembers every link of a created game, with the role this browser plays first.
export function rememberCreated(created, mine) {
  for (const [role, token] of Object.entries(created.tokens)) {
    if (!token) continue;
    const keep = role === mine || (role === 'spectator' && !mine);
    if (keep) remember(token, { id: created.id, role, title: created.view.scenario.title, links: created.links });
  }
  // The other links of the game stay reachable from the one kept (to send to an opponent).
}

/// The role this browser plays first in a game just created in `mode`.
export function mainRole(created, mode, humanSide) {
  const t = created.tokens;
  if (mode === 'hotseat') return 'hotseat';
  if (mode === 'computer') return humanSide === 'B' ? 'B' : 'A';
  if (mode === 'two_players') return 'A';
  return t.A ? 'A' : 'spectator';
}

/// Forgets a game's link in this browser (the game itself stays on the server).
export function forget(token) {
  const all = remembered();
  delete all[token];
  store(all);
}

/// The remembered games as a file's text, and back.
export function exportText() {
  return JSON.stringify({ format: 'pacw-your-games', version: 1, games: remembered() }, null, 2);
}

/// Adds the games of an exported file; returns how many were added. Throws on a file that is not one.
export function importText(text) {
  const data = JSON.parse(text);
  if (!data || data.format !== 'pacw-your-games' || typeof data.games !== 'object') {
    throw new Error('this is not a pacw "your games" file');
  }
  const all = remembered();
  let added = 0;
  for (const [token, facts] of Object.entries(data.games)) {
    if (!/^[0-9a-f]{32}$/.test(token) || typeof facts !== 'object') continue;
    if (!all[token]) added++;
    all[token] = { ...facts, ...(all[token] || {}) };
  }
  store(all);
  return added;
}

/// The decisions this browser has already shown of a game (so the page plays back only what is new to it).
export function shownDecisions(token) {
  const n = Number(localStorage.getItem(`pacw-shown-${token}`));
  return Number.isFinite(n) ? n : 0;
}

export function setShownDecisions(token, n) {
  localStorage.setItem(`pacw-shown-${token}`, String(n));
}

/// Page settings kept in this browser: sound, notifications, hand-over screen, pace of the opponent's moves.
export function setting(name, fallback) {
  const v = localStorage.getItem(`pacw-setting-${name}`);
  return v === null ? fallback : JSON.parse(v);
}

export function setSetting(name, value) {
  localStorage.setItem(`pacw-setting-${name}`, JSON.stringify(value));
}
