// The scenario editor (/editor): a small battle made from an empty board by clicks only, downloaded, accepted by
// `pacw check` and played for a few decisions; undo, redo and a reload keep the work; a shipped battle opened,
// changed so that a unit stands on a river, and the problem marked on the board; a quick balance test; a variant
// file with a terrain of its own opened as the battle's rules, its kind painted, written, refused rules that lack it,
// loaded again and played; one with an arm of its own, offered, drawn, written and refused by rules that lack it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { serverAndBrowser, freshPage, screenshots, binary, view, act, settledBox } from './server.mjs';

const env = serverAndBrowser();
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/// Where a square is on the page. The board is drawn again after each check, so that a square found may be gone
/// before it is measured: it is found again (the new one lies where the old one did).
const boxOf = (page, name) => settledBox(page.locator(`[data-square="${name}"]`));

/// Presses on a square and releases on another (the same for a click), as a mouse does.
async function drag(page, from, to) {
  const a = await boxOf(page, from);
  const b = await boxOf(page, to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
}

async function tool(page, name) {
  await page.click(`[data-tool="${name}"]`);
}

/// Clicks a square near its corner, beside any counter standing on it (painting under a unit is allowed).
async function square(page, name) {
  const box = await boxOf(page, name);
  await page.mouse.click(box.x + 5, box.y + box.height - 5);
}

/// Screenshots of the page 1366 wide and, whole, 390 wide (`NAME-1366.png`, `NAME-390.png`).
async function shots(page, name) {
  await page.screenshot({ path: join(screenshots, `${name}-1366.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(screenshots, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
}

/// Downloads the battle into a fresh folder beside a copy of the variant file it names, and checks it there with
/// `pacw check`: the file and its text.
async function downloadChecked(page, variant) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const dir = mkdtempSync(join(tmpdir(), 'pacw-editor-'));
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  writeFileSync(join(dir, basename(variant)), readFileSync(variant));
  execFileSync(binary, ['check', file], { encoding: 'utf8' });
  return { file, text: readFileSync(file, 'utf8') };
}

test('a battle made by clicks from an empty board is downloaded, accepted by pacw check and played', async () => {
  const page = await freshPage(env.browser);
  await page.goto(env.server.url);
  await page.click('#open-editor');
  await page.waitForURL(/\/editor$/);
  // A 6 × 6 board.
  await page.fill('#new-width', '6');
  await page.fill('#new-height', '6');
  await page.click('#new-board');
  assert.equal(await page.locator('[data-square]').count(), 36);
  // Woods painted by dragging over c3..e3, a hill at b5, a road up column a, a fence on the north edge of c2.
  await tool(page, 'terrain:woods');
  await drag(page, 'c3', 'e3');
  await tool(page, 'elevation:2');
  await square(page, 'b5');
  await tool(page, 'road:on');
  await drag(page, 'a1', 'a6');
  await tool(page, 'fence:toggle');
  const c2 = await boxOf(page, 'c2');
  await page.mouse.click(c2.x + c2.width / 2, c2.y + 3);
  // Units: two for the first side facing north, two for the second facing south; an objective worth 2 at d4.
  await tool(page, 'unit:place');
  await square(page, 'b1');
  await page.selectOption('#template-arm', 'cavalry');
  await square(page, 'd1');
  await page.fill('#unit-name', 'Buford’s troopers');
  await page.locator('#unit-name').press('Tab');
  await page.selectOption('#template-side', '1');
  await page.selectOption('#template-facing', 'S');
  await page.selectOption('#template-arm', 'infantry');
  await square(page, 'c6');
  await page.selectOption('#template-arm', 'artillery');
  await square(page, 'e6');
  await tool(page, 'objective:toggle');
  await square(page, 'd4');
  await page.fill('#objective-points', '2');
  await page.locator('#objective-points').press('Tab');
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('[data-unit]').count(), 4);
  assert.equal(await page.locator('.objectives .objective').count(), 1);
  await page.screenshot({ path: join(screenshots, 'editor-made-1366.png') });

  // Undo takes the objective's points back, then the objective; redo brings both again.
  await page.click('#undo');
  await page.click('#undo');
  assert.equal(await page.locator('.objectives .objective').count(), 0);
  await page.click('#redo');
  await page.click('#redo');
  assert.equal(await page.locator('.objectives .objective').count(), 1);
  // A reload keeps the work in progress.
  await page.reload();
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('[data-unit]').count(), 4);

  // Played by a shipped variant, chosen in the battle's settings.
  await page.selectOption('#battle-variant', 'hard-cover');
  await page.locator('#editor-problems .check-ok').waitFor();
  // The second side attacks (pooled reports count by attacker and defender).
  await page.selectOption('#battle-attacker', '1');
  await page.locator('#editor-problems .check-ok').waitFor();

  // Downloaded, the file reads like a hand-written one and pacw check accepts it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const file = join(mkdtempSync(join(tmpdir(), 'pacw-editor-')), download.suggestedFilename());
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^\[map\]$/m);
  assert.match(text, /terrain = """\n\.{6}\n/);
  assert.match(text, /fences = \["c2-c3"\]/);
  assert.match(text, /# --- Blue ---/);
  assert.match(text, /name = "Buford’s troopers"/);
  assert.match(text, /points = 2/);
  assert.match(text, /^variant = "hard-cover"/m);
  assert.match(text, /^attacker = "grey"/m);
  const checked = execFileSync(binary, ['check', file], { encoding: 'utf8' });
  assert.match(checked, /ok|valid|My battle/i, checked);

  // Played: a hot-seat game of it, a few decisions, shown on the battle page.
  await page.selectOption('#play-mode', 'hotseat');
  await page.click('#play');
  await page.waitForURL(/\/game\//);
  await page.locator('#status .whose').waitFor();
  const token = new URL(page.url()).pathname.split('/').pop();
  let v = await view(env.server.url, token);
  assert.equal(v.scenario.title, 'My battle');
  assert.equal(v.scenario.rules.name, 'Hard cover', 'the game is played by the battle\'s variant');
  for (let i = 0; i < 3; i++) {
    const pick = v.legal_actions.find((a) => a.action.activate !== undefined) || v.legal_actions[0];
    await act(env.server.url, token, { index: pick.index, decisions: v.decisions });
    v = await view(env.server.url, token);
  }
  await page.reload();
  await page.locator(`#board[data-decisions="${v.decisions}"]`).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a shipped battle opened and changed: a planted problem is marked on the board; a balance test reports', async () => {
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}editor`);
  await page.selectOption('#start-from', 'meeting-engagement');
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('#battle-name').inputValue(), 'Meeting Engagement');
  // The evaluator's instant estimate of the balance, beside Test balance (a symmetric battle: near even).
  await page.locator('#estimate', { hasText: 'Estimated balance' }).waitFor();
  const [union] = (await page.locator('#estimate').textContent()).match(/Union (\d+)%/).slice(1).map(Number);
  assert.ok(union >= 45 && union <= 55, `Union ${union}%`);
  // A river painted under the unit at c2: the engine's problem names c2, and the board outlines it.
  await tool(page, 'terrain:river');
  await square(page, 'c2');
  await page.locator('[data-problem="c2"]').waitFor();
  assert.match(await page.locator('#editor-problems').textContent(), /c2.*river/);
  assert.equal(await page.locator('#estimate').textContent(), '', 'no estimate of a battle the engine refuses');
  await page.screenshot({ path: join(screenshots, 'editor-problem-1366.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(screenshots, 'editor-problem-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  // Undo removes it.
  await page.click('#undo');
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('[data-problem]').count(), 0);
  // The quick balance test: each side's wins with an interval.
  await page.click('#test-balance');
  await page.locator('#balance-result li', { hasText: 'Union wins' }).waitFor({ timeout: 60000 });
  assert.match(await page.locator('#balance-result').textContent(), /300 games[\s\S]*Union wins: \d+\.\d% \[\d+\.\d%–\d+\.\d%\]/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the editor offers the format the engine reads: the lists it falls back on agree with GET /api/info', async () => {
  const model = await import('../../web/js/scenario-model.js');
  const info = await (await fetch(`${env.server.url}api/info`)).json();
  const f = info.scenario_format;
  assert.deepEqual(model.TERRAINS.map(([name, char]) => ({ name, char })), f.terrains.map(({ name, char }) => ({ name, char })));
  assert.deepEqual(model.IMPASSABLE, f.terrains.filter((t) => t.impassable).map((t) => t.name), 'the kinds no unit may enter');
  assert.deepEqual([model.ARMS, model.QUALITIES, model.FACINGS, model.HOMES], [f.arms, f.qualities, f.facings, f.homes]);
  assert.deepEqual([model.MIN_SIDE, model.MAX_SIDE], [f.min_side, f.max_side]);
  // Taken from the engine, the labels read as before.
  model.useFormat(f);
  assert.deepEqual(model.TERRAINS.map(([, , label]) => label), ['Open', 'Woods', 'Town', 'Sunken road', 'River', 'Ford']);
});

test('a variant file of one’s own with an arm of its own: the lists of arms offer it, units of it are written and checked, and rules without it are refused', async () => {
  const variant = join(root, 'docs', 'examples', 'skirmishers.toml');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}editor`);
  await page.fill('#new-width', '6');
  await page.fill('#new-height', '6');
  await page.click('#new-board');
  await tool(page, 'unit:place');
  const offered = () => page.locator('#template-arm option').allTextContents();
  assert.deepEqual(await offered(), ['infantry', 'cavalry', 'artillery'], 'the standard arms');
  // The variant opened as the battle's rules: its skirmishers join the lists of arms.
  await page.setInputFiles('#variant-upload', variant);
  await page.locator('#template-arm option[value="skirmishers"]').waitFor({ state: 'attached' });
  assert.deepEqual(await offered(), ['infantry', 'cavalry', 'artillery', 'skirmishers']);
  await page.selectOption('#template-arm', 'skirmishers');
  await square(page, 'b1');
  await page.selectOption('#template-side', '1');
  await page.selectOption('#template-arm', 'infantry');
  await page.selectOption('#template-facing', 'S');
  await square(page, 'e6');
  await page.locator('#editor-problems .check-ok').waitFor();
  await square(page, 'b1');
  assert.equal(await page.locator('#unit-arm').inputValue(), 'skirmishers', 'the unit placed is a skirmisher');
  assert.match(await page.locator('label', { has: page.locator('#unit-arm') }).getAttribute('title'), /acts as infantry; strength 3, moves 2, range 3/);
  // Drawn as the game draws it: marked as an arm of its own, with its own strength.
  assert.equal(await page.locator('#editor-board .arm-symbol.own-arm').count(), 1);
  const board = await page.locator('#editor-board').textContent();
  assert.match(board, /skirmishers \(as infantry\), strength 3/);
  assert.doesNotMatch(board, /NaN/);
  await shots(page, 'editor-own-arm');

  // Written with its arm, naming the file; beside it, pacw check accepts the battle.
  const { text } = await downloadChecked(page, variant);
  assert.match(text, /^variant = "skirmishers\.toml"/m);
  assert.match(text, /^arm = "skirmishers"/m);

  // Rules without skirmishers are refused while a unit is one: nothing is lost.
  await page.selectOption('#battle-variant', '');
  await page.locator('.editor-hint', { hasText: 'no skirmishers (the units on b1)' }).waitFor();
  assert.match(await page.locator('#rules-refused').textContent(), /^The standard rules have no skirmishers \(the units on b1\)\. Give those units another arm first/);
  assert.equal(await page.locator('#battle-variant').inputValue(), 'skirmishers.toml');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a variant file of one’s own with terrain of its own: its kinds join the palette, are painted, written, checked and loaded', async () => {
  const variant = join(root, 'docs', 'examples', 'entrenchments.toml');
  const page = await freshPage(env.browser);
  await page.goto(`${env.server.url}editor`);
  await page.fill('#new-width', '6');
  await page.fill('#new-height', '6');
  await page.click('#new-board');
  assert.equal(await page.locator('[data-tool="terrain:trench"]').count(), 0, 'the standard rules have no entrenchments');
  // The variant opened as the battle's rules: the engine reads it, and its entrenchments (E) join the palette.
  await page.setInputFiles('#variant-upload', variant);
  const trench = page.locator('[data-tool="terrain:trench"]');
  await trench.waitFor();
  assert.equal((await trench.textContent()).trim(), 'EEntrenchments', 'its swatch shows its map letter, then its name');
  assert.match(await trench.getAttribute('title'), /E: entering ends the move; cover; one sees across it/);
  assert.equal(await page.locator('#battle-variant').inputValue(), 'entrenchments.toml');
  // Painted along row 3; a unit a side, so that the engine accepts the battle.
  await tool(page, 'terrain:trench');
  await drag(page, 'c3', 'e3');
  await tool(page, 'unit:place');
  await square(page, 'b1');
  await page.selectOption('#template-side', '1');
  await page.selectOption('#template-facing', 'S');
  await square(page, 'e6');
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('.own-terrain-mark').count(), 3, 'the board marks each square of entrenchments');
  await shots(page, 'editor-own-terrain');

  // Written with the variant's letter, naming the file; beside it, pacw check accepts the battle.
  const { file, text } = await downloadChecked(page, variant);
  assert.match(text, /^variant = "entrenchments\.toml"/m);
  assert.match(text, /terrain = """\n(?:.{6}\n){3}\.\.EEE\.\n/);
  assert.match(text, /# Terrain: .*, E entrenchments\./);

  // Rules that lack the entrenchments are refused while the map holds them: nothing is lost.
  await page.selectOption('#battle-variant', '');
  await page.locator('.editor-hint', { hasText: 'no entrenchments on c3, d3, e3' }).waitFor();
  assert.match(await page.locator('#rules-refused').textContent(), /^The standard rules have no entrenchments on c3, d3, e3\./, 'said beside the rules too');
  assert.equal(await page.locator('#battle-variant').inputValue(), 'entrenchments.toml');
  assert.equal(await page.locator('.own-terrain-mark').count(), 3);

  // A reload keeps the rules, the file and the squares; the battle loaded from the file shows them again.
  await page.reload();
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('.own-terrain-mark').count(), 3);
  page.once('dialog', (d) => d.accept()); // start again from an empty board, units and all
  await page.click('#new-board');
  await page.locator('.own-terrain-mark').first().waitFor({ state: 'detached' });
  await page.setInputFiles('#editor-upload', file);
  await page.locator('.own-terrain-mark').nth(2).waitFor();
  await page.locator('#editor-problems .check-ok').waitFor();
  assert.equal(await page.locator('.own-terrain-mark').count(), 3);
  assert.equal(await page.locator('#battle-variant').inputValue(), 'entrenchments.toml');
  assert.equal(await page.locator('.own-terrain-mark').first().textContent(), 'E');

  // Played: the game is played by the variant, its squares of entrenchments as painted.
  await page.selectOption('#play-mode', 'hotseat');
  await page.click('#play');
  await page.waitForURL(/\/game\//);
  const v = await view(env.server.url, new URL(page.url()).pathname.split('/').pop());
  assert.equal(v.scenario.rules.name, 'Entrenchments');
  assert.deepEqual(v.scenario.map.squares.filter((s) => s.terrain === 'trench').map((s) => s.at), ['c3', 'd3', 'e3']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
