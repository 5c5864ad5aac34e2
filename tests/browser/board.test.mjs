// Orders given on the board, through the testing contract of docs/api.md: `data-unit`, `data-square`, `data-facing`,
// `data-confirm`, `data-order`. Selecting shows the info panel and changes nothing; a move, an attack, a Move & Fire
// and a Fire & Move are each given by clicks on the board; one Undo takes back the activation and the order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, gameOnYourMove, view, cardFor, settledBox, screenshots } from './server.mjs';

const skirmish = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

/// A hot-seat game of the Skirmish, on a Blue card of at least `left` activations, open in a page.
async function skirmishPage(left = 2, options = {}, pageOptions = {}, more = {}) {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat', options, ...more }, 'hotseat');
  const v = await cardFor(env.server.url, token, 'A', left);
  const page = await freshPage(env.browser, pageOptions);
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .you').waitFor();
  return { page, token, v };
}

async function decisions(token) {
  return (await view(env.server.url, token)).decisions;
}

test('the contract: one element per square and per unit, and selecting changes nothing', async () => {
  const { page, token, v } = await skirmishPage(1);
  assert.equal(await page.locator('[data-square]').count(), 64, 'one data-square per square');
  assert.equal(await page.locator('[data-square="d3"]').count(), 1);
  assert.equal(await page.locator('[data-unit]').count(), 8, 'one data-unit per unit on the board');
  // Select an enemy: the info panel names its side, arm, quality, strength, facing, state and activation.
  await page.click('[data-unit="3"]');
  const info = page.locator('#info');
  await info.getByText('Vedettes').first().waitFor();
  const text = await info.textContent();
  for (const want of ['Grey', 'infantry', 'green', 'Strength3', 'c3, facing S', 'steady', 'no on this card']) {
    assert.ok(text.replace(/\s+/g, '').includes(want.replace(/\s+/g, '')), `the info panel shows ${want}: ${text}`);
  }
  // A square: terrain, elevation, road, fences, cover, objective.
  await page.click('[data-square="d7"]');
  await info.getByText('Square d7').first().waitFor();
  const square = await info.textContent();
  assert.match(square, /sunken road/);
  assert.match(square, /Cover\s*yes/);
  assert.match(square, /Objective\s*2 points, held by nobody/);
  // The objective's tooltip is there to be hovered.
  assert.match(await page.locator('.objective title').first().textContent(), /Objective d7: 2 points/);
  // The sunken road runs north–south here, and is drawn so (a tall stripe, not a wide one).
  assert.equal(await decisions(token), v.decisions, 'selecting never changes the game');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a move by clicks: unit, square, facing, confirm; one Undo takes back the activation and the order', async () => {
  const { page, token, v } = await skirmishPage(2);
  await page.click('[data-unit="0"]');
  // Its reachable squares and its path preview; the enemy it can charge after a move is ringed.
  await page.locator('.reachable-dot').first().waitFor();
  await page.locator('[data-unit="3"] .target-ring').waitFor();
  await page.hover('[data-square="a3"]');
  await page.locator('.path-line').waitFor();
  await page.click('[data-square="a3"]');
  await page.locator('[data-facing]').first().waitFor();
  assert.equal(await page.locator('[data-facing]').count(), 4, 'four facings, allowed or not');
  await page.click('[data-facing="N"]');
  const confirm = page.locator('[data-confirm]');
  assert.match(await confirm.textContent(), /Move to a3, face N/);
  const started = Date.now();
  await confirm.click();
  await page.locator('[data-unit="0"][data-at="a3"]').waitFor();
  const redraw = Date.now() - started;
  assert.equal(await decisions(token), v.decisions + 2, 'the activation and the order: two decisions');
  await page.locator('[data-unit="0"].activated').waitFor();
  // Used: the counter keeps its side's colour at full strength; a hatch and a ✓ badge say so, not the colour.
  const used = await page.evaluate(() => {
    const unit = document.querySelector('[data-unit="0"]');
    const body = unit.querySelector('.counter-body');
    const other = document.querySelector(`.unit.side-${[...unit.classList].find((c) => c.startsWith('side-')).slice(5)}:not(.activated) .counter-body`);
    return {
      fill: body.getAttribute('fill'), otherFill: other?.getAttribute('fill'), opacity: getComputedStyle(body).opacity,
      hatch: !!unit.querySelector('.used-hatch'), badge: !!unit.querySelector('.done-badge'),
    };
  });
  assert.equal(used.opacity, '1', 'not faded toward grey');
  if (used.otherFill) assert.equal(used.fill, used.otherFill, 'the same colour as the side\'s unused units');
  assert.ok(used.hatch && used.badge, 'a hatch and a badge mark it used');
  // Its move is drawn in its side's colour (not always the first side's).
  const [arrow, counter] = await page.evaluate(() => [
    getComputedStyle(document.querySelector('.marks line.last-move')).stroke,
    getComputedStyle(document.querySelector('[data-unit="0"] .counter-body')).fill,
  ]);
  assert.equal(arrow, counter, 'the move arrow in the mover\'s colour');
  await page.locator('#board').screenshot({ path: join(screenshots, 'used-1366.png') });
  await page.click('#undo');
  await page.locator('[data-unit="0"][data-at="b2"]').waitFor();
  assert.equal(await decisions(token), v.decisions, 'one Undo took back both');
  assert.ok(redraw < 5000, `redrawn after ${redraw} ms`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a touch screen the facing is picked with buttons a finger can hit, and the page says tap, not click', async () => {
  const viewport = { width: 390, height: 844 };
  const { page } = await skirmishPage(2, {}, { viewport, context: { hasTouch: true, isMobile: true } });
  await page.tap('[data-unit="0"]');
  await page.locator('.reachable-dot').first().waitFor();
  assert.match(await page.locator('#prompt').textContent(), /^Tap a green dot to move/);
  await page.tap('[data-square="a3"]');
  await page.locator('[data-facing]').first().waitFor();
  assert.equal(await page.locator('[data-facing]').count(), 4, 'four facings, allowed or not');
  const prompt = await page.locator('#prompt').textContent();
  assert.match(prompt, /\btap\b/);
  assert.doesNotMatch(prompt, /click/i);
  // A finger's width (44 px, WCAG 2.5.5), each wholly on the first screen.
  for (const dir of ['N', 'E', 'S', 'W']) {
    const box = await settledBox(page.locator(`[data-facing="${dir}"]`));
    assert.ok(box.width >= 44 && box.height >= 44, `facing ${dir} is ${box.width}×${box.height} px`);
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, `facing ${dir} is on the screen`);
  }
  await page.screenshot({ path: join(screenshots, 'facing-390.png') });
  await page.tap('[data-facing="N"]');
  assert.equal(await page.locator('[data-facing="N"]').getAttribute('aria-pressed'), 'true');
  await page.locator('[data-confirm]', { hasText: 'Move to a3, face N' }).waitFor();
  await page.tap('[data-confirm]');
  await page.locator('[data-unit="0"][data-at="a3"]').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a game played by a variant: the odds in its words and its rule links lead to its own rules page', async () => {
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const { page, token } = await skirmishPage(1, {}, { viewport }, { variant: 'close-combat' });
    await page.locator('#variant-rules').waitFor();
    await page.click('[data-unit="1"]');
    await page.locator('[data-unit="4"] .needed-text').waitFor();
    await page.click('[data-unit="4"]');
    const odds = page.locator('#odds');
    await odds.waitFor();
    // Under close combat, fire at a steady unit changes nothing when its roll is at most its strength.
    assert.match(await odds.textContent(), /no effect\s*\d+\/\d+/);
    assert.ok(await page.locator(`#odds a.rule[href="/game/${token}/rules#R6.4"]`).count() > 0, 'rule links lead to the game\'s rules');
    await page.screenshot({ path: join(screenshots, `variant-odds-${viewport.width}.png`) });
    const rules = await freshPage(env.browser, { viewport });
    await rules.goto(`${env.server.url}game/${token}/rules`);
    await rules.locator('#this-game').waitFor();
    const text = await rules.locator('#reading').textContent();
    for (const want of ['veteran élan', 'no effect', '“charge” is called “close combat”', 'R6.4 To hit']) assert.ok(text.includes(want), want);
    await rules.screenshot({ path: join(screenshots, `variant-rules-${viewport.width}.png`) });
    assert.deepEqual([...page.errors, ...rules.errors], []);
    await page.context().close();
    await rules.context().close();
  }
});

