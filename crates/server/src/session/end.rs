//! Ending a game by resignation, and playing it again with the sides swapped.

use super::change::Change;
use super::{CreateGame, Created, GameEntry, Games, OptionsInput, shipped};
use crate::error::{ApiError, ApiResult};
use crate::live::Live;
use crate::setup::{Mode, PlayerKind};
use crate::tokens::Role;
use crate::view::{GameView, game_view};
use pacw_engine::{Side, ToAct};
use pacw_play::game_rules::GameRules;
use serde::Deserialize;
use std::sync::Arc;

/// A request to resign.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// The side that resigns: only needed by a hot-seat link (default: the side to act); a side's link resigns
    /// for its own side.
    pub side: Option<Side>,
}

impl Games {
    /// `role` resigns for its side: the game ends, the other side wins; stored and pushed like an action.
    ///
    /// # Errors
    /// When the token is a spectator's or asks for the other side, the side is the computer's, or the seat's account is
    /// disabled (403), the game is
    /// over (409), or the game cannot be loaded or the resignation stored (500).
    pub fn resign(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role, req: ResignRequest) -> ApiResult<GameView> {
        let mut st = entry.lock();
        self.check_enabled(&st, role)?;
        let live = self.loaded(&entry.id, &mut st)?;
        let b = live.game.battle();
        let side = match (role, req.side, b.to_act()) {
            (Role::Spectator, ..) => {
                return Err(ApiError::Forbidden("this is a spectator's link: it can only watch".into()));
            }
            (_, _, ToAct::Over(_) | ToAct::Chance(_)) => {
                return Err(ApiError::Conflict("the game is over (R8)".into()));
            }
            (Role::Side(own), Some(asked), _) if own != asked => {
                return Err(ApiError::Forbidden("this link plays the other side: it can resign only its own".into()));
            }
            (Role::Side(own), ..) => own,
            (Role::Both, Some(asked), _) => asked,
            (Role::Both, None, ToAct::Side(to_act)) => to_act,
        };
        if matches!(entry.players[side.index()], PlayerKind::Computer { .. }) {
            return Err(ApiError::Forbidden("that side is played by the computer".into()));
        }
        let mut next = live.clone();
        next.game.resign(side)?;
        next.revision += 1;
        let before_len = live.game.log().len();
        self.commit(entry, &mut st, next, Change::Resign { side }, before_len)?;
        let live = self.loaded(&entry.id, &mut st)?;
        Ok(game_view(&entry.ctx(role), live, 0, None))
    }

    /// A new game of the same scenario and options with the sides swapped (`POST …/rematch`): against the computer
    /// the person plays the other side; in `watch` the computers swap. The reply is as for a created game, with
    /// `you` naming the role that continues the requester's part.
    ///
    /// # Errors
    /// When the game cannot be loaded (500), or as [`Games::create`] for the new game.
    pub fn rematch(self: &Arc<Self>, entry: &Arc<GameEntry>, role: Role) -> ApiResult<(Created, &'static str)> {
        let live: Live = self.snapshot(entry)?;
        let save = live.game.save();
        let (scenario, scenario_text) = match shipped(&entry.scenario_name) {
            Some(s) if s.text == save.scenario => (Some(s.name.to_string()), None),
            _ => (None, Some(save.scenario.clone())),
        };
        let computer_of = |side: Side| match &entry.players[side.index()] {
            PlayerKind::Computer { name } => Some(name.clone()),
            PlayerKind::Human => None,
        };
        let human = Side::BOTH.into_iter().find(|&s| entry.players[s.index()] == PlayerKind::Human);
        let req = CreateGame {
            scenario,
            scenario_text,
            scenario_file: Some(save.scenario_file.clone()),
            options: OptionsInput::Pairs(save.options.pairs().into_iter().map(|(k, v)| format!("{k}={v}")).collect()),
            variant: None,
            variant_text: None,
            variant_file: None,
            // The rematch is played by the same rules, not laid over the battle's own again.
            rules: Some(GameRules::Same(live.game.battle().scenario().variant().cloned().map(Arc::new))),
            mode: entry.mode,
            human_side: match entry.mode {
                Mode::Computer => human.map(|h| crate::tokens::Role::Side(h.other()).name().to_string()),
                _ => None,
            },
            computer: match entry.mode {
                Mode::Computer => human.and_then(|h| computer_of(h.other())),
                Mode::Watch => computer_of(Side::B),
                _ => None,
            },
            rating: crate::setup::Rating::Casual,
            computer_b: match entry.mode {
                Mode::Watch => computer_of(Side::A),
                _ => None,
            },
            save: None,
            pace: entry.pace,
        };
        let created = self.create(req, &entry.client, None)?;
        let you = match role {
            Role::Side(s) => Role::Side(s.other()),
            other => other,
        };
        Ok((created, you.name()))
    }
}
