//! The Connect Four solver's transposition table: one `AtomicU64` per entry, shared lock-free
//! by every solver thread, sized by the `Hash` option.
//!
//! Keys are exact, never hashed away: a position's key `k` (Pons' `current + mask`, possibly
//! the mirror-canonical one) is below `2^N` (`N` = columns × (rows + 1)) and is scrambled by a
//! bijection of `N`-bit integers, `h = k * C mod 2^N` (`C` odd, so the map is invertible); the
//! top bits of `h` pick one of `2^b` buckets and the entry stores the other `N - b` bits. The
//! pair (bucket, stored bits) is `h` itself, so a hit can never be a different position (the
//! trick of Pons' prime-sized table, without its 32-bit truncation and without its division:
//! a run-time 64-bit `%` cost tens of cycles per probe, several probes per node). Each entry
//! holds a lower *and* an upper bound on the exact value, the best column, and the number of
//! stones (used to prefer keeping entries near the root, whose subtrees are large).
//!
//! Packing of one entry (0 = empty):
//! `stored+1 : 40 | stones : 6 | best+1 : 4 | hi+64 : 7 | lo+64 : 7`.
//! Entries are written and read as whole words with relaxed ordering: a torn or concurrent
//! write can only ever replace one whole valid entry by another, so every bound read is one a
//! thread proved.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits available for the stored part of the key (plus one, so that 0 means empty).
const QUOT_BITS: u32 = 40;
/// The odd multiplier of the key bijection (from the golden ratio, as in Fibonacci hashing:
/// the top bits of the product depend on every key bit).
const MULT: u64 = 0x9E37_79B9_7F4A_7C15;
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
    /// `2^N - 1`: keys live in `N` bits.
    key_mask: u64,
    /// `N - b`: bits of the scrambled key kept in the entry (the rest is the bucket index).
    stored_bits: u32,
}

impl C4Table {
    /// A table of at most `mib` MiB (a power of two of 16-byte buckets) for keys below
    /// `2^key_bits`, but never so small that the stored part would overflow its 40 bits (only
    /// the 7×8 board with a tiny `Hash` needs more than asked for), nor larger than the key
    /// space.
    pub fn new(mib: usize, key_bits: u32) -> Self {
        let want = (mib.max(1) as u64 * (1 << 20) / 16).max(2);
        let mut bucket_bits = 63 - want.leading_zeros();
        bucket_bits = bucket_bits
            .max(key_bits.saturating_sub(QUOT_BITS - 1))
            .min(key_bits);
        let n = 2usize << bucket_bits;
        let mut slots = Vec::with_capacity(n);
        slots.resize_with(n, || AtomicU64::new(0));
        // The zeroed allocation may be mapped lazily by the OS; a first touch costs several
        // microseconds per 4 KiB page on this VM, which would land inside the first solves'
        // timings (about 50 µs per easy position with a fresh 64 MiB table). One store per
        // page maps it now.
        for s in std::hint::black_box(&slots[..]).iter().step_by(512) {
            s.store(0, Ordering::Relaxed);
        }
        C4Table {
            slots,
            key_mask: if key_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            },
            stored_bits: key_bits - bucket_bits,
        }
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
        let h = key.wrapping_mul(MULT) & self.key_mask;
        let b = (h >> self.stored_bits) as usize;
        let q = (h & ((1u64 << self.stored_bits) - 1)) + 1;
        (2 * b, q)
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

    /// Three keys that share a bucket (found by scanning, as the scrambling hides them).
    fn same_bucket(t: &C4Table) -> [u64; 3] {
        let mut seen = std::collections::HashMap::new();
        for k in 0u64.. {
            let (b, _) = t.locate(k);
            let v: &mut Vec<u64> = seen.entry(b).or_default();
            v.push(k);
            if v.len() == 3 {
                return [v[0], v[1], v[2]];
            }
        }
        unreachable!()
    }

    #[test]
    fn exact_keys_and_bound_merging() {
        let t = C4Table::new(1, 49);
        let [a, b, c] = same_bucket(&t);
        // Two keys in the same bucket are kept apart.
        t.put(a, 10, -3, 7, Some(2));
        t.put(b, 12, 1, 1, None);
        assert_eq!(
            t.get(a),
            Some(Bounds {
                lo: -3,
                hi: 7,
                best: Some(2)
            })
        );
        assert_eq!(t.get(b).map(|b| (b.lo, b.hi)), Some((1, 1)));
        assert_eq!(t.get(c), None);
        // New bounds intersect old ones.
        t.put(a, 10, -10, 4, Some(3));
        assert_eq!(
            t.get(a).map(|b| (b.lo, b.hi, b.best)),
            Some((-3, 4, Some(3)))
        );
    }

    #[test]
    fn scrambling_is_injective() {
        // (bucket, stored) must identify the key: no two keys of a small table's key space
        // may share both, including on the tiny 4-bit-bucket and clamped configurations.
        for (mib, bits) in [(1, 20), (1, 16), (1, 49), (2048, 21)] {
            let t = C4Table::new(mib, bits);
            let mut seen = std::collections::HashSet::new();
            for k in 0..(1u64 << bits.min(20)) {
                assert!(
                    seen.insert(t.locate(k)),
                    "key {k} aliases ({mib} MiB, {bits} bits)"
                );
            }
        }
    }
}
