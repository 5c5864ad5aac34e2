// The club's pages: log in or sign up (/account), a player's page (/players/{name}), the leaderboard
// (/leaderboard), the waiting room (/room, with the match maker's "Find me an opponent") and an invitation
// (/room/{id}). Every name and text from the server is put on the page as text, never as HTML.

import { api } from './api.js';
import { currentAccount, forgetAccount } from './account.js';
import { remembered } from './games.js';
import { copyText, h, when } from './util.js';
import { paceText, timeLeft } from './deadline.js';

const PACES = [['live', 'Live: both at the board, no deadline'], ['1d', '1 day a move'], ['3d', '3 days a move'], ['7d', '7 days a move']];

/// The "send this to your opponent" step: the link, Copy, and Share where the device can share.
export function sendToOpponent(url, { title = 'Send this to your opponent', note = '' } = {}) {
  const input = h('input', { value: url, readonly: true, id: 'invite-link', 'aria-label': 'The link for your opponent', onclick: (e) => e.target.select() });
  const copy = h('button', { type: 'button', id: 'copy-invite', onclick: async () => { copy.textContent = (await copyText(url)) ? 'Copied' : 'Select and copy'; } }, 'Copy');
  const share = navigator.share
    ? h('button', { type: 'button', class: 'secondary', id: 'share-invite', onclick: () => navigator.share({ title: 'A game of pacw', text: 'Join my game of pacw', url }).catch(() => {}) }, 'Share…')
    : '';
  return h('section', { class: 'panel invite', 'aria-labelledby': 'invite-title' },
    h('h2', { id: 'invite-title' }, title),
    h('p', { class: 'help' }, note || 'Whoever opens this link plays the other side: send it privately (mail, chat), then wait here or come back later.'),
    h('div', { class: 'row invite-row' }, input, copy, share));
}

function field(label, input, help) {
  return h('label', { class: 'field' }, h('span', {}, label), input, help ? h('span', { class: 'help' }, help) : '');
}

function problem(id) {
  return h('p', { class: 'error', id, role: 'alert' });
}

/// "Forgot your password?": a name or e-mail address, and the server's answer (the same whoever it names).
function forgotForm() {
  const who = h('input', { name: 'who', autocomplete: 'username', required: true, maxlength: 254, id: 'forgot-who' });
  const told = h('p', { class: 'help', id: 'forgot-told', role: 'status' });
  return h('details', { class: 'forgot' }, h('summary', {}, 'Forgot your password?'),
    h('form', { id: 'forgot-form', onsubmit: async (e) => {
      e.preventDefault();
      try { told.textContent = (await api.forgotPassword(who.value)).text; } catch (err) { told.textContent = err.message; }
    } }, field('Your name or e-mail address', who, 'If your account has an e-mail address, a link to choose a new password is sent there.'),
    h('button', { type: 'submit', class: 'secondary' }, 'Send me a link'), told));
}

/// The page a reset link opens: a new password, then log in with it.
function showReset(app, token) {
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128, id: 'reset-password' });
  const outcome = problem('reset-problem');
  const form = h('form', { class: 'panel account-form', id: 'reset-form', onsubmit: async (e) => {
    e.preventDefault();
    try {
      const done = await api.resetPassword(token, password.value);
      history.replaceState(null, '', '/account');
      form.replaceChildren(h('h2', {}, 'Password changed'),
        h('p', { id: 'reset-done' }, `The password of ${done.name} is changed, and every device logged in with the old one is logged out.`),
        h('a', { class: 'button', href: '/account' }, 'Log in'));
    } catch (err) { outcome.textContent = err.message; }
  } }, h('h2', {}, 'Choose a new password'), field('New password', password, '8 characters or more'), h('button', { type: 'submit' }, 'Change the password'), outcome);
  app.replaceChildren(h('h1', {}, 'Your account'), h('div', { class: 'account-grid' }, form));
}

