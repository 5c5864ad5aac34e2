// The battle page: the board is the interface. Select a unit, square or objective to read about it; select one of
// your units to see what it can do, then click a square (and a facing), an enemy, and confirm. The opponent's
// decisions are played back as they happen; the log, dice, cards, odds and result sit beside the board.

import { api, gameHref, pageHref } from './api.js';
import { moveArrows, neighbour } from './board.js';
import { squareName } from './squares.js';
import { announceTurn, layout, render, renderStatus } from './battle-view.js';
import { remember, setShownDecisions, setting, shownDecisions } from './games.js';
import { pauseFor } from './pace.js';
import { UnitChoices, kindOf } from './orders.js';
import { lastRoll } from './panels.js';
import { h } from './util.js';
import { ChatPanel } from './chat.js';
import * as Selection from './selection.js';
import { TakebackPanel } from './takeback.js';
import { DeadlinePanel } from './deadline.js';
import { DrawPanel } from './draw.js';

export async function showBattle(app, token) {
  const page = new Battle(app, token);
  await page.start();
  return page;
}

const ARROWS = { ArrowUp: 'N', ArrowRight: 'E', ArrowDown: 'S', ArrowLeft: 'W' };

/// The battle page. Its selection is one value (`this.selection`, selection.js: the stages and their transitions),
/// drawn by `render` and replaced only through those transitions, by the methods below. An order given, or a new
/// card, starts afresh (`adopt`). Requests go one at a time (`whileBusy`).
class Battle {
  constructor(app, token) {
    this.app = app;
    this.token = token;
    this.view = null; // the live view, its log merged in `this.log`
    this.log = [];
    this.shown = null; // the view on screen: the live one, or a past one while playing back
    this.selection = Selection.idle; // the unit selected, its orders, the order being built, the last refusal
    this.square = null; // the square last picked or under the keyboard cursor
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
    this.yourRoll = null; // the dice of this page's last attack, kept in view until the player moves on
  }

  // ------------------------------------------------------------------ loading and following the game

