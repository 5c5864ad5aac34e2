//! The rules of docs/rules.md, by their ids: what a refusal cites ([`crate::Illegal`]), so that a rule id is a value
//! of one type rather than any string.

use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! rules {
    ($($variant:ident => $id:literal, $title:literal;)*) => {
        /// A rule (or a section of rules) of docs/rules.md. Written as its id (`R6.4`), in text and in JSON.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        pub enum Rule {
            $(#[doc = concat!($id, ": ", $title, ".")] $variant,)*
        }

        impl Rule {
            /// Every rule, in the order of docs/rules.md.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// Its id, as docs/rules.md heads its section (`R6.4`).
            pub const fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// Its title in docs/rules.md.
            pub const fn title(self) -> &'static str {
                match self {
                    $(Rule::$variant => $title,)*
                }
            }
        }
    };
}

rules! {
    R1 => "R1", "The battlefield";
    R1_1 => "R1.1", "The grid and square names";
    R1_2 => "R1.2", "Adjacent squares and distance";
    R1_3 => "R1.3", "Terrain, roads and elevation";
    R1_4 => "R1.4", "Fences";
    R1_5 => "R1.5", "Terrain effects";
    R1_6 => "R1.6", "Roads";
    R2 => "R2", "Sides and units";
    R2_1 => "R2.1", "The two sides";
    R2_2 => "R2.2", "Arm, quality and strength";
    R2_3 => "R2.3", "Facing and the front arc";
    R2_4 => "R2.4", "Steady and shaken";
    R2_5 => "R2.5", "One unit per square";
    R2_6 => "R2.6", "Movement and range";
    R3 => "R3", "Turns and initiative";
    R3_1 => "R3.1", "Initiative value";
    R3_2 => "R3.2", "The deck";
    R3_3 => "R3.3", "Drawing cards";
    R3_4 => "R3.4", "Activating units on a card";
    R3_5 => "R3.5", "Double activation";
    R3_6 => "R3.6", "The Joker";
    R3_7 => "R3.7", "Other initiative systems";
    R4 => "R4", "Activation";
    R4_1 => "R4.1", "Rallying on activation";
    R4_2 => "R4.2", "The five orders";
    R4_3 => "R4.3", "Artillery";
    R4_4 => "R4.4", "Taking ground";
    R4_5 => "R4.5", "Naming the target";
    R5 => "R5", "Movement";
    R5_1 => "R5.1", "Moving square to square";
    R5_2 => "R5.2", "Zone of control";
    R5_3 => "R5.3", "Breaking contact";
    R5_4 => "R5.4", "Facing after a move";
    R5_5 => "R5.5", "What counts as a move";
    R6 => "R6", "Attacks";
    R6_1 => "R6.1", "Who may be attacked";
    R6_2 => "R6.2", "Line of sight";
    R6_3 => "R6.3", "Cover";
    R6_4 => "R6.4", "To hit";
    R6_5 => "R6.5", "One attack per activation";
    R7 => "R7", "Hit results";
    R7_1 => "R7.1", "The hit-result roll";
    R7_2 => "R7.2", "A retreat shakes";
    R7_3 => "R7.3", "Where a retreat goes";
    R7_4 => "R7.4", "No way back";
    R8 => "R8", "End of the game";
    R8_1 => "R8.1", "Exhaustion";
    R8_2 => "R8.2", "The turn limit and points";
    R9 => "R9", "Chance";
    R9_1 => "R9.1", "Two kinds of chance";
    R9_2 => "R9.2", "Exact odds and replays";
    R10 => "R10", "Notation";
    R11 => "R11", "Options";
}

impl Rule {
    /// The rule with this id (`R6.4`), if docs/rules.md has it.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, id: &&str) -> bool {
        self.id() == *id
    }
}

impl PartialEq<str> for Rule {
    fn eq(&self, id: &str) -> bool {
        self.id() == id
    }
}

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn every_rule_has_its_section_in_the_rules_and_every_section_is_a_rule() {
        let rules = include_str!("../../../docs/rules.md");
        for rule in Rule::ALL {
            let heading = format!(" {} {} {{#{}}}", rule.id(), rule.title(), rule.id());
            assert!(rules.lines().any(|l| l.starts_with('#') && l.ends_with(&heading)), "{rule}: no section{heading}");
        }
        let sections = rules.lines().filter(|l| l.starts_with('#') && l.contains("{#R")).count();
        assert_eq!(sections, Rule::ALL.len(), "a section of docs/rules.md without its Rule");
        assert_eq!(Rule::from_id("R6.4"), Some(Rule::R6_4));
        assert_eq!(serde_json::to_string(&Rule::R6_4).unwrap(), "\"R6.4\"");
        assert!(Rule::R3_4 == "R3.4");
        assert_eq!(format!("{}", Rule::R3_4), "R3.4");
    }
}
