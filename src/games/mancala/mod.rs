//! Mancala as played in the course: Kalah(m, n) with `m` pits per side and `n` seeds per pit
//! (the course plays Kalah(6, 4)). Rules: `/work/shared/rules/mancala.md`, summarised here:
//!
//! - A move names one of the mover's non-empty pits `1..=m`; pit 1 is next to the mover's own
//!   store, pit `k` faces the opponent's pit `m + 1 - k`.
//! - Seeds are sown one per position towards the own store, then along the opponent's pits; the
//!   opponent's store is skipped and the emptied origin pit is sown into again on long laps.
//! - Last seed in the own store: the same side moves again (several plies in a row are normal).
//! - Last seed in an own pit that was empty, with a non-empty facing pit: both go to the own store.
//!   With an empty facing pit nothing is captured.
//! - As soon as either side's pits are all empty the game ends and each side banks the seeds left
//!   in its own pits. The larger store wins; equal stores draw.
//!
//! # Options
//! `Pits` (default 6, 1..=12) and `Seeds` (default 4, 1..=10). The bounds keep the total number of
//! seeds at most 2·12·10 = 240, so every pit and store fits a `u8` whatever happens; `parse_fen`
//! enforces the same invariant (at most 255 seeds in all).
//!
//! # State
//! The board is a ring of `2m + 2` counters in counter-clockwise (sowing) order, the layout of the
//! golden file `kalah64_positions.txt`: South's pits `s1..sm` (South's pit `k` is `s(m+1-k)`),
//! South's store, North's pits `n1..nm` (North's pit `k` is `n(m+1-k)`), North's store. South is
//! the first player (J1, `Side::First`), North the second (J2, `Side::Second`).
//!
//! # FEN
//! `s1,…,sm:S/n1,…,nm:N side` — South's pits in ring order, `:`, South's store, `/`, North's pits
//! in ring order, `:`, North's store, one space, the side to move `S` or `N`. The start position
//! of Kalah(6, 4) is `4,4,4,4,4,4:0/4,4,4,4,4,4:0 S`. Both halves must hold the same number of
//! pits (1..=12, which fixes `m`, independently of the `Pits` option); counts are decimal
//! integers without sign; all seeds together must not exceed 255. A position where one side's
//! pits are empty but the other's are not is over by the rules, so parsing banks the remaining
//! seeds (as the move that led there would have); every position `format_fen` produces
//! round-trips exactly.

mod eval;

use std::fmt::Write as _;

use arrayvec::ArrayVec;

use crate::core::game::{EvalTerm, Game, Outcome, Side, VariantOption};

/// Largest number of pits per side.
pub const MAX_PITS: usize = 12;
/// Largest ring: `MAX_PITS` pits and one store per side.
const MAX_RING: usize = 2 * MAX_PITS + 2;
/// Largest number of seeds per pit at the start (see the module docs for why).
pub const MAX_SEEDS: usize = 10;

const _: () = assert!(2 * MAX_PITS * MAX_SEEDS <= u8::MAX as usize);

/// A move: the mover's pit number `1..=m` (1 is next to the mover's own store).
pub type MancalaMove = u8;

/// The legal moves: at most one per own pit, so `MAX_PITS` is enough.
pub type MancalaMoves = ArrayVec<MancalaMove, MAX_PITS>;

/// Variant parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MancalaConfig {
    /// Pits per side (`m`).
    pub pits: u8,
    /// Seeds per pit at the start (`n`).
    pub seeds: u8,
}

impl Default for MancalaConfig {
    fn default() -> Self {
        MancalaConfig { pits: 6, seeds: 4 }
    }
}

/// One Kalah position. 28 bytes, `Copy`; `apply` is copy-make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mancala {
    /// The ring (see the module docs); entries from `2m + 2` on are always zero.
    board: [u8; MAX_RING],
    /// `m`, pits per side.
    pits: u8,
    /// Side to move: 0 South (first player), 1 North.
    side: u8,
}

impl Mancala {
    /// Pits per side.
    #[inline]
    pub fn pits(&self) -> usize {
        self.pits as usize
    }

