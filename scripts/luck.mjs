#!/usr/bin/env node
// How much of a player's results is luck: reviews every save of a `pacw simulate --save-games` folder with the
// evaluator alone (`pacw review --quick --json`) and sums, for the named player's side, the luck of the dice and
// cards and the change the decisions of each side made to its winning chances (docs/findings.md, issue 29).
//
//   node scripts/luck.mjs SAVES PLAYER [--pacw PATH]     e.g. node scripts/luck.mjs saves general:t1
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [dir, player] = process.argv.slice(2);
const pacwAt = process.argv.indexOf("--pacw");
const pacw = pacwAt >= 0 ? process.argv[pacwAt + 1] : join(root, "target", "release", "pacw");
if (!dir || !player) {
  console.error("usage: node scripts/luck.mjs SAVES PLAYER [--pacw PATH]");
  process.exit(2);
}

const games = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const save = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const index = save.players.indexOf(player);
  if (index < 0) continue;
  const review = JSON.parse(execFileSync(pacw, ["review", join(dir, file), "--quick", "--json"], { encoding: "utf8" }));
  const side = "AB"[index];
  const sign = index === 0 ? 1 : -1; // the review's chances are the first side's
  const own = review.summary.find((s) => s.side === side);
  const decisions = (mine) => review.steps
    .filter((s) => s.kind === "decision" && (s.side === side) === mine)
    .reduce((sum, s) => sum + sign * (s.after - s.before), 0);
  games.push({ battle: file.replace(/-base-\d+\.json$/, ""), luck: own.luck, result: own.result, own: decisions(true), other: decisions(false) });
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const spread = (xs) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const score = (gs) => mean(gs.map((g) => g.result));
const fixed = (x) => x.toFixed(3);
console.log(`${games.length} games of ${player}: score ${fixed(score(games))}`);
console.log(`luck a game: mean ${fixed(mean(games.map((g) => g.luck)))}, spread ${fixed(spread(games.map((g) => g.luck)))}`);
console.log(`its decisions a game: ${fixed(mean(games.map((g) => g.own)))}; the other side's, for it: ${fixed(mean(games.map((g) => g.other)))}`);
for (const [low, high] of [[-Infinity, -0.2], [-0.2, -0.05], [-0.05, 0.05], [0.05, 0.2], [0.2, Infinity]]) {
  const band = games.filter((g) => g.luck >= low && g.luck < high);
  console.log(`luck in [${low}, ${high}): ${band.length} games, score ${fixed(score(band))}`);
}
const battles = [...new Set(games.map((g) => g.battle))];
for (const b of battles) {
  const gs = games.filter((g) => g.battle === b);
  console.log(`${b.padEnd(20)} ${gs.length} games, score ${fixed(score(gs))}, luck spread ${fixed(spread(gs.map((g) => g.luck)))}, edge ${fixed(mean(gs.map((g) => g.own + g.other)))}`);
}

// The score the player would expect at even luck: a logistic regression of the result (a draw half a win) on the
// luck, fitted by maximum likelihood over a grid, read at luck 0.
const likelihood = (a, b) => games.reduce((sum, g) => {
  const p = Math.min(Math.max(1 / (1 + Math.exp(-(a + b * g.luck))), 1e-9), 1 - 1e-9);
  return sum + g.result * Math.log(p) + (1 - g.result) * Math.log(1 - p);
}, 0);
let fit = { a: 0, b: 0, ll: -Infinity };
for (let a = -3; a <= 3; a += 0.01) {
  for (let b = 0; b <= 30; b += 0.1) {
    const ll = likelihood(a, b);
    if (ll > fit.ll) fit = { a, b, ll };
  }
}
console.log(`logistic fit: score ≈ 1 / (1 + e^-(${fit.a.toFixed(2)} + ${fit.b.toFixed(1)} × luck)); at even luck ${fixed(1 / (1 + Math.exp(-fit.a)))}`);
