//! Accepting connections within bounds: a request's headers must arrive within a time limit (which also closes a
//! kept-alive connection left idle), at most so many connections are open at once (event streams and idle sockets
//! together; at the cap the idlest is closed to let a new one in), a failed accept (out of file descriptors, say)
//! waits and goes on instead of stopping the server, and the process raises its own descriptor limit where the
//! system allows.

use axum::Router;
use hyper::body::Incoming;
use hyper::{Request, service::service_fn};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::task::AbortHandle;

/// The address a request came from, put in its extensions (for fairness between clients: thinker.rs).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub std::net::SocketAddr);

/// How long a client may take to send a request's headers, and how long a kept-alive connection may stay idle
/// between requests. Event streams are not idle: they carry a comment every 15 seconds.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most bytes a request's line and headers may take (hyper's read buffer while it reads them): past it, 431.
/// The pages send well under 2 KiB; hyper's own default (about 400 KiB) let one request hold that much memory until
/// it was refused.
pub const HEADER_LIMIT: usize = 32 * 1024;

/// How long the requests under way may take to finish once the server is asked to stop.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The most connections open at once for a process allowed `files` open files: all but 64, kept for the database,
/// the listener and the rest (event streams alone are held lower still, session.rs).
pub fn connections_for(files: Option<u64>) -> usize {
    files.map_or(960, |n| (n as usize).saturating_sub(64).clamp(16, 65_536))
}

/// One open connection: when a request last began or ended on it, how many are under way, whether it carries an
/// event stream (busy for as long as it is open), and how to close it.
struct Connection {
    last_used: Instant,
    busy: usize,
    stream: bool,
    abort: Option<AbortHandle>,
}

/// The open connections, by number.
#[derive(Default)]
struct Open {
    next: u64,
    all: HashMap<u64, Connection>,
}

impl Open {
    /// The connection to close to make room: the one idle longest; with none idle, the event stream open longest
    /// (a browser opens it again on its own); with every one in the middle of a request, none.
    fn idlest(&self) -> Option<u64> {
        let idle = self.all.iter().filter(|(_, c)| c.busy == 0).min_by_key(|(_, c)| c.last_used);
        let stream = || self.all.iter().filter(|(_, c)| c.stream).min_by_key(|(_, c)| c.last_used);
        idle.or_else(stream).map(|(id, _)| *id)
    }
}

/// A connection's handle on the table, to mark its requests.
#[derive(Clone)]
struct Tracker {
    id: u64,
    open: Arc<Mutex<Open>>,
}

impl Tracker {
    fn update(&self, f: impl FnOnce(&mut Connection)) {
        if let Some(c) = self.open.lock().unwrap_or_else(|p| p.into_inner()).all.get_mut(&self.id) {
            f(c);
        }
    }

    fn begin(&self, stream: bool) {
        self.update(|c| {
            c.busy += 1;
            c.stream |= stream;
            c.last_used = Instant::now();
        });
    }

    /// A request's response has begun; an event stream's goes on until the connection closes.
    fn end(&self, stream: bool) {
        if !stream {
            self.update(|c| {
                c.busy = c.busy.saturating_sub(1);
                c.last_used = Instant::now();
            });
        }
    }

    fn closed(&self) {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).all.remove(&self.id);
    }
}

/// Serves `app` on `listener` until `stop` completes, then lets the requests under way finish. A request's headers
/// must arrive within `header_timeout` of the connection opening or of the previous response; at most
/// `max_connections` are open at once.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    max_connections: usize,
    stop: impl Future<Output = ()>,
) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true)
        .max_buf_size(HEADER_LIMIT);
    builder.http2().max_header_list_size(HEADER_LIMIT as u32);
    let graceful = GracefulShutdown::new();
    let open = Arc::new(Mutex::new(Open::default()));
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of descriptors or a connection reset before it was taken: wait a moment, then go on.
                    eprintln!("pacw server: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let tracker = {
            let mut table = open.lock().unwrap_or_else(|p| p.into_inner());
            if table.all.len() >= max_connections {
                match table.idlest() {
                    Some(id) => {
                        if let Some(abort) = table.all.remove(&id).and_then(|c| c.abort) {
                            abort.abort();
                        }
                    }
                    // Every connection is in the middle of a request: this one waits for none of them.
                    None => continue,
                }
            }
            table.next += 1;
            let id = table.next;
            table.all.insert(id, Connection { last_used: Instant::now(), busy: 0, stream: false, abort: None });
            Tracker { id, open: open.clone() }
        };
        let inner = TowerToHyperService::new(app.clone());
        let marks = tracker.clone();
        let service = service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(Peer(peer));
            let stream = req.uri().path().ends_with("/events");
            marks.begin(stream);
            let response = hyper::service::Service::call(&inner, req);
            let marks = marks.clone();
            async move {
                let r = response.await;
                marks.end(stream);
                r
            }
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        let done = tracker.clone();
        let task = tokio::spawn(async move {
            // A client that goes away or times out ends its own connection only.
            let _ = connection.await;
            done.closed();
        });
        tracker.update(|c| c.abort = Some(task.abort_handle()));
    }
    drop(listener);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}

/// Raises the process's limit on open files to the most the system allows it (each connection and event stream
/// holds one), returning the limit now in force.
pub fn raise_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit and setrlimit read and write the struct given; no other memory is involved.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
        }
        Some(limit.rlim_cur)
    }
    #[cfg(not(unix))]
    {
        None
    }
}
