//! Kalah endgame database built bottom-up and cached on disk: the exact future gain of the
//! side to move for every pit vector of one board size with at most `K` seeds in pits, a
//! byte per position.
//!
//! Layers: layer `s` holds the vectors with exactly `s` seeds, indexed by the lexicographic
//! rank of their first `2m - 1` pits (the last pit is implied), so the database for `K` seeds
//! is a prefix of the one for `K + 1` and one file per board size and rules grows by layers.
//! Seeds never return from the stores, so a move leads to a lower layer (a seed reached a
//! store, or a capture) or stays in the layer only by moving seeds forward on the mover's own
//! row; the sum over all seeds of their distance to their owner's store then drops, so the
//! dependencies inside a layer have no cycles and a memoised depth-first fill of each layer in
//! rank order (both threads on chunks of it) is exact.
//!
//! Cache: `<dir>/kalah-m<m>-<rules>.db`, a header with one length and checksum per layer, then
//! the layers. A layer whose checksum fails is rebuilt together with all above it; the file is
//! rewritten (through a temporary file and a rename) whenever layers were built.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::kalah::{Board, Next, Ranker};

/// Rules the database (and the solver) plays by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    /// The course's rules (rules page `mancala.md`): a last seed in an own empty pit captures
    /// only if the facing pit has seeds.
    #[default]
    Course,
    /// Irving, Donkers & Uiterwijk's Kalah: a last seed in an own empty pit is captured even
    /// when the facing pit is empty. Used to cross-check the solver against the published
    /// values; no game in the engine plays it.
    EmptyCapture,
}

impl Rules {
    fn name(self) -> &'static str {
        match self {
            Rules::Course => "course",
            Rules::EmptyCapture => "empty-capture",
        }
    }

    fn code(self) -> u32 {
        match self {
            Rules::Course => 0,
            Rules::EmptyCapture => 1,
        }
    }
}

const UNKNOWN: u8 = 0;

/// Asks for huge pages on a layer's allocation before its first touch: searches and fills
/// probe the layers at random, a TLB miss per probe on 4 KiB pages.
fn huge_pages<T>(start: *const T, bytes: usize) {
    crate::core::mem::advise_huge_pages(start as usize, bytes);
}
const MAGIC: &[u8; 8] = b"TBKALAH1";

/// The database: layers `0..=k` for boards of `m` pits per side.
pub struct KalahDb {
    m: usize,
    rules: Rules,
    /// Ranks the first `2m - 1` pits of a vector with budget `s` (its layer).
    ranker: Ranker,
    /// Value + 128 per position; positions with an empty row are never read (they end the
    /// game) and hold 0.
    layers: Vec<Box<[u8]>>,
}

/// Positions of layer `s`: vectors of `2m` pits with exactly `s` seeds.
fn layer_len(ranker: &Ranker, s: usize) -> usize {
    ranker.count(s) as usize
}

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

/// Largest seed count a database may cover (values are stored as `v + 128` in a byte).
pub const MAX_DB_SEEDS: usize = 100;

/// The database size `tablero solve` and `go` use by default for `pits` pits and `total`
/// seeds: none below Kalah(6,4), which the run-time database alone solves in seconds; 24 seeds
/// (1.19 GB, built once in about 5 CPU-minutes) from Kalah(6,4) on, which cuts the (6,4)
/// search from 122 M to 7.9 M nodes, about 4.5 s (docs/solvers.md). Larger ones are
/// built on request (`--db-seeds`); a cache holding fewer intact layers is used as it is.
pub fn auto_seeds(pits: usize, total: usize) -> usize {
    if pits == 6 && total >= 48 { 24 } else { 0 }
}

/// Databases loaded from the default cache by engines (`go`), kept for the life of the process
/// so that a new game or a new solver does not read the file again.
/// Keyed by the seed count asked for (the file may hold fewer intact layers).
static LOADED: Mutex<Vec<(usize, Arc<KalahDb>)>> = Mutex::new(Vec::new());

/// Most layers an engine (`go`) loads from the cache: every engine process holds its own copy,
/// and a referee may run several, so engines stay at 226 MB (20 seeds, about 0.2 s to load)
/// while `tablero solve` uses the full [`auto_seeds`] database (1.19 GB).
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

