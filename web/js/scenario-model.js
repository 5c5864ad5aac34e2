// A scenario as the editor holds it, and its two translations: to the TOML of docs/scenario-format.md (what
// "Download" writes and the engine checks) and to the board's view (what the board draws). The engine stays the
// judge: nothing here checks the rules, the server's check does.

import { parseSquare, squareName } from './squares.js';

// The format's words and sizes. The editor takes them from the engine (`GET /api/info`'s `scenario_format`, through
// `useFormat`) before it builds anything; these are the same lists, for a page or a test without a server, and the
// editor's browser test checks that they still agree with the engine's.

/// [name in views, map character, label] of each standard terrain: the terrain kinds of the standard rules.
export let TERRAINS = [
  ['open', '.', 'Open'],
  ['woods', 'W', 'Woods'],
  ['town', 'T', 'Town'],
  ['sunken_road', 'S', 'Sunken road'],
  ['river', '~', 'River'],
  ['ford', 'F', 'Ford'],
];
/// The standard terrains no unit may enter nor stand in (R1.5, R5.1).
export let IMPASSABLE = ['river'];
export let HOMES = ['north', 'east', 'south', 'west'];
const HOME_OF_DIR = { N: 'north', E: 'east', S: 'south', W: 'west' };
export let ARMS = ['infantry', 'cavalry', 'artillery'];
export let QUALITIES = ['green', 'regular', 'veteran'];
export let FACINGS = ['N', 'E', 'S', 'W'];
/// The size limits of the format (R1.1).
export let MIN_SIDE = 4;
export let MAX_SIDE = 26;

/// Takes the format's words and sizes from the engine (`GET /api/info`'s `scenario_format`).
export function useFormat(format) {
  if (!format) return;
  const label = (name) => name[0].toUpperCase() + name.slice(1).replace(/_/g, ' ');
  TERRAINS = format.terrains.map(({ name, char }) => [name, char, label(name)]);
  if (format.terrains.every((t) => t.impassable !== undefined)) IMPASSABLE = format.terrains.filter((t) => t.impassable).map((t) => t.name);
  ({ arms: ARMS, qualities: QUALITIES, facings: FACINGS, homes: HOMES, min_side: MIN_SIDE, max_side: MAX_SIDE } = format);
}

/// The terrain kinds of a variant's rules as the engine describes them (`GET /api/info`'s `variants[].terrains`, a
/// check's `terrains`: `{id, name, letter}` each, the standard six first), in the shape of `TERRAINS`; the standard
/// kinds without them.
/// A kind from the engine has a fourth entry: what it does, in words.
export function terrainKinds(terrains) {
  if (!terrains) return TERRAINS;
  return terrains.map(({ id, name, letter, movement, cover, blocks_sight: blocks }) => [id, letter, name[0].toUpperCase() + name.slice(1),
    `${movement}; ${cover ? 'cover' : 'no cover'}; ${blocks ? 'blocks sight' : 'one sees across it'}`]);
}

/// The terrain kinds of a variant's rules (as `terrainKinds` takes them) that no unit may enter nor stand in (R1.5,
/// R5.1: the engine's `impassable`), id → name; the standard kinds' without them (the river).
export function impassableKinds(terrains) {
  if (!terrains) return new Map(TERRAINS.filter(([id]) => IMPASSABLE.includes(id)).map(([id, , label]) => [id, label.toLowerCase()]));
  return new Map(terrains.filter((t) => t.impassable).map((t) => [t.id, t.name]));
}

/// The arms of a variant's rules as the engine gives them (`GET /api/info`'s `variants[].arms`, a check's `arms`:
/// `{id, name, like, strength, movement, range}` each, the standard three first), as [id, what it is in words]; the
/// standard arms without them.
/// A variant's own arm has two more entries: the standard arm it acts as, and its strength.
export function armKinds(arms) {
  if (!arms) return ARMS.map((a) => [a, '']);
  return arms.map(({ id, like, strength, movement, range }) => [id,
    `${id === like ? '' : `acts as ${like}; `}strength ${strength}, moves ${movement}, range ${range}`,
    ...(id === like ? [] : [like, strength])]);
}

