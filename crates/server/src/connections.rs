//! Accepting connections within bounds: a request's headers must arrive within a time limit (which also closes a
//! kept-alive connection left idle), a failed accept (out of file descriptors, say) waits and goes on instead of
//! stopping the server, and the process raises its own descriptor limit where the system allows.

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::time::Duration;
use tokio::net::TcpListener;

/// How long a client may take to send a request's headers, and how long a kept-alive connection may stay idle
/// between requests. Event streams are not idle: they carry a comment every 15 seconds.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the requests under way may take to finish once the server is asked to stop.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` until `stop` completes, then lets the requests under way finish. A request's headers
/// must arrive within `header_timeout` of the connection opening or of the previous response.
pub async fn serve(listener: TcpListener, app: Router, header_timeout: Duration, stop: impl Future<Output = ()>) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header_timeout).keep_alive(true);
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
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
        let service = TowerToHyperService::new(app.clone());
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service).into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away or times out ends its own connection only.
            let _ = connection.await;
        });
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
