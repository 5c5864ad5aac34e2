// Who is logged in: asked of the server once a page (`GET /api/me`), its anti-forgery token handed to api.js, and
// shown in the header (the player's name and Log out, or Log in). Guests need none of it.

import { api, setCsrf } from './api.js';
import { h } from './util.js';

let asked = null;

/// The logged-in account ({ name, email, webhook, csrf, email_possible }), or null for a guest.
export function currentAccount() {
  if (!asked) {
    asked = api.me().then((me) => {
      setCsrf(me.account?.csrf);
      return me.account;
    }).catch(() => null);
  }
  return asked;
}

/// Forgets what was known (after logging in or out).
export function forgetAccount() {
  asked = null;
  setCsrf(null);
}

/// The header's links to the club's pages and the account's place: its name and Log out, or Log in.
export async function showAccountInHeader() {
  const nav = document.querySelector('header.top nav.top-nav');
  if (!nav) return;
  const slot = nav.querySelector('.account-slot') || h('span', { class: 'account-slot' });
  if (!slot.parentNode) nav.prepend(h('a', { href: '/room' }, 'Waiting room'), ' ', h('a', { href: '/leaderboard' }, 'Leaderboard'), ' ', slot);
  const me = await currentAccount();
  if (!me) {
    slot.replaceChildren(h('a', { href: `/account?next=${encodeURIComponent(location.pathname)}`, id: 'log-in-link' }, 'Log in'));
    return;
  }
  const out = h('button', { class: 'link', id: 'log-out', onclick: async () => {
    try { await api.logOut(); } finally { forgetAccount(); location.href = '/'; }
  } }, 'Log out');
  slot.replaceChildren(h('a', { href: `/players/${encodeURIComponent(me.name)}`, id: 'my-page' }, me.name), ' ', out);
}
