//! errors.rs - candle's errors and panics, by their messages, as bcast error classes.
//!
//! candle reports a failed op as a `candle_core::Error` whose text names the
//! op ("shape mismatch in broadcast_add, lhs: [2, 3], rhs: [4]"); Rust itself
//! panics on an integer division by zero. The adapter maps each by its text,
//! never by looking at the operands: the class is what candle said.

use bcast_target::{Failure, Status};

/// (substring of candle's message, class), first match wins: the matmul
/// messages come before the generic "shape mismatch in" of the
/// element-wise ops and of broadcast_matmul's batch broadcast.
const CANDLE_MESSAGES: &[(&str, Status)] = &[
    ("only 2d matrixes are supported", Status::MatmulCore),
    ("different inner dimensions", Status::MatmulCore),
    ("shape mismatch in matmul", Status::MatmulCore),
    ("shape mismatch in", Status::NotBroadcastable),
    ("cannot broadcast", Status::NotBroadcastable),
    ("dtype mismatch", Status::Dtype),
    ("unsupported dtype", Status::Dtype),
    ("unexpected dtype", Status::Dtype),
];

/// (substring of a panic's message, class): Rust's own arithmetic panics.
const PANIC_MESSAGES: &[(&str, Status)] = &[
    ("divide by zero", Status::DivisionByZero),
    ("divisor of zero", Status::DivisionByZero),
    ("overflow", Status::Overflow),
];

/// The class of a message by the first table entry it contains, else Other.
fn lookup(table: &[(&str, Status)], message: &str) -> Status {
    let lower = message.to_lowercase();
    table.iter().find(|(needle, _)| lower.contains(needle)).map(|&(_, s)| s).unwrap_or(Status::Other)
}

/// A candle error as a bcast failure: its class from its message, and the
/// message itself (the first line: a backtrace, when RUST_BACKTRACE is set,
/// follows on later lines).
pub fn from_candle(e: candle_core::Error) -> Failure {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("").to_string();
    Failure::new(lookup(CANDLE_MESSAGES, &first), first)
}

/// The class of a panic's message (run_guarded's classifier).
pub fn classify_panic(message: &str) -> Status {
    lookup(PANIC_MESSAGES, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_core_messages_win_over_shape_mismatch() {
        assert_eq!(lookup(CANDLE_MESSAGES, "shape mismatch in matmul, lhs: [2, 3], rhs: [4, 5]"), Status::MatmulCore);
        assert_eq!(lookup(CANDLE_MESSAGES, "shape mismatch in broadcast_matmul, lhs: [2], rhs: [3]"), Status::NotBroadcastable);
        assert_eq!(lookup(CANDLE_MESSAGES, "something new"), Status::Other);
    }

    #[test]
    fn integer_division_panics_are_division_by_zero() {
        assert_eq!(classify_panic("attempt to divide by zero"), Status::DivisionByZero);
        assert_eq!(classify_panic("index out of bounds"), Status::Other);
    }
}
