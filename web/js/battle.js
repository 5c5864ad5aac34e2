// The battle page: the board is the interface. Select a unit, square or objective to read about it; select one of
// your units to see what it can do, then click a square (and a facing), an enemy, and confirm. The opponent's
// decisions are played back as they happen; the log, dice, cards, odds and result sit beside the board.

import { api } from './api.js';
import { Board, moveArrows, neighbour, parseSquare, squareName } from './board.js';
import { forget, remember, setSetting, setShownDecisions, setting, shownDecisions } from './games.js';
import { installKeys } from './keys.js';
import { UnitChoices, kindOf } from './orders.js';
import { cardFace, deckPanel, diceTray, lastRoll, ledgerTable, logLine, losses, oddsBox, oddsLine, resultHeadline, squareInfo, unitInfo } from './panels.js';
import { h, sideColour, sideName, sideTag, withRuleLinks } from './util.js';

export async function showBattle(app, token) {
  const page = new Battle(app, token);
  await page.start();
  return page;
}

const ARROWS = { ArrowUp: 'N', ArrowRight: 'E', ArrowDown: 'S', ArrowLeft: 'W' };

class Battle {
  constructor(app, token) {
    this.app = app;
    this.token = token;
    this.view = null; // the live view, its log merged in `this.log`
    this.log = [];
    this.shown = null; // the view on screen: the live one, or a past one while playing back
    this.selected = null; // a unit id
    this.square = null; // the square last picked or under the keyboard cursor
    this.choices = null; // the selected unit's orders (UnitChoices)
    this.pending = null; // the order being built: { stage: 'attack' | 'facing' | 'confirm', … }
    this.refusal = null; // the last refused click: { rule, reason, line, square }
    this.hover = null;
    this.cursor = null;
    this.queue = []; // decisions of others still to be played back
    this.playing = false;
    this.busy = false;
    this.error = '';
    this.connection = 'live';
    this.lastMove = [];
    this.since = []; // the others' decisions since this token's last one, in words
    this.freshFrom = Infinity; // log index from which dice are new (animated)
    this.handedTo = null; // hot-seat: the side the screen was last handed to
  }

  // ------------------------------------------------------------------ loading and following the game

  async start() {
    try {
      this.view = await api.view(this.token);
    } catch (e) {
      this.app.replaceChildren(h('p', { class: 'error' }, `This game cannot be opened: ${e.message}`), h('a', { href: '/' }, 'Back to the lobby'));
      return;
    }
    this.log = this.view.log;
    remember(this.token, { id: this.view.id, role: this.view.role, title: this.view.scenario.title });
    this.layout();
    const shown = shownDecisions(this.token);
    const startAt = Math.min(shown, this.view.decisions);
    if (startAt < this.view.decisions && !this.view.result) {
      // Decisions this page has not shown: the computer's opening moves, or the other player's while away.
      await this.catchUp(startAt);
    } else {
      this.adopt(this.view);
    }
    this.listen();
  }

  listen() {
    const source = api.events(this.token);
    source.addEventListener('hello', (ev) => {
      // The stream opens with where the game stands: catch up on what happened while the page was away.
      const hello = JSON.parse(ev.data);
      const wasAway = this.connection !== 'live';
      this.connection = 'live';
      if (hello.decisions !== this.view.decisions || hello.log_len !== this.log.length) this.reload();
      else if (wasAway) this.render();
    });
    source.addEventListener('update', (ev) => this.onUpdate(JSON.parse(ev.data)));
    source.addEventListener('resync', () => this.reload());
    source.onerror = () => {
      this.connection = 'reconnecting';
      this.renderStatus();
    };
    this.source = source;
  }

  async onUpdate(update) {
    if (update.kind === 'action' && !this.mine(update.side, update.computer)) {
      this.since.push({ side: update.side, text: update.text, events: update.events });
      this.queue.push(update);
      this.playQueue();
      return;
    }
    if (!this.view || update.decisions !== this.view.decisions || update.log_len !== this.log.length) this.reload();
  }

  /// Whether a decision by `side` was made through this page's token.
  mine(side, computer) {
    return !computer && this.view.you_play.includes(side) && this.view.mode !== 'watch';
  }

  /// Shows the others' decisions one by one, paced, then the live view.
  async playQueue() {
    if (this.playing) return;
    this.playing = true;
    const pace = setting('pace', 700);
    while (this.queue.length) {
      const update = this.queue.shift();
      this.playingSide = update.side;
      if (pace > 0 && this.queue.length) {
        // Behind: show the game as it was after this decision, with the move marked.
        try {
          const past = await api.replayAt(this.token, update.decisions);
          this.showPast(past, update.events);
          await sleep(pace);
          continue;
        } catch { /* the game changed under us (an undo): fall through to the live view */ }
      }
      await this.reload(update.events);
      if (pace > 0 && this.queue.length) await sleep(pace);
    }
    this.playing = false;
    this.render();
  }

