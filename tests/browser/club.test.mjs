// The club in a browser: two people sign up in two browser contexts, one posts a rated game in the waiting room and
// sends the invitation, the other joins it from the link, both play by clicks, they chat (one mutes it), one
// resigns, and the leaderboard and both players' pages show the ratings moved; two more are paired by the match
// maker. Screenshots of the new pages at 1366×900 and 390×844.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serverAndBrowser, freshPage, screenshots, createGame, view, act } from './server.mjs';

const env = serverAndBrowser();

async function signUp(page, name) {
  await page.goto(`${env.server.url}account`);
  await page.locator('#signup-form').waitFor();
  await page.screenshot({ path: join(screenshots, `signup-${page.viewportSize().width}.png`) });
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', 'a long password');
  await page.click('#signup-form button[type=submit]');
  // On a phone the header's links are behind its Menu button: signed up once the page's link is there.
  await page.locator('#my-page', { hasText: name }).waitFor({ state: 'attached' });
}

/// The side to move ends its activations by a click on the board's End button.
async function playOneDecision(pages) {
  for (let tries = 0; tries < 200; tries++) {
    for (const page of pages) {
      if (await page.locator('#status .you').count() && await page.locator('[data-order="end"]').count()) {
        const before = await page.locator('#board').getAttribute('data-decisions');
        await page.click('[data-order="end"]');
        await page.waitForFunction((n) => document.querySelector('#board')?.dataset.decisions !== n, before);
        return page;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('neither player could move');
}

test('sign up, post a rated game, the other joins by the invitation, both play, one resigns, the ratings move', { timeout: 180000 }, async () => {
  const bea = await freshPage(env.browser);
  await bea.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(bea, 'Bea');
  await bea.screenshot({ path: join(screenshots, 'account-1366.png') });
  // Before any posting: the lobby's two-player game has its own "send this to your opponent" step.
  await bea.goto(env.server.url);
  await bea.click('.scenario-card[data-name="bloody-lane"]');
  await bea.selectOption('select[name=mode]', 'two_players');
  await bea.click('#start');
  await bea.locator('#links #invite-link[data-role=B]').waitFor();
  assert.match(await bea.locator('#invite-title').textContent(), /Send this to your opponent: they play Confederate/);
  await bea.locator('#open-own-side').waitFor();
  await bea.screenshot({ path: join(screenshots, 'lobby-invite-1366.png') });
  await bea.goto(`${env.server.url}room`);
  await bea.selectOption('#post-scenario', 'meeting-engagement');
  await bea.selectOption('#post-side', 'A');
  await bea.check('#post-private');
  await bea.click('#post-game');
  // The clear next step: the invitation, with Copy.
  const invite = bea.locator('#invite-link');
  await invite.waitFor();
  const link = await invite.inputValue();
  assert.match(link, /\/room\/[0-9a-f]{32}$/);
  await bea.click('#copy-invite');
  assert.equal(await bea.evaluate(() => navigator.clipboard.readText()), link);
  await bea.screenshot({ path: join(screenshots, 'room-invite-1366.png'), fullPage: true });
  // Private: not listed to others.
  const cy = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true } });
  await cy.goto(link);
  await cy.locator('a', { hasText: 'Log in or sign up to join' }).click();
  await cy.fill('#signup-name', 'Cy <script>');
  await cy.fill('#signup-password', 'a long password');
  await cy.click('#signup-form button[type=submit]');
  await cy.locator('#signup-problem', { hasText: 'letters, digits' }).waitFor();
  await cy.fill('#signup-name', "Cy O'Neil");
  await cy.click('#signup-form button[type=submit]');
  // Back on the invitation, logged in.
  await cy.locator('#join-game').waitFor();
  assert.match(await cy.locator('h1').textContent(), /Bea invites you to Meeting Engagement/);
  await cy.screenshot({ path: join(screenshots, 'invitation-390.png') });
  await cy.click('#join-game');
  await cy.waitForURL(/\/game\/[0-9a-f]{32}$/);
  // Bea's room page sees the game joined and opens it.
  await bea.locator('#open-joined').click({ timeout: 15000 });
  await bea.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await Promise.all([bea, cy].map((p) => p.locator('#status .whose').waitFor()));
  // Both play: the side to move ends its activations, until each has played (the cards may give a side two turns
  // running).
  const played = new Set();
  for (let i = 0; i < 20 && played.size < 2; i++) played.add(await playOneDecision([bea, cy]));
  assert.equal(played.size, 2, 'each played');
  // They chat: a message with HTML in it reaches the other live, shown as the text it is.
  await bea.fill('#chat-text', 'Good game <b>so far</b> & more');
  await bea.click('#chat-send');
  const heard = cy.locator('#chat-list li.theirs');
  await heard.waitFor();
  assert.match(await heard.textContent(), /^Union .*Good game <b>so far<\/b> & more$/s, "the writer by their side");
  assert.equal(await cy.locator('#chat-list b').count(), 0, 'no markup from a message');
  await cy.screenshot({ path: join(screenshots, 'chat-390.png'), fullPage: true });
  // Cy mutes it (in this browser): the chat is hidden, and stays so after a reload.
  await cy.check('#chat-mute');
  assert.equal(await cy.locator('#chat-list').isHidden(), true);
  await cy.reload();
  await cy.locator('#chat-mute:checked').waitFor();
  assert.equal(await cy.locator('#chat-list').isHidden(), true);
  await cy.locator('#status .whose').waitFor();
  // Cy resigns.
  cy.once('dialog', (d) => d.accept());
  await cy.click('#resign');
  await cy.locator('#result-screen:not([hidden])').waitFor();
  // The leaderboard: Bea above 1500, Cy below, with the names as written.
  await bea.goto(`${env.server.url}leaderboard`);
  const rows = bea.locator('#leaderboard tr');
  await rows.nth(2).waitFor();
  assert.match(await rows.nth(1).textContent(), /^1Bea1[5-9]\d\d± \d+1 won, 0 lost, 0 drawn$/);
  assert.match(await rows.nth(2).textContent(), /^2Cy O'Neil1[0-4]\d\d± \d+0 won, 1 lost, 0 drawn$/);
  await bea.screenshot({ path: join(screenshots, 'leaderboard-1366.png') });
  // Each player's page: the game, its outcome, the rating.
  await bea.click('#my-page');
  const rated = bea.locator('#player-games tr[data-game]', { hasText: 'Meeting Engagement' });
  await rated.waitFor();
  assert.match(await rated.textContent(), /Meeting Engagement.*Cy O'Neil.*won/);
  // The lobby's two-player game is hers too (made while logged in), against a guest until claimed.
  assert.match(await bea.locator('#player-games tr[data-game]', { hasText: 'Bloody Lane' }).textContent(), /a guest/);
  assert.match(await bea.locator('#player-rating').textContent(), /1 won, 0 lost/);
  await bea.screenshot({ path: join(screenshots, 'player-1366.png') });
  await cy.goto(`${env.server.url}players/${encodeURIComponent("Cy O'Neil")}`);
  await cy.locator('#player-games tr[data-game]').waitFor();
  assert.match(await cy.locator('#player-games').textContent(), /lost/);
  await cy.screenshot({ path: join(screenshots, 'player-390.png') });
  // The refused sign-up is the one failed request (the browser logs its 400).
  assert.deepEqual(bea.errors, []);
  assert.deepEqual(cy.errors.filter((e) => !/status of 400/.test(e)), []);
  await bea.context().close();
  await cy.context().close();
});

test('the waiting room and the account page at a phone\'s size, a public posting listed to a guest', async () => {
  const dee = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true } });
  await signUp(dee, 'Dee');
  await dee.screenshot({ path: join(screenshots, 'account-390.png'), fullPage: true });
  await dee.goto(`${env.server.url}room`);
  await dee.selectOption('#post-scenario', 'bloody-lane');
  await dee.click('#post-game');
  await dee.locator('#invite-link').waitFor();
  await dee.screenshot({ path: join(screenshots, 'room-390.png'), fullPage: true });
  // The header keeps to one line on a phone: its links behind a Menu button, opened and closed by the keyboard.
  const header = async () => dee.evaluate(() => ({
    height: Math.round(document.querySelector('header.top').getBoundingClientRect().height),
    expanded: document.querySelector('.menu-button').getAttribute('aria-expanded'),
    shown: document.querySelector('#my-page').getBoundingClientRect().height > 0,
    focus: document.activeElement.className,
  }));
  const closed = await header();
  assert.ok(closed.height <= 60 && closed.expanded === 'false' && !closed.shown, `one line: ${JSON.stringify(closed)}`);
  await dee.focus('.menu-button');
  await dee.keyboard.press('Enter');
  const open = await header();
  assert.ok(open.expanded === 'true' && open.shown, `opened: ${JSON.stringify(open)}`);
  await dee.screenshot({ path: join(screenshots, 'header-menu-390.png') });
  await dee.keyboard.press('Tab');
  assert.equal(await dee.evaluate(() => document.activeElement.textContent), 'Waiting room');
  await dee.keyboard.press('Escape');
  assert.deepEqual(await header(), { ...closed, focus: 'menu-button' });
  await dee.click('.menu-button');
  await dee.click('#my-page');
  await dee.waitForURL(/players\/Dee$/);
  const guest = await freshPage(env.browser);
  await guest.goto(`${env.server.url}room`);
  const row = guest.locator('#postings tr[data-posting]', { hasText: 'Bloody Lane' });
  await row.waitFor();
  assert.match(await row.textContent(), /Dee.*log in to join/);
  await guest.screenshot({ path: join(screenshots, 'room-1366.png'), fullPage: true });
  for (const page of [dee, guest]) assert.deepEqual(page.errors, []);
  await dee.context().close();
  await guest.context().close();
});

