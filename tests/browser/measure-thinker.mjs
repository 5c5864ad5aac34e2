// A measurement, not a test (docs/PERFORMANCE.md, "The offline app"): what the computer's decisions cost the
// thinker's worker on Antietam as a game grows long. For each decision the games' worker writes the game's save
// (`computer_turn`) and the thinker loads it, replaying every decision so far, before its player decides; this
// times the three apart, in Chromium, at several lengths of one greedy-against-greedy game, with the veteran and the
// general to decide; and what thinker.js does instead now, holding the game and given the decisions since (`follow`).
//
//   cd tests/browser && PACW_BIN=<the pacw binary> node measure-thinker.mjs
//
// Prints a JSON line per player and length: the median of five decisions in ms.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binary, launchBrowser } from './server.mjs';
import { buildStatic, removeStatic, serveStatic } from './static.mjs';

const LENGTHS = [0, 500, 1000, 1500, 2000, 2400];
const PLAYERS = ['veteran', 'general'];

const saves = mkdtempSync(join(tmpdir(), 'pacw-antietam-'));
execFileSync(binary, ['simulate', 'antietam', '--games', '1', '--players', 'greedy,greedy', '--threads', '1', '--save-games', saves], { stdio: 'ignore' });
const text = readFileSync(join(saves, readdirSync(saves).find((f) => f.endsWith('.json'))), 'utf8');
rmSync(saves, { recursive: true });
// The seed is a u64, past what a JavaScript number holds: it is kept as the save's own digits.
const seed = text.match(/"seed":\s*(\d+)/)[1];
const game = JSON.parse(text);

/// The game cut after `k` decisions with `players` (the thinker's table is a person against the computer); its
/// events and fingerprint are mended in the page, from the refusal that names them.
function cut(k, players) {
  return JSON.stringify({ ...game, seed: 'SEED', actions: game.actions.slice(0, k), players }).replace('"SEED"', seed);
}

const site = buildStatic();
const host = await serveStatic(site, '/');
const browser = await launchBrowser();
const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
await page.goto(host.url);
await page.locator('.scenario-card').first().waitFor();
for (const player of PLAYERS) {
  for (const k of LENGTHS) {
    // The computer plays whichever side is to act there.
    const r = await page.evaluate(async (candidates) => {
      const { compile, openDesk } = await import('/js/desk.js');
      window.deskCall ??= await openDesk(compile());
      const call = window.deskCall;
      for (let save of candidates) {
        const refused = call({ op: 'load', id: 'mend', save }).error?.match(/gives (\d+) events with fingerprint (\w+)/);
        call({ op: 'forget', id: 'mend' });
        if (refused) save = save.replace(/"events":\d+/, `"events":${refused[1]}`).replace(/"fingerprint":"\w+"/, `"fingerprint":"${refused[2]}"`);
        const loaded = call({ op: 'load', id: 'games', save });
        if (loaded.error) return { error: loaded.error };
        const times = [];
        let followed = 0;
        let held = [];
        for (let i = 0; i < 5; i++) {
          const a = performance.now();
          const turn = call({ op: 'computer_turn', id: 'games' });
          const b = performance.now();
          if (turn.ok === null || turn.error) break;
          const thinker = call({ op: 'load', id: 'thinker', save: turn.ok.save });
          const c = performance.now();
          const decided = call({ op: 'computer', id: 'thinker' });
          const d = performance.now();
          call({ op: 'forget', id: 'thinker' });
          if (thinker.error || decided.error || !decided.ok) return { error: thinker.error || decided.error || 'no decision' };
          // As thinker.js does now: the game held since the first decision timed, given the decisions since (the
          // save read and its decisions compared with those held, as thinker.js compares them, timed too).
          const e = performance.now();
          const actions = JSON.parse(turn.ok.save).actions;
          const written = actions.map((x) => JSON.stringify(x, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v)));
          if (written.slice(0, followed).some((x, j) => x !== held[j])) return { error: 'not the same game' };
          held = written;
          if (i === 0) call({ op: 'load', id: 'follower', save: turn.ok.save });
          else if (call({ op: 'follow', id: 'follower', decisions: followed, actions: actions.slice(followed) }).error) return { error: 'not followed' };
          const f = performance.now();
          followed = actions.length;
          times.push({ save: b - a, load: c - b, decide: d - c, follow: i === 0 ? NaN : f - e });
          // The games' desk takes the decision, as worker.js does, and the next one is timed.
          call({ op: 'computer', id: 'games', action: decided.ok.action });
        }
        call({ op: 'forget', id: 'games' });
        call({ op: 'forget', id: 'follower' });
        if (!times.length) continue;
        const median = (key) => { const xs = times.map((t) => t[key]).filter((x) => !Number.isNaN(x)).sort((x, y) => x - y); return xs[Math.floor(xs.length / 2)]; };
        return { decisions_timed: times.length, save_ms: median('save'), load_ms: median('load'), decide_ms: median('decide'), follow_ms: median('follow') };
      }
      return { error: 'no computer to act' };
    }, [cut(k, [player, 'human']), cut(k, ['human', player])]);
    const round = (x) => (typeof x === 'number' ? Math.round(x * 10) / 10 : x);
    console.log(JSON.stringify({ player, decisions: k, ...Object.fromEntries(Object.entries(r).map(([key, v]) => [key, round(v)])) }));
  }
}
await browser.close();
await host.stop();
removeStatic(site);
