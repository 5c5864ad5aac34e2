//! The conditions of a variant's to-hit modifiers (`when = "charge and attacker.quality == 'veteran'"`): parsed and
//! checked once when the file is read — a misspelt fact, a type mismatch, an unknown arm, quality or terrain each
//! refused with where it stands and what was expected — and compiled into a tree over the facts of an attack, so
//! that no text is read while attacks are resolved.
//!
//! The grammar, loosest first:
//!
//! ```text
//! condition  = or
//! or         = and { "or" and }
//! and        = not { "and" not }
//! not        = "not" not | comparison
//! comparison = operand [ ("==" | "!=" | "<" | "<=" | ">" | ">=") operand ]
//! operand    = "(" or ")" | integer | 'string' | "true" | "false" | fact
//! fact       = charge | distance | flank | rear | ranging
//!            | (attacker | target) "." (arm | quality | moved | shaken | higher)
//!            | target "." (cover | terrain | behind_fence)
//!            | result                          (after the dice only: [[after_attack]])
//! rally fact = unit "." (arm | quality | cover | terrain) | enemy_adjacent | friends_adjacent
//!                                              (the rallying unit's, and only those: [[rally_modifiers]])
//! order fact = order | unit "." shaken | squares | closer | ends_adjacent | into "." terrain | rally fact
//!                                              (an order's and the unit given it: [[restrictions]] only)
//! ```
//!
//! A restriction (`[[restrictions]]`) asks about an attack before its dice or about an order, never both: which, is
//! settled by the facts it names ([`Condition::parse_restriction`]), and one naming facts of both is refused where
//! the second kind first stands.

use crate::attack::AttackResult;
use crate::map::Terrain;
use crate::unit::Quality;
use std::fmt;

/// What a condition may be told of one attack: the facts its modifiers are decided by. (The default: fire at
/// distance 1 between two regular units of the first arm, neither moved nor shaken, on open ground.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AttackFacts {
    /// The attack is a charge (not fire).
    pub charge: bool,
    /// Squares between attacker and target.
    pub distance: u8,
    /// A charge from the target's flank square.
    pub flank: bool,
    /// A charge from the target's rear square.
    pub rear: bool,
    /// Artillery firing again at the same unit in the same square, neither having moved (R6.4).
    pub ranging: bool,
    /// The attacking unit.
    pub attacker: UnitFacts,
    /// The unit attacked.
    pub target: UnitFacts,
    /// The target is in cover (R6.3).
    pub target_cover: bool,
    /// The terrain the target stands in.
    pub target_terrain: Terrain,
    /// Fire crosses a fence on the target's edge.
    pub target_behind_fence: bool,
    /// What the dice did to the target: known after them only, so only a condition read for that moment
    /// ([`Moment::AfterDice`]) may ask for it.
    pub result: Option<AttackResult>,
}

/// When a condition is decided: before an attack's dice (a to-hit modifier), or after them, its result known (an
/// effect on the attacker, `[[after_attack]]`); or when a shaken unit is activated under a variant's rally roll
/// (`[[rally_modifiers]]`), over that unit's facts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Before the dice: the facts of the attack, not its result.
    BeforeDice,
    /// After the dice: the facts of the attack and its `result`.
    AfterDice,
    /// A shaken unit's rally roll: the facts of the unit activated ([`RallyFacts`]), no attack's.
    Rally,
    /// A restriction (`[[restrictions]]`): the facts of an attack before its dice, or those of an order
    /// ([`OrderFacts`]), one or the other ([`Condition::parse_restriction`]).
    Restriction,
}

/// What a restriction forbids, settled by the facts its condition names: attacks (by their facts before the dice,
/// as every restriction did before orders had facts of their own), or orders (by an order's facts).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Over {
    /// An attack: the condition names no fact of an order (a condition naming no fact at all, `true`, is one).
    Attack,
    /// An order: the condition names a fact of an order ([`OrderFacts`]) and none of an attack.
    Order,
}

/// The orders of R4.2, as a restriction's condition names them (`order == 'move'`). The move after a Fire & Move
/// attack is part of that order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    /// Hold: nothing.
    Hold,
    /// Move.
    Move,
    /// Fire.
    Fire,
    /// Move & Fire.
    MoveAndFire,
    /// Fire & Move, its move after the attack included.
    FireAndMove,
}

impl OrderKind {
    /// Every order, in R4.2's order.
    pub const ALL: [OrderKind; 5] =
        [OrderKind::Hold, OrderKind::Move, OrderKind::Fire, OrderKind::MoveAndFire, OrderKind::FireAndMove];

    /// Its name in a condition: `hold`, `move`, `fire`, `move_and_fire`, `fire_and_move`.
    pub const fn name(self) -> &'static str {
        match self {
            OrderKind::Hold => "hold",
            OrderKind::Move => "move",
            OrderKind::Fire => "fire",
            OrderKind::MoveAndFire => "move_and_fire",
            OrderKind::FireAndMove => "fire_and_move",
        }
    }

    /// The order an action gives or carries out (an [`crate::Action::Advance`] is Fire & Move's move); `None` for
    /// an activation or its end.
    pub const fn of(action: &crate::Action) -> Option<OrderKind> {
        use crate::Action;
        Some(match action {
            Action::Hold => OrderKind::Hold,
            Action::Move { .. } => OrderKind::Move,
            Action::Fire { .. } => OrderKind::Fire,
            Action::MoveFire { .. } => OrderKind::MoveAndFire,
            Action::FireMove { .. } | Action::Advance { .. } => OrderKind::FireAndMove,
            Action::Activate(_) | Action::EndActivations => return None,
        })
    }
}

