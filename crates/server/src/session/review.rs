//! A finished game's review (`pacw_ai::review`), made on the server's thinking pool a slice at a time, so that
//! the computer players of other games think between the slices, then stored with the game.

use super::{GameEntry, Games};
use crate::error::{ApiError, ApiResult};
use crate::thinker::Waiting;
use pacw_ai::review::{ReviewConfig, ReviewJob};
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one slice of a review may search before its thinking thread goes on to the next job in the queue.
pub const SLICE: Duration = Duration::from_millis(100);

/// Where a game's review stands.
#[derive(Clone, Debug, Default)]
pub(super) enum ReviewState {
    /// None asked for (or stored: the database is asked).
    #[default]
    None,
    /// Under way: decisions searched of all.
    Running { searched: usize, total: usize },
    /// Made: its JSON.
    Done(Arc<str>),
    /// It failed (never expected): why.
    Failed(String),
}

/// The reply of the review's endpoints while it is not made.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ReviewProgress {
    /// `none` (not asked for), `running` or `failed`.
    pub state: &'static str,
    /// Decisions searched so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched: Option<usize>,
    /// Decisions to search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<usize>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A review's state for a reply: made (its JSON), or its progress.
pub enum ReviewReply {
    /// The review's JSON.
    Done(Arc<str>),
    /// Not made (yet).
    Progress(ReviewProgress),
}

impl ReviewState {
    fn reply(&self) -> ReviewReply {
        let progress = |state, searched, total, error| ReviewProgress { state, searched, total, error };
        match self {
            ReviewState::None => ReviewReply::Progress(progress("none", None, None, None)),
            ReviewState::Running { searched, total } => {
                ReviewReply::Progress(progress("running", Some(*searched), Some(*total), None))
            }
            ReviewState::Done(json) => ReviewReply::Done(json.clone()),
            ReviewState::Failed(e) => ReviewReply::Progress(progress("failed", None, None, Some(e.clone()))),
        }
    }
}

impl Games {
    /// The review of a game: made, under way, or not asked for.
    ///
    /// # Errors
    /// When a stored review cannot be read (500).
    pub fn review(&self, entry: &GameEntry) -> ApiResult<ReviewReply> {
        let mut st = entry.lock();
        if matches!(st.review, ReviewState::None)
            && let Some(json) = self.stored_review(&entry.id)?
        {
            st.review = ReviewState::Done(json.into());
        }
        Ok(st.review.reply())
    }

    /// Starts the review of a finished game, unless it is made or under way.
    ///
    /// # Errors
    /// When the game goes on (409), or the game cannot be loaded or its stored review read (500).
    pub fn start_review(self: &Arc<Self>, entry: &Arc<GameEntry>) -> ApiResult<ReviewReply> {
        let mut st = entry.lock();
        let live = self.loaded(&entry.id, &mut st)?;
        if live.game.battle().result().is_none() {
            return Err(ApiError::Conflict("a game is reviewed once it is over".into()));
        }
        let game = live.game.clone();
        match st.review {
            ReviewState::Done(_) | ReviewState::Running { .. } => return Ok(st.review.reply()),
            ReviewState::None | ReviewState::Failed(_) => {}
        }
        if let Some(json) = self.stored_review(&entry.id)? {
            st.review = ReviewState::Done(json.into());
            return Ok(st.review.reply());
        }
        st.review = ReviewState::Running { searched: 0, total: 0 };
        self.runtime.spawn(review_task(self.clone(), entry.clone(), game));
        Ok(st.review.reply())
    }

    fn stored_review(&self, id: &str) -> ApiResult<Option<String>> {
        self.store.load_review(id).map_err(|e| ApiError::Internal(format!("the review cannot be read: {e}")))
    }
}

/// Makes a review on the thinking pool, a slice at a time, then stores it.
async fn review_task(games: Arc<Games>, entry: Arc<GameEntry>, game: pacw_engine::Game) {
    let set = |state: ReviewState| entry.lock().review = state;
    let config = ReviewConfig { threads: 1, ..ReviewConfig::default() };
    let Some(mut job) = games
        .thinker
        .think(Waiting::Client(entry.client.clone()), move || {
            ReviewJob::new(&game, pacw_ai::evaluator::shared(), &config)
        })
        .await
    else {
        return set(ReviewState::Failed("the review failed".into()));
    };
    loop {
        if *games.shutdown.borrow() {
            return set(ReviewState::None);
        }
        set(ReviewState::Running { searched: job.searched(), total: job.total() });
        let slice = games
            .thinker
            .think(Waiting::Client(entry.client.clone()), move || {
                let started = Instant::now();
                let mut done = job.search(1);
                while !done && started.elapsed() < SLICE {
                    done = job.search(1);
                }
                (job, done)
            })
            .await;
        match slice {
            Some((searched, done)) => {
                job = searched;
                if done {
                    break;
                }
            }
            None => return set(ReviewState::Failed("the review failed".into())),
        }
    }
    let review = job.finish();
    let json: Arc<str> = match serde_json::to_string(&review) {
        Ok(json) => json.into(),
        Err(e) => return set(ReviewState::Failed(format!("the review could not be written: {e}"))),
    };
    let (g, id, text) = (games.clone(), entry.id.clone(), json.clone());
    let stored = tokio::task::spawn_blocking(move || g.store.save_review(&id, &review.evaluator, &text)).await;
    if !matches!(stored, Ok(Ok(()))) {
        eprintln!("pacw server: game {}: its review could not be stored; it is kept in memory", entry.id);
    }
    set(ReviewState::Done(json));
}
