// The lobby: choose a scenario (shipped or uploaded), rule options and a mode; the list of games.

import { api } from './api.js';
import { renderBoard } from './board.js';
import { h } from './util.js';

const OPTION_FIELDS = [
  { name: 'initiative', label: 'Initiative (R3.7)', values: ['cards', 'igougo', 'alternate'] },
  { name: 'once_per_turn', label: 'Once per turn (R3.5)', values: ['false', 'true'] },
  { name: 'blocked_retreat', label: 'Blocked retreat (R7.4)', values: ['destroyed', 'stand'] },
  { name: 'pivot_is_move', label: 'Pivot is a move (R5.5)', values: ['true', 'false'] },
  { name: 'to_hit', label: 'To hit (R6.4)', values: ['5', '2', '3', '4', '6'] },
];

export async function showLobby(app) {
  app.innerHTML = '';
  const left = h('div');
  const right = h('div');
  app.append(h('div', { class: 'lobby' }, left, right));
  let scenarios = [];
  let info = { players: ['random', 'greedy', 'mcts'] };
  try {
    [scenarios, info] = await Promise.all([api.scenarios(), api.info()]);
  } catch (e) {
    left.append(h('p', { class: 'error' }, `The server did not answer: ${e.message}`));
    return;
  }
  let chosen = { kind: "shipped", name: scenarios[0].name, scenario: scenarios[0] };

  const cards = h('div', { class: 'scenarios' });
  const detail = h('div', { class: 'panel' });
  function showDetail() {
    detail.innerHTML = '';
    const s = chosen.scenario;
    const sides = s.sides.map((x) => `${x.name} (${x.home} edge, exhausted at ${x.exhaustion} lost)`).join(' against ');
    detail.append(h('h2', {}, s.title), h('p', { class: 'muted' }, `${s.map.width}×${s.map.height}, ${s.turns} turns. ${sides}.`), h('div', { class: 'description' }, ...paragraphs(s.description)));
    for (const card of cards.children) card.classList.toggle('selected', card.dataset.name === chosen.name);
    renderSides();
  }
  for (const entry of scenarios) {
    const preview = h('div');
    const card = h('div', { class: 'scenario-card', 'data-name': entry.name, tabindex: 0, onclick: () => { chosen = { kind: "shipped", name: entry.name, scenario: entry }; showDetail(); } }, h("h3", {}, entry.title), preview);
    renderBoard(preview, entry, {});
    cards.append(card);
  }

  // Upload a scenario of one's own.
  const upload = h('input', { type: 'file', accept: '.toml,text/plain', 'aria-label': 'Scenario file' });
  const uploadProblems = h('div', { class: 'error' });
  upload.addEventListener('change', async () => {
    uploadProblems.textContent = '';
    const file = upload.files[0];
    if (!file) return;
    const text = await file.text();
    try {
      const reply = await api.check(text, file.name);
      if (!reply.ok) {
        uploadProblems.textContent = reply.message;
        return;
      }
      chosen = { kind: 'upload', name: file.name, text, scenario: reply.scenario };
      showDetail();
    } catch (e) {
      uploadProblems.textContent = e.message;
    }
  });

  left.append(h('div', { class: 'panel' }, h('h2', {}, 'Choose a battle'), cards, h('p', {}, 'Or your own scenario file: ', upload), uploadProblems), detail);

  // Options, mode and start.
  const options = {};
  const optionInputs = OPTION_FIELDS.map((f) => {
    const select = h('select', { name: f.name, onchange: () => { options[f.name] = select.value; } }, ...f.values.map((v) => h('option', { value: v }, v)));
    return h('label', {}, f.label, select);
  });
  const mode = h('select', { name: 'mode' },
    h('option', { value: 'computer' }, 'Against the computer'),
    h('option', { value: 'hotseat' }, 'Hot-seat (one screen)'),
    h('option', { value: 'two_players' }, 'Two players (a link each)'),
    h('option', { value: 'watch' }, 'Watch the computer play itself'));
  const humanSide = h('select', { name: 'human_side' });
  const level = h('select', { name: 'computer' }, ...info.players.filter((p) => p !== 'random').concat(['random']).map((p) => h('option', { value: p }, p)));
  function renderSides() {
    humanSide.innerHTML = '';
    for (const s of chosen.scenario.sides) humanSide.append(h('option', { value: s.side }, `Play ${s.name}`));
  }
  const computerRow = h('div', { class: 'row' }, humanSide, h('label', {}, 'Computer:', level));
  mode.addEventListener('change', () => { computerRow.style.display = mode.value === 'computer' || mode.value === 'watch' ? '' : 'none'; humanSide.style.display = mode.value === 'computer' ? '' : 'none'; });
  const startProblems = h('div', { class: 'error' });
  const links = h('div', { class: 'links' });
  const start = h('button', { id: 'start', onclick: async () => {
    startProblems.textContent = '';
    const request = { mode: mode.value, options };
    if (chosen.kind === 'shipped') request.scenario = chosen.name;
    else { request.scenario_text = chosen.text; request.scenario_file = chosen.name; }
    if (mode.value === 'computer') { request.human_side = humanSide.value; request.computer = level.value; }
    if (mode.value === 'watch') request.computer = level.value;
    start.disabled = true;
    try {
      const created = await api.create(request);
      remember(created);
      if (mode.value === 'two_players') {
        showLinks(links, created);
      } else {
        location.href = created.links[mainRole(created)];
      }
    } catch (e) {
      startProblems.textContent = e.message;
    } finally {
      start.disabled = false;
    }
  } }, 'Start the battle');
  right.append(h('div', { class: 'panel' },
    h('h2', {}, 'How to play it'),
    h('fieldset', {}, h('legend', {}, 'Mode'), mode, computerRow),
    h('fieldset', {}, h('legend', {}, 'Rule options (RULES.md R11)'), ...optionInputs),
    start, startProblems, links));
  right.append(await gamesPanel());
  showDetail();
}

