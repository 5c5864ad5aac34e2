// The pace of a two-player game and the deadline of the move under way: the time left, counted down from the
// server's own time, and "Claim the win" for the waiting player once the other's deadline has passed. While the
// player to move is on vacation their clock stands still, and the page says until when.

import { api } from './api.js';
import { h, when } from './util.js';

/// Time left in words, to the minute begun (as the server says it): "2 days 3 hours", "5 hours 10 minutes", "4 minutes".
export function timeLeft(ms) {
  const minutes = Math.ceil(Math.max(0, ms) / 60000);
  const [d, hrs, m] = [Math.floor(minutes / 1440), Math.floor(minutes / 60) % 24, minutes % 60];
  const unit = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (d > 0) return hrs > 0 ? `${unit(d, 'day')} ${unit(hrs, 'hour')}` : unit(d, 'day');
  if (hrs > 0) return m > 0 ? `${unit(hrs, 'hour')} ${unit(m, 'minute')}` : unit(hrs, 'hour');
  return m > 0 ? unit(m, 'minute') : 'less than a minute';
}

/// The pace in a table cell or a line: "live", or "3 days a move".
export function paceText(pace) {
  const days = { '1d': 1, '3d': 3, '7d': 7 }[pace];
  return days ? `${days} day${days === 1 ? '' : 's'} a move` : 'live';
}

export class DeadlinePanel {
  constructor(page) {
    this.page = page;
    this.text = h('p', { id: 'deadline-text' });
    this.claim = h('button', { id: 'claim-win', hidden: true, onclick: () => this.claimWin() }, 'Claim the win');
    this.el = h('section', { class: 'panel deadline', id: 'deadline', 'aria-live': 'polite', hidden: true }, this.text, this.claim);
    this.refresh();
    // The count-down moves by the minute; the server is asked again now and then, and after every change.
    this.timer = setInterval(() => this.refresh(), 60000);
  }

  async refresh() {
    try {
      this.show(await api.clock(this.page.token));
    } catch {
      // A page that cannot reach the server says so in its status line already.
    }
  }

  show(c) {
    this.el.hidden = c.pace === 'live' || c.deadline === null;
    // The player to move reads of their own move; everyone else the server's words, naming the side.
    const mine = c.to_act && c.to_act === this.page.view.role;
    if (mine && c.vacation_until) this.text.textContent = `You are on vacation until ${when(c.vacation_until)}: your clock stands at ${timeLeft(c.left_ms)} (${c.pace_text}).`;
    else if (c.vacation_until) this.text.textContent = `Your opponent is on vacation until ${when(c.vacation_until)}: their clock stands at ${timeLeft(c.left_ms)} (${c.pace_text}).`;
    else if (mine && c.overdue) this.text.textContent = 'Your time to move has run out: your opponent may claim the win. Until they do, you may still move.';
    else if (mine) this.text.textContent = `Your move: ${timeLeft(c.left_ms)} left (${c.pace_text}).`;
    else this.text.textContent = c.text;
    this.el.classList.toggle('overdue', c.overdue);
    this.el.classList.toggle('vacation', Boolean(c.vacation_until));
    this.claim.hidden = !c.can_claim;
  }

  async claimWin() {
    try {
      await api.claimWin(this.page.token);
      this.claim.hidden = true;
      this.page.reload();
    } catch (e) {
      this.text.textContent = e.message;
    }
  }
}
