// A newcomer's whole game: Marye's Heights against the computer, from the lobby to the result and the luck ledger,
// by clicking only what the page offers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serverAndBrowser, watchErrors, screenshots } from './server.mjs';

const env = serverAndBrowser();

test("Marye's Heights against the computer, played to the end by clicks", { timeout: 600000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  watchErrors(page, errors);
  await page.goto(env.server.url);
  await page.click('.scenario-card[data-name="maryes-heights"]');
  await page.selectOption('select[name=mode]', 'computer');
  await page.selectOption('select[name=human_side]', 'B');
  await page.selectOption('select[name=computer]', 'greedy');
  await page.click('#start');
  await page.waitForURL(/\/game\/[0-9a-f]+$/);
  let decisions = 0;
  for (let step = 0; step < 2000; step++) {
    // The page re-renders whenever the computer moves, so wait for something to do, and if a click misses
    // because the page changed under it, look again.
    await page.locator('#result, .order').first().waitFor({ timeout: 60000 });
    if (await page.locator('#result').count()) break;
    try {
      const activating = await page.locator('.unit .selectable-ring').count();
      if (activating && step % 3 === 2) {
        await page.click('#end-activations', { timeout: 2000 });
      } else if (activating) {
        await page.locator('.unit:has(.selectable-ring)').first().click({ timeout: 2000 });
        await page.locator('#status', { hasText: 'orders for' }).waitFor({ timeout: 5000 });
      } else {
        // The unit's orders: take the first attack if there is one, else the first order listed.
        const attack = page.locator('.order.attack');
        await ((await attack.count()) ? attack.first() : page.locator('.order').first()).click({ timeout: 2000 });
        await page.click('#confirm', { timeout: 2000 });
      }
      decisions++;
    } catch (e) {
      if (e.name !== 'TimeoutError') throw e;
    }
  }
  await page.locator('#result').waitFor();
  const result = await page.locator('#result').textContent();
  assert.match(result, /Game over: .*(wins|draw)/);
  await page.locator('#ledger').waitFor();
  assert.ok(decisions > 10, `the human made ${decisions} decisions`);
  await page.screenshot({ path: join(screenshots, 'game-over.png'), fullPage: true });
  assert.deepEqual(errors, []);
});
