// The rules a game kept in this browser is played by (`#/game/{id}?rules`): the page a server writes at
// /game/{token}/rules — the rules of play under the tables of the variant that plays it — made by the engine in the
// worker, for a variant of the player's own has no page in the static build (a shipped variant's has, rules/{name}/).

import { api, gameHref, pageHref } from './api.js';
import { h, prepareReading, setRulesPage } from './util.js';

export async function showRules(app, token, section) {
  let page;
  try {
    page = await api.rules(token);
  } catch (e) {
    app.replaceChildren(h('h1', {}, 'The rules of this game'), h('p', { class: 'error' }, `They cannot be shown: ${e.message}`), h('a', { href: pageHref('') }, 'Back to the lobby'));
    return;
  }
  document.title = `${page.title} — pacw`;
  app.classList.add('reading');
  // The engine's own page: the variant's words in it are written as text, never as markup (pacw_play::rules).
  app.innerHTML = page.html;
  // Its addresses from a server's root (the rules of play, the guide) lead to this build's pages.
  for (const a of app.querySelectorAll('a[href^="/"]')) {
    const [path, hash] = a.getAttribute('href').slice(1).split('#');
    a.href = `${pageHref(path)}${hash ? `#${hash}` : ''}`;
  }
  // Rule ids lead to their sections of this page, as they do on the server's.
  setRulesPage(gameHref(token, 'rules'));
  prepareReading(app);
  app.append(h('p', {}, h('a', { href: gameHref(token) }, 'Back to the game')));
  const target = section && document.getElementById(section);
  if (target) {
    target.classList.add('target-section');
    target.scrollIntoView();
  }
}