/// Where the cache lives by default: `$XDG_CACHE_HOME/tablero`, else `$HOME/.cache/tablero`.
pub fn default_dir() -> Option<PathBuf> {
    let nonempty = |v: &str| std::env::var_os(v).filter(|x| !x.is_empty());
    if let Some(x) = nonempty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(x).join("tablero"));
    }
    nonempty("HOME").map(|h| PathBuf::from(h).join(".cache").join("tablero"))
}

impl KalahDb {
    fn empty(m: usize, rules: Rules, k: usize) -> Self {
        KalahDb {
            m,
            rules,
            ranker: Ranker::new(2 * m - 1, k.max(1)),
            layers: Vec::new(),
        }
    }

    /// Largest seed count covered (`None` before layer 0 exists, which never happens once
    /// built).
    pub fn seeds(&self) -> usize {
        self.layers.len().saturating_sub(1)
    }

    pub fn pits(&self) -> usize {
        self.m
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.layers.iter().map(|l| l.len()).sum()
    }

    #[inline]
    fn index(&self, p: &[u8; 16], s: usize) -> usize {
        self.ranker.rank(&p[..2 * self.m - 1], s) as usize
    }

    /// Exact future gain of the side to move on running board `b` with `s <= seeds()` seeds
    /// (both rows non-empty).
    #[inline]
    pub(super) fn value(&self, b: &Board, s: usize) -> i32 {
        self.layers[s][self.index(&b.p, s)] as i32 - 128
    }

    /// The database for boards of `m` pits with layers `0..=k`, built with `threads` threads
    /// (no cache). `log` gets progress lines.
    pub fn build(
        m: usize,
        rules: Rules,
        k: usize,
        threads: usize,
        log: &(dyn Fn(&str) + Sync),
    ) -> Self {
        let mut db = KalahDb::empty(m, rules, k);
        db.extend(k, threads, None, log);
        db
    }

    /// Builds the layers above the current top up to `k`. With `dir`, the cache is saved
    /// after every layer that took more than half a minute, so that an interrupted build of
    /// a large database resumes from there.
    fn extend(
        &mut self,
        k: usize,
        threads: usize,
        dir: Option<&Path>,
        log: &(dyn Fn(&str) + Sync),
    ) {
        if self.ranker.t < k {
            self.ranker = Ranker::new(2 * self.m - 1, k);
        }
        while self.layers.len() <= k {
            let s = self.layers.len();
            let t = Instant::now();
            let layer = self.build_layer(s, threads, log);
            self.layers.push(layer);
            if s >= 10 {
                log(&format!(
                    "info string kalah database layer {s}: {} positions in {:.1} s ({} MB so far)",
                    layer_len(&self.ranker, s),
                    t.elapsed().as_secs_f64(),
                    self.bytes() >> 20
                ));
            }
            if let Some(d) = dir
                && s < k
                && t.elapsed().as_secs() >= 30
                && let Err(e) = self.save(d)
            {
                log(&format!("info string kalah database not saved: {e}"));
            }
        }
    }

