// Whose turn, and what happened: two players in two browsers, the other side's decisions played back with the moving
// unit marked, "since your last decision", the page title, the side colours from the scenario, a game against the
// computer that opens before the computer's first move is shown, and a page that follows again after a restart.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, view, act, cardFor, startServer, screenshots } from './server.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const skirmish = readFileSync(join(fixtures, 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

test('two players: the mover sees "Your move" in the title, the other sees the move played back and summarised', async () => {
  const { created } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'two_players' }, 'A');
  const url = env.server.url;
  const pages = {};
  for (const side of ['A', 'B']) {
    pages[side] = await freshPage(env.browser, { settings: { pace: 300 } });
    await pages[side].goto(`${url}game/${created.tokens[side]}`);
    await pages[side].locator('#status .whose').waitFor();
  }
  const v = await view(url, created.tokens.A);
  const mover = pages[v.to_act.side];
  const watcher = pages[v.to_act.side === 'A' ? 'B' : 'A'];
  assert.equal(await mover.title(), '(Your move) pacw');
  assert.notEqual(await watcher.title(), '(Your move) pacw');
  // The status bar names the side to move in its own colour (the scenario's counter colour for Grey).
  const colour = await mover.locator('#status .side-tag').first().evaluate((e) => getComputedStyle(e).color);
  assert.ok(['rgb(43, 76, 126)', 'rgb(139, 58, 58)'].includes(colour), colour);
  const greyFill = await mover.locator('.unit.side-B .counter-body').first().getAttribute('fill');
  assert.equal(greyFill, '#8b3a3a', 'Grey counters take the scenario\'s counter colour');
  // The mover activates a unit and holds, by the board.
  const unit = mover.locator('.unit:has(.selectable-ring)').first();
  const id = await unit.getAttribute('data-unit');
  await unit.click();
  await mover.click('[data-order="hold"]');
  // The watcher's page follows by itself, marks the unit that acted, and lists what happened since its last decision.
  await watcher.locator('#since', { hasText: /holds \(R4\.2\)/ }).waitFor({ timeout: 10000 });
  assert.match(await watcher.locator('#since').textContent(), /is activated/);
  await watcher.locator(`[data-unit="${id}"] .highlight-ring`).waitFor({ state: 'attached' });
  await watcher.locator('#log', { hasText: /holds \(R4\.2\)/ }).waitFor();
  await watcher.screenshot({ path: join(screenshots, 'two-players-1366.png') });
  // The log never shrinks to the last lines after an action.
  const lines = await mover.locator('#log .log-line').count();
  assert.ok(lines >= 4, `the mover's log keeps every line (${lines})`);
  assert.equal(await watcher.locator('#log .log-line').count(), lines);
  for (const p of Object.values(pages)) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test('against the computer the page opens on the start and shows the computer\'s first moves paced', async () => {
  // The computer plays Blue, which moves first as often as not: retry until it does.
  for (let attempt = 0; attempt < 20; attempt++) {
    const { created, token } = await createGame(env.server.url, { scenario_text: skirmish, mode: 'computer', human_side: 'B', computer: 'random' }, 'B');
    if (created.view.to_act.side !== 'A') continue;
    // Remember whether a unit was ever ringed: the playback may be over before a locator looks.
    const init = () => {
      window.sawRing = false;
      new MutationObserver(() => {
        if (document.querySelector('.highlight-ring')) window.sawRing = true;
      }).observe(document, { childList: true, subtree: true });
    };
    const page = await freshPage(env.browser, { settings: { pace: 400 }, init });
    await page.goto(`${env.server.url}game/${token}`);
    // The computer's decisions are played back one by one: the page shows them being shown.
    await page.locator('#status .playing').waitFor({ timeout: 15000 });
    await page.locator('#status .you').waitFor({ timeout: 60000 });
    assert.ok(await page.locator('#since li').count() > 0, 'the computer\'s moves are summarised');
    // A unit the computer activated, held or moved was ringed while shown (a computer that only ended its
    // activations rings nothing).
    const steps = (await (await fetch(`${env.server.url}api/play/${token}/replay`)).json()).steps;
    const unitActed = steps.some((s) => s.side === 'A' && s.events.some((e) => ['activated', 'held', 'moved'].includes((e.event || e).event)));
    if (unitActed) assert.ok(await page.evaluate(() => window.sawRing), 'the unit that acted was ringed');
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return;
  }
  throw new Error('the computer never moved first in 20 games');
});

