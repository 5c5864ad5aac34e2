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
  assert.deepEqual(await page.locator('#ledger tbody th').allTextContents(), ['hit', 'miss', 'shaken', 'retreat', 'destroyed'], 'the ledger has the miss row');
  await page.locator('#log', { hasText: 'Blue resigns' }).waitFor();
  // The save, as pacw replay reads it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-save')]);
  const save = JSON.parse(readFileSync(await download.path(), 'utf8'));
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
  // A finished game of Meeting Engagement, random (Union) against greedy (`pacw play --players random,greedy --seed 12`).
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
    assert.match(await page.locator('#flagged li').first().textContent(), /(Inaccuracy|Mistake|Blunder) −\d+\.\d[\s\S]*Better, \+\d+\.\d points for (Union|Confederate): The /);
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
    await page.locator('.plan-better').first().waitFor({ state: 'attached' });
    const name = viewport.width > 500 ? 'review-1366.png' : 'review-390.png';
    await page.screenshot({ path: join(screenshots, name), fullPage: viewport.width < 500 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the review says why the game was decided, and draws and explains the better order', async () => {
  const { token } = await createGame(env.server.url, { save: finishedSave, mode: 'hotseat' }, 'hotseat');
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${env.server.url}game/${token}?review`);
    await page.locator('#review-summary').waitFor({ timeout: 60000 });
    // At the top of the review; on a phone, where the review comes after the board and the turn, above the chart
    // and the board.
    const place = await page.evaluate(() => ({
      inReview: Boolean(document.querySelector('#review #decided')),
      aboveChart: document.querySelector('#decided').getBoundingClientRect().bottom <= document.querySelector('#review-graph').getBoundingClientRect().top,
      heading: document.querySelector('#decided-title').tagName,
    }));
    assert.deepEqual(place, viewport.width > 500 ? { inReview: true, aboveChart: false, heading: 'H3' } : { inReview: false, aboveChart: true, heading: 'H2' });
    await page.screenshot({ path: join(screenshots, viewport.width > 500 ? 'review-decided-1366.png' : 'review-decided-390.png') });
    // Three swings in words, the biggest first, each numbered on the graph too.
    const swings = await page.locator('#swings li').allTextContents();
    assert.equal(swings.length, 3, swings.join('\n'));
    for (const text of swings) assert.match(text, /^Turn \d+: the .+: (Union|Confederate) chances \d+% → \d+%$/);
    const sizes = swings.map((t) => { const [, a, b] = t.match(/(\d+)% → (\d+)%$/); return Math.abs(b - a); });
    assert.ok(sizes[0] >= sizes[1] && sizes[1] >= sizes[2], `the biggest first: ${sizes}`);
    assert.equal(await page.locator('#review-graph .swing-mark').count(), 3);
    // In this game the Confederate dice destroyed a Union brigade: the attack's dice are said as one.
    assert.ok(swings.some((t) => /hit and destroyed it \(a \d to hit, needing \d\+; then a \d > strength \d; R6\.4, R7\.1\)/.test(t)), swings.join('\n'));
    // The net luck: who was luckier and by how much, and each side's in the table, opposite.
    const luck = await page.locator('#net-luck').textContent();
    assert.match(luck, /^(Union|Confederate) was the luckier side, by \d+\.\d points of winning chances: luck Union [+−]\d+\.\d, Confederate [+−]\d+\.\d; net luck/);
    const net = await page.locator('#review-summary tr', { hasText: 'Net luck' }).locator('td').allTextContents();
    const [a, b] = net.map((t) => Number(t.replace('−', '-')));
    assert.ok(Math.abs(a + b) < 0.11 && a !== 0, `net luck ${net}`);
    assert.ok(luck.includes(`by ${Math.abs(a).toFixed(1)} points`), `${luck} / ${net}`);
    // A swing's turn opens its moment in the replay.
    await page.locator('#swings button').first().click();
    await page.waitForFunction(() => Number(document.querySelector('#board').dataset.decisions) > 0);
    // The flagged decision whose better order moves and charges: its sentence, and its marks on the board.
    const item = page.locator('#flagged li', { hasText: /moves to \w\d, facing [NESW], and charges/ }).first();
    const better = await item.locator('.better').textContent();
    assert.match(better, /^Better, \+\d+\.\d points for Union: The .+ \(\w\d\) moves to \w\d, facing [NESW], and charges the (shaken )?Confederate .+ at \w\d at \d\+ \(\d+% to hit, \d+% to destroy it\),? instead of .+ \(R5, R6\.1, R6\.4, R7\.1\)\.$/);
    await item.locator('button').first().click();
    await page.locator('#plans-shown', { hasText: /charges the (shaken )?Confederate/ }).waitFor();
    const marks = await page.evaluate(() => {
      const attack = document.querySelector('.plan-better.plan-attack');
      const ring = attack.querySelector('.plan-ring');
      const [cx, cy] = [Number(ring.getAttribute('cx')), Number(ring.getAttribute('cy'))];
      const head = attack.querySelector('.plan-head').getBBox();
      const line = attack.querySelector('.plan-line');
      const target = [...document.querySelectorAll('#board [data-unit]')].find((u) => {
        const r = u.getBoundingClientRect();
        const c = ring.getBoundingClientRect();
        return Math.abs(r.left + r.width / 2 - (c.left + c.width / 2)) < 3 && Math.abs(r.top + r.height / 2 - (c.top + c.height / 2)) < 3;
      });
      return {
        label: attack.querySelector('.plan-label text').textContent,
        // How far the head reaches into the target's counter (42 units wide about its centre): the overlap of
        // their boxes, the lesser way.
        into: Math.min(Math.min(head.x + head.width, cx + 21) - Math.max(head.x, cx - 21), Math.min(head.y + head.height, cy + 21) - Math.max(head.y, cy - 21)),
        thick: line.classList.contains('plan-thick'),
        heads: attack.querySelectorAll('.plan-head').length,
        length: line.getTotalLength(),
        target: Boolean(target),
        ghosts: document.querySelectorAll('.plan-better.plan-move .plan-notch').length,
        played: document.querySelectorAll('.plan-played').length,
      };
    });
    assert.match(marks.label, /^charge \d\+$/);
    assert.ok(marks.into > 0 && marks.target, `the arrow's head reaches onto the ringed target: ${JSON.stringify(marks)}`);
    assert.ok(marks.thick && marks.heads === 1 && marks.length > 15, `a charge: one thick arrow, more than a stub: ${JSON.stringify(marks)}`);
    assert.ok(marks.ghosts === 1 && marks.played > 0, `the move's facing and the order played are drawn: ${JSON.stringify(marks)}`);
    // A Fire & Move at the same target is drawn otherwise: a double head and its own label.
    const fireMove = await page.evaluate(async () => {
      const { planArrows } = await import('/js/review.js');
      const token = location.pathname.split('/').pop();
      const v = await (await fetch(`/api/play/${token}/replay/${document.querySelector('#board').dataset.decisions}`)).json();
      const attack = document.querySelector('.plan-better.plan-attack');
      const target = Object.values(v.units).find((u) => u.side === 'B' && u.alive !== false);
      const attacker = Object.values(v.units).find((u) => u.side === 'A' && u.alive !== false);
      const note = { charge: true, needed: 4, target: target.id };
      const [charge] = planArrows([{ activate: attacker.id }, { fire: { target: target.id, facing: attacker.facing } }], v, 'better', note);
      const [fm] = planArrows([{ activate: attacker.id }, { fire_move: { target: target.id } }], v, 'better', note);
      // Each drawn on a board of its own: how many heads its arrow has.
      const { Board } = await import('/js/board.js');
      const heads = (mark) => {
        const box = document.createElement('div');
        document.body.append(box);
        new Board(box, v.scenario, {}).update({ units: v.units, plans: [mark] });
        const n = box.querySelectorAll('.plan-attack .plan-head').length;
        box.remove();
        return n;
      };
      return { charge: [charge.label, charge.fireMove, heads(charge)], fm: [fm.label, fm.fireMove, heads(fm)], drawn: Boolean(attack) };
    });
    assert.deepEqual(fireMove, { charge: ['charge 4+', false, 1], fm: ['F&M: charge 4+', true, 2], drawn: true });
    await page.screenshot({ path: join(screenshots, viewport.width > 500 ? 'review-why-1366.png' : 'review-why-390.png') });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