    /// Ring index of `side`'s first pit (`s1` or `n1`).
    #[inline]
    fn base(&self, side: Side) -> usize {
        match side {
            Side::First => 0,
            Side::Second => self.pits() + 1,
        }
    }

    /// Ring index of `side`'s store.
    #[inline]
    fn store_index(&self, side: Side) -> usize {
        self.base(side) + self.pits()
    }

    /// Ring index of `side`'s pit `pit` (1..=m, course numbering).
    #[inline]
    fn pit_index(&self, side: Side, pit: usize) -> usize {
        self.base(side) + self.pits() - pit
    }

    /// Seeds in `side`'s pit `pit` (1..=m, course numbering; 1 is next to the store).
    pub fn seeds_at(&self, side: Side, pit: usize) -> u8 {
        if pit == 0 || pit > self.pits() {
            return 0;
        }
        self.board[self.pit_index(side, pit)]
    }

    /// The whole ring in sowing order (`s1..sm S n1..nm N`, the fen/golden layout); the exact
    /// solver reads its table keys from it.
    pub fn ring(&self) -> &[u8] {
        &self.board[..2 * self.pits() + 2]
    }

    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        self.board[self.store_index(side)]
    }

    /// `side`'s pits in ring order (`s1..sm` or `n1..nm`).
    #[inline]
    fn row(&self, side: Side) -> &[u8] {
        let b = self.base(side);
        &self.board[b..b + self.pits()]
    }

    /// Seeds in `side`'s pits (not its store).
    pub fn pit_seeds(&self, side: Side) -> u32 {
        self.row(side).iter().map(|&x| u32::from(x)).sum()
    }

    /// All seeds on the board (pits and stores).
    pub fn total_seeds(&self) -> u32 {
        self.board.iter().map(|&x| u32::from(x)).sum()
    }

    /// Ring index of the mover-relative position `t` (0..2m+1: own pits in ring order, own store,
    /// opponent's pits). The opponent's store has no relative index: sowing never reaches it.
    #[inline]
    fn rel(&self, base: usize, t: usize) -> usize {
        let i = base + t;
        let n = 2 * self.pits() + 2;
        if i >= n { i - n } else { i }
    }

    /// Where the last seed of the mover's pit at relative index `t0` lands, as a relative index,
    /// and how many full laps (`q`) and leftover seeds (`r`) the sowing has.
    #[inline]
    fn landing(&self, t0: usize, seeds: usize) -> (usize, usize, usize) {
        let lap = 2 * self.pits() + 1;
        let q = seeds / lap;
        let r = seeds % lap;
        let mut tl = t0 + r;
        if tl >= lap {
            tl -= lap;
        }
        (tl, q, r)
    }

    /// The kind of move `pit` is for the side to move: an extra turn, a capture of that many
    /// seeds, or neither. Computed from the sowing arithmetic without playing the move.
    pub fn move_kind(&self, pit: MancalaMove) -> MoveKind {
        let m = self.pits();
        let p = pit as usize;
        if p == 0 || p > m {
            return MoveKind::Quiet;
        }
        let side = self.side_to_move();
        let base = self.base(side);
        let t0 = m - p;
        let s = self.board[base + t0] as usize;
        if s == 0 {
            return MoveKind::Quiet;
        }
        let (tl, q, r) = self.landing(t0, s);
        if tl == m {
            return MoveKind::ExtraTurn;
        }
        if tl > m {
            return MoveKind::Quiet;
        }
        // The landing pit ends with exactly one seed only if it was empty and no full lap
        // passed, or it is the emptied origin itself after exactly one lap.
        let landing_after = if r == 0 {
            q
        } else {
            self.board[base + tl] as usize + q + 1
        };
        if landing_after != 1 {
            return MoveKind::Quiet;
        }
        // The leftover seeds reach the opponent's pits only when they wrap past the own store,
        // and then they cover every opponent pit (the origin lies before them).
        let facing = 2 * m - tl;
        let facing_after =
            self.board[self.rel(base, facing)] as usize + q + usize::from(t0 + r > 2 * m);
        if facing_after == 0 {
            MoveKind::Quiet
        } else {
            MoveKind::Capture((facing_after + 1) as u32)
        }
    }

    /// Banks each side's pits into its own store (the end-of-game sweep).
    fn sweep(&mut self) {
        let m = self.pits();
        for side in [Side::First, Side::Second] {
            let b = self.base(side);
            let sum: u8 = self.board[b..b + m].iter().sum();
            self.board[b..b + m].fill(0);
            self.board[b + m] += sum;
        }
    }

    /// Is either side's row empty (the game is over once the sweep is done)?
    #[inline]
    fn row_empty(&self, side: Side) -> bool {
        self.row(side).iter().all(|&x| x == 0)
    }

    fn side_char(side: Side) -> char {
        match side {
            Side::First => 'S',
            Side::Second => 'N',
        }
    }
}

