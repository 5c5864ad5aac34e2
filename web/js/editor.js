// The scenario editor (`/editor`, `#/editor` in the static build): paint the map, place the units and objectives,
// set the sides and the options; the engine's check runs as you edit (on the server, or in the browser's worker) and
// its problems are marked on the board; undo and redo; the work in progress is kept in this browser. "Download"
// writes the TOML, "Play" starts a game with it, "Test balance" asks a server for a quick simulation.

import { api, features } from './api.js';
import { Board, SIZE } from './board.js';
import { mainRole, rememberCreated } from './games.js';
import { h, percent } from './util.js';
import {
  FACINGS, HOMES, MAX_SIDE, MIN_SIDE, QUALITIES, armKinds, boardView, cellAt, emptyScenario, fenceName,
  fileOrder, fromView, impassableKinds, isStandardTerrain, newChange, newReinforcement, onBoard, resized, strayArms, strayTerrains, terrainKinds,
  toToml, useFormat,
} from './scenario-model.js';
import { numberInput, select, swatch, textInput } from './forms.js';
import { parseSquare, squareName } from './squares.js';

const STORE = 'pacw-editor';
const HISTORY = 200;
/// Milliseconds of quiet after an edit before the engine checks it.
const CHECK_DELAY = 250;

/// The palette: [tool, label, title, a variant's own terrain's letter]. A tool is `kind:value`. Made when drawn: the
/// terrains are those of the battle's rules, as the engine gives them (`kinds`).
const palette = (kinds) => [
  ['Terrain', kinds.map(([name, letter, label, about]) => [`terrain:${name}`, label,
    `Paint ${label.toLowerCase()}${about ? ` (${letter}: ${about})` : ''} (drag to paint several squares)`, isStandardTerrain(name) ? null : letter])],
  ['Height', [0, 1, 2, 3].map((e) => [`elevation:${e}`, String(e), `Paint elevation ${e} (R1.2)`])],
  ['Roads and fences', [
    ['road:on', 'Road', 'Paint a road (R2.6)'],
    ['road:off', 'No road', 'Remove a road'],
    ['fence:toggle', 'Fence', 'Click near a square’s edge to put a fence on it or take it away (R1.4)'],
  ]],
  ['Pieces', [
    ['unit:place', 'Units', 'Click an empty square to place a unit, a unit to edit it; drag a unit to move it'],
    ['objective:toggle', 'Objectives', 'Click a square to add an objective or select one'],
  ]],
];

export async function showEditor(app) {
  document.title = 'Scenario editor — pacw';
  const [info, shipped] = await Promise.all([api.info(), api.scenarios()]);
  useFormat(info.scenario_format);
  new Editor(app, info, shipped);
}

class Editor {
  constructor(app, info, shipped) {
    this.defaults = info.options;
    this.variants = info.variants || [];
    this.shipped = shipped;
    this.tool = 'terrain:woods';
    this.template = { side: 0, arm: 'infantry', quality: 'regular', facing: 'N' };
    this.selected = null; // { kind: 'unit' | 'objective', index }
    this.history = [];
    this.future = [];
    this.problems = [];
    this.checked = null; // the text the problems belong to
    this.ownTerrains = null; // the terrain kinds of the variant file of one's own (`model.ownVariant`), once checked
    this.ownArms = null; // and its arms
    this.model = restore() || emptyScenario();
    this.build(app);
    this.render();
    this.check();
    document.addEventListener('keydown', (ev) => this.key(ev));
  }

  // ------------------------------------------------------------------ editing

  /// Applies an edit: the state before goes on the undo stack, the work is saved and checked.
  change(edit) {
    const before = JSON.stringify(this.model);
    const next = structuredClone(this.model);
    edit(next);
    if (JSON.stringify(next) === before) return;
    this.history.push(before);
    if (this.history.length > HISTORY) this.history.shift();
    this.future = [];
    this.model = next;
    this.afterChange();
  }

  /// During a stroke of painting the model changes square by square; the stroke is one step of undo.
  beginStroke() {
    this.strokeStart = JSON.stringify(this.model);
  }

  endStroke() {
    if (this.strokeStart && this.strokeStart !== JSON.stringify(this.model)) {
      this.history.push(this.strokeStart);
      if (this.history.length > HISTORY) this.history.shift();
      this.future = [];
      this.afterChange();
    }
    this.strokeStart = null;
  }

  afterChange() {
    this.rulesRefused = null;
    save(this.model);
    this.render();
    this.scheduleCheck();
  }

  undo() {
    if (!this.history.length) return;
    this.future.push(JSON.stringify(this.model));
    this.model = JSON.parse(this.history.pop());
    this.selected = null;
    this.afterChange();
  }

  redo() {
    if (!this.future.length) return;
    this.history.push(JSON.stringify(this.model));
    this.model = JSON.parse(this.future.pop());
    this.selected = null;
    this.afterChange();
  }

  key(ev) {
    if (ev.target.closest?.('input, textarea, select')) return;
    const mod = ev.ctrlKey || ev.metaKey;
    if (mod && ev.key.toLowerCase() === 'z') { ev.preventDefault(); if (ev.shiftKey) this.redo(); else this.undo(); }
    else if (mod && ev.key.toLowerCase() === 'y') { ev.preventDefault(); this.redo(); }
    else if ((ev.key === 'Delete' || ev.key === 'Backspace') && this.selected) { ev.preventDefault(); this.deleteSelected(); }
  }

