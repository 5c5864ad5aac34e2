// The web app in real headless Chromium: a game against the computer, and two players in two browsers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, watchErrors, screenshots } from './server.mjs';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'face-off.toml');
const env = serverAndBrowser();

/** The element's box, asked again while the page re-renders it (the server's first update after a reload can
 * replace the board between finding it and measuring it, which gives no box). */
async function settledBox(locator) {
  for (let tries = 0; tries < 50; tries++) {
    const box = await locator.boundingBox();
    if (box) return box;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the element never stayed on the page long enough to be measured');
}

/// Waits until it is this page's turn (the computer or the other player may move first).
async function waitForMyMove(page) {
  await page.locator('#status .you').waitFor({ timeout: 30000 });
}

test('a game against the computer: select a unit, see its squares and odds, attack, read the result', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  watchErrors(page, errors);
  await page.goto(env.server.url);
  // Upload the scenario (checked by the server), play Blue against the random player.
  await page.setInputFiles('input[type=file]', fixture);
  await page.locator('.panel h2', { hasText: 'Face-off' }).waitFor();
  await page.selectOption('select[name=mode]', 'computer');
  await page.selectOption('select[name=human_side]', 'A');
  await page.selectOption('select[name=computer]', 'random');
  await page.click('#start');
  await page.waitForURL(/\/game\/[0-9a-f]+$/);
  await waitForMyMove(page);
  // Activate the brigade by clicking its counter (it has the green ring of a unit that may be activated).
  await page.locator('.unit[data-unit="0"] .selectable-ring').waitFor();
  await page.click('.unit[data-unit="0"]');
  await page.locator('#status', { hasText: 'orders for Blue Brigade' }).waitFor();
  // Its legal squares are marked on the board, and its target is ringed.
  assert.ok(await page.locator('.reachable').count() > 0, 'reachable squares are shown');
  await page.locator('.unit[data-unit="2"] .target-ring').waitFor();
  // Click the target: the attack orders are listed; choose Fire and read the exact odds before confirming.
  await page.click('.unit[data-unit="2"]');
  const fire = page.locator('.order.attack', { hasText: /^Fire at Grey Brigade/ });
  await fire.first().click();
  const odds = page.locator('#odds');
  await odds.waitFor();
  const oddsText = await odds.textContent();
  assert.match(oddsText, /needs 4\+/, 'fire without moving: 5+ less R6.4 +1');
  assert.match(oddsText, /R6\.4 \+1 attacker did not move/);
  assert.match(oddsText, /miss\s*1\/2/);
  await page.screenshot({ path: join(screenshots, 'odds.png'), fullPage: true });
  await page.click('#confirm');
  // The attack and its die appear in the log and in the dice tray.
  await page.locator('#log', { hasText: 'Blue Brigade (regular infantry) fires at Grey Brigade' }).waitFor();
  await page.locator('#log div', { hasText: /rolls \d: (hit|miss)/ }).first().waitFor();
  assert.ok(await page.locator('#dice .die').count() >= 1, 'the die is shown');
  await page.screenshot({ path: join(screenshots, 'battle.png'), fullPage: true });
  // The same page on a phone-sized screen: board and orders are still there.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const box = await settledBox(page.locator('.board'));
  assert.ok(box.width <= 390, `the board fits a phone screen (${box.width}px)`);
  await page.screenshot({ path: join(screenshots, 'battle-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('two players in two browsers: a move in one appears in the other', async () => {
  const lobby = await env.browser.newPage();
  const errors = [];
  watchErrors(lobby, errors);
  await lobby.goto(env.server.url);
  await lobby.setInputFiles('input[type=file]', fixture);
  await lobby.locator('.panel h2', { hasText: 'Face-off' }).waitFor();
  await lobby.selectOption('select[name=mode]', 'two_players');
  await lobby.click('#start');
  const linkA = await lobby.locator('input[data-role=A]').inputValue();
  const linkB = await lobby.locator('input[data-role=B]').inputValue();
  assert.notEqual(linkA, linkB, 'each side has its own private link');
  const contextA = await env.browser.newContext();
  const contextB = await env.browser.newContext();
  const pageA = await contextA.newPage();
  const pageB = await contextB.newPage();
  watchErrors(pageA, errors);
  watchErrors(pageB, errors);
  await pageA.goto(linkA);
  await pageB.goto(linkB);
  await pageA.locator('#status').waitFor();
  await pageB.locator('#status').waitFor();
  // Exactly one of them may move; it activates its first unit and holds.
  const aMoves = (await pageA.locator('#status .you').count()) > 0;
  const [mover, watcher] = aMoves ? [pageA, pageB] : [pageB, pageA];
  assert.equal(await watcher.locator('#status .you').count(), 0, 'the other side waits');
  const before = await watcher.locator('#log div').count();
  await mover.locator('.selectable-ring').first().waitFor();
  await mover.locator('.unit:has(.selectable-ring)').first().click();
  await mover.locator('.order', { hasText: /^Hold$/ }).click();
  await mover.click('#confirm');
  // The watcher's page updates by itself (server-sent events), without a reload.
  await watcher.locator('#log div', { hasText: /holds \(R4\.2\)/ }).waitFor({ timeout: 10000 });
  assert.ok((await watcher.locator('#log div').count()) > before);
  // A side's link cannot act for the other side: the watcher has no orders while it is not its turn.
  if ((await watcher.locator('#status .you').count()) === 0) {
    assert.equal(await watcher.locator('#confirm').count(), 0);
  }
  await watcher.screenshot({ path: join(screenshots, 'two-players.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await contextA.close();
  await contextB.close();
  await lobby.close();
});