test('a take-back asked by one player is accepted by the other, in two browsers', async () => {
  const { created } = await createGame(env.server.url, { scenario: 'meeting-engagement', mode: 'two_players' }, 'A');
  const [a, b] = [created.tokens.A, created.tokens.B];
  const mover = (await view(env.server.url, a)).your_turn ? a : b;
  const other = mover === a ? b : a;
  const activate = (await view(env.server.url, mover)).legal_actions.find((x) => x.action.activate !== undefined).index;
  await act(env.server.url, mover, { index: activate });
  const [asker, answerer] = [await freshPage(env.browser), await freshPage(env.browser, { viewport: { width: 390, height: 844 } })];
  await asker.goto(`${env.server.url}game/${mover}`);
  await answerer.goto(`${env.server.url}game/${other}`);
  await Promise.all([asker, answerer].map((p) => p.locator('#board[data-decisions="1"]').waitFor({ state: 'attached' })));
  await asker.click('#ask-takeback');
  await asker.locator('#takeback-text', { hasText: 'waiting for the other player' }).waitFor();
  await answerer.locator('#accept-takeback').waitFor();
  assert.match(await answerer.locator('#takeback-text').textContent(), /asks to take back their last decision/);
  await answerer.screenshot({ path: join(screenshots, 'takeback-390.png') });
  await answerer.click('#accept-takeback');
  await Promise.all([asker, answerer].map((p) => p.locator('#board[data-decisions="0"]').waitFor({ state: 'attached' })));
  await asker.locator('#takeback-text', { hasText: 'accepted' }).waitFor();
  for (const page of [asker, answerer]) assert.deepEqual(page.errors, []);
  await asker.context().close();
  await answerer.context().close();
});