  async start() {
    try {
      this.view = await api.view(this.token);
    } catch (e) {
      this.app.replaceChildren(h('p', { class: 'error' }, `This game cannot be opened: ${e.message}`), h('a', { href: pageHref('') }, 'Back to the lobby'));
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
    source.addEventListener('update', (ev) => {
      // A move passed, or the game ended: the deadline and any draw offer (which lapses when its side plays on) anew.
      this.deadline?.refresh();
      this.drawOffer?.refresh();
      this.onUpdate(JSON.parse(ev.data));
    });
    source.addEventListener('chat', (ev) => this.chat?.add(JSON.parse(ev.data)));
    source.addEventListener('takeback', (ev) => this.takeback?.show(JSON.parse(ev.data)));
    source.addEventListener('draw', (ev) => this.drawOffer?.show(JSON.parse(ev.data)));
    source.addEventListener('resync', () => this.reload());
    source.onerror = () => {
      this.connection = 'reconnecting';
      renderStatus(this);
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
          await sleep(pauseFor(update.events, pace));
          continue;
        } catch { /* the game changed under us (an undo): fall through to the live view */ }
      }
      await this.reload(update.events);
      if (pace > 0 && this.queue.length) await sleep(pauseFor(update.events, pace));
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
      this.skipped = false;
      for (const step of steps) {
        if (this.skipped) break;
        this.playingSide = step.side;
        try {
          const past = await api.replayAt(this.token, step.decision);
          this.showPast(past, step.events);
          await sleep(this.mine(step.side, step.computer) ? 0 : pauseFor(step.events, pace));
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
      renderStatus(this);
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
      const s = this.selection;
      const keep = s.unit !== null && view.units[s.unit]?.alive && !newCard && !this.ordered;
      this.selection = Selection.movedOn(s, view.your_turn ? view.active_unit : null, keep);
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
      this.selection = Selection.withChoices(this.selection, unit, new UnitChoices(reply, this.view.units[unit].at));
      this.render();
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  /// The selection's stage (selection.js): 'idle', 'selected', 'attack', 'facing' or 'confirm'.
  get stage() {
    return Selection.stage(this.selection);
  }

  // What the page draws reads the selection through these.
  get selected() { return this.selection.unit; }
  get choices() { return this.selection.choices; }
  get pending() { return this.selection.pending; }
  get refusal() { return this.selection.refusal; }
  get inspected() { return this.selection.inspected; }

  /// The order Confirm gives now: a whole order, or an attack whose order needs no square or facing; else null.
  get readyOrder() {
    const stage = this.stage;
    return stage === 'confirm' || stage === 'attack' ? this.pending.order || null : null;
  }

  /// Whether a facing is to be chosen now (while facing, or changed again before confirming).
  get choosingFacing() {
    return (this.stage === 'facing' || this.stage === 'confirm') && Boolean(this.pending.facings);
  }

  select(unit) {
    // Picking a unit on one's own move is moving on: the dice of the last attack are read.
    if (this.view?.your_turn) this.yourRoll = null;
    this.selection = Selection.selected(unit);
    if (unit !== null) this.fetchChoices(unit);
    this.render();
  }

  refuse(refusal, extra = {}) {
    this.selection = Selection.refused(this.selection, refusal, extra);
    this.render();
  }

  /// A click (or Enter) on the board: a unit, or a square.
  onPick({ unit, square }) {
    if (square) this.square = square;
    this.selection = Selection.refused(this.selection, null);
    const v = this.shown;
    if (!this.live || !v) {
      // Not our move, or a past position: a unit is selected to read about, with no order under way.
      if (unit !== null) this.selection = Selection.selected(unit);
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
    this.selection = Selection.inspecting(this.selection, enemy.id);
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
      // The engine names the square that blocks the line of sight when that is why (its refusal's `blocked_at`).
      return this.refuse(why, why?.blocked_at ? { line: { from: ch.at, to: enemy.at, blockedAt: why.blocked_at } } : { square: enemy.at });
    }
    const facings = Object.values(ch.fireFacings(enemy.id)).filter(Boolean).length;
    if (facings > 1) return this.startFacing(ch.at, 'fire', enemy.id);
    this.selection = Selection.attacking(this.selection, enemy.id, t.fire[0] || null);
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
    this.selection = Selection.facing(this.selection, kind, square, target, facings);
    this.render();
  }

  async onFacing(dir) {
    const p = this.pending;
    const ch = this.choices;
    if (!this.choosingFacing) return;
    if (!p.facings[dir]) {
      const probe = p.kind === 'move'
        ? (ch.advancing ? { advance: { to: p.to, facing: dir } } : { move: { to: p.to, facing: dir } })
        : p.kind === 'move_fire' ? { move_fire: { to: p.to, facing: dir, target: p.target } } : { fire: { target: p.target, facing: dir } };
      try {
        const why = await api.explain(this.token, ch.reply.unit, probe);
        // The engine's refusal, with its rule; none would mean the orders listed are stale: read them again.
        if (why.refusal) this.refuse(why.refusal, { square: p.to });
        else this.reload();
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
    this.selection = Selection.whole(this.selection, p);
    this.render();
  }

  /// Gives the pending order: the unit's activation first when it is not yet activated (two guarded decisions).
  async confirm(order = this.readyOrder) {
    if (!order || this.busy || !this.live) return;
    await this.give(order.action);
  }

  /// Sends one request to the server at a time: while one is under way the others are ignored (a double click
  /// gives one order). On failure the error is shown and, with `reloadOnError`, the game is read again, since the
  /// server may have taken part of a two-step order.
  async whileBusy(request, { reloadOnError = true } = {}) {
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      await request();
    } catch (e) {
      this.error = e.message;
      if (reloadOnError) await this.reload();
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async give(action) {
    const ch = this.choices;
    if (!ch) return;
    await this.whileBusy(async () => {
      let n = ch.reply.decisions;
      if (ch.reply.activate) {
        await api.act(this.token, ch.reply.activate, n);
        n += 1;
      }
      const view = await api.act(this.token, action, n);
      this.since = [];
      this.mark(moveArrows(view.log, view), false);
      this.ordered = true;
      // The dice of an attack stay under the board until the player moves on, even when the card ends with it and
      // the other side's moves follow at once (they would replace them).
      this.yourRoll = lastRoll(view, view.log);
      this.adopt(view);
    });
  }

  async hold() {
    const order = this.choices?.hold();
    if (order) await this.give(order.action);
  }

  /// The units that may be given an order now, in the order the server lists them (the active one alone while it acts).
  readyUnits() {
    const v = this.view;
    if (!this.live || !v?.your_turn) return [];
    if (v.active_unit !== null && v.active_unit !== undefined) return [v.active_unit];
    return v.legal_actions.map((a) => a.action.activate).filter((u) => u !== undefined);
  }

  /// `n`: selects the next unit ready to act after the one selected (round the list), with the cursor on it.
  selectNextReady() {
    const ready = this.readyUnits();
    if (!ready.length) return;
    const next = ready[(ready.indexOf(this.selected) + 1) % ready.length];
    this.cursor = this.view.units[next].at;
    this.square = this.cursor;
    this.select(next);
  }

  async fireMove() {
    const t = this.pending?.target;
    const order = t !== undefined ? this.choices?.targets().get(t)?.fireMove : null;
    if (order) this.setConfirm({ ...this.pending, kind: 'fire_move', order });
  }

  async endActivations() {
    const v = this.view;
    const end = v.your_turn && v.legal_actions.find((a) => a.action === 'end_activations');
    if (!end) return;
    await this.whileBusy(async () => {
      const view = await api.act(this.token, 'end_activations', v.decisions);
      this.selection = Selection.idle;
      this.yourRoll = null;
      this.since = [];
      this.mark([], false);
      this.adopt(view);
    });
  }

  async undo() {
    const v = this.view;
    if (!v.undo.possible) {
      // Say why, rather than do nothing.
      if (v.undo.why_not && !v.result) this.refuse({ reason: `Undo is not possible: ${v.undo.why_not}` });
      return;
    }
    await this.whileBusy(async () => {
      const view = await api.undo(this.token, v.undo.last_order || 1, v.decisions);
      this.log = [];
      this.selection = Selection.idle;
      this.mark([], false);
      this.adopt(view);
    }, { reloadOnError: false });
  }

  cancel() {
    const s = this.selection;
    // Nothing under way: the unit is let go, as picking another would (the last attack's dice are read).
    if (!s.pending && !s.refusal) return this.select(null);
    this.selection = Selection.cancelled(s);
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
      location.href = gameHref(token);
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
      if (this.choosingFacing) {
        this.onFacing(this.board.screenDirection(ARROWS[ev.key]));
        return true;
      }
      const start = this.cursor || (this.selected !== null ? v.units[this.selected].at : null);
      // The first arrow puts the cursor on a unit ready to act (else the corner); the next ones move it.
      const ready = v.units[this.readyUnits()[0]]?.at;
      this.cursor = start ? neighbour(v.scenario.map, start, this.board.screenDirection(ARROWS[ev.key])) || start : ready || squareName(0, 0);
      this.square = this.cursor;
      this.board.svg.parentElement.focus({ preventScroll: true });
      this.render();
      return true;
    }
    if (ev.key === 'Enter' || ev.key === ' ') {
      if (this.readyOrder) {
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
    if (ev.key === 'n') this.selectNextReady();
    else if (ev.key === 'f') this.fireMove();
    else if (ev.key === 'z') this.undo();
    else if (ev.key === 'e') this.endActivations();
    else if (ev.key === 'h') this.hold();
    else return false;
    return true;
  }

  // ------------------------------------------------------------------ the page

  /// "Skip to my move": the decisions still to play back are dropped and the game is shown as it stands.
  skipPlayback() {
    this.queue = [];
    this.skipped = true;
    this.reload();
  }

  /// Draws the page from its state (battle-view.js).
  render() {
    render(this);
  }

  layout() {
    // The players of a two-player game have their chat (a spectator's link has none); made once, kept across
    // re-layouts.
    if (!this.chat && this.view.mode === 'two_players' && ['A', 'B'].includes(this.view.role)) {
      this.chat = new ChatPanel(this);
      this.takeback = new TakebackPanel(this);
      this.drawOffer = new DrawPanel(this);
    }
    // A two-player game's pace and deadline, for its players and its spectators alike (hidden when live).
    if (!this.deadline && this.view.mode === 'two_players') this.deadline = new DeadlinePanel(this);
    layout(this);
  }

  announceTurn() {
    announceTurn(this);
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

