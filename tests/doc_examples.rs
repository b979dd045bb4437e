//! Every command example in README.md and docs/**/*.md runs here, so a stale example fails CI.
//!
//! What runs (docs/writing-docs.md is the author's side of this, with examples):
//! - ```` ```console ```` blocks: each `$ command` line (continued by lines starting with `> `)
//!   runs in bash with stdout and stderr merged; the lines after it, up to the next `$`, are its
//!   expected output. A line `...` stands for any number of lines and `[..]` inside a line for
//!   any text (trycmd's conventions); a line `? N` right after the command expects exit code N
//!   (default 0). Trailing spaces and blank lines at the end are ignored.
//! - ```` ```sh ```` and ```` ```bash ```` blocks run as one script (`set -euo pipefail`) and
//!   must exit 0; they show no output to compare.
//! - Every other block (` ```text `, ` ```cpp `, plain ` ``` `) is shown text, not run; one
//!   whose first line is a `$ ` prompt is refused (a command that would silently go untested).
//!   Fences follow CommonMark: a block opened with four backticks holds three-backtick lines.
//!
//! Directives are HTML comments on the lines right above a block (invisible on the rendered
//! page): `<!-- doctest: reduce "FROM" "TO" -->` replaces text of the commands before running (a
//! long example run in a reduced form: `--games 200` as `--games 4`; the expected output must
//! hold for both), `<!-- doctest: timeout SECONDS -->` (default 120), `<!-- doctest: server -->`
//! for a one-command console block that keeps running (`tablero serve`, `tablero gui`): it
//! starts in the background, must print its shown output within the timeout, and is stopped when
//! the document ends, so later blocks can use it; and `<!-- doctest: not run: REASON -->` for
//! the few commands that cannot run inside `cargo test` (the test command itself, a cluster
//! submission); the reason says where that command is exercised instead.
//!
//! Each document runs in its own scratch folder (`target/doc-examples/<doc>/repo`) holding
//! symlinks to the checkout's `scripts`, `tests` (with the golden data, `tests/golden/`), `src`,
//! `docs`, `protocol.md`, `README.md` and `Cargo.toml`, `target/release/tablero` linked to the
//! binary under test (which is also first on PATH), and `XDG_CACHE_HOME` inside it, so examples
//! may write files freely and leave nothing behind; blocks of one document run in order in the
//! same folder, so a later example can read what an earlier one
//! wrote. Documents run two at a time. `TABLERO_DOCS=readme,matches` (substrings of the paths)
//! runs only those documents, for an author at work; the test says so on stderr.

use std::fmt::Write as _;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Console,
    Script,
}

#[derive(Debug, Clone)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    kind: Kind,
    body: Vec<String>,
    reduce: Vec<(String, String)>,
    timeout: u64,
    not_run: Option<String>,
    server: bool,
}

/// Parses the quoted arguments of a directive: `"a" "b"`.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('"') else { break };
        out.push(after[..end].to_string());
        rest = &after[end + 1..];
    }
    out
}

/// An opening fence: its character, its length and its info string (CommonMark: three or more
/// backticks or tildes, up to three spaces of indentation are not required here since list
/// items indent their blocks).
fn opening_fence(line: &str) -> Option<(char, usize, &str)> {
    let l = line.trim_start();
    let c = l.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = l.chars().take_while(|x| *x == c).count();
    (n >= 3).then(|| (c, n, l[n..].trim()))
}

/// Does `line` close a block opened by `n` times `c`?
fn closes(line: &str, c: char, n: usize) -> bool {
    let l = line.trim();
    let k = l.chars().take_while(|x| *x == c).count();
    k >= n && l[k * c.len_utf8()..].trim().is_empty()
}

