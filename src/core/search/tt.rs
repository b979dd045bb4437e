//! The transposition table: a fixed-size array of 16-byte entries sized in MiB by the `Hash`
//! option, with a search generation so that every search starts from an empty table in effect
//! (this keeps node counts reproducible) without paying for a clear.
//!
//! An entry stores the best move as its *index in the position's legal-move list*: move
//! generation is deterministic, so the index identifies the move for any game without the table
//! knowing the game's move type.

use std::thread::JoinHandle;

use crate::core::mem::advise_huge_pages;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the exact value.
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

/// A copy of one table entry, returned by [`TranspositionTable::probe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Score in TT form (see `score::to_tt`).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    pub bound: Bound,
    /// Index of the best move in the legal-move list, if one is known.
    pub move_index: Option<u16>,
    /// The selective-extension plies left below the node (0 where the game does not extend).
    /// A score holds only for the same depth *and* plies left; the move is a good first try
    /// whatever they are, which is why they are not part of the key.
    pub left: u8,
}

/// One slot, packed into two words so that a fresh table is all zero bits and can be
/// allocated zeroed (the OS maps pages lazily: start-up is instant and untouched memory costs
/// nothing).
/// - word 0: bits 0-31 the low 32 bits of the key (the high bits chose the slot), bits 32-63
///   the score;
/// - word 1: bits 0-15 generation, 16-23 depth, 24-31 bound (0 = empty, 1 exact, 2 lower,
///   3 upper), 32-47 move index + 1 (0 = none; 16 bits, as 5-en-Raya's largest board has 361
///   moves), 48-55 extension plies left.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Slot([u64; 2]);

impl Slot {
    #[inline]
    fn key(self) -> u32 {
        self.0[0] as u32
    }
    #[inline]
    fn score(self) -> i32 {
        (self.0[0] >> 32) as u32 as i32
    }
    #[inline]
    fn generation(self) -> u16 {
        self.0[1] as u16
    }
    #[inline]
    fn depth(self) -> u8 {
        (self.0[1] >> 16) as u8
    }
    #[inline]
    fn bound(self) -> u8 {
        (self.0[1] >> 24) as u8
    }
    #[inline]
    fn mv(self) -> u16 {
        (self.0[1] >> 32) as u16
    }
    #[inline]
    fn left(self) -> u8 {
        (self.0[1] >> 48) as u8
    }
    #[inline]
    fn pack(key: u32, generation: u16, e: &TtEntry, bound: u8, mv: u16) -> Slot {
        Slot([
            u64::from(key) | (u64::from(e.score as u32) << 32),
            u64::from(generation)
                | (u64::from(e.depth) << 16)
                | (u64::from(bound) << 24)
                | (u64::from(mv) << 32)
                | (u64::from(e.left) << 48),
        ])
    }
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

/// The table. Sized at construction; `resize` reallocates.
pub struct TranspositionTable {
    slots: Vec<[u64; 2]>,
    /// The table being allocated and touched by a background thread (see `new`).
    pending: Option<JoinHandle<Vec<[u64; 2]>>>,
    generation: u16,
    /// Whether anything may have been written since the table was made or cleared: `clear`
    /// (every `ucinewgame`) skips zeroing an untouched table, which for a player that never
    /// searches (the random player) cost two 64 MiB fills per refereed game.
    dirty: bool,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one entry). The memory is allocated zeroed and
    /// touched page by page on a background thread: on this VM a first touch costs several
    /// microseconds per 4 KiB page, so a first search on an untouched 64 MiB table spent more
    /// time in page faults (~100 ms) than searching. The first search waits for that thread if
    /// it is still running (before its clock starts).
    pub fn new(mib: usize) -> Self {
        let n = (mib.saturating_mul(1 << 20) / 16).max(1);
        let prefault = move || {
            // `vec![[0u64; 2]; n]` allocates zeroed memory (mapped lazily by the OS).
            let mut v = vec![[0u64; 2]; n];
            advise_huge_pages(v.as_ptr() as usize, std::mem::size_of_val(v.as_slice()));
            // One write per 4 KiB page maps it now. `black_box` hides that the memory is
            // already zero, so the stores are not optimised away.
            let pages = std::hint::black_box(&mut v[..]);
            for i in (0..pages.len()).step_by(256) {
                pages[i] = [0, 0];
            }
            v
        };
        match std::thread::Builder::new()
            .name("tt-prefault".into())
            .spawn(prefault)
        {
            Ok(handle) => TranspositionTable {
                slots: Vec::new(),
                pending: Some(handle),
                generation: 1,
                dirty: false,
            },
            // No thread available: do it here.
            Err(_) => TranspositionTable {
                slots: prefault(),
                pending: None,
                generation: 1,
                dirty: false,
            },
        }
    }

