// The replay: every decision of a game, step by step, with a full-width slider that follows while it is dragged,
// a clickable move list, the arrow keys, each decision's moves and attacks drawn as arrows, each position's winning
// chances, and (once the game is over) its review beside it (review.js).

import { api, gameHref, pageHref } from './api.js';
import { Board, moveArrows } from './board.js';
import { installKeys } from './keys.js';
import { cardFace, chancesBar, diceTray, ledgerTable, logLine, losses, resultHeadline } from './panels.js';
import { ReviewPanel, planArrows } from './review.js';
import { h, sideName, sideTag, withRuleLinks } from './util.js';

/// `options.review`: make the review at once if it is not made.
export async function showReplay(app, token, options = {}) {
  let steps;
  try {
    steps = await api.replay(token);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error' }, `This game cannot be replayed: ${e.message}`), h('a', { href: pageHref('') }, 'Back to the lobby'));
    return;
  }
  const first = await api.replayAt(token, 0);
  new Replay(app, token, steps, first).start(options);
}

class Replay {
  constructor(app, token, steps, first) {
    this.app = app;
    this.token = token;
    this.steps = steps.steps;
    this.of = steps.decisions;
    this.views = new Map([[0, first]]);
    this.at = 0;
    this.wanted = 0;
    this.scenario = first.scenario;
  }

  start(options) {
    const s = this.scenario;
    this.review = new ReviewPanel(this, this.finished());
    this.slider = h('input', { type: 'range', min: 0, max: this.of, value: 0, id: 'replay-slider', class: 'replay-slider', 'aria-label': 'Decision', oninput: (e) => this.go(Number(e.target.value)) });
    this.position = h('span', { id: 'replay-position' });
    this.boardBox = h('div', { class: 'board-wrap', id: 'board' });
    this.moves = h('ol', { class: 'move-list', id: 'move-list', start: 0 }, h('li', {}, h('button', { class: 'link', 'data-step': 0, 'data-from': 0, onclick: () => this.go(0) }, 'The start')),
      ...orderLines(this.steps, (side) => sideName(s, side)).map(({ from, to, side, text }) => h('li', {}, h('button', { class: 'link', 'data-step': to, 'data-from': from, onclick: () => this.go(to) }, sideTag(s, side), ` ${text}`))));
    this.log = h('div', { class: 'log', id: 'log' });
    this.side = h('div', { class: 'panel', id: 'replay-info' });
    this.dice = h('div', { class: 'panel', id: 'dice-panel' });
    this.app.replaceChildren(h('div', { class: 'battle-page replay-page' },
      h('h1', { class: 'battle-title' }, s.title, h('span', { class: 'muted' }, ' — replay')),
      this.review.top,
      h('div', { class: 'battle' },
        h('div', { class: 'board-column' }, this.review.graph, this.boardBox,
          h('div', { class: 'replay-controls', id: 'replay' },
            h('button', { class: 'secondary', id: 'replay-prev', 'aria-label': 'previous decision', onclick: () => this.go(this.wanted - 1) }, '◀'),
            this.slider,
            h('button', { class: 'secondary', id: 'replay-next', 'aria-label': 'next decision', onclick: () => this.go(this.wanted + 1) }, '▶'),
            this.position),
          h('p', { class: 'muted' }, '← → step, Home and End jump; drag the slider to run through the game. ',
            h('a', { href: gameHref(this.token) }, 'Back to the game'), ' · ', h('a', { href: pageHref('') }, 'Lobby'))),
        h('aside', { class: 'side-column' }, this.side, this.review.panel, this.dice, h('div', { class: 'panel' }, h('h2', {}, 'Decisions'), this.moves), h('div', { class: 'panel log-panel' }, h('h2', {}, 'Log'), this.log)))));
    this.board = new Board(this.boardBox, s, { onPick: () => {} });
    installKeys((ev) => {
      const to = { ArrowLeft: this.wanted - 1, ArrowRight: this.wanted + 1, Home: 0, End: this.of }[ev.key];
      if (to === undefined) return false;
      this.go(to);
      return true;
    });
    this.show(0);
    this.review.start(options.review);
  }

