// The review of a finished game, beside its replay: the winning chances across the game as a graph in the sides'
// colours (turns marked, the big swings of luck and the flagged decisions on it; a click moves the replay there),
// each side's summary, and the flagged decisions with the better order drawn on the board beside the one played.

import { api, pageHref } from './api.js';
import { parseSquare } from './squares.js';
import { h, sideColour, sideName, sideTag, withRuleLinks } from './util.js';

const NS = 'http://www.w3.org/2000/svg';
/// The graph's width in its own units: narrower on a phone, so that its labels stay legible.
const WIDE = 640;
const NARROW = 380;
const H = 150;
const PAD = { left: 34, right: 8, top: 10, bottom: 20 };
/// A chance step with at least this much luck is marked on the graph as a swing.
const SWING = 0.08;
const LABELS = {
  inaccuracy: { mark: '?!', word: 'Inaccuracy' },
  mistake: { mark: '?', word: 'Mistake' },
  blunder: { mark: '??', word: 'Blunder' },
};

function svg(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

const points = (p) => `${Math.round(100 * p)}%`;
/// What a decision's better order would have gained, in points of winning chances: the review's loss.
const gain = (st) => `+${(100 * st.loss).toFixed(1)}`;
const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;

/// The words on an attack's arrow: "charge 3+", "fire 5+", "F&M: charge 3+" (a Fire & Move) — from the review's
/// odds of the order (`attack`), else from the order alone (a review made before it had them).
function attackLabel(order, attack) {
  const what = attack ? `${attack.charge ? 'charge' : 'fire'} ${attack.needed}+` : 'attack';
  return order.fire_move ? `F&M: ${what}` : what;
}

/// Whether two squares share an edge: an attack between them is a charge (R6.1).
function adjacent(a, b) {
  const [p, q] = [parseSquare(a), parseSquare(b)];
  return Math.abs(p.x - q.x) + Math.abs(p.y - q.y) === 1;
}

/// The marks of a decision's actions on the board as it stood before them (`v`), for `Board.drawPlan`: a move to
/// its square and facing, an attack on its target with its label (`attack`: the review's odds of the order), all
/// classed `cls` (`played` or `better`, which bow to opposite sides), with the units concerned (to ring them).
export function planArrows(actions, v, cls, attack = null) {
  const arrows = [];
  const bend = cls === 'better' ? -1 : 1;
  let unit = v.active_unit;
  let at = unit !== null && unit !== undefined ? v.units[unit].at : null;
  const targetAt = (t) => v.units[t]?.at;
  for (const a of actions) {
    if (a.activate !== undefined) {
      unit = a.activate;
      at = v.units[unit].at;
      continue;
    }
    // A move, a turn in place (the ghost counter shows its facing) or the move of a Move & Fire.
    const order = a.move || a.advance || a.move_fire;
    if (order && at) {
      arrows.push({ from: at, to: order.to, facing: order.facing, kind: 'move', cls, bend, units: [unit] });
      at = order.to;
    }
    // A Fire that turns first (R5.5): the ghost shows the facing it fires with.
    if (a.fire && at && v.units[unit] && a.fire.facing !== v.units[unit].facing) {
      arrows.push({ from: at, to: at, facing: a.fire.facing, kind: 'move', cls, bend, units: [unit] });
    }
    const target = a.fire?.target ?? a.move_fire?.target ?? a.fire_move?.target;
    if (target !== undefined && at && targetAt(target)) {
      const charge = attack ? attack.charge : adjacent(at, targetAt(target));
      arrows.push({ from: at, to: targetAt(target), kind: 'attack', cls, bend, charge, fireMove: Boolean(a.fire_move), label: attackLabel(a, attack), units: [unit, target] });
    }
    if (!arrows.length && unit !== null && unit !== undefined) arrows.push({ kind: 'none', units: [unit] });
  }
  return arrows;
}

/// A phone's width, where the page's two columns become one (the stylesheet's own breakpoint).
const PHONE = matchMedia('(max-width: 900px)');

export class ReviewPanel {
  /// `replay` is the replay page: its token, scenario, `go(k)` and `showPlans(k, plans)`.
  constructor(replay, finished) {
    this.replay = replay;
    this.finished = finished;
    this.review = null;
    this.graph = h('div', { class: 'review-graph', id: 'review-graph', hidden: true });
    this.panel = h('div', { class: 'panel review-panel', id: 'review' });
    // Why the game was decided, above the chart and the board on a phone (placeDecided).
    this.top = h('div', { class: 'panel review-top', id: 'review-top', hidden: true });
    this.decidedSlot = h('div');
    this.position = 0;
    this.w = WIDE;
  }

  /// Shows where the review stands; with `start`, asks for it if it is not made.
  async start(start) {
    if (!this.finished) {
      this.panel.replaceChildren(h('h2', {}, 'Review'), h('p', { class: 'muted' }, 'A game is reviewed once it is over.'));
      return;
    }
    let status;
    try {
      status = await api.review(this.replay.token);
      if (status.state === 'none' && start) status = await api.startReview(this.replay.token);
    } catch (e) {
      this.panel.replaceChildren(h('h2', {}, 'Review'), h('p', { class: 'error' }, `The review cannot be made: ${e.message}`));
      return;
    }
    this.follow(status);
  }

  /// Renders a status, and keeps asking while the review is made.
  follow(status) {
    if (status.state === 'done') {
      this.review = status.review;
      this.render();
      return;
    }
    if (status.state === 'running') {
      const bar = h('progress', { id: 'review-progress', max: status.total || 1, value: status.searched || 0, 'aria-label': 'Review progress' });
      this.panel.replaceChildren(h('h2', {}, 'Review'),
        h('p', {}, `Judging every decision: ${status.searched} of ${status.total || '…'}. The computer players of other games think in between.`), bar);
      setTimeout(async () => {
        try { this.follow(await api.review(this.replay.token)); } catch (e) { this.panel.append(h('p', { class: 'error' }, e.message)); }
      }, 400);
      return;
    }
    const button = h('button', { id: 'start-review', onclick: async () => { button.disabled = true; this.follow(await api.startReview(this.replay.token)); } }, 'Review this game');
    this.panel.replaceChildren(h('h2', {}, 'Review'),
      status.state === 'failed' ? h('p', { class: 'error' }, status.error) : '',
      h('p', {}, 'Who was winning at each step, which decisions lost ground, and how much was luck.'), button);
  }

  render() {
    const r = this.review;
    const s = this.replay.scenario;
    this.graph.hidden = false;
    this.drawGraph();
    const flagged = r.steps.map((st, i) => ({ st, i })).filter(({ st }) => st.label);
    const row = (label, f) => h('tr', {}, h('th', {}, label), ...r.summary.map((side) => h('td', {}, f(side))));
    const summary = h('table', { class: 'review-summary', id: 'review-summary' },
      h('caption', { class: 'visually-hidden' }, 'Each side’s review'),
      h('tr', {}, h('th', {}, ''), ...r.summary.map((side) => h('th', { scope: 'col' }, sideTag(s, side.side)))),
      row('Accuracy', (x) => (x.accuracy === null || x.accuracy === undefined ? '—' : `${Math.round(x.accuracy)}`)),
      row('Inaccuracies ?!', (x) => String(x.inaccuracies)),
      row('Mistakes ?', (x) => String(x.mistakes)),
      row('Blunders ??', (x) => String(x.blunders)),
      row('Points lost by decisions', (x) => (x.loss === null || x.loss === undefined ? '—' : (100 * x.loss).toFixed(1))),
      row('Luck (points)', (x) => signed(x.luck)),
      row('Net luck (points)', (x) => (x.net_luck === null || x.net_luck === undefined ? '—' : signed(x.net_luck))),
      row('Result', (x) => (x.result === null || x.result === undefined ? '—' : String(x.result))),
      row('Luck-adjusted result', (x) => (x.luck_adjusted === null || x.luck_adjusted === undefined ? '—' : x.luck_adjusted.toFixed(2))));
    const list = h('ol', { class: 'flagged', id: 'flagged' }, ...flagged.map(({ st, i }) => {
      const l = LABELS[st.label];
      return h('li', { class: `flag-${st.label}` },
        h('button', { class: 'link', 'data-step': i, onclick: () => this.showDecision(i) },
          h('span', { class: 'flag-mark' }, `${l.mark} ${l.word}`), ` −${(100 * st.loss).toFixed(1)} · turn ${st.turn} · `, sideTag(s, st.side), `: ${st.text}`),
        // What the better order would have gained, and what it does that the one given did not (the order alone
        // in a review made before it said so).
        st.best ? h('p', { class: 'better' }, h('span', { class: 'gain' }, `Better, ${gain(st)} points for ${sideName(s, st.side)}: `), st.why ? withRuleLinks(st.why) : st.best.text) : '');
    }));
    this.panel.replaceChildren(h('h2', {}, 'Review'),
      h('p', { class: 'muted review-note' }, `Chances by ${r.evaluator}; each side’s decisions against a short search (${r.budget}). `,
        h('a', { href: pageHref('review'), target: 'pacw-rules' }, 'How to read a review')),
      this.decidedSlot,
      summary,
      h('h3', {}, flagged.length ? `Flagged decisions (${flagged.length})` : 'No decision lost 5 points or more'),
      flagged.length ? h('p', { class: 'muted legend' }, h('span', { class: 'key played' }, '━'), ' the order given, ', h('span', { class: 'key better' }, '┅'),
        ' the better one: a thick arrow charges, a thin one fires, a double head is a Fire & Move (F&M); a ghost counter shows where a move ends and its facing',
        ' (', h('a', { href: `${pageHref('review')}#decisions`, target: 'pacw-rules' }, 'more'), ')') : '',
      list);
    this.placeDecided();
    if (!this.placing) {
      this.placing = true;
      PHONE.addEventListener('change', () => this.placeDecided());
    }
    this.setPosition(this.position);
  }

  /// Puts why the game was decided at the top of the review, which on a phone comes after the chart, the board and
  /// the turn: there it goes above them all, a heading of the page's second level.
  placeDecided() {
    const phone = PHONE.matches;
    const section = this.decided(phone ? 'h2' : 'h3');
    this.top.hidden = !phone;
    this.top.replaceChildren(phone ? section : '');
    this.decidedSlot.replaceChildren(phone ? '' : section);
  }

  /// Why the game was decided: the biggest swings of the chances in words, each a button to its moment in the
  /// replay (and marked on the graph by its number), and the luck with the net luck. A review made before reviews
  /// said so has none.
  decided(heading) {
    const d = this.review.decided;
    if (!d) return h('p', { class: 'muted' }, 'This review was made before reviews said why the game was decided.');
    return h('section', { class: 'decided', id: 'decided', 'aria-labelledby': 'decided-title' },
      h(heading, { id: 'decided-title' }, 'Why the game was decided'),
      d.swings.length ? h('p', { class: 'muted swings-intro' }, 'The biggest swings of the winning chances, the biggest first:') : '',
      h('ol', { class: 'swings', id: 'swings' }, ...d.swings.map((sw) => {
        // "Turn 4" opens the moment in the replay; the rest is words, with its rule ids linked.
        const [, turn, rest] = sw.text.match(/^(Turn \d+)(.*)$/s) || [null, 'Show', `: ${sw.text}`];
        return h('li', { class: `swing swing-${sw.kind}` },
          h('button', { class: 'link', 'data-step': sw.step, onclick: () => this.showSwing(sw) }, turn), withRuleLinks(rest));
      })),
      h('p', { class: 'net-luck', id: 'net-luck' }, withRuleLinks(d.luck)));
  }

  /// Shows a swing in the replay: a flagged decision with the better order beside it, any other moment as it
  /// stands once done.
  showSwing(sw) {
    const st = this.review.steps[sw.step];
    if (sw.kind === 'decision' && st?.label) this.showDecision(sw.step);
    else this.replay.go(sw.decision);
  }

  /// Moves the replay to the position before a flagged decision and draws both orders there, with what the
  /// better one would have gained and why.
  showDecision(i) {
    const st = this.review.steps[i];
    const before = st.decision - st.actions.length;
    const s = this.replay.scenario;
    // The better order in the review's sentence, which names both orders (else as the engine writes it).
    const better = st.best ? ` Better, ${gain(st)} points for ${sideName(s, st.side)}: ${st.why || `${st.best.text}.`}` : '';
    this.replay.showPlans(before, [{ actions: st.actions, cls: 'played', attack: st.attack }, st.best ? { actions: st.best.actions, cls: 'better', attack: st.best.attack } : null].filter(Boolean),
      `Played: ${st.text}.${better}`);
    for (const b of this.panel.querySelectorAll('#flagged button')) b.classList.toggle('current', Number(b.dataset.step) === i);
  }

  x(i, n) {
    return PAD.left + (this.w - PAD.left - PAD.right) * (n ? i / n : 0);
  }

  y(p) {
    return PAD.top + (H - PAD.top - PAD.bottom) * (1 - p);
  }

  drawGraph() {
    const r = this.review;
    const s = this.replay.scenario;
    const n = r.steps.length;
    this.w = this.graph.clientWidth && this.graph.clientWidth < 520 ? NARROW : WIDE;
    const W = this.w;
    const values = [r.start, ...r.steps.map((st) => st.after)];
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chances-graph', role: 'img',
      'aria-label': `${sideName(s, 'A')}’s winning chances across the game, from ${points(r.start)} to ${points(values[values.length - 1])}; click to move the replay there` });
    const mid = this.y(0.5);
    const line = values.map((p, i) => `${this.x(i, n).toFixed(1)},${this.y(p).toFixed(1)}`).join(' ');
    const area = `${this.x(0, n)},${mid} ${line} ${this.x(n, n)},${mid}`;
    // The area above the middle in the first side's colour, below it in the second's.
    const defs = svg('defs', {}, root);
    const clip = (id, y, height) => svg('rect', { x: 0, y, width: W, height }, svg('clipPath', { id }, defs));
    clip('chances-above', 0, mid);
    clip('chances-below', mid, H - mid);
    svg('polygon', { points: area, fill: sideColour(s, 'A'), opacity: 0.55, 'clip-path': 'url(#chances-above)' }, root);
    svg('polygon', { points: area, fill: sideColour(s, 'B'), opacity: 0.55, 'clip-path': 'url(#chances-below)' }, root);
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      svg('line', { x1: PAD.left, x2: W - PAD.right, y1: this.y(p), y2: this.y(p), class: p === 0.5 ? 'axis mid' : 'axis' }, root);
      svg('text', { x: PAD.left - 4, y: this.y(p) + 3, 'text-anchor': 'end', class: 'graph-label' }, root).textContent = `${100 * p}%`;
    }
    // The turns, each labelled where there is room for it.
    let turn = 0;
    let labelled = -Infinity;
    r.steps.forEach((st, i) => {
      if (st.turn !== turn) {
        turn = st.turn;
        const x = this.x(i, n);
        svg('line', { x1: x, x2: x, y1: PAD.top, y2: H - PAD.bottom, class: 'turn-line' }, root);
        if (x - labelled >= 20) {
          svg('text', { x: x + 2, y: H - 6, class: 'graph-label' }, root).textContent = `T${turn}`;
          labelled = x;
        }
      }
    });
    svg('polyline', { points: line, class: 'chances-line' }, root);
    // The swings of luck, pointing the way the chances moved, and the flagged decisions.
    r.steps.forEach((st, i) => {
      const [cx, cy] = [this.x(i + 1, n), this.y(st.after)];
      if (st.kind === 'chance' && Math.abs(st.luck) >= SWING) {
        const up = st.luck > 0;
        const d = up ? `M${cx} ${cy - 9} l-5 8 h10 z` : `M${cx} ${cy + 9} l-5 -8 h10 z`;
        const mark = svg('path', { d, class: 'luck-mark', fill: sideColour(s, up ? 'A' : 'B') }, root);
        svg('title', {}, mark).textContent = `Luck ${signed(Math.abs(st.luck))} points for ${sideName(s, up ? 'A' : 'B')}: ${st.text}`;
      }
      if (st.label) {
        const mark = svg('circle', { cx, cy, r: 4.5, class: `flag-dot flag-${st.label}` }, root);
        svg('title', {}, mark).textContent = `${LABELS[st.label].word} (−${(100 * st.loss).toFixed(1)}): ${st.text}`;
      }
    });
    // The swings that decided the game, by their numbers in the list.
    (r.decided?.swings || []).forEach((sw, k) => {
      const [cx, cy] = [this.x(sw.last + 1, n), this.y(sw.after)];
      const mark = svg('g', { class: 'swing-mark' }, root);
      svg('circle', { cx, cy: cy - 13, r: 7 }, mark);
      svg('text', { x: cx, y: cy - 9.5, 'text-anchor': 'middle' }, mark).textContent = String(k + 1);
      svg('title', {}, mark).textContent = `Swing ${k + 1}: ${sw.text}`;
    });
    this.cursor = svg('line', { y1: PAD.top, y2: H - PAD.bottom, class: 'graph-cursor' }, root);
    root.addEventListener('click', (ev) => {
      const box = root.getBoundingClientRect();
      const x = ((ev.clientX - box.left) / box.width) * W;
      const i = Math.round(((x - PAD.left) / (W - PAD.left - PAD.right)) * n);
      const step = r.steps[Math.max(0, Math.min(n, i) - 1)];
      this.replay.go(i <= 0 || !step ? 0 : step.decision);
    });
    this.graph.replaceChildren(root);
  }

  /// Marks the replay's position (after `k` decisions) on the graph.
  setPosition(k) {
    this.position = k;
    if (!this.review || !this.cursor) return;
    const steps = this.review.steps;
    let i = 0;
    steps.forEach((st, j) => { if (st.decision <= k) i = j + 1; });
    const x = this.x(k === 0 ? 0 : i, steps.length);
    this.cursor.setAttribute('x1', x);
    this.cursor.setAttribute('x2', x);
  }
}
