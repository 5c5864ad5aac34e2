// The one seam between the pages and where the game lives: the server's JSON API (server-api.js), or the engine
// compiled to WebAssembly in this browser (browser-api.js, a Web Worker), chosen once by the page's
// `<meta name="pacw-games" content="browser">` (the static build writes it). Both answer the same calls with the
// same JSON (docs/api.md), so no page knows which it talks to; what only a server can do (two players on two
// machines, notices, the editor's checks, accounts and the club's pages) is told by `features`, and addresses by `route` and `gameHref`.

import { server } from './server-api.js';
import { browser } from './browser-api.js';

const inBrowser = document.querySelector('meta[name="pacw-games"]')?.content === 'browser';

// The static build keeps its files for offline play (its sw.js); the server's pages do not register one.
if (inBrowser && 'serviceWorker' in navigator) navigator.serviceWorker.register(new URL('../sw.js', import.meta.url)).catch(() => {});

/// Every call: `api.view(token)`, `api.act(token, action, decisions)`, … (each returns a promise of the JSON).
export const api = inBrowser ? browser : server;

/// What this place offers: `twoPlayers`, `watch`, `notices`, `editor`, `balance` (the editor's test of a battle's
/// balance by playing games), `upload` (a scenario file of one's own), and
/// whether the games themselves are kept in this browser (`storedHere`) rather than on a server.
export const features = api.features;

/// Hands the logged-in session's anti-forgery token to the server's API (account.js; the browser keeps no accounts).
export const setCsrf = (token) => api.setCsrf?.(token);

/// The address of a game's page: `what` is '', 'replay' or 'review'.
export const gameHref = (token, what) => api.gameHref(token, what);

/// The address of a page of the site: '' the lobby, `rules` (with `#R6.4` after it for a rule), `guide`, `format`,
/// `review`, `editor`, `rules/{variant}` — from the site's root on a server, relative to the build's folder in the
/// static build, which any folder of a host serves.
export const pageHref = (name) => api.pageHref(name);