/// What a move does besides sowing (see [`Mancala::move_kind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// The last seed lands in the own store: the mover moves again.
    ExtraTurn,
    /// The last seed captures this many seeds (itself plus the facing pit).
    Capture(u32),
    /// Neither.
    Quiet,
}

/// Parses one seed count of a fen.
fn parse_count(tok: &str, what: &str) -> Result<u8, String> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what}: '{tok}' is not a seed count"));
    }
    tok.parse::<u8>()
        .map_err(|_| format!("{what}: '{tok}' is more than 255 seeds"))
}

/// Parses one half `p1,…,pm:store` of a fen.
fn parse_half(half: &str, who: &str) -> Result<(ArrayVec<u8, MAX_PITS>, u8), String> {
    let (pits, store) = half
        .split_once(':')
        .ok_or_else(|| format!("{who}'s half '{half}' lacks ':' before the store"))?;
    let store = parse_count(store, &format!("{who}'s store"))?;
    let mut row = ArrayVec::new();
    for tok in pits.split(',') {
        let v = parse_count(tok, &format!("{who}'s pit"))?;
        row.try_push(v)
            .map_err(|_| format!("{who} has more than {MAX_PITS} pits"))?;
    }
    Ok((row, store))
}

impl Game for Mancala {
    type Move = MancalaMove;
    type Moves = MancalaMoves;
    type Config = MancalaConfig;