/// The units (on the board and among reinforcements) of an arm that `arms` (`armKinds`) lack, by arm, each unit
/// named by its square: what choosing rules of those arms would lose.
export function strayArms(model, arms) {
  const known = new Set(arms.map(([id]) => id));
  const stray = new Map();
  const note = (u) => {
    if (known.has(u.arm)) return;
    if (!stray.has(u.arm)) stray.set(u.arm, []);
    stray.get(u.arm).push(u.at);
  };
  model.units.forEach(note);
  (model.reinforcements || []).forEach((r) => r.units.forEach(note));
  return stray;
}

/// Whether a terrain is one of the standard six (a variant's own kind is drawn with its letter).
export function isStandardTerrain(id) {
  return TERRAINS.some(([name]) => name === id);
}

/// The squares painted with a terrain that `kinds` lack, by terrain: what choosing rules of those kinds would lose.
export function strayTerrains(model, kinds) {
  const known = new Set(kinds.map(([id]) => id));
  const stray = new Map();
  model.cells.forEach((c, i) => {
    if (known.has(c.terrain)) return;
    if (!stray.has(c.terrain)) stray.set(c.terrain, []);
    stray.get(c.terrain).push(squareName(i % model.width, Math.floor(i / model.width)));
  });
  return stray;
}

/// The display colours a side gets when the file names none (as the engine's defaults).
const DEFAULT_COUNTER = ['#2b4c7e', '#6b6b6b'];


/// An empty battle: open ground, two sides on opposite edges, no units.
export function emptyScenario(width = 8, height = 8) {
  return {
    name: 'My battle',
    description: '',
    turns: 8,
    pointsPerDestroyed: 1,
    variant: '',
    attacker: null,
    width,
    height,
    cells: Array.from({ length: width * height }, () => ({ terrain: 'open', elevation: 0, road: false })),
    fences: [],
    sides: [
      { id: 'blue', name: 'Blue', home: 'south', colour: 'red', counter: '', exhaustion: null },
      { id: 'grey', name: 'Grey', home: 'north', colour: 'black', counter: '', exhaustion: null },
    ],
    units: [],
    objectives: [],
    reinforcements: [],
    changes: [],
    options: {},
  };
}

/// A new group of reinforcements (docs/scenario-format.md#events) for `side`, due on turn 2, with one unit entering
/// at the middle of the side's home edge, facing the enemy's.
export function newReinforcement(model, side) {
  const home = model.sides[side].home;
  const [x, y] = { north: [model.width >> 1, model.height - 1], south: [model.width >> 1, 0], east: [model.width - 1, model.height >> 1], west: [0, model.height >> 1] }[home] || [0, 0];
  const facing = { north: 'S', south: 'N', east: 'W', west: 'E' }[home] || 'N';
  return { id: '', name: '', side, turn: Math.min(2, model.turns), units: [{ name: '', arm: 'infantry', quality: 'regular', at: squareName(x, y), facing }] };
}

/// A new timed change: the first objective's points from turn 2, or, without objectives, the first side's
/// exhaustion point.
export function newChange(model) {
  const o = model.objectives[0];
  return o
    ? { id: '', name: '', turn: Math.min(2, model.turns), kind: 'points', objective: o.at, points: o.points, side: 0, exhaustion: 1 }
    : { id: '', name: '', turn: Math.min(2, model.turns), kind: 'exhaustion', objective: '', points: 1, side: 0, exhaustion: 1 };
}

