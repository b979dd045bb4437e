//! The Connect Four solver's transposition table: one `AtomicU64` per entry, shared lock-free
//! by every solver thread, sized by the `Hash` option.
//!
//! Keys are exact, never hashed: a position's key `k` (Pons' `current + mask`, possibly the
//! mirror-canonical one) picks bucket `k % P` (`P` prime) and the entry stores the quotient
//! `k / P`; the pair (bucket, quotient) determines `k`, so a hit can never be a different
//! position (the Chinese-remainder trick of Pons' table, without its 32-bit truncation). Each
//! entry holds a lower *and* an upper bound on the exact value, the best column, and the
//! number of stones (used to prefer keeping entries near the root, whose subtrees are large).
//!
//! Packing of one entry (0 = empty):
//! `quotient+1 : 40 | stones : 6 | best+1 : 4 | hi+64 : 7 | lo+64 : 7`.
//! Entries are written and read as whole words with relaxed ordering: a torn or concurrent
//! write can only ever replace one whole valid entry by another, so every bound read is one a
//! thread proved.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits available for the quotient.
const QUOT_BITS: u32 = 40;
/// Bounds are stored with this offset in 7 bits, so values must lie in -64..=63.
const OFFSET: i32 = 64;

/// Bounds read back from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i32,
    pub hi: i32,
    /// Best (or refuting) column found last time, if any.
    pub best: Option<u8>,
}

/// Two entries per bucket: slot 0 keeps the entry closest to the root, slot 1 the newest.
pub struct C4Table {
    slots: Vec<AtomicU64>,
    buckets: u64,
}

fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

impl C4Table {
    /// A table of about `mib` MiB for keys below `2^key_bits`. The bucket count is the largest
    /// prime that fits, but never so small that the quotient would overflow its 40 bits (only
    /// the 7×8 board with a tiny `Hash` needs more than asked for).
    pub fn new(mib: usize, key_bits: u32) -> Self {
        let want = (mib.max(1) as u64 * (1 << 20) / 16).max(3);
        let min_buckets = 1u64 << key_bits.saturating_sub(QUOT_BITS - 1);
        let mut p = want.max(min_buckets + 1);
        while !is_prime(p) {
            p -= 1;
        }
        if p <= min_buckets {
            p = min_buckets + 1;
            while !is_prime(p) {
                p += 1;
            }
        }
        let mut slots = Vec::with_capacity(2 * p as usize);
        slots.resize_with(2 * p as usize, || AtomicU64::new(0));
        C4Table { slots, buckets: p }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
    }

    /// Bytes used.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    #[inline]
    fn locate(&self, key: u64) -> (usize, u64) {
        let b = key % self.buckets;
        let q = key / self.buckets + 1;
        (2 * b as usize, q)
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Bounds> {
        let (i, q) = self.locate(key);
        for s in &self.slots[i..i + 2] {
            let e = s.load(Ordering::Relaxed);
            if e >> 24 == q {
                let best = ((e >> 14) & 15) as u8;
                return Some(Bounds {
                    lo: (e & 127) as i32 - OFFSET,
                    hi: ((e >> 7) & 127) as i32 - OFFSET,
                    best: best.checked_sub(1),
                });
            }
        }
        None
    }

    /// Records `lo <= value <= hi` for `key` (merged with what is already known) and the best
    /// column. `stones` is the position's stone count, for replacement.
    #[inline]
    pub fn put(&self, key: u64, stones: u32, mut lo: i32, mut hi: i32, best: Option<u8>) {
        let (i, q) = self.locate(key);
        let pack = |lo: i32, hi: i32, best: Option<u8>| {
            (q << 24)
                | ((stones as u64 & 63) << 18)
                | ((best.map_or(0, |b| b as u64 + 1)) << 14)
                | (((hi + OFFSET) as u64) << 7)
                | ((lo + OFFSET) as u64)
        };
        let s0 = self.slots[i].load(Ordering::Relaxed);
        let s1 = self.slots[i + 1].load(Ordering::Relaxed);
        for (j, e) in [(i, s0), (i + 1, s1)] {
            if e >> 24 == q {
                // Same position: intersect the intervals (both are proven bounds).
                lo = lo.max((e & 127) as i32 - OFFSET);
                hi = hi.min(((e >> 7) & 127) as i32 - OFFSET);
                if lo > hi {
                    // Only possible with a racing thread's entry of another window; keep ours.
                    hi = lo;
                }
                self.slots[j].store(pack(lo, hi, best), Ordering::Relaxed);
                return;
            }
        }
        let new = pack(lo, hi, best);
        // Slot 0 holds the entry with the fewest stones (largest subtree); the loser of that
        // comparison goes to the always-replace slot 1.
        let s0_stones = ((s0 >> 18) & 63) as u32;
        if s0 == 0 || stones <= s0_stones {
            self.slots[i].store(new, Ordering::Relaxed);
            if s0 != 0 {
                self.slots[i + 1].store(s0, Ordering::Relaxed);
            }
        } else {
            self.slots[i + 1].store(new, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_keys_and_bound_merging() {
        let t = C4Table::new(1, 49);
        let p = t.buckets;
        // Two keys in the same bucket are kept apart.
        t.put(5, 10, -3, 7, Some(2));
        t.put(5 + p, 12, 1, 1, None);
        assert_eq!(
            t.get(5),
            Some(Bounds {
                lo: -3,
                hi: 7,
                best: Some(2)
            })
        );
        assert_eq!(t.get(5 + p).map(|b| (b.lo, b.hi)), Some((1, 1)));
        assert_eq!(t.get(5 + 2 * p), None);
        // New bounds intersect old ones.
        t.put(5, 10, -10, 4, Some(3));
        assert_eq!(
            t.get(5).map(|b| (b.lo, b.hi, b.best)),
            Some((-3, 4, Some(3)))
        );
    }
}