test('an attack by clicks: the odds before confirming, then the dice say who rolled what', async () => {
  const { page } = await skirmishPage(1);
  await page.click('[data-unit="1"]');
  // The Pickets on e4 are in range and ahead: ringed, with the number needed (5+, +1 not moved: 4+).
  await page.locator('[data-unit="4"] .needed-text', { hasText: '4+' }).waitFor();
  await page.click('[data-unit="4"]');
  const odds = page.locator('#odds');
  await odds.waitFor();
  const oddsText = await odds.textContent();
  assert.match(oddsText, /needs 4\+/);
  assert.match(oddsText, /R6\.4 \+1 attacker did not move/);
  assert.match(oddsText, /miss\s*1\/2/);
  assert.ok(await page.locator('#odds a.rule[href="/rules#R6.4"]').count() > 0, 'the rule ids link to the rules');
  await page.screenshot({ path: join(screenshots, 'odds-1366.png') });
  await page.click('[data-confirm]');
  await page.locator('#dice .die').first().waitFor();
  // After a Confirm no panel is left standing empty (the audit saw an empty unit block): each one shown says something.
  const empty = await page.evaluate(() => [...document.querySelectorAll('.panel, .unit-info, .target-info')]
    .filter((e) => e.offsetParent !== null && !e.textContent.trim()).map((e) => e.id || e.className));
  assert.deepEqual(empty, [], 'panels shown empty after a Confirm');
  // The target, or its square if the dice drove it off (a retreat or destroyed).
  assert.match(await page.locator('#info').textContent(), /Grey Pickets|Square e4/, 'the info panel still tells of the target');
  const dice = await page.locator('#dice').textContent();
  // A rule cited in the dice panel reads "(R6.4)", whole: its parentheses close up to it, on its line.
  const citations = await page.evaluate(() => [...document.querySelectorAll('#dice .die-line a.rule')].map((a) => {
    const box = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r.getBoundingClientRect(); };
    const [open, link, close] = [box(a.previousSibling), a.getBoundingClientRect(), box(a.nextSibling)];
    return Math.abs(open.right - link.left) < 2 && Math.abs(link.right - close.left) < 2 && Math.abs(close.top - link.top) < 2;
  }));
  assert.ok(citations.length > 0 && citations.every(Boolean), `the dice panel's rule ids whole: ${citations}`);
  assert.match(dice, /Blue Iron Brigade fires at Grey Pickets: needs 4\+/);
  assert.match(dice, /Blue rolls to hit: \d, a (hit|miss)/);
  // The dice are news, not a refusal: never in the red of "Not allowed".
  const roll = page.locator('#last-roll');
  await roll.waitFor();
  const [rollColour, refusedColour] = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.className = 'prompt refused';
    document.querySelector('#order-bar').append(probe);
    const colours = [getComputedStyle(document.querySelector('#last-roll')).color, getComputedStyle(probe).color];
    probe.remove();
    return colours;
  });
  assert.notEqual(rollColour, refusedColour, 'a die result is not coloured as a refusal');
  // No mark needs an emoji font (many systems have none, and draw a box): the die is drawn.
  const emoji = await page.evaluate(() => {
    const re = /\p{Emoji_Presentation}/u;
    const found = [];
    for (const el of document.querySelectorAll('body *')) {
      for (const pseudo of ['::before', '::after']) if (re.test(getComputedStyle(el, pseudo).content)) found.push(`${el.id || el.className}${pseudo}`);
    }
    const text = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (text.nextNode()) if (re.test(text.currentNode.textContent)) found.push(text.currentNode.textContent);
    return found;
  });
  assert.deepEqual(emoji, [], 'no emoji on the page');
  assert.equal(await page.locator('#last-roll svg.die-icon').count(), 1, 'the die drawn beside the roll');
  // Every log line names units with their side.
  await page.locator('#log', { hasText: 'Blue Iron Brigade (veteran infantry) fires at Grey Pickets' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Move & Fire: the enemy, then the square to fire from, then the facing; Fire & Move offers its advance', async () => {
  const { page } = await skirmishPage(2);
  await page.click('[data-unit="0"]');
  await page.locator('[data-unit="3"] .target-ring').waitFor();
  // The Vedettes can be charged only after a move: a dashed ring and badge, and the bar says what dashed means.
  assert.equal(await page.locator('[data-unit="3"] .target-ring.indirect').count(), 1);
  assert.equal(await page.locator('[data-unit="3"] .needed-badge.indirect').count(), 1);
  assert.match(await page.locator('#prompt').textContent(), /a dashed ring: only after a move \(Move & Fire\)/);
  await page.click('[data-unit="3"]');
  // The squares a Move & Fire can be made from are marked, and nothing is drawn over them: no line of sight
  // follows the pointer once the enemy is chosen.
  await page.locator('.move-fire-dot').first().waitFor();
  await page.hover('[data-square="c2"]');
  await page.hover('[data-square="b3"]');
  assert.equal(await page.locator('.blocking-cross, .sight-line').count(), 0, 'no mark contradicts the squares offered');
  await page.click('[data-square="b3"]');
  await page.locator('[data-facing="E"].allowed').waitFor();
  assert.equal(await page.locator('[data-facing="N"].allowed').count(), 0, 'facing north does not reach the Vedettes');
  await page.click('[data-facing="E"]');
  await page.locator('#odds', { hasText: 'A charge' }).waitFor();
  assert.match(await page.locator('[data-confirm]').textContent(), /Move to b3, face E, charge Grey Vedettes/);
  await page.click('[data-confirm]');
  await page.locator('#dice', { hasText: 'Blue Horse charges Grey Vedettes' }).waitFor();
  // Fire & Move with the Iron Brigade: attack the Pickets, then the advance is asked on the board.
  await page.click('[data-unit="1"]');
  await page.locator('[data-unit="4"] .target-ring').waitFor();
  await page.click('[data-unit="4"]');
  await page.click('[data-order="fire_move"]');
  assert.match(await page.locator('[data-confirm]').textContent(), /Fire & Move: fire at Grey Pickets/);
  await page.click('[data-confirm]');
  await page.locator('#prompt', { hasText: 'Fire & Move: move one square' }).waitFor();
  // Stay: click the unit itself, keep its facing, confirm.
  await page.click('[data-unit="1"]');
  await page.locator('[data-facing="N"].allowed').waitFor();
  await page.click('[data-facing="N"]');
  assert.match(await page.locator('[data-confirm]').textContent(), /Stay, face N/);
  await page.click('[data-confirm]');
  await page.locator('#log', { hasText: /Blue Iron Brigade .* (turns to face N|holds|moves)|Blue ends/ }).first().waitFor({ timeout: 5000 }).catch(() => {});
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the keyboard: arrows move the cursor, Enter selects and confirms, Escape cancels, z undoes, ? lists the keys', async () => {
  const { page, token, v } = await skirmishPage(2);
  await page.locator('#board').focus();
  // The first arrow puts the cursor on the first unit ready to act, the Horse on b2; Enter selects it.
  await page.keyboard.press('ArrowRight');
  await page.locator('.cursor').waitFor();
  const onSquare = await page.evaluate(() => {
    const [c, sq] = [document.querySelector('.cursor'), document.querySelector('[data-square="b2"]')];
    return Number(c.getAttribute('x')) === Number(sq.getAttribute('x')) + 1 && Number(c.getAttribute('y')) === Number(sq.getAttribute('y')) + 1;
  });
  assert.ok(onSquare, 'the cursor starts on the Horse, ready to act');
  await page.keyboard.press('Enter');
  await page.locator('#info', { hasText: 'Horse' }).waitFor();
  await page.locator('.reachable-dot').first().waitFor();
  // Left to a2, Enter picks the square; the up arrow picks the facing; Enter confirms.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await page.locator('[data-facing]').first().waitFor();
  await page.keyboard.press('ArrowUp');
  await page.locator('[data-confirm]', { hasText: 'Move to a2, face N' }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('[data-unit="0"][data-at="a2"]').waitFor();
  await page.keyboard.press('z');
  await page.locator('[data-unit="0"][data-at="b2"]').waitFor();
  assert.equal(await decisions(token), v.decisions);
  await page.keyboard.press('?');
  await page.locator('#keys-help', { hasText: 'end activations' }).waitFor();
  await page.keyboard.press('Escape');
  // n selects each ready unit in turn; f chooses Fire & Move at the enemy in hand.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.keyboard.press('n');
  await page.locator('#board[data-choices="0"]').waitFor({ state: 'attached' });
  await page.keyboard.press('n');
  await page.locator('#board[data-choices="1"]').waitFor({ state: 'attached' });
  await page.click('[data-unit="4"]');
  await page.locator('[data-order="fire_move"]').waitFor();
  await page.keyboard.press('f');
  await page.locator('[data-confirm]', { hasText: 'Fire & Move: fire at Grey Pickets' }).waitFor();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  // e ends the activations.
  await page.keyboard.press('e');
  await page.waitForFunction((n) => Number(document.querySelector('#board').dataset.decisions) > n, v.decisions);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the line of sight follows the pointer, and the phone screen keeps the counters legible', async () => {
  const { page } = await skirmishPage(1, {}, { viewport: { width: 390, height: 844 } });
  await page.click('[data-unit="2"]');
  await page.locator('.reachable-dot').first().waitFor();
  await page.hover('[data-square="h6"]');
  await page.locator('.sight-line.blocked').waitFor({ state: 'attached' });
  await page.locator('.blocking-square').waitFor({ state: 'attached' });
  await page.hover('[data-square="h2"]');
  await page.locator('.path-line').waitFor({ state: 'attached' });
  const box = await settledBox(page.locator('.board'));
  assert.ok(box.width <= 390, `the board fits the phone (${box.width}px)`);
  // A counter's strength digit is at least 9 px tall on the phone.
  const digit = await settledBox(page.locator('[data-unit="2"] .counter-text').last());
  assert.ok(digit.height >= 9, `digits are legible (${digit.height}px)`);
  await page.screenshot({ path: join(screenshots, 'unit-selected-390.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('playing the army from the north, the board is turned so that it stands at the bottom (a setting, remembered)', async () => {
  const { token } = await gameOnYourMove(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'computer', human_side: 'B', computer: 'greedy' }, 'B');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .you').waitFor();
  const y = async (sel) => (await page.locator(sel).boundingBox()).y;
  assert.equal(await page.locator('svg.board[data-turned="true"]').count(), 1);
  assert.ok(await y('[data-square="a8"]') > await y('[data-square="a1"]'), 'rank 8, Grey\'s, at the bottom');
  assert.ok(await y('[data-unit="5"]') > await y('[data-unit="2"]'), 'Grey\'s Foot below Blue\'s Battery');
  // The squares keep their names under a click, and the counters read upright.
  await page.click('[data-square="d7"]');
  await page.locator('#info', { hasText: 'Square d7' }).waitFor();
  const upright = await page.evaluate(() => {
    const m = document.querySelector('[data-unit="5"]').getScreenCTM();
    return m.a > 0 && m.d > 0;
  });
  assert.ok(upright, 'counters are not upside down');
  // The arrow keys move on the screen: down is toward the bottom of the turned board, that is north.
  await page.locator('#board').focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowUp'); // the cursor appears (on a ready unit, else a1)
  const first = await page.evaluate(() => document.querySelector('.cursor').getBoundingClientRect().y);
  await page.keyboard.press('ArrowDown');
  const second = await page.evaluate(() => document.querySelector('.cursor').getBoundingClientRect().y);
  assert.ok(second > first, `down the screen: ${first} → ${second}`);
  await page.screenshot({ path: join(screenshots, 'turned-1366.png') });
  // Off in the settings, remembered: Grey's rank 8 back at the top.
  await page.locator('.settings summary').click();
  await Promise.all([page.waitForNavigation(), page.locator('#army-at-bottom').uncheck()]);
  await page.locator('#status .you').waitFor();
  assert.equal(await page.locator('svg.board[data-turned]').count(), 0);
  assert.ok(await y('[data-square="a8"]') < await y('[data-square="a1"]'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('hover: a unit\'s card at once, the odds of attacking it without a click, and a held finger on a phone', async () => {
  const { page, token, v } = await skirmishPage(1);
  const card = page.locator('#hover-card');
  await page.hover('[data-unit="3"]');
  await card.waitFor();
  assert.match(await card.textContent(), /Grey Vedettes.*green infantry, strength 3, facing S, c3/s);
  // The Iron Brigade selected, the Pickets hovered: the odds line, no click.
  await page.click('[data-unit="1"]');
  await page.locator('#board[data-choices="1"]').waitFor({ state: 'attached' });
  await page.hover('[data-unit="4"]');
  await page.locator('#hover-odds', { hasText: 'needs 4+' }).waitFor();
  assert.match(await page.locator('#hover-odds').textContent(), /Fire: needs 4\+ · miss 50\.0%, shaken 33\.3%/);
  await page.screenshot({ path: join(screenshots, 'hover-1366.png') });
  await page.mouse.move(1, 1);
  await card.waitFor({ state: 'hidden' });
  await page.context().close();
  // A phone: a finger held on a counter shows its card and is not a tap.
  const phone = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { hasTouch: true, isMobile: true } });
  await phone.goto(`${env.server.url}game/${token}`);
  await phone.locator('#status .you').waitFor();
  const box = await phone.locator('[data-unit="3"] .counter-body').boundingBox();
  const at = { pointerType: 'touch', isPrimary: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true };
  await phone.dispatchEvent('svg.board', 'pointerdown', at);
  await phone.locator('#hover-card', { hasText: 'Vedettes' }).waitFor();
  await phone.dispatchEvent('svg.board', 'pointerup', at);
  await phone.screenshot({ path: join(screenshots, 'hover-held-390.png') });
  assert.equal(await phone.locator('#board[data-choices]').count(), 0, 'holding is not selecting');
  assert.equal(await decisions(token), v.decisions);
  assert.deepEqual([...page.errors, ...phone.errors], []);
  await phone.context().close();
});

test("a variant's own terrain is drawn plain with its letter and described in the square's panel", async () => {
  // The Skirmish with a swamp on c4 and e4, under a variant that defines it (docs/variants.md).
  const swamps = 'name = "Swamps"\n[[terrain]]\nid = "swamp"\nletter = "M"\nmove = "stop"\n';
  const text = skirmish.replace('........\n.......W\n', '..M.M...\n.......W\n');
  assert.notEqual(text, skirmish);
  const { token } = await createGame(env.server.url, { scenario_text: text, scenario_file: 'skirmish.toml', variant_text: swamps, variant_file: 'swamps.toml', mode: 'hotseat' }, 'hotseat');
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(`${env.server.url}game/${token}`);
    await page.locator('[data-square="c4"]').waitFor();
    assert.equal(await page.locator('.own-terrain-mark').count(), 2, 'each swamp square carries its letter');
    assert.equal((await page.locator('.own-terrain-mark').first().textContent()).trim(), 'M');
    await page.click('[data-square="c4"]');
    const info = page.locator('#info');
    await info.getByText('Square c4').first().waitFor();
    const square = await info.textContent();
    assert.match(square, /Terrain\s*swamp/);
    assert.match(square, /entering ends the move \(the variant's\)/);
    assert.match(square, /Cover\s*none/);
    await page.screenshot({ path: join(screenshots, `own-terrain-${viewport.width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