test('after a server restart an open page says it is reconnecting, then follows the other side again', async () => {
  const server = await startServer();
  try {
    const { token } = await createGame(server.url, { scenario_text: skirmish, mode: 'hotseat' }, 'hotseat');
    const page = await freshPage(env.browser);
    await page.goto(`${server.url}game/${token}`);
    await page.locator('#status .whose').waitFor();
    await server.restart();
    await page.locator('#reconnecting').waitFor({ timeout: 10000 }).catch(() => {});
    await page.locator('#reconnecting').waitFor({ state: 'detached', timeout: 20000 });
    // A decision made elsewhere after the restart reaches the page.
    const v = await cardFor(server.url, token, 'A');
    await act(server.url, token, { action: 'end_activations', decisions: v.decisions });
    await page.waitForFunction((n) => Number(document.querySelector('#board').dataset.decisions) > n, v.decisions, { timeout: 10000 });
    assert.deepEqual(page.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    await page.context().close();
  } finally {
    await server.remove();
  }
});

test('a tap selects on a touch screen; a sound and a notification say when it becomes your move', async () => {
  const { created } = await createGame(env.server.url, { scenario_text: skirmish, mode: 'two_players' }, 'A');
  // Record the sound and the notification instead of making them; the page is not the focused window.
  const init = () => {
    window.announced = [];
    window.AudioContext = class {
      constructor() { this.currentTime = 0; this.destination = {}; }
      createOscillator() { return { frequency: {}, connect: (g) => g, start: () => window.announced.push('sound'), stop() {} }; }
      createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
    };
    window.Notification = class {
      static permission = 'granted';
      static requestPermission() { return Promise.resolve('granted'); }
      constructor(title) { window.announced.push(`notification: ${title}`); }
    };
    document.hasFocus = () => false;
  };
  const url = env.server.url;
  const v = await view(url, created.tokens.A);
  const waiting = v.to_act.side === 'A' ? 'B' : 'A';
  const page = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true }, settings: { sound: true, notify: true }, init });
  await page.goto(`${url}game/${created.tokens[waiting]}`);
  await page.locator('#status .whose', { hasText: 'Waiting for' }).waitFor();
  // A tap on a counter selects it and shows its details.
  await page.tap('[data-unit="3"]');
  await page.locator('#info', { hasText: 'Vedettes' }).first().waitFor();
  // The other player ends his cards until it is this page's move.
  for (let now = v; now.to_act.side !== waiting; now = await view(url, created.tokens.A)) {
    await act(url, created.tokens[now.to_act.side], { action: 'end_activations', decisions: now.decisions });
  }
  await page.locator('#status .you').waitFor({ timeout: 10000 });
  await page.waitForFunction(() => window.announced.length >= 2);
  const announced = await page.evaluate(() => window.announced);
  assert.ok(announced.includes('sound'), announced.join());
  assert.ok(announced.includes('notification: pacw: your move'), announced.join());
  assert.match(await page.locator('.settings').textContent(), /only on https or localhost/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a two-player game page takes a webhook to be told of your move (e-mail only where the server sends it)', async () => {
  const { created } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'two_players' }, 'A');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}game/${created.tokens.B}`);
  await page.locator('#status .whose').waitFor();
  await page.locator('.settings summary').click();
  await page.locator('#notify-form').waitFor();
  await page.waitForFunction(() => document.querySelector('#notify-email').disabled);
  await page.fill('#notify-webhook', 'https://discord.com/api/webhooks/1/abc');
  await page.click('#notify-save');
  await page.locator('#notify-status', { hasText: 'Saved: you will be told' }).waitFor();
  const stored = await (await fetch(`${env.server.url}api/play/${created.tokens.B}/notify`)).json();
  assert.equal(stored.webhook, 'https://discord.com/api/webhooks/1/abc');
  // A bad URL is refused in words.
  await page.fill('#notify-webhook', 'not a url');
  await page.evaluate(() => { document.querySelector('#notify-webhook').type = 'text'; });
  await page.click('#notify-save');
  await page.locator('#notify-status', { hasText: 'is not a webhook URL' }).waitFor();
  assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), [], 'no error but the refusal asked for');
  await page.context().close();
});
