#!/usr/bin/env node
// How much of a player's results is luck: reviews every save of a `pacw simulate --save-games` folder with the
// evaluator alone (`pacw review --quick --json`) and sums, for the named player's side, the luck of every die and
// card (its own luck less its opponent's, each as the review's summary counts it) and the change the decisions of
// each side made to its winning chances: the two add up to its result less its chances at the start
// (docs/findings.md, issue 29).
//
// With `--paired OTHER_SAVES OTHER_PLAYER` it also compares the two players game by game on the games both folders
// hold (the same file names: the same battle and seed), as the difference of their luck-adjusted scores.
//
//   node scripts/luck.mjs SAVES PLAYER [--paired SAVES PLAYER] [--pacw PATH]
//   e.g. node scripts/luck.mjs saves general:t1 --paired other general:race:b4:t1
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, count) => {
  const at = args.indexOf(name);
  return at < 0 ? null : args.splice(at, count + 1).slice(1);
};
const pacw = option("--pacw", 1)?.[0] ?? join(root, "target", "release", "pacw");
const paired = option("--paired", 2);
const [dir, player] = args;
if (!dir || !player || (paired && paired.length < 2)) {
  console.error("usage: node scripts/luck.mjs SAVES PLAYER [--paired SAVES PLAYER] [--pacw PATH]");
  process.exit(2);
}

/** Every save of `folder` the player played in, reviewed and summed for its side. */
function reviewed(folder, name) {
  const games = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".json")).sort()) {
    const save = JSON.parse(readFileSync(join(folder, file), "utf8"));
    const index = save.players.indexOf(name);
    if (index < 0) continue;
    const review = JSON.parse(execFileSync(pacw, ["review", join(folder, file), "--quick", "--json"], { encoding: "utf8" }));
    const side = "AB"[index];
    const sign = index === 0 ? 1 : -1; // the review's chances are the first side's
    const own = review.summary.find((s) => s.side === side);
    const other = review.summary.find((s) => s.side !== side);
    const decisions = (mine) => review.steps
      .filter((s) => s.kind === "decision" && (s.side === side) === mine)
      .reduce((sum, s) => sum + sign * (s.after - s.before), 0);
    games.push({ file, battle: file.replace(/-base-\d+\.json$/, ""), luck: own.luck - other.luck, adjusted: own.luck_adjusted, result: own.result, start: index === 0 ? review.start : 1 - review.start, own: decisions(true), other: decisions(false) });
  }
  // Luck and decisions account for the whole game, but for what the evaluator's averages over chance miss (their
  // depth is bounded): say how much that is, and stop if it is more than a slip.
  for (const g of games) g.rest = Math.abs(g.result - g.start - g.luck - g.own - g.other);
  const worst = Math.max(0, ...games.map((g) => g.rest));
  if (worst > 0.1) throw new Error(`${folder}: luck and decisions leave up to ${worst.toFixed(3)} unexplained`);
  return games;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const spread = (xs) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const error = (xs) => spread(xs) / Math.sqrt(Math.max(xs.length, 1));
const score = (gs) => mean(gs.map((g) => g.result));
const fixed = (x) => x.toFixed(3);
const signed = (x) => (x < 0 ? "" : "+") + fixed(x);

const games = reviewed(dir, player);
console.log(`${games.length} games of ${player}: score ${fixed(score(games))}`);
// The review's luck-adjusted result (the score less the game's luck): its expectation is the score's (the luck's is
// nought whatever the evaluator), and its spread is smaller, the more so the better the evaluator: a strength
// measured on fewer games.
const adjusted = games.map((g) => g.adjusted);
console.log(`luck-adjusted score: ${fixed(mean(adjusted))} (standard error ${fixed(error(adjusted))}; the score's own ${fixed(error(games.map((g) => g.result)))})`);
console.log(`luck a game: mean ${fixed(mean(games.map((g) => g.luck)))}, spread ${fixed(spread(games.map((g) => g.luck)))}`);
console.log(`left unexplained by luck and decisions: ${fixed(mean(games.map((g) => g.rest)))} a game, at most ${fixed(Math.max(0, ...games.map((g) => g.rest)))}`);
console.log(`its chances at the start: ${fixed(mean(games.map((g) => g.start)))}`);
console.log(`its decisions a game: ${fixed(mean(games.map((g) => g.own)))}; the other side's, for it: ${fixed(mean(games.map((g) => g.other)))}`);
for (const b of [...new Set(games.map((g) => g.battle))]) {
  const gs = games.filter((g) => g.battle === b);
  console.log(`${b.padEnd(20)} ${gs.length} games, score ${fixed(score(gs))}, luck spread ${fixed(spread(gs.map((g) => g.luck)))}, edge ${fixed(mean(gs.map((g) => g.own + g.other)))}`);
}

if (paired) {
  // The same battle and seed in both folders: the dice differ once the players' choices do, so the pairing takes out
  // the battles' and the seats' differences, and the luck adjustment what is left of the dice.
  const [otherDir, otherPlayer] = paired;
  const others = new Map(reviewed(otherDir, otherPlayer).map((g) => [g.file, g]));
  const both = games.filter((g) => others.has(g.file));
  const raw = both.map((g) => others.get(g.file).result - g.result);
  const adj = both.map((g) => others.get(g.file).adjusted - g.adjusted);
  console.log(`paired with ${otherPlayer} (${otherDir}) on ${both.length} games: score ${signed(mean(raw))} (standard error ${fixed(error(raw))}); luck-adjusted ${signed(mean(adj))} (standard error ${fixed(error(adj))})`);
}
