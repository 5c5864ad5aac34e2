//! Checking a scenario text without playing it (`POST /api/scenarios/check`, and in the browser the desk's `check`):
//! every problem with its place in the text, the keys nothing reads, and a first guess at the battle's balance.

use crate::game_rules::{GameRules, RulesRefused};
use crate::view::{
    ArmView, OwnModifierView, ScenarioView, TerrainView, arm_views, own_modifier_views, scenario_view, terrain_views,
};
use pacw_engine::{Problem, SavedVariant, Scenario, ScenarioError};
use serde::Serialize;

/// One problem of a scenario, with its place in the text where known (as `pacw check` reports it).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ProblemView {
    /// 1-based line.
    pub line: Option<usize>,
    /// 1-based column.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// The square concerned (`c3`), where there is one on the board: the editor marks it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    /// The unit concerned: its index among the file's `[[units]]`, from 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<usize>,
}

/// The problems of a scenario error, one per entry.
pub fn problems(e: &ScenarioError) -> Vec<ProblemView> {
    problem_views(&e.problems)
}

/// Problems as the API shows them, one per entry.
pub fn problem_views(problems: &[Problem]) -> Vec<ProblemView> {
    problems
        .iter()
        .map(|p| ProblemView {
            line: p.line,
            column: p.column,
            message: p.message.clone(),
            square: p.square.map(|s| s.to_string()),
            unit: p.unit,
        })
        .collect()
}

/// The result of a check, as `pacw check` reports it.
#[derive(Serialize)]
pub struct CheckReply {
    /// Whether the scenario passed every check.
    pub ok: bool,
    /// The file name used in messages.
    pub file: String,
    /// Every problem, with line and column where known.
    pub problems: Vec<ProblemView>,
    /// The problems as `pacw check` prints them, one per line (`file:line:column: message`).
    pub message: String,
    /// The checked scenario, when ok.
    pub scenario: Option<ScenarioView>,
    /// Keys of the text that nothing reads (outside `[options]`), whether or not it is ok: not errors, but each
    /// perhaps a misspelling, with the key it is nearest to.
    pub warnings: Vec<ProblemView>,
    /// When ok: the first side's expected score at the start as the evaluator judges it at once (a quick guess at
    /// the battle's balance; `POST /api/scenarios/balance` measures it by playing games).
    pub estimate: Option<f32>,
    /// With a variant file given beside the text ([`GivenVariant`]) that reads: its terrain kinds, the standard six
    /// first, then its own, ok or not (the editor's palette offers them before the battle passes).
    pub terrains: Option<Vec<TerrainView>>,
    /// With a variant file given beside the text that reads: its arms, the standard three first, then its own, ok or
    /// not (the editor's lists of arms offer them).
    pub arms: Option<Vec<ArmView>>,
    /// With a variant file given beside the text that reads: the to-hit modifiers of its own, ok or not (the lobby
    /// offers their options, `modifier.<id>`).
    pub modifiers: Option<Vec<OwnModifierView>>,
}

/// A variant file given beside a scenario's text (the API's `variant_text` and `variant_file`): the text is checked
/// under it as a game made with the same two is played ([`GameRules`]: laid over the battle's own rules, or the
/// battle's own when the battle names it).
#[derive(Clone, Copy, Debug)]
pub struct GivenVariant<'a> {
    /// The variant file's text (docs/variants.md).
    pub text: &'a str,
    /// Its file name, for messages.
    pub file: &'a str,
}

/// Checks a scenario's `text` (`file` names it in messages), as `pacw check` does: under `variant` when one is given
/// beside it.
pub fn check_scenario(text: &str, file: String, variant: Option<GivenVariant>) -> CheckReply {
    let warnings = problem_views(&Scenario::ignored_keys(text));
    let rules = match variant {
        Some(v) => GameRules::Over(SavedVariant { text: v.text.to_string(), file: v.file.to_string() }),
        None => GameRules::Own,
    };
    let refusal = |e: RulesRefused| match e {
        RulesRefused::Scenario(e) => (problems(&e), e.to_string()),
        other => {
            let message = other.to_string();
            (
                vec![ProblemView { line: None, column: None, message: message.clone(), square: None, unit: None }],
                message,
            )
        }
    };
    let system = match rules.system(text, &file) {
        Ok(system) => system,
        Err(e) => {
            let (problems, message) = refusal(e);
            return refused(problems, message, file, warnings, Kinds::default());
        }
    };
    let given = variant.and(system.as_ref());
    let kinds = Kinds {
        terrains: given.map(|s| terrain_views(s.terrain_rules())),
        arms: given.map(|s| arm_views(s)),
        modifiers: given.map(|s| own_modifier_views(s)),
    };
    match rules.scenario(text, &file) {
        Ok(s) => CheckReply {
            ok: true,
            problems: Vec::new(),
            message: String::new(),
            scenario: Some(scenario_view(&file, &s)),
            estimate: Some(pacw_ai::evaluator::shared().value(&pacw_engine::Battle::from_scenario(s.into()))),
            file,
            warnings,
            terrains: kinds.terrains,
            arms: kinds.arms,
            modifiers: kinds.modifiers,
        },
        Err(e) => {
            let (problems, message) = refusal(e);
            refused(problems, message, file, warnings, kinds)
        }
    }
}

/// The reply to a text that does not pass.
fn refused(
    problems: Vec<ProblemView>,
    message: String,
    file: String,
    warnings: Vec<ProblemView>,
    kinds: Kinds,
) -> CheckReply {
    let Kinds { terrains, arms, modifiers } = kinds;
    CheckReply {
        ok: false,
        problems,
        message,
        scenario: None,
        file,
        warnings,
        estimate: None,
        terrains,
        arms,
        modifiers,
    }
}

/// The terrain kinds, arms and own modifiers of a variant file given beside a text, when it reads.
#[derive(Default)]
struct Kinds {
    terrains: Option<Vec<TerrainView>>,
    arms: Option<Vec<ArmView>>,
    modifiers: Option<Vec<OwnModifierView>>,
}
