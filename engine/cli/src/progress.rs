//! A progress bar for long work: `sendpath conform` over its experiments.
//!
//! It appears on standard error once the work has taken a second, and only when standard error
//! is a terminal: a piped or redirected run (CI, `npm test`, `| less`) stays as quiet as
//! before. The bar shows how many items are done, the one just done and an estimate of the
//! time left (indicatif's).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Work shorter than this shows no bar.
const SHOW_AFTER: Duration = Duration::from_secs(1);

pub struct Progress {
    total: u64,
    done: u64,
    started: Instant,
    on_terminal: bool,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress over `total` items.
    pub fn new(total: usize) -> Progress {
        Progress {
            total: total as u64,
            done: 0,
            started: Instant::now(),
            on_terminal: std::io::stderr().is_terminal(),
            bar: None,
        }
    }

    /// One more item is done (`what`: its name).
    pub fn inc(&mut self, what: &str) {
        self.done += 1;
        if self.bar.is_none() && self.on_terminal && self.started.elapsed() >= SHOW_AFTER {
            let bar = ProgressBar::new(self.total).with_position(self.done - 1);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg} (about {eta} left)")
                    .expect("a valid template"),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
            bar.set_message(what.to_string());
        }
    }

    /// The work is over: the bar, if any, is cleared.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
