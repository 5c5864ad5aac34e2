//! Where the computer players think: a pool of threads sized to the machine, at a lower scheduling priority, each
//! taking one decision at a time. A decision a person is waiting for (a game against the computer) goes first; the
//! others (games the computer plays against itself, reviews) take turns client by client, so that no client's many
//! games hold up another's, and they may use every thread but one: however many watch games run, a thread is kept
//! for people, so a person's computer never waits behind them (only behind other people's). The threads yield their
//! cores to the requests of people (docs/rules.md has no say here: this is the server's bound).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The most a computer decision may think, whatever its player's own budget (a safety bound).
pub const DECISION_TIME_LIMIT: Duration = Duration::from_secs(5);

/// How much lower than the server's own the thinking threads' priority is (a nice value, on Unix).
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

impl Waiting {
    fn kind(&self) -> Kind {
        match self {
            Waiting::Person => Kind::Person,
            Waiting::Client(_) => Kind::Others,
        }
    }
}

/// The two kinds of thinking the pool counts apart (for `/metrics`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Decisions a person waits for.
    Person,
    /// Every other decision (watch games, reviews).
    Others,
}

impl Kind {
    /// The kind's label in `/metrics`.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Person => "person",
            Kind::Others => "others",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The jobs waiting: people's first, then one job of each client in turn.
#[derive(Default)]
struct Queue {
    people: VecDeque<Job>,
    clients: VecDeque<(String, VecDeque<Job>)>,
    /// How many of the clients' jobs wait, in all.
    client_jobs: usize,
}

impl Queue {
    fn push(&mut self, waiting: Waiting, job: Job) {
        match waiting {
            Waiting::Person => self.people.push_back(job),
            Waiting::Client(client) => {
                self.client_jobs += 1;
                match self.clients.iter_mut().find(|(c, _)| *c == client) {
                    Some((_, jobs)) => jobs.push_back(job),
                    None => self.clients.push_back((client, VecDeque::from([job]))),
                }
            }
        }
    }

    /// The next job, a person's if any; a client's only if `clients_may_run`.
    fn pop(&mut self, clients_may_run: bool) -> Option<(Kind, Job)> {
        if let Some(job) = self.people.pop_front() {
            return Some((Kind::Person, job));
        }
        if !clients_may_run {
            return None;
        }
        let (client, mut jobs) = self.clients.pop_front()?;
        let job = jobs.pop_front()?;
        self.client_jobs -= 1;
        if !jobs.is_empty() {
            self.clients.push_back((client, jobs)); // its next job after every other client's
        }
        Some((Kind::Others, job))
    }
}

/// The queue and what the threads are doing, under one lock.
#[derive(Default)]
struct State {
    queue: Queue,
    /// Clients' jobs being thought now.
    clients_running: usize,
}

/// What the pool has done since the server started, and what it has waiting (`/metrics`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThinkerStats {
    /// Its threads.
    pub threads: usize,
    /// Decisions waiting, by kind.
    pub queued: [(Kind, usize); 2],
    /// Decisions made, by kind.
    pub decisions: [(Kind, u64); 2],
    /// Seconds spent thinking, by kind.
    pub seconds: [(Kind, f64); 2],
}

struct Shared {
    state: Mutex<State>,
    ready: Condvar,
    /// The most clients' jobs thought at once: every thread but one (at least one).
    client_slots: usize,
    threads: usize,
    decisions: [AtomicU64; 2],
    busy_micros: [AtomicU64; 2],
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for the next job this thread may take, and counts it as running.
    fn next(&self) -> (Kind, Job) {
        let mut st = self.lock();
        loop {
            let clients_may_run = st.clients_running < self.client_slots;
            if let Some((kind, job)) = st.queue.pop(clients_may_run) {
                if kind == Kind::Others {
                    st.clients_running += 1;
                }
                return (kind, job);
            }
            st = self.ready.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    fn count(&self, kind: Kind, took: Duration) {
        self.decisions[kind.index()].fetch_add(1, Ordering::Relaxed);
        self.busy_micros[kind.index()].fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }

    fn done(&self, kind: Kind) {
        if kind == Kind::Others {
            self.lock().clients_running -= 1;
            self.ready.notify_all(); // a client's job may be waiting for this slot
        }
    }
}

/// The thinking threads and their queue.
pub struct Thinker {
    shared: Arc<Shared>,
}

/// The threads a machine's thinking pool has: one per core, and at least two, so that one is always kept for
/// people (the threads run at a lower priority: more threads than cores only share them).
pub fn threads_for_machine() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).max(2)
}

