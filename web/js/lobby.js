// The lobby: choose a battle (shipped or your own file, each with a map preview), a mode, the computer and the rule
// options, each explained where it is chosen; and "your games", the links this browser keeps.

import { paceText, timeLeft } from './deadline.js';
import { api, features, gameHref, pageHref } from './api.js';
import { previewBoard } from './board.js';
import { exportText, forget, importText, mainRole, remember, rememberCreated, remembered, setSetting } from './games.js';
import { copyText, h, ruleHref, sideTag, warningLines, when, withRuleLinks } from './util.js';
import { currentAccount } from './account.js';
import { sendToOpponent } from './club.js';

/// The Rules choice that sends a variant file of the player's own.
const OWN_VARIANT = 'own-file';

const MODES = [
  ['computer', 'Against the computer', 'You against the computer: choose your side and the computer player.'],
  ['hotseat', 'Hot-seat (one screen)', 'Two people at one screen, taking turns; a hand-over screen between the sides (optional).'],
  ['two_players', 'Two players (a link each)', 'Two people on two machines: each side gets a private link; send the other one to your opponent.'],
  ['watch', 'Watch the computer play itself', 'The computer plays both sides while you watch, move by move.'],
];

/// The modes this place offers (two players on two machines, and watching the computer, need a server).
const OFFERED_MODES = MODES.filter(([v]) => (v !== 'two_players' || features.twoPlayers) && (v !== 'watch' || features.watch));

/// The rule options of the first block (each a select, its values explained) and of "More numbers", from the
/// engine's one list of options (`/api/info`'s `option_specs`).
function optionFields(specs) {
  const values = (spec) => {
    const v = spec.values;
    if (v.kind === 'choice') return Object.fromEntries(v.choices);
    if (v.kind === 'switch') return { false: v.off, true: v.on };
    return {};
  };
  const rules = specs.filter((s) => s.group === 'rules').map((s) => ({ name: s.name, label: s.label, rule: s.rule, values: values(s) }));
  const numbers = specs.filter((s) => s.group === 'numbers' && s.values.kind === 'whole')
    .map((s) => [s.name, s.label, s.rule, s.values.min, s.values.max]);
  return { rules, numbers };
}

/// How many of your games the lobby lists before "Show all".
const GAMES_SHOWN = 4;

/// The layout of a phone (the stylesheet's breakpoint).
const PHONE = window.matchMedia('(max-width: 900px)');

export async function showLobby(app) {
  document.title = 'pacw — the Portable ACW Wargame';
  let scenarios = [];
  let info = { offered: [], default_level: 'veteran', option_specs: [] };
  try {
    [scenarios, info] = await Promise.all([api.scenarios(), api.info()]);
  } catch (e) {
    app.replaceChildren(h('p', { class: 'error' }, `The server did not answer: ${e.message}`));
    return;
  }
  const lobby = new Lobby(app, scenarios, info);
  lobby.render();
}

class Lobby {
  constructor(app, scenarios, info) {
    this.app = app;
    this.scenarios = scenarios;
    this.info = info;
    ({ rules: this.optionFields, numbers: this.numberFields } = optionFields(info.option_specs));
    this.chosen = { kind: 'shipped', name: scenarios[0].name, scenario: scenarios[0] };
  }

