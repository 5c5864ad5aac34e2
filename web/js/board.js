// The battlefield as SVG. The map (terrain, contours of height, roads, fences, coordinates) is drawn once; units,
// objectives and the marks of a selection are redrawn by `update`. The testing contract (docs/api.md): exactly one
// element per square carries `data-square`, one per unit on the board `data-unit`; marks and overlays use other
// names and never take the pointer. The facing arrows drawn here take a click too, but `data-facing` is on the
// facing buttons under the board (battle-view.js), which every pointer can press: an arrow is a fraction of a
// square, too small for a finger on a phone.

import { parseSquare, squareName } from './squares.js';
import { sideColour, sideName } from './util.js';

export const SIZE = 60;
const MARGIN = 16; // room for the coordinates, west and south of the board
const NS = 'http://www.w3.org/2000/svg';
const DIRS = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const FACING_ANGLE = { N: 0, E: 90, S: 180, W: 270 };
/// How far from a square's centre its facing arrows are drawn.
const FACING_OFFSET = 28;

const TERRAIN = {
  open: '#e9e3c4',
  woods: '#9cbc84',
  town: '#d8bf9c',
  sunken_road: '#c9b07a',
  river: '#7fb2e0',
  ford: '#b4d3ec',
};

export const TERRAIN_WORDS = {
  open: 'open ground',
  woods: 'woods',
  town: 'town',
  sunken_road: 'sunken road',
  river: 'river',
  ford: 'ford',
};

function el(name, attrs = {}, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}


/// The neighbouring square's name in a direction, or null off the board.
export function neighbour(map, name, dir) {
  const { x, y } = parseSquare(name);
  const [dx, dy] = DIRS[dir];
  const nx = x + dx;
  const ny = y + dy;
  return nx >= 0 && ny >= 0 && nx < map.width && ny < map.height ? squareName(nx, ny) : null;
}

function star(cx, cy, r1, r2) {
  let d = '';
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? r2 : r1;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    d += `${i ? 'L' : 'M'}${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`;
  }
  return `${d}Z`;
}

/// A small text with a dark outline, readable on any side colour.
function label(parent, x, y, text, size, attrs = {}) {
  const t = el('text', { x, y, 'font-size': size, class: 'counter-text', ...attrs }, parent);
  t.textContent = text;
  return t;
}

export class Board {
  /// Draws the map of `scenario` into `container`. `handlers`: onPick({ unit, square }), onFacing(dir),
  /// onHover(square or null); all optional (a preview takes none).
  /// `turned`: the board drawn upside down (south at the top), for a player whose army starts in the north; the
  /// counters and labels stay upright, the squares keep their names.
  constructor(container, scenario, handlers = {}, { preview = false, turned = false } = {}) {
    this.scenario = scenario;
    this.turned = turned;
    // A preview (the lobby's) is a picture: it carries no contract attributes, so that only the battle's board does.
    this.preview = preview;
    this.map = scenario.map;
    this.handlers = handlers;
    const w = this.map.width * SIZE;
    const hgt = this.map.height * SIZE;
    container.innerHTML = '';
    this.unitsAt = new Map();
    this.facingsShown = null;
    this.svg = el('svg', {
      viewBox: `${-MARGIN} -2 ${w + MARGIN + 2} ${hgt + MARGIN + 2}`,
      class: 'board',
      role: 'img',
      'aria-label': `${scenario.title}: the board, ${this.map.width} by ${this.map.height} squares`,
    });
    this.svg.style.setProperty('--cols', this.map.width);
    if (turned) this.svg.dataset.turned = 'true';
    container.appendChild(this.svg);
    this.defineUsedHatch();
    // Everything on the board lies in `world`, turned half round about the board's centre when `turned`.
    this.world = el('g', { class: 'world', transform: turned ? `rotate(180 ${w / 2} ${hgt / 2})` : null }, this.svg);
    this.squares = new Map(this.map.squares.map((s) => [s.at, s]));
    this.drawMap();
    this.marks = el('g', { class: 'marks', 'pointer-events': 'none' }, this.world);
    this.unitLayer = el('g', { class: 'units' }, this.world);
    this.objectiveLayer = el('g', { class: 'objectives' }, this.world);
    this.overlay = el('g', { class: 'overlay', 'pointer-events': 'none' }, this.world);
    this.hoverLayer = el('g', { class: 'hover-marks', 'pointer-events': 'none' }, this.world);
    this.facingLayer = el('g', { class: 'facings' }, this.world);
    if (handlers.onPick) this.listen();
  }

