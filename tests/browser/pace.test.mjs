// The playback of the other side's decisions: paced by what happened (web/js/pace.js, tested alone), said to be a
// playback and not thinking, and skipped to the present at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pauseFor } from '../../web/js/pace.js';
import { serverAndBrowser, freshPage, createGame, view, act, screenshots } from './server.mjs';

const skirmish = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

test('a decision stays on screen by what it did: an activation not at all, a move briefly, an attack longest', () => {
  const pace = 700;
  const activated = [{ event: { event: 'activated', unit: 1 } }];
  const moved = [{ event: { event: 'moved', unit: 1, from: 'a1', to: 'a2' } }];
  const attack = [{ event: { event: 'attack', attacker: 1, target: 2 } }, { event: { event: 'to_hit_rolled', roll: 5 } }];
  const card = [{ event: 'card_drawn' }];
  assert.equal(pauseFor(activated, pace), 0, 'its order follows at once');
  assert.ok(pauseFor(moved, pace) > 0 && pauseFor(moved, pace) < pace);
  assert.ok(pauseFor(attack, pace) > pace, 'the dice take longest');
  assert.ok(pauseFor(card, pace) < pauseFor(moved, pace));
  assert.equal(pauseFor(attack, 0), 0, 'at once means at once');
});

test('the computer\'s moves are played back as such, and "skip to my move" goes straight to the present', async () => {
  // Whose card comes first is the dice's: each attempt is an even chance, so sixteen all failing is 1 in 65,536.
  for (let attempt = 0; attempt < 16; attempt++) {
    // The computer (greedy, Blue) may move first; the player watches at the slowest pace.
    const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'computer', human_side: 'B', computer: 'greedy' }, 'B');
    const v = await yourMove(env.server.url, token);
    if (!v || v.decisions < 3) continue; // the game ended first, or Grey's card came first: nothing to play back
    const page = await freshPage(env.browser, { settings: { pace: 1200 } });
    await page.goto(`${env.server.url}game/${token}`);
    const playing = page.locator('#playing-back');
    await playing.waitFor();
    assert.match(await playing.textContent(), /Playing back Blue’s move… skip to my move/);
    assert.doesNotMatch(await page.locator('#status').textContent(), /thinking/);
    await page.click('#skip-playback');
    await page.locator('#playing-back').waitFor({ state: 'detached' });
    await page.waitForFunction((n) => Number(document.querySelector('#board').dataset.decisions) >= n, v.decisions);
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return;
  }
  throw new Error('the computer never moved first');
});

test('an attack that ends the card keeps its dice under the board while the other side moves, until the player moves on', async () => {
  const url = env.server.url;
  // Whose card follows the attack is the deck's: each attempt is about an even chance that it is the computer's.
  for (let attempt = 0; attempt < 12; attempt++) {
    const { token } = await createGame(url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'computer', human_side: 'A', computer: 'greedy' }, 'A');
    let v = await yourMove(url, token);
    if (!v) continue;
    // Hold the other units (through the API) until the Iron Brigade's order is the card's last activation.
    const orders = async (unit) => (await fetch(`${url}api/play/${token}/units/${unit}`)).json();
    const fire = (await orders(1)).orders?.find((o) => o.action.fire);
    if (!fire) continue;
    for (const unit of [0, 2]) {
      const ready = v.legal_actions.some((a) => a.action.activate === unit);
      if (!ready || v.activations_left <= 1) continue;
      v = await act(url, token, { action: { activate: unit }, decisions: v.decisions });
      v = await act(url, token, { action: 'hold', decisions: v.decisions });
    }
    if (v.activations_left > 1 && v.legal_actions.some((a) => a.action.activate !== undefined && a.action.activate !== 1)) continue;
    const target = v.units[fire.action.fire.target].name;
    const page = await freshPage(env.browser);
    await page.goto(`${url}game/${token}`);
    await page.locator('#status .you').waitFor();
    await page.click('[data-unit="1"]');
    await page.locator(`[data-unit="${fire.action.fire.target}"] .target-ring`).waitFor();
    await page.click(`[data-unit="${fire.action.fire.target}"]`);
    await page.click('[data-confirm]');
    // Fire, or a charge when the target stands next to it.
    await page.locator('#last-roll', { hasText: `at ${target}: Blue rolled` }).waitFor();
    const mine = (await view(url, token)).decisions;
    // The computer's decisions follow, if the next card is its own.
    let after = null;
    for (let i = 0; i < 100 && !after; i++) {
      const now = await view(url, token);
      if (now.result || (now.your_turn && now.decisions === mine)) break;
      if (now.decisions > mine) after = now;
      else await new Promise((r) => setTimeout(r, 100));
    }
    if (!after) {
      await page.context().close();
      continue;
    }
    await page.waitForFunction((n) => Number(document.querySelector('#board').dataset.decisions) > n, mine);
    await page.waitForTimeout(300);
    assert.match(await page.locator('#last-roll').textContent(), new RegExp(`at ${target}: Blue rolled \\d`), 'the dice of the attack are still under the board');
    await page.screenshot({ path: join(screenshots, 'roll-kept-1366.png') });
    // Moving on: a unit of one's own selected on one's next move puts them away.
    const next = await yourMove(url, token);
    if (next) {
      await page.locator('#status .you').waitFor();
      const unit = next.legal_actions.find((a) => a.action.activate !== undefined)?.action.activate;
      if (unit !== undefined) {
        await page.click(`[data-unit="${unit}"]`);
        await page.locator(`#board[data-choices="${unit}"]`).waitFor({ state: 'attached' });
        assert.equal(await page.locator('#last-roll', { hasText: `at ${target}: Blue rolled` }).count(), 0, 'moved on: the old dice are put away');
      }
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return;
  }
  throw new Error('the computer never moved after an attack that ended the card');
});

/// The game's view once it is the player's move: the computer's decisions before it take however long a busy machine
/// makes them take (a fixed wait was a flaky test); null if the computer won before the player could move.
async function yourMove(url, token) {
  for (let i = 0; i < 300; i++) {
    const v = await view(url, token);
    if (v.result) return null;
    if (v.your_turn) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the computer never finished its move');
}