  render() {
    this.cards = h('div', { class: 'scenarios', role: 'listbox', 'aria-label': 'Battles' });
    for (const entry of this.scenarios) {
      const preview = h('div', { class: 'preview' });
      const pick = () => {
        this.choose({ kind: 'shipped', name: entry.name, scenario: entry });
        // On a phone the battles scroll sideways and the description with its Start comes next: bring it up.
        if (PHONE.matches) this.detail.scrollIntoView({ block: 'start', behavior: 'smooth' });
      };
      const card = h('div', {
        class: 'scenario-card', 'data-name': entry.name, tabindex: 0, role: 'option',
        onclick: pick,
        onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); } },
      }, h('h2', {}, entry.title), preview, h('p', { class: 'muted situation' }, firstSentence(entry.description)),
      h('p', { class: 'situation-line' }, secondSentence(entry.description)), sizeLine(entry), balanceLine(entry));
      previewBoard(preview, entry);
      this.cards.append(card);
    }
    this.detail = h('div', { class: 'panel detail', id: 'detail' });
    this.uploadProblems = h('div', { class: 'error', id: 'upload-problems' });
    this.uploadWarnings = h('div', { class: 'warning', id: 'upload-warnings' });
    const upload = h('input', { type: 'file', accept: '.toml,text/plain', 'aria-label': 'Scenario file', id: 'upload' });
    upload.addEventListener('change', () => this.upload(upload.files[0]));
    this.saveProblems = h('div', { class: 'error', id: 'save-problems' });
    const openSave = h('input', { type: 'file', accept: '.json,application/json', 'aria-label': 'A saved game', id: 'open-save' });
    openSave.addEventListener('change', () => this.openSave(openSave.files[0]));
    // The page's first-level heading: what the lobby is for.
    const choose = h('div', { class: 'panel choose' }, h('h1', {}, 'Choose a battle'), this.cards,
      features.editor ? h('p', { class: 'make-battle' }, h('a', { href: pageHref('editor'), id: 'open-editor', class: 'button' }, 'Make your own battle'), ' in the editor: paint the map, set out the troops, play it.') : '',
      features.upload ? h('p', {}, 'Or your own scenario file: ', upload, ' ', h('a', { href: pageHref('format'), target: 'pacw-rules' }, 'how to write one')) : '', this.uploadProblems, this.uploadWarnings,
      h('p', {}, 'Or open a save (from a finished game, ', h('code', {}, 'pacw play --save'), ' or ', h('code', {}, 'pacw simulate --save-games'), '): ', openSave), this.saveProblems);
    this.gamesPanel = h('div', { class: 'panel games-panel', id: 'your-games' });
    // Four blocks that the stylesheet places: two columns on a wide screen; one, with Start near the top, on a phone.
    this.lobbyEl = h('div', { class: 'lobby' }, choose, this.setupPanel(), this.detail, this.gamesPanel);
    this.app.replaceChildren(this.lobbyEl,
      h('p', { class: 'muted footer' }, 'New here? Read ', h('a', { href: pageHref('guide') }, 'your first game'), ', or ', h('a', { href: pageHref('rules') }, 'the rules of play'), '.'));
    this.showDetail();
    this.renderGames();
    setInterval(() => this.renderGames(), 10000);
    document.addEventListener('visibilitychange', () => { if (!document.hidden) this.renderGames(); });
  }

  choose(chosen) {
    this.chosen = chosen;
    this.uploadProblems.textContent = '';
    this.uploadWarnings.textContent = '';
    this.showDetail();
  }

  /// Opens a saved game as a new hot-seat game: a finished one in the replay view, else where it stands.
  async openSave(file) {
    this.saveProblems.textContent = '';
    if (!file) return;
    // Sent as text: JSON.parse would round the save's 64-bit seed to a double and replay another game.
    const save = await file.text();
    try {
      const created = await api.create({ save, mode: 'hotseat' });
      // The main role: hot-seat on a server; in the browser, a save against the computer stays against it.
      const role = created.view.role;
      rememberCreated(created, role);
      location.href = gameHref(created.tokens[role], created.view.result ? 'replay' : '');
    } catch (e) {
      this.saveProblems.textContent = e.message;
    }
  }

  async upload(file) {
    this.uploadProblems.textContent = '';
    this.uploadWarnings.textContent = '';
    if (!file) return;
    const text = await file.text();
    try {
      const reply = await api.check(text, file.name);
      if (!reply.ok) {
        // A bad file is not a choice: Start stays off until a battle is chosen again.
        this.chosen = null;
        this.showDetail();
        this.uploadProblems.textContent = reply.message;
        this.uploadWarnings.textContent = warningLines(reply);
        return;
      }
      this.choose({ kind: 'upload', name: file.name, text, scenario: reply.scenario });
      this.uploadWarnings.textContent = warningLines(reply);
    } catch (e) {
      this.chosen = null;
      this.showDetail();
      this.uploadProblems.textContent = e.message;
    }
  }

  showDetail() {
    const c = this.chosen;
    for (const card of this.cards.children) {
      const on = c && c.kind === 'shipped' && card.dataset.name === c.name;
      card.classList.toggle('selected', Boolean(on));
      card.setAttribute('aria-selected', on ? 'true' : 'false');
    }
    this.start.disabled = !c;
    if (!c) {
      this.detail.replaceChildren(h('p', { class: 'muted' }, 'No battle chosen: pick one above, or upload a file that passes the checks.'));
      return;
    }
    const s = c.scenario;
    const preview = h('div', { class: 'preview large', id: 'detail-preview' });
    const sides = s.sides.map((x) => h('li', {}, sideTag(s, x.side), ` — ${x.starting_units} units from the ${{ N: 'north', S: 'south', E: 'east', W: 'west' }[x.home]} edge; exhausted after losing ${x.exhaustion}`));
    // A phone's Start beside the description, with the settings of "How to play it" below (the same as #start).
    const quick = h('p', { class: 'quick-start' }, h('button', { id: 'start-here', onclick: () => this.create() }, `Start ${s.title}`), ' ',
      h('span', { class: 'muted' }, `${MODES.find(([v]) => v === this.mode.value)[1].toLowerCase()}; change it below`));
    this.detail.replaceChildren(h('h2', {}, s.title, c.kind === 'upload' ? h('span', { class: 'muted' }, ` (${c.name})`) : ''), quick,
      h('div', { class: 'detail-grid' }, preview, h('div', {},
        h('p', { class: 'muted' }, `${s.map.width}×${s.map.height} squares, ${s.turns} turns, ${s.points_per_destroyed} point${s.points_per_destroyed === 1 ? '' : 's'} per enemy unit destroyed.`),
        h('ul', {}, ...sides),
        // A long description scrolls in its box: focusable, so that the keyboard can scroll it too.
        h('div', { class: 'description', tabindex: 0, role: 'region', 'aria-label': `${s.title}: the situation` }, ...paragraphs(s.description)))));
    previewBoard(preview, s);
    this.renderSides();
    this.numberInputs = [];
    this.defaults = null;
    // The Rules choices for this battle; they set the options' first values (`showRules`).
    this.renderVariants();
  }

  /// The rule options' first values and the fields of "More numbers" under the rules chosen: the battle's own
  /// options, then those the rules set (a variant's changes to the standard numbers, its `[options]`), and a field for
  /// each option of a variant's own (its to-hit modifiers, its arms' numbers) with its file's value. A value the
  /// player changed stays, where the rules chosen still have the option.
  showRules() {
    const s = this.chosen?.scenario;
    if (!s || !this.numbers) return;
    const rules = this.rulesChosen();
    const before = this.defaults;
    this.defaults = { ...s.options, ...rules.options };
    for (const f of this.optionFields) {
      const select = this.optionInputs[f.name];
      const first = this.defaults[f.name] ?? Object.keys(f.values)[0];
      // A choice the player made stays; one left as it was follows the rules.
      if (!before || select.value === String(before[f.name] ?? Object.keys(f.values)[0])) select.value = first;
      select.dispatchEvent(new Event('change'));
    }
    this.renderNumbers(s, rules);
  }

  /// What the rules chosen add to the battle's own: `{title, href, modifiers, arms, options}`, a variant's own
  /// to-hit modifiers (`{id, name, value}`) and arms (`{id, name, like, strength, movement, range}`), and the options
  /// a game under them starts from (name → value). A shipped variant's from `GET /api/info`, laid over the shipped
  /// variant the battle names (if it does); a variant file of one's own from its check beside the battle (`ownRules`).
  rulesChosen() {
    const s = this.chosen?.scenario;
    const shipped = (name) => (this.info.variants || []).find((v) => v.name === name);
    const layers = [];
    // The check of one's own file reads it over the battle's own rules already.
    if (this.variant.value === OWN_VARIANT) {
      if (this.ownRules) layers.push(this.ownRules);
    } else {
      for (const name of [s?.variant, this.variant.value]) if (shipped(name)) layers.push({ ...shipped(name), href: pageHref(`rules/${name}`) });
    }
    const byId = (lists) => [...new Map(lists.flat().map((x) => [x.id, x])).values()];
    return {
      title: layers.map((l) => l.title).join(' + '),
      href: layers.length === 1 ? layers[0].href : null,
      modifiers: byId(layers.map((l) => l.modifiers || [])),
      arms: byId(layers.map((l) => (l.arms || []).filter((a) => a.id !== a.like))),
      options: Object.assign({}, ...layers.map((l) => l.options || {})),
    };
  }

  /// The battle's own numbers in "More numbers", as the rules chosen set them: its options, its turn limit and each
  /// side's exhaustion point; then the options of the variant's own (`rules`, from `rulesChosen`), with its names.
  renderNumbers(s, rules) {
    const d = this.defaults;
    const fields = this.numberFields.map(([name, label, rule, min, max]) => ({ name, label, rule, min, max, value: d[name] }));
    fields.push({ name: 'turns', label: 'Turns', rule: 'R8.2', min: 1, max: 99, value: d.turns ?? s.turns });
    for (const side of s.sides) {
      fields.push({ name: `exhaustion.${side.id}`, label: `${side.name} exhausted after losing`, rule: 'R8.1', min: 1, max: side.starting_units, value: d[`exhaustion.${side.id}`] ?? side.exhaustion });
    }
    // A variant's own: each to-hit modifier (R6.4, cited by its id) and each arm's numbers (R2.2, R2.6).
    const own = [
      ...rules.modifiers.map((m) => ({ name: `modifier.${m.id}`, label: capital(m.name), cite: m.id, min: -3, max: 3, value: d[`modifier.${m.id}`] ?? m.value })),
      ...rules.arms.flatMap((a) => [
        { name: `strength.${a.id}`, label: `${a.name} strength`, rule: 'R2.2', min: 1, max: 6, value: d[`strength.${a.id}`] ?? a.strength },
        { name: `move.${a.id}`, label: `${a.name} moves`, rule: 'R2.6', min: 1, max: 26, value: d[`move.${a.id}`] ?? a.movement },
        { name: `range.${a.id}`, label: `${a.name} range`, rule: 'R2.6', min: 1, max: 26, value: d[`range.${a.id}`] ?? a.range },
      ]),
    ].map((f) => ({ ...f, own: true }));
    // What the player changed stays where the field does (the Rules chosen anew); a new battle starts afresh.
    const kept = Object.fromEntries((this.numberInputs || []).filter(({ field, input }) => input.value !== String(field.value)).map(({ field, input }) => [field.name, input.value]));
    this.numberInputs = [...fields, ...own].map((f) => {
      const input = h('input', { type: 'number', name: f.name, min: f.min, max: f.max, step: 1, value: kept[f.name] ?? f.value, 'data-default': f.value, 'aria-label': f.label });
      const mark = () => input.classList.toggle('changed', input.value !== String(f.value));
      input.addEventListener('input', mark);
      mark();
      return { field: f, input };
    });
    const row = ({ field: f, input }) => h('label', { class: `number-row${f.own ? ' own-number' : ''}` },
      h('span', {}, f.label, ' ', f.rule ? h('a', { href: ruleHref(f.rule), target: 'pacw-rules', class: 'rule' }, f.rule)
        : rules.href ? h('a', { href: rules.href, target: 'pacw-rules', class: 'rule' }, f.cite) : h('span', { class: 'rule' }, f.cite)), input);
    const ownRows = this.numberInputs.filter(({ field }) => field.own);
    this.numbers.replaceChildren(...this.numberInputs.filter(({ field }) => !field.own).map(row),
      ...(ownRows.length ? [h('p', { class: 'own-numbers-heading', id: 'own-numbers' }, `The variant’s own — ${rules.title}`), ...ownRows.map(row)] : []));
    this.numbersNote.textContent = ownRows.length ? `; ${ownRows.length} of the variant’s own` : '';
  }

  setupPanel() {
    const modeHelp = h('p', { class: 'help', id: 'mode-help' });
    this.mode = h('select', { name: 'mode', 'aria-label': 'Mode', 'aria-describedby': 'mode-help' }, ...OFFERED_MODES.map(([v, text]) => h('option', { value: v }, text)));
    this.humanSide = h('select', { name: 'human_side', 'aria-label': 'Your side' });
    // The three levels for players, then the laboratory's own players; each with its sentence (from the server).
    const option = (p) => h('option', { value: p.name, selected: p.name === this.info.default_level }, p.name);
    const levels = this.info.offered.filter((p) => p.level);
    const lab = this.info.offered.filter((p) => !p.level);
    const playerHelp = h('p', { class: 'help', id: 'player-help' });
    this.level = h('select', { name: 'computer', 'aria-describedby': 'player-help' },
      h('optgroup', { label: 'Levels' }, ...levels.map(option)),
      h('optgroup', { label: 'The laboratory’s players' }, ...lab.map(option)));
    this.level.value = this.info.default_level;
    const showPlayer = () => {
      const about = this.info.offered.find((p) => p.name === this.level.value)?.about || '';
      playerHelp.textContent = `${this.level.value}: ${about}`;
    };
    this.level.addEventListener('change', showPlayer);
    showPlayer();
    this.handover = h('input', { type: 'checkbox', name: 'handover', checked: true });
    this.rated = h('input', { type: 'checkbox', name: 'rated', id: 'rated' });
    this.ratedRow = h('label', { class: 'rated-option', hidden: true }, this.rated, ' Rated (no take-backs): your rating and the computer’s move');
    currentAccount().then((me) => { this.account = me; showMode(); });
    const computerRow = h('div', { class: 'row' }, this.humanSide, h('label', {}, 'Computer:', this.level));
    const handoverRow = h('label', { class: 'handover-option' }, this.handover, ' a hand-over screen between the sides');
    // A two-player game's pace: live, or days for each move (the waiting player may claim the win once they pass).
    this.pace = h('select', { name: 'pace', id: 'pace' }, ...['live', '1d', '3d', '7d'].map((p) => h('option', { value: p }, paceText(p))));
    const paceRow = h('label', { class: 'pace-option' }, 'Pace: ', this.pace);
    const showMode = () => {
      const m = this.mode.value;
      modeHelp.textContent = MODES.find(([v]) => v === m)[2];
      computerRow.hidden = !(m === 'computer' || m === 'watch');
      playerHelp.hidden = computerRow.hidden;
      this.humanSide.hidden = m !== 'computer';
      handoverRow.hidden = m !== 'hotseat';
      paceRow.hidden = m !== 'two_players';
      this.ratedRow.hidden = !(this.account && m === 'computer');
    };
    this.mode.addEventListener('change', showMode);
    this.optionInputs = {};
    const optionRows = this.optionFields.map((f) => {
      const help = h('span', { class: 'help' });
      const select = h('select', { name: f.name }, ...Object.keys(f.values).map((v) => h('option', { value: v }, v)));
      select.addEventListener('change', () => { help.textContent = f.values[select.value]; });
      this.optionInputs[f.name] = select;
      return h('div', { class: 'option-row' }, h('label', {}, f.label, ' ', h('a', { href: ruleHref(f.rule), target: 'pacw-rules', class: 'rule' }, f.rule), select), help);
    });
    // The rules themselves: the battle's own (the standard, or the variant it names), or one of the shipped variants
    // or a variant file of the player's own (docs/variants.md, sent as its text), laid over the battle's own.
    const variantHelp = h('span', { class: 'help', id: 'variant-help' });
    this.variantHelp = variantHelp;
    this.variant = h('select', { name: 'variant', 'aria-describedby': 'variant-help' });
    this.variantFile = h('input', { type: 'file', id: 'variant-file', accept: '.toml,text/plain', hidden: true, 'aria-label': 'Your variant file' });
    this.variant.addEventListener('change', () => this.showVariant());
    this.variantFile.addEventListener('change', () => this.learnOwnRules());
    this.renderVariants();
    optionRows.unshift(h('div', { class: 'option-row' }, h('label', {}, 'Rules', this.variant), this.variantFile, variantHelp));
    this.numbers = h('div', { class: 'numbers', id: 'numbers' });
    this.numberInputs = [];
    this.numbersNote = h('span', { id: 'own-numbers-note' });
    const more = h('details', { class: 'more-numbers' }, h('summary', {}, 'More numbers: movement, range, strength, modifiers, turns, exhaustion', this.numbersNote), this.numbers);
    this.startProblems = h('div', { class: 'error', id: 'start-problems' });
    this.links = h('div', { class: 'links', id: 'links' });
    this.start = h('button', { id: 'start', onclick: () => this.create() }, 'Start the battle');
    showMode();
    return h('div', { class: 'panel setup' },
      h('h2', {}, 'How to play it'),
      h('fieldset', {}, h('legend', {}, 'Mode'), this.mode, modeHelp, computerRow, playerHelp, handoverRow, paceRow, this.ratedRow),
      h('fieldset', {}, h('legend', {}, 'Rule options ', h('a', { href: ruleHref('R11'), target: 'pacw-rules', class: 'rule' }, 'R11')),
        h('p', { class: 'help' }, 'The battle’s own settings are chosen first; change them to try a variant.'), ...optionRows, more),
      this.start, this.startProblems, this.links);
  }

  /// The Rules choices for the chosen battle: its own rules first (the standard, or the variant it names: a shipped
  /// variant is then not offered again, it would be the same rules), then the variants laid over them.
  renderVariants() {
    const s = this.chosen?.scenario;
    const own = s?.rules ? s.rules.name : null;
    const before = this.variant.value;
    this.variant.replaceChildren(
      h('option', { value: '' }, own ? `The battle’s own: ${own}` : 'Standard rules'),
      ...(this.info.variants || []).filter((v) => v.name !== s?.variant).map((v) => h('option', { value: v.name }, v.title)),
      h('option', { value: OWN_VARIANT }, 'A variant file of your own…'));
    this.variant.value = [...this.variant.options].some((o) => o.value === before) ? before : '';
    this.showVariant();
  }

  /// What the Rules choice plays by, in a sentence: laid over the battle's own variant where it names one.
  showVariant() {
    const s = this.chosen?.scenario;
    const own = s?.rules ? s.rules.name : null;
    const over = own ? ` Laid over the battle’s own rules, ${own}.` : '';
    const chosen = (this.info.variants || []).find((v) => v.name === this.variant.value);
    this.variantFile.hidden = this.variant.value !== OWN_VARIANT;
    if (chosen) this.variantHelp.replaceChildren(chosen.description, over, ' ', h('a', { href: pageHref(`rules/${chosen.name}`), target: 'pacw-rules' }, 'Its rules'));
    else if (this.variant.value === OWN_VARIANT) this.variantHelp.replaceChildren(`A .toml file as docs/variants.md describes: its problems, if any, are shown when you start.${over}`);
    else if (own) this.variantHelp.replaceChildren(`The battle is played by the variant it names. ${s.rules.description}`, s.variant ? h('span', {}, ' ', h('a', { href: pageHref(`rules/${s.variant}`), target: 'pacw-rules' }, 'Its rules')) : '');
    else this.variantHelp.replaceChildren('The rules as written.');
    if (this.variant.value === OWN_VARIANT) this.learnOwnRules();
    else this.showRules();
  }

  /// Checks the battle beside the variant file of one's own (as a game with the two is played) for the options it
  /// adds, `ownRules`, and shows them: none until a file is chosen, nor from a file that does not read (its problems
  /// are shown at Start).
  async learnOwnRules() {
    const c = this.chosen;
    const file = this.variantFile.files[0];
    const ask = (this.ownAsked || 0) + 1;
    this.ownAsked = ask;
    this.ownRules = null;
    this.showRules();
    if (c && file && this.variant.value === OWN_VARIANT) {
      try {
        const variant = { text: await file.text(), file: file.name };
        const reply = await api.check(c.kind === 'shipped' ? c.scenario.text : c.text, c.kind === 'shipped' ? c.scenario.file : c.name, variant);
        if (ask !== this.ownAsked) return;
        if (reply.modifiers || reply.arms) {
          this.ownRules = { title: reply.scenario?.rules?.name || file.name, modifiers: reply.modifiers || [], arms: reply.arms || [], options: reply.scenario?.options || {} };
        }
      } catch {
        // Not checked: its problems are shown at Start.
      }
      if (ask === this.ownAsked && this.ownRules) this.showRules();
    }
  }

  renderSides() {
    this.humanSide.replaceChildren(...this.chosen.scenario.sides.map((s) => h('option', { value: s.side }, `Play ${s.name}`)));
  }

  async create() {
    const c = this.chosen;
    this.startProblems.textContent = '';
    if (!c) {
      this.startProblems.textContent = 'Choose a battle first.';
      return;
    }
    const mode = this.mode.value;
    const options = {};
    for (const f of this.optionFields) {
      const v = this.optionInputs[f.name].value;
      if (String((this.defaults || c.scenario.options)[f.name]) !== v) options[f.name] = v;
    }
    for (const { field, input } of this.numberInputs) {
      if (input.value !== '' && input.value !== String(field.value)) options[field.name] = input.value;
    }
    const request = { mode, options };
    if (this.variant.value === OWN_VARIANT) {
      const file = this.variantFile.files[0];
      if (!file) {
        this.startProblems.textContent = 'Choose your variant file first (or other rules).';
        return;
      }
      request.variant_text = await file.text();
      request.variant_file = file.name;
    } else if (this.variant.value) request.variant = this.variant.value;
    if (c.kind === 'shipped') request.scenario = c.name;
    else { request.scenario_text = c.text; request.scenario_file = c.name; }
    if (mode === 'computer') { request.human_side = this.humanSide.value; request.computer = this.level.value; }
    if (mode === 'computer' && this.account && this.rated.checked) request.rating = 'rated';
    if (mode === 'watch') request.computer = this.level.value;
    if (mode === 'two_players' && this.pace.value !== 'live') request.pace = this.pace.value;
    this.start.disabled = true;
    try {
      const created = await api.create(request);
      const main = mainRole(created, mode, request.human_side);
      rememberCreated(created, main);
      if (mode === 'hotseat') setSetting(`handover-${created.tokens.hotseat}`, this.handover.checked);
      if (mode === 'two_players') {
        this.showLinks(created);
        this.renderGames();
      } else {
        location.href = created.links[main];
      }
    } catch (e) {
      this.startProblems.textContent = e.message;
    } finally {
      this.start.disabled = !this.chosen;
    }
  }

  /// A two-player game is made: the clear next step is to send the other side's link, then to open one's own.
  showLinks(created) {
    const box = this.links;
    const url = (role) => new URL(created.links[role], location.href).href;
    const name = (role) => created.view.players.find((p) => p.side === role)?.name || role;
    const row = (role, label) => h('div', { class: 'link-row' }, h('label', { for: `link-${role}` }, label),
      h('input', { id: `link-${role}`, value: url(role), readonly: true, 'data-role': role, onclick: (e) => e.target.select() }), copyButton(url(role)));
    const invite = sendToOpponent(url('B'), { title: `Send this to your opponent: they play ${name('B')}`, note: 'Whoever has this link plays that side: send it privately (mail, chat). The game is also in your games below.' });
    invite.querySelector('#invite-link').setAttribute('data-role', 'B');
    box.replaceChildren(invite,
      h('div', { class: 'panel' }, h('h3', {}, `Your side: ${name('A')}`), row('A', 'Your link (keep it)'),
        h('p', {}, h('a', { class: 'button', href: created.links.A, id: 'open-own-side' }, `Open your side (${name('A')})`)),
        h('p', { class: 'help' }, 'Spectators: ', h('a', { href: created.links.spectator, target: '_blank' }, 'a link that only watches'))));
    box.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  /// "Your games": the links kept in this browser, with each game's public facts from the server.
  async renderGames() {
    const panel = this.gamesPanel;
    const mine = remembered();
    const tokens = Object.keys(mine).sort((a, b) => (mine[b].added || 0) - (mine[a].added || 0));
    const summaries = await Promise.all(tokens.map((t) => api.summary(t).catch((e) => ({ missing: e.message }))));
    // Your move first, then games in progress, then finished ones; newest first within each.
    const rank = (s) => (s.missing ? 3 : s.status === 'finished' ? 2 : s.your_turn ? 0 : 1);
    const order = tokens.map((t, i) => i).sort((a, b) => rank(summaries[a]) - rank(summaries[b]));
    const rows = order.map((i) => gameRow(tokens[i], mine[tokens[i]], summaries[i], () => this.renderGames()));
    // The list comes first when there is one (to resume without scrolling), kept short until asked for all.
    this.lobbyEl.classList.toggle('has-games', rows.length > 0);
    const shown = this.allGames ? rows.length : GAMES_SHOWN;
    for (const row of rows.slice(shown)) row.hidden = true;
    const all = rows.length > shown
      ? h('button', { class: 'secondary', id: 'all-games', onclick: () => { this.allGames = true; this.renderGames(); } }, `Show all ${rows.length} games`)
      : '';
    const file = h('input', { type: 'file', accept: '.json,application/json', id: 'import-games', 'aria-label': 'Import your games', hidden: true });
    const note = h('span', { class: 'muted', id: 'games-note' }, this.gamesNote || '');
    file.addEventListener('change', async () => {
      try {
        const n = importText(await file.files[0].text());
        this.gamesNote = `${n} game${n === 1 ? '' : 's'} added.`;
      } catch (e) {
        this.gamesNote = e.message;
      }
      this.renderGames();
    });
    panel.replaceChildren(h('h2', {}, 'Your games'),
      rows.length
        ? h('table', { class: 'games' }, h('tr', {}, h('th', {}, 'Battle'), h('th', {}, 'Started'), h('th', {}, 'Mode and players'), h('th', {}, 'State'), h('th', {}, '')), ...rows)
        : h('p', { class: 'muted' }, 'No games in this browser yet.'),
      h('div', { class: 'row' }, all,
        h('button', { class: 'secondary', id: 'export-games', onclick: () => download('pacw-your-games.json', exportText()) }, 'Export your games'),
        h('button', { class: 'secondary', onclick: () => file.click() }, 'Import'), file, note),
      features.storedHere
        ? h('p', { class: 'help' }, 'Games played here are kept in this browser, offline too. To keep one elsewhere, download its save at the end of the game: the pacw server and ', h('code', {}, 'pacw play --load'), ' open it.')
        : h('p', { class: 'help' }, 'Games are kept by their links in this browser. Lost them? The operator can list every game of the server with ', h('code', {}, 'pacw games'), '.'));
  }
}