/// Log in or sign up; once logged in, the account's notices and the games of this browser to add to it.
export async function showAccount(app) {
  document.title = 'Your account — pacw';
  const next = new URLSearchParams(location.search).get('next');
  const safeNext = next && /^\/[^/\\]/.test(next) && !next.startsWith('/account') ? next : null;
  const me = await currentAccount();
  const resetToken = /^#reset=([0-9a-f]{32})$/.exec(location.hash)?.[1];
  if (resetToken) {
    showReset(app, resetToken);
    return;
  }
  if (!me) {
    const loginName = h('input', { name: 'name', autocomplete: 'username', required: true, maxlength: 24, id: 'login-name' });
    const loginPassword = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, maxlength: 128, id: 'login-password' });
    const loginProblem = problem('login-problem');
    const login = h('form', { class: 'panel account-form', id: 'login-form', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api.logIn(loginName.value, loginPassword.value);
        forgetAccount();
        location.href = safeNext || '/account';
      } catch (err) { loginProblem.textContent = err.message; }
    } }, h('h2', {}, 'Log in'), field('Name', loginName), field('Password', loginPassword), h('button', { type: 'submit' }, 'Log in'), loginProblem, forgotForm());
    const name = h('input', { name: 'name', autocomplete: 'username', required: true, minlength: 2, maxlength: 24, id: 'signup-name' });
    const password = h('input', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128, id: 'signup-password' });
    const webhook = h('input', { name: 'webhook', type: 'url', maxlength: 2000, id: 'signup-webhook', placeholder: 'https://discord.com/api/webhooks/…' });
    const signupProblem = problem('signup-problem');
    const signup = h('form', { class: 'panel account-form', id: 'signup-form', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api.signUp(name.value, password.value, null, webhook.value || null);
        forgetAccount();
        location.href = safeNext || '/account';
      } catch (err) { signupProblem.textContent = err.message; }
    } }, h('h2', {}, 'Sign up'),
    h('p', { class: 'help' }, 'An account is optional: it keeps your games on every device, rates you in rated games, and lets you post games in the waiting room. Guests play by link as before.'),
    field('Name', name, '2 to 24 letters, digits, spaces, - _ . \''), field('Password', password, '8 characters or more'),
    field('Tell me of my move (optional webhook)', webhook), h('button', { type: 'submit' }, 'Sign up'), signupProblem);
    app.replaceChildren(h('h1', {}, 'Your account'), h('div', { class: 'account-grid' }, login, signup));
    return;
  }
  const email = h('input', { type: 'email', id: 'account-email', value: me.email || '', maxlength: 254, disabled: !me.email_possible, placeholder: me.email_possible ? 'you@example.org' : 'this server sends no e-mail' });
  const webhook = h('input', { type: 'url', id: 'account-webhook', value: me.webhook || '', maxlength: 2000 });
  const saved = h('p', { class: 'help', id: 'settings-saved', role: 'status' });
  const settings = h('form', { class: 'panel account-form', id: 'settings-form', onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api.accountSettings(email.value || null, webhook.value || null);
      saved.textContent = 'Saved: games you join from now on tell you there.';
    } catch (err) { saved.textContent = err.message; }
  } }, h('h2', {}, 'Tell me of my move'), h('p', { class: 'help' }, 'By default in the two-player games you join; each game can still be set on its own page.'),
  field('E-mail', email), field('Webhook', webhook), h('button', { type: 'submit' }, 'Save'), saved);
  // The games this browser plays as a guest (one side's link each), to add to the account.
  const mine = Object.entries(remembered()).filter(([, f]) => f.role === 'A' || f.role === 'B');
  const claimed = h('p', { class: 'help', id: 'claimed', role: 'status' });
  const claim = h('section', { class: 'panel' }, h('h2', {}, 'Games of this browser'),
    mine.length
      ? h('div', {}, h('p', { class: 'help' }, `${mine.length} game${mine.length === 1 ? '' : 's'} played here as a guest can be added to your account, to see them on every device.`),
        h('button', { id: 'claim-games', onclick: async () => {
          let n = 0;
          for (const [token] of mine) {
            try { await api.claim(token); n++; } catch { /* another's seat, or gone */ }
          }
          claimed.textContent = `${n} of ${mine.length} added to your account.`;
        } }, 'Add them to my account'), claimed)
      : h('p', { class: 'muted' }, 'No guest games in this browser.'));
  app.replaceChildren(h('h1', {}, `Logged in as `, me.name),
    h('p', {}, h('a', { href: `/players/${encodeURIComponent(me.name)}` }, 'Your page: games and rating'), ' · ', h('a', { href: '/room' }, 'The waiting room')),
    h('div', { class: 'account-grid' }, settings, claim));
}

