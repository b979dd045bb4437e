//! The transposition table: a fixed-size array of 16-byte entries sized in MiB by the `Hash`
//! option, with a search generation so that every search starts from an empty table in effect
//! (this keeps node counts reproducible) without paying for a clear.
//!
//! An entry stores the best move as its *index in the position's legal-move list*: move
//! generation is deterministic, so the index identifies the move for any game without the table
//! knowing the game's move type.

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
    pub move_index: Option<u8>,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    /// Low 32 bits of the key; the high bits already chose the slot.
    key: u32,
    score: i32,
    generation: u16,
    depth: u8,
    /// 0 = empty slot, 1 = exact, 2 = lower, 3 = upper.
    bound: u8,
    /// Move index + 1 (0 = none).
    mv: u8,
    _pad: [u8; 3],
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);

/// The table. Sized at construction; `resize` reallocates.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: u16,
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one entry).
    pub fn new(mib: usize) -> Self {
        let n = (mib.saturating_mul(1 << 20) / std::mem::size_of::<Slot>()).max(1);
        TranspositionTable {
            slots: vec![Slot::default(); n],
            generation: 1,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True if the table has no entries (never: the constructor makes at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Starts a new search: every entry written before becomes invisible.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The counter wrapped: old generations could match again, so clear for real.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 1;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key` written during the current search, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let s = &self.slots[self.index(key)];
        if s.key != key as u32 || s.generation != self.generation || s.bound == 0 {
            return None;
        }
        Some(TtEntry {
            score: s.score,
            depth: s.depth,
            bound: match s.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
            move_index: s.mv.checked_sub(1),
        })
    }

    /// Stores a result. Entries of older searches are always replaced; within a search a deeper
    /// or exact result replaces a shallower one.
    #[inline]
    pub fn store(&mut self, key: u64, entry: TtEntry) {
        let i = self.index(key);
        let generation = self.generation;
        let s = &mut self.slots[i];
        let replace = s.generation != generation
            || s.bound == 0
            || s.key == key as u32
            || entry.depth >= s.depth
            || entry.bound == Bound::Exact;
        if !replace {
            return;
        }
        // Keep a known best move when the new result (a fail-low) has none.
        let mv = match entry.move_index {
            Some(m) => m.saturating_add(1),
            None if s.key == key as u32 && s.generation == generation => s.mv,
            None => 0,
        };
        *s = Slot {
            key: key as u32,
            score: entry.score,
            generation,
            depth: entry.depth,
            bound: match entry.bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            mv,
            _pad: [0; 3],
        };
    }

    /// Permille of entries used by the current search (sampled over the first 1000 slots).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| s.bound != 0 && s.generation == self.generation)
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
        let e = TtEntry {
            score: -42,
            depth: 5,
            bound: Bound::Lower,
            move_index: Some(3),
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
    fn size_follows_mebibytes() {
        let tt = TranspositionTable::new(2);
        assert_eq!(tt.len() * std::mem::size_of::<Slot>(), 2 << 20);
    }
}
