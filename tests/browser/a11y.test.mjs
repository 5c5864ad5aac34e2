// Accessibility: axe-core 4 in Chromium finds no serious or critical violation on the lobby (with a game in progress),
// a game in progress with a unit selected, a two-player game with its chat, the result screen, the review, the rules,
// the editor (also with a variant's own terrain painted, refusing rules without it) and the club's pages (log in and
// sign up, the waiting room, with the match maker once logged in, the leaderboard, a player's page, one's own with its
// vacation days) and the header's menu opened on a phone, in the light theme and the dark; the dark theme follows the
// system, and a switch overrides it, remembered.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverAndBrowser, freshPage, createGame, cardFor, screenshots } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const skirmish = readFileSync(join(here, 'fixtures', 'skirmish.toml'), 'utf8');
const finishedSave = readFileSync(join(here, 'fixtures', 'random-against-greedy.json'), 'utf8');
const env = serverAndBrowser();

/// The serious and critical violations axe finds on the page as it stands, one line each.
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  return result;
}

test('axe-core finds no serious or critical violation on any page, at 1366 and 390, light and dark', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat' }, 'hotseat');
  await cardFor(env.server.url, token, 'A', 2);
  const finished = (await createGame(env.server.url, { save: finishedSave, mode: 'hotseat' }, 'hotseat')).token;
  // A member with a rated game lost to the computer, and a game waiting in the room.
  const json = { 'content-type': 'application/json' };
  const signup = await fetch(`${env.server.url}api/account/signup`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Bea', password: 'a long password' }) });
  const member = { ...json, cookie: signup.headers.get('set-cookie').split(';')[0], 'x-pacw-csrf': (await signup.json()).csrf };
  const rated = await (await fetch(`${env.server.url}api/games`, { method: 'POST', headers: member, body: JSON.stringify({ scenario: 'meeting-engagement', mode: 'computer', computer: 'random', rating: 'rated' }) })).json();
  await fetch(`${env.server.url}api/play/${rated.tokens.A}/resign`, { method: 'POST', headers: json, body: '{}' });
  await fetch(`${env.server.url}api/room`, { method: 'POST', headers: member, body: JSON.stringify({ scenario: 'bloody-lane' }) });
  // Bea is on vacation (her page says so to everyone); Cy, logged in, sees his own page with its vacation days.
  await fetch(`${env.server.url}api/account/vacation`, { method: 'POST', headers: member, body: JSON.stringify({ days: 3 }) });
  const cy = await fetch(`${env.server.url}api/account/signup`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Cy', password: 'a long password' }) });
  const cySession = cy.headers.get('set-cookie').split(';')[0].split('=');
  // Cy holds the side to move of a two-player game: his page says "your move".
  const cyHeaders = { ...json, cookie: cySession.join('='), 'x-pacw-csrf': (await cy.json()).csrf };
  const his = (await createGame(env.server.url, { scenario: 'meeting-engagement', mode: 'two_players' }, 'A')).created;
  const toMove = (await (await fetch(`${env.server.url}api/play/${his.tokens.A}`)).json()).your_turn ? 'A' : 'B';
  await fetch(`${env.server.url}api/account/claim`, { method: 'POST', headers: cyHeaders, body: JSON.stringify({ token: his.tokens[toMove] }) });
  // A two-player game with a message in its chat.
  const two = (await createGame(env.server.url, { scenario: 'meeting-engagement', mode: 'two_players' }, 'A')).token;
  await fetch(`${env.server.url}api/play/${two}/chat`, { method: 'POST', headers: json, body: JSON.stringify({ text: 'Good luck!' }) });
  const pages = [
    ['lobby', '', async (page) => page.locator('#your-games tr[data-token]').first().waitFor()],
    ['a game with a unit selected', `game/${token}`, async (page) => {
      await page.locator('#status .you').waitFor();
      await page.click('[data-unit="1"]');
      await page.locator('#board[data-choices="1"]').waitFor({ state: 'attached' });
    }],
    ['the result screen', `game/${finished}`, async (page) => page.locator('#result-screen:not([hidden])').waitFor()],
    ['the review', `game/${finished}?review`, async (page) => page.locator('#review-graph svg .chances-line').waitFor({ timeout: 60000 })],
    ['the rules', 'rules', async (page) => page.locator('h1').first().waitFor()],
    ['the editor', 'editor', async (page) => page.locator('[data-square]').first().waitFor()],
    ['the editor under a variant with terrain of its own, painted, refusing rules without it', 'editor', async (page) => {
      await page.locator('[data-square]').first().waitFor();
      await page.setInputFiles('#variant-upload', join(here, '..', '..', 'docs', 'examples', 'entrenchments.toml'));
      await page.click('[data-tool="terrain:trench"]');
      await page.click('[data-square="c3"]');
      await page.locator('.own-terrain-mark').waitFor();
      await page.selectOption('#battle-variant', '');
      await page.locator('#rules-refused').waitFor();
    }],
    ['a two-player game with its chat', `game/${two}`, async (page) => page.locator('#chat-list li').waitFor()],
    ['log in and sign up', 'account', async (page) => page.locator('#signup-form').waitFor()],
    ['forgot the password', 'account', async (page) => { await page.click('details.forgot summary'); await page.locator('#forgot-who').waitFor(); }],
    ['a reset link', 'account#reset=0123456789abcdef0123456789abcdef', async (page) => page.locator('#reset-form').waitFor()],
    ['the waiting room', 'room', async (page) => page.locator('#postings tr[data-posting]').first().waitFor()],
    ['the leaderboard', 'leaderboard', async (page) => page.locator('#leaderboard tr').nth(2).waitFor()],
    ['the header\'s menu opened (a phone\'s)', 'leaderboard', async (page) => {
      await page.locator('#leaderboard tr').nth(2).waitFor();
      if (await page.locator('.menu-button').isVisible()) await page.click('.menu-button');
      await page.locator('#log-in-link').waitFor();
    }],
    ['a player\'s page, on vacation', 'players/Bea', async (page) => page.locator('#player-away').waitFor()],
    ['the waiting room with the match maker, logged in', 'room', async (page) => {
      await page.context().addCookies([{ name: cySession[0], value: cySession[1], url: env.server.url }]);
      await page.reload();
      await page.locator('#seek-form').waitFor();
    }],
    ['a player\'s own page with their vacation days', 'players/Cy', async (page) => {
      await page.context().addCookies([{ name: cySession[0], value: cySession[1], url: env.server.url }]);
      await page.reload();
      await page.locator('#vacation-form').waitFor();
      await page.locator('#player-games .your-move').waitFor();
    }],
  ];
  const found = [];
  for (const colorScheme of ['light', 'dark']) {
    for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
      for (const [what, path, ready] of pages) {
        const page = await freshPage(env.browser, { viewport, context: { colorScheme }, init: `localStorage.setItem('pacw-games', JSON.stringify({ ${JSON.stringify(token)}: { added: 1 } }))` });
        await page.goto(`${env.server.url}${path}`);
        await ready(page);
        for (const v of await violations(page)) found.push(`${what} at ${viewport.width}, ${colorScheme}: ${v}`);
        await page.context().close();
      }
    }
  }
  assert.deepEqual(found, []);
});

