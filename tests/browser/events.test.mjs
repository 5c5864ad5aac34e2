// A battle's events on the game page (docs/scenario-format.md#events): the Reinforcements list says what is still
// to arrive, when and where, and the timed changes to come; the entry squares of the next turn's arrivals are marked
// on the board; the lobby's preview leaves the reinforcements off the board; the editor opens a file with events,
// marks the entry squares, adds and removes a group and a change, and downloads a file pacw check accepts; axe finds
// nothing serious.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, view, act, screenshots, binary } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const example = readFileSync(join(root, 'docs', 'examples', 'reinforcements.toml'), 'utf8');
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const env = serverAndBrowser();

/// Ends activations through the API until the game stands in `turn`; returns the view.
async function toTurn(url, token, turn) {
  for (let i = 0; i < 400; i++) {
    const v = await view(url, token);
    if (v.turn >= turn || v.result) return v;
    const end = v.legal_actions.find((a) => a.action === 'end_activations');
    await act(url, token, { index: end.index, decisions: v.decisions });
  }
  throw new Error(`turn ${turn} never came`);
}

async function seriousViolations(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

test('the game page lists the reinforcements to come and marks the entry squares of the next arrivals', async () => {
  const url = env.server.url;
  const { token } = await createGame(url, { scenario_text: example, scenario_file: 'reinforcements.toml', mode: 'hotseat' }, 'hotseat');
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${url}game/${token}`);
    const list = page.locator('#reinforcements');
    await list.waitFor();
    const text = await list.textContent();
    // The server draws the cards: a turn may open with the Joker, so the game may already stand past turn 1.
    const turn = (await view(url, token)).turn;
    if (turn < 3) {
      assert.match(text, /Turn 3 · Confederate Pender's Brigades: Scales's Brigade \(infantry\) at d1; Lane's Brigade \(infantry\) at d1/);
      assert.match(text, /Turn 4 · Union Union cavalry: 6th Michigan Cavalry \(cavalry\) at a8/);
      assert.match(text, /Turn 4 · Pender is up: Confederate is exhausted at 4 units lost/);
      // Not on the board, and not counted as lost.
      assert.equal(await page.locator('.unit[data-unit="8"]').count(), 0, 'Scales\'s brigade is not on the board yet');
    }
    assert.match(text, /Turn 5 · the objective d5 is worth 3 points \(C2\)/);
    // Nothing is due at the start of turn 2; d1 at turn 3's.
    if (turn < 3) assert.equal(await page.locator('[data-entry]').count(), turn === 2 ? 1 : 0, `turn ${turn}`);
    assert.deepEqual(await seriousViolations(page), [], `axe at ${viewport.width}`);
    await page.screenshot({ path: join(screenshots, `events-turn1-${viewport.width}.png`), fullPage: viewport.width < 500 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // Turn 2: Pender's brigades are due at the next turn's start; their entry square is marked.
  const page = await freshPage(env.browser);
  if ((await toTurn(url, token, 2)).turn === 2) {
    await page.goto(`${url}game/${token}`);
    await page.locator('[data-entry="d1"]').waitFor({ state: 'attached' });
    assert.equal(await page.locator('[data-entry]').count(), 1);
  }
  await page.goto(`${url}game/${token}`);
  await page.screenshot({ path: join(screenshots, 'events-turn2-1366.png') });
  // Turn 3: Scales's brigade is on d1, Lane's waits behind it and is listed as due next turn.
  // (Turn 3 or a later one: the server draws the cards, and a turn may open with the Joker.)
  const now = (await toTurn(url, token, 3)).turn;
  await page.reload();
  await page.locator('.unit[data-unit="8"]').waitFor();
  const text = await page.locator('#reinforcements').textContent();
  assert.doesNotMatch(text, /Scales's Brigade/);
  assert.ok(text.includes(`Turn ${now + 1} · Confederate Pender's Brigades (due turn 3: its entry square was held): Lane's Brigade (infantry) at d1`), text);
  await page.locator('#log', { hasText: /Reinforcements pender \(Pender's Brigades\): Confederate Scales's Brigade \(regular infantry\) arrives at d1/ }).waitFor();
  await page.locator('#log', { hasText: /cannot enter at d1, held by/ }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a battle without events shows no Reinforcements list', async () => {
  const { token } = await createGame(env.server.url, { scenario: 'meeting-engagement', mode: 'hotseat' }, 'hotseat');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .whose').waitFor();
  assert.equal(await page.locator('#reinforcements').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the editor reads, shows, adds and removes reinforcements and timed changes, and writes them back', async () => {
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${env.server.url}editor`);
    await page.locator('#editor-upload').setInputFiles({ name: 'reinforcements.toml', mimeType: 'text/plain', buffer: Buffer.from(example) });
    await page.locator('#editor-problems .check-ok').waitFor();
    const form = page.locator('#events-form');
    assert.equal(await form.locator('[data-reinforcement]').count(), 2);
    assert.equal(await form.locator('[data-change]').count(), 2);
    assert.equal(await page.locator('#reinf-0-name').inputValue(), "Pender's Brigades");
    assert.equal(await page.locator('#reinf-0-unit-1-name').inputValue(), "Lane's Brigade");
    assert.equal(await page.locator('#change-1-objective').inputValue(), 'd5');
    // The entry squares are marked; the reinforcements are not on the board.
    await page.locator('[data-entry="d1"]').first().waitFor({ state: 'attached' });
    await page.locator('[data-entry="a8"]').waitFor({ state: 'attached' });
    assert.equal(await page.locator('[data-unit]').count(), 8);
    assert.deepEqual(await seriousViolations(page), [], `axe at ${viewport.width}`);
    await page.screenshot({ path: join(screenshots, `events-editor-board-${viewport.width}.png`) });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshots, `events-editor-${viewport.width}.png`), fullPage: viewport.width < 500 });
    // Remove the second change and the Union cavalry; add a Union group due on turn 3 entering at h8, and a change
    // of the Union's exhaustion point.
    await page.click('#change-1-remove');
    await page.click('#reinf-1-remove');
    await page.click('#add-reinforcements-0');
    await page.fill('#reinf-1-turn', '3');
    await page.locator('#reinf-1-turn').press('Tab');
    await page.fill('#reinf-1-unit-0-at', 'h8');
    await page.locator('#reinf-1-unit-0-at').press('Tab');
    await page.click('#reinf-1-add-unit');
    await page.selectOption('#reinf-1-unit-1-arm', 'artillery');
    await page.click('#add-change');
    await page.selectOption('#change-1-kind', 'exhaustion');
    await page.fill('#change-1-exhaustion', '4');
    await page.locator('#change-1-exhaustion').press('Tab');
    await page.locator('#editor-problems .check-ok').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    const file = join(mkdtempSync(join(tmpdir(), 'pacw-events-')), download.suggestedFilename());
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /\[\[reinforcements\]\]\nid = "pender"\nname = "Pender's Brigades"\nside = "confederate"\nturn = 3\n/);
    assert.match(text, /\[\[reinforcements\]\]\nside = "union"\nturn = 3\n\[\[reinforcements\.units\]\]\narm = "infantry"\nat = "h8"\nfacing = "S"\n\[\[reinforcements\.units\]\]\narm = "artillery"\nat = "h8"/);
    assert.doesNotMatch(text, /6th Michigan|points = 3\n/);
    assert.match(text, /\[\[changes\]\]\nid = "pender-up"\nname = "Pender is up"\nturn = 4\nside = "confederate"\nexhaustion = 4/);
    assert.match(text, /\[\[changes\]\]\nturn = 2\nside = "union"\nexhaustion = 4/);
    const shown = execFileSync(binary, ['show', file], { encoding: 'utf8' });
    assert.match(shown, /turn 3: Reinforcements \(E2, Union\) arrive: Union inf 3 \(infantry\) at h8; Union art 2 \(artillery\) at h8/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
