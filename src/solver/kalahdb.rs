//! The Kalah endgame table's disk cache and the process's loaded tables: `tablero solve` and
//! the solver player read the table ([`KalahDb`], built in `games::mancala::endgame`) from
//! here instead of building it again.
//!
//! Cache: `<dir>/kalah-m<m>-<rules>.db`, a header with one length and checksum per layer, then
//! the layers. A layer whose checksum fails is rebuilt together with all above it; the file is
//! rewritten (through a temporary file and a rename) whenever layers were built.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::SolveError;
pub use crate::games::mancala::endgame::{KalahDb, MAX_DB_SEEDS};
use crate::games::mancala::endgame::{huge_pages, layer_len};
pub use crate::games::mancala::kalah_board::Rules;

const MAGIC: &[u8; 8] = b"TBKALAH1";

/// A fast 64-bit checksum (four multiply-rotate lanes over little-endian words), to detect a
/// damaged or truncated cache file, not tampering.
pub fn checksum(data: &[u8]) -> u64 {
    const P: [u64; 4] = [
        0x9e37_79b9_7f4a_7c15,
        0xc2b2_ae3d_27d4_eb4f,
        0x1656_67b1_9e37_79f9,
        0x85eb_ca77_c2b2_ae63,
    ];
    let mut h = [1u64, 2, 3, 4];
    let mut blocks = data.chunks_exact(32);
    for b in &mut blocks {
        for (i, lane) in h.iter_mut().enumerate() {
            let w = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
            *lane = (*lane ^ w).wrapping_mul(P[i]).rotate_left(31);
        }
    }
    let mut x = data.len() as u64;
    for (i, lane) in h.iter().enumerate() {
        x = (x ^ lane).wrapping_mul(P[i]).rotate_left(27);
    }
    for &b in blocks.remainder() {
        x = (x ^ b as u64).wrapping_mul(P[0]).rotate_left(23);
    }
    x ^ (x >> 29)
}

/// The database size `tablero solve` and `go` use by default for `pits` pits and `total`
/// seeds: none below Kalah(6,4), which the run-time database alone solves in seconds; 24 seeds
/// (1.25 GB) for Kalah(6,4), which cuts its search from 122 M to 7.9 M nodes, about 4.5 s; 28
/// seeds (5.6 GB, built from nothing in 3.7 minutes on two free cores) from Kalah(6,5) on,
/// where each layer more costs less to build than it saves in search (docs/solvers.md). Other
/// sizes are built on request (`--db-seeds`); a cache holding fewer intact layers is used as it is.
pub fn auto_seeds(pits: usize, total: usize) -> usize {
    match (pits, total) {
        (6, 60..) => 28,
        (6, 48..) => 24,
        _ => 0,
    }
}

/// CPU time the fill costs per position, nanoseconds (measured: 65 ns on the project's 2-core
/// machine, docs/solvers.md): what a build's announced time is estimated from.
pub const FILL_NS_PER_POSITION: u64 = 65;

/// Bytes of layers `from..=k` of the database of `m` pits a side (one byte per position): what
/// building them adds to the cache file.
pub fn layers_bytes(m: usize, from: usize, k: usize) -> u64 {
    let db = KalahDb::empty(m, Rules::Course, k);
    (from..=k).map(|s| layer_len(&db.ranker, s) as u64).sum()
}

/// The largest seed count up to `k` whose database of `m` pits a side takes at most
/// `max_bytes` (`None` when even layer 0 does not fit).
pub fn seeds_within(m: usize, k: usize, max_bytes: u64) -> Option<usize> {
    let db = KalahDb::empty(m, Rules::Course, k);
    let mut total = 0u64;
    let mut fits = None;
    for s in 0..=k {
        total += layer_len(&db.ranker, s) as u64;
        if total > max_bytes {
            break;
        }
        fits = Some(s);
    }
    fits
}

/// `secs` as people read a wait: `40 s`, `3.7 min`, `1.2 h`.
fn duration_text(secs: f64) -> String {
    if secs < 90.0 {
        format!("{:.0} s", secs.max(1.0))
    } else if secs < 5400.0 {
        format!("{:.1} min", secs / 60.0)
    } else {
        format!("{:.1} h", secs / 3600.0)
    }
}

/// Databases loaded from the default cache by engines (`go`), kept for the life of the process
/// so that a new game or a new solver does not read the file again.
/// Keyed by the seed count asked for (the file may hold fewer intact layers).
static LOADED: Mutex<Vec<(usize, Arc<KalahDb>)>> = Mutex::new(Vec::new());