function gameRow(token, facts, s, refresh) {
  const link = gameHref(token);
  const remove = h('button', { class: 'link', onclick: () => { forget(token); refresh(); } }, 'remove');
  if (s.missing) {
    return h('tr', { class: 'missing' }, h('td', {}, facts.title || facts.id || token.slice(0, 8)), h('td', {}, when(facts.added)), h('td', {}, ''), h('td', { class: 'muted' }, `not on this server (${s.missing})`), h('td', {}, remove));
  }
  remember(token, { id: s.id, role: s.role, title: s.title });
  const players = s.players.map((p) => `${p.name}: ${p.kind === 'computer' ? p.computer : p.side === s.role || s.role === 'hotseat' ? 'you' : 'a person'}`).join(', ');
  const state = s.status === 'finished' ? s.result_text : s.your_turn ? h('strong', { class: 'your-move' }, `your move (turn ${s.turn}/${s.turns})`) : `turn ${s.turn}/${s.turns}, ${s.to_act ? s.players.find((p) => p.side === s.to_act).name : ''} to move`;
  const others = Object.entries(facts.links || {}).filter(([role, path]) => path !== link && role !== 'spectator');
  return h('tr', { 'data-token': token },
    h('td', {}, h('a', { href: link }, s.title)),
    h('td', {}, when(s.created_at)),
    h('td', {}, `${s.mode.replace('_', ' ')} — ${players}`),
    h('td', {}, state, deadlineNote(s)),
    h('td', { class: 'actions' }, h('a', { href: link }, s.status === 'finished' ? 'review' : 'resume'), ' ', h('a', { href: gameHref(token, 'replay') }, 'replay'), ' ',
      copyButton(new URL(link, location.href).href, 'copy link'),
      ...others.map(([role, path]) => copyButton(new URL(path, location.href).href, `copy ${s.players.find((p) => p.side === role)?.name || role}'s link`)),
      ' ', remove));
}

