// Starts a pacw server for a test on a free port with an empty data directory, and Debian's headless Chromium.

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const screenshots = join(root, 'target', 'browser-screenshots');

/// The pacw binary the tests run.
export const binary = process.env.PACW_BIN || join(root, 'target', 'debug', 'pacw');

/// Runs `pacw serve` on 127.0.0.1 (any free port) with a fresh data directory; resolves with
/// { url, stop, restart, remove }. `restart` stops it and starts it again on the same port and data, as after an
/// upgrade or a crash; `remove` stops it and deletes its data. `args` are more arguments of `pacw serve` (such as
/// `--test-clock`).
export async function startServer({ args = [] } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'pacw-browser-'));
  let child = null;
  const spawnOn = (addr) => {
    child = spawn(binary, ['serve', '--addr', addr, '--data', data, '--computer-delay-ms', '50', '--games-per-hour', '1000000', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`pacw serve did not start:\n${out}`)), 20000);
      const onData = (chunk) => {
        out += chunk;
        const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`pacw serve exited with ${code}:\n${out}`)));
    });
  };
  const url = await spawnOn('127.0.0.1:0');
  const stop = () => new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  const restart = async () => {
    await stop();
    await spawnOn(new URL(url).host);
  };
  // Stops the server for good and removes its data folder.
  const remove = async () => {
    await stop();
    rmSync(data, { recursive: true, force: true });
  };
  return { url, stop, restart, remove };
}

/// Debian's Chromium, headless, with a fresh profile and no background networking.
export async function launchBrowser() {
  mkdirSync(screenshots, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/// Fails the test on any error the page throws.
export function watchErrors(page, errors) {
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
}

/// One server and one browser for a test file: started before its tests, stopped after them.
/// Returns an object whose `server` and `browser` are set once the tests run. `args`: more arguments of the server.
export function serverAndBrowser({ args = [] } = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer({ args });
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.remove();
  });
  return env;
}

/// A new page in a fresh browser context whose local storage has the given page settings (by default the other
/// side's moves shown at once, and no hot-seat hand-over screen), with more context options (`context`) and a script
/// run before the page's own (`init`); its errors are collected in `page.errors`.
export async function freshPage(browser, { viewport = { width: 1366, height: 900 }, settings = {}, context: more = {}, init = null } = {}) {
  const context = await browser.newContext({ viewport, ...more });
  if (init) await context.addInitScript(init);
  const all = { pace: 0, handover: false, ...settings };
  await context.addInitScript((all) => {
    for (const [k, v] of Object.entries(all)) localStorage.setItem(`pacw-setting-${k}`, JSON.stringify(v));
  }, all);
  const page = await context.newPage();
  const errors = [];
  watchErrors(page, errors);
  page.errors = errors;
  return page;
}

/// Creates a game through the API: { created, token } for the role asked.
export async function createGame(url, request, role) {
  const reply = await fetch(`${url}api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  const created = await reply.json();
  if (reply.status !== 201) throw new Error(`cannot create the game: ${JSON.stringify(created)}`);
  return { created, token: created.tokens[role] };
}

/// Creates games against the computer until one stands at the player's move with the game not over, and returns
/// { created, token, view } of it: the seed is the server's, and in a small battle the computer may win before the
/// player ever moves (the skirmish fixture: about one game in six).
export async function gameOnYourMove(url, request, role) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { created, token } = await createGame(url, request, role);
    for (let i = 0; i < 300; i++) {
      const v = await view(url, token);
      if (v.result) break;
      if (v.your_turn) return { created, token, view: v };
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('twenty games in a row ended before the player could move');
}

/// The game's view for a token, from the API.
export async function view(url, token) {
  return (await fetch(`${url}api/play/${token}`)).json();
}

/// Acts through the API (for setting a position up quickly).
export async function act(url, token, body) {
  const reply = await fetch(`${url}api/play/${token}/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (reply.status !== 200) throw new Error(`refused: ${await reply.text()}`);
  return reply.json();
}

/// Hot-seat: ends activations (through the API) until `side` chooses a unit on a card with at least `left`
/// activations; returns the view.
export async function cardFor(url, token, side, left = 1) {
  for (let i = 0; i < 400; i++) {
    const v = await view(url, token);
    const ready = v.active_side === side && v.active_unit === null && (v.activations_left ?? 99) >= left && v.legal_actions.some((a) => a.action.activate !== undefined);
    if (ready) return v;
    if (v.result) throw new Error('the game ended first');
    const end = v.legal_actions.find((a) => a.action === 'end_activations');
    await act(url, token, { index: end.index, decisions: v.decisions });
  }
  throw new Error(`${side} never got a card of ${left}`);
}

/// An element's box, asked again while the page redraws it (a redraw between finding and measuring gives none).
export async function settledBox(locator) {
  for (let tries = 0; tries < 50; tries++) {
    const box = await locator.boundingBox().catch(() => null);
    if (box) return box;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the element never stayed on the page long enough to be measured');
}
