// Every "why not": a click on something not allowed says why, with the rule, and changes nothing. One case each:
// out of range, outside the front arc, no line of sight (the blocked line and the square that blocks it drawn),
// zone of control, river, a facing not allowed, artillery cannot move and fire, already activated on this card,
// already activated this turn (once_per_turn), and not this side's card.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, gameOnYourMove, view, act, cardFor, screenshots } from './server.mjs';

const skirmish = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

async function open(token, viewport) {
  const page = await freshPage(env.browser, viewport ? { viewport } : {});
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .you').waitFor();
  return page;
}

/// Selects a unit (and waits for its orders), then clicks `then`; returns the refusal's text once shown.
async function refusal(page, unit, ...then) {
  for (let i = 0; i < 3; i++) await page.keyboard.press('Escape'); // the order in hand, the refusal, the selection
  await page.click(`[data-unit="${unit}"]`);
  await page.locator(`#board[data-choices="${unit}"]`).waitFor({ state: 'attached' });
  for (const click of then) await page.click(click);
  const why = page.locator('#why-not');
  await why.waitFor();
  return why.textContent();
}

test('each refused click says why with its rule, and draws a blocked line of sight', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat' }, 'hotseat');
  const v = await cardFor(env.server.url, token, 'A', 2);
  const page = await open(token);
  const cases = [
    ['out of range', 1, ['[data-unit="5"]'], /Grey Foot is 3 squares away; Blue Iron Brigade's range is 2 \(R6\.1\)/],
    ['outside the front arc', 2, ['[data-unit="6"]'], /not in the front arc of Blue Battery .*\(R6\.1\)/],
    ['zone of control', 0, ['[data-square="b4"]'], /next to an enemy, where a move must stop \(R5\.2\)/],
    ['river', 0, ['[data-square="a1"]'], /a1 is a river \(R5\.1\)/],
    ['facing', 0, ['[data-square="b3"]', '[data-facing="N"]'], /must face one; N does not \(R5\.4\)/],
    ['artillery cannot move and fire', 2, ['[data-square="h2"]', '[data-facing="N"]', '[data-unit="7"]'], /artillery cannot move and fire \(R4\.3\)/],
    ['not this side\'s card', 3, ['[data-square="c4"]'], /card drawn is Blue's: only Blue units may be activated on it \(R3\.4\)/],
  ];
  for (const [what, unit, clicks, want] of cases) {
    const text = await refusal(page, unit, ...clicks);
    assert.match(text, want, what);
    assert.ok(await page.locator('#why-not a.rule').count() > 0, `${what}: the rule links to its section`);
  }
  // No line of sight: the line and the square that blocks it are drawn.
  const text = await refusal(page, 2, '[data-unit="7"]');
  assert.match(text, /no line of sight from h1 to h5: h3 blocks it \(woods, R6\.2a\)/);
  await page.locator('.refused-line.blocked').waitFor({ state: 'attached' });
  await page.locator('.blocking-square').waitFor({ state: 'attached' });
  await page.screenshot({ path: join(screenshots, 'refused-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(screenshots, 'refused-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  assert.equal((await view(env.server.url, token)).decisions, v.decisions, 'no refused click changed the game');
  // Already activated on this card: move the Horse, then ask it again.
  await page.keyboard.press('Escape');
  await page.click('[data-unit="0"]');
  await page.locator('.reachable-dot').first().waitFor();
  await page.click('[data-square="a2"]');
  await page.click('[data-facing="N"]');
  await page.click('[data-confirm]');
  await page.locator('[data-unit="0"][data-at="a2"]').waitFor();
  const again = await refusal(page, 0, '[data-square="b2"]');
  assert.match(again, /Horse was already activated on this card \(R3\.4\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('with once_per_turn a unit activated earlier in the turn says so on a later card', async () => {
  for (let attempt = 0; attempt < 10; attempt++) {
    const { token } = await createGame(env.server.url, { scenario_text: skirmish, mode: 'hotseat', options: { once_per_turn: 'true' } }, 'hotseat');
    let v = await cardFor(env.server.url, token, 'A');
    const turn = v.turn;
    // The Horse holds on this card (through the API), then the cards run on to Blue's next card of the turn.
    v = await act(env.server.url, token, { action: { activate: 0 }, decisions: v.decisions });
    v = await act(env.server.url, token, { action: 'hold', decisions: v.decisions });
    v = await view(env.server.url, token);
    if (v.active_side === 'A' && v.active_unit === null && v.legal_actions.some((a) => a.action === 'end_activations')) {
      v = await act(env.server.url, token, { action: 'end_activations', decisions: v.decisions });
    }
    v = await cardFor(env.server.url, token, 'A');
    if (v.turn !== turn) continue; // the Joker came first: try another game
    const page = await open(token);
    const text = await refusal(page, 0, '[data-square="b3"]');
    assert.match(text, /Horse was already activated this turn \(once_per_turn\) \(R3\.5\)/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return;
  }
  throw new Error('Blue never had two cards in one turn');
});

test('an enemy clicked with none of your units selected is read about, not waited on', async () => {
  // Against the computer, on the player's move: the enemy's counter shows its card, and the bar says what to do.
  const { token } = await gameOnYourMove(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'computer', human_side: 'A', computer: 'greedy' }, 'A');
  const page = await open(token);
  const v = await view(env.server.url, token);
  const enemy = v.units.find((u) => u.side === 'B' && u.alive);
  await page.click(`[data-unit="${enemy.id}"]`);
  await page.locator('#prompt', { hasText: 'is the enemy’s' }).waitFor();
  assert.doesNotMatch(await page.locator('#prompt').textContent(), /Reading/);
  assert.match(await page.locator('#info').textContent(), new RegExp(enemy.name));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('z when nothing can be taken back says why, with the rule', async () => {
  // A card has just been drawn and nobody has decided on it: chance stands, so undo is refused in words.
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat' }, 'hotseat');
  let v = await cardFor(env.server.url, token, 'A');
  if (v.decisions === 0) {
    // The game's first card: nobody has decided yet. Hold with one unit and end the card, so that one is drawn.
    v = await act(env.server.url, token, { action: { activate: v.legal_actions[0].action.activate }, decisions: v.decisions });
    v = await act(env.server.url, token, { action: 'hold', decisions: v.decisions });
    v = await view(env.server.url, token);
    const end = v.legal_actions.find((a) => a.action === 'end_activations');
    if (end) await act(env.server.url, token, { index: end.index, decisions: v.decisions });
    v = await cardFor(env.server.url, token, 'A');
  }
  assert.equal(v.undo.possible, false);
  const page = await open(token);
  await page.keyboard.press('z');
  const why = page.locator('#why-not');
  await why.waitFor();
  assert.match(await why.textContent(), /Undo is not possible: .*cannot be taken back \(R9\.1\)/);
  assert.equal((await view(env.server.url, token)).decisions, v.decisions, 'nothing changed');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
