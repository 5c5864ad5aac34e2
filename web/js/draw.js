// A draw by agreement in a two-player game: "Offer a draw", and Accept or Decline for the other player. An offer
// lapses when its side plays on.

import { api } from './api.js';
import { h } from './util.js';

export class DrawPanel {
  constructor(page) {
    this.page = page;
    this.button = h('button', { class: 'secondary', id: 'offer-draw', onclick: () => this.offer() }, 'Offer a draw');
    this.text = h('p', { id: 'draw-text' });
    this.answers = h('div', { class: 'row' },
      h('button', { id: 'accept-draw', onclick: () => this.answer(true) }, 'Accept the draw'),
      h('button', { class: 'secondary', id: 'decline-draw', onclick: () => this.answer(false) }, 'Decline'));
    this.el = h('section', { class: 'panel draw', id: 'draw', role: 'status', hidden: true }, this.text, this.answers);
    this.refresh();
  }

  refresh() {
    api.draw(this.page.token).then((d) => this.show(d)).catch(() => {});
  }

  /// Shows where the offer stands (from the server, or its `draw` event).
  show(d) {
    const role = this.page.view.role;
    const names = Object.fromEntries(this.page.view.players.map((p) => [p.side, p.name]));
    const p = d.pending;
    this.answers.hidden = !p || p.by === role;
    if (p && p.by === role) this.text.textContent = 'You offered a draw: waiting for the other player (playing on withdraws it).';
    else if (p) this.text.textContent = `${names[p.by]} offers a draw.`;
    else if (d.state === 'declined') this.text.textContent = 'The draw was declined.';
    else if (d.state === 'accepted') this.text.textContent = 'The draw was agreed.';
    else this.text.textContent = '';
    this.el.hidden = !this.text.textContent;
  }

  async offer() {
    try {
      this.show(await api.offerDraw(this.page.token));
    } catch (e) {
      this.text.textContent = e.message;
      this.answers.hidden = true;
      this.el.hidden = false;
    }
  }

  async answer(accept) {
    try {
      await api.answerDraw(this.page.token, accept);
      this.show({ pending: null, state: accept ? 'accepted' : 'declined' });
      if (accept) this.page.reload();
    } catch (e) {
      this.text.textContent = e.message;
      this.answers.hidden = true;
    }
  }
}
