// Accessibility: axe-core 4 in Chromium finds no serious or critical violation on the lobby (with a game in
// progress), a game in progress with a unit selected, the result screen, the review, the rules and the editor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, cardFor } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const skirmish = readFileSync(join(here, 'fixtures', 'skirmish.toml'), 'utf8');
const finishedSave = readFileSync(join(here, 'fixtures', 'random-against-greedy.json'), 'utf8');
const env = serverAndBrowser();

/// The serious and critical violations axe finds on the page as it stands, one line each.
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  return result;
}

test('axe-core finds no serious or critical violation on any page, at 1366 and 390', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat' }, 'hotseat');
  await cardFor(env.server.url, token, 'A', 2);
  const finished = (await createGame(env.server.url, { save: finishedSave, mode: 'hotseat' }, 'hotseat')).token;
  const pages = [
    ['lobby', '', async (page) => page.locator('#your-games tr[data-token]').first().waitFor()],
    ['a game with a unit selected', `game/${token}`, async (page) => {
      await page.locator('#status .you').waitFor();
      await page.click('[data-unit="1"]');
      await page.locator('#board[data-choices="1"]').waitFor({ state: 'attached' });
    }],
    ['the result screen', `game/${finished}`, async (page) => page.locator('#result-screen:not([hidden])').waitFor()],
    ['the review', `game/${finished}?review`, async (page) => page.locator('#review-graph svg .chances-line').waitFor({ timeout: 60000 })],
    ['the rules', 'rules', async (page) => page.locator('h1').first().waitFor()],
    ['the editor', 'editor', async (page) => page.locator('[data-square]').first().waitFor()],
  ];
  const found = [];
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    for (const [what, path, ready] of pages) {
      const page = await freshPage(env.browser, { viewport, init: `localStorage.setItem('pacw-games', JSON.stringify({ ${JSON.stringify(token)}: { added: 1 } }))` });
      await page.goto(`${env.server.url}${path}`);
      await ready(page);
      for (const v of await violations(page)) found.push(`${what} at ${viewport.width}: ${v}`);
      await page.context().close();
    }
  }
  assert.deepEqual(found, []);
});