  /// The hatching laid over a unit already used on this card: a pattern, so that colour is never the only signal
  /// and the counter keeps its side's colour. Its id is unique to this board (a page may show several).
  defineUsedHatch() {
    Board.boards = (Board.boards || 0) + 1;
    this.usedHatch = `used-hatch-${Board.boards}`;
    const defs = el('defs', {}, this.svg);
    const pattern = el('pattern', { id: this.usedHatch, width: 7, height: 7, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
    el('rect', { width: 3, height: 7, class: 'used-stripe' }, pattern);
  }

  /// A transform that keeps text at (x, y) upright on a turned board.
  upright(x, y) {
    return this.turned ? { transform: `rotate(180 ${x} ${y})` } : {};
  }

  /// The direction on the board that a direction on the screen (an arrow key) means.
  screenDirection(dir) {
    return this.turned ? { N: 'S', S: 'N', E: 'W', W: 'E' }[dir] : dir;
  }

  /// A point of the page in the board's own coordinates, or null.
  toWorld(clientX, clientY) {
    const ctm = this.world.getScreenCTM();
    if (!ctm) return null;
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    return pt.matrixTransform(ctm.inverse());
  }

  origin(name) {
    const { x, y } = parseSquare(name);
    return [x * SIZE, (this.map.height - 1 - y) * SIZE];
  }

  centre(name) {
    const [px, py] = this.origin(name);
    return [px + SIZE / 2, py + SIZE / 2];
  }

  /// The square under a point of the page, or null.
  squareAt(clientX, clientY) {
    const p = this.toWorld(clientX, clientY);
    if (!p) return null;
    const x = Math.floor(p.x / SIZE);
    const y = this.map.height - 1 - Math.floor(p.y / SIZE);
    return x >= 0 && y >= 0 && x < this.map.width && y < this.map.height ? squareName(x, y) : null;
  }

  /// What is under a point of the page, found by position rather than by element: a facing arrow, else the square
  /// and the unit on it. The board may be redrawn between a press and its release; the click still counts.
  pick(clientX, clientY) {
    const p = this.toWorld(clientX, clientY);
    if (p && this.facingsShown) {
      const [cx, cy] = this.centre(this.facingsShown);
      for (const [dir, [dx, dy]] of Object.entries(DIRS)) {
        if (Math.hypot(p.x - (cx + dx * FACING_OFFSET), p.y - (cy - dy * FACING_OFFSET)) <= 14) {
          this.handlers.onFacing?.(dir);
          return;
        }
      }
    }
    const square = this.squareAt(clientX, clientY);
    if (!square) return;
    const unit = this.unitsAt.get(square);
    this.handlers.onPick({ unit: unit ?? null, square });
  }

  listen() {
    // A press and a release close together are a click (a tap on a touch screen); a drag or a scroll is not.
    // A finger held still on the board for half a second is a hover (a touch screen has none): it shows what the
    // pointer would, and is no click.
    let down = null;
    let hold = null;
    this.svg.addEventListener('pointerdown', (ev) => {
      down = { x: ev.clientX, y: ev.clientY, held: false };
      clearTimeout(hold);
      if (ev.pointerType === 'touch') {
        this.handlers.onHover?.(null); // a new touch puts away the card a held finger showed
        const d = down;
        hold = setTimeout(() => {
          d.held = true;
          this.handlers.onHover?.(this.squareAt(d.x, d.y));
        }, 500);
      }
    });
    this.svg.addEventListener('pointerup', (ev) => {
      const d = down;
      down = null;
      clearTimeout(hold);
      // Not a click: a finger held (a hover), or two fingers zooming (zoom.js sets `pinching`).
      if (d && !d.held && !this.pinching && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) <= 12) this.pick(ev.clientX, ev.clientY);
    });
    // Clicks without a pointer (assistive technology) come as plain click events.
    this.svg.addEventListener('click', (ev) => {
      if (ev.detail === 0) this.pick(ev.clientX, ev.clientY);
    });
    let pending = false;
    let last = null;
    this.svg.addEventListener('pointermove', (ev) => {
      last = ev;
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        this.handlers.onHover?.(this.squareAt(last.clientX, last.clientY));
      });
    });
    this.svg.addEventListener('pointerleave', (ev) => {
      if (ev.pointerType !== 'touch') this.handlers.onHover?.(null);
    });
    this.svg.addEventListener('pointercancel', () => clearTimeout(hold));
    this.svg.addEventListener('contextmenu', (ev) => ev.preventDefault()); // a held finger shows the card, not a menu
  }

  drawMap() {
    const map = this.map;
    const ground = el('g', { class: 'ground' }, this.world);
    const same = (s, dir, test) => {
      const n = neighbour(map, s.at, dir);
      return n && test(this.squares.get(n));
    };
    for (const s of map.squares) {
      const [px, py] = this.origin(s.at);
      el('rect', { x: px, y: py, width: SIZE, height: SIZE, fill: TERRAIN[s.terrain] || '#eee', class: 'square', 'data-square': this.preview ? null : s.at }, ground);
      const deco = el('g', { 'pointer-events': 'none' }, ground);
      if (s.elevation > 0) {
        el('rect', { x: px, y: py, width: SIZE, height: SIZE, fill: '#6b4a24', opacity: 0.1 * s.elevation }, deco);
        // The height is written only where the ground rises (a lower neighbour), not on every square of a plateau.
        const edge = Object.keys(DIRS).some((d) => same(s, d, (q) => q.elevation < s.elevation));
        if (edge) label(deco, px + 2, py + SIZE - 3, `▲${s.elevation}`, 9, { class: 'height-mark', ...this.upright(px + 2, py + SIZE - 3) });
      }
      if (s.terrain === 'woods') {
        for (const [dx, dy] of [[12, 12], [46, 10], [30, 30], [50, 48], [10, 46], [30, 54]]) el('circle', { cx: px + dx, cy: py + dy, r: 6, fill: '#55804a' }, deco);
      } else if (s.terrain === 'town') {
        for (const [dx, dy] of [[5, 5], [41, 6], [5, 42], [42, 43]]) el('rect', { x: px + dx, y: py + dy, width: 13, height: 11, fill: '#8a5a3b' }, deco);
      } else if (s.terrain === 'sunken_road') {
        // Along the neighbouring sunken road squares: north–south, east–west, or both at a junction.
        const ns = same(s, 'N', (q) => q.terrain === 'sunken_road') || same(s, 'S', (q) => q.terrain === 'sunken_road');
        const ew = same(s, 'E', (q) => q.terrain === 'sunken_road') || same(s, 'W', (q) => q.terrain === 'sunken_road');
        if (ew || !ns) el('rect', { x: px, y: py + SIZE / 2 - 8, width: SIZE, height: 16, class: 'sunken-stripe east-west' }, deco);
        if (ns) el('rect', { x: px + SIZE / 2 - 8, y: py, width: 16, height: SIZE, class: 'sunken-stripe north-south' }, deco);
      } else if (s.terrain === 'river') {
        el('path', { d: `M${px} ${py + 20} q15 -8 30 0 t30 0 M${px} ${py + 40} q15 -8 30 0 t30 0`, stroke: '#3d7fbf', 'stroke-width': 2, fill: 'none' }, deco);
      } else if (s.terrain === 'ford') {
        el('path', { d: `M${px} ${py + 30} q15 -8 30 0 t30 0`, stroke: '#3d7fbf', 'stroke-width': 2, 'stroke-dasharray': '4 4', fill: 'none' }, deco);
      } else if (!TERRAIN[s.terrain]) {
        // A variant's own terrain (docs/variants.md): plain ground with its map letter; the square's panel names it.
        const kind = (map.terrains || []).find((k) => k.id === s.terrain);
        label(deco, px + SIZE - 12, py + 14, kind ? kind.letter : '?', 12, { class: 'own-terrain-mark', ...this.upright(px + SIZE - 12, py + 14) });
      }
    }
    // Contours: a line on every edge between squares of different height, thicker for a steeper step.
    const contours = el('g', { class: 'contours', 'pointer-events': 'none' }, this.world);
    for (const s of map.squares) {
      for (const dir of ['N', 'E']) {
        const n = neighbour(map, s.at, dir);
        if (!n) continue;
        const step = Math.abs(this.squares.get(n).elevation - s.elevation);
        if (!step) continue;
        const [px, py] = this.origin(s.at);
        const line = dir === 'N' ? [px, py, px + SIZE, py] : [px + SIZE, py, px + SIZE, py + SIZE];
        el('line', { x1: line[0], y1: line[1], x2: line[2], y2: line[3], stroke: '#5b3a1a', 'stroke-width': 1 + step, 'stroke-opacity': 0.7 }, contours);
      }
    }
    // Roads: a line from the centre toward each neighbouring road square.
    const roads = el('g', { class: 'roads', 'pointer-events': 'none' }, this.world);
    for (const s of map.squares.filter((q) => q.road)) {
      const [cx, cy] = this.centre(s.at);
      let joined = false;
      for (const dir of Object.keys(DIRS)) {
        const n = neighbour(map, s.at, dir);
        if (!n || !this.squares.get(n).road) continue;
        joined = true;
        const [nx, ny] = this.centre(n);
        el('line', { x1: cx, y1: cy, x2: (cx + nx) / 2, y2: (cy + ny) / 2, stroke: '#7a5230', 'stroke-width': 6, 'stroke-linecap': 'round' }, roads);
      }
      if (!joined) el('circle', { cx, cy, r: 4, fill: '#7a5230' }, roads);
    }
    // Fences lie on edges.
    const fences = el('g', { class: 'fences', 'pointer-events': 'none' }, this.world);
    for (const [a, b] of map.fences) {
      const p = parseSquare(a);
      const q = parseSquare(b);
      const [ax, ay] = this.origin(a);
      let line;
      if (p.x !== q.x) {
        const x = ax + (q.x > p.x ? SIZE : 0);
        line = [x, ay + 3, x, ay + SIZE - 3];
      } else {
        const y = ay + (q.y > p.y ? 0 : SIZE);
        line = [ax + 3, y, ax + SIZE - 3, y];
      }
      el('line', { x1: line[0], y1: line[1], x2: line[2], y2: line[3], stroke: '#3b2a1a', 'stroke-width': 5, 'stroke-dasharray': '7 3' }, fences);
    }
    // Coordinates, outside the board.
    const labels = el('g', { class: 'coords', 'pointer-events': 'none' }, this.svg);
    // Outside `world`, and placed as the turned board puts their files and ranks.
    const column = (x) => (this.turned ? map.width - 1 - x : x);
    const row = (y) => (this.turned ? y : map.height - 1 - y);
    for (let x = 0; x < map.width; x++) el('text', { x: column(x) * SIZE + SIZE / 2, y: map.height * SIZE + 12, 'text-anchor': 'middle' }, labels).textContent = String.fromCharCode(97 + x);
    for (let y = 0; y < map.height; y++) el('text', { x: -MARGIN / 2, y: row(y) * SIZE + SIZE / 2 + 4, 'text-anchor': 'middle' }, labels).textContent = y + 1;
  }

  /// Redraws units, objectives and marks. `state`:
  /// { units, objectives, selected (unit id), cursor (square), selectable: Set(unit), targets: Map(unit → { needed,
  ///   fireMove }), reachable: Set(square), alternative: Set(square), path: [square], sight: { from, to, blockedAt },
  ///   refused: { from, to, blockedAt, square }, lastMove: [{ from, to, kind, cls }], picked: square, highlight: Set(unit),
  ///   facings: { at, allowed: { N: bool, … }, chosen }, plans: [mark] (a review's orders, drawn by `drawPlan`),
  ///   entries: [{ at, side, turn }] (the entry squares of reinforcements due at the next turn's start) }
  update(state) {
    this.marks.replaceChildren();
    this.unitLayer.replaceChildren();
    this.objectiveLayer.replaceChildren();
    this.overlay.replaceChildren();
    this.facingLayer.replaceChildren();
    this.facingsShown = state.facings ? state.facings.at : null;
    this.unitsAt = new Map((state.units || []).filter((u) => u.alive !== false).map((u) => [u.at, u.id]));
    for (const mv of (state.lastMove || []).filter((m) => m.kind !== 'none')) {
      // A move is drawn in its unit's side's colour; an attack in red, dashed, whoever made it.
      const colour = mv.kind === 'move' && !mv.cls && mv.side ? sideColour(this.scenario, mv.side) : null;
      this.arrow(this.marks, mv.from, mv.to, mv.cls || (mv.kind === 'attack' ? 'last-attack' : 'last-move'), colour);
    }
    for (const name of state.reachable || []) {
      const [cx, cy] = this.centre(name);
      el('circle', { cx, cy, r: 8, class: 'reachable-dot' }, this.marks);
    }
    const occupied = new Set((state.units || []).filter((u) => u.alive !== false).map((u) => u.at));
    for (const name of state.alternative || []) {
      const [cx, cy] = this.centre(name);
      // On the unit's own square (turn and fire) the mark rings the counter instead of hiding under it.
      if (occupied.has(name)) el('circle', { cx, cy, r: 29, class: 'move-fire-ring' }, this.overlay);
      else el('circle', { cx, cy, r: 9, class: 'move-fire-dot' }, this.marks);
    }
    for (const entry of state.entries || []) {
      const [px, py] = this.origin(entry.at);
      const mark = el('rect', { x: px + 5, y: py + 5, width: SIZE - 10, height: SIZE - 10, rx: 4, class: 'entry-square', stroke: sideColour(this.scenario, entry.side), 'data-entry': entry.at }, this.marks);
      el('title', {}, mark).textContent = `Reinforcements enter here at the start of turn ${entry.turn}`;
    }
    if (state.picked) {
      const [px, py] = this.origin(state.picked);
      el('rect', { x: px + 3, y: py + 3, width: SIZE - 6, height: SIZE - 6, class: 'picked-square' }, this.marks);
    }
    if (state.path && state.path.length > 1) {
      el('polyline', { points: state.path.map((s) => this.centre(s).join(',')).join(' '), class: 'path-line' }, this.marks);
    }
    const units = (state.units || []).filter((u) => u.alive !== false);
    for (const u of units) this.drawUnit(u, state);
    this.drawObjectives(state.objectives || this.scenario.objectives);
    if (state.refused) {
      if (state.refused.to) this.sightLine(state.refused, 'refused');
      if (state.refused.square) {
        const [px, py] = this.origin(state.refused.square);
        el('rect', { x: px + 2, y: py + 2, width: SIZE - 4, height: SIZE - 4, class: 'refused-square' }, this.overlay);
      }
    }
    if (state.cursor) {
      const [px, py] = this.origin(state.cursor);
      el('rect', { x: px + 1, y: py + 1, width: SIZE - 2, height: SIZE - 2, class: 'cursor' }, this.overlay);
    }
    if (state.facings) this.drawFacings(state.facings);
    for (const mark of state.plans || []) this.drawPlan(mark);
  }

  /// One mark of an order a review shows (review.js `planArrows`), drawn over the counters so that nothing hides
  /// it: `{ kind: 'move', from, to, facing, cls }` an arrow to a ghost counter with the facing the unit ends with
  /// (a turn in place: the ghost alone); `{ kind: 'attack', from, to, cls, label, charge, fireMove }` an arrow that
  /// runs onto its ringed target, thick for a charge, with a double head for a Fire & Move, labelled. `bend` (±1)
  /// bows the arrow to one side, so that the order played and the better one stay apart on the same path. `cls` is
  /// `played` or `better`.
  drawPlan(mark) {
    if (!mark.from || !mark.to) return;
    const g = el('g', { class: `plan plan-${mark.cls} plan-${mark.kind}`, 'data-plan': mark.cls, 'data-kind': mark.kind }, this.overlay);
    const [x1, y1] = this.centre(mark.from);
    const [x2, y2] = this.centre(mark.to);
    if (mark.kind === 'move') {
      // The ghost counter where the unit ends, its facing notch in the order's colour.
      const ghost = el('g', { transform: `translate(${x2} ${y2})` }, g);
      const r = mark.from === mark.to ? 25 : 21;
      el('rect', { x: -r, y: -r, width: 2 * r, height: 2 * r, rx: 5, class: 'plan-ghost' }, ghost);
      if (mark.facing) el('path', { d: `M-11 ${-r} L0 ${-r - 11} L11 ${-r} Z`, class: 'plan-notch', transform: `rotate(${FACING_ANGLE[mark.facing]})` }, ghost);
      if (mark.from === mark.to) return;
    }
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    const [nx, ny] = [-uy, ux];
    // From on the unit's counter to onto the target's (an attack: the head's tip inside its counter) or to the
    // ghost's edge (a move).
    const attack = mark.kind === 'attack';
    const start = attack ? 10 : 14;
    const reach = attack ? 14 : 23;
    const head = mark.charge ? 15 : 12;
    const p0 = [x1 + ux * start, y1 + uy * start];
    const p2 = [x2 - ux * (reach + head), y2 - uy * (reach + head)];
    // Only attacks bow (the order played and the better one often strike the same target); a short arrow bows
    // gently, so that it never curls.
    const line = Math.hypot(p2[0] - p0[0], p2[1] - p0[1]);
    const bow = attack ? (mark.bend || 0) * Math.min(14, 0.35 * line) : 0;
    const c = [(p0[0] + p2[0]) / 2 + nx * bow, (p0[1] + p2[1]) / 2 + ny * bow];
    const d = `M${p0[0].toFixed(1)} ${p0[1].toFixed(1)} Q${c[0].toFixed(1)} ${c[1].toFixed(1)} ${p2[0].toFixed(1)} ${p2[1].toFixed(1)}`;
    const width = mark.kind === 'attack' && mark.charge ? 'plan-thick' : 'plan-thin';
    el('path', { d, class: `plan-halo ${width}` }, g);
    el('path', { d, class: `plan-line ${width}` }, g);
    // The head points along the curve's end.
    const tl = Math.hypot(p2[0] - c[0], p2[1] - c[1]);
    const [tx, ty] = tl > 0.5 ? [(p2[0] - c[0]) / tl, (p2[1] - c[1]) / tl] : [ux, uy];
    const heads = mark.fireMove ? [0, head] : [0];
    for (const back of heads) {
      const b = [p2[0] - tx * back, p2[1] - ty * back];
      const wide = mark.charge ? 10 : 8;
      el('path', { d: `M${(b[0] + tx * head).toFixed(1)} ${(b[1] + ty * head).toFixed(1)} L${(b[0] - ty * wide).toFixed(1)} ${(b[1] + tx * wide).toFixed(1)} L${(b[0] + ty * wide).toFixed(1)} ${(b[1] - tx * wide).toFixed(1)} Z`, class: 'plan-head' }, g);
    }
    if (!attack) return;
    el('circle', { cx: x2, cy: y2, r: 27, class: 'plan-ring' }, g);
    if (!mark.label) return;
    // The label beside the arrow's middle, wholly on the side it bows to (so that the two orders' labels at one
    // target do not cover each other), upright on a turned board.
    const mid = [0.25 * p0[0] + 0.5 * c[0] + 0.25 * p2[0], 0.25 * p0[1] + 0.5 * c[1] + 0.25 * p2[1]];
    const side = mark.bend || 1;
    const w = 7.2 * mark.label.length + 10;
    const away = 5 + Math.abs(nx) * (w / 2) + Math.abs(ny) * 10;
    const [lx, ly] = [mid[0] + nx * side * away, mid[1] + ny * side * away];
    const label = el('g', { class: 'plan-label', ...this.upright(lx, ly) }, g);
    el('rect', { x: lx - w / 2, y: ly - 10, width: w, height: 19, rx: 4 }, label);
    el('text', { x: lx, y: ly + 4.5, 'text-anchor': 'middle' }, label).textContent = mark.label;
  }

  /// Redraws only what follows the pointer: `{ path: [square], sight: { from, to, blockedAt } }`. The counters
  /// stay as they are, so a click in progress is not lost.
  updateHover({ path, sight } = {}) {
    this.hoverLayer.replaceChildren();
    if (path && path.length > 1) {
      el('polyline', { points: path.map((s) => this.centre(s).join(',')).join(' '), class: 'path-line' }, this.hoverLayer);
    }
    if (sight) this.sightLine(sight, 'sight', this.hoverLayer);
  }

  /// An arrow from one square's centre to another's, classed `cls`; `colour`, when given, strokes and fills it.
  arrow(parent, from, to, cls, colour = null) {
    const [x1, y1] = this.centre(from);
    const [x2, y2] = this.centre(to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    const tip = [x2 - ux * 14, y2 - uy * 14];
    const line = el('line', { x1, y1, x2: tip[0], y2: tip[1], class: cls }, parent);
    const side = [-uy * 7, ux * 7];
    const head = el('path', { d: `M${tip[0] + ux * 10} ${tip[1] + uy * 10} L${tip[0] + side[0]} ${tip[1] + side[1]} L${tip[0] - side[0]} ${tip[1] - side[1]} Z`, class: `${cls}-head` }, parent);
    if (colour) {
      line.style.stroke = colour;
      head.style.fill = colour;
    }
  }

  sightLine({ from, to, blockedAt }, cls, layer = this.overlay) {
    const [x1, y1] = this.centre(from);
    const [x2, y2] = this.centre(to);
    el('line', { x1, y1, x2, y2, class: blockedAt ? `${cls}-line blocked` : `${cls}-line clear` }, layer);
    if (blockedAt) {
      const [px, py] = this.origin(blockedAt);
      el('rect', { x: px + 4, y: py + 4, width: SIZE - 8, height: SIZE - 8, class: 'blocking-square' }, layer);
      const [cx, cy] = this.centre(blockedAt);
      el('path', { d: `M${cx - 9} ${cy - 9} L${cx + 9} ${cy + 9} M${cx + 9} ${cy - 9} L${cx - 9} ${cy + 9}`, class: 'blocking-cross' }, layer);
    }
  }

  /// A unit counter: side colour, arm symbol, quality, strength, facing notch, shaken badge, activated mark.
  drawUnit(u, state) {
    const [cx, cy] = this.centre(u.at);
    const colour = sideColour(this.scenario, u.side);
    // Done for this card: faded and ticked (the unit giving its order now is not done yet).
    const activated = u.activated_this_card && state.active !== u.id;
    const cls = ['unit', `side-${u.side}`, u.shaken && 'shaken', activated && 'activated', state.selected === u.id && 'selected'].filter(Boolean).join(' ');
    const g = el('g', { class: cls, 'data-unit': this.preview ? null : u.id, 'data-at': u.at, transform: `translate(${cx} ${cy})${this.turned ? ' rotate(180)' : ''}` }, this.unitLayer);
    const face = el('g', { transform: `rotate(${FACING_ANGLE[u.facing] + (this.turned ? 180 : 0)})` }, g);
    el('path', { d: 'M-10 -21 L0 -29 L10 -21 Z', class: 'facing-notch' }, face);
    el('rect', { x: -21, y: -21, width: 42, height: 42, rx: 4, fill: colour, class: 'counter-body' }, g);
    // A variant's own arm: the symbol of the arm it acts as, dashed.
    const sym = el('g', { class: u.own_arm ? 'arm-symbol own-arm' : 'arm-symbol' }, g);
    el('rect', { x: -11, y: -11, width: 22, height: 15 }, sym);
    if (u.arm === 'infantry') el('path', { d: 'M-11 -11 L11 4 M11 -11 L-11 4' }, sym);
    else if (u.arm === 'cavalry') el('path', { d: 'M-11 4 L11 -11' }, sym);
    else el('circle', { cx: 0, cy: -3.5, r: 3.5, class: 'gun' }, sym);
    if (activated) el('rect', { x: -21, y: -21, width: 42, height: 42, rx: 4, fill: `url(#${this.usedHatch})`, class: 'used-hatch' }, g);
    const quality = { green: 'G', regular: '', veteran: '★' }[u.quality];
    if (quality) label(g, -17, 17, quality, 12);
    label(g, 17, 18, u.strength, 15, { 'text-anchor': 'end', 'font-weight': 'bold' });
    if (u.shaken) {
      el('circle', { cx: -14, cy: -14, r: 7, class: 'shaken-badge' }, g);
      label(g, -14, -10.5, 'S', 10, { 'text-anchor': 'middle', class: 'shaken-letter' });
    }
    if (activated) {
      el('circle', { cx: 14, cy: -14, r: 8, class: 'done-badge' }, g);
      label(g, 14, -10, '✓', 11, { 'text-anchor': 'middle', class: 'done-mark' });
    }
    if (state.selectable?.has(u.id)) el('rect', { x: -26, y: -26, width: 52, height: 52, rx: 7, class: 'selectable-ring' }, g);
    if (state.selected === u.id) el('rect', { x: -27, y: -27, width: 54, height: 54, rx: 7, class: 'selected-ring' }, g);
    if (state.highlight?.has(u.id)) el('rect', { x: -28, y: -28, width: 56, height: 56, rx: 8, class: 'highlight-ring' }, g);
    const target = state.targets?.get(u.id);
    if (target) {
      el('circle', { r: 27, class: target.direct ? 'target-ring' : 'target-ring indirect' }, g);
      if (target.fireMove) el('circle', { r: 31, class: 'fire-move-ring' }, g);
      if (target.needed) {
        // Dashed like its ring when the number needed holds only after a move.
        el('circle', { cx: 20, cy: -20, r: 10, class: target.direct ? 'needed-badge' : 'needed-badge indirect' }, g);
        label(g, 20, -16.5, `${target.needed}+`, 10, { 'text-anchor': 'middle', class: 'needed-text' });
      }
    }
    const side = sideName(this.scenario, u.side);
    el('title', {}, g).textContent = `${side} ${u.name}: ${u.quality} ${u.own_arm ? `${u.own_arm} (as ${u.arm})` : u.arm}, strength ${u.strength}, facing ${u.facing}${u.shaken ? ', shaken' : ''}${activated ? ', activated on this card' : ''} (${u.at})`;
  }

  drawObjectives(objectives) {
    for (const o of objectives) {
      const [px, py] = this.origin(o.at);
      const g = el('g', { class: 'objective' }, this.objectiveLayer);
      const colour = o.holder ? sideColour(this.scenario, o.holder) : '#d4a800';
      el('path', { d: star(px + 10, py + 10, 10, 4.5), class: 'objective-halo' }, g);
      el('path', { d: star(px + 10, py + 10, 10, 4.5), fill: colour, class: 'objective-star' }, g);
      label(g, px + 10, py + 13.5, o.points, 8, { 'text-anchor': 'middle', 'font-weight': 'bold', ...this.upright(px + 10, py + 10) });
      const holder = o.holder ? sideName(this.scenario, o.holder) : 'nobody';
      el('title', {}, g).textContent = `Objective ${o.at}: ${o.points} point${o.points === 1 ? '' : 's'}, held by ${holder} (R8.2)`;
    }
  }

  /// The four facing arrows around a square: allowed ones solid, the others crossed out (a click says why). They
  /// show on the board which way each facing points; the buttons under the board (with `data-facing`) are the same
  /// choices, big enough for a finger.
  drawFacings({ at, allowed, chosen }) {
    const [cx, cy] = this.centre(at);
    for (const dir of ['N', 'E', 'S', 'W']) {
      const ok = allowed[dir];
      const g = el('g', {
        class: `facing-choice${ok ? ' allowed' : ' not-allowed'}${chosen === dir ? ' chosen' : ''}`,
        'data-dir': dir,
        transform: `translate(${cx} ${cy}) rotate(${FACING_ANGLE[dir]}) translate(0 -${FACING_OFFSET})`,
      }, this.facingLayer);
      el('circle', { r: 12, class: 'facing-disc' }, g);
      el('path', { d: 'M0 -8 L7 5 L-7 5 Z', class: 'facing-arrow' }, g);
      if (!ok) el('path', { d: 'M-8 -8 L8 8', class: 'facing-cross' }, g);
      el('title', {}, g).textContent = ok ? `Face ${dir}` : `Facing ${dir} is not allowed here (R5.4)`;
    }
  }
}

