//! The rules a new game is played by, as the web app asks for them (`POST /api/games`'s `variant` and
//! `variant_text`, and the browser build's `create`): the battle's own rules, with a chosen or uploaded variant file
//! laid over them as the command line lays a `--variant` file (docs/variants.md, "Variants that combine").

use pacw_engine::system::{CombatSystem, SystemError};
use pacw_engine::{SHIPPED_VARIANTS, SavedVariant, Scenario, ScenarioError, shipped_named};
use std::fmt;
use std::sync::Arc;

/// The file name an uploaded variant is given in messages when the request names none.
pub const UPLOADED_VARIANT_FILE: &str = "variant.toml";

/// The rules a new game is played by.
#[derive(Clone, Debug, PartialEq)]
pub enum GameRules {
    /// The battle's own: the variant it names (`variant = "close-combat"`), else the standard rules.
    Own,
    /// A variant file laid over the battle's own rules, as the command line's `--variant`: a shipped variant chosen
    /// by name, or a player's own file. The battle's own variant file chosen again is played once, not twice.
    Over(SavedVariant),
    /// The rules of a game before, as it is played (its variant, layers and all), in place of the battle's own;
    /// `None` plays the battle's own, as for a game by the standard rules. A rematch plays by the same rules.
    Same(Option<Arc<CombatSystem>>),
}

/// Why the rules asked for cannot play the battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesRefused {
    /// Both a shipped variant's name and a variant file's text were given.
    Both,
    /// No shipped variant has this name.
    Unknown(String),
    /// The variant file is not a good one over the battle's own rules: each problem at its line and column in it.
    Variant(SystemError),
    /// The battle is not a good one under the rules (or names a variant that is not).
    Scenario(ScenarioError),
}

impl fmt::Display for RulesRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesRefused::Both => f.write_str("give either variant (a shipped name) or variant_text"),
            RulesRefused::Unknown(name) => {
                let known: Vec<&str> = SHIPPED_VARIANTS.iter().map(|v| v.name).collect();
                write!(f, "no shipped variant '{name}' (known: {})", known.join(", "))
            }
            RulesRefused::Variant(e) => write!(f, "{e}"),
            RulesRefused::Scenario(e) => write!(f, "{e}"),
        }
    }
}

impl GameRules {
    /// The rules a request asks for: a shipped variant's `name`, or a variant file's `text` (named `file` in
    /// messages), laid over the battle's own; neither, the battle's own.
    ///
    /// # Errors
    /// When both are given, or no shipped variant has the name.
    pub fn asked(name: Option<&str>, text: Option<&str>, file: Option<&str>) -> Result<GameRules, RulesRefused> {
        match (name, text) {
            (Some(_), Some(_)) => Err(RulesRefused::Both),
            (Some(name), None) => {
                let shipped = shipped_named(SHIPPED_VARIANTS.iter().copied(), name)
                    .ok_or_else(|| RulesRefused::Unknown(name.to_string()))?;
                Ok(GameRules::Over(SavedVariant { file: shipped.file.to_string(), text: shipped.text.to_string() }))
            }
            (None, Some(text)) => Ok(GameRules::Over(SavedVariant {
                file: file.unwrap_or(UPLOADED_VARIANT_FILE).to_string(),
                text: text.to_string(),
            })),
            (None, None) => Ok(GameRules::Own),
        }
    }

    /// The battle `text` (named `file`) read for these rules, and played by them: its units may be of their arms.
    ///
    /// ```
    /// use pacw_play::game_rules::GameRules;
    /// let battle = format!("variant = \"close-combat\"\n{}", pacw_engine::DEFAULT_SCENARIO);
    /// let rules = GameRules::asked(Some("hard-cover"), None, None).unwrap();
    /// let scenario = rules.scenario(&battle, "m.toml").unwrap();
    /// assert_eq!(scenario.variant().unwrap().name, "Close combat + Hard cover");
    /// ```
    ///
    /// # Errors
    /// When the variant file is not a good one over the battle's own rules (nothing of it is applied), or the battle
    /// is not a good one under the rules.
    pub fn scenario(&self, text: &str, file: &str) -> Result<Scenario, RulesRefused> {
        match self.system(text, file)? {
            Some(system) => Scenario::parse_with(text, file, system),
            None => Scenario::parse(text, file),
        }
        .map_err(RulesRefused::Scenario)
    }

    /// The combat system these rules play the battle `text` (named `file`) by, whether or not the rest of the battle
    /// is good (the editor's palette offers its terrain kinds meanwhile); `None` for the battle's own as it names
    /// them. A battle that names the uploaded file by its name (`variant = "my-rules.toml"`, as the editor writes it)
    /// has it as its own, played once.
    ///
    /// # Errors
    /// When the battle names a variant that cannot be read, or the variant file is not a good one over the battle's
    /// own rules.
    pub fn system(&self, text: &str, file: &str) -> Result<Option<Arc<CombatSystem>>, RulesRefused> {
        match self {
            GameRules::Own | GameRules::Same(None) => Ok(None),
            GameRules::Over(layer) => {
                let given = |name: &str| {
                    if name == layer.file {
                        Ok(layer.text.clone())
                    } else {
                        Err(format!("the variant file given beside the battle is {}", layer.file))
                    }
                };
                let own = Scenario::own_rules(text, file, Some(&given)).map_err(RulesRefused::Scenario)?;
                if own.source().is_some_and(|(_, own_text)| own_text == layer.text) {
                    return Ok(Some(Arc::new(own)));
                }
                own.with_layer(&layer.text, &layer.file).map(|s| Some(Arc::new(s))).map_err(RulesRefused::Variant)
            }
            GameRules::Same(Some(system)) => Ok(Some(system.clone())),
        }
    }
}
