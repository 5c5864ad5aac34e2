// The players' chat of a two-player game: its messages (shown as text, never as HTML), a line to write one, and a
// switch that mutes it in this browser. Spectators have none: the server gives them neither the messages nor the
// live ones.

import { api } from './api.js';
import { setSetting, setting } from './games.js';
import { h, when } from './util.js';

/// The most characters of a message (the server's bound).
const MAX = 500;

export class ChatPanel {
  constructor(page) {
    this.page = page;
    const v = page.view;
    this.names = Object.fromEntries(v.players.map((p) => [p.side, p.name]));
    // The list inside a live region (a list given the role "log" would no longer be a list).
    this.list = h('ol', { class: 'chat-list', id: 'chat-list' });
    this.region = h('div', { role: 'log', 'aria-label': 'Chat messages', 'aria-live': 'polite' }, this.list);
    this.input = h('input', { id: 'chat-text', maxlength: MAX, 'aria-label': 'Your message', placeholder: 'Say something to your opponent', autocomplete: 'off' });
    this.problem = h('p', { class: 'error', id: 'chat-problem', role: 'alert' });
    const key = `chat-muted-${page.token}`;
    this.mute = h('input', { type: 'checkbox', id: 'chat-mute', checked: setting(key, false) });
    this.mute.addEventListener('change', () => { setSetting(key, this.mute.checked); this.show(); });
    this.form = h('form', { class: 'row chat-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input, h('button', { type: 'submit', class: 'secondary', id: 'chat-send' }, 'Send'));
    this.el = h('section', { class: 'panel chat-panel', id: 'chat', 'aria-labelledby': 'chat-title' },
      h('h2', { id: 'chat-title' }, 'Chat'), this.region, this.form, this.problem,
      h('label', { class: 'help' }, this.mute, ' mute the chat (in this browser)'));
    this.show();
    api.chat(page.token).then(({ messages }) => { for (const m of messages) this.add(m); }).catch((e) => { this.problem.textContent = e.message; });
  }

  show() {
    const muted = this.mute.checked;
    this.list.hidden = muted;
    this.form.hidden = muted;
  }

  /// A message, once (the live one and the loaded one may cross).
  add(m) {
    if (this.list.querySelector(`[data-n="${Number(m.n)}"]`)) return;
    const mine = m.side === this.page.view.role;
    this.list.append(h('li', { 'data-n': Number(m.n), class: mine ? 'mine' : 'theirs' },
      h('span', { class: 'chat-who' }, mine ? 'You' : this.names[m.side] || m.side), ' ',
      h('span', { class: 'chat-when muted' }, when(m.at)), h('br', {}), h('span', { class: 'chat-text' }, m.text)));
    this.list.scrollTop = this.list.scrollHeight;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.problem.textContent = '';
    try {
      this.add(await api.say(this.page.token, text));
      this.input.value = '';
    } catch (e) {
      this.problem.textContent = e.message;
    }
  }
}
