// The battle page's selection: one value, changed only by the transitions below (each returns a new value and
// leaves the old one as it was). Its stage says where the building of an order stands:
//
//   idle      no unit selected                       a click on a unit selects it (`selected`)
//   selected  a unit, no order under way             its orders (`choices`) arrive for this very position
//                                                    (`withChoices`); a square starts a move, an enemy an attack
//   attack    an enemy picked (`attacking`)          Fire, or Fire & Move; a square then picks Move & Fire from there
//   facing    a square picked (`facing`)             a facing chooses how the unit ends up
//   confirm   the order is whole (`whole`)           Confirm gives it
//
// `pending` (the order being built) exists only while a unit is selected and `choices` are its own; a refusal is the
// last refused click, drawn until the next one; `inspected` is the enemy last clicked, described beside the board.

/// The selection: { unit, choices, pending, refusal, inspected }, frozen.
function make(unit, choices, pending, refusal, inspected) {
  return Object.freeze({ unit, choices, pending, refusal, inspected });
}

/// Nothing selected.
export const idle = make(null, null, null, null, null);

/// `unit` selected (null: nothing), its orders not yet known.
export function selected(unit) {
  return unit === null || unit === undefined ? idle : make(unit, null, null, null, null);
}

/// The stage of a selection: 'idle', 'selected', 'attack', 'facing' or 'confirm'.
export function stage(s) {
  if (s.unit === null) return 'idle';
  return s.pending?.stage ?? 'selected';
}

/// The selected unit's orders (UnitChoices) arrived; ignored when another unit is selected by now.
export function withChoices(s, unit, choices) {
  return s.unit === unit ? make(s.unit, choices, s.pending, s.refusal, s.inspected) : s;
}

/// A click refused, with why (the engine's refusal: its rule and reason) and where to draw it; null clears it.
export function refused(s, refusal, where = {}) {
  return make(s.unit, s.choices, s.pending, refusal ? { ...refusal, ...where } : null, s.inspected);
}

/// An enemy clicked: described beside the board.
export function inspecting(s, enemy) {
  return make(s.unit, s.choices, s.pending, s.refusal, enemy);
}

/// An enemy picked to attack: Confirm gives `order` (its Fire with the only facing), or a facing is chosen next.
export function attacking(s, target, order) {
  return make(s.unit, s.choices, { stage: 'attack', target, order }, s.refusal, s.inspected);
}

/// A square picked (`to`) for an order of `kind` ('move', 'move_fire' or 'fire'; `target` for an attack): its facing
/// is chosen next among `facings` (direction → allowed).
export function facing(s, kind, to, target, facings) {
  return make(s.unit, s.choices, { stage: 'facing', kind, to, target, facings, facing: null }, null, s.inspected);
}

/// The order is whole (`pending` with its `order` and `facing`): Confirm gives it.
export function whole(s, pending) {
  return make(s.unit, s.choices, { ...pending, stage: 'confirm' }, null, s.inspected);
}

/// A step back: the order under way is dropped, else the refusal, else the selection.
export function cancelled(s) {
  if (s.pending) return make(s.unit, s.choices, null, s.refusal, s.inspected);
  if (s.refusal) return make(s.unit, s.choices, s.pending, null, s.inspected);
  return idle;
}

/// The game moved on (a decision, an undo, a new card): the order under way and the orders known are dropped. The
/// active unit stays selected (its order, or its Advance after Fire & Move, comes next); another selection stays only
/// when `keep` (it is alive, no new card is up, and its order was not just given).
export function movedOn(s, activeUnit, keep) {
  if (activeUnit !== null && activeUnit !== undefined) return make(activeUnit, null, null, null, s.inspected);
  return keep && s.unit !== null ? make(s.unit, null, null, null, s.inspected) : idle;
}