/// A game with a pace of days: the time left to the side to move (a live game, or one played in the browser: none).
function deadlineNote(s) {
  if (s.left_ms === null || s.left_ms === undefined || s.status === 'finished') return '';
  if (s.vacation_until) return h('span', { class: 'muted deadline-left' }, ` · on vacation: the clock stands at ${timeLeft(s.left_ms)} until ${when(s.vacation_until)} (${paceText(s.pace)})`);
  return h('span', { class: 'muted deadline-left' }, s.left_ms > 0 ? ` · ${timeLeft(s.left_ms)} left (${paceText(s.pace)})` : ' · time is up: the waiting player may claim the win');
}

function copyButton(text, label = 'copy') {
  const b = h('button', { class: 'link copy', 'data-copy': text, onclick: async () => { b.textContent = (await copyText(text)) ? 'copied' : 'select and copy'; } }, label);
  return b;
}

function download(name, text) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/json' })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}


/// A name with its first letter a capital ("veteran élan" → "Veteran élan").
function capital(name) {
  return name ? name[0].toUpperCase() + name.slice(1) : name;
}

/// A description's paragraphs, with the hard line breaks of the TOML file joined.
function paragraphs(text) {
  return text.trim().split(/\n\s*\n/).map((p) => h('p', {}, withRuleLinks(p.replace(/\s*\n\s*/g, ' '))));
}