    fn build_layer(&self, s: usize, threads: usize, log: &(dyn Fn(&str) + Sync)) -> Box<[u8]> {
        let n = layer_len(&self.ranker, s);
        let mut cur: Vec<AtomicU8> = Vec::with_capacity(n);
        huge_pages(cur.as_ptr(), n);
        cur.resize_with(n, || AtomicU8::new(UNKNOWN));
        if s == 0 {
            return cur.into_iter().map(AtomicU8::into_inner).collect();
        }
        const CHUNK: usize = 1 << 16;
        let chunks = n.div_ceil(CHUNK);
        let next = AtomicUsize::new(0);
        let started = Instant::now();
        let last_report = Mutex::new(Instant::now());
        let work = || {
            let mut fill = Filler {
                db: self,
                cur: &cur,
                s,
            };
            loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks {
                    break;
                }
                fill.chunk(c * CHUNK, ((c + 1) * CHUNK).min(n));
                if let Ok(mut last) = last_report.try_lock()
                    && last.elapsed().as_secs() >= 10
                {
                    *last = Instant::now();
                    log(&format!(
                        "info string kalah database layer {s}: {:.0} % after {:.0} s",
                        100.0 * (c + 1) as f64 / chunks as f64,
                        started.elapsed().as_secs_f64()
                    ));
                }
            }
        };
        if threads <= 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(work);
                }
                work();
            });
        }
        cur.into_iter().map(AtomicU8::into_inner).collect()
    }

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
    fn read(path: &Path, m: usize, rules: Rules, k: usize) -> Result<Self, String> {
        let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let mut head = [0u8; 24];
        f.read_exact(&mut head).map_err(|e| e.to_string())?;
        let word = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap_or([0; 4]));
        if &head[..8] != MAGIC || word(8) != 1 || word(12) != m as u32 || word(16) != rules.code() {
            return Err("not a database of this board size and rules".into());
        }
        let stored = word(20) as usize;
        if stored > 255 {
            return Err("damaged header".into());
        }
        let mut dir = vec![0u8; 16 * stored];
        f.read_exact(&mut dir).map_err(|e| e.to_string())?;
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
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
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
            format!("{}: {e}", path.display())
        })
    }

    /// The database with layers `0..=k` from the cache in `dir`, building (and saving) the
    /// layers that are missing or damaged. `log` gets progress lines.
    pub fn load_or_build(
        dir: &Path,
        m: usize,
        rules: Rules,
        k: usize,
        threads: usize,
        log: &(dyn Fn(&str) + Sync),
    ) -> Result<Self, String> {
        let path = Self::path(dir, m, rules);
        let t = Instant::now();
        let mut db = match Self::read(&path, m, rules, k) {
            Ok(db) => db,
            Err(e) => {
                if path.exists() {
                    log(&format!(
                        "info string kalah database {}: {e}; rebuilding",
                        path.display()
                    ));
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
            return Ok(db);
        }
        log(&format!(
            "info string kalah database {}: {have} intact layers, building up to {k} seeds \
             with {threads} thread(s)",
            path.display()
        ));
        let t = Instant::now();
        db.extend(k, threads, Some(dir), log);
        log(&format!(
            "info string kalah database built up to {k} seeds: {} MB in {:.1} s",
            db.bytes() >> 20,
            t.elapsed().as_secs_f64()
        ));
        if let Err(e) = db.save(dir) {
            log(&format!("info string kalah database not saved: {e}"));
        }
        Ok(db)
    }
}

/// One thread's fill of one layer.
struct Filler<'a> {
    db: &'a KalahDb,
    cur: &'a [AtomicU8],
    s: usize,
}

