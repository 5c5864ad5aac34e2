// The front end's one seam (web/js/api.js): no page talks to where the game lives but through it. Only the two places
// a game lives — the server's API (server-api.js) and the engine in the browser (browser-api.js, with its worker) —
// fetch, open an event stream or name an address of the API; only api.js imports them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'js');
const BACKENDS = ['server-api.js', 'browser-api.js', 'worker.js', 'thinker.js', 'desk.js'];
/// Pages only a server shows (features.club): their addresses are the server's.
const SERVER_ONLY = ['club.js', 'account.js'];

/// A module's code without its comments.
function code(file) {
  return readFileSync(join(web, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

test('pages reach the game only through api.js', () => {
  const pages = readdirSync(web).filter((f) => f.endsWith('.js') && !BACKENDS.includes(f));
  assert.ok(pages.includes('battle.js') && pages.includes('lobby.js') && pages.includes('api.js'));
  for (const page of pages) {
    const text = code(page);
    assert.doesNotMatch(text, /\bfetch\(|EventSource|['"`]\/api\//, `${page} talks to the server itself`);
    assert.doesNotMatch(text, /['"`]\/game\//, `${page} writes a game's address itself (gameHref)`);
    if (page !== 'api.js') assert.doesNotMatch(text, /(server|browser)-api\.js/, `${page} imports a backend`);
  }
});

test('pages name the site\'s pages through pageHref, so that the static build works from any folder of a host', () => {
  const pages = readdirSync(web).filter((f) => f.endsWith('.js') && !BACKENDS.includes(f) && !SERVER_ONLY.includes(f));
  for (const page of pages) {
    assert.doesNotMatch(code(page), /(href|src)\s*[:=]\s*['"`]\/|location\.href\s*=\s*['"`]\//, `${page} writes an address from the host's root`);
  }
});