/// The editor's scenario from the server's scenario view (`GET /api/scenarios`, a check's `scenario`); `defaults`
/// are the options of `GET /api/info`, so that only the scenario's own options are kept.
export function fromView(view, defaults) {
  const { width, height } = view.map;
  const cells = Array.from({ length: width * height }, () => ({ terrain: 'open', elevation: 0, road: false }));
  for (const s of view.map.squares) cells[s.y * width + s.x] = { terrain: s.terrain, elevation: s.elevation, road: s.road };
  const options = {};
  for (const [k, v] of Object.entries(view.options || {})) if (String(defaults[k]) !== String(v)) options[k] = String(v);
  return {
    name: view.title,
    description: (view.description || '').trim(),
    turns: view.turns,
    pointsPerDestroyed: view.points_per_destroyed,
    variant: view.variant || '',
    attacker: view.attacker === 'A' ? 0 : view.attacker === 'B' ? 1 : null,
    width,
    height,
    cells,
    fences: view.map.fences.map(([a, b]) => fenceName(a, b)),
    sides: view.sides.map((s, i) => ({
      id: s.id,
      name: s.name,
      home: HOME_OF_DIR[s.home] || s.home,
      colour: s.colour,
      counter: s.counter === DEFAULT_COUNTER[i] ? '' : s.counter,
      exhaustion: s.exhaustion,
    })),
    units: view.units.filter((u) => !u.arrives).map(unitOf),
    objectives: view.objectives.map((o) => ({ at: o.at, points: o.points, holder: o.holder === null ? null : o.holder === 'A' ? 0 : 1 })),
    // An event's id is kept only when the file gave one of its own (not the numbering E1, C1 …).
    reinforcements: (view.reinforcements || []).map((r, i) => ({
      id: r.id === `E${i + 1}` ? '' : r.id,
      name: r.name === 'Reinforcements' ? '' : r.name,
      side: r.side === 'A' ? 0 : 1,
      turn: r.turn,
      units: r.units.map((id) => unitOf(view.units[id])),
    })),
    changes: (view.changes || []).map((c, i) => ({
      id: c.id === `C${i + 1}` ? '' : c.id,
      name: c.name,
      turn: c.turn,
      kind: c.objective ? 'points' : 'exhaustion',
      objective: c.objective || '',
      points: c.points ?? 1,
      side: c.side === 'B' ? 1 : 0,
      exhaustion: c.exhaustion ?? 1,
    })),
    options,
  };
}

/// A unit of a scenario view as the editor holds it.
function unitOf(u) {
  return { side: u.side === 'A' ? 0 : 1, name: u.name, arm: u.own_arm || u.arm, quality: u.quality, at: u.at, facing: u.facing };
}

/// A fence's name, its two squares in a fixed order, so that a fence has one name.
export function fenceName(a, b) {
  return [a, b].sort().join('-');
}

export function cellAt(model, square) {
  const { x, y } = parseSquare(square);
  return model.cells[y * model.width + x];
}

export function onBoard(model, square) {
  const { x, y } = parseSquare(square);
  return x >= 0 && y >= 0 && x < model.width && y < model.height;
}

/// The same battle on a board of another size: what lies beyond the new edges is dropped.
export function resized(model, width, height) {
  const cells = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      cells.push(x < model.width && y < model.height ? { ...model.cells[y * model.width + x] } : { terrain: 'open', elevation: 0, road: false });
    }
  }
  const inside = (sq) => { const { x, y } = parseSquare(sq); return x < width && y < height; };
  return {
    ...model,
    width,
    height,
    cells,
    fences: model.fences.filter((f) => f.split('-').every(inside)),
    units: model.units.filter((u) => inside(u.at)),
    objectives: model.objectives.filter((o) => inside(o.at)),
    reinforcements: (model.reinforcements || []).map((r) => ({ ...r, units: r.units.filter((u) => inside(u.at)) })).filter((r) => r.units.length),
  };
}

/// A TOML string: a basic string with the escapes TOML and JSON share.
function str(text) {
  return JSON.stringify(String(text));
}

/// A TOML multi-line string, for the description.
function longStr(text) {
  return `"""\n${String(text).replace(/\\/g, '\\\\').replace(/"""/g, '""\\"')}\n"""`;
}

/// An option's value: a number or a boolean bare, anything else quoted.
function optionValue(v) {
  return /^-?\d+$/.test(v) || v === 'true' || v === 'false' ? v : str(v);
}

/// The map layer rows, north first, a character a square.
function layer(model, char) {
  const rows = [];
  for (let y = model.height - 1; y >= 0; y--) {
    let row = '';
    for (let x = 0; x < model.width; x++) row += char(model.cells[y * model.width + x]);
    rows.push(row);
  }
  return `"""\n${rows.join('\n')}\n"""`;
}

