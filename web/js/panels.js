// The battle page's panels, each a function of the view: the info panel (unit and square), the exact odds of an
// attack, the dice tray, the cards, the log, the luck ledger and the result.

import { TERRAIN_WORDS } from './board.js';
import { h, percent, sideColour, sideName, sideTag, withRuleLinks } from './util.js';

const RESULTS = ['miss', 'no_effect', 'shaken', 'retreat', 'destroyed', 'stand'];

/// A result in the game's words: a variant may rename shaken, retreat and destroyed (its `[terms]`); a hit with no
/// effect is a variant's result too.
export function resultWord(v, key) {
  const terms = v.scenario.rules?.terms || {};
  return { miss: 'miss', no_effect: 'no effect', stand: 'stand', hit: 'hit' }[key] ?? terms[key] ?? key;
}

/// What the game calls a charge ("close combat" in a variant that renames it).
export function chargeWord(v) {
  return v.scenario.rules?.terms?.charge || 'charge';
}

/// A hit's result as the log says it of the target: "retreats" for the standard word, else the game's word.
function resultSaid(v, key) {
  return key === 'retreat' && resultWord(v, 'retreat') === 'retreat' ? 'retreats' : resultWord(v, key);
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/// A number as a modifier reads: +1, −2 (a true minus sign), 0.
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/// What cover does to the roll under the rules in force (R6.3): the game's `modifier.cover` (the variant's value,
/// or an option's), then, when the variant changes the cover rule, its file and its condition.
function coverWorth(v) {
  const rule = (v.scenario.rules?.modifiers || []).find((m) => m.id === 'cover');
  const given = v.options?.['modifier.cover'] ?? rule?.value;
  const worth = given === undefined ? '' : Number(given) ? `, ${signed(Number(given))} to hit` : ', no change to hit (modifier.cover 0)';
  return rule?.from && rule.from !== 'standard' ? `${worth} (by ${rule.from}, when ${rule.when})` : worth;
}

/// A square's terrain in a few words under the rules in force (R1.5): whether it blocks sight, what entering it
/// costs; and that the variant made it or changed it.
function terrainNote(v, kind) {
  if (!kind) return '';
  const standard = Object.hasOwn(TERRAIN_WORDS, kind.id);
  const from = (v.scenario.rules?.terrain || []).find((k) => k.id === kind.id)?.from;
  const changed = !standard || (from && from !== 'standard');
  const parts = [kind.blocks_sight ? 'blocks sight' : '', kind.movement === 'normal' && !changed ? '' : kind.movement].filter(Boolean);
  if (!parts.length) return '';
  return `${parts.join('; ')} ${changed ? "(the variant's)" : kind.impassable ? '(R1.5, R5.1)' : '(R1.5)'}`;
}

/// A unit's side tag and name: "Union 1st Brigade".
export function unitLabel(v, id) {
  const u = v.units[id];
  return h('span', {}, sideTag(v.scenario, u.side), ' ', u.name);
}

function row(name, ...value) {
  return h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, ...value));
}