/// What a restriction on orders may be told of one order and the unit given it (`[[restrictions]]` whose condition
/// names an order's facts). A move's facts compare where it ends with where the unit stands; an order that does
/// not move ends where it stands. (The default: a regular unit of the first arm holding on open ground, no unit
/// near it.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OrderFacts {
    /// The order (`order`).
    pub order: OrderKind,
    /// The unit where it stands, as a rally modifier reads it: `unit.arm`, `unit.quality`, `unit.cover`,
    /// `unit.terrain`, `enemy_adjacent`, `friends_adjacent`.
    pub unit: RallyFacts,
    /// It is shaken (`unit.shaken`): never under the standard rules, where it rallies on activation (R4.1).
    pub shaken: bool,
    /// Squares between where it stands and where it ends (`squares`, R1.2): 0 when it stays or only turns.
    pub squares: u8,
    /// It ends nearer the nearest enemy unit than it stands (`closer`).
    pub closer: bool,
    /// It ends next to an enemy unit (`ends_adjacent`, R1.2: sharing an edge).
    pub ends_adjacent: bool,
    /// The terrain of the square it ends on (`into.terrain`): its own when it does not move.
    pub into_terrain: Terrain,
}

impl Default for OrderFacts {
    fn default() -> Self {
        OrderFacts {
            order: OrderKind::Hold,
            unit: RallyFacts::default(),
            shaken: false,
            squares: 0,
            closer: false,
            ends_adjacent: false,
            into_terrain: Terrain::Open,
        }
    }
}

/// What a condition of a rally modifier may be told of the shaken unit activated (`[[rally_modifiers]]`). (The
/// default: a regular unit of the first arm on open ground, no unit next to it.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RallyFacts {
    /// Its arm, by its index in the combat system's arms.
    pub arm: u8,
    /// Its quality.
    pub quality: Quality,
    /// It stands in terrain that gives cover (R1.5).
    pub cover: bool,
    /// The terrain it stands in.
    pub terrain: Terrain,
    /// An enemy unit stands on a square next to it.
    pub enemy_adjacent: bool,
    /// How many units of its own side stand on squares next to it.
    pub friends_adjacent: u8,
}

impl Default for RallyFacts {
    fn default() -> Self {
        RallyFacts {
            arm: 0,
            quality: Quality::Regular,
            cover: false,
            terrain: Terrain::Open,
            enemy_adjacent: false,
            friends_adjacent: 0,
        }
    }
}

/// Where a condition's facts come from: an attack, or a unit's rally roll. Which facts a condition asks for is
/// checked against its [`Moment`] when it is read, so that a source is never asked for a fact it has not.
trait Facts {
    fn value(&self, fact: Fact) -> Value;
}

impl Facts for AttackFacts {
    fn value(&self, fact: Fact) -> Value {
        fact.value(self)
    }
}

impl Facts for OrderFacts {
    fn value(&self, fact: Fact) -> Value {
        match fact {
            Fact::Order(OrderFact::Order) => Value::Order(self.order),
            Fact::Order(OrderFact::Shaken) => Value::Bool(self.shaken),
            Fact::Order(OrderFact::Squares) => Value::Int(self.squares.into()),
            Fact::Order(OrderFact::Closer) => Value::Bool(self.closer),
            Fact::Order(OrderFact::EndsAdjacent) => Value::Bool(self.ends_adjacent),
            Fact::Order(OrderFact::IntoTerrain) => Value::Terrain(self.into_terrain),
            other => self.unit.value(other),
        }
    }
}

impl Facts for RallyFacts {
    fn value(&self, fact: Fact) -> Value {
        match fact {
            Fact::Rally(RallyFact::Arm) => Value::Arm(self.arm),
            Fact::Rally(RallyFact::Quality) => Value::Quality(self.quality),
            Fact::Rally(RallyFact::Cover) => Value::Bool(self.cover),
            Fact::Rally(RallyFact::Terrain) => Value::Terrain(self.terrain),
            Fact::Rally(RallyFact::EnemyAdjacent) => Value::Bool(self.enemy_adjacent),
            Fact::Rally(RallyFact::FriendsAdjacent) => Value::Int(self.friends_adjacent.into()),
            _ => Value::Bool(false), // an attack's fact: refused in a rally condition when it is read
        }
    }
}

/// The facts of one unit in an attack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnitFacts {
    /// Its arm, by its index in the combat system's arms.
    pub arm: u8,
    /// Its quality.
    pub quality: Quality,
    /// It has moved this activation.
    pub moved: bool,
    /// It is shaken.
    pub shaken: bool,
    /// It stands on higher ground than the other.
    pub higher: bool,
}

impl Default for AttackFacts {
    fn default() -> Self {
        AttackFacts {
            charge: false,
            distance: 1,
            flank: false,
            rear: false,
            ranging: false,
            attacker: UnitFacts::default(),
            target: UnitFacts::default(),
            target_cover: false,
            target_terrain: Terrain::Open,
            target_behind_fence: false,
            result: None,
        }
    }
}

impl Default for UnitFacts {
    fn default() -> Self {
        UnitFacts { arm: 0, quality: Quality::Regular, moved: false, shaken: false, higher: false }
    }
}

/// A condition that could not be read: where in its text, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionError {
    /// The byte offset in the condition's text where the problem starts.
    pub offset: usize,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl fmt::Display for ConditionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

impl std::error::Error for ConditionError {}

/// A checked condition, compiled: a tree over the facts of an attack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition(Node);

impl Condition {
    /// Reads `text`; `arms` are the names of the combat system's arms, in the order of their indices.
    ///
    /// ```
    /// use pacw_engine::system::condition::{AttackFacts, Condition};
    /// let elan = Condition::parse("charge and attacker.quality == 'veteran'", &["infantry"]).unwrap();
    /// assert!(!elan.holds(&AttackFacts::default()));
    /// assert!(Condition::parse("distance == 'woods'", &["infantry"]).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// The first problem found, with its place in `text`.
    pub fn parse(text: &str, arms: &[&str]) -> Result<Condition, ConditionError> {
        Condition::parse_at(text, arms, Moment::BeforeDice)
    }

