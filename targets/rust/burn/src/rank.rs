//! rank.rs - from a run-time rank to burn's compile-time one: the set of ranks the adapter instantiates.
//!
//! burn's `Tensor<D, K>` carries its rank as a const generic, so every rank a
//! case can have must be compiled in. The adapter instantiates 0..=MAX_RANK
//! (its own choice, not a limit burn documents: FINDINGS.md says so), which
//! covers every case of the suite below the rank-limit cases (31 and up).

/// The highest rank the adapter instantiates (the descriptor's max_rank).
pub const MAX_RANK: usize = 8;

/// Evaluates `$body` with `$R` bound to a `const usize` equal to `$rank` when
/// it is in 0..=MAX_RANK, and `$none` otherwise. `$body` may use `$R` as a
/// const generic argument (`Tensor::<$R, Float>`).
macro_rules! with_rank {
    ($rank:expr, $R:ident => $body:expr, $none:expr) => {
        match $rank {
            0 => { const $R: usize = 0; $body }
            1 => { const $R: usize = 1; $body }
            2 => { const $R: usize = 2; $body }
            3 => { const $R: usize = 3; $body }
            4 => { const $R: usize = 4; $body }
            5 => { const $R: usize = 5; $body }
            6 => { const $R: usize = 6; $body }
            7 => { const $R: usize = 7; $body }
            8 => { const $R: usize = 8; $body }
            _ => $none,
        }
    };
}
pub(crate) use with_rank;
