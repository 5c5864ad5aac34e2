//! Where the computer players think: one thread of its own, at a lower scheduling priority, taking the games'
//! decisions one at a time in the order they come. However many games the computer plays, its thinking uses at
//! most one core and yields it to the requests of people (RULES.md has no say here: this is the server's bound).

use std::sync::mpsc;
use std::time::Duration;

/// The most a computer decision may think, whatever its player's own budget (a safety bound).
pub const DECISION_TIME_LIMIT: Duration = Duration::from_secs(5);

/// How much lower than the server's own the thinking thread's priority is (a nice value, on Unix).
const NICENESS: i32 = 10;

type Job = Box<dyn FnOnce() + Send>;

/// The thinking thread: jobs queue and run one at a time.
pub struct Thinker {
    jobs: mpsc::Sender<Job>,
}

impl Thinker {
    /// Starts the thread.
    pub fn start() -> Thinker {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("pacw-computer".into())
            .spawn(move || {
                lower_priority();
                for job in queue {
                    // A panicking player fails its own decision only (its caller sees the channel close).
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            })
            .expect("the thinking thread starts");
        Thinker { jobs }
    }

    /// Runs `think` on the thinking thread after the decisions queued before it; resolves with its answer, or
    /// `None` if it panicked.
    pub async fn think<T: Send + 'static>(&self, think: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(think());
        });
        self.jobs.send(job).ok()?;
        rx.await.ok()
    }
}

/// The name of a computer player as the server runs it: mcts on one thread and within the decision time limit.
pub fn bounded(name: &str) -> String {
    if name == "mcts" || name.starts_with("mcts:") {
        format!("{name}:t1:l{}", DECISION_TIME_LIMIT.as_millis())
    } else {
        name.to_string()
    }
}

/// Lowers the calling thread's priority (threads it starts inherit it).
#[cfg(unix)]
pub(crate) fn lower_priority() {
    // On Linux the nice value is a thread's own: this lowers the thinking thread only.
    // SAFETY: setpriority changes a scheduling attribute of the calling thread; no memory is involved.
    let tid = unsafe { libc::syscall(libc::SYS_gettid) } as libc::id_t;
    // SAFETY: as above.
    let _ = unsafe { libc::setpriority(libc::PRIO_PROCESS, tid, NICENESS) };
}

/// Lowers the calling thread's priority: not done off Unix.
#[cfg(not(unix))]
pub(crate) fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn decisions_run_one_at_a_time_in_their_order_and_a_panic_fails_only_its_own() {
        let thinker = Thinker::start();
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (a, b) = (order.clone(), order.clone());
        let first = thinker.think(move || a.lock().unwrap().push(1));
        let failing = thinker.think(|| -> u8 { panic!("a broken player") });
        let second = thinker.think(move || b.lock().unwrap().push(2));
        assert_eq!(first.await, Some(()));
        assert_eq!(failing.await, None);
        assert_eq!(second.await, Some(()));
        assert_eq!(*order.lock().unwrap(), vec![1, 2]);
    }

    #[test]
    fn mcts_runs_on_one_thread_within_the_time_limit() {
        assert_eq!(bounded("mcts"), "mcts:t1:l5000");
        assert_eq!(bounded("greedy"), "greedy");
        assert!(pacw_ai::is_player(&bounded("mcts")));
    }
}
