// Pace and deadlines in a browser: Bea posts a game at three days a move, Cy joins it from another browser context
// (a phone's), both pages show the time left; the server's test clock is moved past the deadline (never a wait), and
// the waiting player claims the win, shown in words. Then a draw offered and declined in a second game. And a player
// on vacation: their page starts and ends it, and their clock stands still on both players' pages. Screenshots at
// 1366×900 and 390×844.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serverAndBrowser, freshPage, screenshots } from './server.mjs';

const env = serverAndBrowser({ args: ['--test-clock'] });

async function signUp(page, name) {
  await page.goto(`${env.server.url}account`);
  await page.locator('#signup-form').waitFor();
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', 'a long password');
  await page.click('#signup-form button[type=submit]');
  // On a phone the header's links are behind its Menu button: signed up once the page's link is there.
  await page.locator('#my-page', { hasText: name }).waitFor({ state: 'attached' });
}

/// Bea posts her `nth` game (from 1) at `pace`; Cy joins it from its invitation; both pages are on the game, each
/// player's status shown.
async function postAndJoin(bea, cy, pace, nth) {
  await bea.goto(`${env.server.url}room`);
  await bea.selectOption('#post-scenario', 'meeting-engagement');
  await bea.selectOption('#post-side', 'A');
  await bea.selectOption('#post-pace', pace);
  await bea.check('#post-private');
  await bea.click('#post-game');
  const link = await bea.locator('#invite-link').inputValue();
  await cy.goto(link);
  await cy.click('#join-game');
  await cy.waitForURL(/\/game\/[0-9a-f]{32}$/);
  // The room lists every joined game this browser posted: hers is the newest, once it is there.
  await bea.waitForFunction((n) => document.querySelectorAll('#open-joined').length >= n, nth, { timeout: 15000 });
  await bea.locator('#open-joined').nth(nth - 1).click();
  await bea.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await Promise.all([bea, cy].map((p) => p.locator('#status .whose').waitFor()));
}