fn parse(doc: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((c, n, info)) = opening_fence(lines[i]) else {
            i += 1;
            continue;
        };
        let fence_line = i + 1;
        // A block inside a list item is indented like its fence; its lines lose that indent.
        let indent = lines[i].len() - lines[i].trim_start().len();
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && !closes(lines[i], c, n) {
            let l = lines[i];
            let k = l.len() - l.trim_start_matches(' ').len();
            body.push(l[k.min(indent)..].to_string());
            i += 1;
        }
        if i == lines.len() {
            return Err(format!("{doc}:{fence_line}: code block never closed"));
        }
        i += 1;
        let lang = info.split_whitespace().next().unwrap_or("");
        let kind = match lang {
            "console" => Kind::Console,
            "sh" | "bash" => Kind::Script,
            "shell" | "zsh" | "shell-session" => {
                return Err(format!(
                    "{doc}:{fence_line}: use ```console (with output) or ```sh, not ```{lang}"
                ));
            }
            _ => {
                let first = body.iter().find(|l| !l.trim().is_empty());
                if first.is_some_and(|l| l.trim_start().starts_with("$ ")) {
                    return Err(format!(
                        "{doc}:{fence_line}: a ```{lang} block with a '$ ' prompt is never run: \
                         make it ```console (or mark it 'not run' with the reason)"
                    ));
                }
                continue;
            }
        };
        // Directives: the HTML comments right above the fence.
        let mut reduce = Vec::new();
        let mut timeout = 120;
        let mut not_run = None;
        let mut server = false;
        let mut j = fence_line - 1;
        while j > 0 {
            let above = lines[j - 1].trim();
            let Some(d) = above
                .strip_prefix("<!-- doctest:")
                .and_then(|d| d.strip_suffix("-->"))
            else {
                break;
            };
            let d = d.trim();
            if let Some(r) = d.strip_prefix("reduce") {
                match quoted(r).as_slice() {
                    [from, to] => reduce.push((from.clone(), to.clone())),
                    _ => return Err(format!("{doc}:{j}: reduce needs \"FROM\" \"TO\"")),
                }
            } else if let Some(t) = d.strip_prefix("timeout") {
                timeout = t
                    .trim()
                    .parse()
                    .map_err(|_| format!("{doc}:{j}: timeout needs seconds"))?;
            } else if let Some(reason) = d.strip_prefix("not run:") {
                if reason.trim().len() < 10 {
                    return Err(format!("{doc}:{j}: 'not run' needs a real reason"));
                }
                not_run = Some(reason.trim().to_string());
            } else if d == "server" {
                server = true;
            } else {
                return Err(format!("{doc}:{j}: unknown doctest directive '{d}'"));
            }
            j -= 1;
        }
        if server && kind != Kind::Console {
            return Err(format!(
                "{doc}:{fence_line}: 'server' is for a ```console block"
            ));
        }
        blocks.push(Block {
            line: fence_line,
            kind,
            body,
            reduce,
            timeout,
            not_run,
            server,
        });
    }
    Ok(blocks)
}

/// One `$` command of a console block with what it must print.
struct Step {
    line: usize,
    command: String,
    code: i32,
    expected: Vec<String>,
}

fn steps(doc: &str, b: &Block) -> Result<Vec<Step>, String> {
    let mut out: Vec<Step> = Vec::new();
    for (k, raw) in b.body.iter().enumerate() {
        let line = b.line + 1 + k;
        if let Some(cmd) = raw.strip_prefix("$ ") {
            out.push(Step {
                line,
                command: cmd.to_string(),
                code: 0,
                expected: Vec::new(),
            });
            continue;
        }
        let Some(step) = out.last_mut() else {
            return Err(format!(
                "{doc}:{line}: a console block starts with '$ command'"
            ));
        };
        if let Some(more) = raw.strip_prefix("> ").filter(|_| step.expected.is_empty()) {
            step.command.push('\n');
            step.command.push_str(more);
        } else if let Some(code) = raw.strip_prefix("? ").filter(|_| step.expected.is_empty()) {
            step.code = code
                .trim()
                .parse()
                .map_err(|_| format!("{doc}:{line}: '? N' needs an exit code"))?;
        } else {
            step.expected.push(raw.clone());
        }
    }
    if b.server && out.len() != 1 {
        return Err(format!(
            "{doc}:{}: a 'server' block holds exactly one command",
            b.line
        ));
    }
    Ok(out)
}

/// Does `line` match `pattern`, where `[..]` stands for any text?
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if line.len() < first.len() + last.len()
        || !line.starts_with(first)
        || !line[first.len()..].ends_with(last)
    {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    true
}

