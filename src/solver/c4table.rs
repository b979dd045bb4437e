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
//! work that proved it (log2 of the subtree's nodes, to prefer keeping costly entries).
//!
//! Packing of one entry (0 = empty):
//! `stored+1 : 43 | work : 6 | best+1 : 3 | hi+32 : 6 | lo+32 : 6`.
//! Entries are written and read as whole words with relaxed ordering: a torn or concurrent
//! write can only ever replace one whole valid entry by another, so every bound read is one a
//! thread proved.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Bits below the stored key part: `work : 6 | best+1 : 3 | hi+32 : 6 | lo+32 : 6`.
const DATA_BITS: u32 = 21;
const DATA: u64 = (1 << DATA_BITS) - 1;
/// Bits available for the stored part of the key (plus one, so that 0 means empty).
const QUOT_BITS: u32 = 64 - DATA_BITS;
/// The odd multiplier of the key bijection (from the golden ratio, as in Fibonacci hashing:
/// the top bits of the product depend on every key bit).
const MULT: u64 = 0x9E37_79B9_7F4A_7C15;
/// Bounds are stored with this offset in 6 bits, so values must lie in -32..=31 (scores of
/// the largest board, 7×8, lie in -28..=28).
const OFFSET: i32 = 32;
/// Buckets (log2) of the region a fresh solve starts with: 2 KiB, cleared in a few hundred
/// cycles (a measurable part of an easy position's few microseconds) and resident in L1.
const FRESH_BITS: u32 = 7;
/// Regions from this many buckets (16 MiB, about the L3 cache) on grow only when 7/8 full
/// instead of half full: beyond the cache every probe is a DRAM and TLB miss, which costs more
/// than the few extra nodes of a fuller table (Test_L1_R2: −22 % time for +2 % nodes).
const BIG_BUCKETS: u64 = 1 << 20;

/// The bucket of `key` is about to be probed: start loading it.
impl C4Table {
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64, near: bool) {
        #[cfg(target_arch = "x86_64")]
        {
            let (i, _) = self.locate_in(key, near);
            // SAFETY: a prefetch is a hint that never faults and changes no memory; the
            // address lies inside `slots` anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    self.slots.as_ptr().wrapping_add(i) as *const i8,
                );
            }
        }
    }
}

/// The near region: the first `2^NEAR_BITS` buckets (16 MiB, half the L3 cache), where the
/// search keeps positions close to the leaves (`near` in `get`/`put`). Their subtrees are
/// small and their transpositions local, so a cache-resident region keeps most of their value
/// while a probe costs a cache hit instead of a DRAM and TLB miss. Near entries are keyed by
/// the region's own split of the scrambled key (more stored bits), tagged so that they can
/// never match an ordinary entry sharing their slots: ordinary entries that land in the region
/// simply compete with them for slots.
pub const NEAR_BITS: u32 = 20;
/// Bit of the stored part that marks a near entry.
const NEAR_TAG: u32 = 42;

/// Bounds read back from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i32,
    pub hi: i32,
    /// Best (or refuting) column found last time, if any.
    pub best: Option<u8>,
}

/// Two entries per bucket: slot 0 keeps the entry closest to the root, slot 1 the newest.
///
/// Only a prefix of the allocation may be in use: the *active region* of `2^b` buckets. A
/// whole-table region is the normal, persistent mode. [`C4Table::reset_small`] starts a fresh
/// solve on a tiny region, which [`C4Table::grow`] enlarges (re-inserting its entries) as the
/// search fills it: a search of a few thousand nodes then probes a few dozen KiB that stay in
/// cache, instead of scattering cache and TLB misses over the whole allocation — on Pons'
/// easier sets that is most of the time per node.
pub struct C4Table {
    slots: Vec<AtomicU64>,
    /// `N`: keys live in `N` bits.
    key_bits: u32,
    /// `2^N - 1`.
    key_mask: u64,
    /// `b` of the whole allocation.
    max_bits: u32,
    /// The smallest `b` that keeps the stored part `N - b` within its 43 bits.
    min_bits: u32,
    /// `b` of the active region. Below `max_bits` only between `reset_small` and the region
    /// reaching the whole table, which needs exclusive use of the table (one search thread).
    bits: AtomicU32,
    /// Free slots filled since `reset_small` (counted only while the region is partial).
    fills: AtomicU64,
}