/// The page whose move it is, and the other.
async function moverAndWaiter(bea, cy) {
  for (let tries = 0; tries < 100; tries++) {
    if (await bea.locator('#status .you').count()) return [bea, cy];
    if (await cy.locator('#status .you').count()) return [cy, bea];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('neither page says it is its move');
}

test('a game at three days a move shows the time left, and past the deadline the waiting player claims the win', { timeout: 180000 }, async () => {
  const bea = await freshPage(env.browser);
  const cy = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true } });
  await signUp(bea, 'Bea');
  await signUp(cy, 'Cy');
  await postAndJoin(bea, cy, '3d', 1);
  const [mover, waiter] = await moverAndWaiter(bea, cy);
  for (const [page, whose] of [[mover, 'Your move'], [waiter, 'theirs']]) {
    const panel = page.locator('#deadline:not([hidden]) #deadline-text');
    await panel.waitFor();
    // A minute begun counts: three days less the seconds since the game began read "3 days".
    assert.match(await panel.textContent(), whose === 'Your move' ? /^Your move: 3 days left \(3 days a move\)\.$/ : /^(Union|Confederate)’s move: 3 days left \(3 days a move\)\.$/);
    assert.equal(await page.locator('#claim-win').isHidden(), true, 'nothing to claim before the deadline');
  }
  await bea.screenshot({ path: join(screenshots, 'deadline-1366.png') });
  await cy.screenshot({ path: join(screenshots, 'deadline-390.png') });
  // A player's page shows the time left too (on a phone, in place of when the last move was).
  const phone = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true } });
  await phone.goto(`${env.server.url}players/Bea`);
  const row = phone.locator('#player-games tr[data-game]');
  await row.waitFor();
  assert.match(await row.textContent(), /3 days/);
  await phone.screenshot({ path: join(screenshots, 'deadline-player-390.png') });
  await phone.context().close();

  // Three days and an hour later, by the server's test clock.
  const moved = await fetch(`${env.server.url}api/test/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hours: 73 }) });
  assert.equal(moved.status, 200);
  await waiter.reload();
  const claim = waiter.locator('#claim-win:not([hidden])');
  await claim.waitFor();
  assert.match(await waiter.locator('#deadline-text').textContent(), /time to move has run out: .* may claim the win/);
  await waiter.screenshot({ path: join(screenshots, `deadline-claim-${waiter.viewportSize().width}.png`) });
  await mover.reload();
  await mover.locator('#deadline:not([hidden])').waitFor();
  assert.match(await mover.locator('#deadline-text').textContent(), /^Your time to move has run out: your opponent may claim the win/);
  assert.equal(await mover.locator('#claim-win').isHidden(), true, 'the late player has nothing to claim');
  await claim.click();
  for (const page of [waiter, mover]) {
    const result = page.locator('#result-screen:not([hidden])');
    await result.waitFor({ timeout: 15000 });
    assert.match(await result.textContent(), /on time: .* did not move by the deadline/);
  }
  await waiter.screenshot({ path: join(screenshots, `deadline-won-${waiter.viewportSize().width}.png`) });
  // The win counts: the waiting player's page says won.
  const name = waiter === bea ? 'Bea' : 'Cy';
  await waiter.goto(`${env.server.url}players/${name}`);
  await waiter.locator('#player-games tr[data-game]').waitFor();
  assert.match(await waiter.locator('#player-games').textContent(), /won — Game over: .* did not move by the deadline/);
  assert.match(await waiter.locator('#player-rating').textContent(), /1 won, 0 lost/);

  // A second game: a draw offered and declined, then offered and accepted.
  await postAndJoin(bea, cy, 'live', 2);
  assert.equal(await bea.locator('#deadline').isHidden(), true, 'a live game has no deadline');
  await bea.click('#offer-draw');
  await cy.locator('#draw:not([hidden]) #accept-draw').waitFor();
  assert.match(await cy.locator('#draw-text').textContent(), /offers a draw/);
  await cy.screenshot({ path: join(screenshots, 'draw-offer-390.png') });
  await cy.click('#decline-draw');
  await bea.locator('#draw-text', { hasText: 'declined' }).waitFor();
  await bea.click('#offer-draw');
  await cy.locator('#draw:not([hidden]) #accept-draw').waitFor();
  await cy.click('#accept-draw');
  for (const page of [bea, cy]) {
    const result = page.locator('#result-screen:not([hidden])');
    await result.waitFor({ timeout: 15000 });
    assert.match(await result.textContent(), /A draw.*agreed between the players/s);
  }
  assert.equal(await bea.locator('#offer-draw').isHidden(), true, 'nothing to offer once the game is over');
  await bea.screenshot({ path: join(screenshots, 'draw-agreed-1366.png') });
  assert.deepEqual(bea.errors, []);
  assert.deepEqual(cy.errors, []);
  await bea.context().close();
  await cy.context().close();
});

test('a player on vacation: their page starts and ends it, and the clock of their move stands still meanwhile', { timeout: 180000 }, async () => {
  const dee = await freshPage(env.browser);
  const eli = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true } });
  await signUp(dee, 'Dee');
  await signUp(eli, 'Eli');
  await postAndJoin(dee, eli, '3d', 1);
  const [mover, waiter] = await moverAndWaiter(dee, eli);
  const name = mover === dee ? 'Dee' : 'Eli';
  const gameUrl = mover.url();
  const shoot = async (page, what) => {
    const size = page.viewportSize();
    for (const [width, height] of [[1366, 900], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: join(screenshots, `${what}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize(size);
  };

  // The player to move goes on vacation for three days from their page.
  await mover.goto(`${env.server.url}players/${name}`);
  const panel = mover.locator('#player-vacation');
  await panel.waitFor();
  assert.match(await mover.locator('#vacation-left').textContent(), /^14 days of 14 left this year\.$/);
  await shoot(mover, 'vacation-start');
  await mover.fill('#vacation-days', '3');
  await mover.click('#start-vacation');
  await mover.locator('#vacation-until').waitFor();
  assert.match(await mover.locator('#vacation-left').textContent(), /^11 days of 14 left this year\.$/);
  await shoot(mover, 'vacation-own-page');

  // Both game pages say so; the waiting player's page says their opponent's clock stands still.
  await waiter.reload();
  const text = waiter.locator('#deadline:not([hidden]) #deadline-text');
  await text.waitFor();
  assert.match(await text.textContent(), /^Your opponent is on vacation until .+: their clock stands at (3 days|2 days 23 hours) \(3 days a move\)\.$/);
  await shoot(waiter, 'vacation-opponent-game');
  await mover.goto(gameUrl);
  await mover.locator('#deadline:not([hidden])').waitFor();
  assert.match(await mover.locator('#deadline-text').textContent(), /^You are on vacation until .+: your clock stands at/);
  // The opponent sees it on the player's page too, and the game's time left stopped.
  const waiterUrl = waiter.url();
  await waiter.goto(`${env.server.url}players/${name}`);
  await waiter.locator('#player-away').waitFor();
  assert.match(await waiter.locator('#player-games').textContent(), /stopped: on vacation/);
  assert.equal(await waiter.locator('#player-vacation').count(), 0, 'the days left are the player\'s own');
  await shoot(waiter, 'vacation-their-page');
  // And the lobby's list of this browser's games.
  await waiter.goto(env.server.url);
  const note = waiter.locator('#your-games .deadline-left');
  await note.waitFor();
  assert.match(await note.textContent(), /on vacation: the clock stands at (3 days|2 days 23 hours) until .+ \(3 days a move\)/);
  await shoot(waiter, 'vacation-lobby');

  // A day later they come back early: two days begun are used. The deadline has not moved meanwhile.
  const moved = await fetch(`${env.server.url}api/test/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hours: 24 }) });
  assert.equal(moved.status, 200);
  await mover.goto(`${env.server.url}players/${name}`);
  await mover.click('#end-vacation');
  await mover.locator('#start-vacation').waitFor();
  assert.match(await mover.locator('#vacation-left').textContent(), /^12 days of 14 left this year\.$/);
  await waiter.goto(waiterUrl);
  await text.waitFor();
  assert.match(await text.textContent(), /’s move: (3 days|2 days 23 hours) left \(3 days a move\)\.$/);
  assert.equal(await waiter.locator('#claim-win').isHidden(), true);
  assert.deepEqual(dee.errors, []);
  assert.deepEqual(eli.errors, []);
  await dee.context().close();
  await eli.context().close();
});
