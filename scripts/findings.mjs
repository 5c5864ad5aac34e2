#!/usr/bin/env node
// Regenerates the tables of docs/findings.md from pacw's own runs, or with --check says which have drifted.
//
//   node scripts/findings.mjs            rewrite every generated table in docs/findings.md
//   node scripts/findings.mjs --check    exit 1, naming the tables, when this build gives other numbers
//   --pacw PATH                          the binary to run (default target/release/pacw)
//   --only NAME                          rewrite or check that table alone (e.g. learning-curve, which runs nothing)
//
// A generated table sits between `<!-- generated: NAME -->` and `<!-- end generated -->`; NAME is one of BLOCKS
// below. Every run is greedy against greedy (or random against random) with seed 1, so the numbers depend only on
// the engine, the players and the scenarios, never on the machine or the number of threads. The computer players'
// sections (mcts, the evaluator) take hours and are recorded by hand with their commands instead.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const doc = join(root, "docs", "findings.md");
const args = process.argv.slice(2);
const check = args.includes("--check");
const pacwAt = args.indexOf("--pacw");
const pacw = pacwAt >= 0 ? args[pacwAt + 1] : join(root, "target", "release", "pacw");
const onlyAt = args.indexOf("--only");
const only = onlyAt >= 0 ? args[onlyAt + 1] : null;

const FOUR = ["meeting-engagement", "bloody-lane", "maryes-heights", "mcpherson-ridge"];
const TWELVE = [
  "meeting-engagement", "bloody-lane", "maryes-heights", "mcpherson-ridge", "henry-house-hill", "hornets-nest",
  "gaines-mill", "brawners-farm", "brandy-station", "little-round-top", "horseshoe-ridge", "franklin",
];
const GREEDY = ["--games", "2000", "--seed", "1", "--players", "greedy,greedy"];

// ---- running pacw (each command once per invocation) ----

const cache = new Map();
function pacwJson(...command) {
  const key = command.join(" ");
  if (!cache.has(key)) {
    const out = execFileSync(pacw, [...command, "--json"], { cwd: root, maxBuffer: 1 << 28, encoding: "utf8" });
    cache.set(key, JSON.parse(out));
  }
  return cache.get(key);
}
const simulate = (s, ...more) => pacwJson("simulate", `scenarios/${s}.toml`, ...GREEDY, ...more);
const initiative = (s) => simulate(s, "--compare", "initiative=cards,igougo,alternate");
const oncePerTurn = (s) => simulate(s, "--compare", "once_per_turn=false,true");
const rangeInfantry = (s) => simulate(s, "--compare", "range.infantry=1,2");

