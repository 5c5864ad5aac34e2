// Layout and accessibility, and the defects once seen: at 1366×900 the board, the card drawn and the orders are on
// the screen without scrolling; on a phone the digits are legible and the orders right under the board; the page
// announces only new log lines; the shaken badge keeps off the strength digit; north–south sunken roads run north–
// south; the objective's tooltip can be hovered; Enter on an order button keeps the focus.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, view, act, cardFor, settledBox, screenshots } from './server.mjs';

const skirmish = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

function inside(box, viewport) {
  return box && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 1 && box.y + box.height <= viewport.height + 1;
}

test('at 1366×900 every shipped battle shows the board, the card and the orders without scrolling', async () => {
  const scenarios = await (await fetch(`${env.server.url}api/scenarios`)).json();
  const viewport = { width: 1366, height: 900 };
  for (const s of scenarios) {
    const { token } = await createGame(env.server.url, { scenario: s.name, mode: 'hotseat' }, 'hotseat');
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${env.server.url}game/${token}`);
    await page.locator('#status .you').waitFor();
    for (const [what, sel] of [['board', '.board'], ['card', '#card'], ['orders', '#order-bar'], ['confirm', '[data-confirm]']]) {
      assert.ok(inside(await settledBox(page.locator(sel)), viewport), `${s.name}: the ${what} is on the screen`);
    }
    // The page is not read out whole on each update: only the log announces, line by line.
    assert.equal(await page.locator('#app[aria-live]').count(), 0);
    assert.equal(await page.locator('#log[role="log"]').count(), 1);
    if (s.name === 'bloody-lane') {
      await page.locator('.unit:has(.selectable-ring)').first().click();
      await page.locator('.reachable-dot').first().waitFor();
      await page.screenshot({ path: join(screenshots, 'unit-selected-1366.png') });
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the settings are found on the first screen: beside the title at 1366×800 and on a phone, every one at hand once open', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, mode: 'hotseat' }, 'hotseat');
  await cardFor(env.server.url, token, 'A');
  for (const viewport of [{ width: 1366, height: 800 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${env.server.url}game/${token}`);
    await page.locator('#status .you').waitFor();
    // A unit selected, as in play: its card beside the board is long.
    await page.click('[data-unit="1"]');
    await page.locator('#board[data-choices="1"]').waitFor({ state: 'attached' });
    // On the screen as it opens, and not under anything (a scrolled side column hides what is below its fold).
    const atHand = (sel) => page.evaluate((sel) => {
      const e = document.querySelector(sel);
      const r = e.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      const at = document.elementFromPoint(x, y);
      return e === at || e.contains(at);
    }, sel);
    assert.ok(await atHand('.settings > summary'), `the settings are on the first screen at ${viewport.width}×${viewport.height}`);
    await page.click('.settings > summary');
    for (const sel of ['#setting-sound', '#setting-notify', '#setting-pace', '#setting-barometer']) {
      assert.ok(await atHand(sel), `${sel} at hand at ${viewport.width}×${viewport.height}`);
    }
    assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled to reach them');
    await page.screenshot({ path: join(screenshots, `settings-${viewport.width}.png`) });
    // A press elsewhere puts them away.
    await page.mouse.click(5, viewport.height - 5);
    await page.locator('#setting-pace').waitFor({ state: 'hidden' });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('on a phone the counters are legible and the orders sit right under the board', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, mode: 'hotseat' }, 'hotseat');
  await cardFor(env.server.url, token, 'A');
  const viewport = { width: 390, height: 844 };
  const page = await freshPage(env.browser, { viewport });
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .you').waitFor();
  const digit = await settledBox(page.locator('[data-unit="1"] .counter-text').last());
  assert.ok(digit.height >= 9, `the strength digit is ${digit.height}px tall`);
  assert.ok(inside(await settledBox(page.locator('#order-bar')), viewport), 'the order bar is on the first screen');
  await page.click('[data-unit="1"]');
  await page.locator('[data-unit="4"] .target-ring').waitFor();
  await page.click('[data-unit="4"]');
  await page.locator('#odds').waitFor();
  await page.screenshot({ path: join(screenshots, 'odds-390.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the drawing: shaken badge apart from the strength, north–south sunken road, objective tooltip, focus kept', async () => {
  const url = env.server.url;
  const { token } = await createGame(url, { scenario_text: skirmish, mode: 'hotseat' }, 'hotseat');
  // Fire until a Grey unit is shaken (through the API).
  let shaken = null;
  for (let i = 0; i < 200 && shaken === null; i++) {
    let v = await cardFor(url, token, 'A');
    let fired = false;
    for (const unit of [1, 2, 0]) {
      const orders = await (await fetch(`${url}api/play/${token}/units/${unit}`)).json();
      const fire = orders.orders?.find((o) => o.action.fire);
      if (!fire) continue;
      v = await act(url, token, { action: { activate: unit }, decisions: v.decisions });
      await act(url, token, { action: fire.action, decisions: v.decisions });
      fired = true;
      break;
    }
    v = await view(url, token);
    if (!fired && !v.result) await act(url, token, { action: 'end_activations', decisions: v.decisions });
    shaken = v.units.find((u) => u.shaken && u.alive && u.side === 'B')?.id ?? null;
    if (v.result) break;
  }
  assert.notEqual(shaken, null, 'a Grey unit was shaken');
  const page = await freshPage(env.browser);
  await page.goto(`${url}game/${token}`);
  await page.locator('#board').waitFor();
  const badge = await settledBox(page.locator(`[data-unit="${shaken}"] .shaken-badge`));
  const strength = await settledBox(page.locator(`[data-unit="${shaken}"] .counter-text`).filter({ hasText: /^\d$/ }).last());
  const overlap = badge.x < strength.x + strength.width && strength.x < badge.x + badge.width && badge.y < strength.y + strength.height && strength.y < badge.y + badge.height;
  assert.ok(!overlap, 'the shaken badge does not cover the strength digit');
  assert.equal(await page.locator(`[data-unit="${shaken}"] .shaken-letter`).textContent(), 'S', 'shaken is told by a letter, not by colour alone');
  // The sunken road on d7–d8 runs north–south.
  assert.equal(await page.locator('.sunken-stripe.north-south').count(), 2);
  assert.equal(await page.locator('.sunken-stripe.east-west').count(), 0);
  // The objective takes the pointer, so its tooltip shows.
  const events = await page.locator('.objective').first().evaluate((e) => getComputedStyle(e).pointerEvents);
  assert.notEqual(events, 'none');
  // Enter on an order button of the list keeps the focus on it.
  const v = await view(url, token);
  if (v.your_turn && v.legal_actions.some((a) => a.action.activate !== undefined)) {
    await page.locator('#order-list summary').click();
    const first = page.locator('#order-list button.order').first();
    const key = await first.getAttribute('data-key');
    await first.focus();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.key ?? null) !== null, true, 'the focus stays on an order');
    assert.ok(key);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a 12-column board on a phone fits the width at first; buttons and a pinch zoom it, and the ranks and files stay in view', async () => {
  const { token } = await createGame(env.server.url, { scenario: 'maryes-heights', mode: 'hotseat' }, 'hotseat');
  const viewport = { width: 390, height: 844 };
  const page = await freshPage(env.browser, { viewport, context: { hasTouch: true, isMobile: true } });
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .whose').waitFor();
  const wrap = page.locator('#board');
  const overflow = () => wrap.evaluate((w) => w.scrollWidth - w.clientWidth);
  assert.ok(await overflow() <= 1, 'the whole board across the screen');
  assert.ok(inside(await settledBox(page.locator('svg.board')), viewport), 'nothing off the screen sideways');
  await page.screenshot({ path: join(screenshots, 'phone-board-fit-390.png') });
  // Zoomed twice: the board is wider than the screen, and the rulers show on its edges.
  await page.click('#zoom-in');
  await page.click('#zoom-in');
  assert.ok(await overflow() > 100, 'zoomed in');
  const digit = await settledBox(page.locator('.unit .counter-text').last());
  assert.ok(digit.height >= 9, `a counter's digit is ${digit.height}px tall once zoomed`);
  // Panned to the far east: rank numbers still on the left edge, on screen, and the files along the bottom.
  await wrap.evaluate((w) => { w.scrollLeft = w.scrollWidth; });
  await page.waitForTimeout(100);
  const ranks = await page.locator('.ruler.ranks span').allTextContents();
  assert.ok(ranks.length >= 4, `ranks shown: ${ranks}`);
  const rank = await page.locator('.ruler.ranks span').first().boundingBox();
  assert.ok(rank.x >= 0 && rank.x < 40, `the rank numbers stay at the left edge: ${rank.x}`);
  const files = await page.locator('.ruler.files span').allTextContents();
  assert.ok(files.includes('l'), `the east files are named: ${files}`);
  await page.screenshot({ path: join(screenshots, 'phone-board-zoomed-390.png') });
  await page.click('#zoom-fit');
  assert.ok(await overflow() <= 1);
  // Two fingers spread apart zoom in about their midpoint, and make no click.
  const box = await wrap.boundingBox();
  const y = box.y + box.height / 2;
  const touch = (type, id, x) => page.dispatchEvent('#board', type, { pointerType: 'touch', pointerId: id, isPrimary: id === 1, clientX: x, clientY: y, bubbles: true });
  await touch('pointerdown', 1, box.x + 150);
  await touch('pointerdown', 2, box.x + 200);
  await touch('pointermove', 2, box.x + 300);
  await touch('pointerup', 2, box.x + 300);
  await touch('pointerup', 1, box.x + 150);
  assert.ok(Number(await wrap.getAttribute('data-zoom')) > 2.5, `pinched to ${await wrap.getAttribute('data-zoom')}`);
  assert.equal(await page.locator('#board[data-choices]').count(), 0, 'a pinch selects nothing');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