    const NAME: &'static str = "mancala";
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption {
            name: "Pits",
            default: 6,
            min: 1,
            max: MAX_PITS as i64,
        },
        VariantOption {
            name: "Seeds",
            default: 4,
            min: 1,
            max: MAX_SEEDS as i64,
        },
    ];
    const HEURISTICS: &'static [&'static str] = &["default", "test", "seed"];

    fn configure(values: &[i64]) -> Result<MancalaConfig, String> {
        if values.len() != Self::OPTIONS.len() {
            return Err(format!(
                "mancala takes {} option values, got {}",
                Self::OPTIONS.len(),
                values.len()
            ));
        }
        for (o, &v) in Self::OPTIONS.iter().zip(values) {
            if v < o.min || v > o.max {
                return Err(format!(
                    "option {} = {v} is outside {}..={}",
                    o.name, o.min, o.max
                ));
            }
        }
        Ok(MancalaConfig {
            pits: values[0] as u8,
            seeds: values[1] as u8,
        })
    }

    fn start(config: &MancalaConfig) -> Self {
        // Clamp so that a hand-built config can never break the u8 invariant.
        let m = (config.pits as usize).clamp(1, MAX_PITS);
        let n = (config.seeds as usize).clamp(1, MAX_SEEDS) as u8;
        let mut board = [0u8; MAX_RING];
        board[..m].fill(n);
        board[m + 1..2 * m + 1].fill(n);
        Mancala {
            board,
            pits: m as u8,
            side: 0,
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        Side::from_index(self.side as usize)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MancalaMoves) {
        // Invariant: after every move (and after parse_fen) either both rows hold seeds or the
        // game is over and both are empty, so the mover's row alone decides.
        let row = self.row(self.side_to_move());
        let m = row.len();
        for p in 1..=m {
            if row[m - p] != 0 {
                out.push(p as u8);
            }
        }
    }

    #[inline]
    fn apply(&self, pit: MancalaMove) -> Self {
        let mut s = *self;
        let m = self.pits();
        let n = 2 * m + 2;
        let lap = n - 1;
        let side = self.side_to_move();
        let base = self.base(side);
        let t0 = m - pit as usize;
        let origin = base + t0;
        let seeds = s.board[origin] as usize;
        s.board[origin] = 0;
        let q = seeds / lap;
        let r = seeds % lap;
        if q > 0 {
            // Full laps: every position but the opponent's store gets q seeds in bulk.
            let q = q as u8;
            let opp_store = self.store_index(side.other());
            for (i, x) in s.board[..n].iter_mut().enumerate() {
                if i != opp_store {
                    *x += q;
                }
            }
        }
        // Leftover seeds: relative positions t0+1..=t0+r (r < lap, so at most one wrap of the
        // relative ring), added as contiguous runs rather than seed by seed.
        if r > 0 {
            let a = t0 + 1;
            let b = t0 + r;
            if b < lap {
                add_rel_run(&mut s.board, base, n, a, b);
            } else {
                add_rel_run(&mut s.board, base, n, a, lap - 1);
                add_rel_run(&mut s.board, base, n, 0, b - lap);
            }
        }
        let (tl, _, _) = self.landing(t0, seeds);
        if tl != m {
            if tl < m {
                let li = base + tl;
                let fi = self.rel(base, 2 * m - tl);
                if s.board[li] == 1 && s.board[fi] > 0 {
                    let gain = s.board[fi] + 1;
                    s.board[li] = 0;
                    s.board[fi] = 0;
                    s.board[base + m] += gain;
                }
            }
            s.side ^= 1;
        }
        if s.row_empty(Side::First) || s.row_empty(Side::Second) {
            s.sweep();
        }
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        if !(self.row_empty(Side::First) || self.row_empty(Side::Second)) {
            return None;
        }
        // Positions are swept already (apply and parse_fen guarantee it); counting the pits
        // keeps this right even if they were not.
        let south = u32::from(self.store(Side::First)) + self.pit_seeds(Side::First);
        let north = u32::from(self.store(Side::Second)) + self.pit_seeds(Side::Second);
        Some(match south.cmp(&north) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        // Pack the 28 bytes of state into four words and mix each (splitmix64 finaliser) into a
        // running value, so every pit, both stores, the side and the pit count all matter.
        let mut bytes = [0u8; 32];
        bytes[..MAX_RING].copy_from_slice(&self.board);
        bytes[MAX_RING] = self.pits;
        bytes[MAX_RING + 1] = self.side;
        let mut h: u64 = 0x243F_6A88_85A3_08D3;
        for chunk in bytes.chunks_exact(8) {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            h = mix64(h ^ u64::from_le_bytes(w));
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<MancalaMove, String> {
        let t = text.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "'{text}' is not a pit number (expected 1..={})",
                self.pits()
            ));
        }
        let m = self.pits();
        let p: usize = match t.parse() {
            Ok(p) => p,
            Err(_) => usize::MAX,
        };
        if p == 0 || p > m {
            return Err(format!("pit {t} is out of range 1..={m}"));
        }
        if self.outcome().is_some() {
            return Err(format!("the game is over, pit {p} cannot be played"));
        }
        if self.seeds_at(self.side_to_move(), p) == 0 {
            return Err(format!("pit {p} is empty"));
        }
        Ok(p as u8)
    }

    fn format_move(&self, m: MancalaMove) -> String {
        m.to_string()
    }

    fn format_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for side in [Side::First, Side::Second] {
            if side == Side::Second {
                s.push('/');
            }
            for (i, x) in self.row(side).iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                let _ = write!(s, "{x}");
            }
            let _ = write!(s, ":{}", self.store(side));
        }
        s.push(' ');
        s.push(Self::side_char(self.side_to_move()));
        s
    }

    fn parse_fen(text: &str, _config: &MancalaConfig) -> Result<Self, String> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or("empty fen")?;
        let side = fields
            .next()
            .ok_or_else(|| format!("fen '{text}' lacks the side to move (S or N)"))?;
        if let Some(extra) = fields.next() {
            return Err(format!("unexpected '{extra}' after the side to move"));
        }
        let side = match side {
            "S" => 0,
            "N" => 1,
            other => return Err(format!("side to move '{other}' is not S or N")),
        };
        let (south, north) = board
            .split_once('/')
            .ok_or_else(|| format!("board '{board}' lacks '/' between South and North"))?;
        let (srow, sstore) = parse_half(south, "South")?;
        let (nrow, nstore) = parse_half(north, "North")?;
        if srow.len() != nrow.len() {
            return Err(format!(
                "South has {} pits but North has {}",
                srow.len(),
                nrow.len()
            ));
        }
        let total: u32 = srow
            .iter()
            .chain(nrow.iter())
            .map(|&x| u32::from(x))
            .sum::<u32>()
            + u32::from(sstore)
            + u32::from(nstore);
        if total > 255 {
            return Err(format!("{total} seeds in all, at most 255 are supported"));
        }
        let m = srow.len();
        let mut b = [0u8; MAX_RING];
        b[..m].copy_from_slice(&srow);
        b[m] = sstore;
        b[m + 1..2 * m + 1].copy_from_slice(&nrow);
        b[2 * m + 1] = nstore;
        let mut s = Mancala {
            board: b,
            pits: m as u8,
            side,
        };
        if s.row_empty(Side::First) || s.row_empty(Side::Second) {
            s.sweep();
        }
        Ok(s)
    }

    fn display(&self) -> String {
        let m = self.pits();
        let mut out = String::new();
        let cell = |v: usize| format!("{v:>4}");
        // North on top, seen from South: North's pit 1 (next to North's store) is on the left.
        let _ = write!(out, "North pit ");
        for p in 1..=m {
            out.push_str(&cell(p));
        }
        out.push('\n');
        let _ = write!(out, "          ");
        for p in 1..=m {
            out.push_str(&cell(self.seeds_at(Side::Second, p) as usize));
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "N store{:>3}{}{:>4}  S store",
            self.store(Side::Second),
            " ".repeat(4 * m),
            self.store(Side::First)
        );
        let _ = write!(out, "          ");
        for p in (1..=m).rev() {
            out.push_str(&cell(self.seeds_at(Side::First, p) as usize));
        }
        out.push('\n');
        let _ = write!(out, "South pit ");
        for p in (1..=m).rev() {
            out.push_str(&cell(p));
        }
        out.push('\n');
        let who = match self.outcome() {
            Some(Outcome::Win(Side::First)) => "game over, South wins".to_string(),
            Some(Outcome::Win(Side::Second)) => "game over, North wins".to_string(),
            Some(Outcome::Draw) => "game over, draw".to_string(),
            None => match self.side_to_move() {
                Side::First => "South (J1) to move".to_string(),
                Side::Second => "North (J2) to move".to_string(),
            },
        };
        let _ = writeln!(out, "{who}");
        let _ = write!(out, "fen: {}", self.format_fen());
        out
    }

    fn evaluate(&self, heuristic: usize, perspective: Side) -> i32 {
        eval::evaluate(self, heuristic, perspective)
    }

    fn eval_terms(&self, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        eval::eval_terms(self, heuristic, perspective)
    }

    fn move_order_hint(&self, m: MancalaMove) -> i32 {
        match self.move_kind(m) {
            MoveKind::ExtraTurn => 1000,
            MoveKind::Capture(c) => 100 + c as i32,
            MoveKind::Quiet => 0,
        }
    }
}

/// Adds one seed to each mover-relative position `a..=b` (`a <= b < 2m + 1`). Relative index `t`
/// is ring index `base + t`, wrapping at `n`; the run is split at the wrap into at most two
/// contiguous slices.
#[inline]
fn add_rel_run(board: &mut [u8; MAX_RING], base: usize, n: usize, a: usize, b: usize) {
    let wrap = n - base; // first relative index that wraps to ring index 0
    if a < wrap {
        for x in &mut board[base + a..=base + b.min(wrap - 1)] {
            *x += 1;
        }
    }
    if b >= wrap {
        for x in &mut board[a.max(wrap) + base - n..=b + base - n] {
            *x += 1;
        }
    }
}

/// The splitmix64 finaliser: a cheap bijective mix with full avalanche.
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
