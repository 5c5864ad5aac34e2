// The battle page's selection (web/js/selection.js) without a browser: one value, each transition a new value that
// leaves the old one as it was, its stage following the order being built.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../web/js/selection.js';

test('an order is built stage by stage, and each step back undoes one', () => {
  const choices = { unit: 3 };
  const picked = S.selected(3);
  assert.equal(S.stage(S.idle), 'idle');
  assert.equal(S.stage(picked), 'selected');
  assert.equal(S.withChoices(picked, 4, choices), picked, 'the orders of a unit no longer selected are ignored');
  const known = S.withChoices(picked, 3, choices);
  assert.equal(known.choices, choices);
  const attack = S.attacking(known, 7, { action: 'fire' });
  assert.equal(S.stage(attack), 'attack');
  const facing = S.facing(S.inspecting(attack, 7), 'move_fire', 'c4', 7, { N: true, E: false });
  assert.equal(S.stage(facing), 'facing');
  assert.deepEqual(facing.pending, { stage: 'facing', kind: 'move_fire', to: 'c4', target: 7, facings: { N: true, E: false }, facing: null });
  assert.equal(facing.inspected, 7);
  const ready = S.whole(facing, { ...facing.pending, facing: 'N', order: { action: 'x' } });
  assert.equal(S.stage(ready), 'confirm');
  assert.equal(ready.pending.facing, 'N');
  // A refusal is drawn until cleared; Cancel drops the order first, then the refusal, then the unit.
  const refused = S.refused(ready, { rule: 'R5.4', reason: 'no' }, { square: 'c4' });
  assert.deepEqual(refused.refusal, { rule: 'R5.4', reason: 'no', square: 'c4' });
  const back = S.cancelled(refused);
  assert.equal(S.stage(back), 'selected');
  assert.ok(back.refusal);
  assert.equal(S.cancelled(back).refusal, null);
  assert.equal(S.cancelled(S.cancelled(back)), S.idle);
  // Every value stays as it was.
  assert.ok(Object.isFrozen(ready));
  assert.equal(S.stage(facing), 'facing');
  assert.throws(() => { ready.unit = 1; });
});

test('when the game moves on, the active unit stays selected, another only when kept', () => {
  const building = S.whole(S.withChoices(S.selected(2), 2, {}), { stage: 'confirm', order: {} });
  const active = S.movedOn(building, 5, false);
  assert.deepEqual([active.unit, active.pending, active.choices, S.stage(active)], [5, null, null, 'selected']);
  const kept = S.movedOn(building, null, true);
  assert.deepEqual([kept.unit, kept.pending, kept.choices], [2, null, null]);
  assert.equal(S.movedOn(building, null, false), S.idle);
  assert.equal(S.movedOn(S.idle, undefined, true), S.idle);
});