impl Filler<'_> {
    /// Fills ranks `lo..hi` of the layer, walking the vectors in rank order.
    fn chunk(&mut self, lo: usize, hi: usize) {
        let m = self.db.m;
        let n = 2 * m - 1;
        let s = self.s;
        let r = &self.db.ranker;
        // Unrank `lo`: pit by pit, the largest count whose preceding vectors fit the rank.
        let mut p = [0u8; 16];
        let mut rest = lo as u64;
        let mut b = s;
        let w = r.t + 1;
        for (i, pi) in p[..n].iter_mut().enumerate() {
            let row = (n - 1 - i) * w;
            let mut x = 0;
            while x < b && r.f[row + b] - r.f[row + b - x - 1] <= rest {
                x += 1;
            }
            rest -= r.f[row + b] - r.f[row + b - x];
            *pi = x as u8;
            b -= x;
        }
        p[n] = b as u8;
        for idx in lo..hi {
            debug_assert_eq!(self.db.index(&p, s), idx);
            let own: u32 = p[..m].iter().map(|&x| x as u32).sum();
            if own > 0 && own < s as u32 && self.cur[idx].load(Ordering::Relaxed) == UNKNOWN {
                self.fill(&Board { p }, idx);
            }
            // Next vector in rank order: raise the last of the first n pits j with
            // sum(p[..=j]) < s and empty the ones after it (the last pit takes the rest).
            let mut sum: usize = p[..n].iter().map(|&x| x as usize).sum();
            let mut j = n;
            while j > 0 {
                j -= 1;
                if sum < s {
                    p[j] += 1;
                    break;
                }
                sum -= p[j] as usize;
                p[j] = 0;
            }
            let tot: usize = p[..n].iter().map(|&x| x as usize).sum();
            p[n] = (s - tot) as u8;
        }
    }

    /// Computes, stores and returns the value of running board `b` (layer `s`, rank `idx`).
    fn fill(&mut self, b: &Board, idx: usize) -> i32 {
        let m = self.db.m;
        let ec = self.db.rules == Rules::EmptyCapture;
        // Children first, all loads issued before any is used (their cache misses overlap).
        let mut kids = [(0i32, Next::Over, 0usize, u8::MAX, [0u8; 16]); 8];
        let mut n = 0;
        for t0 in 0..m {
            if b.p[t0] == 0 {
                continue;
            }
            let mv = b.play(m, t0, ec);
            let (v, i) = match mv.next {
                Next::Over => (u8::MAX, 0),
                _ if mv.seeds < self.s => {
                    let i = self.db.index(&mv.board.p, mv.seeds);
                    (self.db.layers[mv.seeds][i], i)
                }
                _ => {
                    let i = self.db.index(&mv.board.p, mv.seeds);
                    (self.cur[i].load(Ordering::Relaxed), i)
                }
            };
            kids[n] = (mv.gain, mv.next, i, v, mv.board.p);
            n += 1;
        }
        let mut best = i32::MIN;
        for &(gain, next, i, v, p) in &kids[..n] {
            let c = match next {
                Next::Over => 0,
                _ if v != UNKNOWN => v as i32 - 128,
                // Same layer, not filled yet (its potential is lower: no cycle).
                _ => self.fill(&Board { p }, i),
            };
            let v = match next {
                Next::Over => gain,
                Next::Again => gain + c,
                Next::Other => gain - c,
            };
            best = best.max(v);
        }
        self.cur[idx].store((best + 128) as u8, Ordering::Relaxed);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bottom-up database agrees with a plain memo-less minimax on every running position
    /// of a small board, under both rules.
    #[test]
    fn database_matches_brute_force() {
        fn minimax(b: &Board, m: usize, ec: bool) -> i32 {
            (0..m)
                .filter(|&t| b.p[t] > 0)
                .map(|t| {
                    let mv = b.play(m, t, ec);
                    match mv.next {
                        Next::Over => mv.gain,
                        Next::Again => mv.gain + minimax(&mv.board, m, ec),
                        Next::Other => mv.gain - minimax(&mv.board, m, ec),
                    }
                })
                .max()
                .unwrap_or(0)
        }
        for rules in [Rules::Course, Rules::EmptyCapture] {
            let m = 3;
            let k = 7;
            let db = KalahDb::build(m, rules, k, 2, &|_| {});
            let mut checked = 0;
            for s in 1..=k {
                // Every vector of 6 pits with exactly s seeds.
                let mut p = [0u8; 16];
                p[5] = s as u8;
                loop {
                    let own: usize = p[..3].iter().map(|&x| x as usize).sum();
                    if own > 0 && own < s {
                        let b = Board { p };
                        assert_eq!(
                            db.value(&b, s),
                            minimax(&b, m, rules == Rules::EmptyCapture),
                            "{rules:?} {:?}",
                            &p[..6]
                        );
                        checked += 1;
                    }
                    // Next composition (odometer over the first five pits).
                    let mut j = 5;
                    let mut done = true;
                    while j > 0 {
                        j -= 1;
                        let head: usize = p[..5].iter().map(|&x| x as usize).sum();
                        if head < s {
                            p[j] += 1;
                            done = false;
                            break;
                        }
                        p[j] = 0;
                    }
                    if done {
                        break;
                    }
                    let head: usize = p[..5].iter().map(|&x| x as usize).sum();
                    p[5] = (s - head) as u8;
                }
            }
            assert!(checked > 1000, "{checked}");
        }
    }

    /// The cache round-trips; a damaged layer is detected and rebuilt with everything above
    /// it, and the rebuilt file is intact again.
    #[test]
    fn cache_detects_damage_and_rebuilds() {
        let dir = std::env::temp_dir().join(format!("tablero-kalahdb-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let quiet = |_: &str| {};
        let built = KalahDb::load_or_build(&dir, 4, Rules::Course, 10, 2, &quiet).unwrap();
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
        let again = KalahDb::load_or_build(&dir, 4, Rules::Course, 10, 1, &log).unwrap();
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