  /// What a tool does to one square (painting tools; the pieces are handled by `press`).
  paint(model, square) {
    const [kind, value] = this.tool.split(':');
    const cell = cellAt(model, square);
    if (kind === 'terrain') cell.terrain = value;
    else if (kind === 'elevation') cell.elevation = Number(value);
    else if (kind === 'road') cell.road = value === 'on';
  }

  /// A press on the board: painting starts a stroke; a piece tool acts once.
  press(square, point) {
    const [kind] = this.tool.split(':');
    if (kind === 'terrain' || kind === 'elevation' || kind === 'road') {
      this.beginStroke();
      this.paint(this.model, square);
      this.renderBoard();
      return 'stroke';
    }
    if (kind === 'fence') {
      const other = nearestNeighbour(this.model, square, point);
      if (other) this.change((m) => { const f = fenceName(square, other); m.fences = m.fences.includes(f) ? m.fences.filter((x) => x !== f) : [...m.fences, f]; });
      return null;
    }
    if (kind === 'unit') {
      const index = this.model.units.findIndex((u) => u.at === square);
      if (index >= 0) {
        this.selected = { kind: 'unit', index };
        this.render();
        return 'drag-unit';
      }
      if (this.refuseUnitOn(square)) return null;
      this.change((m) => m.units.push({ ...this.template, name: '', at: square }));
      this.selected = { kind: 'unit', index: this.model.units.length - 1 };
      this.render();
      return null;
    }
    if (kind === 'objective') {
      const index = this.model.objectives.findIndex((o) => o.at === square);
      if (index >= 0) this.selected = { kind: 'objective', index };
      else {
        this.change((m) => m.objectives.push({ at: square, points: 1, holder: null }));
        this.selected = { kind: 'objective', index: this.model.objectives.length - 1 };
      }
      this.render();
    }
    return null;
  }

  deleteSelected() {
    const s = this.selected;
    if (!s) return;
    this.selected = null;
    this.change((m) => (s.kind === 'unit' ? m.units : m.objectives).splice(s.index, 1));
  }

  say(text) {
    this.hint.textContent = text;
  }

  // ------------------------------------------------------------------ the engine's check

