// A selected unit's orders (GET …/units/{unit}, docs/api.md) sorted for the board: which squares a move reaches
// and with which facings, which enemies can be attacked and how, and the order that a sequence of clicks names.
// Pure functions of the server's reply, with no DOM: the battle page asks, the board draws.

const FACINGS = ['N', 'E', 'S', 'W'];

/// The kind of an action (`hold`, `move`, `fire`, `move_fire`, `fire_move`, `advance`, …) and its fields.
export function kindOf(action) {
  if (typeof action === 'string') return [action, {}];
  const [kind, body] = Object.entries(action)[0];
  return [kind, typeof body === 'object' ? body : { unit: body }];
}

/// Whether two actions are the same.
export function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function noFacings() {
  return { N: false, E: false, S: false, W: false };
}

export class UnitChoices {
  /// `reply` is the server's answer for the unit; `at` its square now.
  constructor(reply, at) {
    this.reply = reply;
    this.at = at;
    this.orders = reply.orders || [];
  }

  get canAct() {
    return this.reply.can_act;
  }

  /// The order view ({ action, text, odds }) of an action, if the unit may be given it.
  find(action) {
    return this.orders.find((o) => sameAction(o.action, action)) || null;
  }

  ofKind(kind) {
    return this.orders.filter((o) => kindOf(o.action)[0] === kind);
  }

  /// The Hold order, if it is one of the unit's orders.
  hold() {
    return this.ofKind('hold')[0] || null;
  }

  /// Whether the unit is making its move after Fire & Move (R4.4).
  get advancing() {
    return this.ofKind('advance').length > 0;
  }

  /// Squares a Move (or the Advance after Fire & Move) may end on, its own square included when it may turn or stay.
  moveSquares() {
    return new Set(Object.keys(this.reply.paths || {}));
  }

  /// For a move (or advance) to `square`: each facing and whether it is allowed there (R5.4).
  moveFacings(square) {
    const out = noFacings();
    for (const o of this.orders) {
      const [kind, body] = kindOf(o.action);
      if ((kind === 'move' || kind === 'advance') && body.to === square) out[body.facing] = true;
    }
    return out;
  }

  /// The move or advance to `square` facing `facing`.
  moveTo(square, facing) {
    return this.orders.find((o) => {
      const [kind, body] = kindOf(o.action);
      return (kind === 'move' || kind === 'advance') && body.to === square && body.facing === facing;
    }) || null;
  }

  /// Every enemy an order attacks: target → { needed (the best), direct (Fire or Fire & Move from here), fire, fireMove,
  /// moveFire (the Move & Fire orders) }.
  targets() {
    const out = new Map();
    for (const o of this.orders) {
      const [kind, body] = kindOf(o.action);
      if (!['fire', 'move_fire', 'fire_move'].includes(kind)) continue;
      const t = out.get(body.target) || { needed: 7, direct: false, fire: [], fireMove: null, moveFire: [] };
      t.needed = Math.min(t.needed, o.odds ? o.odds.needed : 7);
      if (kind === 'fire') t.fire.push(o);
      if (kind === 'fire_move') t.fireMove = o;
      if (kind === 'move_fire') t.moveFire.push(o);
      t.direct = t.fire.length > 0 || t.fireMove !== null;
      out.set(body.target, t);
    }
    for (const t of out.values()) if (t.needed === 7) t.needed = null;
    return out;
  }

  /// The squares a Move & Fire at `target` may be made from.
  moveFireSquares(target) {
    return new Set((this.targets().get(target)?.moveFire || []).map((o) => kindOf(o.action)[1].to));
  }

  /// For a Move & Fire at `target` from `square`: each facing and whether it allows the attack.
  moveFireFacings(target, square) {
    const out = noFacings();
    for (const o of this.targets().get(target)?.moveFire || []) {
      const body = kindOf(o.action)[1];
      if (body.to === square) out[body.facing] = true;
    }
    return out;
  }

  /// The Move & Fire at `target` from `square` facing `facing`.
  moveFire(target, square, facing) {
    return this.find({ move_fire: { to: square, facing, target } });
  }

  /// The Fire orders at `target` by facing (one unless a Fire may begin with a pivot, `pivot_is_move = false`).
  fireFacings(target) {
    const out = noFacings();
    for (const o of this.targets().get(target)?.fire || []) out[kindOf(o.action)[1].facing] = true;
    return out;
  }

  /// The enemies a Move & Fire from `square` facing `facing` may attack.
  moveFireTargetsFrom(square, facing) {
    const out = new Set();
    for (const o of this.ofKind('move_fire')) {
      const body = kindOf(o.action)[1];
      if (body.to === square && body.facing === facing) out.add(body.target);
    }
    return out;
  }
}

/// How many facings are allowed in a facing table.
export function allowedCount(facings) {
  return FACINGS.filter((d) => facings[d]).length;
}

/// The only allowed facing, or null.
export function onlyFacing(facings) {
  const allowed = FACINGS.filter((d) => facings[d]);
  return allowed.length === 1 ? allowed[0] : null;
}

export { FACINGS };