/// The contrast ratio of two CSS colours (WCAG 2), measured in the page.
async function contrast(page, fg, bg) {
  return page.evaluate(([fg, bg]) => {
    const rgb = (c) => {
      const probe = document.createElement('canvas').getContext('2d');
      probe.fillStyle = c;
      probe.fillRect(0, 0, 1, 1);
      return [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3);
    };
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  }, [fg, bg]);
}

test('the dark theme follows the system; the header\'s switch overrides it, remembered; the board\'s labels read in both', async () => {
  const { token } = await createGame(env.server.url, { scenario: 'maryes-heights', mode: 'hotseat' }, 'hotseat');
  const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const dark = async (page) => (await contrast(page, await background(page), 'black')) < 3;
  for (const colorScheme of ['light', 'dark']) {
    const page = await freshPage(env.browser, { context: { colorScheme } });
    await page.goto(`${env.server.url}game/${token}`);
    await page.locator('#status .whose').waitFor();
    assert.equal(await dark(page), colorScheme === 'dark', `the page follows the system's ${colorScheme}`);
    assert.equal(await page.locator('#theme').inputValue(), 'system');
    // The board keeps its colours; its frame's labels follow the theme and stay legible on it, zoomed too.
    const frame = await page.evaluate(() => getComputedStyle(document.querySelector('#board')).backgroundColor);
    const coords = await page.evaluate(() => getComputedStyle(document.querySelector('.board .coords text')).fill);
    assert.ok(await contrast(page, coords, frame) >= 4.5, `the coordinates on the frame, ${colorScheme}`);
    await page.click('#zoom-in');
    const ruler = await page.evaluate(() => { const s = getComputedStyle(document.querySelector('.ruler span')); return [s.color, s.backgroundColor]; });
    assert.ok(await contrast(page, ...ruler) >= 4.5, `the rulers of a zoomed board, ${colorScheme}`);
    await page.context().close();
  }
  // Chosen by the switch against the system's light: dark, on this page, after a reload and on the reading pages.
  const page = await freshPage(env.browser, { context: { colorScheme: 'light' } });
  await page.goto(`${env.server.url}game/${token}`);
  await page.locator('#status .whose').waitFor();
  await page.selectOption('#theme', 'dark');
  assert.ok(await dark(page), 'dark at once');
  await page.reload();
  await page.locator('#status .whose').waitFor();
  assert.ok(await dark(page), 'dark after a reload');
  assert.equal(await page.locator('#theme').inputValue(), 'dark');
  await page.screenshot({ path: join(screenshots, 'dark-1366.png') });
  await page.goto(`${env.server.url}rules`);
  assert.ok(await dark(page), 'dark on the rules too');
  await page.selectOption('#theme', 'system');
  assert.ok(!(await dark(page)), 'back to the system\'s light');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every page has one first-level heading and its headings go down one level at a time', async () => {
  const { token } = await createGame(env.server.url, { scenario_text: skirmish, scenario_file: 'skirmish.toml', mode: 'hotseat' }, 'hotseat');
  await cardFor(env.server.url, token, 'A', 2);
  const finished = (await createGame(env.server.url, { save: finishedSave, mode: 'hotseat' }, 'hotseat')).token;
  // A member with a rated game lost to the computer, and a game waiting in the room.
  const json = { 'content-type': 'application/json' };
  // A name of its own: the axe test before this one, on the same server, signed up Cy.
  const signup = await fetch(`${env.server.url}api/account/signup`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Hal', password: 'a long password' }) });
  const member = { ...json, cookie: signup.headers.get('set-cookie').split(';')[0], 'x-pacw-csrf': (await signup.json()).csrf };
  const rated = await (await fetch(`${env.server.url}api/games`, { method: 'POST', headers: member, body: JSON.stringify({ scenario: 'meeting-engagement', mode: 'computer', computer: 'random', rating: 'rated' }) })).json();
  await fetch(`${env.server.url}api/play/${rated.tokens.A}/resign`, { method: 'POST', headers: json, body: '{}' });
  await fetch(`${env.server.url}api/room`, { method: 'POST', headers: member, body: JSON.stringify({ scenario: 'bloody-lane' }) });
  const pages = [
    ['lobby', '', async (page) => page.locator('#detail h2').waitFor()],
    ['a game with a unit selected', `game/${token}`, async (page) => {
      await page.locator('#status .you').waitFor();
      await page.click('[data-unit="1"]');
      await page.locator('#board[data-choices="1"]').waitFor({ state: 'attached' });
    }],
    ['the result screen', `game/${finished}`, async (page) => page.locator('#result-screen:not([hidden])').waitFor()],
    ['the review', `game/${finished}?review`, async (page) => page.locator('#flagged li').first().waitFor({ timeout: 60000 })],
    ['the editor', 'editor', async (page) => page.locator('[data-square]').first().waitFor()],
    ['log in and sign up', 'account', async (page) => page.locator('#signup-form').waitFor()],
    ['the waiting room', 'room', async (page) => page.locator('#postings tr[data-posting]').first().waitFor()],
    ['the leaderboard', 'leaderboard', async (page) => page.locator('#leaderboard tr').nth(2).waitFor()],
    ['a player\'s page', 'players/Hal', async (page) => page.locator('#player-games tr[data-game]').waitFor()],
    ...['rules', 'guide', 'format', 'review', 'rules/close-combat'].map((path) => [`/${path}`, path, async (page) => page.locator('h1').first().waitFor()]),
  ];
  const found = [];
  for (const [what, path, ready] of pages) {
    const page = await freshPage(env.browser);
    await page.goto(`${env.server.url}${path}`);
    await ready(page);
    await page.addScriptTag({ path: axePath });
    // eslint-disable-next-line no-undef
    const r = await page.evaluate(() => axe.run(document, { runOnly: ['page-has-heading-one', 'heading-order'] }));
    for (const v of r.violations) found.push(`${what}: ${v.id} ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    await page.context().close();
  }
  assert.deepEqual(found, []);
});
