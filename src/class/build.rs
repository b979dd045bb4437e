//! Building one submission into an engine, under a time limit: a bridge's `build.sh` for a
//! course player file, `make` or g++ in a scratch copy for a Mancala bot, a copy for a ready
//! program. Everything the build prints goes to the student's build log; a failure is summed
//! up by the compiler's first error line; a build that outlives its limit is killed with its
//! whole process group (g++ and the linker included) and reported as timed out.
//!
//! A build is cached in the output folder (`students/NAME/build.json`): the same sources, course
//! files, bridge, compiler and flags give the same result, so a resumed run or a cluster's shards
//! reuse the engines instead of building them again. A timed-out build is not cached.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::submissions::{Source, Submission, is_program, own_headers};
use super::{BuildError, ClassError, io};
use crate::core::rng::fnv1a;
use crate::games::GameKind;

/// How a build ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// An engine was made.
    Built,
    /// The build failed (the compiler's first error says why).
    Failed,
    /// The build ran out of time and was killed.
    Timeout,
    /// The folder holds nothing to build.
    Missing,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Built => "built",
            Status::Failed => "failed",
            Status::Timeout => "timeout",
            Status::Missing => "missing",
        }
    }
}

/// The result of one submission's build (also its cache entry, `students/NAME/build.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Built {
    pub name: String,
    pub status: Status,
    /// What was built: the player file, `make in DIR`, `g++ of N files`, `program NAME`.
    pub what: String,
    /// The first error line of a failed build, or why it did not run or finish.
    pub error: Option<String>,
    /// Wall time of the build, seconds.
    pub seconds: f64,
    /// The engine, relative to the output folder (`engines/NAME`) when built.
    pub engine: Option<String>,
    /// The build's log, relative to the output folder.
    pub log: String,
    /// Fingerprint of everything the build read.
    pub hash: String,
    /// `error` is the log's first error line ([`first_error`]): a cached failure reads its log
    /// again, so that a newer tablero's reading of it shows without a rebuild.
    #[serde(default)]
    pub error_from_log: bool,
    /// Taken from the cache (not serialised).
    #[serde(skip)]
    pub cached: bool,
}

/// What every build of a class shares.
pub struct Builder<'a> {
    pub kind: GameKind,
    /// The course checkout (Parchís, BOOM) or the course's bot folder (Mancala, optional).
    pub course: Option<&'a Path>,
    /// The output folder.
    pub out: &'a Path,
    /// The bridge's build script (Parchís, BOOM).
    pub script: Option<&'a Path>,
    /// Arguments the bridge's build script gets after `-o ENGINE` (BOOM: `--year 2018-19` when
    /// the tournament plays that year's rules); part of every build's fingerprint.
    pub script_args: Vec<String>,
    pub timeout: Duration,
}

/// The files of a Mancala course folder never copied into a submission: the students' template.
fn is_template(name: &str) -> bool {
    name.starts_with("AlumnoBot")
}

/// Object files and programs (built leftovers) are not sources.
fn is_leftover(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "o") || is_program(p) && !is_script(p)
}

fn is_script(p: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(p)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"#!"
}

/// Regular files under `dir` (hidden entries skipped), sorted, relative paths with their
/// absolute ones.
fn files_under(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            if p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.is_file() {
                let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
                out.push((rel, p));
            }
        }
    }
    out.sort();
    out
}

/// The course files a build reads, per game (`Course::course_files`).
fn course_files(kind: GameKind, course: &Path) -> Vec<(String, PathBuf)> {
    let patterns = super::bridges::course(kind).map_or(&["*"][..], |c| c.course_files);
    let mut v = Vec::new();
    for pat in patterns {
        if *pat == "*" {
            v.extend(
                files_under(course)
                    .into_iter()
                    .filter(|(r, p)| !r.contains('/') && !is_template(r) && !is_leftover(p)),
            );
        } else if let Some((dir, ext)) = pat.split_once("/*.") {
            v.extend(
                files_under(&course.join(dir))
                    .into_iter()
                    .filter(|(r, _)| r.ends_with(&format!(".{ext}")))
                    .map(|(r, p)| (format!("{dir}/{r}"), p)),
            );
        } else {
            v.push((pat.to_string(), course.join(pat)));
        }
    }
    v
}