/// The info panel of a unit: side, arm, quality, strength (R2.2), facing, shaken, activation, ranging (R6.4).
export function unitInfo(v, id) {
  const u = v.units[id];
  // The ranging bonus is the guns' alone (R6.4): the memory is shown for artillery only.
  const ranged = v.units.filter((g) => g.arm === 'artillery' && g.ranging_on === id && g.alive).map((g) => g.name);
  const cards = v.options.initiative === 'cards';
  // What quality adds to the strength is the game's option (R2.2, `quality.veteran`, `quality.green`).
  const shift = (q, standard) => signed(Number(v.options?.[`quality.${q}`] ?? standard));
  const quality = { green: `green (${shift('green', -1)})`, regular: 'regular', veteran: `veteran (${shift('veteran', 1)})` }[u.quality];
  return h('div', { class: 'unit-info' },
    h('h2', {}, sideTag(v.scenario, u.side), ' ', u.name),
    h('table', { class: 'facts' },
      row('Arm', u.own_arm ? `${u.own_arm} (moves, fires and is fired at as ${u.arm})` : u.arm),
      row('Quality', quality),
      row('Strength', String(u.strength), ' ', h('span', { class: 'muted' }, withRuleLinks('(R2.2: the hit-result roll must not exceed it)'))),
      row('Square', `${u.at}, facing ${u.facing}`),
      row('State', u.alive ? (u.shaken ? h('strong', { class: 'shaken-text' }, 'shaken (S)') : 'steady') : u.waiting ? `not yet arrived${u.due ? `: enters ${u.at} at the start of turn ${u.due}` : ''}` : 'destroyed', u.shaken ? h('span', { class: 'muted' }, ' ', withRuleLinks('rallies when activated (R4.1)')) : ''),
      row('Activated', cards ? `${u.activated_this_card ? 'yes' : 'no'} on this card, ${u.activated_this_turn ? 'yes' : 'no'} this turn` : (u.activated_this_turn ? 'yes, this turn' : 'not yet this turn')),
      u.arm === 'artillery' && u.ranging_on !== null && u.ranging_on !== undefined ? row('Ranged on', v.units[u.ranging_on].name, ' ', withRuleLinks('(+1 to hit it again, R6.4)')) : '',
      ranged.length ? row('Guns ranged on it', ranged.join(', '), ' ', withRuleLinks('(R6.4)')) : ''));
}

/// The info panel of a square: terrain, elevation, road, fences, cover, objective.
export function squareInfo(v, name) {
  const s = v.scenario.map.squares.find((q) => q.at === name);
  if (!s) return '';
  const objective = v.objectives.find((o) => o.at === name);
  const occupant = v.units.find((u) => u.alive && u.at === name);
  // Every kind is described by the view's list of the rules' terrains (docs/variants.md), a variant's own or changed
  // ones as the standard's: what the panel says is what the game plays.
  const kind = (v.scenario.map.terrains || []).find((k) => k.id === s.terrain);
  const worth = coverWorth(v);
  const cover = kind?.cover
    ? withRuleLinks(`yes: the terrain gives cover (R6.3a)${worth}`)
    : s.fences.length
      ? withRuleLinks(`against fire across its fence (${s.fences.join(', ')} edge), R6.3c${worth}`)
      : withRuleLinks(s.elevation > 0 ? `against a charge from lower ground (R6.3b)${worth}` : 'none');
  const note = terrainNote(v, kind);
  const bonus = v.scenario.map.road_bonus ?? 1;
  const bonusFrom = v.scenario.rules?.from?.movement?.road_bonus;
  const road = `yes: ${bonus ? `+${bonus} square${bonus === 1 ? '' : 's'}` : 'no extra square'} for a Move along it (R1.6${bonusFrom && bonusFrom !== 'standard' ? `, ${bonusFrom}` : ''})`;
  return h('div', { class: 'square-info' },
    h('h2', {}, `Square ${name}`),
    h('table', { class: 'facts' },
      row('Terrain', kind && !Object.hasOwn(TERRAIN_WORDS, kind.id) ? kind.name : TERRAIN_WORDS[s.terrain] ?? s.terrain, note ? h('span', { class: 'muted' }, ' — ', withRuleLinks(note)) : ''),
      row('Elevation', String(s.elevation), s.elevation ? h('span', { class: 'muted' }, ' ', withRuleLinks('(R1.3, R6.2c)')) : ''),
      row('Road', s.road ? withRuleLinks(road) : 'no'),
      row('Fences', s.fences.length ? s.fences.join(', ') : 'none'),
      row('Cover', cover),
      objective ? row('Objective', `${objective.points} point${objective.points === 1 ? '' : 's'}, held by `, objective.holder ? sideTag(v.scenario, objective.holder) : 'nobody', ' ', withRuleLinks('(R8.2)')) : '',
      occupant ? row('Unit', sideTag(v.scenario, occupant.side), ` ${occupant.name}`) : ''));
}

