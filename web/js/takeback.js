// A take-back by request in a two-player game: "Ask to take back" for the player whose last decision it was, and
// Accept or Decline for the other, while no die has been rolled and no card drawn since.

import { api } from './api.js';
import { h } from './util.js';

export class TakebackPanel {
  constructor(page) {
    this.page = page;
    this.button = h('button', { class: 'secondary', id: 'ask-takeback', onclick: () => this.ask() }, 'Ask to take back');
    this.text = h('p', { id: 'takeback-text' });
    this.answers = h('div', { class: 'row' },
      h('button', { id: 'accept-takeback', onclick: () => this.answer(true) }, 'Accept'),
      h('button', { class: 'secondary', id: 'decline-takeback', onclick: () => this.answer(false) }, 'Decline'));
    this.el = h('section', { class: 'panel takeback', id: 'takeback', role: 'status', hidden: true }, this.text, this.answers);
    // A rated game takes nothing back: the server says so, and the button goes.
    this.button.hidden = true;
    api.takeback(page.token).then((t) => { this.button.hidden = !t.allowed; this.show(t); }).catch(() => {});
  }

  /// Shows where the request stands (from the server, or its `takeback` event).
  show(t) {
    const role = this.page.view.role;
    const names = Object.fromEntries(this.page.view.players.map((p) => [p.side, p.name]));
    const p = t.pending;
    this.answers.hidden = !p || p.by === role;
    if (p && p.by === role) this.text.textContent = 'You asked to take back your last decision: waiting for the other player.';
    else if (p) this.text.textContent = `${names[p.by]} asks to take back their last decision${p.remove > 1 ? ` (and the ${p.remove - 1} after it)` : ''}.`;
    else if (t.state === 'declined') this.text.textContent = 'The take-back was declined.';
    else if (t.state === 'accepted') this.text.textContent = 'The take-back was accepted.';
    else this.text.textContent = '';
    this.el.hidden = !this.text.textContent;
  }

  async ask() {
    try {
      this.show(await api.askTakeback(this.page.token));
    } catch (e) {
      this.show({ pending: null, state: 'none' });
      this.text.textContent = e.message;
      this.el.hidden = false;
    }
  }

  async answer(accept) {
    try {
      await api.answerTakeback(this.page.token, accept);
      this.show({ pending: null, state: accept ? 'accepted' : 'declined' });
    } catch (e) {
      this.text.textContent = e.message;
      this.answers.hidden = true;
    }
  }
}