    /// Reads `text` as a condition decided at `moment`: after the dice it may ask for the attack's `result`.
    ///
    /// ```
    /// use pacw_engine::odds::AttackResult;
    /// use pacw_engine::system::condition::{AttackFacts, Condition, Moment};
    /// let failed = Condition::parse_at("charge and result == 'miss'", &["infantry"], Moment::AfterDice).unwrap();
    /// let missed = AttackFacts { charge: true, result: Some(AttackResult::Miss), ..AttackFacts::default() };
    /// assert!(failed.holds(&missed));
    /// assert!(Condition::parse("result == 'miss'", &["infantry"]).is_err(), "before the dice it is not known");
    /// ```
    ///
    /// # Errors
    ///
    /// The first problem found, with its place in `text`.
    pub fn parse_at(text: &str, arms: &[&str], moment: Moment) -> Result<Condition, ConditionError> {
        Condition::parse_in(text, arms, &STANDARD_TERRAINS, moment)
    }

    /// Reads `text` as a condition decided at `moment`, in a combat system whose terrains' ids are `terrains` (the
    /// standard six, then a variant's own, in the order of their places).
    ///
    /// ```
    /// use pacw_engine::system::condition::{AttackFacts, Condition, Moment};
    /// use pacw_engine::Terrain;
    /// let terrains = ["open", "woods", "town", "sunken_road", "river", "ford", "swamp"];
    /// let swamp = Condition::parse_in("target.terrain == 'swamp'", &["infantry"], &terrains, Moment::BeforeDice);
    /// let in_swamp = AttackFacts { target_terrain: Terrain::Own(0), ..AttackFacts::default() };
    /// assert!(swamp.unwrap().holds(&in_swamp));
    /// ```
    ///
    /// # Errors
    ///
    /// The first problem found, with its place in `text`.
    pub fn parse_in(text: &str, arms: &[&str], terrains: &[&str], moment: Moment) -> Result<Condition, ConditionError> {
        Condition::parse_sided(text, arms, terrains, moment).map(|(c, _)| c)
    }

    /// Reads `text` as a restriction's condition (`[[restrictions]]`): over an attack's facts before its dice, or
    /// over an order's ([`OrderFacts`]), which it names says which. One that names facts of both is refused where
    /// the facts of the second kind first stand.
    ///
    /// ```
    /// use pacw_engine::system::condition::{Condition, OrderFacts, OrderKind, Over};
    /// use pacw_engine::Terrain;
    /// let terrains = ["open", "woods", "town", "sunken_road", "river", "ford"];
    /// let (c, over) = Condition::parse_restriction("unit.shaken and closer", &["infantry"], &terrains).unwrap();
    /// assert_eq!(over, Over::Order);
    /// let advance = OrderFacts { order: OrderKind::Move, shaken: true, closer: true, ..OrderFacts::default() };
    /// assert!(c.holds_for_order(&advance));
    /// let (_, over) = Condition::parse_restriction("charge", &["infantry"], &terrains).unwrap();
    /// assert_eq!(over, Over::Attack);
    /// let mixed = Condition::parse_restriction("charge and closer", &["infantry"], &terrains).unwrap_err();
    /// assert_eq!(mixed.offset, 11);
    /// ```
    ///
    /// # Errors
    ///
    /// The first problem found, with its place in `text`.
    pub fn parse_restriction(
        text: &str,
        arms: &[&str],
        terrains: &[&str],
    ) -> Result<(Condition, Over), ConditionError> {
        Condition::parse_sided(text, arms, terrains, Moment::Restriction)
            .map(|(c, order)| (c, if order.is_some() { Over::Order } else { Over::Attack }))
    }

    /// Reads `text` at `moment`, with the first fact of an order it names, if any.
    fn parse_sided(
        text: &str,
        arms: &[&str],
        terrains: &[&str],
        moment: Moment,
    ) -> Result<(Condition, Option<(usize, String)>), ConditionError> {
        let tokens = lex(text)?;
        let mut parser =
            Parser { tokens, at: 0, arms, terrains, end: text.len(), moment, first_attack: None, first_order: None };
        let condition = parser.or()?;
        if let Some(t) = parser.tokens.get(parser.at) {
            return Err(unexpected(t, "'and', 'or' or the end"));
        }
        expect_bool(&condition)?;
        Ok((Condition(condition.node), parser.first_order))
    }

    /// Whether it holds in an attack with these facts.
    pub fn holds(&self, facts: &AttackFacts) -> bool {
        self.0.truth(facts)
    }

    /// Whether it holds for a rally roll with these facts (a condition read at [`Moment::Rally`]).
    ///
    /// ```
    /// use pacw_engine::system::condition::{Condition, Moment, RallyFacts};
    /// let pressed = Condition::parse_at("enemy_adjacent", &["infantry"], Moment::Rally).unwrap();
    /// assert!(pressed.holds_for_rally(&RallyFacts { enemy_adjacent: true, ..RallyFacts::default() }));
    /// assert!(Condition::parse_at("charge", &["infantry"], Moment::Rally).is_err(), "no attack at a rally");
    /// ```
    pub fn holds_for_rally(&self, facts: &RallyFacts) -> bool {
        self.0.truth(facts)
    }

    /// Whether it holds for an order with these facts (a restriction's condition over an order, [`Over::Order`]).
    pub fn holds_for_order(&self, facts: &OrderFacts) -> bool {
        self.0.truth(facts)
    }
}

/// A compiled expression: conditions, and the values they compare.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Const(Value),
    /// A 'string' not yet compared with a fact: never left in a checked condition.
    Text(String),
    Fact(Fact),
    Not(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Compare(Op, Box<Node>, Box<Node>),
}

impl Node {
    fn value<F: Facts>(&self, f: &F) -> Value {
        match self {
            Node::Const(v) => *v,
            Node::Fact(fact) => f.value(*fact),
            Node::Text(_) => Value::Bool(false),
            _ => Value::Bool(self.truth(f)),
        }
    }

    fn truth<F: Facts>(&self, f: &F) -> bool {
        match self {
            Node::Not(x) => !x.truth(f),
            Node::And(a, b) => a.truth(f) && b.truth(f),
            Node::Or(a, b) => a.truth(f) || b.truth(f),
            Node::Compare(op, a, b) => op.holds(a.value(f), b.value(f)),
            Node::Const(_) | Node::Fact(_) | Node::Text(_) => self.value(f) == Value::Bool(true),
        }
    }
}