/// Most layers an engine (`go`) loads from the cache: every engine process holds its own copy,
/// and a referee may run several, so engines stay at 226 MB (20 seeds, about 0.2 s to load)
/// while `tablero solve` uses the full [`auto_seeds`] database (1.25 GB for Kalah(6,4)).
pub const GO_DB_SEEDS: usize = 20;

/// The database of `pits` pits, `rules` and [`auto_seeds`] (at most [`GO_DB_SEEDS`]) for
/// `total` seeds from the default cache, if one was built (by `tablero solve`); never builds.
/// Fewer layers than asked are used if that is all the file holds intact.
pub fn cached(pits: usize, total: usize, rules: Rules) -> Option<Arc<KalahDb>> {
    let k = auto_seeds(pits, total).min(GO_DB_SEEDS);
    if k == 0 {
        return None;
    }
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, db)) = loaded
        .iter()
        .find(|(kk, d)| d.m == pits && d.rules == rules && *kk == k)
    {
        return Some(Arc::clone(db));
    }
    let db = Arc::new(KalahDb::load(&default_dir()?, pits, rules, k)?);
    loaded.push((k, Arc::clone(&db)));
    Some(db)
}

/// Would [`cached`] find a database for this board (a file in the default cache)? A file
/// check only, for deciding before the database is loaded (on the solver's own thread).
pub fn is_cached(pits: usize, total: usize, rules: Rules) -> bool {
    auto_seeds(pits, total).min(GO_DB_SEEDS) > 0
        && default_dir().is_some_and(|d| KalahDb::path(&d, pits, rules).is_file())
}

/// Where the cache lives by default: `$XDG_CACHE_HOME/tablero`, else `$HOME/.cache/tablero`.
pub fn default_dir() -> Option<PathBuf> {
    let nonempty = |v: &str| std::env::var_os(v).filter(|x| !x.is_empty());
    if let Some(x) = nonempty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(x).join("tablero"));
    }
    nonempty("HOME").map(|h| PathBuf::from(h).join(".cache").join("tablero"))
}

impl KalahDb {
    /// The cache file of this board size and rules in `dir`.
    pub fn path(dir: &Path, m: usize, rules: Rules) -> PathBuf {
        dir.join(format!("kalah-m{m}-{}.db", rules.name()))
    }

    /// Loads layers `0..=k` from the cache in `dir` (fewer if the file has fewer intact
    /// layers; `None` if it has none or does not exist), checking every layer's checksum.
    pub fn load(dir: &Path, m: usize, rules: Rules, k: usize) -> Option<Self> {
        let db = Self::read(&Self::path(dir, m, rules), m, rules, k).ok()?;
        (!db.layers.is_empty()).then_some(db)
    }