impl Thinker {
    /// Starts a pool sized to the machine ([`threads_for_machine`]).
    ///
    /// # Panics
    /// If the operating system cannot start a thread.
    pub fn start() -> Thinker {
        Thinker::with_threads(threads_for_machine())
    }

    /// Starts a pool of `threads` threads (at least one); clients' jobs run on all but one of them (when there
    /// are two or more).
    ///
    /// # Panics
    /// If the operating system cannot start a thread.
    pub fn with_threads(threads: usize) -> Thinker {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            ready: Condvar::new(),
            client_slots: (threads - 1).max(1),
            threads,
            decisions: Default::default(),
            busy_micros: Default::default(),
        });
        for n in 0..threads {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("pacw-computer-{n}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        let (kind, job) = shared.next();
                        job(); // it catches its own panic
                        shared.done(kind);
                    }
                })
                .expect("a thinking thread starts");
        }
        Thinker { shared }
    }

    /// Runs `think` on a thinking thread in its turn ([`Waiting`]); resolves with its answer, or `None` if it
    /// panicked.
    pub async fn think<T: Send + 'static>(
        &self,
        waiting: Waiting,
        think: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        self.submit(waiting, think).await.ok().flatten()
    }

    /// Puts `think` in the queue now ([`Waiting`]); its answer (`None` if it panicked) comes on the receiver.
    pub fn submit<T: Send + 'static>(
        &self,
        waiting: Waiting,
        think: impl FnOnce() -> T + Send + 'static,
    ) -> tokio::sync::oneshot::Receiver<Option<T>> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let kind = waiting.kind();
        let shared = self.shared.clone();
        let job: Job = Box::new(move || {
            let began = Instant::now();
            // A panicking player fails its own decision only.
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(think)).ok();
            shared.count(kind, began.elapsed()); // before the answer: whoever has it sees it counted
            let _ = tx.send(answer);
        });
        self.shared.lock().queue.push(waiting, job);
        self.shared.ready.notify_all(); // every thread: the first may be one that takes people's jobs only
        rx
    }

    /// What the pool has done and has waiting.
    pub fn stats(&self) -> ThinkerStats {
        let (people, others) = {
            let st = self.shared.lock();
            (st.queue.people.len(), st.queue.client_jobs)
        };
        let count = |kind: Kind| self.shared.decisions[kind.index()].load(Ordering::Relaxed);
        let secs = |kind: Kind| self.shared.busy_micros[kind.index()].load(Ordering::Relaxed) as f64 / 1e6;
        ThinkerStats {
            threads: self.shared.threads,
            queued: [(Kind::Person, people), (Kind::Others, others)],
            decisions: [(Kind::Person, count(Kind::Person)), (Kind::Others, count(Kind::Others))],
            seconds: [(Kind::Person, secs(Kind::Person)), (Kind::Others, secs(Kind::Others))],
        }
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
    // On Linux the nice value is a thread's own: this lowers the calling thread only.
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
    async fn on_one_thread_decisions_run_in_order_and_a_panic_fails_only_its_own() {
        let thinker = Thinker::with_threads(1);
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (a, b) = (order.clone(), order.clone());
        let first = thinker.think(Waiting::Person, move || a.lock().unwrap().push(1));
        let failing = thinker.think(Waiting::Person, || -> u8 { panic!("a broken player") });
        let second = thinker.think(Waiting::Person, move || b.lock().unwrap().push(2));
        assert_eq!(first.await, Some(()));
        assert_eq!(failing.await, None);
        assert_eq!(second.await, Some(()));
        assert_eq!(*order.lock().unwrap(), vec![1, 2]);
        let stats = thinker.stats();
        assert_eq!(stats.decisions[0], (Kind::Person, 3), "the failed one counted too: {stats:?}");
        assert_eq!(stats.queued, [(Kind::Person, 0), (Kind::Others, 0)]);
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
        assert_eq!(q.client_jobs, 4);
        while let Some((_, j)) = q.pop(true) {
            j();
        }
        assert_eq!(*order.lock().unwrap(), vec!["person", "x1", "y1", "x2", "x3"]);
        assert_eq!(q.client_jobs, 0);
    }

    #[test]
    fn a_thread_without_a_client_slot_takes_only_people() {
        let mut q = Queue::default();
        q.push(Waiting::Client("x".into()), Box::new(|| ()));
        assert!(q.pop(false).is_none(), "a client's job waits for a client slot");
        q.push(Waiting::Person, Box::new(|| ()));
        assert_eq!(q.pop(false).map(|(k, _)| k), Some(Kind::Person));
        assert_eq!(q.pop(true).map(|(k, _)| k), Some(Kind::Others));
    }

    /// Twelve watch games' decisions queued, every thread a watch game may use held by one that does not end until
    /// the person's decision is made: the person's is made all the same (the kept thread), and the watch games'
    /// wait. Ordering, not timing: were the person's decision behind them, the held ones would never be released
    /// and the test would hang instead of passing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_persons_decision_is_not_stuck_behind_many_watch_games() {
        let threads = 3;
        let thinker = Thinker::with_threads(threads);
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let release_rx = std::sync::Arc::new(std::sync::Mutex::new(release_rx));
        let (started_tx, mut started_rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        let mut held = Vec::new();
        for n in 0..threads - 1 {
            let (rx, started) = (release_rx.clone(), started_tx.clone());
            held.push(thinker.submit(Waiting::Client(format!("watcher{n}")), move || {
                started.send(()).unwrap();
                rx.lock().unwrap().recv().unwrap();
            }));
        }
        for _ in 0..threads - 1 {
            started_rx.recv().await.unwrap();
        }
        let watch_done = std::sync::Arc::new(AtomicU64::new(0));
        let mut queued = Vec::new();
        for n in 0..12 {
            let done = watch_done.clone();
            queued.push(thinker.submit(Waiting::Client(format!("watcher{}", n % 4)), move || {
                done.fetch_add(1, Ordering::SeqCst);
            }));
        }
        let seen = watch_done.clone();
        let person = thinker.think(Waiting::Person, move || seen.load(Ordering::SeqCst)).await;
        assert_eq!(person, Some(0), "the person's decision was made before any queued watch game's");
        assert_eq!(thinker.stats().queued[1], (Kind::Others, 12), "the watch games still wait");
        for _ in 0..threads - 1 {
            release_tx.send(()).unwrap();
        }
        for answer in held.into_iter().chain(queued) {
            assert_eq!(answer.await.unwrap(), Some(()));
        }
        assert_eq!(watch_done.load(Ordering::SeqCst), 12);
        let stats = thinker.stats();
        assert_eq!(stats.decisions, [(Kind::Person, 1), (Kind::Others, 14)]);
    }

    #[test]
    fn mcts_runs_on_one_thread_within_the_time_limit() {
        assert_eq!(bounded("mcts"), "mcts:t1:l5000");
        assert_eq!(bounded("greedy"), "greedy");
        assert_eq!(bounded("recruit"), "recruit");
        assert_eq!(bounded("veteran"), "veteran", "the veteran answers at once");
        assert_eq!(bounded("general"), "general:t1:l5000");
        assert_eq!(pacw_ai::plays_as(&bounded("general")), "mcts:g12800:e4:f0:n1:z1:k32:race:t1:l5000");
        assert!(pacw_ai::is_player(&bounded("mcts")));
    }
}
