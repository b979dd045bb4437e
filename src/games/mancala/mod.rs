//! Mancala as played in the course: Kalah(m, n) with `m` pits per side and `n` seeds per pit
//! (the course plays Kalah(6, 4)). Rules: `docs/rules/mancala.md`, summarised here:
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
//! Positions are described in the ring order of the golden file `kalah64_positions.txt`
//! (counter-clockwise, the sowing order): South's pits `s1..sm` (South's pit `k` is
//! `s(m+1-k)`), South's store, North's pits `n1..nm` (North's pit `k` is `n(m+1-k)`), North's
//! store. South is the first player (J1, `Side::First`), North the second (J2, `Side::Second`).
//!
//! Internally each side's half (`m` pits in ring order, then the store) is one 16-byte row, and
//! the rows are kept relative to the side to move: `rows[0]` is the mover's, `rows[1]` the other
//! side's. Handing the turn over swaps the rows, and sowing is a few whole-row additions of byte
//! masks (SWAR on `u128`): the mover's pits after the origin and store, the opponent's pits, and
//! any wrap back into the mover's pits; full laps add `q` to every position at once. No byte ever
//! carries into its neighbour because no counter can exceed the total of at most 255 seeds.
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

pub mod endgame;
mod eval;
pub mod kalah_board;

use std::fmt::Write as _;

use arrayvec::ArrayVec;

use crate::core::game::{
    BenchPosition, FenError, Game, Hue, Ink, LabelKind, LearnPlan, MoveError, Outcome, Positions,
    Profile, ReviewCalibration, Side, VariantOption,
};

/// Largest number of pits per side.
pub const MAX_PITS: usize = 12;
/// Bytes of one side's row: up to `MAX_PITS` pits and the store, padded to a `u128`.
const ROW_BYTES: usize = 16;
/// Seeds in the pits per move a side still makes ([`Game::moves_left`]): 16 moves at the start,
/// as self-play games last about 30 plies (15 a side; see docs/matches.md, "Clock play").
const MOVES_LEFT_SEEDS: u32 = 3;

const _: () = assert!(MAX_PITS < ROW_BYTES);

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
    /// `rows[0]`: the side to move, `rows[1]`: the other side. Each holds its `m` pits in ring
    /// order (bytes `0..m`), its store (byte `m`), zeros after.
    rows: [[u8; ROW_BYTES]; 2],
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

    /// `side`'s row (pits in ring order, then the store).
    #[inline]
    fn row(&self, side: Side) -> &[u8; ROW_BYTES] {
        &self.rows[usize::from(side.index() as u8 != self.side)]
    }

    /// Seeds in `side`'s pit `pit` (1..=m, course numbering; 1 is next to the store); 0 for a
    /// pit number out of range.
    pub fn seeds_at(&self, side: Side, pit: usize) -> u8 {
        if pit == 0 || pit > self.pits() {
            return 0;
        }
        self.row(side)[self.pits() - pit]
    }

    /// The whole ring in sowing order (`s1..sm S n1..nm N`, the fen/golden layout); the exact
    /// solver reads its table keys from it.
    /// Only the first `2m + 2` bytes are meaningful.
    pub fn ring(&self) -> [u8; 2 * ROW_BYTES] {
        let m = self.pits();
        let mut out = [0u8; 2 * ROW_BYTES];
        out[..=m].copy_from_slice(&self.row(Side::First)[..=m]);
        out[m + 1..2 * m + 2].copy_from_slice(&self.row(Side::Second)[..=m]);
        out
    }

    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        self.row(side)[self.pits()]
    }

    /// Seeds in `side`'s pits (not its store).
    #[inline]
    pub fn pit_seeds(&self, side: Side) -> u32 {
        byte_sum(u128::from_le_bytes(*self.row(side)) & pit_mask(self.pits()))
    }

    /// All seeds on the board (pits and stores).
    #[inline]
    pub fn total_seeds(&self) -> u32 {
        byte_sum(u128::from_le_bytes(self.rows[0])) + byte_sum(u128::from_le_bytes(self.rows[1]))
    }

    /// Is either side's row of pits empty (then the game is over, or must be swept)?
    #[inline]
    fn any_row_empty(&self) -> bool {
        let pm = pit_mask(self.pits());
        u128::from_le_bytes(self.rows[0]) & pm == 0 || u128::from_le_bytes(self.rows[1]) & pm == 0
    }

    /// Where the last seed of the pit at mover-relative index `t0` lands, as a relative index
    /// (`0..m` own pits, `m` own store, `m+1..=2m` opponent's pits `0..m`), and how many full
    /// laps (`q`) and leftover seeds (`r`) the sowing has. A lap is `2m + 1` positions.
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
        let own = self.row(side);
        let opp = self.row(side.other());
        let t0 = m - p;
        let s = own[t0] as usize;
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
        let landing_after = if r == 0 { q } else { own[tl] as usize + q + 1 };
        if landing_after != 1 {
            return MoveKind::Quiet;
        }
        // The leftover seeds reach the opponent's pits only when they pass the own store, and
        // then (landing back in an own pit) they cover all of them.
        let facing_after = opp[m - 1 - tl] as usize + q + usize::from(t0 + r > 2 * m);
        if facing_after == 0 {
            MoveKind::Quiet
        } else {
            MoveKind::Capture((facing_after + 1) as u32)
        }
    }

    /// Banks each side's pits into its own store (the end-of-game sweep).
    fn sweep(&mut self) {
        let m = self.pits();
        let pm = pit_mask(m);
        for row in &mut self.rows {
            let w = u128::from_le_bytes(*row);
            let banked = u128::from(byte_sum(w & pm)) << (8 * m);
            *row = ((w & !pm) + banked).to_le_bytes();
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
fn parse_count(tok: &str, what: &str) -> Result<u8, FenError> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::Syntax(format!(
            "{what}: '{tok}' is not a seed count"
        )));
    }
    tok.parse::<u8>()
        .map_err(|_| FenError::Syntax(format!("{what}: '{tok}' is more than 255 seeds")))
}

