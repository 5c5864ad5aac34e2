//! Where the computer players think: one thread of its own, at a lower scheduling priority, taking the games'
//! decisions one at a time. A decision a person is waiting for (a game against the computer) goes first; the others
//! (games the computer plays against itself, reviews) take turns client by client, so that no client's many games
//! hold up another's. However many games the computer plays, its thinking uses at most one core and yields it to the
//! requests of people (docs/rules.md has no say here: this is the server's bound).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The most a computer decision may think, whatever its player's own budget (a safety bound).
pub const DECISION_TIME_LIMIT: Duration = Duration::from_secs(5);

/// How much lower than the server's own the thinking thread's priority is (a nice value, on Unix).
const NICENESS: i32 = 10;

type Job = Box<dyn FnOnce() + Send>;

/// Who is waiting for a piece of thinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// A person, in a game against the computer: first in line.
    Person,
    /// Nobody at once (a game the computer plays against itself, a review): in turn with the other clients', by
    /// the client that asked for it (its address).
    Client(String),
}

/// The jobs waiting: people's first, then one job of each client in turn.
#[derive(Default)]
struct Queue {
    people: VecDeque<Job>,
    clients: VecDeque<(String, VecDeque<Job>)>,
}

impl Queue {
    fn push(&mut self, waiting: Waiting, job: Job) {
        match waiting {
            Waiting::Person => self.people.push_back(job),
            Waiting::Client(client) => match self.clients.iter_mut().find(|(c, _)| *c == client) {
                Some((_, jobs)) => jobs.push_back(job),
                None => self.clients.push_back((client, VecDeque::from([job]))),
            },
        }
    }

    fn pop(&mut self) -> Option<Job> {
        if let Some(job) = self.people.pop_front() {
            return Some(job);
        }
        let (client, mut jobs) = self.clients.pop_front()?;
        let job = jobs.pop_front();
        if !jobs.is_empty() {
            self.clients.push_back((client, jobs)); // its next job after every other client's
        }
        job
    }
}

/// The thinking thread and its queue.
pub struct Thinker {
    queue: Arc<(Mutex<Queue>, Condvar)>,
}

impl Thinker {
    /// Starts the thread.
    ///
    /// # Panics
    /// If the operating system cannot start the thread.
    pub fn start() -> Thinker {
        let queue = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        let shared = queue.clone();
        std::thread::Builder::new()
            .name("pacw-computer".into())
            .spawn(move || {
                lower_priority();
                let (jobs, ready) = &*shared;
                loop {
                    let job = {
                        let mut q = jobs.lock().unwrap_or_else(|p| p.into_inner());
                        loop {
                            if let Some(job) = q.pop() {
                                break job;
                            }
                            q = ready.wait(q).unwrap_or_else(|p| p.into_inner());
                        }
                    };
                    // A panicking player fails its own decision only (its caller sees the channel close).
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            })
            .expect("the thinking thread starts");
        Thinker { queue }
    }

    /// Runs `think` on the thinking thread in its turn ([`Waiting`]); resolves with its answer, or `None` if it
    /// panicked.
    pub async fn think<T: Send + 'static>(
        &self,
        waiting: Waiting,
        think: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(think());
        });
        let (jobs, ready) = &*self.queue;
        jobs.lock().unwrap_or_else(|p| p.into_inner()).push(waiting, job);
        ready.notify_one();
        rx.await.ok()
    }
}

/// The name of a computer player as the server runs it: a search (mcts, or a level that plays as it) on one thread
/// and within the decision time limit.
pub fn bounded(name: &str) -> String {
    if pacw_ai::plays_as(name).split(':').next() == Some("mcts") {
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
    async fn decisions_run_one_at_a_time_and_a_panic_fails_only_its_own() {
        let thinker = Thinker::start();
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (a, b) = (order.clone(), order.clone());
        let first = thinker.think(Waiting::Person, move || a.lock().unwrap().push(1));
        let failing = thinker.think(Waiting::Person, || -> u8 { panic!("a broken player") });
        let second = thinker.think(Waiting::Person, move || b.lock().unwrap().push(2));
        assert_eq!(first.await, Some(()));
        assert_eq!(failing.await, None);
        assert_eq!(second.await, Some(()));
        assert_eq!(*order.lock().unwrap(), vec![1, 2]);
    }

    #[test]
    fn a_person_goes_first_and_clients_take_turns() {
        // Client x asks for three, then y for one, then a person waits: the person, then x, y, x, x.
        let mut q = Queue::default();
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let job = |name: &'static str| -> Job {
            let order = order.clone();
            Box::new(move || order.lock().unwrap().push(name))
        };
        for name in ["x1", "x2", "x3"] {
            q.push(Waiting::Client("x".into()), job(name));
        }
        q.push(Waiting::Client("y".into()), job("y1"));
        q.push(Waiting::Person, job("person"));
        while let Some(j) = q.pop() {
            j();
        }
        assert_eq!(*order.lock().unwrap(), vec!["person", "x1", "y1", "x2", "x3"]);
    }

    #[test]
    fn mcts_runs_on_one_thread_within_the_time_limit() {
        assert_eq!(bounded("mcts"), "mcts:t1:l5000");
        assert_eq!(bounded("greedy"), "greedy");
        assert_eq!(bounded("recruit"), "recruit");
        assert_eq!(bounded("veteran"), "veteran", "the veteran answers at once");
        assert_eq!(bounded("general"), "general:t1:l5000");
        assert_eq!(pacw_ai::plays_as(&bounded("general")), "mcts:g3200:e3:f0:t1:l5000");
        assert!(pacw_ai::is_player(&bounded("mcts")));
    }
}