/// A fingerprint of the build's inputs: what it is, its files, the course's, the bridge and
/// the compiler settings.
fn fingerprint(b: &Builder, what: &str, files: &[(String, PathBuf)]) -> String {
    let mut h: Vec<u8> = Vec::new();
    let mut add = |label: &str, bytes: &[u8]| {
        h.extend_from_slice(label.as_bytes());
        h.extend_from_slice(&fnv1a(bytes).to_le_bytes());
    };
    add(b.kind.name(), what.as_bytes());
    for (r, p) in files {
        add(r, &std::fs::read(p).unwrap_or_default());
    }
    if let Some(c) = b.course {
        for (r, p) in course_files(b.kind, c) {
            add(
                &format!("course/{r}"),
                &std::fs::read(p).unwrap_or_default(),
            );
        }
    }
    for (r, t) in super::bridges::files(b.kind) {
        add(&format!("bridge/{r}"), t.as_bytes());
    }
    for var in ["CXX", "CXXFLAGS"] {
        add(var, std::env::var(var).unwrap_or_default().as_bytes());
    }
    add("script args", b.script_args.join("\n").as_bytes());
    format!("{:016x}", fnv1a(&h))
}

/// The line that says why a build failed: the compiler's first error (its file path cut to the
/// file's name), else the linker's, else the first line that says "error", else the last line.
pub fn first_error(log: &str) -> String {
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.starts_with("$ "))
        .collect();
    let short = |l: &str| -> String {
        // `/scratch/…/src/AIPlayer.cpp:12:5: error: …` -> `AIPlayer.cpp:12:5: error: …`
        let l = l.trim();
        let cut = match l.find(':') {
            Some(i) if l[..i].contains('/') && !l[..i].contains(' ') => {
                &l[l[..i].rfind('/').map_or(0, |k| k + 1)..]
            }
            _ => l,
        };
        // A line of one huge token (a template error) stays readable in a table.
        if cut.chars().count() > 300 {
            format!("{}…", cut.chars().take(300).collect::<String>())
        } else {
            cut.to_string()
        }
    };
    let find = |pred: &dyn Fn(&str) -> bool| lines.iter().find(|l| pred(l)).map(|l| short(l));
    // collect2's `error: ld returned 1 exit status` only says that linking failed: the
    // linker's own line above it says why.
    find(&|l| {
        (l.contains(": error:") || l.contains(": fatal error:")) && !l.starts_with("collect2:")
    })
    .or_else(|| {
        find(&|l| {
            l.contains("undefined reference")
                || l.contains("multiple definition")
                || l.contains("cannot find -l")
        })
    })
    .or_else(|| find(&|l| l.to_ascii_lowercase().contains("error")))
    .or_else(|| lines.last().map(|l| short(l)))
    .unwrap_or_else(|| "the build failed without a message".into())
}

/// How a time-limited command ended.
enum Ran {
    Exited(std::process::ExitStatus),
    TimedOut,
    /// It ran, but what it made is not one engine (why).
    Refused(String),
}

/// Runs `cmd` with its output appended to `log`, in its own process group, killing the whole
/// group if it outlives `timeout`.
fn run_limited(cmd: &mut Command, log: &Path, timeout: Duration) -> Result<Ran, BuildError> {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(bio(log))?;
    let shown: Vec<String> = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let _ = writeln!(f, "$ {}", shown.join(" "));
    let err = f.try_clone().map_err(bio(log))?;
    // Compilers' messages in English with plain quotes, whatever the teacher's locale: the
    // first error line goes into the report as it is.
    let mut child = cmd
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::from(f))
        .stderr(Stdio::from(err))
        .process_group(0)
        .spawn()
        .map_err(|error| BuildError::Run {
            program: shown[0].clone(),
            error,
        })?;
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(Ran::Exited(status)),
            Ok(None) if Instant::now() >= deadline => {
                // The whole group: build.sh's parallel g++ jobs, make's children.
                let _ = Command::new("kill")
                    .args(["-s", "KILL", "--", &format!("-{}", child.id())])
                    .stderr(Stdio::null())
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Ran::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(BuildError::Wait(e)),
        }
    }
}

