// The battle page: board, card and deck, orders with their exact odds, dice, log, undo, replay and luck ledger.

import { api } from './api.js';
import { renderBoard } from './board.js';
import { h, percent } from './util.js';

const RESULTS = ['miss', 'shaken', 'retreat', 'destroyed', 'stand'];

export async function showBattle(app, token, replayMode) {
  const page = new Battle(app, token, replayMode);
  await page.start();
}

class Battle {
  constructor(app, token, replayMode) {
    this.app = app;
    this.token = token;
    this.replayMode = replayMode;
    this.view = null;
    this.filter = null; // { square } or { target }: narrows the orders list after a click on the board
    this.selected = null; // index of the chosen legal action
    this.seenLog = 0;
    this.error = '';
    this.busy = false;
  }

  async start() {
    try {
      this.view = await api.view(this.token);
    } catch (e) {
      this.app.innerHTML = '';
      this.app.append(h('p', { class: 'error' }, `This game cannot be opened: ${e.message}`), h('a', { href: '/' }, 'Back to the lobby'));
      return;
    }
    this.seenLog = this.view.log_len;
    if (this.replayMode) {
      this.replay = { at: 0, of: this.view.decisions };
      await this.showReplayAt(0);
      return;
    }
    this.render();
    this.listen();
  }

  listen() {
    const source = api.events(this.token);
    // The stream opens with the game's revision: moves made between loading the view and subscribing (the
    // computer's, say) or while reconnecting would otherwise never reach this page.
    source.addEventListener('hello', () => this.reload());
    source.addEventListener('update', (ev) => {
      const update = JSON.parse(ev.data);
      if (!this.view || update.revision > this.view.revision) this.reload();
    });
    source.addEventListener('resync', () => this.reload());
    source.onerror = () => { /* EventSource reconnects by itself */ };
  }

