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
/// The ring is padded to 32 bytes so that it is exactly two `u128` words: sowing adds whole
/// byte masks to them (SWAR). No byte ever carries into its neighbour because no counter can
/// exceed the total number of seeds, which is at most 255.
const BOARD_BYTES: usize = 32;

const _: () = assert!(MAX_RING <= BOARD_BYTES);
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

/// One Kalah position. 34 bytes, `Copy`; `apply` is copy-make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mancala {
    /// The ring (see the module docs); entries from `2m + 2` on are always zero.
    board: [u8; BOARD_BYTES],
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
    #[inline]
    pub fn pit_seeds(&self, side: Side) -> u32 {
        let (lo, hi) = self.words();
        let (ml, mh) = self.row_mask(side);
        byte_sum(lo & ml) + byte_sum(hi & mh)
    }

    /// All seeds on the board (pits and stores).
    #[inline]
    pub fn total_seeds(&self) -> u32 {
        let (lo, hi) = self.words();
        byte_sum(lo) + byte_sum(hi)
    }

    /// The board as two little-endian words (bytes 0..16 and 16..32).
    #[inline]
    fn words(&self) -> (u128, u128) {
        let mut lo = [0u8; 16];
        let mut hi = [0u8; 16];
        lo.copy_from_slice(&self.board[..16]);
        hi.copy_from_slice(&self.board[16..]);
        (u128::from_le_bytes(lo), u128::from_le_bytes(hi))
    }

    #[inline]
    fn set_words(&mut self, lo: u128, hi: u128) {
        self.board[..16].copy_from_slice(&lo.to_le_bytes());
        self.board[16..].copy_from_slice(&hi.to_le_bytes());
    }

    /// 0xFF in the bytes of `side`'s pits.
    #[inline]
    fn row_mask(&self, side: Side) -> (u128, u128) {
        let b = self.base(side);
        let (l, h) = run_ones(b, b + self.pits());
        (l * 0xFF, h * 0xFF)
    }

    /// Is either side's row empty (then the game is over, or must be swept)?
    #[inline]
    fn any_row_empty(&self) -> bool {
        let (lo, hi) = self.words();
        let (sl, sh) = self.row_mask(Side::First);
        let (nl, nh) = self.row_mask(Side::Second);
        (lo & sl) | (hi & sh) == 0 || (lo & nl) | (hi & nh) == 0
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
        // Most pits hold less than a lap: skip the division.
        let (q, r) = if seeds < lap {
            (0, seeds)
        } else {
            (seeds / lap, seeds % lap)
        };
        let mut tl = t0 + r;
        if tl >= lap {
            tl -= lap;
        }
        (tl, q, r)
    }

    /// The kind of move `pit` is for the side to move: an extra turn, a capture of that many
    /// seeds, or neither. Computed from the sowing arithmetic without playing the move.
    pub fn move_kind(&self, pit: MancalaMove) -> MoveKind {
        self.move_kind_for(self.side_to_move(), pit)
    }

    /// [`Mancala::move_kind`] for `side`, as if it were to move.
    #[inline]
    pub fn move_kind_for(&self, side: Side, pit: MancalaMove) -> MoveKind {
        let m = self.pits();
        let p = pit as usize;
        if p == 0 || p > m {
            return MoveKind::Quiet;
        }
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
            let sum = self.pit_seeds(side) as u8; // at most 255 seeds in all
            let b = self.base(side);
            self.board[b..b + m].fill(0);
            self.board[b + m] += sum;
        }
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
        let mut board = [0u8; BOARD_BYTES];
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
        let (tl, q, r) = self.landing(t0, seeds);
        let (mut lo, mut hi) = s.words();
        if q > 0 {
            // Full laps: every position but the opponent's store gets q seeds, in bulk.
            let opp_store = self.store_index(side.other());
            let (al, ah) = run_ones(0, n);
            let (ol, oh) = run_ones(opp_store, opp_store + 1);
            lo += (al - ol) * q as u128;
            hi += (ah - oh) * q as u128;
        }
        if r > 0 {
            // Leftover seeds: mover-relative positions t0+1..=t0+r, which wrap the relative
            // ring (length `lap`) at most once since t0 < m and r <= 2m.
            let (a, b) = (t0 + 1, t0 + r);
            let (ml, mh) = if b < lap {
                rel_run(base, n, a, b)
            } else {
                let (l1, h1) = rel_run(base, n, a, lap - 1);
                let (l2, h2) = rel_run(base, n, 0, b - lap);
                (l1 | l2, h1 | h2)
            };
            lo += ml;
            hi += mh;
        }
        s.set_words(lo, hi);
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
        if s.any_row_empty() {
            s.sweep();
        }
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.any_row_empty() {
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
        let (lo, hi) = self.words();
        // Bytes 26..32 of the board are always zero: put the pit count and side there.
        let hi = hi ^ (u128::from(self.pits) << 112) ^ (u128::from(self.side) << 120);
        let mut h: u64 = 0x243F_6A88_85A3_08D3;
        for w in [lo as u64, (lo >> 64) as u64, hi as u64, (hi >> 64) as u64] {
            h = mix64(h ^ w);
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
        let mut b = [0u8; BOARD_BYTES];
        b[..m].copy_from_slice(&srow);
        b[m] = sstore;
        b[m + 1..2 * m + 1].copy_from_slice(&nrow);
        b[2 * m + 1] = nstore;
        let mut s = Mancala {
            board: b,
            pits: m as u8,
            side,
        };
        if s.any_row_empty() {
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

/// 0x01 in bytes `a..b` of the 32-byte board, as (bytes 0..16, bytes 16..32); `a <= b <= 32`.
#[inline]
fn run_ones(a: usize, b: usize) -> (u128, u128) {
    let (l1, h1) = prefix_ones(b);
    let (l0, h0) = prefix_ones(a);
    (l1 - l0, h1 - h0)
}

/// 0x01 in bytes `0..k` of the 32-byte board (`k <= 32`).
#[inline]
fn prefix_ones(k: usize) -> (u128, u128) {
    const ONES: u128 = u128::from_le_bytes([1; 16]);
    let half = |k: usize| {
        if k >= 16 {
            ONES
        } else {
            ONES & ((1u128 << (8 * k)) - 1)
        }
    };
    (half(k), half(k.saturating_sub(16)))
}

/// The sum of the 16 bytes of `x`, provided it is at most 255 (always true here: it counts
/// seeds). Multiplying by 0x0101…01 accumulates every byte into the top one.
#[inline]
fn byte_sum(x: u128) -> u32 {
    const ONES: u128 = u128::from_le_bytes([1; 16]);
    (x.wrapping_mul(ONES) >> 120) as u32
}

/// 0x01 at the ring indices of mover-relative positions `a..=b` (`a <= b < 2m + 1`). Relative
/// index `t` is ring index `base + t`, wrapping at `n`, so the run is at most two byte runs.
#[inline]
fn rel_run(base: usize, n: usize, a: usize, b: usize) -> (u128, u128) {
    let wrap = n - base; // the first relative index that wraps to ring index 0
    if b < wrap {
        run_ones(base + a, base + b + 1)
    } else if a >= wrap {
        run_ones(base + a - n, base + b + 1 - n)
    } else {
        let (l1, h1) = run_ones(base + a, n);
        let (l2, h2) = run_ones(0, base + b + 1 - n);
        (l1 | l2, h1 | h2)
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