function ratingText(r) {
  return r ? `${r.rating} ± ${2 * r.deviation}` : 'unrated';
}

function record(r) {
  return `${r.wins} won, ${r.losses} lost, ${r.draws} drawn`;
}

/// The time left to the side to move, or the pace: "2 days 3 hours", "time is up", "live".
function deadlineText(g) {
  if (g.left_ms === null || g.left_ms === undefined) return g.status === 'finished' ? '' : paceText(g.pace);
  if (g.vacation_until) return `${timeLeft(g.left_ms)}, stopped: on vacation`;
  return g.left_ms > 0 ? timeLeft(g.left_ms) : 'time is up';
}

const days = (n) => `${n} day${n === 1 ? '' : 's'}`;

/// The player's own vacation days: how many are left this year, and start or end a vacation.
function vacationPanel(v, reload) {
  const problemEl = problem('vacation-problem');
  const left = h('p', { id: 'vacation-left' }, `${days(v.days_left)} of ${v.days_a_year} left this year.`);
  const help = h('p', { class: 'help' }, 'While you are on vacation the clocks of your games played at a pace of days stand still: your opponents cannot claim a win on time. Live games go on as usual. A day begun counts as a day.');
  let control;
  if (v.until) {
    control = h('div', {}, h('p', { id: 'vacation-until' }, h('strong', {}, `You are on vacation until ${when(v.until)}.`)),
      h('button', { type: 'button', id: 'end-vacation', onclick: async () => {
        try { await api.endVacation(); reload(); } catch (e) { problemEl.textContent = e.message; }
      } }, 'End the vacation now'));
  } else if (v.days_left > 0) {
    const count = h('input', { type: 'number', id: 'vacation-days', min: 1, max: v.days_left, value: Math.min(7, v.days_left), required: true });
    control = h('form', { class: 'row vacation-form', id: 'vacation-form', onsubmit: async (e) => {
      e.preventDefault();
      try { await api.startVacation(Number(count.value)); reload(); } catch (err) { problemEl.textContent = err.message; }
    } }, field('Days', count), h('button', { type: 'submit', id: 'start-vacation' }, 'Start a vacation'));
  } else {
    control = h('p', { class: 'muted' }, v.days_a_year ? 'No days left: they come back on 1 January.' : 'This server gives no vacation days.');
  }
  return h('section', { class: 'panel', id: 'player-vacation' }, h('h2', {}, 'Vacation'), left, help, control, problemEl);
}

/// Whose move an unfinished game of a player's page stands at. `your_move` is the page's player's move, whoever looks
/// at the page: to the player themself it is theirs ("your move"), to anyone else the player's, by name.
function whoseMove(page, g) {
  if (page.yours) return g.your_move ? h('strong', { class: 'your-move' }, 'your move') : 'opponent’s move';
  return g.your_move ? `${page.name} to move` : 'opponent to move';
}

