// The editor's form controls: each a labelled-by-id element that calls back with its new value on change.

import { h } from './util.js';

/// A square of the terrain's colour, for the palette; a variant's own kind, which has no colour of its own, shows its
/// map `letter` as the board marks its squares.
export function swatch(terrain, letter) {
  if (letter) return h('span', { class: 'swatch own-terrain', 'aria-hidden': 'true' }, letter);
  return h('span', { class: `swatch terrain-${terrain}`, 'aria-hidden': 'true' });
}

/// A drop-down of [value, label] pairs.
export function select(id, pairs, value, onChange) {
  const s = h('select', { id }, ...pairs.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
  s.addEventListener('change', () => onChange(s.value));
  return s;
}

/// A line of text.
export function textInput(id, value, onChange, placeholder) {
  const i = h('input', { type: 'text', id, value, placeholder });
  i.addEventListener('change', () => onChange(i.value));
  return i;
}

/// A number field: an empty field gives null (for "the default"), a number is kept within its range.
export function numberInput(id, value, min, max, onChange, placeholder) {
  const i = h('input', { type: 'number', id, value, min, max, placeholder });
  i.addEventListener('change', () => {
    if (i.value === '') { onChange(null); return; }
    onChange(Math.min(max, Math.max(min, Math.round(Number(i.value)))));
  });
  return i;
}
