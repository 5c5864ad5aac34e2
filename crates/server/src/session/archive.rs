//! Unfinished games left without a move for days are put away (`pacw serve --archive-after-days N`): no longer kept in
//! memory, their links answer 410 saying so, and the operator is told in the log and by `pacw games`, which can bring
//! one back (`--restore ID`): the server, told by the link's next request, finds it back in the database and loads
//! it again.

use super::{GameEntry, Games};
use crate::live::Live;
use crate::store::now_ms;
use crate::tokens::Role;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How often the server looks for games to put away.
const EVERY: Duration = Duration::from_secs(3600);

impl Games {
    /// Puts away every unfinished game without a move for more than the configured number of days (none when it is
    /// 0), and says so in the log; returns their ids.
    pub fn archive_idle(&self) -> Vec<String> {
        let days = self.config.archive_after_days;
        if days == 0 {
            return Vec::new();
        }
        let before = now_ms() - i64::from(days) * 86_400_000;
        let ids = match self.store.archive_idle(before) {
            Ok(ids) => ids,
            Err(e) => {
                eprintln!("pacw server: idle games could not be archived: {e}");
                return Vec::new();
            }
        };
        if ids.is_empty() {
            return ids;
        }
        {
            let mut by_id = self.by_id.write().unwrap_or_else(|p| p.into_inner());
            let mut by_token = self.by_token.write().unwrap_or_else(|p| p.into_inner());
            let mut archived = self.archived.write().unwrap_or_else(|p| p.into_inner());
            for id in &ids {
                if let Some(entry) = by_id.remove(id) {
                    for (token, _) in entry.tokens.pairs() {
                        by_token.remove(&token);
                        archived.insert(token, id.clone());
                    }
                }
            }
        }
        eprintln!(
            "pacw server: archived {} unfinished game(s) without a move for more than {days} days ({}); `pacw games` \
             lists them, `pacw games --restore ID` brings one back",
            ids.len(),
            ids.join(", ")
        );
        ids
    }

    /// The game and role of `token`, a link of the game `id` that was put away, if the operator brought it back
    /// (`pacw games --restore ID` while the server runs): the database says whether it is back. It is then loaded
    /// again as at start-up, its computer player resumed. `None` while it is still put away (or cannot be read: the
    /// link keeps answering that it was put away, and the log says why).
    pub(super) fn revive(self: &Arc<Self>, id: &str, token: &str) -> Option<(Arc<GameEntry>, Role)> {
        let _one_at_a_time = self.reviving.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(found) = self.by_token.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned() {
            return Some(found); // brought back by a request just before this one
        }
        // Most requests on a link of a game put away find it still put away: one cheap look, not the whole row.
        if self.store.is_archived(id).unwrap_or(true) {
            return None;
        }
        let record = match self.store.load(id) {
            Ok(Some(Ok(record))) if !record.archived => record,
            Ok(Some(Err(d))) => {
                eprintln!("pacw server: game {id} was brought back but cannot be read: {}", d.error);
                return None;
            }
            _ => return None,
        };
        let live = match Live::from_save(&record.save) {
            Ok(live) => live,
            Err(e) => {
                eprintln!("pacw server: game {id} was brought back but cannot be replayed: {e}");
                return None;
            }
        };
        {
            let mut archived = self.archived.write().unwrap_or_else(|p| p.into_inner());
            for (t, _) in record.tokens.pairs() {
                archived.remove(&t);
            }
        }
        let entry = self.register(record, live, id.to_string());
        self.ensure_computer(&entry, &mut entry.lock());
        eprintln!("pacw server: game {id} is back (pacw games --restore) and open again");
        self.by_token.read().unwrap_or_else(|p| p.into_inner()).get(token).cloned()
    }

    /// Looks for games to put away now and then, for as long as the server runs.
    pub(super) fn keep_archiving(self: &Arc<Self>) {
        if self.config.archive_after_days == 0 {
            return;
        }
        let games: Weak<Games> = Arc::downgrade(self);
        self.runtime.spawn(async move {
            loop {
                tokio::time::sleep(EVERY).await;
                match games.upgrade() {
                    Some(g) => drop(g.archive_idle()),
                    None => return,
                }
            }
        });
    }
}