    /// Reads what is intact; an error only when the file cannot be opened or its header is
    /// not ours (then nothing is usable).
    fn read(path: &Path, m: usize, rules: Rules, k: usize) -> Result<Self, SolveError> {
        let bad = |why: String| SolveError::Cache {
            path: path.display().to_string(),
            why,
        };
        let mut f = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
        let mut head = [0u8; 24];
        f.read_exact(&mut head).map_err(|e| bad(e.to_string()))?;
        let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap_or([0; 4]));
        if &head[..8] != MAGIC || word(8) != 1 || word(12) != m as u32 || word(16) != rules.code() {
            return Err(bad("not a database of this board size and rules".into()));
        }
        let stored = word(20) as usize;
        if stored > 255 {
            return Err(bad("damaged header".into()));
        }
        let mut dir = vec![0u8; 16 * stored];
        f.read_exact(&mut dir).map_err(|e| bad(e.to_string()))?;
        let mut db = KalahDb::empty(m, rules, k.max(stored.saturating_sub(1)));
        for s in 0..stored.min(k + 1) {
            let len = u64::from_le_bytes(dir[16 * s..16 * s + 8].try_into().unwrap_or([0; 8]));
            let sum = u64::from_le_bytes(dir[16 * s + 8..16 * s + 16].try_into().unwrap_or([0; 8]));
            if len as usize != layer_len(&db.ranker, s) {
                break;
            }
            let mut layer: Vec<u8> = Vec::with_capacity(len as usize);
            huge_pages(layer.as_ptr(), len as usize);
            layer.resize(len as usize, 0);
            if f.read_exact(&mut layer).is_err() || checksum(&layer) != sum {
                break;
            }
            db.layers.push(layer.into_boxed_slice());
        }
        Ok(db)
    }

    /// Writes all layers to the cache in `dir` (a temporary file renamed over the old one).
    pub fn save(&self, dir: &Path) -> Result<(), SolveError> {
        std::fs::create_dir_all(dir).map_err(|e| SolveError::Cache {
            path: dir.display().to_string(),
            why: e.to_string(),
        })?;
        let path = Self::path(dir, self.m, self.rules);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
            f.write_all(MAGIC)?;
            for w in [
                1,
                self.m as u32,
                self.rules.code(),
                self.layers.len() as u32,
            ] {
                f.write_all(&w.to_le_bytes())?;
            }
            for l in &self.layers {
                f.write_all(&(l.len() as u64).to_le_bytes())?;
                f.write_all(&checksum(l).to_le_bytes())?;
            }
            for l in &self.layers {
                f.write_all(l)?;
            }
            f.into_inner()?.sync_all()?;
            std::fs::rename(&tmp, &path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            SolveError::Cache {
                path: path.display().to_string(),
                why: e.to_string(),
            }
        })
    }

    /// The database with layers `0..=k` from the cache in `dir`, building (and saving) the
    /// layers that are missing or damaged. `log` gets progress lines, and says so when the
    /// cache cannot be read or written: the database in memory is whole either way.
    pub fn load_or_build(
        dir: &Path,
        m: usize,
        rules: Rules,
        k: usize,
        threads: usize,
        log: &(dyn Fn(&str) + Sync),
    ) -> Self {
        let path = Self::path(dir, m, rules);
        let t = Instant::now();
        let mut db = match Self::read(&path, m, rules, k) {
            Ok(db) => db,
            Err(e) => {
                if path.exists() {
                    log(&format!("info string kalah database {e}; rebuilding"));
                }
                KalahDb::empty(m, rules, k)
            }
        };
        let have = db.layers.len();
        if have > k {
            log(&format!(
                "info string kalah database {} loaded: up to {k} seeds, {} MB in {:.1} s",
                path.display(),
                db.bytes() >> 20,
                t.elapsed().as_secs_f64()
            ));
            return db;
        }
        // Said before it starts: how much it writes and about how long it takes.
        let more = layers_bytes(m, have, k);
        let secs = more as f64 * FILL_NS_PER_POSITION as f64 * 1e-9 / threads.max(1) as f64;
        log(&format!(
            "info string kalah database {}: {have} intact layers, building up to {k} seeds \
             with {threads} thread(s): {} MB more on disk ({} MB in all), about {} on an idle \
             machine (--db-seeds or --db-max-mb for a smaller one)",
            path.display(),
            more >> 20,
            (db.bytes() as u64 + more) >> 20,
            duration_text(secs)
        ));
        let t = Instant::now();
        db.extend(k, threads, Some(&|db: &KalahDb| db.save(dir)), log);
        log(&format!(
            "info string kalah database built up to {k} seeds: {} MB in {:.1} s",
            db.bytes() >> 20,
            t.elapsed().as_secs_f64()
        ));
        if let Err(e) = db.save(dir) {
            log(&format!("info string kalah database not saved: {e}"));
        }
        db
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache round-trips; a damaged layer is detected and rebuilt with everything above
    /// it, and the rebuilt file is intact again.
    #[test]
    fn cache_detects_damage_and_rebuilds() {
        let dir = std::env::temp_dir().join(format!("tablero-kalahdb-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let quiet = |_: &str| {};
        let built = KalahDb::load_or_build(&dir, 4, Rules::Course, 10, 2, &quiet);
        let path = KalahDb::path(&dir, 4, Rules::Course);
        let loaded = KalahDb::load(&dir, 4, Rules::Course, 10).unwrap();
        assert_eq!(loaded.layers, built.layers);
        // A prefix loads alone.
        assert_eq!(KalahDb::load(&dir, 4, Rules::Course, 6).unwrap().seeds(), 6);
        // Flip a byte near the end (in layer 10).
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 100;
        bytes[at] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(
            KalahDb::load(&dir, 4, Rules::Course, 10).unwrap().seeds(),
            9
        );
        let lines = Mutex::new(Vec::new());
        let log = |l: &str| lines.lock().unwrap().push(l.to_string());
        let again = KalahDb::load_or_build(&dir, 4, Rules::Course, 10, 1, &log);
        assert_eq!(again.layers, built.layers);
        assert!(
            lines
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.contains("10 intact layers")),
            "{:?}",
            lines.lock().unwrap()
        );
        assert_eq!(
            KalahDb::load(&dir, 4, Rules::Course, 10).unwrap().seeds(),
            10
        );
        // A truncated file and a foreign file.
        // Header 24 + 11 * 16 bytes, then layers of 1, 8, 36, 120, ... bytes: 255 bytes hold
        // layers 0..=2 and part of layer 3.
        std::fs::write(&path, &bytes[..255]).unwrap();
        assert_eq!(
            KalahDb::load(&dir, 4, Rules::Course, 10).unwrap().seeds(),
            2
        );
        std::fs::write(&path, b"not a database").unwrap();
        assert!(KalahDb::load(&dir, 4, Rules::Course, 10).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