/// A player's page: their rating and games.
export async function showPlayer(app, name) {
  document.title = `${name} — pacw`;
  let page;
  try {
    page = await api.player(name);
  } catch (e) {
    app.replaceChildren(h('h1', {}, name), h('p', { class: 'error' }, e.message));
    return;
  }
  const rows = page.games.map((g) => h('tr', { 'data-game': g.id },
    h('td', {}, g.link ? h('a', { href: g.link }, g.title) : g.title),
    h('td', {}, g.side_name),
    h('td', {}, g.opponent),
    h('td', {}, g.status === 'finished' ? h('span', { class: `outcome ${g.outcome}` }, `${g.outcome} — ${g.result_text}`) : whoseMove(page, g)),
    h('td', {}, g.rating === 'rated' ? 'rated' : 'casual'),
    h('td', {}, deadlineText(g)),
    h('td', {}, when(g.updated_at))));
  const away = page.vacation_until && !page.yours
    ? h('section', { class: 'panel', id: 'player-away' }, h('p', {}, h('strong', {}, `On vacation until ${when(page.vacation_until)}`), ': the clocks of their games stand still.'))
    : '';
  app.replaceChildren(h('h1', {}, page.name), away,
    page.vacation ? vacationPanel(page.vacation, () => showPlayer(app, name)) : '',
    h('section', { class: 'panel', id: 'player-rating' }, h('h2', {}, 'Rating'),
      page.rating ? h('p', {}, h('strong', { class: 'rating' }, ratingText(page.rating)), ` — ${record(page.rating)} in rated games`) : h('p', { class: 'muted' }, 'No rated game yet.'),
      h('p', { class: 'help' }, 'Glicko-2, one rating over every battle; ± is the 95% range. ', h('a', { href: '/leaderboard' }, 'The leaderboard'))),
    h('section', { class: 'panel' }, h('h2', {}, page.yours ? 'Your games' : 'Games'),
      rows.length
        ? h('table', { class: 'games', id: 'player-games' }, h('tr', {}, h('th', {}, 'Battle'), h('th', {}, 'Side'), h('th', {}, 'Opponent'), h('th', {}, 'State'), h('th', {}, 'Rated'), h('th', {}, 'Time left'), h('th', {}, 'Last move')), ...rows)
        : h('p', { class: 'muted' }, 'No games yet.')));
}

