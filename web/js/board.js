// The battlefield as SVG: terrain, elevation, roads, fences on edges, objectives and unit counters.

const SIZE = 60;
const NS = 'http://www.w3.org/2000/svg';

const TERRAIN = {
  open: '#e9e3c4',
  woods: '#86a970',
  town: '#cfae86',
  sunken_road: '#b89f6c',
  river: '#6fa8dc',
  ford: '#a9cbe8',
};
const SIDE_COLOUR = { A: '#2b4c7e', B: '#7b7b7b' };

function el(name, attrs = {}, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/// Screen position of a square (row 1 at the bottom).
function origin(map, x, y) {
  return [x * SIZE, (map.height - 1 - y) * SIZE];
}

function centre(map, x, y) {
  const [px, py] = origin(map, x, y);
  return [px + SIZE / 2, py + SIZE / 2];
}

function parseSquare(name) {
  return { x: name.charCodeAt(0) - 97, y: parseInt(name.slice(1), 10) - 1 };
}

/// Draws the static battlefield into `svg`.
function drawMap(svg, scenario) {
  const map = scenario.map;
  const ground = el('g', { class: 'ground' }, svg);
  const byName = new Map(map.squares.map((s) => [s.at, s]));
  for (const s of map.squares) {
    const [px, py] = origin(map, s.x, s.y);
    const cell = el('rect', { x: px, y: py, width: SIZE, height: SIZE, fill: TERRAIN[s.terrain] || '#eee', stroke: '#b9b094', 'stroke-width': 1, 'data-square': s.at, class: 'square' }, ground);
    if (s.elevation > 0) {
      el('rect', { x: px, y: py, width: SIZE, height: SIZE, fill: '#5b3a1a', opacity: 0.09 * s.elevation, 'pointer-events': 'none' }, ground);
      el('text', { x: px + 4, y: py + SIZE - 5, 'font-size': 11, fill: '#5b3a1a', 'pointer-events': 'none' }, ground).textContent = '▲'.repeat(s.elevation);
    }
    if (s.terrain === 'woods') {
      for (const [dx, dy] of [[15, 16], [40, 14], [27, 34], [48, 40], [12, 44]]) el('circle', { cx: px + dx, cy: py + dy, r: 6, fill: '#4f7a3d', 'pointer-events': 'none' }, ground);
    } else if (s.terrain === 'town') {
      for (const [dx, dy] of [[10, 10], [34, 14], [16, 36], [38, 38]]) el('rect', { x: px + dx, y: py + dy, width: 12, height: 10, fill: '#8a5a3b', 'pointer-events': 'none' }, ground);
    } else if (s.terrain === 'sunken_road') {
      el('rect', { x: px, y: py + SIZE / 2 - 7, width: SIZE, height: 14, fill: '#8d7446', 'pointer-events': 'none' }, ground);
    } else if (s.terrain === 'river') {
      el('path', { d: `M${px} ${py + 20} q15 -8 30 0 t30 0 M${px} ${py + 40} q15 -8 30 0 t30 0`, stroke: '#3d7fbf', fill: 'none', 'pointer-events': 'none' }, ground);
    } else if (s.terrain === 'ford') {
      el('path', { d: `M${px} ${py + 30} q15 -8 30 0 t30 0`, stroke: '#3d7fbf', 'stroke-dasharray': '4 4', fill: 'none', 'pointer-events': 'none' }, ground);
    }
    cell.appendChild(el('title')).textContent = `${s.at}: ${s.terrain.replace('_', ' ')}, elevation ${s.elevation}${s.road ? ', road' : ''}`;
  }
  // Roads: a line from the centre toward each neighbouring road square.
  const roads = el('g', { class: 'roads', 'pointer-events': 'none' }, svg);
  for (const s of map.squares.filter((q) => q.road)) {
    const [cx, cy] = centre(map, s.x, s.y);
    let joined = false;
    for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
      const n = map.squares.find((q) => q.x === s.x + dx && q.y === s.y + dy && q.road);
      if (!n) continue;
      joined = true;
      const [nx, ny] = centre(map, n.x, n.y);
      el('line', { x1: cx, y1: cy, x2: (cx + nx) / 2, y2: (cy + ny) / 2, stroke: '#7a5230', 'stroke-width': 5, 'stroke-linecap': 'round' }, roads);
    }
    if (!joined) el('circle', { cx, cy, r: 4, fill: '#7a5230' }, roads);
  }
  // Fences lie on edges.
  const fences = el('g', { class: 'fences', 'pointer-events': 'none' }, svg);
  for (const [a, b] of map.fences) {
    const p = byName.get(a);
    const q = byName.get(b);
    const [ax, ay] = origin(map, p.x, p.y);
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
  // Coordinates.
  const labels = el('g', { class: 'labels', 'pointer-events': 'none', 'font-size': 10, fill: '#6b604a' }, svg);
  for (let x = 0; x < map.width; x++) el('text', { x: x * SIZE + SIZE - 11, y: map.height * SIZE - 3 }, labels).textContent = String.fromCharCode(97 + x);
  for (let y = 0; y < map.height; y++) el('text', { x: 2, y: (map.height - 1 - y) * SIZE + 11 }, labels).textContent = y + 1;
}

function drawObjectives(svg, map, objectives, sides) {
  const g = el('g', { class: 'objectives', 'pointer-events': 'none' }, svg);
  for (const o of objectives) {
    const [px, py] = origin(map, o.x, o.y);
    const colour = o.holder ? SIDE_COLOUR[o.holder] : '#c9a400';
    el('path', { d: star(px + SIZE - 9, py + 9, 8, 3.5), fill: colour, stroke: '#3b2a1a', 'stroke-width': 1 }, g);
    el('text', { x: px + SIZE - 9, y: py + 12.5, 'font-size': 8, 'text-anchor': 'middle', fill: 'white', 'font-weight': 'bold' }, g).textContent = o.points;
    const holder = o.holder ? sides.find((s) => s.side === o.holder).name : 'nobody';
    g.appendChild(el('title')).textContent = `Objective ${o.at}: ${o.points} points, held by ${holder}`;
  }
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

const FACING_ANGLE = { N: 0, E: 90, S: 180, W: 270 };

/// A unit counter: side colour, arm symbol, quality, strength, facing notch, shaken marker.
function drawUnit(g, map, u, opts) {
  const [cx, cy] = centre(map, u.x, u.y);
  const group = el('g', { class: `unit side-${u.side}${u.shaken ? ' shaken' : ''}`, 'data-unit': u.id, transform: `translate(${cx} ${cy})`, cursor: 'pointer' }, g);
  const body = el('g', { transform: `rotate(${FACING_ANGLE[u.facing]})` }, group);
  el('rect', { x: -21, y: -21, width: 42, height: 42, rx: 4, fill: SIDE_COLOUR[u.side], stroke: u.shaken ? '#d62828' : '#111', 'stroke-width': u.shaken ? 3 : 1.5, 'stroke-dasharray': u.shaken ? '5 3' : '' }, body);
  el('path', { d: 'M-9 -21 L0 -29 L9 -21 Z', fill: '#111' }, body); // the facing notch, on the front edge
  // The arm symbol stays upright.
  const sym = el('g', { stroke: 'white', 'stroke-width': 2, fill: 'none' }, group);
  el('rect', { x: -13, y: -9, width: 26, height: 16 }, sym);
  if (u.arm === 'infantry') {
    el('path', { d: 'M-13 -9 L13 7 M13 -9 L-13 7' }, sym);
  } else if (u.arm === 'cavalry') {
    el('path', { d: 'M-13 7 L13 -9' }, sym);
  } else {
    el('circle', { cx: 0, cy: -1, r: 4, fill: 'white' }, sym);
  }
  const quality = { green: 'G', regular: '', veteran: '★' }[u.quality];
  if (quality) el('text', { x: -18, y: 18, 'font-size': 10, fill: 'white' }, group).textContent = quality;
  el('text', { x: 18, y: 18, 'font-size': 10, fill: 'white', 'text-anchor': 'end' }, group).textContent = u.strength;
  if (u.shaken) el('text', { x: 0, y: 19, 'font-size': 10, fill: '#ffd6d6', 'text-anchor': 'middle', 'font-weight': 'bold' }, group).textContent = 'SHAKEN';
  if (opts.active) el('rect', { x: -25, y: -25, width: 50, height: 50, rx: 6, fill: 'none', stroke: '#f2c200', 'stroke-width': 4, class: 'active-ring' }, group);
  if (opts.selectable) el('rect', { x: -25, y: -25, width: 50, height: 50, rx: 6, fill: 'none', stroke: '#2e6b34', 'stroke-width': 3, 'stroke-dasharray': '6 3', class: 'selectable-ring' }, group);
  if (opts.target) el('circle', { r: 27, fill: 'none', stroke: '#d62828', 'stroke-width': 3, class: 'target-ring' }, group);
  group.appendChild(el('title')).textContent = `${u.name}: ${u.quality} ${u.arm}, strength ${u.strength}, facing ${u.facing}${u.shaken ? ', shaken' : ''} (${u.at})`;
}

/// Renders the board into `container`; returns the SVG. `state` gives units, objectives and highlights:
/// { units, objectives, activeUnit, selectable: Set(unitId), targets: Set(unitId), squares: Set(name), preview }.
export function renderBoard(container, scenario, state, onClick) {
  const map = scenario.map;
  container.innerHTML = '';
  const svg = el('svg', { viewBox: `-2 -2 ${map.width * SIZE + 4} ${map.height * SIZE + 4}`, class: 'board', role: 'img', 'aria-label': `${scenario.title} board` });
  container.appendChild(svg);
  drawMap(svg, scenario);
  const marks = el('g', { class: 'marks', 'pointer-events': 'none' }, svg);
  for (const name of state.squares || []) {
    const { x, y } = parseSquare(name);
    const [cx, cy] = centre(map, x, y);
    el('circle', { cx, cy, r: 9, fill: '#2e6b34', opacity: 0.75, class: 'reachable', 'data-square': name }, marks);
  }
  if (state.preview) {
    const { x, y } = parseSquare(state.preview);
    const [px, py] = origin(map, x, y);
    el('rect', { x: px + 3, y: py + 3, width: SIZE - 6, height: SIZE - 6, fill: 'none', stroke: '#f2c200', 'stroke-width': 4 }, marks);
  }
  const units = el('g', { class: 'units' }, svg);
  for (const u of state.units || scenario.units.map((x) => ({ ...x, alive: true, shaken: false }))) {
    if (u.alive === false) continue;
    drawUnit(units, map, u, {
      active: state.activeUnit === u.id,
      selectable: state.selectable && state.selectable.has(u.id),
      target: state.targets && state.targets.has(u.id),
    });
  }
  // Objectives on top, so that a unit standing on one does not hide it.
  drawObjectives(svg, map, state.objectives || scenario.objectives, scenario.sides);
  if (onClick) {
    svg.addEventListener('click', (ev) => {
      const unit = ev.target.closest('[data-unit]');
      const pt = svg.createSVGPoint();
      pt.x = ev.clientX;
      pt.y = ev.clientY;
      const p = pt.matrixTransform(svg.getScreenCTM().inverse());
      const x = Math.floor(p.x / SIZE);
      const y = map.height - 1 - Math.floor(p.y / SIZE);
      const square = x >= 0 && y >= 0 && x < map.width && y < map.height ? String.fromCharCode(97 + x) + (y + 1) : null;
      onClick({ unit: unit ? Number(unit.dataset.unit) : null, square });
    });
  }
  return svg;
}
