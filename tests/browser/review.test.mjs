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
  // The move list: one line an order (its activation folded in), not one a decision.
  const lines = await page.locator('#move-list button').allTextContents();
  assert.ok(lines.length - 1 < v.decisions, `${lines.length - 1} lines for ${v.decisions} decisions`);
  assert.ok(lines.filter((t) => /Activate /.test(t)).length <= 1, `no activation line of its own but a last one: ${lines}`);
  assert.ok(lines.some((t) => /^(Blue|Grey) \S.* at [a-h]\d: (Move to|Hold|Fire)/.test(t)), `an order names its unit: ${lines}`);
  assert.ok(!lines.some((t) => /^(Blue|Grey) (Blue|Grey) /.test(t)), `the side named once: ${lines}`);
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

const finishedSave = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'random-against-greedy.json'), 'utf8');

test('the review: winning chances as a graph, each side’s figures, a flagged decision with the better order drawn', async () => {
  // A finished game of Meeting Engagement, random (Union) against greedy (`pacw play --players random,greedy --seed 4`).
  const { token } = await createGame(env.server.url, { save: finishedSave, mode: 'hotseat' }, 'hotseat');
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${env.server.url}game/${token}`);
    await page.locator('#result-screen:not([hidden])').waitFor();
    await page.click('#review-button');
    await page.waitForURL(/\?review$/);
    await page.locator('#review-graph svg .chances-line').waitFor();
    await page.locator('#review-summary').waitFor();
    assert.match(await page.locator('#review').textContent(), /Accuracy[\s\S]*Luck-adjusted result/);
    // The replay shows each position's winning chances.
    await page.locator('#replay-info #chances').waitFor();
    // A click on the graph moves the replay there.
    const graph = page.locator('#review-graph svg');
    const box = await graph.boundingBox();
    await graph.click({ position: { x: box.width * 0.6, y: box.height / 2 } });
    await page.waitForFunction(() => Number(document.querySelector('#board').dataset.decisions) > 0);
    // The random side's decisions are flagged; one shows the order given and the better one on the board.
    const flagged = page.locator('#flagged button');
    assert.ok(await flagged.count() > 0, 'a random player’s decisions are flagged');
    assert.match(await page.locator('#flagged li').first().textContent(), /(Inaccuracy|Mistake|Blunder) −\d+\.\d[\s\S]*Better: /);
    // Each item's number stands beside its first line, not its last: found where the list's marker is (left of the
    // item), at the height of the first line of an item of several lines.
    await page.locator('#flagged').scrollIntoViewIfNeeded();
    const numbers = await page.evaluate(() => {
      const list = document.querySelector('#flagged').getBoundingClientRect();
      const shown = (r) => r.top >= Math.max(0, list.top) && r.bottom <= Math.min(innerHeight, list.bottom);
      return [...document.querySelectorAll('#flagged li')].map((li) => {
        const text = document.createRange();
        text.selectNodeContents(li.querySelector('button'));
        const rects = [...text.getClientRects()];
        const [first, last] = [rects[0], rects[rects.length - 1]];
        // Items of one line tell nothing; those scrolled out of the list's box cannot be seen.
        if (!first || Math.abs(last.top - first.top) < 5 || !shown(first) || !shown(last)) return null;
        const x = li.getBoundingClientRect().left - 6;
        const at = (r) => document.elementFromPoint(x, r.top + r.height / 2) === li;
        return { first: at(first), last: at(last) };
      }).filter(Boolean);
    });
    assert.ok(numbers.length > 0, 'an item of several lines');
    assert.ok(numbers.every((n) => n.first && !n.last), `the numbers beside the first lines: ${JSON.stringify(numbers)}`);
    await flagged.first().click();
    await page.locator('#plans-shown').waitFor();
    await page.locator('.better-move, .better-attack').first().waitFor({ state: 'attached' });
    const name = viewport.width > 500 ? 'review-1366.png' : 'review-390.png';
    await page.screenshot({ path: join(screenshots, name), fullPage: viewport.width < 500 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