/// The exact odds of an attacking order, with every modifier and its rule (R6.4, R7.1).
export function oddsBox(v, odds, title) {
  const target = v.units[odds.target];
  const mods = odds.modifiers.length
    ? odds.modifiers.map((m) => h('li', {}, withRuleLinks(`${m.rule} ${m.value > 0 ? '+' : ''}${m.value} ${m.reason}`)))
    : [h('li', { class: 'muted' }, 'no modifiers')];
  // A variant's modifiers to the hit-result roll (R7.1, `[[result_modifiers]]`): each by its id and name, as the
  // to-hit modifiers are, and the strength the roll is then tested against.
  const held = odds.result_modifiers || [];
  const tested = odds.tested_strength ?? odds.target_strength;
  const strength = held.length
    ? `target strength ${odds.target_strength}, its hit-result roll tested at ${tested} (R7.1)`
    : `target strength ${odds.target_strength}`;
  const shown = (r) => r in odds.fractions && (!['stand', 'no_effect'].includes(r) || odds.fractions[r] !== '0');
  const rows = RESULTS.filter(shown).map((r) =>
    h('tr', {}, h('td', {}, resultWord(v, r)), h('td', { class: 'fraction' }, odds.fractions[r]), h('td', {}, percent(odds.decimals[r])),
      h('td', { class: 'bar-cell' }, h('span', { class: `bar ${r}`, style: `width:${Math.round(odds.decimals[r] * 100)}%` }))));
  return h('div', { class: 'odds', id: 'odds' },
    h('strong', {}, title || `${odds.charge ? capital(chargeWord(v)) : 'Fire at'}${odds.charge && chargeWord(v) !== 'charge' ? ':' : ''} ${target.name}`),
    h('div', {}, withRuleLinks(`${odds.charge ? `A ${chargeWord(v)} (R6.1, R7.1)` : `Fire at distance ${odds.distance}`}: needs ${odds.needed}+ on the die (R6.4); ${strength}${odds.target_shaken ? ', shaken' : ''}`)),
    h('ul', { class: 'modifiers' }, ...mods),
    held.length ? h('ul', { class: 'modifiers result-modifiers', id: 'result-modifiers', 'aria-label': 'Modifiers to the hit-result roll' },
      ...held.map((m) => h('li', {}, withRuleLinks(`${m.rule} ${m.value > 0 ? '+' : ''}${m.value} ${m.reason} (to the hit-result roll's strength, R7.1)`)))) : '',
    odds.retreat_blocked ? h('div', {}, withRuleLinks('The target has nowhere to retreat (R7.3, R7.4)')) : '',
    h('table', {}, h('caption', { class: 'visually-hidden' }, 'Chance of each result'), ...rows),
    // A variant's after-attack rules: what the dice may do to the attacker, beside the target's results.
    odds.attacker ? h('div', { class: 'attacker-odds', id: 'attacker-odds' },
      h('div', {}, `The attacker (${odds.attacker.rules.join('; ')}):`),
      h('table', {}, h('caption', { class: 'visually-hidden' }, 'Chance of what befalls the attacker'),
        ...['shaken', 'advances', 'destroyed', 'unchanged'].filter((k) => k === 'unchanged' || odds.attacker.fractions[k] !== '0').map((k) =>
          h('tr', {}, h('td', {}, k === 'advances' ? 'advances' : k === 'unchanged' ? 'unchanged' : resultWord(v, k)),
            h('td', { class: 'fraction' }, odds.attacker.fractions[k]), h('td', {}, percent(odds.attacker.decimals[k])))))) : '');
}