impl C4Table {
    /// A table of at most `mib` MiB (a power of two of 16-byte buckets) for keys below
    /// `2^key_bits`, but never so small that the stored part would overflow its 43 bits (only
    /// the 7×8 board with a tiny `Hash` needs more than asked for), nor larger than the key
    /// space. The whole table is active.
    pub fn new(mib: usize, key_bits: u32) -> Self {
        let want = (mib.max(1) as u64 * (1 << 20) / 16).max(2);
        let min_bits = key_bits.saturating_sub(QUOT_BITS - 1);
        let max_bits = (63 - want.leading_zeros()).max(min_bits).min(key_bits);
        let n = 2usize << max_bits;
        let mut slots: Vec<AtomicU64> = Vec::with_capacity(n);
        // Huge pages before the first touch: large regions are probed at random, where 4 KiB
        // pages cost a TLB miss per probe.
        crate::core::mem::advise_huge_pages(slots.as_ptr() as usize, n * 8);
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
            key_bits,
            key_mask: if key_bits >= 64 {
                u64::MAX
            } else {
                (1u64 << key_bits) - 1
            },
            max_bits,
            min_bits,
            bits: AtomicU32::new(max_bits),
            fills: AtomicU64::new(0),
        }
    }

    /// Forgets everything; the whole table becomes active.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
        self.bits.store(self.max_bits, Ordering::Relaxed);
    }

    /// Forgets everything and activates a small region (for a fresh single-threaded solve):
    /// only that region is cleared, so this costs well under a microsecond. Entries beyond it
    /// are stale and are cleared by `grow` before the region covers them.
    pub fn reset_small(&self) {
        let b = FRESH_BITS.clamp(self.min_bits, self.max_bits);
        for s in &self.slots[..2 << b] {
            s.store(0, Ordering::Relaxed);
        }
        self.bits.store(b, Ordering::Relaxed);
        self.fills.store(0, Ordering::Relaxed);
    }

    /// Buckets in the active region.
    #[inline]
    pub fn buckets(&self) -> u64 {
        1 << self.bits.load(Ordering::Relaxed)
    }

    /// Quadruples the active region (up to the whole table), keeping its entries. Returns
    /// false if it already spans the table. Needs exclusive use of the table.
    ///
    /// Done in place: the bucket is the top bits of the scrambled key, so the entries of old
    /// bucket `b` move to new buckets `4b..4b+4` (the next two key bits, taken from their
    /// stored part). Going through `b` downwards, those buckets are either beyond the old
    /// region (stale) or old buckets already emptied, and they receive entries from `b` only:
    /// clearing them first and inserting `b`'s (at most two) entries evicts nothing.
    fn grow(&self) -> bool {
        let old = self.bits.load(Ordering::Relaxed);
        if old >= self.max_bits {
            return false;
        }
        let new = (old + 2).min(self.max_bits);
        let d = new - old;
        self.bits.store(new, Ordering::Relaxed);
        let new_stored = self.key_bits - new;
        let low = (1u64 << new_stored) - 1;
        for b in (0..1usize << old).rev() {
            let e0 = self.slots[2 * b].load(Ordering::Relaxed);
            let e1 = self.slots[2 * b + 1].load(Ordering::Relaxed);
            for s in &self.slots[2 * (b << d)..2 * ((b + 1) << d)] {
                s.store(0, Ordering::Relaxed);
            }
            // New slot index and entry of an old entry (slot 1 is only used after slot 0).
            let moved = |e: u64| {
                let q = (e >> DATA_BITS) - 1;
                let j = 2 * ((b << d) | (q >> new_stored) as usize);
                (j, (((q & low) + 1) << DATA_BITS) | (e & DATA))
            };
            if e0 != 0 {
                let (j0, n0) = moved(e0);
                self.slots[j0].store(n0, Ordering::Relaxed);
                if e1 != 0 {
                    // Slot 0 has at least slot 1's work, so the order can be kept.
                    let (j1, n1) = moved(e1);
                    self.slots[j1 + usize::from(j1 == j0)].store(n1, Ordering::Relaxed);
                }
            }
        }
        true
    }

    /// Bytes used.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// Slot index of the bucket and stored part (plus one) of scrambled key `h`.
    #[inline]
    fn split(&self, h: u64) -> (usize, u64) {
        let stored_bits = self.key_bits - self.bits.load(Ordering::Relaxed);
        let b = (h >> stored_bits) as usize;
        let q = (h & ((1u64 << stored_bits) - 1)) + 1;
        (2 * b, q)
    }

    #[inline]
    fn locate(&self, key: u64) -> (usize, u64) {
        self.split(key.wrapping_mul(MULT) & self.key_mask)
    }

    /// Is the near region in use? Only over a whole table (a growing region would move its
    /// entries as if they were ordinary ones) at least four times its size, whose ordinary
    /// stored parts stay below the tag bit.
    #[inline]
    fn near_on(&self) -> bool {
        let b = self.bits.load(Ordering::Relaxed);
        b == self.max_bits && b >= NEAR_BITS + 2 && self.key_bits - b < NEAR_TAG
    }

    /// Slot index and stored part of `key`, in the near region if `near` (see [`NEAR_BITS`]).
    #[inline]
    fn locate_in(&self, key: u64, near: bool) -> (usize, u64) {
        if near && self.near_on() {
            let h = key.wrapping_mul(MULT) & self.key_mask;
            let stored_bits = self.key_bits - NEAR_BITS;
            let b = (h >> stored_bits) as usize;
            (
                2 * b,
                ((h & ((1u64 << stored_bits) - 1)) + 1) | (1 << NEAR_TAG),
            )
        } else {
            self.locate(key)
        }
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64, near: bool) -> Option<Bounds> {
        let (i, q) = self.locate_in(key, near);
        for s in &self.slots[i..i + 2] {
            let e = s.load(Ordering::Relaxed);
            if e >> DATA_BITS == q {
                let best = ((e >> 12) & 7) as u8;
                return Some(Bounds {
                    lo: (e & 63) as i32 - OFFSET,
                    hi: ((e >> 6) & 63) as i32 - OFFSET,
                    best: best.checked_sub(1),
                });
            }
        }
        None
    }

    /// Records `lo <= value <= hi` for `key` (merged with what is already known) and the best
    /// column. `work` (log2 of the nodes spent, at most 63) decides replacement. A partial active
    /// region grows once half its slots are used.
    #[inline]
    pub fn put(&self, key: u64, near: bool, work: u32, mut lo: i32, mut hi: i32, best: Option<u8>) {
        let (i, q) = self.locate_in(key, near);
        let pack = |lo: i32, hi: i32, best: Option<u8>| {
            ((work.min(63) as u64) << 15)
                | ((best.map_or(0, |b| b as u64 + 1)) << 12)
                | (((hi + OFFSET) as u64) << 6)
                | ((lo + OFFSET) as u64)
        };
        for j in [i, i + 1] {
            let e = self.slots[j].load(Ordering::Relaxed);
            if e >> DATA_BITS == q {
                // Same position: intersect the intervals (both are proven bounds).
                lo = lo.max((e & 63) as i32 - OFFSET);
                hi = hi.min(((e >> 6) & 63) as i32 - OFFSET);
                if lo > hi {
                    // Only possible with a racing thread's entry of another window; keep ours.
                    hi = lo;
                }
                self.slots[j].store((q << DATA_BITS) | pack(lo, hi, best), Ordering::Relaxed);
                return;
            }
        }
        if self.insert(i, q, pack(lo, hi, best))
            && self.bits.load(Ordering::Relaxed) < self.max_bits
        {
            // Single-threaded here (see `bits`), so a plain load and store count exactly.
            let f = self.fills.load(Ordering::Relaxed) + 1;
            self.fills.store(f, Ordering::Relaxed);
            let b = self.buckets();
            if f > b && (b < BIG_BUCKETS || f > b / 4 * 7) {
                self.grow();
            }
        }
    }

    /// Stores a new entry (stored part `q`, low `DATA_BITS` bits `data`) in the bucket at slot `i`,
    /// which does not hold that key. Returns true if a free slot was used.
    #[inline]
    fn insert(&self, i: usize, q: u64, data: u64) -> bool {
        let new = (q << DATA_BITS) | data;
        let work = (data >> 15) & 63;
        let s0 = self.slots[i].load(Ordering::Relaxed);
        let s1 = self.slots[i + 1].load(Ordering::Relaxed);
        // Slot 0 holds the entry that cost the most work; the loser of that
        // comparison goes to the always-replace slot 1.
        if s0 == 0 || work >= (s0 >> 15) & 63 {
            self.slots[i].store(new, Ordering::Relaxed);
            if s0 != 0 {
                self.slots[i + 1].store(s0, Ordering::Relaxed);
            }
            s0 == 0 || s1 == 0
        } else {
            self.slots[i + 1].store(new, Ordering::Relaxed);
            s1 == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `N` keys that share a bucket (found by scanning, as the scrambling hides them).
    fn same_bucket<const N: usize>(t: &C4Table) -> [u64; N] {
        let mut seen = std::collections::HashMap::new();
        for k in 0u64.. {
            let (b, _) = t.locate(k);
            let v: &mut Vec<u64> = seen.entry(b).or_default();
            v.push(k);
            if v.len() == N {
                return std::array::from_fn(|i| v[i]);
            }
        }
        unreachable!()
    }

    #[test]
    fn near_entries_are_apart_from_ordinary_ones() {
        let t = C4Table::new(64, 49);
        assert!(t.near_on());
        let keys: Vec<u64> = (1..200u64).map(|i| i * 0x3_0507_0b0d % (1 << 49)).collect();
        for (i, &k) in keys.iter().enumerate() {
            t.put(k, true, 5, -1, 1, Some((i % 7) as u8));
            t.put(k, false, 5, 2, 4, None);
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(
                t.get(k, true).map(|b| (b.lo, b.hi, b.best)),
                Some((-1, 1, Some((i % 7) as u8)))
            );
            assert_eq!(
                t.get(k, false).map(|b| (b.lo, b.hi, b.best)),
                Some((2, 4, None))
            );
        }
        // A key stored only near is unknown to ordinary probes, and the other way round.
        t.put(7, true, 5, 0, 0, None);
        t.put(9, false, 5, 0, 0, None);
        assert!(t.get(7, false).is_none() && t.get(9, true).is_none());
        // Below four times the region's size, or while a fresh region grows, near means ordinary.
        let small = C4Table::new(8, 49);
        small.put(7, true, 5, 0, 0, None);
        assert!(small.get(7, false).is_some());
        t.reset_small();
        t.put(11, true, 5, 0, 0, None);
        assert!(t.get(11, false).is_some());
    }

    #[test]
    fn replacement_keeps_the_costliest_entry() {
        let t = C4Table::new(1, 49);
        let [a, b, c, d] = same_bucket(&t);
        t.put(a, false, 20, 0, 0, None);
        t.put(b, false, 5, 0, 0, None);
        // A cheap newcomer evicts the cheaper resident, never the costly one.
        t.put(c, false, 3, 0, 0, None);
        assert!(
            t.get(a, false).is_some() && t.get(c, false).is_some() && t.get(b, false).is_none()
        );
        // A costlier newcomer takes slot 0; the old holder goes to slot 1.
        t.put(d, false, 30, 0, 0, None);
        assert!(
            t.get(d, false).is_some() && t.get(a, false).is_some() && t.get(c, false).is_none()
        );
    }

    #[test]
    fn exact_keys_and_bound_merging() {
        let t = C4Table::new(1, 49);
        let [a, b, c] = same_bucket(&t);
        // Two keys in the same bucket are kept apart.
        t.put(a, false, 10, -3, 7, Some(2));
        t.put(b, false, 12, 1, 1, None);
        assert_eq!(
            t.get(a, false),
            Some(Bounds {
                lo: -3,
                hi: 7,
                best: Some(2)
            })
        );
        assert_eq!(t.get(b, false).map(|b| (b.lo, b.hi)), Some((1, 1)));
        assert_eq!(t.get(c, false), None);
        // New bounds intersect old ones.
        t.put(a, false, 10, -10, 4, Some(3));
        assert_eq!(
            t.get(a, false).map(|b| (b.lo, b.hi, b.best)),
            Some((-3, 4, Some(3)))
        );
    }

    #[test]
    fn growing_keeps_entries() {
        let t = C4Table::new(64, 49);
        t.reset_small();
        assert_eq!(t.buckets(), 1 << FRESH_BITS);
        let keys: Vec<u64> = (0..100u64).map(|i| i * 0x1_0203_0405 % (1 << 49)).collect();
        for (i, &k) in keys.iter().enumerate() {
            let i = i as u32;
            t.put(
                k,
                false,
                20 + i % 7,
                -(i as i32 % 5),
                3,
                Some((i % 7) as u8),
            );
        }
        // 100 keys in 128 buckets (256 slots, below the automatic growth at half full):
        // some were evicted; the survivors must move intact.
        assert_eq!(t.buckets(), 1 << FRESH_BITS);
        let before: Vec<Option<Bounds>> = keys.iter().map(|&k| t.get(k, false)).collect();
        assert!(t.grow());
        assert_eq!(t.buckets(), 4 << FRESH_BITS);
        for (k, b) in keys.iter().zip(&before) {
            if let Some(b) = b {
                assert_eq!(t.get(*k, false), Some(*b), "key {k}");
            }
        }
        // A fresh start forgets, even entries outside the small region.
        t.reset_small();
        assert!(keys.iter().all(|&k| t.get(k, false).is_none()));
        while t.grow() {}
        assert!(keys.iter().all(|&k| t.get(k, false).is_none()));
        assert_eq!(t.buckets() as usize * 16, t.bytes());
        // Filling a fresh region past half its slots grows it by itself.
        t.reset_small();
        for i in 0..200u64 {
            t.put(i * 0x1_0203_0405 % (1 << 49), false, 20, 0, 0, None);
        }
        assert_eq!(t.buckets(), 4 << FRESH_BITS);
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