  async reload() {
    try {
      const view = await api.view(this.token);
      // A restarted server counts revisions afresh, so a change in decisions counts too.
      if (!this.view || view.revision >= this.view.revision || view.decisions !== this.view.decisions) {
        this.adopt(view);
      }
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  adopt(view) {
    const decisionsChanged = !this.view || view.decisions !== this.view.decisions;
    this.view = view;
    if (decisionsChanged) {
      this.filter = null;
      this.selected = null;
    }
    this.render();
  }

  async act(index) {
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      const view = await api.act(this.token, index, this.view.decisions);
      this.filter = null;
      this.selected = null;
      if (view && view.legal_actions) this.adopt(view); else await this.reload();
    } catch (e) {
      this.error = e.message;
      await this.reload();
    } finally {
      this.busy = false;
    }
  }

  async undo() {
    this.error = '';
    try {
      const view = await api.undo(this.token);
      this.filter = null;
      this.selected = null;
      if (view && view.legal_actions) this.adopt(view); else await this.reload();
    } catch (e) {
      this.error = e.message;
      this.render();
    }
  }

  /// Legal actions of interest: all of them, or those matching the last board click.
  actions() {
    const v = this.view;
    if (!v.your_turn) return [];
    return v.legal_actions.filter((a) => {
      if (!this.filter) return true;
      const x = a.action;
      const body = typeof x === 'object' ? Object.values(x)[0] : null;
      if (this.filter.square && body && body.to === this.filter.square) return true;
      if (this.filter.target !== undefined && a.odds && a.odds.target === this.filter.target) return true;
      return false;
    });
  }

  onBoardClick({ unit, square }) {
    const v = this.view;
    if (!v || !v.your_turn) return;
    const activate = v.legal_actions.find((a) => a.action.activate === unit && unit !== null);
    if (activate) {
      this.act(activate.index);
      return;
    }
    const targeted = unit !== null && v.legal_actions.some((a) => a.odds && a.odds.target === unit);
    if (targeted) this.filter = { target: unit };
    else if (square && v.legal_actions.some((a) => typeof a.action === 'object' && Object.values(a.action)[0].to === square)) this.filter = { square };
    else this.filter = null;
    const matching = this.actions();
    this.selected = matching.length ? matching[0].index : null;
    this.render();
  }

  status() {
    const v = this.view;
    const side = (s) => v.scenario.sides.find((x) => x.side === s).name;
    if (v.result) return h('div', { class: 'banner', id: 'result' }, v.result.text);
    const who = v.to_act.side ? side(v.to_act.side) : '';
    const unit = v.active_unit !== null && v.active_unit !== undefined ? v.units[v.active_unit] : null;
    let line;
    if (this.replay) {
      line = [`Replay: decision ${this.replay.at} of ${this.replay.of}; ${who} to act`];
    } else if (v.your_turn) {
      line = [h('span', { class: 'you' }, `Your move (${who})`), unit ? `: orders for ${unit.name} at ${unit.at}` : ': click a unit with a green ring to activate it, or end activations'];
    } else if (v.to_act.computer) {
      line = [`The computer is moving for ${who}…`];
    } else {
      line = [`Waiting for ${who}`];
    }
    const left = v.activations_left !== null && v.activations_left !== undefined ? ` · ${v.activations_left} activation(s) left on this card` : '';
    return h('div', { class: 'status panel', id: 'status' }, h('div', {}, `Turn ${v.turn} of ${v.scenario.turns}${left}`), h('div', {}, ...line),
      h('div', { class: 'muted' }, `Points ${side('A')} ${v.points[0]}, ${side('B')} ${v.points[1]} · lost ${v.destroyed[0]}/${v.scenario.sides[0].exhaustion} and ${v.destroyed[1]}/${v.scenario.sides[1].exhaustion}`));
  }

  deckPanel() {
    const v = this.view;
    if (!v.deck) return h('div', { class: 'panel deck' }, h('h3', {}, 'Initiative'), `${v.options.initiative}: by dice rolls (R3.7)`);
    const colour = (card) => (card.side ? v.scenario.sides.find((s) => s.side === card.side).colour : 'joker');
    const cardBox = (c) => h('span', { class: `card ${colour(c)}` }, c.text);
    const sideName = (s) => v.scenario.sides.find((x) => x.side === s).name;
    return h('div', { class: 'panel deck', id: 'deck' },
      h('h3', {}, 'Cards'),
      h('div', {}, 'Drawn: ', v.card ? cardBox(v.card) : h('span', { class: 'muted' }, 'none yet')),
      h('div', { class: 'chances' }, `${v.deck.left} left · next card: ${sideName('A')} ${v.deck.next.A}, ${sideName('B')} ${v.deck.next.B}, Joker ${v.deck.next.joker}`),
      h('div', { class: 'chances muted' }, v.deck.cards.map((c) => `${c.text} ×${c.count}`).join(' · ')));
  }

  ordersPanel() {
    const v = this.view;
    const panel = h('div', { class: 'panel', id: 'orders' }, h('h3', {}, 'Orders'));
    if (!v.your_turn) {
      panel.append(h('p', { class: 'muted' }, v.result ? 'The game is over.' : 'Not your turn.'));
      return panel;
    }
    const list = h('div', { class: 'orders' });
    for (const a of this.actions()) {
      const hit = a.odds ? ` — hit ${percent(a.odds.decimals.hit)}` : '';
      list.append(h('button', {
        class: `order${a.odds ? ' attack' : ''}${a.index === this.selected ? ' selected' : ''}`,
        'data-index': a.index,
        onclick: () => { this.selected = a.index; this.render(); },
        ondblclick: () => this.act(a.index),
      }, `${a.text}${hit}`));
    }
    if (this.filter) panel.append(h('p', {}, h('button', { class: 'secondary', onclick: () => { this.filter = null; this.render(); } }, 'Show every order')));
    panel.append(list);
    const chosen = v.legal_actions.find((a) => a.index === this.selected);
    if (chosen) {
      if (chosen.odds) panel.append(oddsBox(chosen.odds, v));
      panel.append(h('p', {}, h('button', { id: 'confirm', onclick: () => this.act(chosen.index) }, `Confirm: ${chosen.text}`)));
    }
    return panel;
  }

  dicePanel() {
    const v = this.view;
    const tray = h('div', { class: 'dice-tray', id: 'dice' });
    // The dice of the last attack, animated when they are new.
    const log = v.log;
    let i = log.length - 1;
    while (i >= 0 && log[i].event.event !== 'attack') i--;
    if (i >= 0) {
      const fresh = log[i].index >= this.seenLog;
      for (const entry of log.slice(i + 1)) {
        const e = entry.event;
        if (e.event === 'to_hit_rolled') tray.append(h('div', { class: `die${e.hit ? ' hit' : ''}${fresh ? ' roll' : ''}`, title: e.hit ? 'hit' : 'miss' }, e.roll));
        if (e.event === 'hit_result_rolled') tray.append(h('div', { class: `die hit${fresh ? ' roll' : ''}`, title: e.result }, e.roll), h('span', {}, e.result));
      }
    }
    return h('div', { class: 'panel' }, h('h3', {}, 'Dice'), tray);
  }

  logPanel() {
    const v = this.view;
    const box = h('div', { class: 'log', id: 'log' });
    for (const entry of v.log) {
      const kind = entry.event.event;
      const cls = kind === 'to_hit_rolled' || kind === 'hit_result_rolled' ? 'dice' : kind === 'card_drawn' ? 'card-line' : '';
      box.append(h('div', { class: cls }, entry.text));
    }
    const panel = h('div', { class: 'panel' }, h('h3', {}, 'Log'), box);
    requestAnimationFrame(() => { box.scrollTop = box.scrollHeight; });
    return panel;
  }

  controls() {
    const v = this.view;
    const row = h('div', { class: 'row' });
    const end = v.your_turn && v.legal_actions.find((a) => a.action === 'end_activations');
    if (end) row.append(h('button', { class: 'secondary', id: 'end-activations', onclick: () => this.act(end.index) }, 'End activations'));
    row.append(h('button', { class: 'secondary', id: 'undo', disabled: !v.undo.possible, onclick: () => this.undo() }, 'Undo'));
    row.append(h('a', { href: `/game/${this.token}?replay` }, 'Replay'), h('a', { href: '/' }, 'Lobby'));
    return h('div', { class: 'panel' }, row, this.error ? h('div', { class: 'error', id: 'error' }, this.error) : '');
  }

  boardState() {
    const v = this.view;
    const state = { units: v.units, objectives: v.objectives, activeUnit: v.active_unit, selectable: new Set(), targets: new Set(), squares: new Set() };
    if (v.your_turn) {
      for (const a of v.legal_actions) {
        if (a.action.activate !== undefined) state.selectable.add(a.action.activate);
        if (a.odds) state.targets.add(a.odds.target);
        const body = typeof a.action === 'object' ? Object.values(a.action)[0] : null;
        if (body && body.to && !(a.action.advance && body.to === v.units[v.active_unit]?.at)) state.squares.add(body.to);
      }
    }
    const chosen = v.legal_actions.find((a) => a.index === this.selected);
    if (chosen && typeof chosen.action === 'object') {
      const body = Object.values(chosen.action)[0];
      if (body.to) state.preview = body.to;
      if (chosen.odds) state.targets = new Set([chosen.odds.target]);
    }
    return state;
  }

  render() {
    const v = this.view;
    this.app.innerHTML = '';
    const boardBox = h('div', { class: 'board-wrap', id: 'board' });
    const side = h('div');
    this.app.append(h('h2', {}, v.scenario.title, h('span', { class: 'muted' }, ` — ${roleText(v)}`)), h('div', { class: 'battle' }, h('div', {}, boardBox, this.replay ? this.replayControls() : ''), side));
    renderBoard(boardBox, v.scenario, this.boardState(), (click) => this.onBoardClick(click));
    side.append(this.status());
    if (v.result && v.ledger) side.append(ledgerPanel(v));
    if (!this.replay) side.append(this.controls(), this.ordersPanel());
    side.append(this.dicePanel(), this.deckPanel(), this.logPanel());
    this.seenLog = v.log_from + v.log.length;
  }

  async showReplayAt(k) {
    try {
      const view = await api.replayAt(this.token, k);
      this.replay.at = k;
      this.view = view;
      this.render();
    } catch (e) {
      this.app.append(h('p', { class: 'error' }, e.message));
    }
  }

  replayControls() {
    const { at, of } = this.replay;
    const slider = h('input', { type: 'range', min: 0, max: of, value: at, id: 'replay-slider', onchange: (e) => this.showReplayAt(Number(e.target.value)) });
    return h('div', { class: 'panel row', id: 'replay' },
      h('button', { class: 'secondary', disabled: at === 0, onclick: () => this.showReplayAt(at - 1) }, '◀'),
      slider,
      h('button', { class: 'secondary', id: 'replay-next', disabled: at >= of, onclick: () => this.showReplayAt(at + 1) }, '▶'),
      h('span', {}, `decision ${at} of ${of}`),
      h('a', { href: `/game/${this.token}` }, 'back to the game'));
  }
}

function roleText(v) {
  if (v.role === 'spectator') return 'watching';
  if (v.role === 'hotseat') return 'hot-seat';
  const s = v.scenario.sides.find((x) => x.side === v.role);
  return s ? `you play ${s.name}` : v.role;
}

/// The exact odds of an attack with its modifiers and their rule ids (RULES.md R6.4, R7.1).
function oddsBox(odds, v) {
  const target = v.units[odds.target];
  const mods = odds.modifiers.length
    ? odds.modifiers.map((m) => h('div', {}, `${m.rule} ${m.value > 0 ? '+' : ''}${m.value} ${m.reason}`))
    : [h('div', { class: 'muted' }, 'no modifiers')];
  const rows = RESULTS.filter((r) => r !== 'stand' || odds.fractions.stand !== '0').map((r) =>
    h('tr', {}, h('td', {}, r), h('td', {}, odds.fractions[r]), h('td', {}, percent(odds.decimals[r])), h('td', {}, h('span', { class: 'bar', style: `width:${Math.round(odds.decimals[r] * 120)}px` }))));
  return h('div', { class: 'odds panel', id: 'odds' },
    h('strong', {}, `${odds.charge ? 'Charge' : 'Fire'} at ${target.name} (strength ${odds.target_strength}${odds.target_shaken ? ', shaken' : ''}): needs ${odds.needed}+`),
    ...mods,
    odds.retreat_blocked ? h('div', {}, 'R7.4: the target has nowhere to retreat') : '',
    h('table', {}, ...rows));
}

/// Each side's expected against actual results of its attacks, from the exact odds.
function ledgerPanel(v) {
  const keys = ['hit', 'shaken', 'retreat', 'destroyed'];
  const rows = v.ledger.sides.map((s) => {
    const name = v.scenario.sides.find((x) => x.side === s.side).name;
    return h('tr', {}, h('td', {}, `${name} (${s.attacks} attacks)`), ...keys.map((k) => h('td', {}, `${(s.expected_decimal[k] ?? 0).toFixed(2)} / ${s.actual[k] ?? 0}`)));
  });
  return h('div', { class: 'panel ledger', id: 'ledger' }, h('h3', {}, 'Luck ledger: expected / actual'),
    h('table', {}, h('tr', {}, h('th', {}, ''), ...keys.map((k) => h('th', {}, k))), ...rows));
}