/// The dice of the last attack (or initiative roll), saying who rolled what for what. A line is a die and one span
/// of text: the line is a flex box, and each loose piece of text would be an item of its own, wrapping apart (a
/// rule's closing parenthesis alone on a line).
export function diceTray(v, log, fresh) {
  const tray = h('div', { class: 'dice-tray', id: 'dice' });
  let i = log.length - 1;
  while (i >= 0 && !['attack', 'initiative_rolled'].includes(log[i].event.event)) i--;
  if (i < 0) return h('div', { class: 'dice-tray', id: 'dice' }, h('span', { class: 'muted' }, 'No dice rolled yet.'));
  const anim = log[i].index >= fresh ? ' roll' : '';
  const e0 = log[i].event;
  if (e0.event === 'initiative_rolled') {
    let j = i;
    while (j > 0 && log[j - 1].event.event === 'initiative_rolled') j--;
    for (const entry of log.slice(j, i + 1)) {
      const e = entry.event;
      tray.append(h('div', { class: 'die-line' }, h('div', { class: `die${anim}` }, e.roll), h('span', {}, sideTag(v.scenario, e.side), ' rolls for initiative ', withRuleLinks('(R3.7)'))));
    }
    return tray;
  }
  const attacker = v.units[e0.attacker];
  const target = v.units[e0.target];
  tray.append(h('div', { class: 'die-caption' }, unitLabel(v, e0.attacker), e0.charge ? (chargeWord(v) === 'charge' ? ' charges ' : `: ${chargeWord(v)} against `) : ' fires at ', unitLabel(v, e0.target), `: needs ${e0.needed}+`));
  for (const entry of log.slice(i + 1)) {
    const e = entry.event;
    if (e.event === 'to_hit_rolled') {
      tray.append(h('div', { class: 'die-line' }, h('div', { class: `die${e.hit ? ' hit' : ''}${anim}`, 'aria-label': `die ${e.roll}` }, e.roll),
        h('span', {}, sideTag(v.scenario, attacker.side), ` rolls to hit: ${e.roll}, `, h('strong', {}, e.hit ? 'a hit' : 'a miss'), ' ', withRuleLinks('(R6.4)'))));
    } else if (e.event === 'hit_result_rolled') {
      const what = resultSaid(v, e.result);
      tray.append(h('div', { class: 'die-line' }, h('div', { class: `die hit${anim}`, 'aria-label': `die ${e.roll}` }, e.roll),
        h('span', {}, sideTag(v.scenario, target.side), ` rolls for the result: ${e.roll} ${e.roll <= e.strength ? '≤' : '>'} strength ${e.strength}: `, h('strong', {}, what), ' ', withRuleLinks('(R7.1)'))));
    } else if (e.event === 'retreat_blocked') {
      tray.append(h('div', { class: 'die-line' }, h('span', {}, withRuleLinks('Nowhere to retreat (R7.4)'))));
    } else if (['card_drawn', 'attack', 'activated', 'turn_started'].includes(e.event)) {
      break;
    }
  }
  return tray;
}

/// The card drawn and the deck, with the exact chance of the next card (R3.2, R3.3); or the dice systems (R3.7).
export function deckPanel(v) {
  if (!v.deck) return h('div', { class: 'deck' }, withRuleLinks(`Initiative: ${v.options.initiative}, by dice rolls (R3.7)`));
  const next = v.deck.next;
  return h('div', { class: 'deck' },
    h('div', { class: 'chances' }, withRuleLinks(`${v.deck.left} cards left (R3.3). Next card: `), sideTag(v.scenario, 'A'), ` ${next.A}, `, sideTag(v.scenario, 'B'), ` ${next.B}, Joker ${next.joker}`),
    h('div', { class: 'chances muted' }, v.deck.cards.map((c) => `${c.text} ×${c.count}`).join(' · ')));
}

/// A card as drawn: its value in the side's colour, framed, with the red or black suit mark (R3.2).
export function cardFace(v, card) {
  if (!card) return h('span', { class: 'card-face none' }, 'no card yet');
  if (!card.side) return h('span', { class: 'card-face joker' }, '★ Joker');
  const s = v.scenario.sides.find((x) => x.side === card.side);
  const suit = s.colour === 'red' ? '♥' : '♠';
  return h('span', { class: `card-face suit-${s.colour}`, style: `--side:${sideColour(v.scenario, card.side)}` },
    h('span', { class: 'suit', 'aria-label': `${s.colour} card` }, suit), ` ${s.name} ${card.value}`);
}

/// The side an event concerns, for the colour of its log line.
export function eventSide(v, e) {
  if (e.side) return e.side;
  const unit = e.unit ?? e.attacker;
  if (unit !== undefined) return v.units[unit]?.side;
  if (e.card && e.card.side) return e.card.side.side;
  if (e.result) return e.result.winner;
  return null;
}

