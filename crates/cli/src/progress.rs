//! How far a long command has got: a bar on a terminal and, when its output goes to a file or a pipe (a run in the
//! background), a plain line on stderr every minute, so that a run stopped before its end still shows how far it got.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a run whose output is not a terminal says how far it has got.
const LINE_EVERY: Duration = Duration::from_secs(60);

/// A progress bar of `total` games on the terminal, or a line every minute on stderr when output is redirected.
///
/// # Panics
/// If indicatif refuses the bar's template, a constant it accepts.
pub fn progress_bar(total: u64) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() && std::io::stdout().is_terminal() {
        ProgressBar::new(total)
    } else {
        let lines = Lines::new(std::io::stderr(), LINE_EVERY);
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::term_like(Box::new(lines)))
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {rate}  {elapsed} elapsed, {eta} left")
            .expect("a valid template")
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", pacw_sim::report::pace_words(state.per_sec()));
            }),
    );
    bar
}

/// A "terminal" that writes whole lines, at most one every `every` and none in the first `every`: a short run stays
/// silent, a long one leaves a trail of where it was.
#[derive(Debug)]
struct Lines<W> {
    out: Mutex<W>,
    every: Duration,
    last: Mutex<Instant>,
}

impl<W: Write> Lines<W> {
    fn new(out: W, every: Duration) -> Self {
        Self { out: Mutex::new(out), every, last: Mutex::new(Instant::now()) }
    }

    /// Writes `s` as a line if it says something and the last line is at least `every` old.
    fn line(&self, s: &str) -> std::io::Result<()> {
        let s = s.trim_end();
        let Ok(mut last) = self.last.lock() else { return Ok(()) };
        if s.trim().is_empty() || last.elapsed() < self.every {
            return Ok(());
        }
        *last = Instant::now();
        let Ok(mut out) = self.out.lock() else { return Ok(()) };
        writeln!(out, "{s}")
    }
}

impl<W: Write + Send + std::fmt::Debug> TermLike for Lines<W> {
    fn width(&self) -> u16 {
        120
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.line(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        self.out.lock().map_or(Ok(()), |mut out| out.flush())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(lines: &Lines<Vec<u8>>) -> String {
        String::from_utf8(lines.out.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn a_redirected_run_writes_a_line_only_once_the_interval_has_passed() {
        let quiet = Lines::new(Vec::new(), Duration::from_secs(3600));
        quiet.write_line("3/120 games").unwrap();
        assert_eq!(written(&quiet), "", "nothing within the first interval");

        let chatty = Lines::new(Vec::new(), Duration::ZERO);
        chatty.write_line("3/120 games   ").unwrap();
        chatty.write_str("").unwrap();
        chatty.write_str("4/120 games").unwrap();
        assert_eq!(written(&chatty), "3/120 games\n4/120 games\n", "whole lines, blank ones left out");
    }

    #[test]
    fn a_bar_drawn_to_lines_reports_its_games() {
        let lines = std::sync::Arc::new(Lines::new(Vec::new(), Duration::ZERO));
        let bar =
            ProgressBar::with_draw_target(Some(10), ProgressDrawTarget::term_like(Box::new(Shared(lines.clone()))));
        bar.set_style(ProgressStyle::with_template("{pos}/{len} games").unwrap());
        bar.inc(7);
        bar.tick();
        assert!(written(&lines).contains("7/10 games"), "{}", written(&lines));
    }

    /// Lets the test read what a bar it gave away wrote.
    #[derive(Debug)]
    struct Shared(std::sync::Arc<Lines<Vec<u8>>>);

    impl TermLike for Shared {
        fn width(&self) -> u16 {
            self.0.width()
        }
        fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
            self.0.move_cursor_up(n)
        }
        fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
            self.0.move_cursor_down(n)
        }
        fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
            self.0.move_cursor_right(n)
        }
        fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
            self.0.move_cursor_left(n)
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.0.write_line(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.0.write_str(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.0.clear_line()
        }
        fn flush(&self) -> std::io::Result<()> {
            self.0.flush()
        }
    }
}
