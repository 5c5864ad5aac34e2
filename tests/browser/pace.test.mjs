// The playback of the other side's decisions: paced by what happened (web/js/pace.js, tested alone), said to be a
// playback and not thinking, and skipped to the present at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pauseFor } from '../../web/js/pace.js';
import { serverAndBrowser, freshPage, createGame, view } from './server.mjs';

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
