// The winning chances while playing (the barometer): off by default, offered in games against the computer and
// hot-seat and remembered once switched on, never offered while two people play on two machines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serverAndBrowser, freshPage, createGame, screenshots } from './server.mjs';

const env = serverAndBrowser();

test('the barometer is a setting of hot-seat games, remembered, and never offered in a two-player game', async () => {
  const { token } = await createGame(env.server.url, { scenario: 'bloody-lane', mode: 'hotseat' }, 'hotseat');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .whose').waitFor();
  assert.equal(await page.locator('#barometer').isHidden(), true, 'off by default');
  await page.locator('.settings summary').click();
  await page.getByLabel('show the winning chances above the board').check();
  const bar = page.locator('#barometer #chances');
  await bar.waitFor();
  assert.match(await bar.getAttribute('aria-label'), /^Winning chances: Union \d+%, Confederate \d+%$/);
  await page.screenshot({ path: join(screenshots, 'barometer-1366.png') });
  await page.reload();
  await page.locator('#barometer #chances').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const two = await createGame(env.server.url, { scenario: 'bloody-lane', mode: 'two_players' }, 'A');
  const other = await freshPage(env.browser, { settings: { barometer: true } });
  await other.goto(`${env.server.url}game/${two.token}`);
  await other.locator('#status .whose').waitFor();
  await other.locator('.settings summary').click();
  assert.equal(await other.getByLabel('show the winning chances above the board').count(), 0);
  assert.equal(await other.locator('#barometer').isHidden(), true, 'never shown while two people play');
  assert.deepEqual(other.errors, []);
  await other.context().close();
});
