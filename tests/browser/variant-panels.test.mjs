// The game page says what the rules in force say (issue 40): the square panel's cover, terrain and road under a
// variant (hard-cover's cover −2; a variant's woods, road bonus), the odds box's hit-result modifiers and the
// strength the roll is tested against, and the variant summary's arms, terrain kinds and road bonus.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, cardFor, screenshots } from './server.mjs';

const skirmish = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skirmish.toml'), 'utf8');
const env = serverAndBrowser();

/// The Skirmish with a road up the a-file, a2 to a8.
const withRoad = skirmish.replace('elevation = """', `roads = """\n${'#.......\n'.repeat(7)}........\n"""\nelevation = """`);

/// A variant of its own ground: slower woods that stop cavalry, a road bonus of 2, and a hit-result modifier on
/// every fire (docs/variants.md).
const ground = `name = "Ground"
description = "Thick woods, good roads, troops that stand under fire."
[[arms]]
id = "skirmishers"
name = "Skirmishers"
like = "infantry"
strength = 3
move = 2
range = 3
[[terrain]]
id = "woods"
move = 2
move_by_arm = { cavalry = "stop" }
[movement]
road_bonus = 2
[[result_modifiers]]
id = "F1"
name = "dug in"
value = 1
when = "not charge"
`;

const VIEWPORTS = [{ width: 1366, height: 900 }, { width: 390, height: 844 }];

/// A hot-seat game of `text` under the rules asked, on a Blue card, open in a page of the viewport.
async function gamePage(rules, viewport, text = skirmish) {
  const { token } = await createGame(env.server.url, { scenario_text: text, scenario_file: 'skirmish.toml', mode: 'hotseat', ...rules }, 'hotseat');
  await cardFor(env.server.url, token, 'A', 1);
  const page = await freshPage(env.browser, { viewport });
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .you').waitFor();
  return page;
}

/// The info panel's text for a square clicked.
async function squareText(page, square) {
  await page.click(`[data-square="${square}"]`);
  const info = page.locator('#info');
  await info.getByText(`Square ${square}`).first().waitFor();
  return (await info.innerText()).replace(/\s+/g, ' ');
}

test('under hard-cover the square panel gives cover its −2; under the standard rules its −1', async () => {
  for (const viewport of VIEWPORTS) {
    const page = await gamePage({ variant: 'hard-cover' }, viewport);
    const woods = await squareText(page, 'h3');
    assert.match(woods, /Cover yes: the terrain gives cover \(R6\.3a\), −2 to hit \(by hard-cover\.toml, when target\.cover\)/);
    assert.doesNotMatch(woods, /−1 to hit/);
    assert.match(woods, /Terrain woods — blocks sight; entering ends the move \(R1\.5\)/);
    assert.match(await squareText(page, 'd7'), /−2 to hit/, 'the sunken road too');
    await page.locator('#info').screenshot({ path: join(screenshots, `hard-cover-square-${viewport.width}.png`) });
    // The summary above the board names the standard rule it changes beside its own.
    await page.locator('#variant-rules summary').click();
    const summary = (await page.locator('#variant-rules').innerText()).replace(/\s+/g, ' ');
    assert.match(summary, /cover \(R6\.3\) -2 target in cover: when target\.cover/);
    assert.match(summary, /H1 \+1 firing from higher ground/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // The standard rules: −1, the standard road bonus.
  const page = await gamePage({}, VIEWPORTS[0], withRoad);
  const woods = await squareText(page, 'h3');
  assert.match(woods, /Cover yes: the terrain gives cover \(R6\.3a\), −1 to hit/);
  assert.doesNotMatch(woods, /\(by /, 'the standard cover rule is not a variant\'s');
  assert.match(await squareText(page, 'a4'), /Road yes: \+1 square for a Move along it \(R1\.6\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the square panel: a variant's woods and road bonus, as the rules in force make them", async () => {
  for (const viewport of VIEWPORTS) {
    const page = await gamePage({ variant_text: ground, variant_file: 'ground.toml' }, viewport, withRoad);
    const woods = await squareText(page, 'h3');
    assert.match(woods, /Terrain woods — blocks sight; costs 2 squares of a move; cavalry: entering ends the move \(the variant's\)/);
    assert.match(woods, /Cover yes: the terrain gives cover \(R6\.3a\), −1 to hit/);
    assert.match(await squareText(page, 'a4'), /Road yes: \+2 squares for a Move along it \(R1\.6, ground\.toml\)/);
    await page.locator('#info').screenshot({ path: join(screenshots, `variant-ground-square-${viewport.width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the odds box names each hit-result modifier by its id and name, and the strength the roll is tested at', async () => {
  for (const viewport of VIEWPORTS) {
    const page = await gamePage({ variant_text: ground, variant_file: 'ground.toml' }, viewport, withRoad);
    await squareText(page, 'h3');
    // The Iron Brigade fires at the Pickets (regular infantry, strength 4): F1 tests the roll at 5.
    await page.click('[data-unit="1"]');
    await page.locator('[data-unit="4"] .needed-text').waitFor();
    await page.click('[data-unit="4"]');
    const odds = page.locator('#odds');
    await odds.waitFor();
    const text = (await odds.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /target strength 4, its hit-result roll tested at 5 \(R7\.1\)/);
    assert.equal((await page.locator('#result-modifiers').innerText()).trim(), "F1 +1 dug in (to the hit-result roll's strength, R7.1)");
    assert.ok(await page.locator('#result-modifiers a.rule').count() > 0, 'R7.1 is a link to the rule');
    await page.screenshot({ path: join(screenshots, `variant-ground-odds-${viewport.width}.png`), fullPage: viewport.width < 500 });
    await odds.screenshot({ path: join(screenshots, `variant-ground-odds-box-${viewport.width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // The standard rules: the strength alone, no list.
  const page = await gamePage({}, VIEWPORTS[0]);
  await page.click('[data-unit="1"]');
  await page.locator('[data-unit="4"] .needed-text').waitFor();
  await page.click('[data-unit="4"]');
  await page.locator('#odds').waitFor();
  assert.match(await page.locator('#odds').innerText(), /target strength 4$/m);
  assert.equal(await page.locator('#result-modifiers').count(), 0);
  await page.context().close();
});

test("the variant's summary above the board names its own arms, terrain kinds and road bonus", async () => {
  for (const viewport of VIEWPORTS) {
    const page = await gamePage({ variant_text: ground, variant_file: 'ground.toml' }, viewport, withRoad);
    await page.locator('#variant-rules summary').click();
    const summary = (await page.locator('#variant-rules').innerText()).replace(/\s+/g, ' ');
    assert.match(summary, /Skirmishers: as infantry, strength 3, move 2, range 3 \(R2\.2, R2\.6\)/);
    assert.match(summary, /woods \(W\): costs 2 squares of a move; cavalry: entering ends the move, cover, blocks sight \(R1\.5\)/);
    assert.match(summary, /road bonus \+2 squares for a Move along a road \(R1\.6\)/);
    assert.match(summary, /F1 \+1 dug in/);
    assert.doesNotMatch(summary, /town \(T\)|Infantry:/, 'a kind or an arm it leaves as it was is not listed');
    assert.ok(await page.locator('#variant-rules-page').count(), 'the full rules page is one click away');
    await page.locator('#variant-rules').screenshot({ path: join(screenshots, `variant-ground-summary-${viewport.width}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