/// A value a fact or a literal has, already resolved to the engine's own types.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Value {
    Bool(bool),
    Int(i64),
    Arm(u8),
    Quality(Quality),
    Terrain(Terrain),
    Order(OrderKind),
    /// No result yet (a condition before the dice is never asked for one: checked when it is read).
    Result(Option<AttackResult>),
}

/// The kinds of values, for checking a condition before it is ever evaluated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Int,
    Arm,
    Quality,
    Terrain,
    Result,
    Order,
    /// A 'string' not yet compared with a fact, so not yet known to be an arm, a quality or a terrain.
    Text,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Bool => "true or false",
            Kind::Int => "a number",
            Kind::Arm => "an arm",
            Kind::Quality => "a quality",
            Kind::Terrain => "a terrain",
            Kind::Result => "a result",
            Kind::Order => "an order",
            Kind::Text => "a 'string'",
        }
    }
}

/// One fact of an attack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Fact {
    Charge,
    Distance,
    Flank,
    Rear,
    Ranging,
    Attacker(UnitFact),
    Target(UnitFact),
    TargetCover,
    TargetTerrain,
    TargetBehindFence,
    Result,
    /// A fact of a unit's rally roll (and of the unit given an order).
    Rally(RallyFact),
    /// A fact of an order.
    Order(OrderFact),
}

/// One fact of an order given, and of its move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum OrderFact {
    Order,
    Shaken,
    Squares,
    Closer,
    EndsAdjacent,
    IntoTerrain,
}

/// One fact of a shaken unit activated under a rally roll.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RallyFact {
    Arm,
    Quality,
    Cover,
    Terrain,
    EnemyAdjacent,
    FriendsAdjacent,
}

/// One fact of a unit in an attack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum UnitFact {
    Arm,
    Quality,
    Moved,
    Shaken,
    Higher,
}

/// Every fact's name, for parsing and for the message that lists them: an attack's, then a rally's, then an
/// order's.
const FACTS: [(&str, Fact); 31] = [
    ("charge", Fact::Charge),
    ("distance", Fact::Distance),
    ("flank", Fact::Flank),
    ("rear", Fact::Rear),
    ("ranging", Fact::Ranging),
    ("attacker.arm", Fact::Attacker(UnitFact::Arm)),
    ("attacker.quality", Fact::Attacker(UnitFact::Quality)),
    ("attacker.moved", Fact::Attacker(UnitFact::Moved)),
    ("attacker.shaken", Fact::Attacker(UnitFact::Shaken)),
    ("attacker.higher", Fact::Attacker(UnitFact::Higher)),
    ("target.arm", Fact::Target(UnitFact::Arm)),
    ("target.quality", Fact::Target(UnitFact::Quality)),
    ("target.moved", Fact::Target(UnitFact::Moved)),
    ("target.shaken", Fact::Target(UnitFact::Shaken)),
    ("target.higher", Fact::Target(UnitFact::Higher)),
    ("target.cover", Fact::TargetCover),
    ("target.terrain", Fact::TargetTerrain),
    ("target.behind_fence", Fact::TargetBehindFence),
    ("result", Fact::Result),
    ("unit.arm", Fact::Rally(RallyFact::Arm)),
    ("unit.quality", Fact::Rally(RallyFact::Quality)),
    ("unit.cover", Fact::Rally(RallyFact::Cover)),
    ("unit.terrain", Fact::Rally(RallyFact::Terrain)),
    ("enemy_adjacent", Fact::Rally(RallyFact::EnemyAdjacent)),
    ("friends_adjacent", Fact::Rally(RallyFact::FriendsAdjacent)),
    ("order", Fact::Order(OrderFact::Order)),
    ("unit.shaken", Fact::Order(OrderFact::Shaken)),
    ("squares", Fact::Order(OrderFact::Squares)),
    ("closer", Fact::Order(OrderFact::Closer)),
    ("ends_adjacent", Fact::Order(OrderFact::EndsAdjacent)),
    ("into.terrain", Fact::Order(OrderFact::IntoTerrain)),
];

/// The facts a condition decided at `moment` may ask for.
fn facts_at(moment: Moment) -> impl Iterator<Item = &'static (&'static str, Fact)> {
    FACTS.iter().filter(move |(_, fact)| match (moment, fact) {
        (Moment::Rally, Fact::Rally(_)) => true,
        (Moment::Restriction, Fact::Rally(_) | Fact::Order(_)) => true,
        (Moment::Rally, _) | (_, Fact::Rally(_) | Fact::Order(_)) => false,
        (Moment::BeforeDice | Moment::Restriction, Fact::Result) => false,
        _ => true,
    })
}

impl Fact {
    /// Whether it is a fact of an order (and of the unit given it), rather than of an attack.
    fn of_order(self) -> bool {
        matches!(self, Fact::Rally(_) | Fact::Order(_))
    }

    fn kind(self) -> Kind {
        match self {
            Fact::Distance | Fact::Rally(RallyFact::FriendsAdjacent) | Fact::Order(OrderFact::Squares) => Kind::Int,
            Fact::Attacker(UnitFact::Arm) | Fact::Target(UnitFact::Arm) | Fact::Rally(RallyFact::Arm) => Kind::Arm,
            Fact::Attacker(UnitFact::Quality) | Fact::Target(UnitFact::Quality) | Fact::Rally(RallyFact::Quality) => {
                Kind::Quality
            }
            Fact::TargetTerrain | Fact::Rally(RallyFact::Terrain) | Fact::Order(OrderFact::IntoTerrain) => {
                Kind::Terrain
            }
            Fact::Result => Kind::Result,
            Fact::Order(OrderFact::Order) => Kind::Order,
            _ => Kind::Bool,
        }
    }