function mainRole(created) {
  const t = created.tokens;
  return t.hotseat ? 'hotseat' : t.A && created.view.you_play.includes('A') ? 'A' : t.B && created.view.you_play.includes('B') ? 'B' : t.A ? 'A' : 'spectator';
}

function showLinks(box, created) {
  box.innerHTML = '';
  box.append(h('h3', {}, 'Send each player their link'));
  for (const [role, path] of Object.entries(created.links)) {
    const url = new URL(path, location.href).href;
    const name = role === 'spectator' ? 'Spectators' : created.view.players.find((p) => p.side === role)?.name || role;
    box.append(h('label', {}, name), h('div', { class: 'row' }, h('input', { value: url, readonly: true, 'data-role': role, onclick: (e) => e.target.select() }), h('a', { href: path, target: '_blank' }, 'open')));
  }
}

/// Games created in this browser are remembered with their links, so they can be resumed.
function remember(created) {
  const saved = JSON.parse(localStorage.getItem('pacw-games') || '{}');
  saved[created.id] = created.links;
  localStorage.setItem('pacw-games', JSON.stringify(saved));
}

async function gamesPanel() {
  const panel = h('div', { class: 'panel' }, h('h2', {}, 'Games'));
  let list;
  try {
    list = (await api.games()).games;
  } catch (e) {
    panel.append(h('p', { class: 'error' }, e.message));
    return panel;
  }
  if (!list.length) {
    panel.append(h('p', { class: 'muted' }, 'No games yet.'));
    return panel;
  }
  const mine = JSON.parse(localStorage.getItem('pacw-games') || '{}');
  const rows = list.map((g) => {
    const links = g.links || mine[g.id] || {};
    const link = links.hotseat || links.A || links.B || links.spectator;
    const state = g.status === 'damaged' ? `damaged: ${g.error}` : g.status === 'finished' ? g.result_text : `turn ${g.turn}/${g.turns}`;
    const open = link ? h('a', { href: link }, g.status === 'finished' ? 'review' : 'resume') : h('span', { class: 'muted' }, 'no link here');
    const replay = link && g.status !== 'damaged' ? h('a', { href: `${link}?replay` }, 'replay') : '';
    return h('tr', {}, h('td', {}, g.title || g.scenario || g.id), h('td', {}, g.mode || ''), h('td', {}, state || ''), h('td', {}, open, ' ', replay));
  });
  panel.append(h('table', { class: 'games' }, h('tr', {}, h('th', {}, 'Battle'), h('th', {}, 'Mode'), h('th', {}, 'State'), h('th', {}, '')), ...rows));
  return panel;
}

/// A description's paragraphs, with the hard line breaks of the TOML file joined.
function paragraphs(text) {
  return text.trim().split(/\n\s*\n/).map((p) => h('p', {}, p.replace(/\s*\n\s*/g, ' ')));
}