  /// Plays back the decisions after `from` that this page has not shown, from the game's replay.
  async catchUp(from) {
    let steps = [];
    try {
      steps = (await api.replay(this.token)).steps.slice(from);
    } catch { /* nothing to play back */ }
    const others = steps.filter((s) => !this.mine(s.side, s.computer));
    this.since = others.map((s) => ({ side: s.side, text: s.text, events: s.events }));
    const pace = setting('pace', 700);
    if (pace > 0 && others.length) {
      this.playing = true;
      for (const step of steps) {
        this.playingSide = step.side;
        try {
          const past = await api.replayAt(this.token, step.decision);
          this.showPast(past, step.events);
          await sleep(this.mine(step.side, step.computer) ? 0 : pace);
        } catch { break; }
      }
      this.playing = false;
    }
    await this.reload();
  }

  /// Draws a decision's moves and rings its units; `keep` adds them to the arrows already drawn (the other side's
  /// moves since this page's last decision), else they replace them.
  mark(arrows, keep) {
    this.lastMove = keep ? this.lastMove.concat(arrows) : arrows;
    this.latestUnits = new Set(arrows.flatMap((m) => m.units || []));
  }

  showPast(past, events) {
    this.mark(moveArrows(events || [], past), true);
    this.shown = past;
    this.render();
  }

  async reload(events) {
    try {
      const from = this.log.length;
      const view = await api.view(this.token, from);
      if (view.log_len < from || view.decisions < (this.view?.decisions ?? 0)) {
        this.adopt(await api.view(this.token)); // an undo cut the log back
      } else {
        // The other side's moves since this page's last decision stay drawn, as lichess keeps the last move.
        if (events) this.mark(moveArrows(events, view), true);
        this.adopt(view);
      }
      this.error = '';
    } catch (e) {
      this.error = e.message;
      this.renderStatus();
    }
  }

  /// Makes `view` the live view, merging its log into the page's.
  adopt(view) {
    const first = !this.adopted;
    this.adopted = true;
    const decisionsChanged = first || !this.view || view.decisions !== this.view.decisions || view.log_from === 0;
    if (this.view && view.decisions < this.view.decisions) this.mark([], false); // an undo: its moves are gone
    const newCard = view.log.some((e) => e.index >= this.log.length && e.event.event === 'card_drawn');
    const from = Math.min(view.log_from, this.log.length);
    this.freshFrom = this.log.length;
    this.log = this.log.slice(0, from).concat(view.log);
    view.log = this.log;
    this.view = view;
    this.shown = view;
    setShownDecisions(this.token, view.decisions);
    if (decisionsChanged) {
      this.pending = null;
      this.refusal = null;
      this.choices = null;
      if (view.your_turn && view.active_unit !== null && view.active_unit !== undefined) {
        this.selected = view.active_unit; // its order, or its Advance after Fire & Move, comes next
      } else if (this.selected !== null && (!view.units[this.selected]?.alive || newCard || this.ordered)) {
        this.selected = null; // its order is given, or a new card is up: start afresh
        this.inspected = null;
      }
      this.ordered = false;
      if (this.selected !== null) this.fetchChoices(this.selected);
    }
    this.remembered();
    this.render();
    this.announceTurn();
  }

  remembered() {
    const v = this.view;
    remember(this.token, { status: v.result ? 'finished' : 'in_progress', title: v.scenario.title, turn: v.turn });
  }

  // ------------------------------------------------------------------ selection and orders

  get live() {
    return !this.playing && this.shown === this.view;
  }