/// The scenario as a hand-written file would have it: commented sections, the map as rows of text, each side's
/// units together. `kinds` are the terrain kinds of its rules (`terrainKinds`), whose letters the map is written
/// in; a square of a kind they lack is written `?`, which the engine refuses at its place rather than the editor
/// silently painting it over.
export function toToml(model, kinds = TERRAINS) {
  const letter = Object.fromEntries(kinds.map(([id, c]) => [id, c]));
  const out = [];
  out.push(`# ${model.name}: made with the pacw scenario editor. The format: /format (docs/scenario-format.md).`);
  out.push(`name = ${str(model.name)}`);
  if (model.description.trim()) out.push(`description = ${longStr(model.description.trim())}`);
  out.push(`turns = ${model.turns}`);
  out.push(`points_per_destroyed = ${model.pointsPerDestroyed}`);
  if (model.variant) out.push(`variant = ${str(model.variant)} # the rules it is played by (docs/variants.md)`);
  if (model.attacker !== null && model.attacker !== undefined) out.push(`attacker = ${str(model.sides[model.attacker].id)} # the side that attacks`);
  out.push('');
  out.push('[map]');
  out.push(`# North at the top (row ${model.height}), a1 south-west. Columns a..${String.fromCharCode(96 + model.width)}, rows 1..${model.height}.`);
  out.push(`# Terrain: ${kinds.map(([, c, label]) => `${c} ${label.toLowerCase()}`).join(', ')}.`);
  out.push(`terrain = ${layer(model, (c) => letter[c.terrain] || '?')}`);
  if (model.cells.some((c) => c.elevation > 0)) {
    out.push('# Elevation 0 to 3.');
    out.push(`elevation = ${layer(model, (c) => String(c.elevation))}`);
  }
  if (model.cells.some((c) => c.road)) out.push(`roads = ${layer(model, (c) => (c.road ? '#' : '.'))}`);
  if (model.fences.length) out.push(`fences = [${model.fences.map(str).join(', ')}]`);
  model.sides.forEach((s, i) => {
    out.push('');
    out.push(`[[sides]]${i === 0 ? '  # the first side' : ''}`);
    out.push(`id = ${str(s.id)}`);
    out.push(`name = ${str(s.name)}`);
    out.push(`home = ${str(s.home)}`);
    out.push(`colour = ${str(s.colour)}`);
    if (s.counter) out.push(`counter = ${str(s.counter)}`);
    if (s.exhaustion !== null && s.exhaustion !== '' && s.exhaustion !== undefined) out.push(`exhaustion = ${Number(s.exhaustion)}`);
  });
  model.sides.forEach((s, side) => {
    const units = model.units.filter((u) => u.side === side);
    if (!units.length) return;
    out.push('');
    out.push(`# --- ${s.name} ---`);
    for (const u of units) {
      out.push('[[units]]');
      out.push(`side = ${str(s.id)}`);
      if (u.name.trim()) out.push(`name = ${str(u.name.trim())}`);
      out.push(`arm = ${str(u.arm)}`);
      if (u.quality !== 'regular') out.push(`quality = ${str(u.quality)}`);
      out.push(`at = ${str(u.at)}`);
      out.push(`facing = ${str(u.facing)}`);
      out.push('');
    }
    out.pop();
  });
  if (model.objectives.length) {
    out.push('');
    out.push('# --- Objectives (R8.2) ---');
    for (const o of model.objectives) {
      out.push('[[objectives]]');
      out.push(`at = ${str(o.at)}`);
      out.push(`points = ${o.points}`);
      if (o.holder !== null) out.push(`holder = ${str(model.sides[o.holder].id)}`);
      out.push('');
    }
    out.pop();
  }
  const groups = model.reinforcements || [];
  if (groups.length) {
    out.push('');
    out.push('# --- Reinforcements: units that enter at the start of their turn, each on its entry square (`at`) ---');
    for (const r of groups) {
      out.push('[[reinforcements]]');
      if (r.id.trim()) out.push(`id = ${str(r.id.trim())}`);
      if (r.name.trim()) out.push(`name = ${str(r.name.trim())}`);
      out.push(`side = ${str(model.sides[r.side].id)}`);
      out.push(`turn = ${r.turn}`);
      for (const u of r.units) {
        out.push('[[reinforcements.units]]');
        if (u.name.trim()) out.push(`name = ${str(u.name.trim())}`);
        out.push(`arm = ${str(u.arm)}`);
        if (u.quality !== 'regular') out.push(`quality = ${str(u.quality)}`);
        out.push(`at = ${str(u.at)}`);
        out.push(`facing = ${str(u.facing)}`);
      }
      out.push('');
    }
    out.pop();
  }
  const changes = model.changes || [];
  if (changes.length) {
    out.push('');
    out.push('# --- Timed changes: from the start of their turn ---');
    for (const c of changes) {
      out.push('[[changes]]');
      if (c.id.trim()) out.push(`id = ${str(c.id.trim())}`);
      if (c.name.trim()) out.push(`name = ${str(c.name.trim())}`);
      out.push(`turn = ${c.turn}`);
      if (c.kind === 'points') {
        out.push(`objective = ${str(c.objective)}`);
        out.push(`points = ${c.points}`);
      } else {
        out.push(`side = ${str(model.sides[c.side].id)}`);
        out.push(`exhaustion = ${c.exhaustion}`);
      }
      out.push('');
    }
    out.pop();
  }
  const options = Object.entries(model.options).filter(([, v]) => v !== '');
  if (options.length) {
    out.push('');
    out.push('[options]  # the rule options of docs/rules.md R11 that differ from the defaults');
    for (const [k, v] of options) out.push(`${k} = ${optionValue(v)}`);
  }
  return `${out.join('\n')}\n`;
}

