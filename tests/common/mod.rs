//! What the integration tests share: the binary under test, scratch paths, an in-memory output
//! sink and the check of a refused command line. Each test file that needs them says
//! `use crate::common;`.

use std::path::PathBuf;
use std::process::Output;
use std::sync::{Arc, Mutex};

/// The `tablero` binary of this build.
pub const BIN: &str = env!("CARGO_BIN_EXE_tablero");

/// The test file that asked (`referee_e2e` for `tests/referee_e2e.rs`), which names its scratch
/// files: every file's tests run in one binary (tests/all.rs), so the binary's name would not
/// keep two files' scratch files apart.
#[track_caller]
fn test_name() -> String {
    let file = std::panic::Location::caller().file();
    std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The scratch directory `tablero-<test>-<pid>` of this test process, created if needed.
#[track_caller]
pub fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-{}-{}", test_name(), std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// File `name` in this test process's scratch directory.
#[track_caller]
pub fn tmp(name: &str) -> PathBuf {
    scratch().join(name)
}

/// `bytes` gzip-compressed (records kept as `.jsonl.gz`).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(bytes).expect("gzip in memory");
    z.finish().expect("gzip in memory")
}

/// [`tmp`], with any file of that name from an earlier run removed.
#[track_caller]
pub fn fresh(name: &str) -> PathBuf {
    let p = tmp(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// An empty directory `tablero-<test>-<pid>-<name>` (emptied if it exists).
#[track_caller]
pub fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "tablero-{}-{}-{name}",
        test_name(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// A cloneable in-memory writer: what a protocol session printed.
#[derive(Clone, Default)]
pub struct Sink(pub Arc<Mutex<Vec<u8>>>);

impl Sink {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("sink")).into_owned()
    }
}

impl std::io::Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("sink").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The command failed as a usage error: exit code 2 and an error that mentions `needle`, no
/// panic: one line, or clap's whole message (with the usage line) for a command-line syntax
/// error.
pub fn refused(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    if err.starts_with("error: ") {
        assert!(err.contains("Usage: tablero"), "usage line: {err}");
    } else {
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
    assert!(err.contains(needle), "'{needle}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The command succeeded; its stdout.
pub fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

/// The golden data of the repository, `tests/golden/` (the course simulators' traces, Pons'
/// Connect Four sets, the Kalah positions, each with its README): large files are stored
/// gzip-compressed as `NAME.gz`, and [`golden`] and [`golden_bytes`] read either form.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The bytes of golden file `rel` (`parchis/traces.jsonl`), decompressed when the repository
/// keeps it as `rel.gz`. Panics naming the file when neither form is there.
pub fn golden_bytes(rel: &str) -> Vec<u8> {
    plain_or_gz(&golden_dir(), rel)
}

/// The bytes of `dir/rel`, or of `dir/rel.gz` decompressed.
fn plain_or_gz(dir: &std::path::Path, rel: &str) -> Vec<u8> {
    use std::io::Read;
    let plain = dir.join(rel);
    if plain.is_file() {
        return std::fs::read(&plain).unwrap_or_else(|e| panic!("{}: {e}", plain.display()));
    }
    let gz = dir.join(format!("{rel}.gz"));
    let file = std::fs::File::open(&gz).unwrap_or_else(|e| {
        panic!(
            "golden file {} (or {}.gz) is missing: {e}",
            plain.display(),
            plain.display()
        )
    });
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::io::BufReader::new(file))
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", gz.display()));
    out
}

/// The traces tablero's developers measured with their own drivers around a course core,
/// `tests/traces/` (its README): stored like the golden data, plain or `NAME.gz`.
pub fn traces_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/traces")
}

/// The text of measured file `rel` (`boom/core_traces_2018.jsonl`), decompressed when kept as
/// `rel.gz`.
pub fn traces(rel: &str) -> String {
    String::from_utf8(plain_or_gz(&traces_dir(), rel))
        .unwrap_or_else(|e| panic!("traces {rel}: {e}"))
}

/// The text of golden file `rel` (see [`golden_bytes`]).
pub fn golden(rel: &str) -> String {
    String::from_utf8(golden_bytes(rel)).unwrap_or_else(|e| panic!("golden {rel}: {e}"))
}

/// Runs `tablero ARGS` with `envs` added, writes `input` to its stdin (end of input = quit) and
/// returns what it printed; the run must exit successfully.
pub fn piped(args: &[&str], envs: &[(&str, &str)], input: &str) -> Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(BIN)
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tablero");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the script");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "exit status {:?}", out.status);
    out
}

/// Runs a whole protocol script through `tablero --game GAME` (end of input = quit) and
/// returns stdout; the run must exit successfully.
pub fn script(game: &str, input: &str) -> String {
    String::from_utf8(piped(&["--game", game], &[], input).stdout).expect("UTF-8 stdout")
}