  scheduleCheck() {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), CHECK_DELAY);
  }

  async check() {
    const text = this.text();
    if (text === this.checked) return;
    const order = fileOrder(this.model);
    try {
      const reply = await api.check(text, fileName(this.model), this.ownVariant());
      if (reply.terrains && this.ownVariant()) this.learnOwnKinds(reply);
      if (text !== this.text()) { this.scheduleCheck(); return; } // edited meanwhile, or its letters just learnt
      this.checked = text;
      // The engine names units by their place in the file; the board by their place in the editor.
      this.problems = reply.problems.map((p) => ({ ...p, unit: p.unit === undefined ? undefined : order[p.unit] }));
      this.estimate = reply.estimate ?? null;
    } catch (e) {
      this.problems = [{ message: `The check could not run: ${e.message}` }];
      this.estimate = null;
    }
    this.renderProblems();
    this.renderEstimate();
    this.renderBoard();
  }

  // ------------------------------------------------------------------ the rules and their terrain

  /// The battle's file, as "Download" writes it and the engine checks it: its map in the letters of its rules.
  text() {
    return toToml(this.model, this.kinds());
  }

  /// The variant file of one's own the battle is played by (`{text, file}`, as the API takes it), if it is.
  ownVariant(model = this.model) {
    return model.ownVariant && model.variant === model.ownVariant.file ? model.ownVariant : undefined;
  }

  /// The terrain kinds of a battle's rules, from the engine: a shipped variant's from `GET /api/info`, a variant file
  /// of one's own from its check, else the standard six.
  kinds(model = this.model) {
    if (this.ownVariant(model)) return terrainKinds(this.ownTerrains);
    return terrainKinds(this.variants.find((v) => v.name === model.variant)?.terrains);
  }

  /// Whether a unit may not stand on `square` by the rules in force, its terrain being one no unit may enter (R1.5,
  /// R5.1: the standard's river, or a variant's impassable kind); if so, says so, naming the terrain and the square.
  refuseUnitOn(square) {
    const terrain = cellAt(this.model, square).terrain;
    const terrains = this.ownVariant() ? this.ownTerrains : this.variants.find((v) => v.name === this.model.variant)?.terrains;
    const name = impassableKinds(terrains ?? undefined).get(terrain);
    if (name === undefined) return false;
    this.say(`A unit cannot stand on ${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name} (R1.5): ${square}.`);
    return true;
  }

  /// The arms of a battle's rules, from the engine as its terrain kinds are (`armKinds`).
  arms(model = this.model) {
    if (this.ownVariant(model)) return armKinds(this.ownArms);
    return armKinds(this.variants.find((v) => v.name === model.variant)?.arms);
  }

  /// Keeps the terrain kinds and arms a check of one's own variant file gave (`reply`); the palette, the lists of
  /// arms and the board follow when they change.
  learnOwnKinds({ terrains, arms }) {
    if (JSON.stringify([terrains, arms]) === JSON.stringify([this.ownTerrains, this.ownArms])) return;
    this.ownTerrains = terrains;
    this.ownArms = arms;
    this.renderPalette();
    this.renderSelected();
    this.renderBoard();
  }

  /// Why rules of terrain `kinds` and `arms` cannot be chosen for the battle as made, or null: a square painted
  /// with a kind they lack would have no letter in its map, a unit of an arm they lack no arm.
  strayReason(kinds, arms, rules) {
    const list = (places) => `${places.slice(0, 6).join(', ')}${places.length > 6 ? ` and ${places.length - 6} more` : ''}`;
    const label = (id) => this.kinds().find(([k]) => k === id)?.[2].toLowerCase() || id;
    const terrain = [...strayTerrains(this.model, kinds)].map(([id, squares]) => `${label(id)} on ${list(squares)}`);
    const units = [...strayArms(this.model, arms)].map(([id, squares]) => `${id} (the units on ${list(squares)})`);
    if (terrain.length) return `${rules} have no ${terrain.join('; no ')}. Paint those squares with another terrain first: the rules stay as they were.`;
    if (units.length) return `${rules} have no ${units.join('; no ')}. Give those units another arm first: the rules stay as they were.`;
    return null;
  }

  /// Chooses the battle's rules from the list (`''` for the standard, a shipped variant's name, or the file of
  /// one's own already opened), unless the map holds a terrain they lack.
  chooseRules(name) {
    const next = { ...this.model, variant: name };
    const title = name === '' ? 'The standard rules' : this.ownVariant(next) ? name : `The rules “${this.variants.find((v) => v.name === name)?.title || name}”`;
    const why = this.strayReason(this.kinds(next), this.arms(next), title);
    if (why) { this.refuseRules(why); return; }
    this.change((m) => { m.variant = name; });
  }

  /// Says why the rules were not changed, under the board and beside the choice of rules (on a phone, far apart).
  refuseRules(why) {
    this.say(why);
    this.rulesRefused = why;
    this.renderSettings();
  }

  /// Opens a variant file of one's own (docs/variants.md) as the battle's rules: the engine reads it beside the
  /// battle, and its terrain kinds join the palette.
  async openVariant(file) {
    // The battle names the file: a shipped variant's name would be read as the shipped variant.
    if (this.variants.some((v) => v.name === file.name)) { this.refuseRules(`${file.name} is the name of a shipped variant: rename your file (my-rules.toml).`); return; }
    const own = { file: file.name, text: await file.text() };
    const next = { ...this.model, variant: own.file, ownVariant: own };
    let reply;
    try {
      reply = await api.check(toToml(next, this.kinds()), fileName(next), own);
    } catch (e) {
      this.refuseRules(`${file.name} cannot be read: ${e.message}`);
      return;
    }
    if (!reply.terrains) { this.refuseRules(`${file.name} cannot be read as rules: ${reply.message}`); return; }
    const why = this.strayReason(terrainKinds(reply.terrains), armKinds(reply.arms), file.name);
    if (why) { this.refuseRules(why); return; }
    this.ownTerrains = reply.terrains;
    this.ownArms = reply.arms;
    this.change((m) => { m.variant = own.file; m.ownVariant = own; });
    this.say(`The battle is played by ${file.name}. Keep it beside the downloaded battle: the battle names it (variant = "${file.name}").`);
  }

  // ------------------------------------------------------------------ the page

  build(app) {
    app.innerHTML = '';
    this.boardBox = h('div', { class: 'editor-board-box', id: 'editor-board' });
    this.hint = h('p', { class: 'editor-hint', role: 'status' });
    this.palette = h('div', { class: 'palette' });
    this.template_ = h('div', { class: 'unit-template' });
    this.selectedBox = h('div', { class: 'selected-piece' });
    this.problemBox = h('div', { class: 'editor-problems', id: 'editor-problems', 'aria-live': 'polite' });
    this.settings = h('div', { class: 'editor-settings' });
    this.actions = h('div', { class: 'editor-actions' });
    this.estimateBox = h('p', { class: 'estimate', id: 'estimate' });
    this.balanceBox = h('div', { class: 'balance-result', id: 'balance-result', 'aria-live': 'polite' });
    app.append(h('div', { class: 'editor' },
      h('section', { class: 'panel editor-tools' }, h('h1', {}, 'Make a battle'), this.startRow(), this.palette, this.template_),
      h('section', { class: 'panel editor-main' }, this.boardBox, this.hint, this.selectedBox, this.problemBox),
      h('aside', { class: 'panel editor-side' }, this.actions, this.estimateBox, this.balanceBox, this.settings)));
    this.listen();
  }

  startRow() {
    const width = h('input', { type: 'number', min: MIN_SIDE, max: MAX_SIDE, value: 8, id: 'new-width', 'aria-label': 'width' });
    const height = h('input', { type: 'number', min: MIN_SIDE, max: MAX_SIDE, value: 8, id: 'new-height', 'aria-label': 'height' });
    const fresh = () => {
      const clamp = (v) => Math.min(MAX_SIDE, Math.max(MIN_SIDE, Number(v) || 8));
      if (this.model.units.length && !confirm('Start again from an empty board? (Undo brings this battle back.)')) return;
      this.replace(emptyScenario(clamp(width.value), clamp(height.value)));
    };
    const from = h('select', { id: 'start-from', 'aria-label': 'start from a battle' },
      h('option', { value: '' }, 'Start from a battle…'), ...this.shipped.map((s) => h('option', { value: s.name }, s.title)));
    from.addEventListener('change', () => {
      const s = this.shipped.find((x) => x.name === from.value);
      from.value = '';
      if (s) this.replace(fromView(s, this.defaults));
    });
    const upload = h('input', { type: 'file', accept: '.toml,text/plain', id: 'editor-upload' });
    upload.addEventListener('change', async () => {
      const file = upload.files[0];
      upload.value = '';
      if (!file) return;
      const text = await file.text();
      // A battle naming the variant file of one's own opened here is read by it, as "Play" sends it.
      const named = /^\s*variant\s*=\s*"([^"]*)"/m.exec(text)?.[1];
      const own = this.model.ownVariant?.file === named ? this.model.ownVariant : undefined;
      const reply = await api.check(text, file.name, own);
      if (!reply.ok) {
        const open = named?.endsWith('.toml') && !own ? ` (open ${named} under Rules first)` : '';
        this.say(`${file.name} has problems the editor cannot show on a board; fix them in a text editor first${open}: ${reply.message}`);
        return;
      }
      const model = fromView(reply.scenario, this.defaults);
      if (own) { model.variant = own.file; this.ownTerrains = reply.terrains; this.ownArms = reply.arms; }
      this.replace(model);
      const dropped = (reply.warnings || []).map((w) => `line ${w.line}: ${w.message}`);
      if (dropped.length) this.say(`${file.name} is open. Keys nothing reads were left out — ${dropped.join('; ')}`);
    });
    return h('div', { class: 'start-row' },
      h('div', { class: 'new-row' }, width, ' × ', height, ' ', h('button', { type: 'button', id: 'new-board', onclick: fresh }, 'New board')),
      h('div', {}, from),
      h('label', { class: 'block' }, 'Or open a file ', upload),
      h('div', { class: 'undo-row' },
        h('button', { type: 'button', id: 'undo', onclick: () => this.undo(), title: 'Undo (Ctrl+Z)' }, '↶ Undo'),
        h('button', { type: 'button', id: 'redo', onclick: () => this.redo(), title: 'Redo (Ctrl+Y)' }, '↷ Redo')));
  }

  /// Replaces the whole battle (a new board, a shipped battle, a file): one step of undo.
  replace(model) {
    this.selected = null;
    // A variant file of one's own stays at hand (under Rules) whatever battle comes.
    const ownVariant = this.model.ownVariant;
    this.change((m) => { for (const k of Object.keys(m)) delete m[k]; Object.assign(m, structuredClone(model)); if (ownVariant) m.ownVariant = ownVariant; });
  }

  /// Pointer handling on the board's box, which outlives each redrawn board: a stroke of painting, a click, a drag.
  listen() {
    let gesture = null;
    const at = (ev) => this.board?.squareAt(ev.clientX, ev.clientY);
    this.boardBox.addEventListener('pointerdown', (ev) => {
      const square = at(ev);
      if (!square || ev.button > 0) return;
      ev.preventDefault();
      this.boardBox.setPointerCapture?.(ev.pointerId);
      const kind = this.press(square, this.pointInSquare(ev, square));
      gesture = kind ? { kind, from: square, last: square } : null;
    });
    this.boardBox.addEventListener('pointermove', (ev) => {
      if (!gesture) return;
      const square = at(ev);
      if (!square || square === gesture.last) return;
      gesture.last = square;
      if (gesture.kind === 'stroke') { this.paint(this.model, square); this.renderBoard(); }
    });
    const end = (ev) => {
      const g = gesture;
      gesture = null;
      if (!g) return;
      if (g.kind === 'stroke') this.endStroke();
      if (g.kind === 'drag-unit') {
        const square = at(ev);
        const index = this.selected?.index;
        if (!square || square === g.from || index === undefined) return;
        if (this.model.units.some((u) => u.at === square)) { this.say(`${square} already holds a unit (R2.5).`); return; }
        if (this.refuseUnitOn(square)) return;
        this.change((m) => { m.units[index].at = square; });
      }
    };
    this.boardBox.addEventListener('pointerup', end);
    this.boardBox.addEventListener('pointercancel', () => { if (gesture?.kind === 'stroke') this.endStroke(); gesture = null; });
  }

  /// Where in its square a pointer is, from 0 to 1 each way (x east, y north).
  pointInSquare(ev, square) {
    const ctm = this.board.svg.getScreenCTM();
    const pt = this.board.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const p = pt.matrixTransform(ctm.inverse());
    const { x, y } = parseSquare(square);
    return { x: p.x / SIZE - x, y: 1 - (p.y / SIZE - (this.model.height - 1 - y)) };
  }

  render() {
    this.renderPalette();
    this.renderBoard();
    this.renderSelected();
    this.renderSettings();
    this.renderActions();
    this.renderProblems();
    document.getElementById('undo').disabled = !this.history.length;
    document.getElementById('redo').disabled = !this.future.length;
  }

  renderBoard() {
    const view = boardView(this.model, this.defaults, this.kinds(), this.arms());
    this.board = new Board(this.boardBox, view);
    const selectedUnit = this.selected?.kind === 'unit' ? this.selected.index : null;
    // The reinforcements' entry squares, dashed in their side's colour: they are not on the board at the start.
    const entries = (this.model.reinforcements || []).flatMap((r) => r.units.filter((u) => onBoard(this.model, u.at))
      .map((u) => ({ at: u.at, side: r.side ? 'B' : 'A', turn: r.turn })));
    this.board.update({ units: view.units, objectives: view.objectives, selected: selectedUnit, entries,
      picked: this.selected?.kind === 'objective' ? this.model.objectives[this.selected.index]?.at : null });
    // Problems with a place: their squares outlined on the board.
    const marked = new Set();
    for (const p of this.problems) {
      const square = p.square || (p.unit !== undefined ? this.model.units[p.unit]?.at : null);
      if (square && onBoard(this.model, square)) marked.add(square);
    }
    for (const square of marked) {
      const [px, py] = this.board.origin(square);
      const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      for (const [k, v] of Object.entries({ x: px + 2, y: py + 2, width: SIZE - 4, height: SIZE - 4, class: 'problem-square', 'data-problem': square })) r.setAttribute(k, v);
      this.board.overlay.append(r);
    }
    this.board.svg.classList.add('editing');
  }

  renderPalette() {
    const kinds = this.kinds();
    // A terrain the rules in force lack is no longer a tool.
    if (this.tool.startsWith('terrain:') && !kinds.some(([id]) => `terrain:${id}` === this.tool)) this.tool = 'terrain:woods';
    this.palette.replaceChildren(...palette(kinds).map(([group, tools]) => h('div', { class: 'palette-group', role: 'group', 'aria-label': group },
      h('span', { class: 'palette-title' }, group),
      ...tools.map(([tool, label, title, letter]) => h('button', {
        type: 'button', 'data-tool': tool, title, class: `tool${this.tool === tool ? ' chosen' : ''}`, 'aria-pressed': String(this.tool === tool),
        onclick: () => { this.tool = tool; this.say(title); this.renderPalette(); this.renderTemplate(); },
      }, tool.startsWith('terrain:') ? swatch(tool.slice(8), letter) : null, label)))));
    this.renderTemplate();
  }

  /// The unit tool's template: what the next placed unit will be.
  renderTemplate() {
    if (this.tool !== 'unit:place') { this.template_.replaceChildren(); return; }
    const t = this.template;
    const arms = this.arms().map(([id]) => id);
    if (!arms.includes(t.arm)) t.arm = 'infantry'; // an arm of rules no longer in force
    const field = (label, name, values, labels = values) => h('label', {}, `${label} `, select(`template-${name}`, values.map((v, i) => [String(v), labels[i]]), String(t[name]), (v) => { t[name] = name === 'side' ? Number(v) : v; }));
    this.template_.replaceChildren(h('p', { class: 'note' }, 'New units:'),
      field('Side', 'side', [0, 1], this.model.sides.map((s) => s.name)), field('Arm', 'arm', arms), field('Quality', 'quality', QUALITIES), field('Facing', 'facing', FACINGS));
  }

  renderSelected() {
    const s = this.selected;
    const box = this.selectedBox;
    if (!s) { box.replaceChildren(); return; }
    const del = h('button', { type: 'button', id: 'delete-piece', onclick: () => this.deleteSelected() }, 'Delete');
    if (s.kind === 'unit') {
      const u = this.model.units[s.index];
      if (!u) { this.selected = null; box.replaceChildren(); return; }
      const set = (k, conv = (v) => v) => (v) => this.change((m) => { m.units[s.index][k] = conv(v); });
      box.replaceChildren(h('fieldset', { class: 'piece-form' }, h('legend', {}, `Unit on ${u.at}`),
        h('label', {}, 'Name ', textInput('unit-name', u.name, set('name'), 'a brigade or regiment')),
        h('label', {}, 'Side ', select('unit-side', this.model.sides.map((x, i) => [String(i), x.name]), String(u.side), set('side', Number))),
        h('label', { title: this.arms().find(([id]) => id === u.arm)?.[1] || '' }, 'Arm ', select('unit-arm', this.arms().map(([a]) => [a, a]), u.arm, set('arm'))),
        h('label', {}, 'Quality ', select('unit-quality', QUALITIES.map((q) => [q, q]), u.quality, set('quality'))),
        h('label', {}, 'Facing ', select('unit-facing', FACINGS.map((f) => [f, f]), u.facing, set('facing'))),
        del, h('span', { class: 'note' }, ' Drag it on the board to move it.')));
    } else {
      const o = this.model.objectives[s.index];
      if (!o) { this.selected = null; box.replaceChildren(); return; }
      box.replaceChildren(h('fieldset', { class: 'piece-form' }, h('legend', {}, `Objective on ${o.at} (R8.2)`),
        h('label', {}, 'Points ', numberInput('objective-points', o.points, 0, 99, (v) => this.change((m) => { m.objectives[s.index].points = v ?? 1; }))),
        h('label', {}, 'Held at the start by ', select('objective-holder', [['', 'nobody'], ...this.model.sides.map((x, i) => [String(i), x.name])], o.holder === null ? '' : String(o.holder),
          (v) => this.change((m) => { m.objectives[s.index].holder = v === '' ? null : Number(v); }))),
        del));
    }
  }

  renderSettings() {
    const m = this.model;
    const set = (edit) => (v) => this.change((x) => edit(x, v));
    const sides = m.sides.map((side, i) => h('fieldset', { class: 'side-form' }, h('legend', {}, i ? 'Second side' : 'First side'),
      h('label', {}, 'Name ', textInput(`side-${i}-name`, side.name, set((x, v) => { x.sides[i].name = v; }))),
      h('label', {}, 'Id ', textInput(`side-${i}-id`, side.id, set((x, v) => { x.sides[i].id = v; }), 'used in the file')),
      h('label', {}, 'Home edge ', select(`side-${i}-home`, HOMES.map((e) => [e, e]), side.home, set((x, v) => { x.sides[i].home = v; }))),
      h('label', {}, 'Cards ', select(`side-${i}-colour`, [['red', 'red'], ['black', 'black']], side.colour, set((x, v) => { x.sides[i].colour = v; }))),
      h('label', {}, 'Counter colour ', h('input', { type: 'color', id: `side-${i}-counter`, value: side.counter || boardView(m, this.defaults).sides[i].counter,
        onchange: (ev) => this.change((x) => { x.sides[i].counter = ev.target.value; }) })),
      h('label', { title: 'Blank: half its units, rounded up' }, 'Exhausted after losses (R8.1) ', numberInput(`side-${i}-exhaustion`, side.exhaustion ?? '', 1, 128, set((x, v) => { x.sides[i].exhaustion = v; }), 'half'))));
    const options = Object.keys(this.defaults).map((k) => h('label', { class: 'option-row' }, `${k} `,
      textInput(`option-${k}`, m.options[k] ?? '', set((x, v) => { if (v === '' || v === this.defaults[k]) delete x.options[k]; else x.options[k] = v; }), this.defaults[k])));
    this.settings.replaceChildren(
      h('fieldset', {}, h('legend', {}, 'The battle'),
        h('label', {}, 'Name ', textInput('battle-name', m.name, set((x, v) => { x.name = v; }))),
        h('label', {}, 'Turns (R8.2) ', numberInput('battle-turns', m.turns, 1, 99, set((x, v) => { x.turns = v ?? x.turns; }))),
        h('label', {}, 'Points for each enemy unit destroyed ', numberInput('battle-points', m.pointsPerDestroyed, 0, 99, set((x, v) => { x.pointsPerDestroyed = v ?? x.pointsPerDestroyed; }))),
        h('label', { title: 'Reports that pool several battles count by attacker and defender when each names its attacker' }, 'Attacker ',
          select('battle-attacker', [['', 'neither (an encounter)'], ...m.sides.map((sd, i) => [String(i), sd.name])], m.attacker === null || m.attacker === undefined ? '' : String(m.attacker),
            set((x, v) => { x.attacker = v === '' ? null : Number(v); }))),
        h('label', {}, 'Rules ', select('battle-variant', [['', 'Standard rules'], ...this.variants.map((v) => [v.name, v.title]),
          ...(m.ownVariant ? [[m.ownVariant.file, `${m.ownVariant.file} (your file)`]] : [])], m.variant || '', (v) => this.chooseRules(v))),
        h('label', { class: 'block', title: 'A variant file of your own (docs/variants.md): its terrain kinds join the palette, its arms the lists of arms' }, 'Or open a variant file ',
          h('input', { type: 'file', accept: '.toml,text/plain', id: 'variant-upload', onchange: (ev) => { const f = ev.target.files[0]; ev.target.value = ''; if (f) this.openVariant(f); } })),
        this.rulesRefused ? h('p', { class: 'rules-refused', id: 'rules-refused', role: 'alert' }, this.rulesRefused) : '',
        h('label', { class: 'block' }, 'Description (the situation, the commanders, how to win)',
          h('textarea', { id: 'battle-description', rows: 5, onchange: (ev) => this.change((x) => { x.description = ev.target.value; }) }, m.description)),
        h('label', {}, 'Board ', numberInput('board-width', m.width, MIN_SIDE, MAX_SIDE, (v) => v && this.change((x) => Object.assign(x, resized(x, v, x.height)))),
          ' × ', numberInput('board-height', m.height, MIN_SIDE, MAX_SIDE, (v) => v && this.change((x) => Object.assign(x, resized(x, x.width, v)))))),
      ...sides,
      this.eventsForm(),
      h('details', { class: 'editor-options' }, h('summary', {}, 'Rule options (R11): blank keeps the default'), ...options));
  }

  /// The battle's events (docs/scenario-format.md#events): reinforcement groups, each with its units and their
  /// entry squares, and timed changes, each added and removed with a button.
  eventsForm() {
    const m = this.model;
    const set = (edit) => (v) => this.change((x) => edit(x, v));
    const sideChoice = m.sides.map((sd, i) => [String(i), sd.name]);
    const turnInput = (id, value, edit) => numberInput(id, value, 2, Math.max(2, m.turns), set((x, v) => { if (v !== null) edit(x, v); }));
    const groups = (m.reinforcements || []).map((r, g) => h('fieldset', { class: 'event-form', 'data-reinforcement': g },
      h('legend', {}, `Reinforcements ${g + 1}`),
      h('label', {}, 'Name ', textInput(`reinf-${g}-name`, r.name, set((x, v) => { x.reinforcements[g].name = v; }), 'Reinforcements')),
      h('label', {}, 'Side ', select(`reinf-${g}-side`, sideChoice, String(r.side), set((x, v) => { x.reinforcements[g].side = Number(v); }))),
      h('label', {}, 'Arrive on turn ', turnInput(`reinf-${g}-turn`, r.turn, (x, v) => { x.reinforcements[g].turn = v; })),
      ...r.units.map((u, k) => h('div', { class: 'event-unit', 'data-unit-row': k },
        h('label', {}, `Unit ${k + 1} `, textInput(`reinf-${g}-unit-${k}-name`, u.name, set((x, v) => { x.reinforcements[g].units[k].name = v; }), 'name')),
        h('label', {}, 'Arm ', select(`reinf-${g}-unit-${k}-arm`, this.arms().map(([a]) => [a, a]), u.arm, set((x, v) => { x.reinforcements[g].units[k].arm = v; }))),
        h('label', {}, 'Quality ', select(`reinf-${g}-unit-${k}-quality`, QUALITIES.map((q) => [q, q]), u.quality, set((x, v) => { x.reinforcements[g].units[k].quality = v; }))),
        h('label', {}, 'Enters at ', textInput(`reinf-${g}-unit-${k}-at`, u.at, set((x, v) => { x.reinforcements[g].units[k].at = v.trim().toLowerCase(); }), 'a1')),
        h('label', {}, 'Facing ', select(`reinf-${g}-unit-${k}-facing`, FACINGS.map((f) => [f, f]), u.facing, set((x, v) => { x.reinforcements[g].units[k].facing = v; }))),
        r.units.length > 1 ? h('button', { type: 'button', class: 'secondary', id: `reinf-${g}-unit-${k}-remove`, onclick: () => this.change((x) => { x.reinforcements[g].units.splice(k, 1); }) }, `Remove unit ${k + 1}`) : '')),
      h('div', { class: 'editor-action-row' },
        h('button', { type: 'button', class: 'secondary', id: `reinf-${g}-add-unit`, onclick: () => this.change((x) => { x.reinforcements[g].units.push({ ...x.reinforcements[g].units.at(-1), name: '' }); }) }, 'Add a unit'),
        h('button', { type: 'button', class: 'secondary', id: `reinf-${g}-remove`, onclick: () => this.change((x) => { x.reinforcements.splice(g, 1); }) }, `Remove reinforcements ${g + 1}`))));
    const objectives = m.objectives.map((o) => [o.at, `objective ${o.at}`]);
    const changes = (m.changes || []).map((c, i) => h('fieldset', { class: 'event-form', 'data-change': i },
      h('legend', {}, `Timed change ${i + 1}`),
      h('label', {}, 'From turn ', turnInput(`change-${i}-turn`, c.turn, (x, v) => { x.changes[i].turn = v; })),
      h('label', {}, 'Changes ', select(`change-${i}-kind`, [['points', 'an objective’s points (R8.2)'], ['exhaustion', 'a side’s exhaustion point (R8.1)']], c.kind,
        set((x, v) => { Object.assign(x.changes[i], { kind: v, objective: x.changes[i].objective || x.objectives[0]?.at || '' }); }))),
      ...(c.kind === 'points'
        ? [h('label', {}, 'Objective ', select(`change-${i}-objective`, objectives.length ? objectives : [['', 'no objective yet']], c.objective, set((x, v) => { x.changes[i].objective = v; }))),
          h('label', {}, 'Worth ', numberInput(`change-${i}-points`, c.points, 0, 99, set((x, v) => { x.changes[i].points = v ?? 0; })))]
        : [h('label', {}, 'Side ', select(`change-${i}-side`, sideChoice, String(c.side), set((x, v) => { x.changes[i].side = Number(v); }))),
          h('label', {}, 'Exhausted after losses ', numberInput(`change-${i}-exhaustion`, c.exhaustion, 1, 128, set((x, v) => { x.changes[i].exhaustion = v ?? 1; })))]),
      h('label', {}, 'Name ', textInput(`change-${i}-name`, c.name, set((x, v) => { x.changes[i].name = v; }), 'optional')),
      h('button', { type: 'button', class: 'secondary', id: `change-${i}-remove`, onclick: () => this.change((x) => { x.changes.splice(i, 1); }) }, `Remove change ${i + 1}`)));
    return h('fieldset', { class: 'events-form', id: 'events-form' }, h('legend', {}, 'Events: reinforcements and timed changes'),
      h('p', { class: 'muted' }, 'Reinforcements enter their squares at the start of their turn, or wait while a unit stands there; a change holds from its turn on.'),
      ...groups,
      ...changes,
      h('div', { class: 'editor-action-row' },
        ...m.sides.map((sd, i) => h('button', { type: 'button', id: `add-reinforcements-${i}`, onclick: () => this.change((x) => { (x.reinforcements ||= []).push(newReinforcement(x, i)); }) }, `Add ${sd.name} reinforcements`)),
        h('button', { type: 'button', id: 'add-change', onclick: () => this.change((x) => { (x.changes ||= []).push(newChange(x)); }) }, 'Add a timed change')));
  }

  renderActions() {
    const modes = [['hotseat', 'Hot-seat (one screen)'], ['computer', 'Against the computer (greedy)'], ['watch', 'Watch the computer'], ['two_players', 'Two players (links)']]
      .filter(([v]) => (v !== 'watch' || features.watch) && (v !== 'two_players' || features.twoPlayers));
    const mode = select('play-mode', modes, this.playMode || 'hotseat', (v) => { this.playMode = v; });
    mode.setAttribute('aria-label', 'How to play it');
    this.actions.replaceChildren(h('div', { class: 'editor-action-row' },
      h('button', { type: 'button', id: 'download', onclick: () => this.download() }, 'Download .toml'),
      // Playing a few hundred games is a server's work; offline, the evaluator's estimate below stands alone.
      features.balance ? h('button', { type: 'button', id: 'test-balance', onclick: () => this.testBalance() }, 'Test balance') : ''),
    h('div', { class: 'editor-action-row' }, mode, h('button', { type: 'button', id: 'play', class: 'primary', onclick: () => this.play() }, 'Play')));
  }

  /// The evaluator's instant estimate of the battle's balance, beside Test balance (which measures it).
  renderEstimate() {
    const box = this.estimateBox;
    if (this.estimate === null || this.estimate === undefined || this.problems.length) {
      box.replaceChildren();
      return;
    }
    const p = Math.round(100 * this.estimate);
    box.replaceChildren(h('strong', {}, 'Estimated balance: '), `${this.model.sides[0].name} ${p}%, ${this.model.sides[1].name} ${100 - p}%. `,
      h('span', { class: 'muted' }, features.balance ? 'The evaluator’s instant guess from the opening position; Test balance measures it by playing games.'
        : 'The evaluator’s instant guess from the opening position; a pacw server, or `pacw balance` on the downloaded file, measures it by playing games.'));
  }

  renderProblems() {
    const box = this.problemBox;
    if (this.checked !== null && !this.problems.length) {
      box.replaceChildren(h('p', { class: 'check-ok' }, '✓ The engine accepts this battle.'));
      return;
    }
    box.replaceChildren(h('h2', {}, this.problems.length === 1 ? '1 problem' : `${this.problems.length} problems`),
      h('ul', {}, ...this.problems.map((p) => {
        const square = p.square || (p.unit !== undefined ? this.model.units[p.unit]?.at : null);
        return h('li', { 'data-problem-square': square || null }, square ? h('strong', {}, `${square}: `) : null, p.message);
      })));
  }

  // ------------------------------------------------------------------ leaving the editor

  download() {
    const blob = new Blob([this.text()], { type: 'application/toml' });
    const a = h('a', { href: URL.createObjectURL(blob), download: fileName(this.model) });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  async play() {
    const mode = this.playMode || 'hotseat';
    const request = { scenario_text: this.text(), scenario_file: fileName(this.model), mode };
    const own = this.ownVariant();
    if (own) Object.assign(request, { variant_text: own.text, variant_file: own.file });
    if (mode === 'computer') { request.human_side = 'A'; request.computer = 'greedy'; }
    if (mode === 'watch') request.computer = 'greedy';
    try {
      const created = await api.create(request);
      const main = mainRole(created, mode, request.human_side);
      rememberCreated(created, main);
      location.href = created.links[main];
    } catch (e) {
      this.say(`The battle cannot start: ${e.message}`);
    }
  }

  async testBalance() {
    const box = this.balanceBox;
    const button = document.getElementById('test-balance');
    button.disabled = true;
    box.replaceChildren(h('p', {}, 'Playing greedy against greedy…'), h('progress', { max: 1, value: 0, id: 'balance-progress' }));
    try {
      const result = await api.balance(this.text(), fileName(this.model), (done, of) => {
        const bar = document.getElementById('balance-progress');
        if (bar) { bar.max = of; bar.value = done; }
      }, this.ownVariant());
      const side = (i) => this.model.sides[i].name;
      const line = (label, r) => h('li', {}, `${label}: ${percent(r.rate)} [${percent(r.low)}–${percent(r.high)}]`);
      box.replaceChildren(h('p', {}, `${result.games} games, greedy against greedy, sides swapping:`),
        h('ul', {}, line(`${side(0)} wins`, result.wins[0]), line(`${side(1)} wins`, result.wins[1]), line('draws', result.draws),
          line(`${side(0)}’s score (a draw counts half)`, result.score)),
        h('p', { class: 'note' }, result.verdict));
    } catch (e) {
      box.replaceChildren(h('p', { class: 'problem' }, e.message));
    } finally {
      button.disabled = false;
    }
  }
}

/// The neighbour across the edge nearest the point (in the square, 0..1 each way), or null at the board's edge.
function nearestNeighbour(model, square, { x, y }) {
  const edges = [['E', 1 - x, 1, 0], ['W', x, -1, 0], ['N', 1 - y, 0, 1], ['S', y, 0, -1]];
  edges.sort((a, b) => a[1] - b[1]);
  const [, , dx, dy] = edges[0];
  const { x: sx, y: sy } = parseSquare(square);
  const n = squareName(sx + dx, sy + dy);
  return onBoard(model, n) ? n : null;
}

function fileName(model) {
  return `${model.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'battle'}.toml`;
}

function save(model) {
  try { localStorage.setItem(STORE, JSON.stringify(model)); } catch { /* full or private: the page still works */ }
}

/// The work in progress of an earlier visit, if it is still readable.
function restore() {
  try {
    const m = JSON.parse(localStorage.getItem(STORE));
    return m && Array.isArray(m.cells) && m.cells.length === m.width * m.height && Array.isArray(m.units) ? m : null;
  } catch {
    return null;
  }
}
