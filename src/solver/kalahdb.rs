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
//! dependencies inside a layer have no cycles and a memoised depth-first fill of each layer is
//! exact, in any order. The order is chosen for the cache (see `Filler::tile`): tiles of a run
//! of opponent rows against every mover row, both threads taking tiles.
//!
//! Cache: `<dir>/kalah-m<m>-<rules>.db`, a header with one length and checksum per layer, then
//! the layers. A layer whose checksum fails is rebuilt together with all above it; the file is
//! rewritten (through a temporary file and a rename) whenever layers were built.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use super::kalah_board::Rules;
use super::kalah_board::{Board, Next, ONES, Ranker, sow};

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
/// (1.19 GB) for Kalah(6,4), which cuts its search from 122 M to 7.9 M nodes, about 4.5 s; 28
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

/// Databases loaded from the default cache by engines (`go`), kept for the life of the process
/// so that a new game or a new solver does not read the file again.
/// Keyed by the seed count asked for (the file may hold fewer intact layers).
static LOADED: Mutex<Vec<(usize, Arc<KalahDb>)>> = Mutex::new(Vec::new());

/// Most layers an engine (`go`) loads from the cache: every engine process holds its own copy,
/// and a referee may run several, so engines stay at 226 MB (20 seeds, about 0.2 s to load)
/// while `tablero solve` uses the full [`auto_seeds`] database (1.19 GB for Kalah(6,4)).
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

    /// The index of pit vector `p` in layer `s`, compiled for `M` pits a side (0: any size).
    #[inline(always)]
    fn index_in<const M: usize>(&self, p: &[u8; 16], s: usize) -> usize {
        if M == 6 {
            self.ranker.rank_in::<11>(p, s) as usize
        } else {
            self.ranker.rank(&p[..2 * self.m - 1], s) as usize
        }
    }

    /// Exact future gain of the side to move on running board `b` with `s <= seeds()` seeds
    /// (both rows non-empty), compiled for `M` pits a side (0: any size; 6 only for 6).
    #[inline(always)]
    pub(super) fn value_in<const M: usize>(&self, b: &Board, s: usize) -> i32 {
        self.layers[s][self.index_in::<M>(&b.p, s)] as i32 - 128
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
        if s < 2 {
            return cur.into_iter().map(AtomicU8::into_inner).collect();
        }
        let m = self.m;
        // Every row of m pits with b seeds (b < s), in lexicographic order, a byte per pit.
        let rows: Vec<Vec<u64>> = (0..s).map(|b| rows_with(m, b)).collect();
        // Tiles: a run of opponent rows (all with b seeds) against every mover row with the
        // other s - b seeds (see `Filler::tile`). A run is as long as keeps its children's
        // blocks in the cache.
        let mut tiles = Vec::new();
        for b in 1..s {
            let block = rows[s - b].len();
            let w = (TILE_BYTES / block).clamp(1, 1024);
            let len = rows[b].len();
            for j in (0..len).step_by(w) {
                tiles.push((b, j, (j + w).min(len)));
            }
        }
        let next = AtomicUsize::new(0);
        let started = Instant::now();
        let last_report = Mutex::new(Instant::now());
        let ranks = RowRanks::new(&self.ranker);
        let work = || {
            let fill = Filler {
                db: self,
                cur: &cur,
                s,
                ranks: &ranks,
                ec: self.rules == Rules::EmptyCapture,
            };
            let mut opp_ranks = Vec::new();
            loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(b, j0, j1)) = tiles.get(c) else {
                    break;
                };
                let (movers, opps) = (&rows[s - b], &rows[b][j0..j1]);
                // Compiled for each board size: the masks, shifts and loops are constants.
                match m {
                    1 => fill.tile::<1>(movers, opps, &mut opp_ranks),
                    2 => fill.tile::<2>(movers, opps, &mut opp_ranks),
                    3 => fill.tile::<3>(movers, opps, &mut opp_ranks),
                    4 => fill.tile::<4>(movers, opps, &mut opp_ranks),
                    5 => fill.tile::<5>(movers, opps, &mut opp_ranks),
                    6 => fill.tile::<6>(movers, opps, &mut opp_ranks),
                    _ => fill.tile::<7>(movers, opps, &mut opp_ranks),
                }
                if let Ok(mut last) = last_report.try_lock()
                    && last.elapsed().as_secs() >= 10
                {
                    *last = Instant::now();
                    log(&format!(
                        "info string kalah database layer {s}: {:.0} % after {:.0} s",
                        100.0 * (c + 1) as f64 / tiles.len() as f64,
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

/// Bytes of the same-layer child blocks one tile touches: about the L2 cache of a core. (On
/// layer 21 single-threaded, under load: 128 KiB 15.7 s of CPU, 512 KiB 13.6 s, 2 MiB 13.1 s,
/// 8 MiB 14.6 s.)
const TILE_BYTES: usize = 1 << 20;

/// Every row of `m` pits holding `b` seeds in all, in lexicographic order, pit `i` in byte `i`.
fn rows_with(m: usize, b: usize) -> Vec<u64> {
    let mut out = Vec::new();
    let mut p = [0u8; 8];
    p[m - 1] = b as u8;
    loop {
        out.push(u64::from_le_bytes(p));
        // Next composition: raise the last of the first m - 1 pits that can be raised, empty
        // the ones after it; the last pit takes the rest.
        let mut head: usize = p[..m - 1].iter().map(|&x| x as usize).sum();
        let mut j = m - 1;
        loop {
            if j == 0 {
                return out;
            }
            j -= 1;
            if head < b {
                p[j] += 1;
                break;
            }
            head -= p[j] as usize;
            p[j] = 0;
        }
        let head: usize = p[..m - 1].iter().map(|&x| x as usize).sum();
        p[m - 1] = (b - head) as u8;
    }
}

/// Ranks the positions of a layer from their two rows (`u64`, pit `i` in byte `i`), as
/// [`Ranker::rank`] does from the pits: with `P(a, s)` the terms of the mover's pits (which
/// depend on the layer `s`) and `Q(b)` those of the opponent's (which do not), the index is
/// `C(s) - P(a, s) - Q(b)`. The fill keeps `P` and `Q` of a tile's opponent rows: the children
/// that pass the turn without a capture start with the parent's opponent row, and those that
/// move again end with it, so most children cost one row's terms, not both.
struct RowRanks {
    /// `terms[i][c]`: [`Ranker::term`] (at most `MAX_DB_SEEDS` seeds, so `c < 128`).
    terms: Box<[[u64; 128]; 13]>,
    /// `C(s)`: the count of the layers up to `s` less one.
    c: Box<[u64; 128]>,
}

impl RowRanks {
    fn new(r: &Ranker) -> Self {
        let mut terms = Box::new([[0u64; 128]; 13]);
        for (i, row) in terms.iter_mut().enumerate() {
            for (c, t) in row.iter_mut().enumerate() {
                *t = r.term(i, c);
            }
        }
        let mut c = Box::new([0u64; 128]);
        for (s, x) in c.iter_mut().enumerate().take(r.t + 1) {
            *x = r.count(s).wrapping_sub(1);
        }
        RowRanks { terms, c }
    }

    /// `P(a, s)`: the terms of the mover's row `a` of a position with `s` seeds.
    #[inline(always)]
    fn p<const M: usize>(&self, a: u64, s: usize) -> u64 {
        let pre = a.wrapping_mul(ONES);
        let mut r = 0u64;
        for i in 0..M {
            let left = s.wrapping_sub((pre >> (8 * i)) as u8 as usize);
            r = r.wrapping_add(self.terms[i][left & 127]);
        }
        r
    }

    /// `Q(b)`: the terms of the opponent's row `b` (its last pit is implied).
    #[inline(always)]
    fn q<const M: usize>(&self, b: u64) -> u64 {
        let pre = b.wrapping_mul(ONES);
        let total = (pre >> 56) as usize;
        let mut r = 0u64;
        for j in 0..M - 1 {
            let left = total.wrapping_sub((pre >> (8 * j)) as u8 as usize);
            r = r.wrapping_add(self.terms[M + j][left & 127]);
        }
        r
    }

    #[inline(always)]
    fn index(&self, s: usize, p: u64, q: u64) -> usize {
        self.c[s & 127].wrapping_sub(p).wrapping_sub(q) as usize
    }
}

/// One thread's fill of one layer.
struct Filler<'a> {
    db: &'a KalahDb,
    cur: &'a [AtomicU8],
    s: usize,
    ranks: &'a RowRanks,
    ec: bool,
}

impl Filler<'_> {
    /// Fills the positions whose mover row is any of `movers` and whose opponent row is one of
    /// `opps` (a run of consecutive rows of one seed count), for boards of `M` pits a side.
    ///
    /// Positions of one mover row and consecutive opponent rows have consecutive ranks, so the
    /// stores run along a few cache lines; the children that pass the turn (most of them) are
    /// ranked with the opponent row first, so they all fall in the blocks of the run's rows,
    /// which stay in the cache while every mover row is tried against them. (Walking the
    /// layer in rank order instead sent every such child to a far block: a cache miss each.)
    fn tile<const M: usize>(&self, movers: &[u64], opps: &[u64], opp_ranks: &mut Vec<(u64, u64)>) {
        let s = self.s;
        let rr = self.ranks;
        opp_ranks.clear();
        opp_ranks.extend(opps.iter().map(|&y| (rr.p::<M>(y, s), rr.q::<M>(y))));
        let Some(&(_, q0)) = opp_ranks.first() else {
            return;
        };
        for &x in movers {
            let px = rr.p::<M>(x, s);
            let idx0 = rr.index(s, px, q0);
            for (j, (&y, &(py, qy))) in opps.iter().zip(opp_ranks.iter()).enumerate() {
                let idx = idx0 + j;
                debug_assert_eq!(idx, rr.index(s, px, qy));
                if self.cur[idx].load(Ordering::Relaxed) == UNKNOWN {
                    self.fill::<M>(x, y, idx, py, qy);
                }
            }
        }
    }

    /// Computes, stores and returns the value of the running position with mover row `a` and
    /// opponent row `b` (layer `s`, index `idx`); `pb` and `qb` are `P(b, s)` and `Q(b)`.
    fn fill<const M: usize>(&self, a: u64, b: u64, idx: usize, pb: u64, qb: u64) -> i32 {
        let s = self.s;
        let rr = self.ranks;
        let mut best = i32::MIN;
        // Children of this layer not filled yet, by pit: searched after the others, so that
        // the loads of all children are issued before any recursion.
        let mut later = 0u32;
        for t0 in 0..M {
            if (a >> (8 * t0)) as u8 == 0 {
                continue;
            }
            let w = sow::<M>(M, a, b, t0, self.ec);
            if w.own_n == 0 || w.opp_n == 0 {
                best = best.max(w.gain + w.own_n as i32 - w.opp_n as i32);
                continue;
            }
            let s1 = w.own_n + w.opp_n;
            let again = w.next == Next::Again;
            let i = if again {
                // A seed reached the store: a lower layer; the opponent's row is unchanged
                // unless a lap sowed it.
                let q = if w.opp == b { qb } else { rr.q::<M>(w.opp) };
                rr.index(s1, rr.p::<M>(w.own, s1), q)
            } else {
                // Same layer only if nothing reached a store, so the opponent row is `b`.
                let p = if s1 == s { pb } else { rr.p::<M>(w.opp, s1) };
                rr.index(s1, p, rr.q::<M>(w.own))
            };
            let c = if s1 < s {
                self.db.layers[s1][i]
            } else {
                self.cur[i].load(Ordering::Relaxed)
            };
            if c == UNKNOWN {
                // Same layer (a lower one is complete), so the turn passed.
                later |= 1 << t0;
                continue;
            }
            let c = c as i32 - 128;
            best = best.max(if again { w.gain + c } else { w.gain - c });
        }
        while later != 0 {
            // Its potential is lower (seeds moved forward on the mover's row): no cycle.
            // Sown again rather than kept: this is the rare case.
            let t0 = later.trailing_zeros() as usize;
            later &= later - 1;
            let w = sow::<M>(M, a, b, t0, self.ec);
            debug_assert!(w.next == Next::Other && w.opp == b && w.gain == 0);
            let q = rr.q::<M>(w.own);
            let i = rr.index(s, pb, q);
            let c = match self.cur[i].load(Ordering::Relaxed) {
                UNKNOWN => self.fill::<M>(w.opp, w.own, i, rr.p::<M>(w.own, s), q),
                c => c as i32 - 128,
            };
            best = best.max(w.gain - c);
        }
        self.cur[idx].store((best + 128) as u8, Ordering::Relaxed);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bottom-up database agrees with a plain memo-less minimax on every running position
    /// of small seed counts on every board size, under both rules.
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
        // Every board size (each is compiled apart), both rules, as many seeds as a memo-less
        // minimax affords.
        let mut checked = 0;
        for (m, k) in [(1, 10), (2, 8), (3, 7), (4, 6), (5, 5), (6, 5), (7, 4)] {
            for rules in [Rules::Course, Rules::EmptyCapture] {
                let db = KalahDb::build(m, rules, k, 2, &|_| {});
                for s in 2..=k {
                    for a in 1..s {
                        for &x in &rows_with(m, a) {
                            for &y in &rows_with(m, s - a) {
                                let mut p = [0u8; 16];
                                p[..8].copy_from_slice(&x.to_le_bytes());
                                p[m..m + 8].copy_from_slice(&y.to_le_bytes());
                                let b = Board { p };
                                let v = db.value_in::<0>(&b, s);
                                assert_eq!(
                                    v,
                                    minimax(&b, m, rules == Rules::EmptyCapture),
                                    "{rules:?} {:?}",
                                    &p[..2 * m]
                                );
                                if m == 6 {
                                    // The six-pit search reads through its own index.
                                    assert_eq!(db.value_in::<6>(&b, s), v, "{:?}", &p[..12]);
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
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
