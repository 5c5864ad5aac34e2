// The editor places no unit on terrain that the rules in force say no unit may enter (R1.5, R5.1): the standard
// river, a variant's own impassable kind (named by its name, with the square), and not a river a variant makes
// passable; a unit dragged there stays where it was; the engine's check refuses such a battle too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, screenshots, settledBox } from './server.mjs';

const env = serverAndBrowser();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pacw-impassable-'));
/// A variant with a kind of its own that no unit may enter.
const MARSHES = 'name = "Marshes"\n[[terrain]]\nid = "marsh"\nname = "deep marsh"\nletter = "M"\nmove = "impassable"\n';
/// A variant that makes the river passable: entering it ends a move.
const SHALLOWS = 'name = "Shallows"\n[[terrain]]\nid = "river"\nmove = "stop"\n';

/// Clicks a square near its corner, beside any counter standing on it.
async function square(page, name) {
  const box = await settledBox(page.locator(`[data-square="${name}"]`));
  await page.mouse.click(box.x + 5, box.y + box.height - 5);
}

/// The squares of the editor's units, as it keeps its work.
const unitSquares = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('pacw-editor')).units.map((u) => u.at));

/// A new 6 × 6 board played by a variant file of one's own (`name`, `text`), with `paint` painted at c3 and a unit
/// at b1.
async function boardWith(page, name, text, paint) {
  const file = join(dir, name);
  writeFileSync(file, text);
  await page.goto(`${env.server.url}editor`);
  await page.fill('#new-width', '6');
  await page.fill('#new-height', '6');
  await page.click('#new-board');
  await page.setInputFiles('#variant-upload', file);
  await page.locator(`[data-tool="terrain:${paint}"]`).waitFor();
  await page.locator('#editor-problems').waitFor();
  await page.click(`[data-tool="terrain:${paint}"]`);
  await square(page, 'c3');
  await page.click('[data-tool="unit:place"]');
  await square(page, 'b1');
  assert.deepEqual(await unitSquares(page), ['b1']);
}

test('a variant\'s own impassable terrain takes no unit, placed or dragged, and the engine refuses one there too', async () => {
  const page = await freshPage(env.browser);
  await boardWith(page, 'marshes.toml', MARSHES, 'marsh');
  await square(page, 'c3');
  await page.locator('.editor-hint', { hasText: 'A unit cannot stand on a deep marsh (R1.5): c3.' }).waitFor();
  assert.deepEqual(await unitSquares(page), ['b1'], 'no unit placed on the marsh');
  // Dragged there, the unit stays where it was, and the hint says why again.
  await square(page, 'e5');
  assert.deepEqual(await unitSquares(page), ['b1', 'e5']);
  await page.evaluate(() => { document.querySelector('.editor-hint').textContent = ''; });
  const from = await settledBox(page.locator('[data-square="b1"]'));
  const to = await settledBox(page.locator('[data-square="c3"]'));
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
  await page.mouse.up();
  await page.locator('.editor-hint', { hasText: 'A unit cannot stand on a deep marsh (R1.5): c3.' }).waitFor();
  assert.deepEqual(await unitSquares(page), ['b1', 'e5'], 'the unit dragged onto the marsh stays at b1');
  await page.screenshot({ path: join(screenshots, 'editor-impassable-1366.png') });
  // The standard river still takes none.
  await page.click('[data-tool="terrain:river"]');
  await square(page, 'd4');
  await page.click('[data-tool="unit:place"]');
  await square(page, 'd4');
  await page.locator('.editor-hint', { hasText: 'A unit cannot stand on a river (R1.5): d4.' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // The engine's check (what the editor's problems come from) refuses a battle with a unit there, naming it.
  const battle = readFileSync(join(root, 'docs', 'examples', 'entrenched.toml'), 'utf8')
    .replace('variant = "entrenchments.toml"\n', '').replace(/^at = "[a-h]\d"/m, 'at = "c3"').replace('EEEEEEW.', 'MMMMMMW.')
    .replace('.WEEEEEE', '.WMMMMMM');
  const reply = await (await fetch(`${env.server.url}api/scenarios/check`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: battle, file: 'b.toml', variant_text: MARSHES, variant_file: 'marshes.toml' }),
  })).json();
  assert.equal(reply.ok, false);
  assert.match(reply.message, /at c3: a unit cannot stand on deep marsh, impassable \(R1\.5\)/);
});

test('a river the rules in force make passable takes a unit', async () => {
  const page = await freshPage(env.browser);
  await boardWith(page, 'shallows.toml', SHALLOWS, 'river');
  await square(page, 'c3');
  assert.deepEqual(await unitSquares(page), ['b1', 'c3']);
  assert.doesNotMatch(await page.locator('.editor-hint').textContent(), /cannot stand/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