    fn value(self, f: &AttackFacts) -> Value {
        let unit = |u: &UnitFacts, fact: UnitFact| match fact {
            UnitFact::Arm => Value::Arm(u.arm),
            UnitFact::Quality => Value::Quality(u.quality),
            UnitFact::Moved => Value::Bool(u.moved),
            UnitFact::Shaken => Value::Bool(u.shaken),
            UnitFact::Higher => Value::Bool(u.higher),
        };
        match self {
            Fact::Charge => Value::Bool(f.charge),
            Fact::Distance => Value::Int(f.distance.into()),
            Fact::Flank => Value::Bool(f.flank),
            Fact::Rear => Value::Bool(f.rear),
            Fact::Ranging => Value::Bool(f.ranging),
            Fact::Attacker(u) => unit(&f.attacker, u),
            Fact::Target(u) => unit(&f.target, u),
            Fact::TargetCover => Value::Bool(f.target_cover),
            Fact::TargetTerrain => Value::Terrain(f.target_terrain),
            Fact::TargetBehindFence => Value::Bool(f.target_behind_fence),
            Fact::Result => Value::Result(f.result),
            // A rally's or an order's fact: refused in an attack's condition when it is read.
            Fact::Rally(_) | Fact::Order(_) => Value::Bool(false),
        }
    }
}

/// A comparison.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    /// Whether `a op b`; only numbers have an order (checked when the condition is read).
    fn holds(self, a: Value, b: Value) -> bool {
        let numbers = match (a, b) {
            (Value::Int(a), Value::Int(b)) => Some(a.cmp(&b)),
            _ => None,
        };
        match (self, numbers) {
            (Op::Eq, _) => a == b,
            (Op::Ne, _) => a != b,
            (Op::Lt, Some(o)) => o.is_lt(),
            (Op::Le, Some(o)) => o.is_le(),
            (Op::Gt, Some(o)) => o.is_gt(),
            (Op::Ge, Some(o)) => o.is_ge(),
            (_, None) => false,
        }
    }

    fn orders(self) -> bool {
        !matches!(self, Op::Eq | Op::Ne)
    }
}

/// A word of a condition.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Int(i64),
    Text(String),
    Op(Op),
    Open,
    Close,
    /// Text that is no word of a condition, with what is wrong with it: reported only if the parser reaches it,
    /// so that a mistake before it (`target.terrain in ('woods', 'town')`) is reported where it stands.
    Bad(String),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) => write!(f, "'{w}'"),
            Token::Int(n) => write!(f, "{n}"),
            Token::Text(t) => write!(f, "the string '{t}'"),
            Token::Op(op) => {
                let s = match op {
                    Op::Eq => "==",
                    Op::Ne => "!=",
                    Op::Lt => "<",
                    Op::Le => "<=",
                    Op::Gt => ">",
                    Op::Ge => ">=",
                };
                write!(f, "'{s}'")
            }
            Token::Open => f.write_str("'('"),
            Token::Close => f.write_str("')'"),
            Token::Bad(message) => f.write_str(message),
        }
    }
}

/// A token and where it starts.
struct Spanned {
    token: Token,
    offset: usize,
}

fn error(offset: usize, message: impl Into<String>) -> ConditionError {
    ConditionError { offset, message: message.into() }
}

/// The problem of finding `t` where `expected` was: what is wrong with it if it is no word of a condition, a hint
/// where it is a word of another language (`in`), else what was expected.
fn unexpected(t: &Spanned, expected: &str) -> ConditionError {
    match &t.token {
        Token::Bad(message) => error(t.offset, message.clone()),
        Token::Word(w) if w == "in" => error(
            t.offset,
            "a condition has no 'in': compare with '==' and join with 'or' \
             (target.terrain == 'woods' or target.terrain == 'town')",
        ),
        other => error(t.offset, format!("expected {expected}, found {other}")),
    }
}

/// The longest condition read, in bytes: a variant file is bounded.
pub const MAX_CONDITION_LEN: usize = 1000;

fn lex(text: &str) -> Result<Vec<Spanned>, ConditionError> {
    if text.len() > MAX_CONDITION_LEN {
        return Err(error(MAX_CONDITION_LEN, format!("a condition is at most {MAX_CONDITION_LEN} characters")));
    }
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        let token = match c {
            _ if c.is_whitespace() => {
                chars.next();
                continue;
            }
            '(' | ')' => {
                chars.next();
                if c == '(' { Token::Open } else { Token::Close }
            }
            '=' | '!' | '<' | '>' => {
                chars.next();
                let equals = chars.next_if(|&(_, d)| d == '=').is_some();
                match (c, equals) {
                    ('=', true) => Token::Op(Op::Eq),
                    ('!', true) => Token::Op(Op::Ne),
                    ('<', false) => Token::Op(Op::Lt),
                    ('<', true) => Token::Op(Op::Le),
                    ('>', false) => Token::Op(Op::Gt),
                    ('>', true) => Token::Op(Op::Ge),
                    ('!', false) => Token::Bad("expected '!=', found '!' (write 'not' to negate)".to_string()),
                    _ => Token::Bad("expected '==' or '!=', found '='".to_string()),
                }
            }
            // The words of other languages' logic, with the word a condition writes instead.
            '&' | '|' => {
                chars.next();
                let doubled = chars.next_if(|&(_, d)| d == c).is_some();
                let (found, word) = if c == '&' { ("&", "and") } else { ("|", "or") };
                let found = if doubled { format!("{found}{found}") } else { found.to_string() };
                Token::Bad(format!("unexpected '{found}': write '{word}'"))
            }
            '\'' => {
                chars.next();
                let mut s = String::new();
                let mut closed = false;
                for (_, d) in chars.by_ref() {
                    if d == '\'' {
                        closed = true;
                        break;
                    }
                    s.push(d);
                }
                if closed { Token::Text(s) } else { Token::Bad("a string without its closing quote".to_string()) }
            }
            '0'..='9' | '-' => {
                let mut s = String::new();
                s.push(c);
                chars.next();
                while let Some((_, d)) = chars.next_if(|&(_, d)| d.is_ascii_digit()) {
                    s.push(d);
                }
                match s.parse() {
                    Ok(n) => Token::Int(n),
                    Err(_) => Token::Bad(format!("'{s}' is not a whole number")),
                }
            }
            _ if c.is_alphabetic() || c == '_' => {
                let mut s = String::new();
                while let Some((_, d)) = chars.next_if(|&(_, d)| d.is_alphanumeric() || d == '_' || d == '.') {
                    s.push(d);
                }
                Token::Word(s)
            }
            _ => {
                chars.next();
                Token::Bad(format!("unexpected '{c}'"))
            }
        };
        tokens.push(Spanned { token, offset: at });
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: Vec<Spanned>,
    at: usize,
    arms: &'a [&'a str],
    /// The ids of the combat system's terrains, in the order of their places.
    terrains: &'a [&'a str],
    /// Where the text ends, for a message about something missing there.
    end: usize,
    /// When the condition is decided: whether it may ask for the result.
    moment: Moment,
    /// The first fact of an attack the condition names, and where (a restriction names an attack's or an order's).
    first_attack: Option<(usize, String)>,
    /// The first fact of an order the condition names, and where.
    first_order: Option<(usize, String)>,
}