/// Does the output match the expected lines (`...` = any number of lines)?
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|k| lines_match(rest, &actual[k..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

fn trimmed(lines: &[String]) -> Vec<String> {
    let mut v: Vec<String> = lines.iter().map(|l| l.trim_end().to_string()).collect();
    while v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

/// Does `out` print what `expected` shows?
fn output_matches(expected: &[String], out: &str) -> bool {
    let actual = trimmed(&out.lines().map(str::to_string).collect::<Vec<_>>());
    let actual: Vec<&str> = actual.iter().map(String::as_str).collect();
    lines_match(&trimmed(expected), &actual)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tablero"))
}

/// The scratch folder of one document (see the module doc).
fn scratch(doc: &str) -> PathBuf {
    let base = repo()
        .join("target/doc-examples")
        .join(doc.replace('/', "_"));
    let _ = std::fs::remove_dir_all(&base);
    let dir = base.join("repo");
    std::fs::create_dir_all(dir.join("target/release")).expect("create scratch folder");
    std::fs::create_dir_all(dir.join(".cache")).expect("create scratch cache");
    let link = |target: PathBuf, at: PathBuf| {
        std::os::unix::fs::symlink(&target, &at)
            .unwrap_or_else(|e| panic!("symlink {} -> {}: {e}", at.display(), target.display()))
    };
    for name in [
        "scripts",
        "tests",
        "src",
        "docs",
        "protocol.md",
        "README.md",
        "Cargo.toml",
    ] {
        link(repo().join(name), dir.join(name));
    }
    link(binary(), dir.join("target/release/tablero"));
    dir
}

/// bash running `script` in `dir` in a process group of its own, output to `out_file`.
fn spawn(script: &str, dir: &Path, out_file: &Path) -> Result<Child, String> {
    let bin_dir = binary().parent().expect("binary folder").to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::fs::File::create(out_file).map_err(|e| e.to_string())?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    Command::new("bash")
        .arg("-c")
        .arg(format!("set -euo pipefail\n{script}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        // The pages show what a terminal keeps once the progress bar is cleared.
        .env("TABLERO_PROGRESS", "off")
        .env("XDG_CACHE_HOME", dir.join(".cache"))
        .env_remove("TABLERO")
        .env_remove("RUST_LOG")
        .env_remove("TABLERO_SKIP_FUZZ")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start bash: {e}"))
}

/// Ends what is left of a process group: a pipeline's stragglers, a referee's engines, a
/// server.
fn kill_group(child: &mut Child) {
    // SAFETY: kill(2) with a negative pid signals the group bash leads; no memory is involved.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let _ = child.wait();
}

fn read(path: &Path) -> String {
    let mut text = Vec::new();
    let _ = std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut text));
    String::from_utf8_lossy(&text).into_owned()
}

/// Runs `script` in bash in `dir`; returns (exit code, merged output) or a timeout error.
fn run(script: &str, dir: &Path, timeout: u64) -> Result<(i32, String), String> {
    let out_file = dir.join(".doctest-output");
    let mut child = spawn(script, dir, &out_file)?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > Duration::from_secs(timeout) {
            kill_group(&mut child);
            return Err(format!(
                "still running after {timeout} s; output so far:\n{}",
                tail(&read(&out_file))
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    kill_group(&mut child);
    Ok((status.code().unwrap_or(-1), read(&out_file)))
}

/// Starts a server block's command and waits until it has printed what the block shows.
fn start_server(
    s: &Step,
    script: &str,
    dir: &Path,
    timeout: u64,
    n: usize,
) -> Result<Child, String> {
    let out_file = dir.join(format!(".doctest-server-{n}"));
    let mut child = spawn(script, dir, &out_file)?;
    let start = Instant::now();
    loop {
        let out = read(&out_file);
        if output_matches(&s.expected, &out) {
            return Ok(child);
        }
        let exited = child.try_wait().map_err(|e| e.to_string())?;
        if exited.is_some() || start.elapsed() > Duration::from_secs(timeout) {
            kill_group(&mut child);
            let what = match exited {
                Some(st) => format!("the server exited ({st})"),
                None => format!("not printed within {timeout} s"),
            };
            return Err(format!(
                "$ {}\n{what}\n--- expected\n{}\n--- actual\n{}",
                s.command,
                s.expected.join("\n"),
                tail(&out)
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn reduced(text: &str, b: &Block) -> String {
    b.reduce
        .iter()
        .fold(text.to_string(), |t, (from, to)| t.replace(from, to))
}

/// What one document's run found.
struct Outcome {
    failures: Vec<String>,
    ran: usize,
    not_run: usize,
    seconds: f64,
}

/// Runs every example of one document.
fn check_document(doc: &str) -> Outcome {
    let t0 = Instant::now();
    let path = repo().join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut outcome = Outcome {
        failures: Vec::new(),
        ran: 0,
        not_run: 0,
        seconds: 0.0,
    };
    let blocks = match parse(doc, &text) {
        Ok(b) => b,
        Err(e) => {
            outcome.failures.push(e);
            return outcome;
        }
    };
    let dir = scratch(doc);
    let mut servers: Vec<Child> = Vec::new();
    for b in &blocks {
        if let Some(reason) = &b.not_run {
            eprintln!("{doc}:{}: not run: {reason}", b.line);
            outcome.not_run += 1;
            continue;
        }
        let body = b.body.join("\n");
        for r in &b.reduce {
            if !body.contains(&r.0) {
                outcome.failures.push(format!(
                    "{doc}:{}: reduce \"{}\" matches nothing in the block",
                    b.line, r.0
                ));
            }
        }
        match b.kind {
            Kind::Script => {
                outcome.ran += 1;
                let t = Instant::now();
                let result = run(&reduced(&body, b), &dir, b.timeout);
                eprintln!(
                    "{doc}:{}: {:.1} s  (sh block)",
                    b.line,
                    t.elapsed().as_secs_f64()
                );
                match result {
                    Ok((0, _)) => {}
                    Ok((code, out)) => outcome.failures.push(format!(
                        "{doc}:{}: script exited {code}:\n{}",
                        b.line,
                        tail(&out)
                    )),
                    Err(e) => outcome.failures.push(format!("{doc}:{}: {e}", b.line)),
                }
            }
            Kind::Console => {
                let list = match steps(doc, b) {
                    Ok(s) => s,
                    Err(e) => {
                        outcome.failures.push(e);
                        continue;
                    }
                };
                for s in list {
                    outcome.ran += 1;
                    let script = reduced(&s.command, b);
                    if b.server {
                        match start_server(&s, &script, &dir, b.timeout.min(30), servers.len()) {
                            Ok(child) => servers.push(child),
                            Err(e) => outcome.failures.push(format!("{doc}:{}: {e}", s.line)),
                        }
                        continue;
                    }
                    let t = Instant::now();
                    let result = run(&script, &dir, b.timeout);
                    eprintln!(
                        "{doc}:{}: {:.1} s  $ {}",
                        s.line,
                        t.elapsed().as_secs_f64(),
                        s.command.lines().next().unwrap_or("")
                    );
                    match result {
                        Err(e) => outcome
                            .failures
                            .push(format!("{doc}:{}: $ {}\n{e}", s.line, s.command)),
                        Ok((code, out)) => {
                            if code != s.code || !output_matches(&s.expected, &out) {
                                let mut msg = format!(
                                    "{doc}:{}: $ {}\nexit code {code} (expected {})\n--- expected\n",
                                    s.line, s.command, s.code
                                );
                                for l in trimmed(&s.expected) {
                                    let _ = writeln!(msg, "{l}");
                                }
                                msg.push_str("--- actual\n");
                                msg.push_str(&tail(&out));
                                outcome.failures.push(msg);
                            }
                        }
                    }
                }
            }
        }
    }
    for mut s in servers {
        kill_group(&mut s);
    }
    outcome.seconds = t0.elapsed().as_secs_f64();
    outcome
}

/// The last 60 lines of an output (failures stay readable).
fn tail(out: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    let from = lines.len().saturating_sub(60);
    let mut s = lines[from..].join("\n");
    s.push('\n');
    s
}

/// README.md and every page under docs/.
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    let mut stack = vec![repo().join("docs")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                docs.push(
                    p.strip_prefix(repo())
                        .expect("inside the repo")
                        .display()
                        .to_string(),
                );
            }
        }
    }
    docs.sort();
    docs
}

/// CPU seconds (user + system) of this process's waited-for descendants so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage fills the zeroed struct it is given and reads nothing else.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
    }
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    s(u.ru_utime) + s(u.ru_stime)
}

#[test]
fn every_documented_command_runs_and_prints_what_the_page_shows() {
    let mut docs = documents();
    if let Ok(only) = std::env::var("TABLERO_DOCS") {
        let wanted: Vec<String> = only.split(',').map(|w| w.trim().to_lowercase()).collect();
        docs.retain(|d| wanted.iter().any(|w| d.to_lowercase().contains(w.as_str())));
        eprintln!("TABLERO_DOCS={only}: running only {docs:?}");
        assert!(!docs.is_empty(), "TABLERO_DOCS={only} matches no document");
    }
    let t0 = Instant::now();
    let cpu0 = children_cpu();
    let queue = Mutex::new(docs.clone());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let Some(doc) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let o = check_document(&doc);
                    results.lock().unwrap().push((doc, o));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let (mut failures, mut ran, mut not_run) = (Vec::new(), 0, 0);
    for (doc, o) in &results {
        eprintln!(
            "{doc}: {} commands run, {} blocks not run, {:.1} s",
            o.ran, o.not_run, o.seconds
        );
        ran += o.ran;
        not_run += o.not_run;
        failures.extend(o.failures.iter().cloned());
    }
    eprintln!(
        "doc examples: {ran} commands run, {not_run} blocks not run, {} documents, {:.1} s wall, \
         {:.1} s CPU of the commands",
        results.len(),
        t0.elapsed().as_secs_f64(),
        children_cpu() - cpu0
    );
    assert!(
        failures.is_empty(),
        "{} of {ran} documented commands failed:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ran > 0, "no documented command was found");
}

#[test]
fn the_matcher_elides_only_what_it_is_told_to() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&e(&["a", "...", "d"]), &["a", "d"]));
    assert!(!lines_match(&e(&["a", "...", "d"]), &["a", "b", "c"]));
    assert!(!lines_match(&e(&["a", "b"]), &["a", "b", "c"]));
    assert!(lines_match(
        &e(&["nodes [..] nps [..]"]),
        &["nodes 12 nps 4000"]
    ));
    assert!(!lines_match(
        &e(&["nodes [..] nps"]),
        &["nodes 12 nps 4000"]
    ));
    assert!(!lines_match(&e(&["bestmove 4"]), &["bestmove 3"]));
    assert!(line_matches("[..]", "anything"));
    assert!(!line_matches("a[..]b[..]c", "a c b"));
    // The two ends may not overlap: "ab" is not "ab" + anything + "b".
    assert!(!line_matches("ab[..]b", "ab"));
    assert!(output_matches(&e(&["x", ""]), "x\n\n"));
    assert!(!output_matches(&e(&[]), "something"));
}

#[test]
fn blocks_directives_and_steps_parse() {
    let doc = "intro\n<!-- doctest: reduce \"--games 200\" \"--games 2\" -->\n<!-- doctest: timeout 30 -->\n```console\n$ tablero x \\\n> --games 200\n? 2\nerror: y\n...\n$ echo hi\nhi\n```\n```text\nnot run\n```\n<!-- doctest: not run: the test command itself (CI runs it) -->\n```sh\nscripts/test.sh\n```\n<!-- doctest: server -->\n```console\n$ tablero serve\nlistening [..]\n```\n";
    let blocks = parse("t.md", doc).unwrap();
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0].kind, Kind::Console);
    assert_eq!(blocks[0].timeout, 30);
    assert_eq!(
        blocks[0].reduce,
        vec![("--games 200".to_string(), "--games 2".to_string())]
    );
    let s = steps("t.md", &blocks[0]).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].command, "tablero x \\\n--games 200");
    assert_eq!(s[0].code, 2);
    assert_eq!(s[0].expected, vec!["error: y", "..."]);
    assert_eq!(s[1].expected, vec!["hi"]);
    assert_eq!(blocks[1].kind, Kind::Script);
    assert!(blocks[1].not_run.is_some());
    assert!(blocks[2].server && !blocks[0].server);
    assert!(parse("t.md", "```shell\nx\n```\n").is_err());
    assert!(parse("t.md", "<!-- doctest: bogus -->\n```sh\nx\n```\n").is_err());
    // A prompt in a block that is never run is refused.
    assert!(parse("t.md", "```text\n$ tablero bench\n```\n").is_err());
    assert!(parse("t.md", "```\n$ tablero bench\n```\n").is_err());
    // A server block holds one command.
    let two = parse(
        "t.md",
        "<!-- doctest: server -->\n```console\n$ a\n$ b\n```\n",
    )
    .unwrap();
    assert!(steps("t.md", &two[0]).is_err());
    assert!(parse("t.md", "<!-- doctest: server -->\n```sh\na\n```\n").is_err());
}

#[test]
fn longer_fences_hold_shorter_ones() {
    let doc = "````markdown\n<!-- doctest: timeout 5 -->\n```console\n$ echo hi\nhi\n```\n````\n~~~sh\necho ok\n~~~\n";
    let blocks = parse("t.md", doc).unwrap();
    assert_eq!(blocks.len(), 1, "only the ~~~sh block runs");
    assert_eq!(blocks[0].kind, Kind::Script);
    assert_eq!(blocks[0].body, vec!["echo ok"]);
    assert_eq!(blocks[0].line, 8);
    // A block in a list item loses its fence's indent, and only that.
    let listed = parse(
        "t.md",
        "- item\n\n  ```console\n  $ echo hi\n    hi\n  ```\n",
    )
    .unwrap();
    assert_eq!(listed[0].body, vec!["$ echo hi", "  hi"]);
    // A three-backtick line does not close a four-backtick block.
    assert!(parse("t.md", "````\n```\n").is_err());
    assert!(closes("```` ", '`', 4) && !closes("```", '`', 4) && !closes("```` x", '`', 4));
}
