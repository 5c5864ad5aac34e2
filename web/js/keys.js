// Keyboard shortcuts, the same keys as the terminal game where both have the action; `?` lists them.

import { h } from './util.js';

export const KEYS = [
  ['← ↑ → ↓', 'move the cursor on the board (it starts on a unit ready to act); while a facing is asked, pick that facing'],
  ['Enter', 'select what is under the cursor; confirm the order in hand'],
  ['Escape', 'cancel the order in hand, then the selection'],
  ['n', 'select the next unit ready to act (the cursor goes to it)'],
  ['f', 'Fire & Move at the enemy chosen (R4.4)'],
  ['h', 'Hold: the selected unit does nothing (R4.2)'],
  ['e', 'end activations on this card (R3.4)'],
  ['z', 'undo your last order (until a die is rolled or a card drawn)'],
  ['?', 'this list'],
];

let handler = null;
let dialog = null;

/// Routes the page's keys to `onKey(event)` (which returns true when it used the key); `?` is handled here.
export function installKeys(onKey) {
  handler = onKey;
  if (installKeys.done) return;
  installKeys.done = true;
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (dialog?.open) return; // the list of keys is up: Escape closes it, nothing reaches the game
    const tag = ev.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (ev.key === '?') {
      showKeys();
      ev.preventDefault();
      return;
    }
    // Enter and Space on a button or link keep their own meaning.
    if ((ev.key === 'Enter' || ev.key === ' ') && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY')) return;
    if (handler && handler(ev)) ev.preventDefault();
  });
}

/// The list of keys, in a dialog.
export function showKeys() {
  if (!dialog) {
    dialog = h('dialog', { class: 'keys-help', id: 'keys-help' },
      h('h2', {}, 'Keys'),
      h('table', {}, ...KEYS.map(([k, what]) => h('tr', {}, h('th', {}, h('kbd', {}, k)), h('td', {}, what)))),
      h('form', { method: 'dialog' }, h('button', {}, 'Close')));
    document.body.append(dialog);
  }
  if (!dialog.open) dialog.showModal();
}