test('the match maker pairs two players asking for the same kind of game, in two browsers', { timeout: 120000 }, async () => {
  const eve = await freshPage(env.browser);
  const flo = await freshPage(env.browser, { viewport: { width: 390, height: 844 }, context: { isMobile: true, hasTouch: true } });
  await signUp(eve, 'Eve');
  await signUp(flo, 'Flo');
  for (const page of [eve, flo]) {
    await page.goto(`${env.server.url}room`);
    await page.locator('#seek-form').waitFor();
    await page.selectOption('#seek-size', 'small');
    await page.selectOption('#seek-pace', '1d');
  }
  await flo.screenshot({ path: join(screenshots, 'seek-390.png'), fullPage: true });
  // Eve asks first: nobody fits, she waits (and could stop looking).
  await eve.click('#find-opponent');
  await eve.locator('#seek-waiting').waitFor();
  assert.match(await eve.locator('#seek-waiting').textContent(), /small \(up to 14 units\), 1 day a move, rated/);
  assert.equal(await eve.locator('#seek-form').isHidden(), true);
  await eve.screenshot({ path: join(screenshots, 'seek-waiting-1366.png'), fullPage: true });
  // Flo asks for the same: paired at once; Eve's page finds the game on its next look.
  await flo.click('#find-opponent');
  await flo.locator('#open-paired').waitFor();
  await flo.screenshot({ path: join(screenshots, 'seek-paired-390.png'), fullPage: true });
  await eve.locator('#open-paired').waitFor({ timeout: 15000 });
  for (const page of [eve, flo]) {
    await page.click('#open-paired');
    await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
    await page.locator('#status .whose').waitFor();
    await page.locator('#deadline:not([hidden])').waitFor();
  }
  for (const page of [eve, flo]) assert.deepEqual(page.errors, []);
  await eve.context().close();
  await flo.context().close();
});

