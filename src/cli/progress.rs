//! The status line: while a verification runs, one line on stderr that a helper thread
//! rewrites in place (bound, phase, refinements, elapsed time), cleared when it ends. Only
//! started when stderr is a terminal.

use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::status::Status;

/// How often the line is rewritten.
const TICK: Duration = Duration::from_millis(200);

/// A running status line; dropping it stops and clears it.
pub struct StatusLine {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl StatusLine {
    pub fn start(status: Arc<Status>) -> StatusLine {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let mut err = std::io::stderr();
            // Until the sender is dropped (the verification ended).
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(TICK) {
                // `\r` back to the start, `ESC [K` erases the rest of the old line.
                let _ = write!(err, "\r{}\x1b[K", status.snapshot().line());
                let _ = err.flush();
            }
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        });
        StatusLine {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for StatusLine {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
