//! bcast-target - Rust bindings of bcast's target ABI (`include/bcast_target.h`, version 2).
//!
//! An adapter is a `cdylib` that exports `bcast_target_v1` (see
//! [`export_target!`]) returning a static [`BctTarget`] descriptor, whose `run`
//! receives one [`BctCall`] per case. docs/target-abi.md is the contract and
//! has a section "Writing an adapter in Rust".
//!
//! - [`abi`]: the `#[repr(C)]` structs and the enums' values, written by hand
//!   and checked against the C header by `tests/layout.rs` (sizes, alignments,
//!   field offsets and sizes, every constant).
//! - [`call`]: [`Call`] and [`Operand`], safe views of one case: the operands'
//!   shapes, strides and storage exactly as the runner lays them out, the output
//!   and gradient buffers from the runner's allocators, the error message.
//! - [`element`]: the Rust type of each bcast dtype.
//! - [`guard`]: [`run_guarded`], which keeps panics from unwinding across the C
//!   ABI and turns them, and `Err`s, into an error class and a message.
//!
//! The crate hides no layout: every pointer, stride and offset the runner
//! passes stays reachable, so the library under test can be handed the memory
//! as it is. It depends on nothing beyond std.

pub mod abi;
pub mod call;
pub mod element;
pub mod guard;

pub use abi::*;
pub use call::{gather, Call, Operand};
pub use element::Element;
pub use guard::{panic_message, quiet_panics, run_guarded, Failure};

/// Defines the entry point, `bcast_target_v1`, returning `&$descriptor` (a
/// `static` [`BctTarget`]). Use it once, in the adapter crate's root.
#[macro_export]
macro_rules! export_target {
    ($descriptor:expr) => {
        /// The entry point the runner looks up (BCT_ENTRY_NAME).
        #[unsafe(no_mangle)]
        pub extern "C" fn bcast_target_v1() -> *const $crate::BctTarget {
            &$descriptor
        }
    };
}