/// A parsed expression: its node, its kind, and where it starts.
struct Typed {
    node: Node,
    kind: Kind,
    offset: usize,
}

impl Typed {
    fn new(node: Node, kind: Kind, offset: usize) -> Typed {
        Typed { node, kind, offset }
    }
}

fn expect_bool(t: &Typed) -> Result<(), ConditionError> {
    if t.kind == Kind::Bool {
        Ok(())
    } else {
        Err(error(t.offset, format!("expected a condition (true or false), found {}", t.kind.name())))
    }
}

impl Parser<'_> {
    /// Notes that the condition names `fact` (written `word`) at `at`; a restriction's that names facts of both an
    /// attack and an order is refused where the second kind first stands.
    fn one_side(&mut self, word: &str, fact: Fact, at: usize) -> Result<(), ConditionError> {
        if self.moment != Moment::Restriction {
            return Ok(());
        }
        let (mine, other) = if fact.of_order() {
            (&mut self.first_order, &self.first_attack)
        } else {
            (&mut self.first_attack, &self.first_order)
        };
        if let Some((_, seen)) = other {
            let (attack, order) = if fact.of_order() { (seen.as_str(), word) } else { (word, seen.as_str()) };
            return Err(error(
                at,
                format!(
                    "a restriction forbids attacks or orders, not both: '{attack}' is a fact of an attack (before its \
                     dice) and '{order}' of an order; write two restrictions"
                ),
            ));
        }
        mine.get_or_insert_with(|| (at, word.to_string()));
        Ok(())
    }

    fn peek_word(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.at), Some(Spanned { token: Token::Word(w), .. }) if w == word)
    }

    fn here(&self) -> usize {
        self.tokens.get(self.at).map_or(self.end, |t| t.offset)
    }

    fn or(&mut self) -> Result<Typed, ConditionError> {
        let mut left = self.and()?;
        while self.peek_word("or") {
            self.at += 1;
            let right = self.and()?;
            expect_bool(&left)?;
            expect_bool(&right)?;
            left = Typed::new(Node::Or(Box::new(left.node), Box::new(right.node)), Kind::Bool, left.offset);
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Typed, ConditionError> {
        let mut left = self.not()?;
        while self.peek_word("and") {
            self.at += 1;
            let right = self.not()?;
            expect_bool(&left)?;
            expect_bool(&right)?;
            left = Typed::new(Node::And(Box::new(left.node), Box::new(right.node)), Kind::Bool, left.offset);
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Typed, ConditionError> {
        if self.peek_word("not") {
            let at = self.here();
            self.at += 1;
            let operand = self.not()?;
            expect_bool(&operand)?;
            return Ok(Typed::new(Node::Not(Box::new(operand.node)), Kind::Bool, at));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Typed, ConditionError> {
        let left = self.operand()?;
        let (op, op_at) = match self.tokens.get(self.at) {
            Some(&Spanned { token: Token::Op(op), offset }) => (op, offset),
            // Where a comparison would go, a word of another language's logic is the mistake, whatever follows.
            Some(t) if matches!(&t.token, Token::Bad(_)) || matches!(&t.token, Token::Word(w) if w == "in") => {
                return Err(unexpected(t, "a comparison"));
            }
            _ => return Ok(left),
        };
        self.at += 1;
        let right = self.operand()?;
        let (left, right) = resolve(left, right, self.arms, self.terrains)?;
        if left.kind != right.kind {
            return Err(error(right.offset, format!("cannot compare {} with {}", left.kind.name(), right.kind.name())));
        }
        if op.orders() && left.kind != Kind::Int {
            return Err(error(op_at, format!("{} has no order: compare it with '==' or '!='", left.kind.name())));
        }
        if matches!((&left.node, &right.node), (Node::Const(_), Node::Const(_))) {
            return Err(error(left.offset, "compares two constants: one side should be a fact of the attack"));
        }
        Ok(Typed::new(Node::Compare(op, Box::new(left.node), Box::new(right.node)), Kind::Bool, left.offset))
    }

    fn operand(&mut self) -> Result<Typed, ConditionError> {
        let at = self.here();
        let Some(spanned) = self.tokens.get(self.at) else {
            return Err(error(at, "expected a fact, a number, a 'string', true, false or '(', found the end"));
        };
        let (token, index) = (spanned.token.clone(), self.at);
        self.at += 1;
        match token {
            Token::Open => {
                let inner = self.or()?;
                match self.tokens.get(self.at) {
                    Some(Spanned { token: Token::Close, .. }) => {
                        self.at += 1;
                        Ok(Typed { offset: at, ..inner })
                    }
                    Some(t) => Err(unexpected(t, "')'")),
                    None => Err(error(self.end, "expected ')', found the end")),
                }
            }
            Token::Int(n) => Ok(Typed::new(Node::Const(Value::Int(n)), Kind::Int, at)),
            Token::Text(text) => Ok(Typed::new(Node::Text(text), Kind::Text, at)),
            Token::Word(w) if w == "true" || w == "false" => {
                Ok(Typed::new(Node::Const(Value::Bool(w == "true")), Kind::Bool, at))
            }
            Token::Word(w) => match FACTS.iter().find(|(name, _)| *name == w) {
                Some(&(_, fact)) if facts_at(self.moment).any(|&(_, f)| f == fact) => {
                    self.one_side(&w, fact, at)?;
                    Ok(Typed::new(Node::Fact(fact), fact.kind(), at))
                }
                Some((_, Fact::Result)) if matches!(self.moment, Moment::BeforeDice | Moment::Restriction) => {
                    Err(error(
                        at,
                        "'result' is known only after the dice: ask for it in [[after_attack]], not in a to-hit \
                         modifier or a restriction",
                    ))
                }
                Some(_) if self.moment == Moment::Rally => Err(error(
                    at,
                    format!(
                        "a rally modifier asks about the unit rallying, not an attack: {}",
                        fact_names(Moment::Rally)
                    ),
                )),
                Some((_, Fact::Order(_))) => Err(error(
                    at,
                    format!("'{w}' is a fact of an order, asked only in [[restrictions]]: {}", fact_names(self.moment)),
                )),
                Some(_) => Err(error(
                    at,
                    format!(
                        "'{w}' is a fact of a rally roll, asked only in [[rally_modifiers]] (or of an order, in \
                         [[restrictions]]): {}",
                        fact_names(self.moment)
                    ),
                )),
                None => Err(error(at, unknown_fact(&w, self.moment))),
            },
            _ => Err(unexpected(&self.tokens[index], "a fact, a number, a 'string', true, false or '('")),
        }
    }
}

/// A 'string' compared with a fact becomes the value of the fact's kind it names.
fn resolve(left: Typed, right: Typed, arms: &[&str], terrains: &[&str]) -> Result<(Typed, Typed), ConditionError> {
    match (left.kind, right.kind) {
        (Kind::Text, Kind::Text) => {
            Err(error(left.offset, "compares two strings: one side should be a fact such as attacker.arm"))
        }
        (Kind::Text, kind) => Ok((text_as(left, kind, arms, terrains)?, right)),
        (kind, Kind::Text) => Ok((left, text_as(right, kind, arms, terrains)?)),
        _ => Ok((left, right)),
    }
}

/// A 'string' read as a value of `kind`: an arm of `arms`, a quality or a terrain.
fn text_as(t: Typed, kind: Kind, arms: &[&str], terrains: &[&str]) -> Result<Typed, ConditionError> {
    let Node::Text(text) = &t.node else { return Ok(t) };
    let unknown = |what: &str, names: Vec<&str>| {
        Err(error(t.offset, format!("unknown {what} '{text}' (known: {})", names.join(", "))))
    };
    let value = match kind {
        Kind::Arm => match arms.iter().position(|a| a == text) {
            Some(i) => Value::Arm(i as u8),
            None => return unknown("arm", arms.to_vec()),
        },
        Kind::Quality => match Quality::parse(text) {
            Some(q) => Value::Quality(q),
            None => return unknown("quality", Quality::ALL.iter().map(|q| q.name()).collect()),
        },
        Kind::Terrain => match terrains.iter().position(|t| t == text || t.replace('_', " ") == *text) {
            Some(i) => Value::Terrain(Terrain::at(i)),
            None => return unknown("terrain", terrains.to_vec()),
        },
        Kind::Order => match OrderKind::ALL.iter().find(|o| o.name() == text || o.name().replace('_', " ") == *text) {
            Some(&order) => Value::Order(order),
            None => return unknown("order", OrderKind::ALL.iter().map(|o| o.name()).collect()),
        },
        Kind::Result => match RESULTS.iter().find(|r| r.name() == text || r.name().replace('_', " ") == *text) {
            Some(&result) => Value::Result(Some(result)),
            None => return unknown("result", RESULTS.iter().map(|r| r.name()).collect()),
        },
        other => return Err(error(t.offset, format!("cannot compare a 'string' with {}", other.name()))),
    };
    Ok(Typed::new(Node::Const(value), kind, t.offset))
}

/// The results a condition after the dice may name.
const RESULTS: [AttackResult; 6] = AttackResult::ALL;

/// The ids of the standard terrains, which a condition of the standard rules may name.
const STANDARD_TERRAINS: [&str; 6] = ["open", "woods", "town", "sunken_road", "river", "ford"];

/// The facts a condition at `moment` may ask for, as a message lists them: "known: charge, distance, …".
fn fact_names(moment: Moment) -> String {
    let names: Vec<&str> = facts_at(moment).map(|(name, _)| *name).collect();
    format!("known: {}", names.join(", "))
}

/// The message for a word that is no fact: the fact of `moment` it is nearest, as the scenario reader suggests a
/// key, else every fact of the moment.
fn unknown_fact(word: &str, moment: Moment) -> String {
    let names: Vec<&str> = facts_at(moment).map(|(name, _)| *name).collect();
    match crate::problem::nearest(word, &names) {
        Some(fact) => format!("unknown fact '{word}': did you mean '{fact}'?"),
        None => format!("unknown fact '{word}' ({})", fact_names(moment)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARMS: [&str; 4] = ["infantry", "cavalry", "artillery", "skirmishers"];

    fn parse(text: &str) -> Result<Condition, ConditionError> {
        Condition::parse(text, &ARMS)
    }

    fn veteran_charge() -> AttackFacts {
        AttackFacts {
            charge: true,
            distance: 1,
            attacker: UnitFacts { quality: Quality::Veteran, ..UnitFacts::default() },
            ..AttackFacts::default()
        }
    }

    #[test]
    fn conditions_hold_by_the_facts_of_the_attack() {
        let elan = parse("charge and attacker.quality == 'veteran'").unwrap();
        assert!(elan.holds(&veteran_charge()));
        assert!(!elan.holds(&AttackFacts { charge: false, ..veteran_charge() }));
        let long = parse("not charge and distance >= 2").unwrap();
        assert!(long.holds(&AttackFacts { distance: 3, ..AttackFacts::default() }));
        assert!(!long.holds(&AttackFacts { distance: 1, ..AttackFacts::default() }));
        let crest = parse("(target.higher or target.behind_fence) and not charge").unwrap();
        let higher = UnitFacts { higher: true, ..UnitFacts::default() };
        assert!(crest.holds(&AttackFacts { target: higher, ..AttackFacts::default() }));
        assert!(!crest.holds(&AttackFacts { target: higher, charge: true, ..AttackFacts::default() }));
        let skirmishers = parse("target.arm == 'skirmishers' and target.terrain != 'sunken road'").unwrap();
        let target = UnitFacts { arm: 3, ..UnitFacts::default() };
        assert!(skirmishers.holds(&AttackFacts { target, ..AttackFacts::default() }));
        let sunken = AttackFacts { target, target_terrain: Terrain::SunkenRoad, ..AttackFacts::default() };
        assert!(!skirmishers.holds(&sunken));
        assert!(parse("'artillery' == attacker.arm or flank or rear or ranging or target.cover").is_ok());
        assert!(parse("target.terrain == 'sunken_road'").is_ok(), "a terrain by its name or with underscores");
        assert!(parse("true").unwrap().holds(&AttackFacts::default()));
        assert!(!parse("false or 2 < distance").unwrap().holds(&AttackFacts::default()));
    }

    #[test]
    fn and_binds_tighter_than_or() {
        // "a or b and c" is "a or (b and c)": true with a alone.
        let c = parse("charge or flank and rear").unwrap();
        assert!(c.holds(&AttackFacts { charge: true, ..AttackFacts::default() }));
        assert!(!c.holds(&AttackFacts { flank: true, ..AttackFacts::default() }));
    }

    #[test]
    fn each_mistake_is_refused_where_it_stands_with_what_was_expected() {
        for (text, offset, words) in [
            (
                "charge and atacker.quality == 'veteran'",
                11,
                "unknown fact 'atacker.quality': did you mean 'attacker.quality'?",
            ),
            ("charge and sunk", 11, "unknown fact 'sunk' (known: charge,"),
            ("target.terrain in ('woods', 'town')", 15, "no 'in': compare with '==' and join with 'or'"),
            ("charge and target.terrain in ('woods')", 26, "no 'in'"),
            ("charge && flank", 7, "unexpected '&&': write 'and'"),
            ("charge || flank", 7, "unexpected '||': write 'or'"),
            ("charge and !flank", 11, "write 'not'"),
            ("(charge ,", 8, "unexpected ','"),
            ("distance == 'woods'", 12, "cannot compare a 'string' with a number"),
            (
                "attacker.arm == 'dragoons'",
                16,
                "unknown arm 'dragoons' (known: infantry, cavalry, artillery, skirmishers)",
            ),
            ("target.quality == 'elite'", 18, "unknown quality 'elite'"),
            ("target.terrain == 'swamp'", 18, "unknown terrain 'swamp'"),
            ("distance", 0, "expected a condition (true or false), found a number"),
            ("charge and distance", 11, "expected a condition"),
            ("attacker.quality < 'veteran'", 17, "a quality has no order"),
            ("charge == 1", 10, "cannot compare true or false with a number"),
            ("1 == 2", 0, "compares two constants"),
            ("'a' == 'b'", 0, "compares two strings"),
            ("(charge", 7, "expected ')', found the end"),
            ("charge flank", 7, "expected 'and', 'or' or the end, found 'flank'"),
            ("charge and", 10, "found the end"),
            ("charge = 1", 7, "expected '==' or '!='"),
            ("charge & flank", 7, "unexpected '&': write 'and'"),
            ("attacker.arm == 'infantry", 16, "closing quote"),
            ("distance > 99999999999999999999", 11, "not a whole number"),
        ] {
            let e = parse(text).expect_err(text);
            assert_eq!(e.offset, offset, "{text}: {e}");
            assert!(e.message.contains(words), "{text}: {e}");
        }
        assert!(parse(&"charge or ".repeat(200)).unwrap_err().message.contains("at most"));
    }

    proptest::proptest! {
        /// Whatever the text, reading it gives a condition or a message, never a panic; and an error's place is
        /// within the text.
        #[test]
        fn any_text_is_read_or_refused(text in "[a-z_.' ()=!<>0-9-]{0,60}") {
            if let Err(e) = parse(&text) {
                proptest::prop_assert!(e.offset <= text.len(), "{text}: {e}");
            }
        }

        /// Text built from the grammar's own words is read or refused without a panic too.
        #[test]
        fn grammar_words_are_read_or_refused(words in proptest::collection::vec(proptest::sample::select(vec![
            "charge", "distance", "target.arm", "attacker.quality", "'veteran'", "'infantry'", "2", "and", "or",
            "not", "(", ")", "==", "<", ">=", "!=", "true", "target.terrain", "'woods'",
        ]), 0..12)) {
            let text = words.join(" ");
            if let Ok(c) = parse(&text) {
                c.holds(&AttackFacts::default());
            }
        }

        /// A rally modifier's condition, from its facts' words and an attack's, is read or refused without a
        /// panic; one read holds or not of a unit's facts, and asks for none of an attack's.
        #[test]
        fn rally_words_are_read_or_refused(words in proptest::collection::vec(proptest::sample::select(vec![
            "unit.quality", "unit.arm", "unit.cover", "unit.terrain", "enemy_adjacent", "friends_adjacent",
            "'veteran'", "'woods'", "'cavalry'", "2", "and", "or", "not", "(", ")", "==", ">=", "charge", "result",
        ]), 0..12)) {
            let text = words.join(" ");
            match Condition::parse_at(&text, &ARMS, Moment::Rally) {
                Ok(c) => {
                    proptest::prop_assert!(!words.contains(&"charge") && !words.contains(&"result"), "{text}");
                    c.holds_for_rally(&RallyFacts::default());
                }
                Err(e) => proptest::prop_assert!(e.offset <= text.len(), "{text}: {e}"),
            }
        }
    }
}
