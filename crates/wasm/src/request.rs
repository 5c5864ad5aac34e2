//! The requests the desk answers: one for each call of the server's JSON API that a game in the browser needs
//! (docs/api.md), named by `op`, the game by the `id` the host gave it.

use pacw_engine::Action;
use pacw_play::setup::Mode;
use serde::Deserialize;

/// One request, as JSON: `{"op": "view", "id": "…", …}`.
#[derive(Deserialize, Debug)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Checks a scenario's text without playing it (`POST /api/scenarios/check`).
    Check {
        /// The TOML text.
        text: String,
        /// Its file name, for messages (default `uploaded.toml`).
        file: Option<String>,
        /// A variant file's text to check it under, in place of any variant it names.
        variant_text: Option<String>,
        /// The variant file's name, for messages (default `variant.toml`).
        variant_file: Option<String>,
    },
    /// A new game (`POST /api/games`): a shipped scenario by name or a scenario's text, its options, the mode
    /// (`computer` or `hotseat`: the others need a server), the human's side and the computer player.
    Create {
        /// The id the host keeps the game under.
        id: String,
        /// A shipped scenario's name.
        scenario: Option<String>,
        /// Or a scenario's full text.
        scenario_text: Option<String>,
        /// The uploaded scenario's file name, for messages.
        scenario_file: Option<String>,
        /// Rule options (R11) as `name=value`.
        #[serde(default)]
        options: Vec<String>,
        /// A shipped variant's name.
        variant: Option<String>,
        /// Or a variant file's text (docs/variants.md).
        variant_text: Option<String>,
        /// The variant file's name, for messages.
        variant_file: Option<String>,
        /// `computer` or `hotseat`.
        mode: Mode,
        /// Against the computer: the human's side (`A`, `B`, `first`, `second` or the scenario's side id).
        human_side: Option<String>,
        /// The computer player (a plain name of `pacw_ai::PLAYERS`; the default level if none).
        computer: Option<String>,
        /// The dice's seed, in decimal digits (a JavaScript number cannot hold 64 bits).
        seed: String,
    },
    /// A game from a save file's text (`pacw play --save`, `GET …/save`, or this desk's `save`): who played each side
    /// comes from the save's `players` (a computer's side stays the computer's), else both are people (hot-seat).
    Load {
        /// The id the host keeps the game under.
        id: String,
        /// The save file's text.
        save: String,
    },
    /// The game's view (`GET /api/play/{token}`), its log from `log_from`.
    View {
        /// The game.
        id: String,
        /// The first log entry to include.
        log_from: Option<usize>,
    },
    /// A unit's orders (`GET …/units/{unit}`).
    Unit {
        /// The game.
        id: String,
        /// The unit.
        unit: u8,
    },
    /// Whether an order is legal for a unit now, and why not (`POST …/explain`).
    Explain {
        /// The game.
        id: String,
        /// The unit.
        unit: u8,
        /// The order.
        action: Action,
    },
    /// A person's decision (`POST …/actions`).
    Act {
        /// The game.
        id: String,
        /// The index of the action in the view's `legal_actions`.
        index: Option<usize>,
        /// Or the action itself.
        action: Option<Action>,
        /// Refused unless the game has exactly this many decisions.
        decisions: Option<usize>,
    },
    /// The computer's next decision, if its side is to act: the reply is the update the server's event stream sends
    /// for it (docs/api.md), or null. The decision is made here, or given as `action` when another desk made it
    /// from the game's save (the browser thinks in a worker of its own, `computer_turn`).
    Computer {
        /// The game.
        id: String,
        /// The decision the computer player made elsewhere, from this game as it stood at `decisions`.
        action: Option<Action>,
        /// Refused unless the game has exactly this many decisions (the person took one back meanwhile).
        decisions: Option<usize>,
    },
    /// Brings a game held here up to another desk's copy of it without replaying it from its save: plays `actions`,
    /// the decisions that copy made after its first `decisions` (the thinker's worker follows the games' worker so,
    /// and loads the save again after a take-back). The reply is `{"decisions": n}`; refused, the game unchanged,
    /// unless it has exactly `decisions` decisions and every action is legal in its turn.
    Follow {
        /// The game.
        id: String,
        /// How many decisions the game has before `actions`.
        decisions: usize,
        /// The decisions made since, in order.
        actions: Vec<Action>,
    },
    /// Whether the computer is to act, and if so what another desk needs to make its decision: `{"decisions": n,
    /// "save": text}` (the game's save file, which holds the seed the computer player's own dice come from), or null.
    ComputerTurn {
        /// The game.
        id: String,
    },
    /// Takes back the person's last decisions (`POST …/undo`).
    Undo {
        /// The game.
        id: String,
        /// How many (default 1).
        count: Option<usize>,
        /// Refused unless the game has exactly this many decisions.
        decisions: Option<usize>,
    },
    /// The side to act resigns (`POST …/resign`).
    Resign {
        /// The game.
        id: String,
    },
    /// The whole game decision by decision (`GET …/replay`).
    Replay {
        /// The game.
        id: String,
    },
    /// The game after `decision` decisions (`GET …/replay/{decision}`).
    ReplayAt {
        /// The game.
        id: String,
        /// Decisions applied.
        decision: usize,
    },
    /// The save file (`GET …/save`) as text (`{"text": …}`: a JavaScript number cannot hold its seed), with who
    /// played each side; unlike the server's, given before the end too: the seed is in the player's own browser.
    Save {
        /// The game.
        id: String,
    },
    /// The game's public facts, as the lobby lists them (`GET …/summary`).
    Summary {
        /// The game.
        id: String,
    },
    /// The review: made, under way or not asked for (`GET …/review`).
    Review {
        /// The game.
        id: String,
    },
    /// Starts the review of a finished game (`POST …/review`).
    StartReview {
        /// The game.
        id: String,
    },
    /// Searches up to `decisions` more decisions of a review under way, then answers as `review` does.
    ReviewStep {
        /// The game.
        id: String,
        /// How many decisions to search in this call (at least 1).
        decisions: usize,
    },
    /// A new game of the same battle, rules and players with the sides swapped (`POST …/rematch`), under `new_id`.
    Rematch {
        /// The game played.
        id: String,
        /// The id the host keeps the new game under.
        new_id: String,
        /// The new game's dice seed, in decimal digits.
        seed: String,
    },
    /// The rules the game is played by, as the server's `GET /game/{token}/rules` page has them: `{"title", "html"}`,
    /// the rules of play under the variant's tables when a variant plays it.
    Rules {
        /// The game.
        id: String,
    },
    /// Lets go of a game held in memory.
    Forget {
        /// The game.
        id: String,
    },
}