/// The moves and attacks of a decision's events, to draw as arrows, with the units concerned (to ring them).
export function moveArrows(events, v) {
  const out = [];
  const list = events.map((entry) => entry.event || entry);
  // Where a unit stood before it retreated: an attack's arrow points at the square it was made against.
  const before = new Map(list.filter((e) => e.event === 'retreated').map((e) => [e.unit, e.from]));
  for (const e of list) {
    if ((e.event === 'moved' && e.from !== e.to) || e.event === 'retreated') out.push({ from: e.from, to: e.to, kind: 'move', units: [e.unit], side: v.units[e.unit]?.side });
    else if (e.event === 'attack') out.push({ from: v.units[e.attacker].at, to: before.get(e.target) || v.units[e.target].at, kind: 'attack', units: [e.attacker, e.target] });
    else if (['activated', 'held', 'moved'].includes(e.event)) out.push({ kind: 'none', units: [e.unit] });
  }
  return out;
}

/// A small, static picture of a scenario's board at the start (lobby previews).
export function previewBoard(container, scenario) {
  const board = new Board(container, scenario, {}, { preview: true });
  // The reinforcements are not on the board at the start (their `arrives` turn is later).
  board.update({ units: scenario.units.map((u) => ({ ...u, alive: !u.arrives, shaken: false })), objectives: scenario.objectives });
  board.svg.setAttribute('aria-label', `${scenario.title}: a map preview`);
  return board;
}
