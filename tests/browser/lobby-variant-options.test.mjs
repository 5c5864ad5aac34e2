// The lobby's "More numbers" under a variant: the options the variant adds (its own to-hit modifiers, its own arms'
// numbers) are offered with their bounds, the variant's names and its values, and reach the game; the standard
// numbers it changes start at its values; the standard rules take them away again.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, screenshots, view } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const env = serverAndBrowser();

/// The token of the game page the browser is on.
const tokenOf = (page) => page.url().split('/game/')[1].split('?')[0];

test('a shipped variant\'s own modifier is offered in "More numbers", labelled by its name, and a changed value is the game\'s', async () => {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  await page.locator('.more-numbers summary').click();
  const numbers = page.locator('#numbers');
  const own = numbers.locator('input[name="modifier.V1"]');
  assert.equal(await own.count(), 0, 'the standard rules have no V1');
  await page.selectOption('select[name="variant"]', 'close-combat');
  await own.waitFor();
  assert.equal(await own.inputValue(), '1', 'the variant file\'s value');
  assert.deepEqual([await own.getAttribute('min'), await own.getAttribute('max')], ['-3', '3']);
  const row = numbers.locator('label.number-row', { has: page.locator('input[name="modifier.V1"]') });
  assert.match(await row.textContent(), /^Veteran élan V1/);
  assert.equal(await row.locator('a.rule').getAttribute('href'), '/rules/close-combat', 'its id links to the variant\'s rules');
  assert.equal(await page.locator('#own-numbers').textContent(), 'The variant’s own — Close combat');
  assert.match(await page.locator('.more-numbers summary').textContent(), /exhaustion; 1 of the variant’s own$/);
  // A standard number the variant changes starts at its value; another variant's own replace the first's.
  const cover = numbers.locator('input[name="modifier.cover"]');
  assert.equal(await cover.inputValue(), '-1');
  await page.selectOption('select[name="variant"]', 'hard-cover');
  await numbers.locator('input[name="modifier.H1"]').waitFor();
  assert.equal(await own.count(), 0);
  assert.equal(await cover.inputValue(), '-2', 'hard cover: cover −2');
  // The standard rules take them away, and the standard value is back.
  await page.selectOption('select[name="variant"]', '');
  assert.equal(await numbers.locator('.own-number').count(), 0);
  assert.equal(await page.locator('#own-numbers').count(), 0);
  assert.equal(await cover.inputValue(), '-1');
  // Chosen again, changed and played: the game carries it.
  await page.selectOption('select[name="variant"]', 'close-combat');
  await own.fill('3');
  await page.locator('#numbers input[name="turns"]').fill('4');
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.locator('#own-numbers').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'lobby-variant-numbers-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#own-numbers').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'lobby-variant-numbers-390.png') });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  const v = await view(env.server.url, tokenOf(page));
  assert.equal(v.scenario.rules.name, 'Close combat');
  assert.equal(v.options['modifier.V1'], '3');
  assert.equal(v.options.turns, '4');
  assert.equal(v.options['modifier.cover'], '-1', 'a number left as it was is not sent');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a variant file of one\'s own: its arm\'s numbers are offered with its values and bounds, and reach the game', async () => {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  await page.locator('.more-numbers summary').click();
  await page.selectOption('select[name="variant"]', 'own-file');
  assert.equal(await page.locator('#numbers .own-number').count(), 0, 'no file yet');
  await page.setInputFiles('#variant-file', join(root, 'docs', 'examples', 'skirmishers.toml'));
  const range = page.locator('#numbers input[name="range.skirmishers"]');
  await range.waitFor();
  const value = (name) => page.locator(`#numbers input[name="${name}"]`).inputValue();
  assert.deepEqual([await value('strength.skirmishers'), await value('move.skirmishers'), await range.inputValue()], ['3', '2', '3']);
  assert.deepEqual([await range.getAttribute('min'), await range.getAttribute('max')], ['1', '26']);
  assert.equal(await page.locator('#numbers input[name="strength.skirmishers"]').getAttribute('max'), '6');
  assert.match(await page.locator('label.number-row', { has: page.locator('input[name="range.skirmishers"]') }).textContent(), /^Skirmishers range R2\.6/);
  assert.equal(await page.locator('#own-numbers').textContent(), 'The variant’s own — Skirmishers');
  await range.fill('1');
  await page.locator('#own-numbers').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'lobby-own-variant-numbers-1366.png') });
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  const v = await view(env.server.url, tokenOf(page));
  assert.equal(v.options['range.skirmishers'], '1');
  assert.equal(v.options['strength.skirmishers'], undefined, 'unchanged, the file\'s');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/// A hot-seat game of Meeting Engagement started from the lobby under a variant file of one's own, on its page.
async function hotseatWithVariantFile(file) {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  await page.locator('.more-numbers summary').click();
  await page.selectOption('select[name="variant"]', 'own-file');
  await page.setInputFiles('#variant-file', file);
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  return page;
}

test('a variant file\'s restriction on orders is listed on the game page as forbidding orders, beside the rally roll', async () => {
  const page = await hotseatWithVariantFile(join(root, 'docs', 'examples', 'shaken-will-not-advance.toml'));
  const v = await view(env.server.url, tokenOf(page));
  assert.equal(v.scenario.rules.restrictions[0].forbids, 'orders');
  const rules = page.locator('#variant-rules');
  await rules.locator('summary').click();
  await rules.getByText('M3 shaken troops will not advance: no such order when unit.shaken and closer').waitFor();
  assert.match(await rules.textContent(), /MR1 rally test: a shaken unit activated rallies only on a die of 4 or more/);
  await rules.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'variant-orders-restricted-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await rules.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'variant-orders-restricted-390.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a variant file\'s rules on the attacker and on the hit-result roll are listed on the game page', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pacw-after-'));
  const file = join(dir, 'bloody.toml');
  writeFileSync(file, 'name = "Bloody"\n[[after_attack]]\nid = "A1"\nname = "failed charge"\n'
    + 'when = "charge and result == \'miss\'"\nattacker = "shaken"\n[[result_modifiers]]\nid = "H1"\n'
    + 'name = "veterans in cover stand firm"\nvalue = 1\nwhen = "target.quality == \'veteran\' and target.cover"\n');
  const page = await hotseatWithVariantFile(file);
  const rules = page.locator('#variant-rules');
  await rules.locator('summary').click();
  await rules.getByText('A1 failed charge: the attacker is shaken when charge and result == \'miss\'').waitFor();
  await rules.getByText('H1 +1 veterans in cover stand firm: a hit target tests its strength at +1 when').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