  async fetchChoices(unit) {
    const v = this.view;
    const u = v.units[unit];
    if (!v.your_turn || !u || !v.you_play.includes(u.side)) return;
    try {
      const reply = await api.unit(this.token, unit);
      if (this.selected !== unit || reply.decisions !== this.view.decisions) return;
      this.choices = new UnitChoices(reply, this.view.units[unit].at);
      this.render();
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  select(unit) {
    this.selected = unit;
    this.inspected = null;
    this.choices = null;
    this.pending = null;
    this.refusal = null;
    if (unit !== null) this.fetchChoices(unit);
    this.render();
  }

  refuse(refusal, extra = {}) {
    this.refusal = refusal ? { ...refusal, ...extra } : null;
    this.render();
  }

  /// A click (or Enter) on the board: a unit, or a square.
  onPick({ unit, square }) {
    if (square) this.square = square;
    this.refusal = null;
    const v = this.shown;
    if (!this.live || !v) {
      if (unit !== null) this.selected = unit;
      this.render();
      return;
    }
    const u = unit !== null ? v.units[unit] : null;
    const sel = this.selected !== null ? v.units[this.selected] : null;
    const ch = this.choices;
    if (u) {
      if (sel && u.id === sel.id) {
        // The unit itself: turn in place and fire (Move & Fire to its own square), turn in place, or stay.
        const target = this.pending?.target;
        if (ch?.canAct && target !== undefined && ch.moveFireSquares(target).has(sel.at)) return this.startFacing(sel.at, 'move_fire', target);
        if (ch?.canAct && ch.moveSquares().has(sel.at)) return this.startFacing(sel.at, 'move');
        if (ch && !ch.canAct) return this.refuse(ch.reply.refusal);
        return this.render();
      }
      if (ch && u.side !== sel.side) return this.pickEnemy(u);
      return this.select(u.id);
    }
    if (ch && square) {
      if (!ch.canAct) return this.refuse(ch.reply.refusal, { square });
      const target = this.pending?.target;
      if (target !== undefined && ch.moveFireSquares(target).has(square)) return this.startFacing(square, 'move_fire', target);
      if (ch.moveSquares().has(square)) return this.startFacing(square, 'move');
      const why = ch.reply.squares[square];
      if (why) return this.refuse(why, { square });
    }
    this.render();
  }

  /// An enemy clicked while one of your units is selected: Fire, Fire & Move, or Move & Fire from a square.
  async pickEnemy(enemy) {
    const ch = this.choices;
    this.inspected = enemy.id;
    if (!ch.canAct) return this.refuse(ch.reply.refusal);
    const p = this.pending;
    if (p && p.to && (p.kind === 'move' || p.kind === 'move_fire')) {
      // A square is picked: Move & Fire from it.
      if (p.facing) {
        const order = ch.moveFire(enemy.id, p.to, p.facing);
        if (order) return this.setConfirm({ ...p, kind: 'move_fire', target: enemy.id, order });
      }
      const facings = ch.moveFireFacings(enemy.id, p.to);
      if (Object.values(facings).some(Boolean)) return this.startFacing(p.to, 'move_fire', enemy.id);
      return this.explainRefusal({ move_fire: { to: p.to, facing: p.facing || this.shown.units[ch.reply.unit].facing, target: enemy.id } }, enemy);
    }
    const t = ch.targets().get(enemy.id);
    if (!t) {
      const why = ch.reply.enemies[enemy.id];
      return this.refuse(why, why?.blocked_at || why?.rule === 'R6.2' ? { line: { from: ch.at, to: enemy.at, blockedAt: why.blocked_at } } : { square: enemy.at });
    }
    const facings = Object.values(ch.fireFacings(enemy.id)).filter(Boolean).length;
    if (facings > 1) return this.startFacing(ch.at, 'fire', enemy.id);
    this.pending = { stage: 'attack', target: enemy.id, order: t.fire[0] || null };
    this.render();
  }

  async explainRefusal(action, enemy) {
    try {
      const why = await api.explain(this.token, this.choices.reply.unit, action);
      const line = why.refusal?.blocked_at ? { from: kindOf(action)[1].to, to: enemy.at, blockedAt: why.refusal.blocked_at } : null;
      this.refuse(why.refusal, line ? { line } : { square: enemy.at });
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  startFacing(square, kind, target) {
    const ch = this.choices;
    const facings = kind === 'move' ? ch.moveFacings(square) : kind === 'move_fire' ? ch.moveFireFacings(target, square) : ch.fireFacings(target);
    this.pending = { stage: 'facing', kind, to: square, target, facings, facing: null };
    this.refusal = null;
    this.render();
  }

  async onFacing(dir) {
    const p = this.pending;
    const ch = this.choices;
    if (!p || p.stage !== 'facing' && p.stage !== 'confirm' || !p.facings) return;
    if (!p.facings[dir]) {
      const probe = p.kind === 'move'
        ? (ch.advancing ? { advance: { to: p.to, facing: dir } } : { move: { to: p.to, facing: dir } })
        : p.kind === 'move_fire' ? { move_fire: { to: p.to, facing: dir, target: p.target } } : { fire: { target: p.target, facing: dir } };
      try {
        const why = await api.explain(this.token, ch.reply.unit, probe);
        this.refuse(why.refusal || { rule: 'R5.4', reason: `facing ${dir} is not allowed here (R5.4)` }, { square: p.to });
      } catch (e) {
        this.error = e.message;
        this.render();
      }
      return;
    }
    const order = p.kind === 'move' ? ch.moveTo(p.to, dir) : p.kind === 'move_fire' ? ch.moveFire(p.target, p.to, dir) : ch.find({ fire: { target: p.target, facing: dir } });
    this.setConfirm({ ...p, facing: dir, order });
  }

  setConfirm(p) {
    this.pending = { ...p, stage: 'confirm' };
    this.refusal = null;
    this.render();
  }

  /// Gives the pending order: the unit's activation first when it is not yet activated (two guarded decisions).
  async confirm(order = this.pending?.order) {
    if (!order || this.busy || !this.live) return;
    await this.give(order.action);
  }

  async give(action) {
    const ch = this.choices;
    if (!ch || this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      let n = ch.reply.decisions;
      if (ch.reply.activate) {
        await api.act(this.token, ch.reply.activate, n);
        n += 1;
      }
      const view = await api.act(this.token, action, n);
      this.pending = null;
      this.since = [];
      this.mark(moveArrows(view.log, view), false);
      this.ordered = true;
      this.adopt(view);
    } catch (e) {
      this.error = e.message;
      await this.reload();
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async hold() {
    const order = this.choices?.hold();
    if (order) await this.give(order.action);
  }

  async fireMove() {
    const t = this.pending?.target;
    const order = t !== undefined ? this.choices?.targets().get(t)?.fireMove : null;
    if (order) this.setConfirm({ ...this.pending, kind: 'fire_move', order });
  }

  async endActivations() {
    const v = this.view;
    const end = v.your_turn && v.legal_actions.find((a) => a.action === 'end_activations');
    if (!end || this.busy) return;
    this.busy = true;
    try {
      const view = await api.act(this.token, 'end_activations', v.decisions);
      this.selected = null;
      this.since = [];
      this.mark([], false);
      this.adopt(view);
    } catch (e) {
      this.error = e.message;
      await this.reload();
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async undo() {
    const v = this.view;
    if (!v.undo.possible || this.busy) return;
    this.busy = true;
    try {
      const view = await api.undo(this.token, v.undo.last_order || 1, v.decisions);
      this.log = [];
      this.selected = null;
      this.mark([], false);
      this.adopt(view);
    } catch (e) {
      this.error = e.message;
      this.render();
    } finally {
      this.busy = false;
    }
  }

  cancel() {
    if (this.pending) this.pending = null;
    else if (this.refusal) this.refusal = null;
    else this.select(null);
    this.render();
  }

  async resign() {
    if (!window.confirm('Resign this game? The other side wins.')) return;
    try {
      this.adopt(await api.resign(this.token));
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  async rematch() {
    try {
      const again = await api.rematch(this.token);
      const token = again.tokens[again.you] || again.tokens.hotseat || again.tokens.spectator;
      remember(token, { id: again.id, role: again.you, title: again.view.scenario.title, links: again.links });
      location.href = `/game/${token}`;
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  // ------------------------------------------------------------------ keyboard

  onKey(ev) {
    const v = this.view;
    if (!v) return false;
    if (ev.key in ARROWS) {
      if (this.pending?.stage === 'facing' || (this.pending?.stage === 'confirm' && this.pending.facings)) {
        this.onFacing(ARROWS[ev.key]);
        return true;
      }
      const start = this.cursor || (this.selected !== null ? v.units[this.selected].at : squareName(0, 0));
      this.cursor = neighbour(v.scenario.map, start, ARROWS[ev.key]) || start;
      this.square = this.cursor;
      this.board.svg.parentElement.focus({ preventScroll: true });
      this.render();
      return true;
    }
    if (ev.key === 'Enter' || ev.key === ' ') {
      if (this.pending?.stage === 'confirm' || (this.pending?.stage === 'attack' && this.pending.order)) {
        this.confirm();
        return true;
      }
      if (this.cursor) {
        const unit = v.units.find((u) => u.alive && u.at === this.cursor);
        this.onPick({ unit: unit ? unit.id : null, square: this.cursor });
        return true;
      }
      return false;
    }
    if (ev.key === 'Escape') {
      this.cancel();
      return true;
    }
    if (ev.key === 'z') this.undo();
    else if (ev.key === 'e') this.endActivations();
    else if (ev.key === 'h') this.hold();
    else return false;
    return true;
  }

  // ------------------------------------------------------------------ the page

  layout() {
    const v = this.view;
    this.els = {
      status: h('div', { class: 'status-bar', id: 'status' }),
      board: h('div', { class: 'board-wrap', id: 'board', tabindex: 0, 'aria-label': 'The board: arrow keys move the cursor, Enter selects, ? lists the keys' }),
      cursorText: h('div', { class: 'visually-hidden', 'aria-live': 'polite' }),
      orderBar: h('div', { class: 'order-bar', id: 'order-bar' }),
      info: h('div', { class: 'panel info', id: 'info' }),
      odds: h('div', { class: 'panel odds-panel', id: 'odds-panel' }),
      since: h('div', { class: 'since', id: 'since' }),
      dice: h('div', { class: 'panel', id: 'dice-panel' }),
      deck: h('div', { class: 'panel', id: 'deck' }),
      list: h('details', { class: 'panel order-list', id: 'order-list' }),
      log: h('div', { class: 'log', id: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Game log' }),
      menu: h('div', { class: 'game-menu' }),
      result: h('div', { class: 'result-screen', id: 'result-screen', hidden: true }),
      handover: h('div', { class: 'handover', id: 'handover', hidden: true }),
    };
    const e = this.els;
    this.app.replaceChildren(h('div', { class: 'battle-page' },
      h('h1', { class: 'battle-title' }, v.scenario.title, h('span', { class: 'muted' }, ` — ${roleText(v)}`)),
      e.status,
      h('div', { class: 'battle' },
        h('div', { class: 'board-column' }, e.board, e.cursorText, e.orderBar),
        h('aside', { class: 'side-column' }, e.since, e.info, e.odds, e.deck, e.dice, e.list,
          h('div', { class: 'panel log-panel' }, h('h3', {}, 'Log'), e.log), e.menu)),
      e.result, e.handover));
    this.board = new Board(e.board, v.scenario, {
      onPick: (p) => this.onPick(p),
      onFacing: (d) => this.onFacing(d),
      onHover: (s) => { this.hover = s; this.renderBoard(); },
    });
    installKeys((ev) => this.onKey(ev));
    e.menu.append(
      v.role !== 'spectator' && v.mode !== 'watch' ? h('button', { class: 'secondary', id: 'resign', onclick: () => this.resign() }, 'Resign') : '',
      h('a', { href: `/game/${this.token}?replay` }, 'Replay'),
      h('a', { href: '/rules', target: 'pacw-rules' }, 'Rules'),
      h('a', { href: '/guide', target: 'pacw-rules' }, 'Guide'),
      h('a', { href: '/' }, 'Lobby'),
      settingsMenu());
  }

  render() {
    if (!this.els) return;
    this.renderStatus();
    this.renderBoard();
    this.renderOrderBar();
    this.renderInfo();
    this.renderSide();
    this.renderResult();
    this.renderHandover();
  }

  renderStatus() {
    const v = this.shown;
    const s = v.scenario;
    const who = v.to_act.side;
    const el = this.els.status;
    const parts = [];
    const left = v.activations_left !== null && v.activations_left !== undefined ? `, ${v.activations_left} activation${v.activations_left === 1 ? '' : 's'} left` : '';
    parts.push(h('span', { class: 'turn' }, `Turn ${v.turn} of ${s.turns}`));
    if (v.deck) parts.push(h('span', { class: 'card-drawn', id: 'card' }, 'Card: ', cardFace(v, v.card), left));
    if (v.result) parts.push(h('span', { class: 'whose', id: 'result' }, withRuleLinks(v.result.text)));
    else if (this.playing) parts.push(h('span', { class: 'whose playing' }, 'Showing ', sideTag(s, this.playingSide || who || v.active_side), '’s move… ', h('button', { class: 'link', onclick: () => this.skipPlayback() }, 'skip')));
    else if (v.your_turn) parts.push(h('span', { class: 'whose you', style: `--side:${sideColour(s, who)}` }, 'Your move: ', sideTag(s, who)));
    else if (v.to_act.computer) parts.push(h('span', { class: 'whose' }, sideTag(s, who), ' (computer) is thinking…'));
    else parts.push(h('span', { class: 'whose' }, 'Waiting for ', sideTag(s, who)));
    parts.push(h('span', { class: 'score muted' }, withRuleLinks(`Points ${sideName(s, 'A')} ${v.points[0]}, ${sideName(s, 'B')} ${v.points[1]} (R8.2) · ${sideName(s, 'A')} lost ${v.destroyed[0]} (exhausted at ${s.sides[0].exhaustion}), ${sideName(s, 'B')} lost ${v.destroyed[1]} (at ${s.sides[1].exhaustion}, R8.1)`)));
    if (this.connection !== 'live') parts.push(h('span', { class: 'reconnecting', id: 'reconnecting' }, 'reconnecting…'));
    if (this.error) parts.push(h('span', { class: 'error', id: 'error' }, this.error));
    el.replaceChildren(...parts);
    el.style.setProperty('--side', sideColour(s, who || v.active_side));
    document.title = v.your_turn && !v.result ? `(Your move) pacw` : `${s.title} — pacw`;
  }

  skipPlayback() {
    this.queue = [];
    this.reload();
  }

  boardState() {
    const v = this.shown;
    const ch = this.live ? this.choices : null;
    const p = this.pending;
    const state = {
      units: v.units,
      objectives: v.objectives,
      selected: this.selected,
      active: v.active_unit,
      cursor: this.cursor,
      lastMove: this.lastMove,
      selectable: new Set(),
      highlight: this.latestUnits || new Set(),
    };
    if (this.live && v.your_turn) {
      for (const a of v.legal_actions) if (a.action.activate !== undefined) state.selectable.add(a.action.activate);
    }
    if (ch?.canAct) {
      const targets = ch.targets();
      state.targets = new Map([...targets].map(([id, t]) => [id, { needed: t.needed, direct: t.direct, fireMove: Boolean(t.fireMove) }]));
      state.reachable = new Set([...ch.moveSquares()].filter((sq) => sq !== ch.at));
      if (p?.target !== undefined && (p.stage === 'attack' || p.kind === 'move_fire')) {
        state.alternative = ch.moveFireSquares(p.target);
        state.targets = new Map([[p.target, state.targets.get(p.target)]]);
      }
      if (p?.to) {
        state.picked = p.to;
        state.path = ch.reply.paths[p.to];
        if (p.facing && p.kind === 'move') {
          // From the square and facing picked, the enemies a Move & Fire could still attack.
          const also = ch.moveFireTargetsFrom(p.to, p.facing);
          state.targets = new Map([...also].map((id) => [id, { needed: ch.moveFire(id, p.to, p.facing)?.odds?.needed, direct: true }]));
        }
      } else if (this.hover && state.reachable.has(this.hover)) {
        state.path = ch.reply.paths[this.hover];
      }
      if (p?.stage === 'facing' || (p?.stage === 'confirm' && p.facings)) state.facings = { at: p.to, allowed: p.facings, chosen: p.facing };
      const sightTo = this.hover || this.cursor;
      if (sightTo && sightTo !== ch.at && !p?.to && !this.refusal?.line) {
        const { x, y } = parseSquare(sightTo);
        const blockedAt = ch.reply.sight[y * v.scenario.map.width + x];
        state.sight = { from: ch.at, to: sightTo, blockedAt };
      }
    }
    if (this.refusal) state.refused = { ...(this.refusal.line || {}), square: this.refusal.square };
    return state;
  }

  renderBoard() {
    this.board.update(this.boardState());
    this.els.board.dataset.decisions = this.shown.decisions;
    // Which unit's orders the marks show (tests wait for it).
    if (this.live && this.choices) this.els.board.dataset.choices = this.choices.reply.unit;
    else delete this.els.board.dataset.choices;
    if (this.cursor) {
      const v = this.shown;
      const u = v.units.find((x) => x.alive && x.at === this.cursor);
      const s = v.scenario.map.squares.find((q) => q.at === this.cursor);
      this.els.cursorText.textContent = `${this.cursor}: ${s.terrain.replace('_', ' ')}${u ? `, ${sideName(v.scenario, u.side)} ${u.name}` : ''}`;
    }
  }

  /// Under the board: what to do next, why a click was refused, and the buttons of the order in hand.
  renderOrderBar() {
    const v = this.shown;
    const ch = this.live ? this.choices : null;
    const p = this.pending;
    const bar = this.els.orderBar;
    const parts = [];
    const prompt = h('div', { class: 'prompt', id: 'prompt' });
    if (this.refusal) {
      prompt.classList.add('refused');
      prompt.id = 'why-not';
      prompt.append(h('strong', {}, 'Not allowed: '), withRuleLinks(this.refusal.reason));
    } else if (!this.live || !v.your_turn) {
      const watching = v.role === 'spectator' ? 'You are watching this game: select anything to read about it.' : 'Not your move: select anything to read about it.';
      prompt.append(v.result ? 'The game is over.' : this.playing ? 'Showing the other side’s move.' : watching);
    } else if (!ch) {
      prompt.append(this.selected !== null ? 'Reading the unit’s orders…' : 'Select one of your units (green dashed ring) to see what it can do, or end activations.');
    } else if (!ch.canAct) {
      prompt.append(`${v.units[ch.reply.unit].name} cannot act now: `, withRuleLinks(ch.reply.refusal?.reason || 'it is not its turn'), '. Select one of your units with a green dashed ring.');
    } else if (!p) {
      prompt.append(ch.advancing
        ? withRuleLinks('Fire & Move: move one square (taking ground, R4.4) or click the unit to stay, then pick its facing.')
        : 'Click a green dot to move, or a ringed enemy to attack (the number needed is shown; a double ring: Fire & Move too), or Hold.');
    } else if (p.stage === 'facing') {
      prompt.append(`Pick the facing at ${p.to}: click an arrow (crossed-out arrows are not allowed, `, withRuleLinks('R5.4'), ').');
    } else if (p.stage === 'attack') {
      const t = v.units[p.target];
      const ways = [];
      const squares = ch.moveFireSquares(p.target);
      if (squares.has(ch.at)) ways.push('click your unit to turn and fire');
      if ([...squares].some((sq) => sq !== ch.at)) ways.push('pick an orange square to Move & Fire from');
      if (ch.targets().get(p.target)?.fireMove) ways.push('Fire & Move');
      const intro = p.order ? `${p.order.text}. ` : `Attack ${t.name}: `;
      prompt.append(intro, ways.length ? `${p.order ? 'Or ' : ''}${ways.join(', or ')}.` : '');
    } else if (p.stage === 'confirm') {
      prompt.append(p.order.text, p.kind === 'move' && ch.moveFireTargetsFrom(p.to, p.facing).size ? ' — or click a ringed enemy to fire from there too.' : '');
    }
    const ready = p && (p.stage === 'confirm' || (p.stage === 'attack' && p.order)) ? p.order : null;
    const roll = this.live ? lastRoll(v, v.log) : null;
    if (roll) parts.push(h('div', { class: 'last-roll', id: 'last-roll' }, roll));
    parts.push(prompt);
    if (ready?.odds) parts.push(h('div', { class: 'odds-line', id: 'odds-line' }, oddsLine(ready.odds)));
    const buttons = h('div', { class: 'row buttons' });
    if (this.live && v.your_turn) {
      buttons.append(h('button', { 'data-confirm': '', id: 'confirm', disabled: !ready || this.busy, onclick: () => this.confirm() }, ready ? `Confirm: ${ready.text}` : 'Confirm'));
      if (ch?.canAct && ch.hold()) buttons.append(h('button', { class: 'secondary', 'data-order': 'hold', onclick: () => this.hold() }, 'Hold'));
      if (p?.target !== undefined && ch?.targets().get(p.target)?.fireMove) buttons.append(h('button', { class: 'secondary', 'data-order': 'fire_move', onclick: () => this.fireMove() }, 'Fire & Move'));
      if (v.legal_actions.some((a) => a.action === 'end_activations')) buttons.append(h('button', { class: 'secondary', 'data-order': 'end', id: 'end-activations', onclick: () => this.endActivations() }, 'End activations'));
      if (p || this.refusal) buttons.append(h('button', { class: 'secondary', onclick: () => this.cancel() }, 'Cancel'));
    }
    if (this.live && this.view.undo?.possible) buttons.append(h('button', { class: 'secondary', id: 'undo', onclick: () => this.undo() }, 'Undo'));
    parts.push(buttons);
    const focused = document.activeElement?.closest?.('#order-bar button')?.textContent;
    bar.replaceChildren(...parts);
    if (focused) [...bar.querySelectorAll('button')].find((b) => b.textContent === focused)?.focus();
  }

  renderInfo() {
    const v = this.shown;
    const parts = [];
    if (this.selected !== null && v.units[this.selected]) parts.push(unitInfo(v, this.selected));
    if (this.inspected !== null && this.inspected !== undefined && v.units[this.inspected]) parts.push(h('div', { class: 'target-info' }, unitInfo(v, this.inspected)));
    const square = this.square || (this.selected !== null ? v.units[this.selected]?.at : null);
    if (square && (this.selected === null || square !== v.units[this.selected]?.at || this.square)) parts.push(squareInfo(v, square));
    if (!parts.length) parts.push(h('p', { class: 'muted' }, 'Select a unit, a square or an objective to read about it.'));
    this.els.info.replaceChildren(...parts);
    const p = this.pending;
    const odds = p?.order?.odds;
    this.els.odds.hidden = !odds;
    if (odds) this.els.odds.replaceChildren(oddsBox(v, odds, p.order.text));
  }

  renderSide() {
    const v = this.shown;
    const e = this.els;
    e.deck.replaceChildren(h('h3', {}, 'Cards'), deckPanel(v));
    e.dice.replaceChildren(h('h3', {}, 'Dice'), diceTray(v, v.log, this.freshFrom));
    // The log grows line by line, so that a screen reader announces only the new lines.
    const have = e.log.children.length;
    const firstShown = e.log.firstChild ? Number(e.log.firstChild.dataset.index) : 0;
    if (have > v.log.length || firstShown !== 0 || [...e.log.children].some((c, i) => Number(c.dataset.index) !== v.log[i]?.index)) e.log.replaceChildren();
    for (const entry of v.log.slice(e.log.children.length)) e.log.append(logLine(v, entry));
    e.log.scrollTop = e.log.scrollHeight;
    e.since.replaceChildren();
    if (this.since.length && this.live) {
      // Each decision by what it did: its first event (activated, moved, fired …) and the results that followed.
      const worth = new Set(['attack', 'to_hit_rolled', 'hit_result_rolled', 'retreated', 'destroyed', 'objective_taken', 'card_drawn', 'game_over']);
      const line = (s) => {
        const [main, ...rest] = s.events.length ? s.events : [{ text: s.text, event: {} }];
        return h('li', { class: 'log-line', style: `--side:${sideColour(v.scenario, s.side)}` }, withRuleLinks(main.text),
          ...rest.filter((e) => worth.has(e.event.event)).map((e) => h('div', { class: 'muted' }, withRuleLinks(e.text))));
      };
      e.since.append(h('details', { class: 'panel', open: true }, h('summary', {}, `Since your last decision (${this.since.length})`),
        h('ol', {}, ...this.since.map(line))));
    }
    this.renderOrderList();
  }

  /// The text list of orders: a fallback to the board, and for screen readers.
  renderOrderList() {
    const v = this.shown;
    const list = this.els.list;
    const open = list.open;
    const focusKey = list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const items = [];
    if (this.live && v.your_turn) {
      if (this.choices?.canAct) {
        for (const o of this.choices.orders) {
          items.push(h('button', { class: `order${o.odds ? ' attack' : ''}`, 'data-key': JSON.stringify(o.action), onclick: () => this.setConfirm({ order: o, kind: kindOf(o.action)[0] }) }, o.text));
        }
      } else {
        for (const a of v.legal_actions) {
          const unit = a.action.activate;
          items.push(h('button', { class: 'order', 'data-key': JSON.stringify(a.action), onclick: () => (unit !== undefined ? this.select(unit) : this.endActivations()) }, unit !== undefined ? `Select ${a.text.replace(/^Activate /, '')}` : a.text));
        }
      }
    }
    list.replaceChildren(h('summary', {}, `Orders as a list (${items.length})`), h('div', { class: 'orders' }, ...items));
    list.open = open;
    // Keep the keyboard in the list: on the same order, or on the first of a new list (a unit just selected).
    if (focusKey) (list.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) || list.querySelector('button.order'))?.focus();
  }

  renderResult() {
    const v = this.view;
    const box = this.els.result;
    const resign = this.els.menu.querySelector('#resign');
    if (resign) resign.hidden = Boolean(v.result);
    if (!v.result || !this.live) {
      box.hidden = true;
      return;
    }
    if (box.dataset.decisions === String(v.decisions) && !box.hidden) return;
    box.dataset.decisions = String(v.decisions);
    box.hidden = this.resultClosed === v.decisions;
    const save = h('a', { href: `/api/play/${this.token}/save`, download: `pacw-${v.scenario.name}-${v.id}.json`, class: 'button secondary', id: 'download-save' }, 'Download the save');
    box.replaceChildren(h('div', { class: 'panel result-card', role: 'dialog', 'aria-label': 'Result' },
      h('h2', {}, 'Game over'), resultHeadline(v), ...losses(v), v.ledger ? ledgerTable(v) : '',
      h('div', { class: 'row' },
        h('button', { id: 'rematch', onclick: () => this.rematch() }, 'Rematch (sides swapped)'), save,
        h('a', { href: `/game/${this.token}?replay`, class: 'button secondary' }, 'Replay'),
        h('button', { class: 'secondary', id: 'forget', onclick: () => { forget(this.token); location.href = '/'; } }, 'Remove from your games'),
        h('button', { class: 'secondary', id: 'close-result', onclick: () => { this.resultClosed = v.decisions; box.hidden = true; } }, 'Look at the board'))));
  }

  /// Hot-seat: a screen between the sides, so each player looks only at his own turn (optional, on by default).
  renderHandover() {
    const v = this.view;
    const box = this.els.handover;
    const side = v.your_turn ? v.to_act.side : null;
    if (v.mode !== 'hotseat' || !setting(`handover-${this.token}`, setting('handover', true)) || !side || v.result || !this.live) {
      box.hidden = true;
      if (side) this.handedTo = side;
      return;
    }
    if (this.handedTo === null) this.handedTo = side;
    if (this.handedTo === side) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(h('div', { class: 'panel handover-card' },
      h('h2', {}, 'Hand over to ', sideTag(v.scenario, side)),
      h('p', {}, `It is ${sideName(v.scenario, side)}'s move. Pass the screen, then:`),
      h('button', { 'data-handover': '', autofocus: true, onclick: () => { this.handedTo = side; this.select(null); } }, `I play ${sideName(v.scenario, side)}: show the board`),
      h('label', {}, h('input', { type: 'checkbox', onchange: (e) => { setSetting(`handover-${this.token}`, !e.target.checked); this.render(); } }), ' no hand-over screen in this game')));
  }

  /// Sound and notification when it becomes this page's move (if switched on).
  announceTurn() {
    const mine = this.view.your_turn && !this.view.result;
    if (mine && this.wasMine === false) {
      if (setting('sound', false)) beep();
      if (setting('notify', false) && (document.hidden || !document.hasFocus()) && 'Notification' in window && Notification.permission === 'granted') {
        new Notification('pacw: your move', { body: this.view.scenario.title });
      }
    }
    this.wasMine = mine;
  }
}

function roleText(v) {
  if (v.role === 'spectator') return 'watching';
  if (v.role === 'hotseat') return 'hot-seat';
  const s = v.scenario.sides.find((x) => x.side === v.role);
  return s ? `you play ${s.name}` : v.role;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
  } catch { /* no sound */ }
}

/// The page's settings: sound, notification, the pace of the other side's moves.
function settingsMenu() {
  const check = (name, text, after) => h('label', {}, h('input', { type: 'checkbox', checked: setting(name, false), onchange: async (e) => { setSetting(name, e.target.checked); if (after) await after(e); } }), ` ${text}`);
  const pace = h('select', { 'aria-label': 'Pace of the other side’s moves', onchange: (e) => setSetting('pace', Number(e.target.value)) },
    ...[[0, 'at once'], [400, 'quick'], [700, 'normal'], [1200, 'slow']].map(([ms, text]) => h('option', { value: ms, selected: setting('pace', 700) === ms }, text)));
  return h('details', { class: 'settings' }, h('summary', {}, 'Settings'),
    check('sound', 'a sound when it becomes your move'),
    check('notify', 'a browser notification when it becomes your move (browsers allow it only on https or localhost)', async (e) => {
      if (e.target.checked && 'Notification' in window) await Notification.requestPermission();
    }),
    h('label', {}, 'Show the other side’s moves ', pace));
}