  first() {
    return this.views.get(0);
  }

  /// Whether the whole game is over (its replay views say so).
  finished() {
    return Boolean(this.first().replay?.game_over);
  }

  /// Moves to decision `k` and draws `plans` ([{ actions, cls }]) on the board there instead of the decision's own
  /// arrows, until the replay moves on.
  async showPlans(k, plans, text) {
    this.plans = { at: k, plans, text };
    await this.go(k);
    this.show(k);
  }

  /// Shows decision `k` (clamped), fetching its view if it is not known yet; while the slider is dragged only
  /// the latest position asked for is fetched next.
  async go(k) {
    k = Math.max(0, Math.min(this.of, k));
    this.wanted = k;
    this.slider.value = k;
    if (this.views.has(k)) return this.show(k);
    if (this.fetching) return;
    this.fetching = true;
    try {
      while (!this.views.has(this.wanted)) {
        const want = this.wanted;
        this.views.set(want, await api.replayAt(this.token, want));
        if (this.wanted !== want) this.show(want); // dragging on: show what arrived, fetch the latest next
      }
    } finally {
      this.fetching = false;
    }
    this.show(this.wanted);
  }

  show(k) {
    const v = this.views.get(k);
    if (!v) return;
    this.at = k;
    const step = this.steps[k - 1];
    if (this.plans && this.plans.at !== k) this.plans = null;
    // A review's orders are drawn over the counters (Board.drawPlan); a decision's own moves under them.
    const plans = this.plans ? this.plans.plans.flatMap((p) => planArrows(p.actions, v, p.cls, p.attack)) : [];
    const arrows = this.plans ? [] : step ? moveArrows(step.events, v) : [];
    this.board.update({ units: v.units, objectives: v.objectives, lastMove: arrows, plans, highlight: new Set([...arrows, ...plans].flatMap((m) => m.units)) });
    this.boardBox.dataset.decisions = k;
    this.position.textContent = `decision ${k} of ${this.of}`;
    for (const b of this.moves.querySelectorAll('button')) b.classList.toggle('current', Number(b.dataset.from) <= k && k <= Number(b.dataset.step));
    this.moves.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
    const s = this.scenario;
    this.side.replaceChildren(h('h2', {}, `Turn ${v.turn} of ${s.turns}`),
      v.deck ? h('div', {}, 'Card: ', cardFace(v, v.card)) : '',
      this.plans ? h('p', { id: 'plans-shown' }, withRuleLinks(this.plans.text)) : step ? h('p', {}, sideTag(s, step.side), step.computer ? ' (computer): ' : ': ', withRuleLinks(step.text)) : h('p', {}, 'The start of the battle.'),
      chancesBar(v),
      v.result ? [resultHeadline(v), ...losses(v), v.ledger ? ledgerTable(v) : ''] : '');
    this.dice.replaceChildren(h('h2', {}, 'Dice'), diceTray(v, v.log, Infinity));
    this.log.replaceChildren(...v.log.map((e) => logLine(v, e)));
    this.log.scrollTop = this.log.scrollHeight;
    this.review.setPosition(k);
  }
}

/// The move list's lines: one an order, its activation folded in ("Iron Brigade (veteran infantry) at e2: Fire at
/// …", the side named once, by the line's tag: `nameOf(side)`), each spanning the decisions `from`..=`to` it took;
/// other decisions (ending activations, a retreat's square) a line each.
export function orderLines(steps, nameOf) {
  const lines = [];
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i];
    const next = steps[i + 1];
    if (st.action?.activate !== undefined && next && next.side === st.side && next.action?.activate === undefined && next.action !== 'end_activations') {
      lines.push({ from: st.decision, to: next.decision, side: st.side, text: `${st.text.replace(/^Activate /, '').replace(`${nameOf(st.side)} `, '')}: ${next.text}` });
      i++;
    } else {
      lines.push({ from: st.decision, to: st.decision, side: st.side, text: st.text });
    }
  }
  return lines;
}