test('a player\'s own page says "your move" when the move is theirs, and others see whose move it is', { timeout: 120000 }, async () => {
  // Two two-player games of which the guest holds the Confederate (B) side: one standing at the Confederate's
  // move (a Confederate card), one at the Union's.
  const at = {};
  for (let i = 0; i < 40 && !(at.mine && at.theirs); i++) {
    const { created } = await createGame(env.server.url, { scenario: 'meeting-engagement', mode: 'two_players' }, 'B');
    const v = await view(env.server.url, created.tokens.B);
    at[v.your_turn ? 'mine' : 'theirs'] ??= { id: created.id, token: created.tokens.B };
  }
  assert.ok(at.mine && at.theirs, 'a game at each side\'s move');
  // Eli plays both in this browser as a guest, signs up and adds them to his account.
  const eli = await freshPage(env.browser);
  for (const g of [at.mine, at.theirs]) {
    await eli.goto(`${env.server.url}game/${g.token}`);
    await eli.locator('#status .whose').waitFor();
  }
  await signUp(eli, 'Eli');
  await eli.goto(`${env.server.url}account`);
  await eli.click('#claim-games');
  await eli.locator('#claimed', { hasText: '2 of 2 added' }).waitFor();
  await eli.goto(`${env.server.url}players/Eli`);
  const row = (page, g) => page.locator(`#player-games tr[data-game="${g.id}"]`);
  await row(eli, at.mine).waitFor();
  assert.match(await row(eli, at.mine).textContent(), /ConfederateA guest.*your move/i);
  assert.equal(await row(eli, at.mine).locator('strong.your-move').count(), 1, 'his move stands out');
  assert.match(await row(eli, at.theirs).textContent(), /opponent’s move/);
  await eli.screenshot({ path: join(screenshots, 'player-your-move-1366.png') });
  await eli.setViewportSize({ width: 390, height: 844 });
  await eli.screenshot({ path: join(screenshots, 'player-your-move-390.png'), fullPage: true });
  // Anyone else reads the same games by his name.
  const guest = await freshPage(env.browser);
  await guest.goto(`${env.server.url}players/Eli`);
  await row(guest, at.mine).waitFor();
  assert.match(await row(guest, at.mine).textContent(), /Eli to move/);
  assert.match(await row(guest, at.theirs).textContent(), /opponent to move/);
  for (const page of [eli, guest]) assert.deepEqual(page.errors, []);
  await eli.context().close();
  await guest.context().close();
});