fn bio(p: &Path) -> impl Fn(std::io::Error) -> BuildError + '_ {
    move |error| BuildError::Io {
        path: p.to_path_buf(),
        error,
    }
}

/// Copies the sources of `from` into `to` (hidden entries, object files and programs left out).
fn copy_sources(from: &Path, to: &Path) -> Result<(), BuildError> {
    for (rel, p) in files_under(from) {
        if is_leftover(&p) {
            continue;
        }
        let dest = to.join(&rel);
        if let Some(d) = dest.parent() {
            std::fs::create_dir_all(d).map_err(bio(d))?;
        }
        std::fs::copy(&p, &dest).map_err(bio(&p))?;
    }
    Ok(())
}

/// Programs directly in `dir`.
fn programs_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| is_program(p))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

impl Builder<'_> {
    /// Builds `s` (or takes its cached build).
    pub fn build(&self, s: &Submission) -> Result<Built, ClassError> {
        let student_dir = self.out.join("students").join(&s.name);
        std::fs::create_dir_all(&student_dir).map_err(io(&student_dir))?;
        let log_rel = format!("students/{}/build.log", s.name);
        let rel = |p: &Path| p.strip_prefix(&s.dir).unwrap_or(p).display().to_string();
        let (what, inputs) = match &s.source {
            Source::Player(p) => {
                // The player file and the student's own headers the bridge may use with it
                // (a whole copy's include/ too), so that a change in one is a new build.
                let mut v = vec![(rel(p), p.clone())];
                v.extend(own_headers(p).into_iter().map(|h| (rel(&h), h)));
                (rel(p), v)
            }
            Source::Make(d) => (
                if d == &s.dir {
                    "make".to_string()
                } else {
                    format!("make in {}", rel(d))
                },
                files_under(d)
                    .into_iter()
                    .filter(|(_, p)| !is_leftover(p))
                    .collect(),
            ),
            Source::Cpp(d) => {
                let v: Vec<(String, PathBuf)> = files_under(d)
                    .into_iter()
                    .filter(|(_, p)| !is_leftover(p))
                    .collect();
                let n = v.iter().filter(|(r, _)| r.ends_with(".cpp")).count();
                (format!("g++ of {n} .cpp files"), v)
            }
            Source::Program(p) => (format!("program {}", rel(p)), vec![(rel(p), p.clone())]),
            Source::Missing(why) => {
                std::fs::write(self.out.join(&log_rel), format!("{why}\n"))
                    .map_err(io(&self.out.join(&log_rel)))?;
                return Ok(Built {
                    name: s.name.clone(),
                    status: Status::Missing,
                    what: String::new(),
                    error: Some(why.clone()),
                    seconds: 0.0,
                    engine: None,
                    log: log_rel,
                    hash: String::new(),
                    error_from_log: false,
                    cached: false,
                });
            }
        };
        let hash = fingerprint(self, &what, &inputs);
        let cache = student_dir.join("build.json");
        if let Some(mut c) = std::fs::read_to_string(&cache)
            .ok()
            .and_then(|t| serde_json::from_str::<Built>(&t).ok())
            && c.hash == hash
            && c.name == s.name
            && c.status != Status::Timeout
            && c.engine.as_ref().is_none_or(|e| self.out.join(e).is_file())
            && self.out.join(&c.log).is_file()
        {
            if c.error_from_log
                && let Ok(t) = std::fs::read_to_string(self.out.join(&c.log))
            {
                c.error = Some(first_error(&t));
            }
            c.cached = true;
            return Ok(c);
        }

        let t0 = Instant::now();
        let pid = std::process::id();
        let engines = self.out.join("engines");
        std::fs::create_dir_all(&engines).map_err(io(&engines))?;
        let engine = engines.join(&s.name);
        let engine_tmp = engines.join(format!(".{}.{pid}", s.name));
        let scratch = self.out.join("build").join(format!("{}.{pid}", s.name));
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).map_err(io(&scratch))?;
        let log_tmp = student_dir.join(format!(".build.log.{pid}"));
        let _ = std::fs::remove_file(&log_tmp);
        let result = self.run_build(s, &scratch, &engine_tmp, &log_tmp);
        let _ = std::fs::remove_dir_all(&scratch);
        let log_text = std::fs::read_to_string(&log_tmp).unwrap_or_default();
        let mut error_from_log = false;
        let (status, error) = match result {
            Ok(Some(Ran::Exited(st))) if st.success() && engine_tmp.is_file() => {
                std::fs::rename(&engine_tmp, &engine).map_err(io(&engine))?;
                (Status::Built, None)
            }
            Ok(Some(Ran::Exited(st))) if st.success() => (
                Status::Failed,
                Some("the build made no program".to_string()),
            ),
            Ok(Some(Ran::Exited(_))) => {
                error_from_log = true;
                (Status::Failed, Some(first_error(&log_text)))
            }
            Ok(Some(Ran::Refused(why))) => (Status::Failed, Some(why)),
            Ok(Some(Ran::TimedOut)) => (
                Status::Timeout,
                Some(format!(
                    "the build did not finish in {} s and was stopped",
                    self.timeout.as_secs()
                )),
            ),
            Ok(None) if engine_tmp.is_file() => {
                std::fs::rename(&engine_tmp, &engine).map_err(io(&engine))?;
                (Status::Built, None)
            }
            Ok(None) => (
                Status::Failed,
                Some("the build made no program".to_string()),
            ),
            Err(e) => (Status::Failed, Some(e.to_string())),
        };
        let _ = std::fs::remove_file(&engine_tmp);
        if let Some(e) = error.as_ref().filter(|_| status == Status::Timeout) {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(&log_tmp) {
                let _ = writeln!(f, "tablero class: {e}");
            }
        }
        std::fs::rename(&log_tmp, self.out.join(&log_rel)).map_err(io(&self.out.join(&log_rel)))?;
        let built = Built {
            name: s.name.clone(),
            status,
            what,
            error,
            seconds: (t0.elapsed().as_secs_f64() * 10.0).round() / 10.0,
            engine: (status == Status::Built).then(|| format!("engines/{}", s.name)),
            log: log_rel,
            hash,
            error_from_log,
            cached: false,
        };
        let text = serde_json::to_string_pretty(&built).map_err(|error| ClassError::Manifest {
            path: cache.clone(),
            error,
        })?;
        let tmp = student_dir.join(format!(".build.json.{pid}"));
        std::fs::write(&tmp, text + "\n").map_err(io(&tmp))?;
        std::fs::rename(&tmp, &cache).map_err(io(&cache))?;
        Ok(built)
    }

    /// Runs the build of `s` into `engine` (its output in `log`); `Ok(None)`: nothing to run
    /// (a program, copied).
    fn run_build(
        &self,
        s: &Submission,
        scratch: &Path,
        engine: &Path,
        log: &Path,
    ) -> Result<Option<Ran>, BuildError> {
        use std::io::Write;
        match &s.source {
            Source::Player(p) => {
                let script = self.script.ok_or(BuildError::NoBridge)?;
                let course = self.course.ok_or(BuildError::NoCourse)?;
                let mut cmd = Command::new("bash");
                cmd.arg(script)
                    .arg(course)
                    .arg(p)
                    .arg("-o")
                    .arg(engine)
                    .args(&self.script_args)
                    .env("TMPDIR", scratch);
                run_limited(&mut cmd, log, self.timeout).map(Some)
            }
            Source::Make(d) | Source::Cpp(d) => {
                let src = scratch.join("src");
                copy_sources(d, &src)?;
                if let Some(c) = self.course {
                    for (rel, p) in course_files(self.kind, c) {
                        if !src.join(&rel).exists() {
                            std::fs::copy(&p, src.join(&rel)).map_err(bio(&p))?;
                        }
                    }
                }
                let has_makefile = ["makefile", "Makefile"]
                    .iter()
                    .any(|m| src.join(m).is_file());
                let before = programs_in(&src);
                let mut cmd = if has_makefile {
                    let mut c = Command::new("make");
                    c.env_remove("MAKEFLAGS")
                        .env_remove("MFLAGS")
                        .env_remove("MAKELEVEL");
                    c
                } else {
                    let mut cpps: Vec<String> = files_under(&src)
                        .into_iter()
                        .map(|(r, _)| r)
                        .filter(|r| r.ends_with(".cpp"))
                        .collect();
                    cpps.sort();
                    let mut c = Command::new(std::env::var("CXX").unwrap_or("g++".into()));
                    let flags = std::env::var("CXXFLAGS").unwrap_or("-O2".into());
                    c.args(flags.split_whitespace())
                        .args(["-std=c++11", "-I.", "-o", "bot"])
                        .args(cpps)
                        .arg("-lm");
                    c
                };
                cmd.current_dir(&src);
                let ran = run_limited(&mut cmd, log, self.timeout)?;
                if matches!(&ran, Ran::Exited(st) if st.success()) {
                    let made: Vec<PathBuf> = programs_in(&src)
                        .into_iter()
                        .filter(|p| !before.contains(p))
                        .collect();
                    let mut f = std::fs::OpenOptions::new()
                        .append(true)
                        .open(log)
                        .map_err(bio(log))?;
                    match made.as_slice() {
                        [p] => {
                            std::fs::copy(p, engine).map_err(bio(engine))?;
                            let _ = writeln!(
                                f,
                                "tablero class: the bot is {}",
                                p.file_name().unwrap_or_default().to_string_lossy()
                            );
                        }
                        [] => {
                            let why = "the build made no program".to_string();
                            let _ = writeln!(f, "tablero class: {why}");
                            return Ok(Some(Ran::Refused(why)));
                        }
                        many => {
                            let names: Vec<String> = many
                                .iter()
                                .map(|p| {
                                    p.file_name()
                                        .unwrap_or_default()
                                        .to_string_lossy()
                                        .into_owned()
                                })
                                .collect();
                            let why = format!(
                                "the build made several programs ({}); one bot per submission",
                                names.join(", ")
                            );
                            let _ = writeln!(f, "tablero class: {why}");
                            return Ok(Some(Ran::Refused(why)));
                        }
                    }
                }
                Ok(Some(ran))
            }
            Source::Program(p) => {
                let mut f = std::fs::File::create(log).map_err(bio(log))?;
                let _ = writeln!(
                    f,
                    "tablero class: {} is a ready program, used as it is",
                    p.display()
                );
                std::fs::copy(p, engine).map_err(bio(p))?;
                Ok(None)
            }
            Source::Missing(_) => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_line_of_a_build_log() {
        let gxx = "$ bash build.sh\nbuild.sh: no 'const int PROFUNDIDAD_ALFABETA = …;'\n\
                   /tmp/x/tablero-bridge.Ab12/src/AIPlayer.cpp: In member function 'double AIPlayer::h()':\n\
                   /tmp/x/tablero-bridge.Ab12/src/AIPlayer.cpp:12:5: error: 'sqrt' was not declared in this scope\n\
                   /tmp/x/tablero-bridge.Ab12/src/AIPlayer.cpp:14:1: error: expected ';'\n\
                   error: compilation failed (messages above)\n";
        assert_eq!(
            first_error(gxx),
            "AIPlayer.cpp:12:5: error: 'sqrt' was not declared in this scope"
        );
        let ld = "g++ -o bot a.cpp b.cpp\n/usr/bin/ld: /tmp/ccX.o: in function `A::f()':\nb.cpp:(.text+0x0): multiple definition of `A::f()'; /tmp/ccY.o:a.cpp:(.text+0x0): first defined here\ncollect2: error: ld returned 1 exit status\n";
        assert_eq!(
            first_error(ld),
            "b.cpp:(.text+0x0): multiple definition of `A::f()'; /tmp/ccY.o:a.cpp:(.text+0x0): first defined here"
        );
        assert_eq!(
            first_error("make: *** No targets.  Stop.\n"),
            "make: *** No targets.  Stop."
        );
        assert_eq!(first_error("\n"), "the build failed without a message");
        assert_eq!(
            first_error("build.sh: x\nerror: player source 'y' not found\nusage: …\n"),
            "error: player source 'y' not found"
        );
    }
}