/// One log line, in the colour of the side it concerns.
export function logLine(v, entry) {
  const kind = entry.event.event;
  const side = eventSide(v, entry.event);
  const cls = ['log-line', kind === 'to_hit_rolled' || kind === 'hit_result_rolled' || kind === 'rally_rolled' ? 'dice' : '', kind === 'card_drawn' || kind === 'turn_started' ? 'card-line' : ''].join(' ');
  return h('div', { class: cls, style: side ? `--side:${sideColour(v.scenario, side)}` : '', 'data-index': entry.index }, withRuleLinks(entry.text));
}

/// Each side's expected against actual results of its attacks, from the exact odds: a row for each result and a
/// column for each side, so that it fits a phone's width.
export function ledgerTable(v) {
  const keys = ['hit', 'miss', 'no_effect', 'shaken', 'retreat', 'destroyed']
    .filter((k) => k !== 'no_effect' || v.ledger.sides.some((s) => s.expected_decimal.no_effect));
  const sides = v.ledger.sides;
  const head = h('tr', {}, h('th', { scope: 'col' }, 'Result'), ...sides.map((s) => h('th', { scope: 'col' },
    sideTag(v.scenario, s.side), ' ', h('span', { class: 'attacks' }, `(${s.attacks} attack${s.attacks === 1 ? '' : 's'})`))));
  const rows = keys.map((k) => h('tr', {}, h('th', { scope: 'row' }, resultWord(v, k)),
    ...sides.map((s) => h('td', {}, `${(s.expected_decimal[k] ?? 0).toFixed(2)} / ${s.actual[k] ?? 0}`))));
  return h('div', { class: 'ledger', id: 'ledger' },
    h('h3', {}, 'Luck ledger: expected / actual'),
    h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows)),
    h('p', { class: 'muted' }, 'Expected: the sum of each attack’s exact odds when it was ordered. More than expected is luck.'));
}

/// What the scenario's events still bring (docs/scenario-format.md#events): the reinforcements not yet arrived, by
/// the turn they are due, with their entry squares, and the timed changes to come. `null` when nothing is to come.
export function reinforcementsPanel(v) {
  const events = v.options.events !== 'off';
  const items = [];
  for (const group of v.scenario.reinforcements || []) {
    const waiting = group.units.map((id) => v.units[id]).filter((u) => u.waiting);
    if (!waiting.length || !events) continue;
    const turns = [...new Set(waiting.map((u) => u.due).filter(Boolean))];
    const when = turns.length ? `Turn ${Math.min(...turns)}` : 'Not before the end';
    const late = turns.some((t) => t > group.turn) ? ` (due turn ${group.turn}: its entry square was held)` : '';
    items.push(h('li', { 'data-group': group.id },
      h('strong', {}, when), ' · ', sideTag(v.scenario, group.side), ` ${group.name}${late}: `,
      waiting.map((u) => `${u.name} (${u.own_arm || u.arm}) at ${u.at}${u.due && u.due !== Math.min(...turns) ? `, turn ${u.due}` : ''}`).join('; ')));
  }
  for (const change of events ? (v.scenario.changes || []).filter((c) => c.turn > v.turn) : []) {
    items.push(h('li', { 'data-change': change.id }, h('strong', {}, `Turn ${change.turn}`), ' · ', withRuleLinks(change.text)));
  }
  if (!items.length) return null;
  return h('div', {},
    h('ul', { class: 'coming' }, ...items),
    h('p', { class: 'muted' }, 'At the start of the turn named, before the cards are dealt. A unit whose entry square is held waits for the next turn.'));
}

/// Each side's destroyed units, by name (a reinforcement not yet arrived is not lost).
export function losses(v) {
  return v.scenario.sides.map((s) => {
    const lost = v.units.filter((u) => u.side === s.side && !u.alive && !u.waiting).map((u) => u.name);
    return h('div', { class: 'losses' }, sideTag(v.scenario, s.side), ` lost ${lost.length} of ${s.starting_units} units${lost.length ? `: ${lost.join(', ')}` : ''}`);
  });
}

