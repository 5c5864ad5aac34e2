// The static build (scripts/static), installable (its manifest whole), played with the network gone: served once by a
// plain static server from a folder of the host (/games/pacw/, every other address refused), which then stops, with the
// browser context offline too. The lobby, a whole game against the computer (the engine in a Web Worker, compiled to
// WebAssembly) and its review, the scenario editor (its checks and estimate in the worker, a variant file's terrain
// too) starting a game, a hot-seat game of an uploaded scenario kept across a reload, and a unit's orders answered
// while the general thinks (in a worker of its own), all come from the service worker's cache and the browser's own
// storage; the first game's save then loads on a pacw server and in the CLI and replays to the very same events, from
// the same seed and decisions.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { binary, launchBrowser, screenshots, startServer, watchErrors, settledBox } from './server.mjs';
import { buildStatic, removeStatic, serveStatic } from './static.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let site = null;
let host = null;
let browser = null;

before(() => {
  site = buildStatic();
});

after(async () => {
  await browser?.close();
  await host?.stop();
  if (site) removeStatic(site);
});

/// A page of the static build at phone size whose context has the other side's moves shown at once.
async function phonePage() {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await context.addInitScript(() => localStorage.setItem('pacw-setting-pace', '0'));
  const page = await context.newPage();
  page.errors = [];
  watchErrors(page, page.errors);
  return page;
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/// The serious and critical violations axe-core finds on the page as it stands, one line each.
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${v.id} (${v.impact}): ${v.nodes[0].target.join(' ')}`);
  });
}

/// The folder of the host the static build is served from: every address of the app is relative to it.
const FOLDER = '/games/pacw/';

/// The page's api (api.js: the worker, in the static build) called in the page.
function inPage(page, method, ...args) {
  return page.evaluate(async ([m, a]) => (await import(new URL('js/api.js', document.baseURI))).api[m](...a), [method, args]);
}

test('the static build plays a whole game against the computer offline, reviews it, and its save replays on the server and in the CLI', { timeout: 900000 }, async () => {
  host = await serveStatic(site, FOLDER);
  browser = await launchBrowser();
  const page = await phonePage();
  await page.goto(host.url);
  await page.locator('.scenario-card').first().waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Installable: Chromium finds the manifest whole and nothing against installing it but the test's private profile.
  const cdp = await page.context().newCDPSession(page);
  assert.deepEqual((await cdp.send('Page.getAppManifest')).errors, []);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), []);
  // The network goes: the static server stops and the browser is offline. Everything from here is the cache's.
  await host.stop();
  const servedBefore = host.requests.count;
  await page.context().setOffline(true);
  await page.reload();
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  const modes = await page.locator('select[name=mode] option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(modes, ['computer', 'hotseat'], 'only the modes that need no server are offered');
  assert.equal(await page.locator('#open-editor').count(), 1, 'the editor is offered');
  assert.deepEqual(await violations(page), [], 'the offline lobby');
  await page.selectOption('select[name=mode]', 'computer');
  await page.selectOption('select[name=human_side]', 'A');
  await page.selectOption('select[name=computer]', 'greedy');
  const started = Date.now();
  await page.click('#start');
  await page.waitForURL(/#\/game\/[0-9a-f]{32}$/);
  await page.locator('#status .you').waitFor({ timeout: 60000 });
  const firstMove = Date.now() - started;
  await page.screenshot({ path: join(screenshots, 'offline-game-390.png') });
  assert.deepEqual(await violations(page), [], 'the offline game');
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: join(screenshots, 'offline-game-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  const token = page.url().match(/#\/game\/([0-9a-f]{32})/)[1];

  // The person holds with a unit now and then and otherwise ends their activations; the computer plays its own.
  let holds = 0;
  for (let step = 0; step < 2000; step++) {
    await page.locator('#status .you, #result-screen:not([hidden])').first().waitFor({ timeout: 120000 });
    if (await page.locator('#result-screen:not([hidden])').count()) break;
    const before = await page.locator('#board').getAttribute('data-decisions');
    try {
      const ready = page.locator('.unit:has(.selectable-ring)');
      if (step % 3 === 0 && await ready.count()) {
        await ready.first().click({ timeout: 2000 });
        await page.click('[data-order="hold"]', { timeout: 2000 });
        holds++;
      } else {
        await page.click('[data-order="end"]', { timeout: 2000 });
      }
      await page.waitForFunction((n) => document.querySelector('#board')?.dataset.decisions !== n, before, { timeout: 20000 });
    } catch (e) {
      if (e.name !== 'TimeoutError') throw e;
      await page.keyboard.press('Escape');
    }
  }
  const result = page.locator('#result-screen:not([hidden])');
  await result.waitFor();
  assert.match(await result.textContent(), /Game over/);
  assert.ok(holds >= 1, 'the person gave no order');
  await page.screenshot({ path: join(screenshots, 'offline-result-390.png') });
  const view = await inPage(page, 'view', token);
  const save = await inPage(page, 'saveText', token);

  // The review, made in the browser's worker.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.click('#review-button');
  await page.locator('#review-summary').waitFor({ timeout: 600000 });
  await page.locator('#decided').waitFor();
  await page.screenshot({ path: join(screenshots, 'offline-review-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(screenshots, 'offline-review-390.png') });
  assert.deepEqual(await violations(page), [], 'the offline review');
  // The review is kept with the game: opened again (a new worker), it is there without being asked for.
  await page.reload();
  await page.locator('#review-summary').waitFor();
  assert.equal((await inPage(page, 'review', token)).state, 'done');
  // Hot-seat on a scenario file of one's own (checked in the browser), still offline: an order given, and the game
  // as it stands after the page is opened again (IndexedDB).
  // A second page of the same browser (its service worker and its storage), as a player opens another tab.
  const tab = await page.context().newPage();
  tab.errors = [];
  watchErrors(tab, tab.errors);
  // The editor: a shipped battle opened, checked and estimated in the worker, a planted problem marked, and a game
  // of it started.
  await tab.goto(host.url);
  await tab.click('#open-editor');
  await tab.waitForURL(/#\/editor$/);
  await tab.selectOption('#start-from', 'meeting-engagement');
  await tab.locator('#editor-problems .check-ok').waitFor();
  await tab.locator('#estimate', { hasText: 'Estimated balance' }).waitFor();
  await tab.click('[data-tool="terrain:river"]');
  await tab.locator('[data-square="c2"]').scrollIntoViewIfNeeded();
  const c2 = await settledBox(tab.locator('[data-square="c2"]'));
  await tab.mouse.click(c2.x + 5, c2.y + c2.height - 5);
  await tab.locator('[data-problem="c2"]').waitFor();
  assert.match(await tab.locator('#editor-problems').textContent(), /c2.*river/);
  await tab.click('#undo');
  await tab.locator('#editor-problems .check-ok').waitFor();
  // A variant file of one's own as the rules, read in the worker: its entrenchments join the palette and are
  // painted; taken back, the standard rules again.
  await tab.setInputFiles('#variant-upload', join(root, 'docs', 'examples', 'entrenchments.toml'));
  await tab.click('[data-tool="terrain:trench"]');
  const d4 = await settledBox(tab.locator('[data-square="d4"]'));
  await tab.mouse.click(d4.x + 5, d4.y + d4.height - 5);
  await tab.locator('.own-terrain-mark').waitFor();
  await tab.locator('#editor-problems .check-ok').waitFor();
  await tab.click('#undo');
  await tab.locator('.own-terrain-mark').waitFor({ state: 'detached' });
  await tab.selectOption('#battle-variant', '');
  await tab.locator('[data-tool="terrain:trench"]').waitFor({ state: 'detached' });
  await tab.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await tab.locator('#test-balance').count(), 0, 'testing the balance by playing games needs a server');
  assert.deepEqual(await tab.locator('#play-mode option').evaluateAll((os) => os.map((o) => o.value)), ['hotseat', 'computer']);
  await tab.screenshot({ path: join(screenshots, 'offline-editor-390.png'), fullPage: true });
  assert.deepEqual(await violations(tab), [], 'the offline editor');
  await tab.click('#play');
  await tab.waitForURL(/#\/game\/[0-9a-f]{32}$/);
  await tab.locator('#status .you').waitFor();
  await tab.goto(host.url);
  await tab.setInputFiles('#upload', join(fixtures, 'skirmish.toml'));
  await tab.locator('#detail h2', { hasText: 'Skirmish' }).waitFor();
  await tab.selectOption('select[name=mode]', 'hotseat');
  await tab.uncheck('input[name=handover]');
  assert.equal(await tab.evaluate(() => document.documentElement.scrollWidth), 390, 'the lobby with a finished game fits the phone');
  await tab.click('#start');
  await tab.waitForURL(/#\/game\/[0-9a-f]{32}$/);
  await tab.locator('#status .you').waitFor();
  await tab.locator('.unit:has(.selectable-ring)').first().click();
  await tab.click('[data-order="hold"]');
  await tab.waitForFunction(() => Number(document.querySelector('#board')?.dataset.decisions) >= 2);
  const hotseat = await tab.locator('#board').getAttribute('data-decisions');
  await tab.reload();
  await tab.locator('#status .you').waitFor();
  assert.equal(await tab.locator('#board').getAttribute('data-decisions'), hotseat, 'the hot-seat game is kept as it stood');
  // A game played by a shipped variant leads to that variant's rules page, a page of the build two folders down,
  // whose own addresses (its stylesheet, its links to the rules of play) lead back into the build.
  const varied = await tab.evaluate(async () => {
    const { api } = await import(new URL('js/api.js', document.baseURI));
    return (await api.create({ mode: 'hotseat', scenario: 'meeting-engagement', variant: 'close-combat' })).id;
  });
  await tab.goto(`${host.url}#/game/${varied}`);
  const variantRules = await tab.locator('#variant-rules-page').getAttribute('href');
  assert.equal(variantRules, `${FOLDER}rules/close-combat/`);
  const reading = await page.context().newPage();
  await reading.goto(new URL(variantRules, host.url).href);
  assert.match(await reading.title(), /Close combat/);
  assert.ok(await reading.evaluate(() => document.styleSheets[0].cssRules.length > 0), 'its stylesheet is there');
  assert.equal(await reading.locator('a.rules-link').evaluate((a) => a.href), `${host.url}rules/`);
  await reading.close();
  // A variant of one's own has no page in the build: the engine in the worker makes it, as the server does its
  // /game/{token}/rules, the variant's words shown as written.
  const own = readFileSync(join(root, 'variants', 'close-combat.toml'), 'utf8').replace('name = "Close combat"', 'name = "<i>Mine</i>"');
  const mine = await tab.evaluate(async (text) => {
    const { api } = await import(new URL('js/api.js', document.baseURI));
    return (await api.create({ mode: 'hotseat', scenario: 'meeting-engagement', variant_text: text, variant_file: 'mine.toml' })).id;
  }, own);
  await tab.goto(host.url);
  await tab.goto(`${host.url}#/game/${mine}`);
  assert.equal(await tab.locator('#variant-rules-page').getAttribute('href'), `./#/game/${mine}?rules`);
  await tab.goto(`${host.url}#/game/${mine}?rules`);
  await tab.locator('h1', { hasText: 'The rules of this game' }).waitFor();
  assert.match(await tab.title(), /The rules of this game: <i>Mine<\/i>/);
  assert.equal(await tab.locator('#reading i, main i').count(), 0, 'the variant\'s words are text, not markup');
  assert.equal(await tab.locator('a', { hasText: 'The standard rules alone' }).evaluate((a) => a.href), `${host.url}rules/`);
  const ruleLink = tab.locator('main a.rule', { hasText: 'R6.4' }).first();
  assert.equal(await ruleLink.getAttribute('href'), `./#/game/${mine}?rules#R6.4`);
  await ruleLink.click();
  await tab.locator('#R6\\.4.target-section').waitFor();
  assert.deepEqual(await violations(tab), [], 'the rules of a variant of one\'s own, offline');
  // While the general thinks (in its own worker), the games' worker answers a unit's orders at once: of the game as
  // it stands, the computer's decision not yet made.
  const thinking = await tab.evaluate(async () => {
    const { api } = await import(new URL('js/api.js', document.baseURI));
    const created = await api.create({ mode: 'computer', scenario: 'meeting-engagement', human_side: 'B', computer: 'general' });
    let v = created.view;
    for (let i = 0; i < 60; i++) {
      if (v.to_act?.computer) {
        const mine = v.units.find((u) => u.side === v.role && u.alive);
        const orders = await api.unit(created.id, mine.id);
        return { decisions: v.decisions, answered: orders.decisions, refusal: orders.refusal?.message || orders.refusal?.reason || JSON.stringify(orders.refusal) };
      }
      if (v.your_turn) v = await api.actIndex(created.id, 0, v.decisions);
      else {
        await new Promise((resolve) => setTimeout(resolve, 50));
        v = await api.view(created.id);
      }
    }
    return null;
  });
  assert.ok(thinking, 'the computer came to act');
  assert.equal(thinking.answered, thinking.decisions, 'the unit is answered before the computer\'s decision is played');
  assert.deepEqual(tab.errors, []);
  assert.equal(host.requests.count, servedBefore, 'nothing reached the network once it was gone');
  assert.deepEqual(host.requests.outside, [], 'nothing was asked for outside the app\'s folder');
  assert.deepEqual(page.errors, []);

  // The save is today's save file: the CLI replays it to the same events, and `pacw play --load` opens it.
  const file = join(tmpdir(), `pacw-offline-${token}.json`);
  writeFileSync(file, save);
  const replayed = JSON.parse(execFileSync(binary, ['replay', file, '--json'], { encoding: 'utf8' }));
  const events = view.log.map((e) => e.event);
  assert.deepEqual(replayed, events, 'the CLI replays the save to the events played in the browser');
  const loaded = execFileSync(binary, ['play', '--load', file], { encoding: 'utf8', input: '' });
  assert.match(loaded, new RegExp(view.result.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  // A pacw server opens it too, to the same events and result.
  const server = await startServer();
  try {
    const reply = await fetch(`${server.url}api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ save, mode: 'hotseat' }) });
    const created = await reply.json();
    assert.equal(reply.status, 201, JSON.stringify(created));
    assert.deepEqual(created.view.log.map((e) => e.event), events, 'the server replays the save to the same events');
    assert.deepEqual(created.view.result, view.result);
  } finally {
    await server.remove();
  }

  // Measurements for docs/PERFORMANCE.md, never assertions.
  const wasm = statSync(join(site, 'pacw.wasm')).size;
  const measured = { wasm_bytes: wasm, first_move_ms_390: firstMove, decisions: view.decisions };
  console.log(`offline: pacw.wasm ${Math.round(wasm / 1024)} KiB; Start to the first move at 390×844: ${firstMove} ms`);
  writeFileSync(join(screenshots, 'offline-measure.json'), JSON.stringify(measured, null, 1));
});
