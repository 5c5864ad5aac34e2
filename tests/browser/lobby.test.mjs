// The lobby: a map preview for every battle and for an uploaded one, a failed upload that leaves Start off, the
// scenario cards by keyboard, every option explained, "your games" from this browser's links (date, mode, players,
// whose turn, copy, remove, export and import), the hot-seat hand-over screen, the rules one click away, every
// number of the combat system, and opening a save.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { serverAndBrowser, freshPage, screenshots, binary, view } from './server.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const env = serverAndBrowser();

test('every battle has a map preview; an upload is previewed, a bad one leaves Start off', async () => {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  const cards = page.locator('.scenario-card');
  // The cards come after the lobby's first fetch: wait for them rather than count an empty page.
  await cards.first().waitFor();
  for (let i = 0; i < await cards.count(); i++) assert.equal(await cards.nth(i).locator('.preview svg').count(), 1);
  // Twelve battles and the grand battle, each with its date, its situation in a line, its size and its measured
  // balance (scenarios/balance.json).
  assert.equal(await cards.count(), 13);
  for (let i = 0; i < 13; i++) {
    const card = cards.nth(i);
    assert.ok((await card.locator('.situation-line').textContent()).length > 20);
    assert.match(await card.locator('.size-line').textContent(), /^\d+ units · \d+×\d+ squares · \d+ turns$/);
    assert.match(await card.locator('.balance-line').textContent(), /^Balance: \S.* \d+% · \S.* \d+%$/);
  }
  const grand = page.locator('.scenario-card[data-name="antietam"]');
  assert.equal(await grand.locator('.size-line').textContent(), '128 units · 26×26 squares · 10 turns');
  assert.match(await grand.locator('.balance-line').textContent(), /^Balance: Union 48% · Confederate 52%$/);
  assert.match(await cards.nth(1).locator('.situation').textContent(), /^Antietam, 17 September 1862/);
  assert.equal(await page.locator('[data-square], [data-unit]').count(), 0, 'previews carry no board contract attributes');
  await page.screenshot({ path: join(screenshots, 'lobby-1366.png') });
  // Keyboard: Enter and Space choose a card.
  await cards.nth(1).focus();
  await page.keyboard.press('Enter');
  assert.match(await cards.nth(1).getAttribute('class'), /selected/);
  await cards.nth(2).focus();
  await page.keyboard.press(' ');
  assert.match(await cards.nth(2).getAttribute('class'), /selected/);
  // A good upload is previewed; a bad one is refused and Start stays off until a battle is chosen again.
  await page.setInputFiles('#upload', join(fixtures, 'skirmish.toml'));
  await page.locator('#detail h2', { hasText: 'Skirmish' }).waitFor();
  assert.equal(await page.locator('#detail-preview svg').count(), 1);
  // A key nothing reads is named, with the key it likely means, and the file is still previewed.
  const typo = join(mkdtempSync(join(tmpdir(), 'pacw-typo-')), 'typo.toml');
  writeFileSync(typo, readFileSync(join(fixtures, 'skirmish.toml'), 'utf8').replace('facing = "N"', 'facng = "N"'));
  await page.setInputFiles('#upload', typo);
  await page.locator('#upload-warnings', { hasText: "unknown key 'facng' is ignored: did you mean 'facing'?" }).waitFor();
  assert.equal(await page.locator('#start').isDisabled(), false, 'a key nothing reads does not refuse the file');
  const bad = join(mkdtempSync(join(tmpdir(), 'pacw-bad-')), 'bad.toml');
  writeFileSync(bad, readFileSync(join(fixtures, 'skirmish.toml'), 'utf8').replace('at = "b2"', 'at = "q9"'));
  await page.setInputFiles('#upload', bad);
  await page.locator('#upload-problems', { hasText: 'q9' }).waitFor();
  assert.equal(await page.locator('#start').isDisabled(), true, 'Start does not launch the previous choice');
  await cards.nth(0).click();
  assert.equal(await page.locator('#start').isDisabled(), false);
  // Every option and computer player is explained where it is chosen: the three levels first, veteran chosen.
  assert.equal(await page.locator('select[name=computer]').inputValue(), 'veteran');
  assert.deepEqual(await page.locator('select[name=computer] optgroup[label=Levels] option').allTextContents(),
    ['recruit', 'veteran', 'general']);
  assert.match(await page.locator('#player-help').textContent(), /^veteran: .*punishes loose play/);
  await page.selectOption('select[name=computer]', 'recruit');
  assert.match(await page.locator('#player-help').textContent(), /beatable by a newcomer/);
  await page.selectOption('select[name=computer]', 'mcts');
  assert.match(await page.locator('#player-help').textContent(), /laboratory/);
  await page.selectOption('select[name=initiative]', 'igougo');
  assert.match(await page.locator('.option-row', { hasText: 'Initiative' }).textContent(), /winner of a die roll/);
  await page.selectOption('select[name=mode]', 'two_players');
  assert.match(await page.locator('#mode-help').textContent(), /private link/);
  assert.equal(await page.locator('a[href="/rules#R3.7"]').count(), 1, 'the option links to its rule');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(screenshots, 'lobby-390.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('your games: links kept in this browser, with date, mode, players, whose turn, copy, remove, export and import', async () => {
  const page = await freshPage(env.browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(env.server.url);
  await page.click('.scenario-card[data-name="bloody-lane"]');
  await page.selectOption('select[name=mode]', 'two_players');
  await page.click('#start');
  await page.locator('#links input[data-role=A]').waitFor();
  const linkB = await page.locator('#links input[data-role=B]').inputValue();
  const row = page.locator('#your-games tr[data-token]');
  await row.first().waitFor();
  const text = await row.first().textContent();
  assert.match(text, /Bloody Lane/);
  assert.match(text, /two players/);
  assert.match(text, /Union: you/);
  assert.match(text, /\d{4}/, 'the date it was started');
  // The turn it stands at: turn 2 when the first card drawn was the joker (R3.3), which ends turn 1 at once.
  assert.match(text, /turn [12]\/8/);
  // Copy the opponent's link.
  await row.first().locator('button.copy', { hasText: /Confederate/ }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), linkB);
  // Export, remove, import.
  const download = page.waitForEvent('download');
  await page.click('#export-games');
  const file = await (await download).path();
  await row.first().locator('button', { hasText: 'remove' }).click();
  await page.locator('#your-games', { hasText: 'No games in this browser yet' }).waitFor();
  await page.setInputFiles('#import-games', file);
  await page.locator('#games-note', { hasText: '1 game added' }).waitFor();
  await row.first().waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('your games come first, your move on top, on the first screen; on a phone a tapped battle shows its description and Start', async () => {
  for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
    const page = await freshPage(env.browser, { viewport });
    await page.goto(env.server.url);
    // Six games: four watched (the computer on both sides, as many as one client may have going; on the second
    // screen size, hot-seat ones instead), one hot-seat, and one against the computer, where it is your move.
    for (let i = 0; i < 5; i++) {
      await page.selectOption('select[name=mode]', i < 4 && viewport.width > 1000 ? 'watch' : 'hotseat');
      await page.click('#start');
      await page.waitForURL(/game/);
      await page.goto(env.server.url);
    }
    await page.selectOption('select[name=mode]', 'computer');
    await page.click('#start');
    await page.waitForURL(/game/);
    await page.goto(env.server.url);
    const rows = page.locator('#your-games tr[data-token]');
    await page.locator('#your-games .your-move').first().waitFor();
    const top = await page.evaluate(() => document.querySelector('#your-games').getBoundingClientRect().top);
    assert.ok(top < 120, `${viewport.width}: your games start ${top} px down`);
    assert.match(await rows.first().textContent(), /your move/, 'your move first');
    assert.ok(await rows.first().isVisible() && (await rows.first().boundingBox()).y < viewport.height, 'on the first screen');
    assert.equal(await rows.locator(':scope:visible').count(), 4, 'four shown');
    await page.click('#all-games');
    await page.waitForFunction(() => [...document.querySelectorAll('#your-games tr[data-token]')].every((r) => !r.hidden));
    assert.equal(await rows.count(), 6);
    if (viewport.width === 390) {
      // The battles scroll sideways; a tap brings the description and its own Start up, without scrolling past them.
      const card = page.locator('.scenario-card[data-name="hornets-nest"]');
      await card.scrollIntoViewIfNeeded();
      await card.click();
      await page.locator('#detail h2', { hasText: 'Hornet' }).waitFor();
      await page.waitForFunction(() => {
        const r = document.querySelector('#start-here').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      });
      const page_h = await page.evaluate(() => document.querySelector('.scenarios').scrollWidth > document.querySelector('.scenarios').clientWidth);
      assert.ok(page_h, 'the battles scroll sideways');
      await page.screenshot({ path: join(screenshots, 'lobby-tap-390.png') });
      await page.click('#start-here');
      await page.waitForURL(/game/);
    } else {
      await page.screenshot({ path: join(screenshots, 'lobby-games-1366.png') });
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('hot-seat: a hand-over screen between the sides; the rules and the guide one click away', async () => {
  const page = await freshPage(env.browser, { settings: { handover: true } });
  await page.goto(env.server.url);
  await page.click('.scenario-card[data-name="meeting-engagement"]');
  await page.selectOption('select[name=mode]', 'hotseat');
  assert.equal(await page.locator('input[name=handover]').isChecked(), true, 'on by default');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  await page.locator('#status .you').waitFor();
  // End activations until the other side is to move: the screen is covered until its player says so.
  const first = await page.locator('#status .you .side-tag').textContent();
  for (let i = 0; i < 30 && !(await page.locator('#handover:not([hidden])').count()); i++) {
    await page.click('[data-order="end"]');
    await page.waitForTimeout(100);
  }
  const cover = page.locator('#handover:not([hidden])');
  await cover.waitFor();
  assert.notEqual(await cover.locator('.side-tag').textContent(), first);
  await page.screenshot({ path: join(screenshots, 'handover-1366.png') });
  await page.click('[data-handover]');
  await page.locator('#handover').waitFor({ state: 'hidden' });
  // The guide and the rules, from the game page; a rule id links to its section.
  const [rules] = await Promise.all([page.context().waitForEvent('page'), page.click('.game-menu a[href="/rules"]')]);
  await rules.waitForLoadState();
  assert.equal(await rules.locator('h3[id="R6.4"]').count(), 1);
  await rules.goto(`${env.server.url}guide`);
  assert.match(await rules.locator('h1').textContent(), /Your first game/);
  assert.ok(await rules.locator('a[href="/rules#R6.4"]').count() > 0);
  await rules.close();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('more numbers: a modifier, the turn limit and an exhaustion point changed in the lobby reach the game', async () => {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  await page.locator('.more-numbers summary').click();
  const cover = page.locator('#numbers input[name="modifier.cover"]');
  assert.equal(await cover.inputValue(), '-1', 'the battle\'s own value is shown');
  assert.equal(await page.locator('#numbers input[name="turns"]').inputValue(), '6');
  await cover.fill('0');
  await page.locator('#numbers input[name="turns"]').fill('3');
  await page.locator('#numbers input[name="exhaustion.confederate"]').fill('2');
  await page.screenshot({ path: join(screenshots, 'lobby-numbers-1366.png'), fullPage: true });
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  const token = page.url().split('/game/')[1].split('?')[0];
  const v = await view(env.server.url, token);
  assert.equal(v.options['modifier.cover'], '0');
  assert.equal(v.options.turns, '3');
  assert.equal(v.options['exhaustion.confederate'], '2');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rules: a shipped variant chosen in the lobby is the game\'s rules, named on the game page with what it changes', async () => {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  assert.equal(await page.locator('select[name="variant"]').inputValue(), '', 'the standard rules unless another is chosen');
  await page.selectOption('select[name="variant"]', 'close-combat');
  assert.match(await page.locator('#variant-help').textContent(), /Veterans charge harder/);
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  const token = page.url().split('/game/')[1].split('?')[0];
  const v = await view(env.server.url, token);
  assert.equal(v.scenario.rules.name, 'Close combat');
  const rules = page.locator('#variant-rules');
  assert.match(await rules.locator('summary').textContent(), /Played by the variant “Close combat”/);
  await rules.locator('summary').click();
  assert.match(await rules.textContent(), /V1 \+1 veteran élan: when charge and attacker.quality == 'veteran'/);
  // One variant alone: no word of which file wrote what.
  assert.equal(await rules.locator('.rule-from, #rule-layers').count(), 0);
  await page.screenshot({ path: join(screenshots, 'variant-game-1366.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rules: a battle that names a variant offers its own rules first, and a variant chosen is laid over them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pacw-own-variant-'));
  const battle = join(dir, 'close.toml');
  writeFileSync(battle, `variant = "close-combat"\n${readFileSync(join(fixtures, 'skirmish.toml'), 'utf8')}`);
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.setInputFiles('#upload', battle);
  await page.locator('#detail h2', { hasText: 'Skirmish' }).waitFor();
  const select = page.locator('select[name="variant"]');
  assert.equal(await select.inputValue(), '');
  assert.equal(await select.locator('option').first().textContent(), 'The battle’s own: Close combat', 'not “Standard rules”');
  assert.equal(await select.locator('option[value="close-combat"]').count(), 0, 'its own variant is not offered again');
  assert.match(await page.locator('#variant-help').textContent(), /played by the variant it names/);
  await page.selectOption('select[name="variant"]', 'hard-cover');
  assert.match(await page.locator('#variant-help').textContent(), /Laid over the battle’s own rules, Close combat\./);
  await page.locator('#variant-help').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'variant-over-own-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#variant-help').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'variant-over-own-390.png') });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  const token = page.url().split('/game/')[1].split('?')[0];
  const v = await view(env.server.url, token);
  assert.equal(v.scenario.rules.name, 'Close combat + Hard cover');
  assert.deepEqual(v.scenario.rules.layers.map((l) => l.file), ['close-combat.toml', 'hard-cover.toml']);
  // The game page names the files in order and, beside each rule, the file that wrote it last.
  const rules = page.locator('#variant-rules');
  await rules.locator('summary').click();
  assert.equal(await rules.locator('#rule-layers').textContent(),
    'Its variant files, each laid over the ones before it: close-combat.toml (Close combat), then hard-cover.toml (Hard cover).');
  const listed = await rules.textContent();
  assert.match(listed, /V1 \+1 veteran élan: when charge and attacker.quality == 'veteran' — from close-combat\.toml/);
  assert.match(listed, /H1 \+1 firing from higher ground: when not charge and attacker.higher — from hard-cover\.toml/);
  assert.match(listed, /steady fire: none at most the strength, shaken above — from close-combat\.toml/);
  assert.match(listed, /steady charge: [^—]* — from standard/);
  await rules.screenshot({ path: join(screenshots, 'variant-layers-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await rules.screenshot({ path: join(screenshots, 'variant-layers-390.png') });
  await page.setViewportSize({ width: 1366, height: 900 });
  // So does its rules page, in a last column of each table.
  await page.goto(`${env.server.url}game/${token}/rules`);
  assert.match(await page.locator('main, body').first().textContent(), /laid over the ones before it: close-combat\.toml \(Close combat\), then hard-cover\.toml \(Hard cover\)/);
  assert.equal(await page.locator('th', { hasText: /^from$/ }).count(), 3, 'to-hit modifiers, arms, hit results');
  assert.equal(await page.locator('tr', { has: page.locator('td', { hasText: /^H1$/ }) }).locator('td').last().textContent(), 'hard-cover.toml');
  // A shipped battle that names none: the standard rules first, every variant offered.
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  assert.equal(await select.locator('option').first().textContent(), 'Standard rules');
  assert.equal(await select.locator('option[value="close-combat"]').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rules: a variant file of the player\'s own is uploaded in the lobby; a broken one is refused at its line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pacw-variant-'));
  const good = join(dir, 'nerves.toml');
  writeFileSync(good, 'name = "Nerves"\n[[modifiers]]\nid = "N1"\nname = "steady nerves"\nvalue = 1\nwhen = "true"\n'
    + '[rally]\nid = "MR1"\nname = "rally test"\nneeded = 4\n[[rally_modifiers]]\nid = "R1"\nname = "veterans"\nvalue = 1\nwhen = "unit.quality == \'veteran\'"\n'
    + '[[result_modifiers]]\nid = "H1"\nname = "veterans in cover stand firm"\nvalue = 1\nwhen = "target.quality == \'veteran\' and target.cover"\n');
  const broken = join(dir, 'broken.toml');
  writeFileSync(broken, 'name = "Broken"\n[[modifiers]]\nid = "N1"\nvalue = 9\nwhen = "true"\n');
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.locator('.scenario-card[data-name="meeting-engagement"]').click();
  await page.selectOption('select[name="mode"]', 'hotseat');
  await page.selectOption('select[name="variant"]', 'own-file');
  await page.click('#start');
  assert.match(await page.locator('#start-problems').textContent(), /Choose your variant file/);
  await page.setInputFiles('#variant-file', broken);
  await page.click('#start');
  await page.locator('#start-problems', { hasText: 'broken.toml:4' }).waitFor();
  await page.locator('#start-problems').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'variant-upload-1366.png') });
  await page.setInputFiles('#variant-file', good);
  await page.click('#start');
  await page.waitForURL(/\/game\//);
  const token = page.url().split('/game/')[1].split('?')[0];
  assert.equal((await view(env.server.url, token)).scenario.rules.name, 'Nerves');
  await page.locator('#variant-rules').waitFor();
  // Its rally roll is listed with its id and its modifier.
  await page.locator('#variant-rules summary').click();
  const listed = await page.locator('#variant-rules').textContent();
  assert.match(listed, /MR1 rally test: a shaken unit activated rallies only on a die of 4 or more/);
  assert.match(listed, /R1 \+1 veterans to rally: when unit.quality == 'veteran'/);
  // So is its modifier to the hit-result roll (R7.1).
  assert.match(listed, /H1 \+1 veterans in cover stand firm: a hit target tests its strength at \+1 when target.quality == 'veteran' and target.cover/);
  await page.locator('#variant-rules').screenshot({ path: join(screenshots, 'variant-rally-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#variant-rules').screenshot({ path: join(screenshots, 'variant-rally-390.png') });
  assert.deepEqual(page.errors.filter((e) => !/status of 422/.test(e)), []);
  await page.context().close();
});

test('open a save: a simulated game opens in the replay view (its 64-bit seed intact); a file that is no save says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pacw-saves-'));
  execFileSync(binary, ['simulate', 'meeting-engagement', '--games', '1', '--players', 'greedy,greedy', '--save-games', dir]);
  const save = join(dir, 'meeting-engagement-base-00000.json');
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  const junk = join(dir, 'junk.json');
  writeFileSync(junk, '{"format": "pacw-save"}');
  await page.setInputFiles('#open-save', junk);
  await page.locator('#save-problems', { hasText: /cannot|missing|save/ }).waitFor();
  await page.setInputFiles('#open-save', save);
  await page.waitForURL(/\?replay/);
  await page.locator('#replay-slider').waitFor();
  const decisions = JSON.parse(readFileSync(save, 'utf8')).actions.length;
  assert.equal(await page.locator('#replay-slider').getAttribute('max'), String(decisions));
  assert.deepEqual(page.errors.filter((e) => !/Failed to load resource/.test(e)), []);
  await page.context().close();
});