/// The result in a few words: who won and why.
export function resultHeadline(v) {
  const r = v.result;
  const why = r.reason === 'turn_limit' ? 'on points at the turn limit (R8.2)'
    : r.reason === 'draw_agreed' ? 'agreed between the players'
      : r.reason.exhaustion ? `${sideName(v.scenario, r.reason.exhaustion)} is exhausted (R8.1)`
        : r.reason.out_of_time ? `on time: ${sideName(v.scenario, r.reason.out_of_time)} did not move by the deadline`
          : `${sideName(v.scenario, r.reason.resigned)} resigned`;
  return h('div', { class: 'headline' },
    r.winner ? [sideTag(v.scenario, r.winner), ' wins'] : 'A draw',
    h('div', { class: 'muted' }, withRuleLinks(why), ` · points ${sideName(v.scenario, 'A')} ${r.points[0]}, ${sideName(v.scenario, 'B')} ${r.points[1]}`));
}

/// The exact odds of an order on one line, for the order bar: "hit 50.0% · shaken 33.3% · …".
export function oddsLine(v, odds) {
  const parts = ['hit', 'no_effect', 'shaken', 'retreat', 'destroyed'].filter((r) => r in odds.decimals).map((r) => `${resultWord(v, r)} ${percent(odds.decimals[r])}`);
  if (odds.fractions.stand !== '0') parts.push(`stands ${percent(odds.decimals.stand)}`);
  return `Needs ${odds.needed}+: ${parts.join(' · ')}`;
}

/// A die, drawn: a glyph such as 🎲 needs an emoji font, which many systems lack (it shows as a box).
export function dieIcon() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'die-icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = '<rect x="1.5" y="1.5" width="13" height="13" rx="3" fill="none" stroke="currentColor" stroke-width="1.5"/>'
    + '<circle cx="5" cy="5" r="1.4"/><circle cx="8" cy="8" r="1.4"/><circle cx="11" cy="11" r="1.4"/>';
  return svg;
}

/// The dice of the last attack in one line, if it came with the latest decision: "Blue rolled 5: a hit; Grey
/// rolled 3 ≤ 4: shaken".
export function lastRoll(v, log) {
  let i = log.length - 1;
  while (i >= 0 && log[i].event.event !== 'attack') i--;
  if (i < 0 || log[i].decision < v.decisions) return null;
  const a = log[i].event;
  const parts = [];
  for (const entry of log.slice(i + 1)) {
    const e = entry.event;
    if (e.event === 'to_hit_rolled') parts.push(`${sideName(v.scenario, v.units[a.attacker].side)} rolled ${e.roll}: ${e.hit ? 'a hit' : 'a miss'}`);
    else if (e.event === 'hit_result_rolled') parts.push(`${sideName(v.scenario, v.units[a.target].side)} rolled ${e.roll} ${e.roll <= e.strength ? '≤' : '>'} ${e.strength}: ${resultSaid(v, e.result)}`);
    else if (e.event === 'attack') break;
  }
  return parts.length ? `${a.charge ? capital(chargeWord(v)) : 'Fire'} at ${v.units[a.target].name}: ${parts.join('; ')}` : null;
}

/// The winning chances of a position as a bar in the sides' colours (none where the server gives none).
export function chancesBar(v) {
  const p = v.winning_chances;
  if (p === null || p === undefined) return '';
  const s = v.scenario;
  const pct = Math.round(100 * p);
  return h('div', { class: 'chances', id: 'chances', role: 'img', 'aria-label': `Winning chances: ${sideName(s, 'A')} ${pct}%, ${sideName(s, 'B')} ${100 - pct}%` },
    h('div', { class: 'chances-bar' },
      h('span', { style: `width:${pct}%;background:${sideColour(s, 'A')}` }),
      h('span', { style: `width:${100 - pct}%;background:${sideColour(s, 'B')}` })),
    h('div', { class: 'chances-text' }, sideTag(s, 'A', `${sideName(s, 'A')} ${pct}%`), ' ', sideTag(s, 'B', `${sideName(s, 'B')} ${100 - pct}%`)));
}