/// A description's sentences. A full stop ends one only before a capital and after a word that is not an
/// initial (G.B.) or a title (Gen.); "at 1 p.m. D.H. Hill's men" ends at "p.m.", as a reader takes it.
function sentences(text) {
  const flat = text.trim().replace(/\s+/g, ' ');
  const out = [];
  let start = 0;
  for (const m of flat.matchAll(/[.!?](?=\s+["“(]?[A-Z]|$)/g)) {
    const word = flat.slice(flat.lastIndexOf(' ', m.index) + 1, m.index);
    if (/^([A-Z]\.)*[A-Z]$|^(Mr|Mrs|Dr|St|Gen|Col|Lt|Capt|Maj|Sgt|Pvt|Jr|U\.S)$/.test(word)) continue;
    out.push(flat.slice(start, m.index + 1).trim());
    start = m.index + 1;
  }
  if (start < flat.length) out.push(flat.slice(start).trim());
  return out.filter(Boolean);
}

/// At most `max` characters of a sentence, cut at a word.
function clip(line, max) {
  return line.length <= max ? line : `${line.slice(0, line.lastIndexOf(' ', max - 3))}…`;
}

/// The date and place: the description's first sentence.
function firstSentence(text) {
  return clip(sentences(text)[0] || '', 160);
}

/// The situation in a line: the description's second sentence.
function secondSentence(text) {
  return clip(sentences(text)[1] || '', 120);
}

/// A battle's size: its units, its board and its turns (how long a game is).
function sizeLine(entry) {
  const units = entry.sides.reduce((n, s) => n + s.starting_units, 0);
  return h('p', { class: 'size-line muted', title: `${entry.sides.map((s) => `${s.name} ${s.starting_units}`).join(', ')} units` },
    `${units} units · ${entry.map.width}×${entry.map.height} squares · ${entry.turns} turns`);
}

/// A shipped battle's measured balance (scenarios/balance.json): each side's score between two greedy players.
function balanceLine(entry) {
  const b = entry.balance;
  if (!b) return null;
  const pct = (x) => `${Math.round(100 * x)}%`;
  const [a, z] = entry.sides;
  return h('p', { class: 'balance-line', title: `First side's score ${pct(b.first_side_score)} [${pct(b.low)}–${pct(b.high)}] over 2,000 games between two greedy computer players, sides swapping (a draw counts half)` },
    'Balance: ', sideTag(entry, a.side, `${a.name} ${pct(b.first_side_score)}`), ' · ', sideTag(entry, z.side, `${z.name} ${pct(1 - b.first_side_score)}`));
}