/// The leaderboard: every rated player, people and computers.
export async function showLeaderboard(app) {
  document.title = 'Leaderboard — pacw';
  const { players } = await api.leaderboard();
  const rows = players.map((p, i) => h('tr', {},
    h('td', {}, String(i + 1)),
    h('td', {}, p.kind === 'account' ? h('a', { href: `/players/${encodeURIComponent(p.name)}` }, p.name) : `${p.name} (computer)`),
    h('td', { class: 'rating' }, String(p.rating)), h('td', {}, `± ${2 * p.deviation}`), h('td', {}, record(p))));
  app.replaceChildren(h('h1', {}, 'Leaderboard'),
    h('section', { class: 'panel' },
      h('p', { class: 'help' }, 'Rated games only: two people’s from the waiting room, and a person’s against the computer (so you can see how strong each computer player is). Glicko-2, one rating over every battle; a new player starts at 1500 ± 700.'),
      rows.length
        ? h('table', { class: 'games', id: 'leaderboard' }, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Player'), h('th', {}, 'Rating'), h('th', {}, 'Range'), h('th', {}, 'Record')), ...rows)
        : h('p', { class: 'muted' }, 'No rated game has ended yet.')));
}

function postingRow(p, me, refresh) {
  const join = me && !p.yours
    ? h('button', { class: 'join', onclick: async () => { location.href = (await api.join(p.id)).link; } }, 'Join')
    : !me ? h('a', { href: `/account?next=/room/${p.id}` }, 'log in to join') : '';
  const withdraw = p.yours ? h('button', { class: 'link', onclick: async () => { await api.withdraw(p.id); refresh(); } }, 'withdraw') : '';
  const side = p.side === 'random' ? 'random' : p.side_name;
  return h('tr', { 'data-posting': p.id },
    h('td', {}, p.title, p.variant ? h('span', { class: 'muted' }, ` (${p.variant})`) : ''),
    h('td', {}, p.by, p.yours ? h('span', { class: 'muted' }, ' (you)') : ''),
    h('td', {}, side), h('td', {}, paceText(p.pace)), h('td', {}, p.rating), h('td', {}, p.visibility),
    h('td', { class: 'actions' }, join, withdraw));
}

const SIZES = [['any', 'Any battle'], ['small', 'Small (up to 14 units)'], ['medium', 'Medium (15 or more)'], ['grand', 'The grand battle']];

/// "Find me an opponent": the match maker pairs the request with another player's that fits, or it waits here.
function seekPanel() {
  const size = h('select', { id: 'seek-size' }, ...SIZES.map(([v, t]) => h('option', { value: v }, t)));
  const pace = h('select', { id: 'seek-pace' }, ...PACES.map(([v, t]) => h('option', { value: v }, t)));
  const rated = h('input', { type: 'checkbox', id: 'seek-rated', checked: true });
  const state = h('div', { id: 'seek-state', role: 'status' });
  const problemEl = problem('seek-problem');
  const form = h('form', { class: 'post-form', id: 'seek-form', onsubmit: async (e) => {
    e.preventDefault();
    problemEl.textContent = '';
    try {
      show(await api.seek({ size: size.value, pace: pace.value, rating: rated.checked ? 'rated' : 'casual' }));
    } catch (err) { problemEl.textContent = err.message; }
  } },
  h('div', { class: 'post-grid' }, field('Battle', size), field('Pace', pace)),
  h('div', { class: 'row' }, h('label', {}, rated, ' Rated (no take-backs)')),
  h('button', { type: 'submit', id: 'find-opponent' }, 'Find me an opponent'), problemEl);
  const show = (s) => {
    form.hidden = s.state === 'waiting';
    if (s.state === 'waiting') {
      const sizeText = SIZES.find(([v]) => v === s.seek.size)?.[1] || s.seek.size;
      state.replaceChildren(h('p', { id: 'seek-waiting' }, `Looking for an opponent: ${sizeText.toLowerCase()}, ${paceText(s.seek.pace)}, ${s.seek.rating}. You can leave this page: your game will be on your page, and you are told of your move.`),
        h('button', { type: 'button', class: 'secondary', id: 'withdraw-seek', onclick: async () => { await api.withdrawSeek(); show(await api.mySeek()); } }, 'Stop looking'));
    } else if (s.state === 'paired' && s.link) {
      state.replaceChildren(h('p', { class: 'joined' }, 'An opponent was found: ', h('a', { href: s.link, class: 'button', id: 'open-paired' }, 'Open your game')));
    } else {
      state.replaceChildren();
    }
  };
  const refresh = async () => { try { show(await api.mySeek()); } catch { /* logged out meanwhile */ } };
  return { el: h('section', { class: 'panel', id: 'seek' }, h('h2', {}, 'Find me an opponent'),
    h('p', { class: 'help' }, 'Whoever asks for the same pace and rating, and the same size (or any), is paired with you at once, in a battle of that size drawn at random, the sides drawn too.'),
    state, form), refresh };
}

/// The waiting room: post a game, see the posted ones, join one.
export async function showRoom(app) {
  document.title = 'Waiting room — pacw';
  const [me, scenarios, info] = await Promise.all([currentAccount(), api.scenarios(), api.info()]);
  const list = h('div', { id: 'postings' });
  const waiting = h('div', { id: 'waiting' });
  const mineKey = 'pacw-postings';
  const myPostings = () => { try { return JSON.parse(localStorage.getItem(mineKey) || '[]'); } catch { return []; } };
  const refresh = async () => {
    const { postings } = await api.room();
    list.replaceChildren(postings.length
      ? h('table', { class: 'games' }, h('tr', {}, h('th', {}, 'Battle'), h('th', {}, 'Posted by'), h('th', {}, 'Their side'), h('th', {}, 'Pace'), h('th', {}, 'Rated'), h('th', {}, 'Listed'), h('th', {}, '')),
        ...postings.map((p) => postingRow(p, me, refresh)))
      : h('p', { class: 'muted' }, 'No game is waiting: post one.'));
    // Postings of this browser that someone has joined: the way into the game.
    const joined = [];
    for (const id of myPostings()) {
      const p = await api.posting(id).catch(() => null);
      if (p && p.joined && p.link) joined.push(h('p', { class: 'joined' }, `Someone joined your ${p.title}: `, h('a', { href: p.link, class: 'button', id: 'open-joined' }, 'Open your game')));
    }
    waiting.replaceChildren(...joined);
    if (seek) await seek.refresh();
  };
  let form = h('p', {}, h('a', { href: '/account?next=/room', class: 'button' }, 'Log in or sign up'), ' to post a game or join one.');
  if (me) {
    const scenario = h('select', { name: 'scenario', id: 'post-scenario' }, ...scenarios.map((s) => h('option', { value: s.name }, s.title)));
    const side = h('select', { name: 'side', id: 'post-side' });
    const showSides = () => {
      const s = scenarios.find((x) => x.name === scenario.value);
      side.replaceChildren(h('option', { value: 'random' }, 'Random'), ...s.sides.map((x) => h('option', { value: x.side }, x.name)));
    };
    scenario.addEventListener('change', showSides);
    showSides();
    const variant = h('select', { name: 'variant', id: 'post-variant' }, h('option', { value: '' }, 'Standard rules'), ...(info.variants || []).map((v) => h('option', { value: v.name }, v.title)));
    const pace = h('select', { name: 'pace', id: 'post-pace' }, ...PACES.map(([v, t]) => h('option', { value: v }, t)));
    const rated = h('input', { type: 'checkbox', id: 'post-rated', checked: true });
    const priv = h('input', { type: 'checkbox', id: 'post-private' });
    const problemEl = problem('post-problem');
    const step = h('div', { id: 'post-step' });
    form = h('form', { class: 'post-form', id: 'post-form', onsubmit: async (e) => {
      e.preventDefault();
      problemEl.textContent = '';
      try {
        const posted = await api.post({ scenario: scenario.value, variant: variant.value || null, side: side.value, pace: pace.value, rating: rated.checked ? 'rated' : 'casual', visibility: priv.checked ? 'private' : 'public' });
        localStorage.setItem(mineKey, JSON.stringify([...myPostings(), posted.id].slice(-20)));
        step.replaceChildren(sendToOpponent(new URL(posted.invite, location.href).href, {
          title: priv.checked ? 'Send this to your opponent' : 'Posted: anyone may join it here, or send this to your opponent',
          note: 'Whoever opens this link and joins plays the other side. This page shows your game as soon as they join; it is also on your page.',
        }));
        refresh();
      } catch (err) { problemEl.textContent = err.message; }
    } },
    h('div', { class: 'post-grid' }, field('Battle', scenario), field('Your side', side), field('Rules', variant), field('Pace', pace, 'Days for each move: once they pass, the waiting player may claim the win.')),
    h('div', { class: 'row' }, h('label', {}, rated, ' Rated (no take-backs)'), h('label', {}, priv, ' Private: not listed, only by its link')),
    h('button', { type: 'submit', id: 'post-game' }, 'Post the game'), problemEl);
    form = h('div', {}, form, step);
  }
  const seek = me ? seekPanel() : null;
  app.replaceChildren(h('h1', {}, 'Waiting room'), waiting, seek ? seek.el : '',
    h('section', { class: 'panel' }, h('h2', {}, 'Post a game'), form),
    h('section', { class: 'panel' }, h('h2', {}, 'Games waiting for an opponent'), list));
  await refresh();
  setInterval(refresh, 5000);
}

/// An invitation: the posted game, and Join.
export async function showInvitation(app, id) {
  document.title = 'An invitation — pacw';
  const me = await currentAccount();
  let p;
  try {
    p = await api.posting(id);
  } catch (e) {
    app.replaceChildren(h('h1', {}, 'An invitation'), h('p', { class: 'error' }, e.message), h('p', {}, h('a', { href: '/room' }, 'The waiting room')));
    return;
  }
  const problemEl = problem('join-problem');
  const theirSide = p.side === 'random' ? 'a side drawn at random' : p.side_name;
  let action;
  if (p.joined) action = p.link ? h('a', { class: 'button', href: p.link }, 'Open your game') : h('p', { class: 'muted' }, 'Someone has joined this game already.');
  else if (p.yours) action = sendToOpponent(location.href);
  else if (!me) action = h('p', {}, h('a', { class: 'button', href: `/account?next=${encodeURIComponent(location.pathname)}` }, 'Log in or sign up to join'));
  else action = h('button', { id: 'join-game', onclick: async () => {
    try { location.href = (await api.join(id)).link; } catch (e) { problemEl.textContent = e.message; }
  } }, `Join and play ${p.title}`);
  app.replaceChildren(h('h1', {}, `${p.by} invites you to ${p.title}`),
    h('section', { class: 'panel' },
      h('p', {}, `${p.by} plays ${theirSide}; pace: ${paceText(p.pace)}; ${p.rating}${p.variant ? `; rules: ${p.variant}` : ''}.`),
      action, problemEl));
}
