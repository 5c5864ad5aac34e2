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
    use std::sync::Arc;

    /// A buffer the test keeps a handle on while a bar owns the writer.
    #[derive(Clone, Debug, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(bytes)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn a_redirected_run_writes_a_line_only_once_the_interval_has_passed() {
        let quiet = Buffer::default();
        let lines = Lines::new(quiet.clone(), Duration::from_secs(3600));
        lines.write_line("3/120 games").unwrap();
        assert_eq!(quiet.text(), "", "nothing within the first interval");

        let chatty = Buffer::default();
        let lines = Lines::new(chatty.clone(), Duration::ZERO);
        lines.write_line("3/120 games   ").unwrap();
        lines.write_str("").unwrap();
        lines.write_str("4/120 games").unwrap();
        assert_eq!(chatty.text(), "3/120 games\n4/120 games\n", "whole lines, blank ones left out");
    }

    #[test]
    fn a_bar_drawn_to_lines_reports_its_games() {
        let out = Buffer::default();
        let lines = Lines::new(out.clone(), Duration::ZERO);
        let bar = ProgressBar::with_draw_target(Some(10), ProgressDrawTarget::term_like(Box::new(lines)));
        bar.set_style(ProgressStyle::with_template("{pos}/{len} games").unwrap());
        bar.inc(7);
        bar.tick();
        assert!(out.text().contains("7/10 games"), "{}", out.text());
    }
}