/// The `units` order of the file `toToml` writes: each side's units together, the first side's first. Problems
/// name a unit by this index.
export function fileOrder(model) {
  return [0, 1].flatMap((side) => model.units.map((u, i) => [u, i]).filter(([u]) => u.side === side).map(([, i]) => i));
}

/// What the board draws: the scenario view's shape (docs/api.md), with each unit's strength from the options and
/// the terrain kinds of its rules (`kinds`), whose letters mark a variant's own.
export function boardView(model, defaults, kinds = TERRAINS, arms = armKinds()) {
  const option = (k) => Number(model.options[k] ?? defaults[k]);
  // A variant's own arm is drawn as the game draws it: as the arm it acts as, marked, with its own strength.
  const own = Object.fromEntries(arms.filter((a) => a.length > 2).map(([id, , like, strength]) => [id, { like, strength }]));
  const base = (arm) => (own[arm] ? Number(model.options[`strength.${arm}`] ?? own[arm].strength) : option(`strength.${arm}`));
  const squares = [];
  for (let y = 0; y < model.height; y++) {
    for (let x = 0; x < model.width; x++) {
      const c = model.cells[y * model.width + x];
      squares.push({ at: squareName(x, y), x, y, terrain: c.terrain, elevation: c.elevation, road: c.road, fences: [] });
    }
  }
  const quality = { green: option('quality.green'), regular: 0, veteran: option('quality.veteran') };
  return {
    title: model.name,
    sides: model.sides.map((s, i) => ({ side: i ? 'B' : 'A', id: s.id, name: s.name, counter: s.counter || DEFAULT_COUNTER[i] })),
    map: { width: model.width, height: model.height, squares, fences: model.fences.map((f) => f.split('-')),
      terrains: kinds.map(([id, letter, name]) => ({ id, letter, name })) },
    units: model.units.map((u, i) => ({
      id: i,
      name: u.name || `${model.sides[u.side].name} ${u.arm}`,
      side: u.side ? 'B' : 'A',
      arm: own[u.arm]?.like || u.arm,
      ...(own[u.arm] ? { own_arm: u.arm } : {}),
      quality: u.quality,
      strength: Math.max(1, base(u.arm) + quality[u.quality]),
      at: u.at,
      facing: u.facing,
      alive: true,
      shaken: false,
    })),
    objectives: model.objectives.map((o) => ({ at: o.at, points: o.points, holder: o.holder === null ? null : o.holder ? 'B' : 'A' })),
  };
}
