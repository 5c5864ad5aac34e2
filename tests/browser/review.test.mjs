// The end of a game and its review: resigning, the result screen (score, losses, luck ledger with misses), the
// save download, a rematch with the sides swapped, removing a game from "your games", and the replay: a slider that
// follows while dragged, a clickable move list, the arrow keys, and each decision's moves drawn as arrows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, view, act, screenshots } from './server.mjs';

const skirmish = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

/// Plays `n` decisions through the API, moving a unit when it can (so the replay has arrows to draw).
async function playSome(token, n) {
  let v = await view(env.server.url, token);
  for (let i = 0; i < n && !v.result; i++) {
    const at = v.active_unit !== null ? v.units[v.active_unit].at : null;
    const pick = v.legal_actions.find((a) => a.action.move && a.action.move.to !== at) || v.legal_actions.find((a) => a.action.activate !== undefined) || v.legal_actions[0];
    v = await act(env.server.url, token, { index: pick.index, decisions: v.decisions });
    v = await view(env.server.url, token);
  }
  return v;
}

test('resign, read the result, download the save, rematch with the sides swapped, remove the game', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'computer', human_side: 'A', computer: 'random' }, 'A');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .whose').waitFor();
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  const result = page.locator('#result-screen:not([hidden])');
  await result.waitFor();
  const text = await result.textContent();
  assert.match(text, /Grey\s*wins/);
  assert.match(text, /Blue resigned/);
  assert.match(text, /points Blue \d+, Grey \d+/);
  // The random computer may have moved (and shot) before the resignation: how many it destroyed is the dice's.
  assert.match(text, /Blue\s*lost [0-3] of 3 units/);
  assert.match(text, /Grey\s*lost [0-5] of 5 units/);
  assert.match(text, /hit\s*miss\s*shaken\s*retreat\s*destroyed/, 'the ledger has the miss column');
  await page.locator('#log', { hasText: 'Blue resigns' }).waitFor();
  // The save, as pacw replay reads it.
  const href = await page.locator('#download-save').getAttribute('href');
  const save = await (await fetch(new URL(href, env.server.url))).json();
  assert.equal(save.format, 'pacw-save');
  assert.equal(save.resigned, 'A');
  await page.screenshot({ path: join(screenshots, 'resigned-1366.png') });
  // The rematch: the same battle, now playing Grey.
  await page.click('#rematch');
  await page.waitForURL((u) => !u.pathname.endsWith(token));
  await page.locator('.battle-title', { hasText: 'you play Grey' }).waitFor();
  // Remove the first game from "your games".
  await page.goto(env.server.url);
  await page.locator(`#your-games tr[data-token="${token}"]`).waitFor();
  await page.locator(`#your-games tr[data-token="${token}"] button`, { hasText: 'remove' }).click();
  await page.locator(`#your-games tr[data-token="${token}"]`).waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the replay: the slider follows while dragged, the move list and the arrow keys step, moves are drawn', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat' }, 'hotseat');
  const v = await playSome(token, 12);
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}game/${token}?replay`);
  const board = page.locator('#board');
  await page.locator('#replay-slider').waitFor();
  assert.equal(await page.locator('#replay-slider').getAttribute('max'), String(v.decisions));
  // Dragging: every input event shows its decision, not only the last.
  const seen = [];
  for (const k of [3, 6, 9]) {
    await page.locator('#replay-slider').evaluate((el, k) => { el.value = k; el.dispatchEvent(new Event('input')); }, k);
    await page.locator(`#board[data-decisions="${k}"]`).waitFor();
    seen.push(Number(await board.getAttribute('data-decisions')));
  }
  assert.deepEqual(seen, [3, 6, 9]);
  // Keys step; Home and End jump.
  await page.keyboard.press('ArrowRight');
  await page.locator('#board[data-decisions="10"]').waitFor();
  await page.keyboard.press('Home');
  await page.locator('#board[data-decisions="0"]').waitFor();
  await page.keyboard.press('End');
  await page.locator(`#board[data-decisions="${v.decisions}"]`).waitFor();
  // The move list: a decision that moved a unit shows its arrow.
  const moves = page.locator('#move-list button', { hasText: /Move to/ }); // each moved to another square
  await moves.first().click();
  const step = Number(await moves.first().getAttribute('data-step'));
  await page.locator(`#board[data-decisions="${step}"]`).waitFor();
  await page.locator('.last-move').first().waitFor({ state: 'attached' });
  assert.match(await page.locator('#move-list button.current').textContent(), /Move to/);
  await page.screenshot({ path: join(screenshots, 'replay-1366.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
