// The battle page's drawing: its layout, the status bar, the board's marks for the selection, the order bar under
// the board, the panels beside it, the result and hand-over screens, and the signals that it is your move. Each
// function draws from the page's state (battle.js) and never changes the game.

import { api, gameHref, pageHref } from './api.js';
import { Board } from './board.js';
import { parseSquare } from './squares.js';
import { forget, setSetting, setting } from './games.js';
import { installKeys } from './keys.js';
import { kindOf } from './orders.js';
import { cardFace, chancesBar, chargeWord, deckPanel, reinforcementsPanel, diceTray, dieIcon, lastRoll, ledgerTable, logLine, losses, oddsBox, oddsLine, resultHeadline, resultWord, squareInfo, unitInfo } from './panels.js';
import { h, percent, pressWord, setRulesPage, sideColour, sideName, sideTag, withRuleLinks } from './util.js';
import { BoardZoom } from './zoom.js';

export function layout(page) {
  const v = page.view;
  page.els = {
    status: h('div', { class: 'status-bar', id: 'status' }),
    barometer: h('div', { class: 'barometer', id: 'barometer', hidden: true }),
    hoverCard: h('div', { class: 'hover-card', id: 'hover-card', role: 'tooltip', hidden: true }),
    board: h('div', { class: 'board-wrap', id: 'board', tabindex: 0, 'aria-label': 'The board: arrow keys move the cursor, Enter selects, ? lists the keys' }),
    cursorText: h('div', { class: 'visually-hidden', 'aria-live': 'polite' }),
    orderBar: h('div', { class: 'order-bar', id: 'order-bar' }),
    info: h('div', { class: 'panel info', id: 'info' }),
    odds: h('div', { class: 'panel odds-panel', id: 'odds-panel' }),
    since: h('div', { class: 'since', id: 'since' }),
    dice: h('div', { class: 'panel', id: 'dice-panel' }),
    deck: h('div', { class: 'panel', id: 'deck' }),
    reinforcements: h('div', { class: 'panel reinforcements', id: 'reinforcements', hidden: true }),
    list: h('details', { class: 'panel order-list', id: 'order-list' }),
    log: h('div', { class: 'log', id: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Game log' }),
    menu: h('div', { class: 'game-menu' }),
    result: h('div', { class: 'result-screen', id: 'result-screen', hidden: true }),
    handover: h('div', { class: 'handover', id: 'handover', hidden: true }),
  };
  const e = page.els;
  if (v.scenario.rules) setRulesPage(api.rulesHref(page.token, v.scenario));
  page.app.replaceChildren(h('div', { class: 'battle-page' },
    // The game's menu and settings beside its title: on the first screen at any size, not under the log.
    h('div', { class: 'title-row' },
      h('h1', { class: 'battle-title' }, v.scenario.title, h('span', { class: 'muted' }, ` — ${roleText(v)}`)),
      e.menu),
    // A game played by a variant says so at once, with what it changes one click away.
    v.scenario.rules ? variantRules(v.scenario.rules, api.rulesHref(page.token, v.scenario), v.scenario.map.terrains) : '',
    e.status,
    // A take-back asked of this player: above the board, where it is seen at once.
    page.takeback ? page.takeback.el : '',
    page.drawOffer ? page.drawOffer.el : '',
    page.deadline ? page.deadline.el : '',
    e.barometer,
    h('div', { class: 'battle' },
      h('div', { class: 'board-column' }, h('div', { class: 'board-frame' }, e.board), e.cursorText, e.orderBar),
      h('aside', { class: 'side-column' }, e.since, e.info, e.odds, e.deck, e.reinforcements, e.dice, e.list, page.chat ? page.chat.el : '',
        h('div', { class: 'panel log-panel' }, h('h2', {}, 'Log'), e.log))),
    e.result, e.handover, e.hoverCard));
  page.board = new Board(e.board, v.scenario, {
    onPick: (p) => page.onPick(p),
    onFacing: (d) => page.onFacing(d),
    // Only the hover marks are redrawn as the pointer moves: a counter redrawn between a press and its release
    // would lose the click.
    onHover: (s) => {
      page.hover = s;
      page.board.updateHover(hoverState(page));
      renderHoverCard(page);
    },
  }, { turned: turnedFor(v) });
  page.zoom = new BoardZoom(e.board.parentElement, e.board, page.board);
  installKeys((ev) => page.onKey(ev));
  e.menu.append(
    v.role !== 'spectator' && v.mode !== 'watch' ? h('button', { class: 'secondary', id: 'resign', onclick: () => page.resign() }, 'Resign') : '',
    page.takeback ? page.takeback.button : '',
    page.drawOffer ? page.drawOffer.button : '',
    h('a', { href: gameHref(page.token, 'replay') }, 'Replay'),
    h('a', { href: v.scenario.rules ? api.rulesHref(page.token, v.scenario) : pageHref('rules'), target: 'pacw-rules', class: 'also-in-header' }, 'Rules'),
    h('a', { href: pageHref('guide'), target: 'pacw-rules', class: 'also-in-header' }, 'Guide'),
    h('a', { href: pageHref('') }, 'Lobby'),
    settingsMenu(page));
}

export function render(page) {
  if (!page.els) return;
  renderStatus(page);
  renderBarometer(page);
  renderBoard(page);
  renderOrderBar(page);
  renderInfo(page);
  renderSide(page);
  renderResult(page);
  renderHandover(page);
}

export function renderStatus(page) {
  const v = page.shown;
  const s = v.scenario;
  const who = v.to_act.side;
  const el = page.els.status;
  const parts = [];
  const left = v.activations_left !== null && v.activations_left !== undefined ? `, ${v.activations_left} activation${v.activations_left === 1 ? '' : 's'} left` : '';
  parts.push(h('span', { class: 'turn' }, `Turn ${v.turn} of ${s.turns}`));
  if (v.deck) parts.push(h('span', { class: 'card-drawn', id: 'card' }, 'Card: ', cardFace(v, v.card), left));
  if (v.result) parts.push(h('span', { class: 'whose', id: 'result' }, withRuleLinks(v.result.text)));
  // Playing back decisions already made is not thinking: said so, with a way straight to the present.
  else if (page.playing) parts.push(h('span', { class: 'whose playing', id: 'playing-back' }, 'Playing back ', sideTag(s, page.playingSide || who || v.active_side), '’s move… ', h('button', { class: 'link', id: 'skip-playback', onclick: () => page.skipPlayback() }, v.you_play?.length ? 'skip to my move' : 'skip to the present')));
  else if (v.your_turn) parts.push(h('span', { class: 'whose you', style: `--side:${sideColour(s, who)}` }, 'Your move: ', sideTag(s, who)));
  else if (v.to_act.computer) parts.push(h('span', { class: 'whose' }, sideTag(s, who), ' (computer) is thinking…'));
  else parts.push(h('span', { class: 'whose' }, 'Waiting for ', sideTag(s, who)));
  parts.push(h('span', { class: 'score muted' }, withRuleLinks(`Points ${sideName(s, 'A')} ${v.points[0]}, ${sideName(s, 'B')} ${v.points[1]} (R8.2) · ${sideName(s, 'A')} lost ${v.destroyed[0]} (exhausted at ${s.sides[0].exhaustion}), ${sideName(s, 'B')} lost ${v.destroyed[1]} (at ${s.sides[1].exhaustion}, R8.1)`)));
  if (page.connection !== 'live') parts.push(h('span', { class: 'reconnecting', id: 'reconnecting' }, 'reconnecting…'));
  if (page.error) parts.push(h('span', { class: 'error', id: 'error' }, page.error));
  el.replaceChildren(...parts);
  el.style.setProperty('--side', sideColour(s, who || v.active_side));
  document.title = v.your_turn && !v.result ? `(Your move) pacw` : `${s.title} — pacw`;
}

/// The winning chances as a bar above the board, when the player asked for it (Settings) and the server gives them
/// (never while two people play on two machines).
export function renderBarometer(page) {
  const v = page.shown;
  const box = page.els.barometer;
  const on = setting('barometer', false) && v.winning_chances !== null && v.winning_chances !== undefined;
  box.hidden = !on;
  if (on) box.replaceChildren(chancesBar(v));
}

/// The entry squares of the reinforcements due at the next turn's start, one mark a square.
function entrySquares(v) {
  const due = v.units.filter((u) => u.waiting && u.due === v.turn + 1);
  return [...new Map(due.map((u) => [u.at, { at: u.at, side: u.side, turn: u.due }])).values()];
}

export function boardState(page) {
  const v = page.shown;
  const ch = page.live ? page.choices : null;
  const p = page.pending;
  const state = {
    units: v.units,
    objectives: v.objectives,
    selected: page.selected,
    active: v.active_unit,
    cursor: page.cursor,
    lastMove: page.lastMove,
    selectable: new Set(),
    highlight: page.latestUnits || new Set(),
    entries: entrySquares(v),
  };
  if (page.live && v.your_turn) {
    for (const a of v.legal_actions) if (a.action.activate !== undefined) state.selectable.add(a.action.activate);
  }
  if (ch?.canAct) {
    const targets = ch.targets();
    state.targets = new Map([...targets].map(([id, t]) => [id, { needed: t.needed, direct: t.direct, fireMove: Boolean(t.fireMove) }]));
    state.reachable = new Set([...ch.moveSquares()].filter((sq) => sq !== ch.at));
    if (p?.target !== undefined && (page.stage === 'attack' || p.kind === 'move_fire')) {
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
    }
    if (page.choosingFacing) state.facings = { at: p.to, allowed: p.facings, chosen: p.facing };
  }
  if (page.refusal) state.refused = { ...(page.refusal.line || {}), square: page.refusal.square };
  return state;
}

/// What follows the pointer (or the keyboard cursor): the path of a move to the square under it, and the line of
/// sight from the selected unit to it.
export function hoverState(page) {
  const v = page.shown;
  const ch = page.live ? page.choices : null;
  const p = page.pending;
  const state = {};
  // Once an enemy is chosen the marks are the squares to attack it from: no line of sight drawn over them.
  if (!ch?.canAct || p?.to || p?.target !== undefined) return state;
  if (page.hover && page.hover !== ch.at && ch.moveSquares().has(page.hover)) state.path = ch.reply.paths[page.hover];
  const sightTo = page.hover || page.cursor;
  if (sightTo && sightTo !== ch.at && !page.refusal?.line) {
    const { x, y } = parseSquare(sightTo);
    state.sight = { from: ch.at, to: sightTo, blockedAt: ch.reply.sight[y * v.scenario.map.width + x] };
  }
  return state;
}

/// What the marks of a selected unit mean, naming only the rings on the board: solid for an attack from where it
/// stands, dashed for one only after a move (Move & Fire), doubled for Fire & Move too.
function ringsPrompt(ch) {
  const targets = [...ch.targets().values()];
  const rings = [];
  if (targets.some((t) => t.direct)) rings.push('a solid ring: attack from here');
  if (targets.some((t) => !t.direct)) rings.push('a dashed ring: only after a move (Move & Fire), the number needed once moved');
  if (targets.some((t) => t.fireMove)) rings.push('a double ring: Fire & Move too');
  const attack = rings.length ? `, or a ringed enemy to attack (${rings.join('; ')})` : '';
  return `${pressWord(true)} a green dot to move${attack}, or Hold.`;
}

/// The card of the unit under the pointer (or held under a finger), at once: who it is, its state, and, when one of
/// your units is selected and may attack it, the odds of the best attack, without a click.
export function renderHoverCard(page) {
  const card = page.els.hoverCard;
  const v = page.shown;
  const u = page.hover ? v.units.find((x) => x.alive && x.at === page.hover) : null;
  const counter = u && page.board.svg.querySelector(`[data-unit="${u.id}"]`);
  if (!u || !counter) {
    card.hidden = true;
    return;
  }
  const state = [u.shaken ? 'shaken' : 'steady', u.activated_this_card ? 'used on this card' : ''].filter(Boolean).join(', ');
  const lines = [
    h('strong', {}, sideTag(v.scenario, u.side), ` ${u.name}`),
    h('div', {}, `${u.quality} ${u.arm}, strength ${u.strength}, facing ${u.facing}, ${u.at}`),
    h('div', { class: u.shaken ? 'shaken-text' : 'muted' }, state),
  ];
  const ch = page.live ? page.choices : null;
  const target = ch?.canAct && ch.reply.unit !== u.id ? ch.targets().get(u.id) : null;
  const best = target && [...target.fire, target.fireMove, ...target.moveFire].filter((o) => o?.odds).sort((a, b) => a.odds.needed - b.odds.needed)[0];
  if (best) {
    const d = best.odds.decimals;
    const attack = best.odds.charge ? chargeWord(v).charAt(0).toUpperCase() + chargeWord(v).slice(1) : 'Fire';
    const how = kindOf(best.action)[0] === 'move_fire' ? `${attack} after a move` : attack;
    const results = ['miss', 'no_effect', 'shaken', 'retreat', 'destroyed'].filter((r) => r in d).map((r) => `${resultWord(v, r)} ${percent(d[r])}`);
    lines.push(h('div', { class: 'hover-odds', id: 'hover-odds' }, `${how}: needs ${best.odds.needed}+ · `, results.join(', ')));
  }
  card.replaceChildren(...lines);
  card.hidden = false;
  // Beside the counter, inside the window.
  const r = counter.getBoundingClientRect();
  const w = card.offsetWidth;
  const left = r.right + 8 + w > innerWidth ? Math.max(4, r.left - 8 - w) : r.right + 8;
  card.style.left = `${left}px`;
  card.style.top = `${Math.max(4, Math.min(r.top, innerHeight - card.offsetHeight - 4))}px`;
}

export function renderBoard(page) {
  page.board.update(boardState(page));
  page.board.updateHover(hoverState(page));
  page.els.board.dataset.decisions = page.shown.decisions;
  // Which unit's orders the marks show (tests wait for it).
  if (page.live && page.choices) page.els.board.dataset.choices = page.choices.reply.unit;
  else delete page.els.board.dataset.choices;
  if (page.cursor) {
    const v = page.shown;
    const u = v.units.find((x) => x.alive && x.at === page.cursor);
    const s = v.scenario.map.squares.find((q) => q.at === page.cursor);
    page.els.cursorText.textContent = `${page.cursor}: ${s.terrain.replace('_', ' ')}${u ? `, ${sideName(v.scenario, u.side)} ${u.name}` : ''}`;
  }
}

/// Under the board: what to do next, why a click was refused, and the buttons of the order in hand.
export function renderOrderBar(page) {
  const v = page.shown;
  const ch = page.live ? page.choices : null;
  const p = page.pending;
  const bar = page.els.orderBar;
  const parts = [];
  const prompt = h('div', { class: 'prompt', id: 'prompt' });
  if (page.refusal) {
    prompt.classList.add('refused');
    prompt.id = 'why-not';
    prompt.append(h('strong', {}, 'Not allowed: '), withRuleLinks(page.refusal.reason));
  } else if (!page.live || !v.your_turn) {
    const watching = v.role === 'spectator' ? 'You are watching this game: select anything to read about it.' : 'Not your move: select anything to read about it.';
    prompt.append(v.result ? 'The game is over.' : page.playing ? 'Showing the other side’s move.' : watching);
  } else if (!ch) {
    const sel = page.selected !== null ? v.units[page.selected] : null;
    if (sel && v.you_play.includes(sel.side)) prompt.append('Reading the unit’s orders…');
    else if (sel) prompt.append(`${sideName(v.scenario, sel.side)} ${sel.name} is the enemy’s: its card is beside the board. Select one of your units (green dashed ring) to see what it can do, or end activations.`);
    else prompt.append('Select one of your units (green dashed ring) to see what it can do, or end activations.');
  } else if (!ch.canAct) {
    prompt.append(`${v.units[ch.reply.unit].name} cannot act now: `, withRuleLinks(ch.reply.refusal?.reason || 'it is not its turn'), '. Select one of your units with a green dashed ring.');
  } else if (!p) {
    prompt.append(ch.advancing
      ? withRuleLinks(`Fire & Move: move one square (taking ground, R4.4) or ${pressWord()} the unit to stay, then pick its facing.`)
      : ringsPrompt(ch));
  } else if (page.stage === 'facing') {
    prompt.append(`Pick the facing at ${p.to}: ${pressWord()} N, E, S or W (crossed out: not allowed, `, withRuleLinks('R5.4'), ').');
  } else if (page.stage === 'attack') {
    const t = v.units[p.target];
    const ways = [];
    const squares = ch.moveFireSquares(p.target);
    if (squares.has(ch.at)) ways.push(`${pressWord()} your unit to turn and fire`);
    if ([...squares].some((sq) => sq !== ch.at)) ways.push('pick an orange square to Move & Fire from');
    if (ch.targets().get(p.target)?.fireMove) ways.push('Fire & Move');
    const intro = p.order ? `${p.order.text}. ` : `Attack ${t.name}: `;
    prompt.append(intro, ways.length ? `${p.order ? 'Or ' : ''}${ways.join(', or ')}.` : '');
  } else if (page.stage === 'confirm') {
    prompt.append(p.order.text, p.kind === 'move' && ch.moveFireTargetsFrom(p.to, p.facing).size ? ` — or ${pressWord()} a ringed enemy to fire from there too.` : '');
  }
  const ready = page.readyOrder;
  // The dice of the latest decision, and of the player's own last attack until they move on (the other side's
  // moves may have come since).
  const rolls = [...new Set([page.yourRoll, page.live ? lastRoll(v, v.log) : null].filter(Boolean))];
  if (rolls.length) parts.push(h('div', { class: 'last-roll', id: 'last-roll' }, ...rolls.map((r) => h('div', {}, dieIcon(), ' ', r))));
  parts.push(prompt);
  if (ch && page.choosingFacing) parts.push(facingButtons(page));
  if (ready?.odds) parts.push(h('div', { class: 'odds-line', id: 'odds-line' }, oddsLine(v, ready.odds)));
  const buttons = h('div', { class: 'row buttons' });
  if (page.live && v.your_turn) {
    buttons.append(h('button', { 'data-confirm': '', id: 'confirm', disabled: !ready || page.busy, onclick: () => page.confirm() }, ready ? `Confirm: ${ready.text}` : 'Confirm'));
    if (ch?.canAct && ch.hold()) buttons.append(h('button', { class: 'secondary', 'data-order': 'hold', onclick: () => page.hold() }, 'Hold'));
    if (p?.target !== undefined && ch?.targets().get(p.target)?.fireMove) buttons.append(h('button', { class: 'secondary', 'data-order': 'fire_move', onclick: () => page.fireMove() }, 'Fire & Move'));
    if (v.legal_actions.some((a) => a.action === 'end_activations')) buttons.append(h('button', { class: 'secondary', 'data-order': 'end', id: 'end-activations', onclick: () => page.endActivations() }, 'End activations'));
    if (p || page.refusal) buttons.append(h('button', { class: 'secondary', onclick: () => page.cancel() }, 'Cancel'));
  }
  if (page.live && page.view.undo?.possible) buttons.append(h('button', { class: 'secondary', id: 'undo', onclick: () => page.undo() }, 'Undo'));
  parts.push(buttons);
  const focused = document.activeElement?.closest?.('#order-bar button')?.textContent;
  bar.replaceChildren(...parts);
  if (focused) [...bar.querySelectorAll('button')].find((b) => b.textContent === focused)?.focus();
}

const NS = 'http://www.w3.org/2000/svg';
const SCREEN_ANGLE = { up: 0, right: 90, down: 180, left: 270 };

/// The facing choice as four buttons under the board, each at least 44 px (a finger's width; the arrows on the
/// board are a fraction of a square), in the order they point on the screen: up, right, down, left. Each carries
/// `data-facing` (docs/api.md) and its arrow points the way the facing does on this board, turned or not.
function facingButtons(page) {
  const p = page.pending;
  const screen = { up: 'N', right: 'E', down: 'S', left: 'W' };
  const buttons = Object.entries(screen).map(([way, arrowKey]) => {
    const dir = page.board.screenDirection(arrowKey);
    const ok = p.facings[dir];
    const arrow = document.createElementNS(NS, 'svg');
    arrow.setAttribute('viewBox', '-8 -8 16 16');
    arrow.setAttribute('aria-hidden', 'true');
    arrow.setAttribute('class', 'facing-icon');
    arrow.innerHTML = `<path d="M0 -7 L6 5 L-6 5 Z" transform="rotate(${SCREEN_ANGLE[way]})"/>`;
    return h('button', {
      type: 'button',
      class: `facing-button ${ok ? 'allowed' : 'not-allowed'}${p.facing === dir ? ' chosen' : ''}`,
      'data-facing': dir,
      'aria-pressed': p.facing === dir ? 'true' : 'false',
      'aria-label': `face ${dir}${ok ? '' : ' (not allowed)'}`,
      title: ok ? `Face ${dir}` : `Facing ${dir} is not allowed here (R5.4)`,
      onclick: () => page.onFacing(dir),
    }, arrow, h('span', { class: 'facing-letter' }, dir));
  });
  return h('div', { class: 'facing-buttons', id: 'facing-buttons', role: 'group', 'aria-label': `Facing at ${p.to}` }, ...buttons);
}

export function renderInfo(page) {
  const v = page.shown;
  const parts = [];
  if (page.selected !== null && v.units[page.selected]) parts.push(unitInfo(v, page.selected));
  if (page.inspected !== null && page.inspected !== undefined && v.units[page.inspected]) parts.push(h('div', { class: 'target-info' }, unitInfo(v, page.inspected)));
  const square = page.square || (page.selected !== null ? v.units[page.selected]?.at : null);
  if (square && (page.selected === null || square !== v.units[page.selected]?.at || page.square)) parts.push(squareInfo(v, square));
  if (!parts.length) parts.push(h('p', { class: 'muted' }, 'Select a unit, a square or an objective to read about it.'));
  page.els.info.replaceChildren(...parts);
  const p = page.pending;
  const odds = p?.order?.odds;
  page.els.odds.hidden = !odds;
  if (odds) page.els.odds.replaceChildren(oddsBox(v, odds, p.order.text));
}

export function renderSide(page) {
  const v = page.shown;
  const e = page.els;
  e.deck.replaceChildren(h('h2', {}, 'Cards'), deckPanel(v));
  const coming = reinforcementsPanel(v);
  e.reinforcements.hidden = !coming;
  e.reinforcements.replaceChildren(...(coming ? [h('h2', {}, 'Reinforcements'), coming] : []));
  e.dice.replaceChildren(h('h2', {}, 'Dice'), diceTray(v, v.log, page.freshFrom));
  // The log grows line by line, so that a screen reader announces only the new lines.
  const have = e.log.children.length;
  const firstShown = e.log.firstChild ? Number(e.log.firstChild.dataset.index) : 0;
  if (have > v.log.length || firstShown !== 0 || [...e.log.children].some((c, i) => Number(c.dataset.index) !== v.log[i]?.index)) e.log.replaceChildren();
  for (const entry of v.log.slice(e.log.children.length)) e.log.append(logLine(v, entry));
  e.log.scrollTop = e.log.scrollHeight;
  e.since.replaceChildren();
  if (page.since.length && page.live) {
    // Each decision by what it did: its first event (activated, moved, fired …) and the results that followed.
    const worth = new Set(['attack', 'rally_rolled', 'to_hit_rolled', 'hit_result_rolled', 'after_attack', 'retreated', 'destroyed', 'objective_taken', 'card_drawn', 'game_over']);
    const line = (s) => {
      const [main, ...rest] = s.events.length ? s.events : [{ text: s.text, event: {} }];
      return h('li', { class: 'log-line', style: `--side:${sideColour(v.scenario, s.side)}` }, withRuleLinks(main.text),
        ...rest.filter((e) => worth.has(e.event.event)).map((e) => h('div', { class: 'muted' }, withRuleLinks(e.text))));
    };
    e.since.append(h('details', { class: 'panel', open: true }, h('summary', {}, `Since your last decision (${page.since.length})`),
      h('ol', {}, ...page.since.map(line))));
  }
  renderOrderList(page);
}

/// The text list of orders: a fallback to the board, and for screen readers.
export function renderOrderList(page) {
  const v = page.shown;
  const list = page.els.list;
  const open = list.open;
  const focusKey = list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const items = [];
  if (page.live && v.your_turn) {
    if (page.choices?.canAct) {
      for (const o of page.choices.orders) {
        items.push(h('button', { class: `order${o.odds ? ' attack' : ''}`, 'data-key': JSON.stringify(o.action), onclick: () => page.setConfirm({ order: o, kind: kindOf(o.action)[0] }) }, o.text));
      }
    } else {
      for (const a of v.legal_actions) {
        const unit = a.action.activate;
        items.push(h('button', { class: 'order', 'data-key': JSON.stringify(a.action), onclick: () => (unit !== undefined ? page.select(unit) : page.endActivations()) }, unit !== undefined ? `Select ${a.text.replace(/^Activate /, '')}` : a.text));
      }
    }
  }
  list.replaceChildren(h('summary', {}, `Orders as a list (${items.length})`), h('div', { class: 'orders' }, ...items));
  list.open = open;
  // Keep the keyboard in the list: on the same order, or on the first of a new list (a unit just selected).
  if (focusKey) (list.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) || list.querySelector('button.order'))?.focus();
}

export function renderResult(page) {
  const v = page.view;
  const box = page.els.result;
  const resign = page.els.menu.querySelector('#resign');
  if (resign) resign.hidden = Boolean(v.result);
  if (page.drawOffer) page.drawOffer.button.hidden = Boolean(v.result);
  if (!v.result || !page.live) {
    box.hidden = true;
    return;
  }
  if (box.dataset.decisions === String(v.decisions) && !box.hidden) return;
  box.dataset.decisions = String(v.decisions);
  box.hidden = page.resultClosed === v.decisions;
  const save = h('button', { class: 'secondary', id: 'download-save', onclick: () => downloadSave(page, `pacw-${v.scenario.name}-${v.id}.json`) }, 'Download the save');
  box.replaceChildren(h('div', { class: 'panel result-card', role: 'dialog', 'aria-label': 'Result' },
    h('h2', {}, 'Game over'), resultHeadline(v), ...losses(v), v.ledger ? ledgerTable(v) : '',
    h('div', { class: 'row' },
      h('button', { id: 'rematch', onclick: () => page.rematch() }, 'Rematch (sides swapped)'), save,
      h('a', { href: gameHref(page.token, 'review'), class: 'button', id: 'review-button' }, 'Review'),
      h('a', { href: gameHref(page.token, 'replay'), class: 'button secondary' }, 'Replay'),
      h('button', { class: 'secondary', id: 'forget', onclick: () => { forget(page.token); location.href = pageHref(''); } }, 'Remove from your games'),
      h('button', { class: 'secondary', id: 'close-result', onclick: () => { page.resultClosed = v.decisions; box.hidden = true; } }, 'Look at the board'))));
}

/// Downloads the game's save file (the same file the server, `pacw play --load` and `pacw replay` read).
async function downloadSave(page, name) {
  try {
    const a = h('a', { href: URL.createObjectURL(new Blob([await api.saveText(page.token)], { type: 'application/json' })), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) {
    page.error = e.message;
    page.render();
  }
}

/// Hot-seat: a screen between the sides, so each player looks only at his own turn (optional, on by default).
export function renderHandover(page) {
  const v = page.view;
  const box = page.els.handover;
  const side = v.your_turn ? v.to_act.side : null;
  if (v.mode !== 'hotseat' || !setting(`handover-${page.token}`, setting('handover', true)) || !side || v.result || !page.live) {
    box.hidden = true;
    if (side) page.handedTo = side;
    return;
  }
  if (page.handedTo === null) page.handedTo = side;
  if (page.handedTo === side) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren(h('div', { class: 'panel handover-card' },
    h('h2', {}, 'Hand over to ', sideTag(v.scenario, side)),
    h('p', {}, `It is ${sideName(v.scenario, side)}'s move. Pass the screen, then:`),
    h('button', { 'data-handover': '', autofocus: true, onclick: () => { page.handedTo = side; page.select(null); } }, `I play ${sideName(v.scenario, side)}: show the board`),
    h('label', {}, h('input', { type: 'checkbox', onchange: (e) => { setSetting(`handover-${page.token}`, !e.target.checked); page.render(); } }), ' no hand-over screen in this game')));
}

/// Sound and notification when it becomes this page's move (if switched on).
export function announceTurn(page) {
  const mine = page.view.your_turn && !page.view.result;
  if (mine && page.wasMine === false) {
    if (setting('sound', false)) beep();
    if (setting('notify', false) && (document.hidden || !document.hasFocus()) && 'Notification' in window && Notification.permission === 'granted') {
      new Notification('pacw: your move', { body: page.view.scenario.title });
    }
  }
  page.wasMine = mine;
}

function roleText(v) {
  if (v.role === 'spectator') return 'watching';
  if (v.role === 'hotseat') return 'hot-seat';
  const s = v.scenario.sides.find((x) => x.side === v.role);
  return s ? `you play ${s.name}` : v.role;
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

/// "Tell me when it is my move" for a two-player game played over days: an e-mail (when the server can send one)
/// and/or a webhook (Discord, Slack), kept by the server, used once a move while this page is closed.
function contactForm(page) {
  const email = h('input', { type: 'email', id: 'notify-email', placeholder: 'you@example.org', 'aria-label': 'E-mail address' });
  const webhook = h('input', { type: 'url', id: 'notify-webhook', placeholder: 'https://discord.com/api/webhooks/…', 'aria-label': 'Webhook URL' });
  const status = h('span', { class: 'muted', id: 'notify-status', role: 'status' });
  const show = (c) => {
    email.value = c.email || '';
    webhook.value = c.webhook || '';
    email.disabled = !c.email_possible;
    email.title = c.email_possible ? '' : 'this server sends no e-mail (its operator has not set it up): use a webhook';
  };
  api.contact(page.token).then(show).catch((e) => { status.textContent = e.message; });
  const save = async (ev) => {
    ev.preventDefault();
    try {
      show(await api.setContact(page.token, email.disabled ? null : email.value, webhook.value));
      status.textContent = email.value || webhook.value ? 'Saved: you will be told when it is your move.' : 'Saved: you will not be told.';
    } catch (e) {
      status.textContent = e.message;
    }
  };
  return h('form', { class: 'contact-form', id: 'notify-form', onsubmit: save },
    h('strong', {}, 'Tell me when it is my move'),
    h('label', {}, 'E-mail ', email),
    h('label', {}, 'Webhook ', webhook),
    h('button', { type: 'submit', class: 'secondary', id: 'notify-save' }, 'Save'), ' ', status);
}

/// Whether this page turns the board: its player plays one side alone, whose army starts in the north, and has not
/// turned the setting off (on by default: your army at the bottom, as a chess board shows Black's).
export function turnedFor(v) {
  return armyFromNorth(v) && setting('army-at-bottom', true);
}

function armyFromNorth(v) {
  const mine = v.role !== 'hotseat' && v.role !== 'spectator' && v.you_play?.length === 1 ? v.scenario.sides.find((s) => s.side === v.you_play[0]) : null;
  return mine?.home === 'N';
}

/// The page's settings: sound, notification, the pace of the other side's moves, the winning chances, the board turned.
function settingsMenu(page) {
  const check = (name, text, after) => h('label', {}, h('input', { type: 'checkbox', id: `setting-${name}`, checked: setting(name, false), onchange: async (e) => { setSetting(name, e.target.checked); if (after) await after(e); } }), ` ${text}`);
  const pace = h('select', { id: 'setting-pace', 'aria-label': 'Pace of the other side’s moves', onchange: (e) => setSetting('pace', Number(e.target.value)) },
    ...[[0, 'at once'], [400, 'quick'], [700, 'normal'], [1200, 'slow']].map(([ms, text]) => h('option', { value: ms, selected: setting('pace', 700) === ms }, text)));
  const menu = h('details', { class: 'settings', id: 'settings' }, h('summary', {}, 'Settings'), h('div', { class: 'settings-body panel' },
    check('sound', 'a sound when it becomes your move'),
    check('notify', 'a browser notification when it becomes your move (browsers allow it only on https or localhost)', async (e) => {
      if (e.target.checked && 'Notification' in window) await Notification.requestPermission();
    }),
    h('label', {}, 'Show the other side’s moves ', pace),
    page.view.mode === 'two_players' && ['A', 'B'].includes(page.view.role) ? contactForm(page) : '',
    armyFromNorth(page.view)
      ? h('label', {}, h('input', { type: 'checkbox', id: 'army-at-bottom', checked: setting('army-at-bottom', true), onchange: (e) => { setSetting('army-at-bottom', e.target.checked); location.reload(); } }), ' your army at the bottom of the board (the board turned)')
      : '',
    page.view.winning_chances !== null && page.view.winning_chances !== undefined
      ? check('barometer', 'show the winning chances above the board', () => renderBarometer(page)) : ''));
  // It drops down over the page, as a menu does, and goes away at a press elsewhere.
  document.addEventListener('pointerdown', (ev) => { if (menu.open && !menu.contains(ev.target)) menu.open = false; });
  return menu;
}

/** Whether a file other than the standard rules wrote a rule (its `from`). */
const changed = (from) => Boolean(from) && from !== 'standard';

/** The arms a variant adds or changes (R2.2, R2.6). */
function ownArms(rules) {
  return (rules.arms || []).filter((a) => changed(a.from));
}

/** The terrain kinds a variant adds or changes (R1.5), each beside its description in the map's `terrains`. */
function ownTerrain(rules, terrains) {
  return (rules.terrain || []).filter((k) => changed(k.from))
    .map((k) => [k, terrains.find((t) => t.id === k.id) || { movement: String(k.move) }]);
}

/** The rules a game played by a variant is played by, one click away: what it changes, each rule by its id (its
 * modifiers, a standard one it changes, its arms, terrain kinds and road bonus); with variant files laid together,
 * the files in order and beside each rule the file that wrote it last. */
function variantRules(rules, href, terrains = []) {
  const layers = rules.layers || [];
  const layered = layers.length > 1;
  const from = (file) => (layered && file ? h('span', { class: 'rule-from' }, ` — from ${file}`) : '');
  const signed = (n) => `${n > 0 ? '+' : ''}${n}`;
  const item = (text, file) => h('li', {}, text, from(file));
  return h('details', { class: 'variant-rules', id: 'variant-rules' },
    h('summary', {}, `Played by the variant “${rules.name}”`),
    h('p', {}, rules.description),
    layered ? h('p', { class: 'rule-layers', id: 'rule-layers' },
      `Its variant files, each laid over the ones before it: ${layers.map((l) => `${l.file} (${l.name})`).join(', then ')}.`) : '',
    h('ul', {}, ...rules.modifiers.filter((m) => m.rule === m.id || (m.from && m.from !== 'standard')).map((m) => item(`${m.rule === m.id ? m.id : `${m.id} (${m.rule})`} ${signed(m.value)} ${m.name}: when ${m.when}`, m.from)),
      ...ownArms(rules).map((a) => item(`${a.name}: ${a.id === a.like ? '' : `as ${a.like}, `}strength ${a.strength}, move ${a.move}, range ${a.range} (R2.2, R2.6)`, a.from)),
      ...ownTerrain(rules, terrains).map(([k, said]) => item(`${k.name} (${k.letter}): ${said.movement}${k.cover ? ', cover' : ''}${k.blocks_sight ? ', blocks sight' : ''} (R1.5)`, k.from)),
      ...(changed(rules.from?.movement?.road_bonus) ? [item(`road bonus +${rules.movement.road_bonus} square${rules.movement.road_bonus === 1 ? '' : 's'} for a Move along a road (R1.6)`, rules.from.movement.road_bonus)] : []),
      ...Object.entries(rules.results).map(([row, [held, broke]]) => item(`${row.replace('_', ' ')}: ${held} at most the strength, ${broke} above`, rules.from?.results?.[row])),
      ...(rules.after_attack || []).map((r) => item(`${r.id} ${r.name}: the attacker ${r.attacker === 'advance' ? 'advances into the target’s square' : `is ${r.attacker}`} when ${r.when}`, r.from)),
      ...(rules.restrictions || []).map((r) => item(`${r.id} ${r.name}: ${r.forbids === 'orders' ? 'no such order' : 'no attack'} when ${r.when}`, r.from)),
      ...(rules.rally ? [item(`${rules.rally.id} ${rules.rally.name}: a shaken unit activated rallies only on ${rules.rally.needed === 'strength' ? 'a die at most its strength' : `a die of ${rules.rally.needed} or more`}`, rules.rally.from)] : []),
      ...(rules.rally_modifiers || []).map((m) => item(`${m.id} ${signed(m.value)} ${m.name} to rally: when ${m.when}`, m.from)),
      ...(rules.result_modifiers || []).map((m) => item(`${m.id} ${signed(m.value)} ${m.name}: a hit target tests its strength at ${signed(m.value)} when ${m.when}`, m.from))),
    h('p', {}, h('a', { href, target: 'pacw-rules', id: 'variant-rules-page' }, 'This game’s rules in full')));
}