/** The games of one run as rows of `games.csv` (objects keyed by column). */
function gamesCsv(...command) {
  const dir = mkdtempSync(join(tmpdir(), "pacw-findings-"));
  try {
    execFileSync(pacw, [...command, "--out", dir], { cwd: root, stdio: "ignore" });
    const [header, ...lines] = readFileSync(join(dir, "games.csv"), "utf8").trim().split("\n");
    const names = header.split(",");
    return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i], v])));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- formatting ----

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const num = (x, digits = 1) => x.toFixed(digits);
const count = (n) => n.toLocaleString("en-GB");
const ci = (r) => `${pct(r.rate ?? r.win_rate)} [${(100 * r.ci_low).toFixed(1)}–${(100 * r.ci_high).toFixed(1)}]`;
const points = (d) => `${d >= 0 ? "+" : "−"}${Math.abs(100 * d).toFixed(1)}`;
const pValue = (p) => (p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`);
const table = (header, rows) =>
  [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)]
    .join("\n");

/** Wilson's 95% interval of k in n, as the simulator prints it. */
function wilson(k, n) {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { rate: p, ci_low: centre - half, ci_high: centre + half };
}

/** A variant's statistics by its compare value (`cards`, `true`, `1` …). */
const variant = (run, value) => run.variants.find((v) => v.value === value);
/** A paired difference of a run: `metric` of variant `b` minus that of `a`. */
const difference = (run, metric, a, b) =>
  run.differences.find((d) => d.metric === metric && d.a.endsWith(`=${a}`) && d.b.endsWith(`=${b}`));
const side = (v, i) => v.sides[i];
const exhaustion = (v) => (v.sides[0].exhausted + v.sides[1].exhausted) / v.games;
const outcomeShares = (a) =>
  `${["miss", "shaken", "retreat", "destroyed"].map((k) => num(a.attacks ? (100 * a[k]) / a.attacks : 0)).join(" / ")} %`;

// ---- the tables ----

/** Battles under greedy play: size, wins and how the games end. */
function battles(names) {
  return table(
    ["battle", "units", "first side wins", "second side wins", "draws", "first side's score", "ended by exhaustion"],
    names.map((s) => {
      const v = simulate(s);
      const units = readFileSync(join(root, "scenarios", `${s}.toml`), "utf8").match(/^\[\[units\]\]/gm).length;
      return [v.scenario, units, ci(side(v, 0)), pct(side(v, 1).win_rate), pct(v.draw_rate.rate),
        pct(side(v, 0).win_rate + v.draw_rate.rate / 2), pct(exhaustion(v))];
    }),
  );
}

const BLOCKS = {
  attacks: () =>
    table(
      ["scenario", "shots (distance ≥ 2) a game", "miss / shaken / retreat / destroyed", "charges a game",
        "miss / shaken / retreat / destroyed", "losses to shooting (share of units destroyed)"],
      FOUR.map((s) => {
        const a = variant(initiative(s), "cards").attacks;
        return [s, num(a.shooting.per_game), outcomeShares(a.shooting), num(a.charges.per_game),
          outcomeShares(a.charges), ci(a.losses_to_shooting)];
      }),
    ),

  arms: () =>
    table(
      ["scenario", "infantry shots a game", "move or remove the target", "destroy it", "artillery shots a game",
        "move or remove the target", "destroy it"],
      FOUR.map((s) => {
        const a = variant(initiative(s), "cards").attacks;
        const cells = (k) => [num(a[k].per_game), ci(a[k].decisive_rate), pct(a[k].destroyed_rate.rate)];
        return [s, ...cells("infantry_shooting"), ...cells("artillery_shooting")];
      }),
    ),

  "range-infantry": () =>
    table(
      ["scenario", "first side wins, range 1 / 2", "", "losses to shooting, range 1 / 2", "shaken hit again, range 1 / 2",
        "games to the turn limit, range 1 / 2"],
      FOUR.map((s) => {
        const run = rangeInfantry(s);
        const [one, two] = [variant(run, "1"), variant(run, "2")];
        const wins = difference(run, "first side wins", "1", "2");
        return [s, `${pct(side(one, 0).win_rate)} / ${pct(side(two, 0).win_rate)}`, pValue(wins.p_holm),
          `${pct(one.attacks.losses_to_shooting.rate)} / ${pct(two.attacks.losses_to_shooting.rate)}`,
          `${pct(one.shaken.hit_again.rate)} / ${pct(two.shaken.hit_again.rate)}`,
          `${pct(one.length.turn_limit.rate)} / ${pct(two.length.turn_limit.rate)}`];
      }),
    ),

  spells: () =>
    table(
      ["scenario", "initiative", "spells a game", "attacked again", "**hit again**",
        "then retreated / destroyed (count)", "recovered by activation"],
      FOUR.flatMap((s) =>
        ["cards", "igougo", "alternate"].map((i) => {
          const sh = variant(initiative(s), i).shaken;
          return [s, i, num(sh.per_game), pct(sh.attacked_again.rate), `**${ci(sh.hit_again)}**`,
            `${count(sh.retreated_again)} / ${count(sh.destroyed_again)}`, pct(sh.recovered.rate)];
        }),
      ),
    ),

  "spells-tests": () =>
    table(
      ["scenario", "shaken hit again: igougo − alternate", "cards − igougo", "units destroyed while shaken (cards)"],
      FOUR.map((s) => {
        const run = initiative(s);
        const d = (a, b) => difference(run, "shaken units hit again", a, b);
        const cards = variant(run, "cards");
        const lost = cards.sides[0].destroyed.total + cards.sides[1].destroyed.total;
        return [s, `${points(-d("igougo", "alternate").difference)} (${pValue(d("igougo", "alternate").p_holm)})`,
          `${points(-d("cards", "igougo").difference)} (${pValue(d("cards", "igougo").p_holm)})`,
          `${count(cards.shaken.destroyed_again)} of ${count(lost)} (${pct(cards.shaken.destroyed_again / lost)})`];
      }),
    ),

  doubles: () =>
    table(
      ["scenario", "cards: doubles a game (in a turn / across turns)", "side with more doubles wins (of games where one had more)",
        "its share of decisive games", "`once_per_turn=true`: doubles a game (across turns only)", "side with more wins",
        "its share of decisive games"],
      FOUR.map((s) => {
        const cards = variant(initiative(s), "cards").doubles;
        const once = variant(oncePerTurn(s), "true").doubles;
        const more = (m) =>
          [`${ci(m)} of ${count(m.games)}`, `${pct(m.decisive_share)} (${pValue(m.test.p_value)})`];
        return [s, `${num(cards.in_turn_per_game)} / ${num(cards.across_turns_per_game)}`,
          ...more(cards.more_double_activations), num(once.across_turns_per_game), ...more(once.more_double_activations)];
      }),
    ),

  "doubles-by-side": () =>
    table(
      ["scenario", "Union wins with more / fewer doubles", "Confederates win with more / fewer doubles"],
      FOUR.map((s) => {
        const bySide = variant(initiative(s), "cards").doubles.more_double_activations.by_side;
        return [s, ...bySide.map((b) => `${pct(b.with.rate)} / ${pct(b.without.rate)} (${pValue(b.test.p_value)})`)];
      }),
    ),

  "doubles-split": () => {
    const rows = gamesCsv("simulate", "scenarios/meeting-engagement.toml", ...GREEDY, "--compare",
      "initiative=cards,igougo,alternate").filter((r) => r.variant === "initiative=cards");
    const groups = new Map();
    for (const r of rows) {
      const doubles = (x) => Number(r[`double_activations_${x}`]) + Number(r[`doubles_across_turns_${x}`]);
      const dd = doubles("a") - doubles("b");
      const da = Number(r.activations_a) - Number(r.activations_b);
      if (!dd || !da) continue;
      const key = `Union ${dd > 0 ? "more" : "fewer"} doubles, ${da > 0 ? "more" : "fewer"} activations`;
      const g = groups.get(key) ?? { games: 0, union: 0, confederate: 0 };
      g.games += 1;
      if (r.winner === "union") g.union += 1;
      if (r.winner === "confederate") g.confederate += 1;
      groups.set(key, g);
    }
    const order = ["more doubles, more", "more doubles, fewer", "fewer doubles, more", "fewer doubles, fewer"];
    return table(
      ["meeting-engagement, cards", "games", "Union wins", "Confederate wins"],
      order.map((o) => {
        const key = [...groups.keys()].find((k) => k.startsWith(`Union ${o}`));
        const g = groups.get(key);
        return [key, count(g.games), ci(wilson(g.union, g.games)), pct(g.confederate / g.games)];
      }),
    );
  },

  "once-per-turn": () =>
    table(
      ["scenario", "activations a game, `false` → `true`", "games to the turn limit", "first side wins", "",
        "draws", "shaken hit again"],
      FOUR.map((s) => {
        const run = oncePerTurn(s);
        const [f, t] = [variant(run, "false"), variant(run, "true")];
        const arrow = (g) => `${g(f)} → ${g(t)}`;
        return [s, arrow((v) => num(v.length.activations_mean)), arrow((v) => pct(v.length.turn_limit.rate)),
          arrow((v) => pct(side(v, 0).win_rate)), pValue(difference(run, "first side wins", "false", "true").p_holm),
          arrow((v) => pct(v.draw_rate.rate)), arrow((v) => pct(v.shaken.hit_again.rate))];
      }),
    ),

  initiative: () =>
    table(
      ["scenario", "first side (Union) wins: cards / igougo / alternate", "second side (Confederate) wins", "draws",
        "games ended by exhaustion", "turns a game", "activations a game", "units destroyed a game"],
      FOUR.map((s) => {
        const vs = ["cards", "igougo", "alternate"].map((i) => variant(initiative(s), i));
        const all = (f) => vs.map(f).join(" / ");
        return [s, `${all((v) => num(100 * side(v, 0).win_rate))} %`, `${all((v) => num(100 * side(v, 1).win_rate))} %`,
          `${all((v) => num(100 * v.draw_rate.rate))} %`, `${all((v) => num(100 * exhaustion(v)))} %`,
          all((v) => num(v.length.turns_mean)), all((v) => num(v.length.activations_mean)),
          all((v) => num(v.sides[0].destroyed.per_game + v.sides[1].destroyed.per_game))];
      }),
    ),

  "initiative-tests": () =>
    table(
      ["scenario", "first side wins: igougo − cards", "alternate − cards", "alternate − igougo",
        "draws: igougo − cards", "first mover's share of decisive games (cards / igougo / alternate)"],
      FOUR.map((s) => {
        const run = initiative(s);
        const d = (metric, a, b) => {
          const x = difference(run, metric, a, b);
          return `${points(x.difference)} (${pValue(x.p_holm)})`;
        };
        const first = ["cards", "igougo", "alternate"]
          .map((i) => variant(run, i).first_mover)
          .map((f) => `${pct(f.decisive_share)} (${pValue(f.test.p_value)})`);
        return [s, d("first side wins", "cards", "igougo"), d("first side wins", "cards", "alternate"),
          d("first side wins", "igougo", "alternate"), d("draws", "cards", "igougo"), first.join(" / ")];
      }),
    ),

  "balance-shipped": () =>
    table(
      ["scenario", "Union (first side) wins", "Confederate (second side) wins", "draws",
        "games ended by exhaustion of Union / Confederate", "games to the turn limit"],
      FOUR.map((s) => {
        const v = variant(initiative(s), "cards");
        return [s, ci(side(v, 0)), ci(side(v, 1)), ci(v.draw_rate),
          `${pct(side(v, 0).exhausted / v.games)} / ${pct(side(v, 1).exhausted / v.games)}`,
          pct(v.length.turn_limit.rate)];
      }),
    ),

  "over-80": () => {
    const lines = [];
    for (const s of FOUR) {
      for (const run of [initiative(s), oncePerTurn(s), rangeInfantry(s)]) {
        // Every setting other than the scenario's own (which "balance-shipped" shows).
        for (const v of run.variants.filter((x) => x.value !== run.options[x.option])) {
          for (const sd of v.sides) {
            if (sd.win_rate > 0.8) lines.push(`- **${s}**, \`${v.label}\`: ${sd.name} ${ci(sd)}`);
          }
        }
      }
    }
    return lines.length ? lines.join("\n") : "- none";
  },

  sensitivity: () => {
    const report = pacwJson("sensitivity", ...FOUR.map((s) => `scenarios/${s}.toml`), ...GREEDY);
    const word = (v) => (v.unused ? "not used" : v.matters ? "matters" : v.barely.length ? "small" : "**none**");
    const [pooled, ...parts] = report.tables;
    return table(
      ["option", "all four pooled", "what it moves (pooled)", ...parts.map((t) => t.scenario)],
      pooled.verdicts.map((v) => [`\`${v.option}\``, word(v), v.moves.join(", ") || "—",
        ...parts.map((t) => word(t.verdicts.find((x) => x.option === v.option)))]),
    );
  },

  pairing: () => {
    const report = pacwJson("sensitivity", ...FOUR.map((s) => `scenarios/${s}.toml`), ...GREEDY);
    const median = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const ratio = (t, metric) =>
      median(t.rows.map((r) => r.effects.find((e) => e.metric === metric).difference)
        .map((d) => (d.unpaired.high - d.unpaired.low) / (d.paired.high - d.paired.low))
        .filter((x) => Number.isFinite(x)));
    return table(
      ["", ...report.tables.map((t) => t.scenario)],
      [["first side wins", ...report.tables.map((t) => num(ratio(t, "first side wins"), 2))],
        ["turns", ...report.tables.map((t) => num(ratio(t, "turns"), 2))]],
    );
  },

  balance: () => {
    const row = (s, ...more) => {
      const b = pacwJson("balance", s, "--players", "greedy,greedy", "--games", "2000", "--seed", "1", ...more);
      const changed = b.changes.filter(([, from, to]) => from !== to).map(([k, from, to]) => `${k} ${to} (was ${from})`);
      return [more.length ? `${s} (\`${more.join(" ")}\`)` : s, pct(b.before_score), changed.join("; ") || "unchanged",
        `${pct(b.score)} [${num(100 * b.score_ci.low)}–${num(100 * b.score_ci.high)}]`, count(b.games_total)];
    };
    return table(
      ["scenario", "first side's score now (a draw counts half)", "chosen", "score after, 2,000 games", "games raced"],
      [...FOUR.map((s) => row(s)), row("maryes-heights", "--tune", "turns,exhaustion,points")],
    );
  },

  // The self-play run's learning curve, as its checkpoint recorded it (crates/learn/runs/curve.csv): no pacw run.
  "learning-curve": () => {
    const [header, ...lines] = readFileSync(join(root, "crates", "learn", "runs", "curve.csv"), "utf8").trim().split("\n");
    const names = header.split(",");
    const rows = lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [names[i], Number(v)])));
    const interval = (r) =>
      `${num(Math.max(0, r.luck_adjusted - 1.96 * r.standard_error), 3)}–` +
      `${num(Math.min(1, r.luck_adjusted + 1.96 * r.standard_error), 3)}`;
    return table(
      ["self-play games", "games against greedy", "score by results", "luck-adjusted", "95% interval"],
      rows.map((r) => [r.games.toLocaleString("en-US"), r.played, num(r.score, 3), num(r.luck_adjusted, 3), interval(r)]),
    );
  },

  twelve: () => battles(TWELVE),
  grand: () => battles(["antietam"]),

  random: () =>
    table(
      ["scenario", "Union wins", "Confederate wins", "draws", "units destroyed a game (Union / Confederate)",
        "shot destroys / charge destroys", "losses to shooting", "shaken hit again", "shots / charges a game",
        "games to the turn limit"],
      FOUR.map((s) => {
        const v = pacwJson("simulate", `scenarios/${s}.toml`, "--games", "2000", "--seed", "1");
        const a = v.attacks;
        return [s, ci(side(v, 0)), ci(side(v, 1)), ci(v.draw_rate),
          `${num(side(v, 0).destroyed.per_game, 2)} / ${num(side(v, 1).destroyed.per_game, 2)}`,
          `${pct(a.shooting.destroyed_rate.rate)} / ${pct(a.charges.destroyed_rate.rate)}`, ci(a.losses_to_shooting),
          ci(v.shaken.hit_again), `${num(a.shooting.per_game)} / ${num(a.charges.per_game)}`,
          pct(v.length.turn_limit.rate)];
      }),
    ),
};

