//! The computer's play: its seeds, and the task per game that makes its moves one by one.

use super::{EntryState, GameEntry, Games};
use crate::live::Live;
use crate::setup::PlayerKind;
use crate::thinker::Waiting;
use pacw_engine::ToAct;
use pacw_play::setup::player_seed;
use std::sync::Arc;
use std::time::{Duration, Instant};

impl Games {
    /// Starts the computer's task if the side to act is the computer's and none runs. Called with the game locked,
    /// so the task's own check (also under the lock) cannot miss a turn.
    pub(super) fn ensure_computer(self: &Arc<Games>, entry: &Arc<GameEntry>, st: &mut EntryState) {
        if st.computer_running || *self.shutdown.borrow() {
            return;
        }
        let Some(live) = &st.live else { return };
        if computer_to_move(entry, live).is_some() {
            st.computer_running = true;
            self.runtime.spawn(computer_loop(self.clone(), entry.clone()));
        }
    }
}

/// The computer's name if its side is to act.
fn computer_to_move(entry: &GameEntry, live: &Live) -> Option<String> {
    match live.game.battle().to_act() {
        ToAct::Side(side) => match &entry.players[side.index()] {
            PlayerKind::Computer { name } => Some(name.clone()),
            PlayerKind::Human => None,
        },
        _ => None,
    }
}

/// The computer's moves, one by one, with a pause between them so a person can follow.
async fn computer_loop(games: Arc<Games>, entry: Arc<GameEntry>) {
    let mut shutdown = games.shutdown_signal();
    let delay = games.config.computer_delay;
    let mut thinker: Option<(String, Box<dyn pacw_ai::Player + Send>)> = None;
    // A person waiting for the computer's move goes first; a game it plays against itself takes turns by client.
    let waiting = if entry.players.contains(&PlayerKind::Human) {
        Waiting::Person
    } else {
        Waiting::Client(entry.client.clone())
    };
    loop {
        let snapshot = {
            let mut st = entry.lock();
            let next = match (&st.live, *shutdown.borrow()) {
                (Some(live), false) => computer_to_move(&entry, live).map(|name| {
                    (name, live.game.battle().clone(), live.revision, player_seed(live.game.seed(), live.decisions()))
                }),
                _ => None,
            };
            if next.is_none() {
                st.computer_running = false;
            }
            next
        };
        let Some((name, battle, revision, seed)) = snapshot else { return };
        let started = Instant::now();
        // One player for a run of the computer's decisions: a search that chose an order with its activation
        // plays it next without searching again.
        let reused = thinker.take().filter(|(n, _)| *n == name);
        let wanted = name.clone();
        // On the server's low-priority thinking pool, in its turn (thinker.rs).
        let chosen = games
            .thinker
            .think(waiting.clone(), move || {
                let (name, mut player) = match reused {
                    Some(thinker) => thinker,
                    None => (wanted.clone(), pacw_ai::player(&crate::thinker::bounded(&wanted), seed)?),
                };
                // Checked when it is applied, as a person's action is.
                let choice = player.choose(&battle);
                Some((choice, (name, player)))
            })
            .await;
        let choice = match chosen {
            Some(Some((a, player))) => {
                thinker = Some(player);
                a
            }
            Some(None) => {
                eprintln!("pacw server: game {}: the computer player {name:?} is unknown; it stops", entry.id);
                entry.lock().computer_running = false;
                return;
            }
            None => {
                eprintln!("pacw server: game {}: the computer player failed; it stops", entry.id);
                entry.lock().computer_running = false;
                return;
            }
        };
        let wait = delay.saturating_sub(started.elapsed());
        if !wait.is_zero() {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => {}
            }
        }
        let (g, e) = (games.clone(), entry.clone());
        let applied = tokio::task::spawn_blocking(move || {
            let mut st = e.lock();
            if *g.shutdown.borrow() {
                return Ok(());
            }
            match &st.live {
                Some(live) if live.revision == revision => {}
                _ => return Ok(()), // the game changed meanwhile (an undo): think again
            }
            // Keep the flag set while applying: ensure_computer must not start a second task.
            g.commit_action(&e, &mut st, choice, true)
        })
        .await;
        match applied {
            Ok(Ok(())) => {}
            Ok(Err(err)) => {
                eprintln!("pacw server: game {}: the computer's move failed: {err}; retrying", entry.id);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(join) => {
                eprintln!("pacw server: game {}: the computer's move panicked: {join}", entry.id);
                entry.lock().computer_running = false;
                return;
            }
        }
    }
}