/// Parses one half `p1,…,pm:store` of a fen.
fn parse_half(half: &str, who: &str) -> Result<(ArrayVec<u8, MAX_PITS>, u8), FenError> {
    let (pits, store) = half.split_once(':').ok_or_else(|| {
        FenError::Syntax(format!("{who}'s half '{half}' lacks ':' before the store"))
    })?;
    let store = parse_count(store, &format!("{who}'s store"))?;
    let mut row = ArrayVec::new();
    for tok in pits.split(',') {
        let v = parse_count(tok, &format!("{who}'s pit"))?;
        row.try_push(v)
            .map_err(|_| FenError::Syntax(format!("{who} has more than {MAX_PITS} pits")))?;
    }
    Ok((row, store))
}

impl Game for Mancala {
    type Move = MancalaMove;
    type Moves = MancalaMoves;
    type Config = MancalaConfig;
    type Weights = eval::Weights;

    const NAME: &'static str = "mancala";
    const TITLE: &'static str = "Mancala";
    const ALIASES: &'static [&'static str] = &["kalah"];
    const OPTIONS: &'static [VariantOption] = &[
        VariantOption::spin("Pits", 6, 1, MAX_PITS as i64),
        VariantOption::spin("Seeds", 4, 1, MAX_SEEDS as i64),
    ];
    const HEURISTICS: &'static [&'static str] = &["default", "test", "seed"];
    /// `default` follows a leaf where a side can capture or take an extra turn up to 4 plies
    /// further, never past ply 10: against `seed` at the course's depth 6 it went from 68.8 %
    /// to 79.0 % (docs/learned-evaluations.md, "Following captures past the horizon").
    const EXTENSION_PLIES: u32 = 4;
    const EXTENSION_HORIZON: u32 = 10;
    /// Reviews at depth 12 (most positions are proven by the Kalah solver anyway); `learn` fits the exact final margins (least squares, 100 per seed) at the searches' leaves. The review's curves are fitted on 200 self-play games at the default depth and
    /// 100 one ply shallower (docs/review.md, "Calibration").
    const PROFILE: Profile = Profile {
        bench: &[
            BenchPosition {
                start: "startpos",
                moves: "",
                depth: 12,
            },
            BenchPosition {
                start: "startpos",
                moves: "1 5 6 4 1 2 4 1",
                depth: 12,
            },
            BenchPosition {
                start: "startpos",
                moves: "1 5 6 4 1 2 4 1 5 1 6 5 2 1 4 3 1 2 1 6",
                depth: 14,
            },
        ],
        ladder: [1, 3, 5, 9],
        review_depth: 12,
        review: ReviewCalibration {
            even: (316.9, -10.0),
            odd: (298.3, 1.3),
            inaccuracy: 0.02,
        },
        learn: LearnPlan {
            labels: LabelKind::Exact,
            positions: Positions::Leaves,
            squares_unit: Some(100.0),
            exclude: &["MancalaW_decided", "MancalaW_endgame"],
            fixed: &[],
        },
    };

    fn config_of(values: &[i64]) -> MancalaConfig {
        MancalaConfig {
            pits: values[0] as u8,
            seeds: values[1] as u8,
        }
    }

    fn start(config: &MancalaConfig) -> Self {
        // Clamp so that a hand-built config can never break the u8 invariant.
        let m = (config.pits as usize).clamp(1, MAX_PITS);
        let n = (config.seeds as usize).clamp(1, MAX_SEEDS) as u8;
        let mut row = [0u8; ROW_BYTES];
        row[..m].fill(n);
        Mancala {
            rows: [row, row],
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
        let m = self.pits();
        let row = &self.rows[0];
        for p in 1..=m {
            if row[m - p] != 0 {
                out.push(p as u8);
            }
        }
    }

    #[inline]
    fn apply(&self, pit: MancalaMove) -> Self {
        let m = self.pits();
        let lap = 2 * m + 1;
        let t0 = m - pit as usize;
        let mut own = u128::from_le_bytes(self.rows[0]);
        let mut opp = u128::from_le_bytes(self.rows[1]);
        let seeds = self.rows[0][t0] as usize;
        own &= !(0xFF << (8 * t0));
        let (tl, q, r) = self.landing(t0, seeds);
        if q > 0 {
            // Full laps: every position but the opponent's store gets q seeds, in bulk.
            own += ones(m + 1) * q as u128;
            opp += ones(m) * q as u128;
        }
        if r > 0 {
            // Leftover seeds on relative positions t0+1..=end: own pits and store up to m, the
            // opponent's pits, and (end >= lap) own pits again from 0 — never past the origin,
            // since r < lap.
            let end = t0 + r;
            own += ones(end.min(m) + 1) - ones(t0 + 1);
            if end > m {
                opp += ones((end - m).min(m));
                if end >= lap {
                    own += ones(end - lap + 1);
                }
            }
        }
        if tl < m {
            // Capture: the last seed made an own pit hold exactly one, facing a non-empty pit.
            let shift_l = 8 * tl;
            let shift_f = 8 * (m - 1 - tl);
            let facing = (opp >> shift_f) & 0xFF;
            if (own >> shift_l) & 0xFF == 1 && facing != 0 {
                own &= !(0xFF << shift_l);
                opp &= !(0xFF << shift_f);
                own += (facing + 1) << (8 * m);
            }
        }
        let mut s = *self;
        if tl == m {
            // Extra turn: the same side moves again.
            s.rows = [own.to_le_bytes(), opp.to_le_bytes()];
        } else {
            s.rows = [opp.to_le_bytes(), own.to_le_bytes()];
            s.side ^= 1;
        }
        let pm = pit_mask(m);
        if own & pm == 0 || opp & pm == 0 {
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
        // Two words per row; byte 15 of each row is always zero, so the pit count and the side
        // go there. Each word is mixed (splitmix64 finaliser) into a running value, so every
        // pit, both stores, the side and the pit count all matter.
        let own = u128::from_le_bytes(self.rows[0]) | (u128::from(self.pits) << 120);
        let opp = u128::from_le_bytes(self.rows[1]) | (u128::from(self.side) << 120);
        let mut h: u64 = 0x243F_6A88_85A3_08D3;
        for w in [
            own as u64,
            (own >> 64) as u64,
            opp as u64,
            (opp >> 64) as u64,
        ] {
            h = mix64(h ^ w);
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<MancalaMove, MoveError> {
        let t = text.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveError::Notation(format!(
                "'{text}' is not a pit number (expected 1..={})",
                self.pits()
            )));
        }
        let m = self.pits();
        let p: usize = match t.parse() {
            Ok(p) => p,
            Err(_) => usize::MAX,
        };
        if p == 0 || p > m {
            return Err(MoveError::Notation(format!(
                "pit {t} is out of range 1..={m}"
            )));
        }
        if self.outcome().is_some() {
            return Err(MoveError::Over(format!(
                "the game is over, pit {p} cannot be played"
            )));
        }
        if self.seeds_at(self.side_to_move(), p) == 0 {
            return Err(MoveError::Illegal(format!("pit {p} is empty")));
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
            for (i, x) in self.row(side)[..self.pits()].iter().enumerate() {
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

    fn parse_fen(text: &str, _config: &MancalaConfig) -> Result<Self, FenError> {
        let syntax = FenError::Syntax;
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or_else(|| syntax("empty fen".into()))?;
        let side = fields
            .next()
            .ok_or_else(|| syntax(format!("fen '{text}' lacks the side to move (S or N)")))?;
        if let Some(extra) = fields.next() {
            return Err(syntax(format!(
                "unexpected '{extra}' after the side to move"
            )));
        }
        let side = match side {
            "S" => 0,
            "N" => 1,
            other => return Err(syntax(format!("side to move '{other}' is not S or N"))),
        };
        let (south, north) = board
            .split_once('/')
            .ok_or_else(|| syntax(format!("board '{board}' lacks '/' between South and North")))?;
        let (srow, sstore) = parse_half(south, "South")?;
        let (nrow, nstore) = parse_half(north, "North")?;
        if srow.len() != nrow.len() {
            return Err(FenError::Rules(format!(
                "South has {} pits but North has {}",
                srow.len(),
                nrow.len()
            )));
        }
        let total: u32 = srow
            .iter()
            .chain(nrow.iter())
            .map(|&x| u32::from(x))
            .sum::<u32>()
            + u32::from(sstore)
            + u32::from(nstore);
        if total > 255 {
            return Err(FenError::Rules(format!(
                "{total} seeds in all, at most 255 are supported"
            )));
        }
        let m = srow.len();
        let mut south = [0u8; ROW_BYTES];
        south[..m].copy_from_slice(&srow);
        south[m] = sstore;
        let mut north = [0u8; ROW_BYTES];
        north[..m].copy_from_slice(&nrow);
        north[m] = nstore;
        let rows = if side == 0 {
            [south, north]
        } else {
            [north, south]
        };
        let mut s = Mancala {
            rows,
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

    /// North's rows (the first two lines) blue, South's (the two before the side line) yellow;
    /// the pit played is marked in the mover's pit-number row (the pit itself is empty now).
    fn display_inked(
        &self,
        last: Option<(&str, Side)>,
        ink: &dyn Fn(&str, Ink) -> String,
    ) -> String {
        let text = self.display();
        let mover = last.map(|(_, s)| s);
        let pit: Option<usize> = last.and_then(|(m, _)| m.parse().ok());
        let out: Vec<String> = text
            .trim_end()
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let hue = match i {
                    0 | 1 => Hue::Blue,
                    3 | 4 => Hue::Yellow,
                    _ => return l.to_string(),
                };
                let label_row = (i == 0 && mover == Some(Side::Second))
                    || (i == 4 && mover == Some(Side::First));
                let Some(pit) = pit.filter(|_| label_row) else {
                    return ink(l, Ink::of(hue));
                };
                // The numbers are right-aligned in 4-character cells after a 10-character
                // label; the cell whose number is the pit played is marked.
                let (label, cells) = l.split_at(l.len().min(10));
                let painted: String = cells
                    .as_bytes()
                    .chunks(4)
                    .map(|c| {
                        let c = String::from_utf8_lossy(c);
                        if c.trim() == pit.to_string() {
                            let pad = c.len() - c.trim_start().len();
                            ink(&c[..pad], Ink::of(hue))
                                + &ink(&c[pad..], Ink { hue, marked: true })
                        } else {
                            ink(&c, Ink::of(hue))
                        }
                    })
                    .collect();
                ink(label, Ink::of(hue)) + &painted
            })
            .collect();
        out.join("\n")
    }

    /// About one move for every MOVES_LEFT_SEEDS seeds still in the pits (a game ends when
    /// one side's pits run dry; the seeds that sowing banks are what shortens it).
    fn moves_left(&self) -> u32 {
        let pits = self.pit_seeds(Side::First) + self.pit_seeds(Side::Second);
        pits.div_ceil(MOVES_LEFT_SEEDS).max(1)
    }

    /// `default` only: `test` and `seed` stay the course's plain minimax.
    fn unquiet(&self, heuristic: usize) -> bool {
        heuristic == 0 && eval::unquiet(self)
    }

    fn move_order_hint(&self, m: MancalaMove) -> i32 {
        match self.move_kind(m) {
            MoveKind::ExtraTurn => 1000,
            MoveKind::Capture(c) => 100 + c as i32,
            MoveKind::Quiet => 0,
        }
    }
}

/// 0x01 in each of bytes `0..k` of a row (`k <= m + 1 <= 13`).
#[inline]
fn ones(k: usize) -> u128 {
    const ONES: u128 = u128::from_le_bytes([1; ROW_BYTES]);
    ONES & ((1u128 << (8 * k)) - 1)
}

/// 0xFF in the `m` pit bytes of a row.
#[inline]
fn pit_mask(m: usize) -> u128 {
    ones(m) * 0xFF
}

/// The sum of the 16 bytes of `x`, provided it is at most 255 (always true here: it counts
/// seeds). Multiplying by 0x0101…01 accumulates every byte into the top one.
#[inline]
fn byte_sum(x: u128) -> u32 {
    const ONES: u128 = u128::from_le_bytes([1; ROW_BYTES]);
    (x.wrapping_mul(ONES) >> 120) as u32
}

/// The splitmix64 finaliser: a cheap bijective mix with full avalanche.
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