    /// Waits for the background allocation (a no-op once done).
    pub fn ready(&mut self) {
        if let Some(h) = self.pending.take() {
            self.slots = h.join().unwrap_or_else(|_| vec![[0u64; 2]; 1]);
        }
    }

    /// Number of entries.
    pub fn len(&mut self) -> usize {
        self.ready();
        self.slots.len()
    }

    /// True if the table has no entries (never: the constructor makes at least one).
    pub fn is_empty(&mut self) -> bool {
        self.len() == 0
    }

    /// Starts a new search: every entry written before becomes invisible.
    pub fn new_search(&mut self) {
        self.ready();
        self.dirty = true;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The counter wrapped: old generations could match again, so clear for real.
            self.slots.fill([0; 2]);
            self.generation = 1;
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.generation = 1;
        if !self.dirty {
            return;
        }
        self.ready();
        self.slots.fill([0; 2]);
        self.dirty = false;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key` written during the current search, if any. Call `new_search` (or
    /// `ready`) first.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let s = Slot(self.slots[self.index(key)]);
        if s.key() != key as u32 || s.generation() != self.generation || s.bound() == 0 {
            return None;
        }
        Some(TtEntry {
            score: s.score(),
            depth: s.depth(),
            bound: match s.bound() {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            move_index: s.mv().checked_sub(1),
            left: s.left(),
        })
    }

    /// Stores a result. Entries of older searches are always replaced; within a search a deeper
    /// or exact result replaces a shallower one.
    #[inline]
    pub fn store(&mut self, key: u64, entry: TtEntry) {
        self.dirty = true;
        let i = self.index(key);
        let generation = self.generation;
        let s = Slot(self.slots[i]);
        let same = s.key() == key as u32 && s.generation() == generation && s.bound() != 0;
        let replace = s.generation() != generation
            || s.bound() == 0
            || same
            || entry.depth >= s.depth()
            || entry.bound == Bound::Exact;
        if !replace {
            return;
        }
        // Keep a known best move when the new result (a fail-low) has none.
        let mv = match entry.move_index {
            Some(m) => m.saturating_add(1),
            None if same => s.mv(),
            None => 0,
        };
        let bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.slots[i] = Slot::pack(key as u32, generation, &entry, bound, mv).0;
    }

    /// Permille of entries used by the current search (sampled over the first 1000 slots).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|&&w| Slot(w).bound() != 0 && Slot(w).generation() == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_and_generation_hide_old_entries() {
        let mut tt = TranspositionTable::new(1);
        tt.new_search();
        let e = TtEntry {
            score: -42,
            depth: 5,
            bound: Bound::Lower,
            move_index: Some(3),
            left: 2,
        };
        tt.store(0xdead_beef, e);
        assert_eq!(tt.probe(0xdead_beef), Some(e));
        assert_eq!(tt.probe(0xdead_bee0), None);
        tt.new_search();
        assert_eq!(
            tt.probe(0xdead_beef),
            None,
            "a new search must not see old entries"
        );
        tt.store(
            7,
            TtEntry {
                move_index: None,
                ..e
            },
        );
        assert_eq!(tt.probe(7).unwrap().move_index, None);
    }

    #[test]
    fn move_indices_past_255_and_the_plies_left_keep_apart() {
        let mut tt = TranspositionTable::new(1);
        tt.new_search();
        for (key, mi, left) in [(11, 360, 0), (12, 255, 255), (13, 256, 7), (14, 65_534, 1)] {
            let e = TtEntry {
                score: 9,
                depth: 3,
                bound: Bound::Exact,
                move_index: Some(mi),
                left,
            };
            tt.store(key, e);
            assert_eq!(tt.probe(key), Some(e), "index {mi}, left {left}");
        }
    }

    #[test]
    fn size_follows_mebibytes() {
        let mut tt = TranspositionTable::new(2);
        assert_eq!(tt.len() * 16, 2 << 20);
    }
}