// ---- rewriting or checking the document ----

if (only && !BLOCKS[only]) {
  console.error(`--only ${only}: no such table (the tables: ${Object.keys(BLOCKS).join(", ")})`);
  process.exit(2);
}
if (!only && !existsSync(pacw)) {
  console.error(`${pacw} is missing: build it first with \`cargo build --release -p pacw\``);
  process.exit(2);
}
const text = readFileSync(doc, "utf8");
const pattern = /(<!-- generated: ([\w-]+) -->\n)([\s\S]*?)(<!-- end generated -->)/g;
const seen = new Set();
const drifted = [];
const next = text.replace(pattern, (_, open, name, old, close) => {
  if (!BLOCKS[name]) throw new Error(`docs/findings.md names a table scripts/findings.mjs does not know: ${name}`);
  seen.add(name);
  if (only && name !== only) return open + old + close;
  const fresh = `${BLOCKS[name]()}\n`;
  if (fresh !== old) drifted.push({ name, old, fresh });
  return open + fresh + close;
});
const missing = Object.keys(BLOCKS).filter((n) => !seen.has(n));
if (missing.length) throw new Error(`docs/findings.md has no place for: ${missing.join(", ")}`);

if (check) {
  if (!drifted.length) {
    console.log(`docs/findings.md: ${only ? `table "${only}" matches` : `all ${seen.size} generated tables match`} this build`);
    process.exit(0);
  }
  for (const { name, old, fresh } of drifted) {
    console.error(`\n== table "${name}" has drifted; docs/findings.md says:\n${old}\n== this build gives:\n${fresh}`);
  }
  console.error(
    `\n${drifted.length} table(s) of docs/findings.md no longer match this build: run \`node scripts/findings.mjs\`, ` +
      "then re-read the prose around them.",
  );
  process.exit(1);
}
writeFileSync(doc, next);
console.log(`docs/findings.md: ${drifted.length} of ${seen.size} generated tables rewritten`);
