//! The protocol's output sink: whole lines, flushed at once, shared by the loop and the search
//! thread. Write errors (a closed pipe) are ignored: the engine must never die of them.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A cloneable, thread-safe line writer.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Lines go to standard output.
    pub fn stdout() -> Self {
        Out(Arc::new(Mutex::new(Box::new(std::io::stdout()))))
    }

    /// Lines go to `w` (tests, TCP connections).
    pub fn new(w: Box<dyn Write + Send>) -> Self {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: &str) {
        let mut g = match self.0.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        let mut buf = String::with_capacity(text.len() + 1);
        buf.push_str(text);
        buf.push('\n');
        let _ = g.write_all(buf.as_bytes());
        let _ = g.flush();
    }

    /// `info string error: <what>`.
    pub fn error(&self, what: &str) {
        self.line(&format!("info string error: {what}"));
    }
}
