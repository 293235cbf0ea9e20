//! errors.rs - burn's panics and the adapter's refusals, as bcast error classes.
//!
//! burn reports a bad operation by panicking with a formatted message
//! ("=== Tensor Operation Error === Operation: 'Add' Reason: 1. The provided
//! tensors have incompatible shapes. ..."). The class is decided by the
//! message alone, from the texts in burn-tensor 0.22.1's check.rs and
//! base.rs, each quoted below.

use bcast_target::{Call, Failure, Status};

/// Message fragments and their class, first match wins.
const TABLE: &[(&str, Status)] = &[
    // check.rs binary_ops_ew_shape: add/sub/.../equal/greater/max_pair/powf...
    ("The provided tensors have incompatible shapes", Status::NotBroadcastable),
    // check.rs expand: "The provided tensor can't be broadcasted to the target shape."
    ("can't be broadcasted to the target shape", Status::NotBroadcastable),
    // check.rs matmul: the batch dims
    ("Tensors are not broadcastable along batch dimension", Status::NotBroadcastable),
    ("The inner dimension of matmul should be the same", Status::MatmulCore),
    ("Matmul requires tensors with at least 2 dimensions", Status::MatmulCore),
    // base.rs BroadcastArgs for [E; D2] (expand's -1 form)
    ("Broadcast arguments must be positive or -1", Status::InvalidShape),
    ("Broadcast arguments must be greater than the number of dimensions", Status::InvalidShape),
    ("Cannot substitute -1 for a non-existing dimension", Status::InvalidShape),
    // burn-flex's own checks, reached where burn-tensor checks nothing
    // (bool_and/or/xor, mask_where) or after its check passed (expand)
    ("broadcast_shape: incompatible dimensions", Status::NotBroadcastable),
    ("expand: cannot expand dimension", Status::NotBroadcastable),
    ("must be >= source rank", Status::InvalidShape),
    // Rust's own integer-division panics, raised inside the backend's kernels
    ("attempt to divide by zero", Status::DivisionByZero),
    ("attempt to calculate the remainder with a divisor of zero", Status::DivisionByZero),
];

/// The class of a panic message of burn's (`Status::Other` when no fragment
/// of the table occurs in it). The call is not consulted: the message alone
/// decides, so one message always gets one class.
pub fn classify(_call: &Call, message: &str) -> Status {
    class_of(message)
}

/// The class of one message (see classify).
fn class_of(message: &str) -> Status {
    TABLE
        .iter()
        .find(|(fragment, _)| message.contains(fragment))
        .map(|&(_, status)| status)
        .unwrap_or(Status::Other)
}

/// A dtype refusal: the operation cannot be written with burn's API for
/// these operand kinds (it does not compile), so this is burn's answer.
pub fn cannot_express(what: String) -> Failure {
    Failure::new(Status::Dtype, what)
}

/// A refused output or gradient buffer.
pub fn refused(what: &str) -> Failure {
    Failure::new(Status::Other, format!("the runner refused the {what} buffer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// burn's whole formatted message (check.rs FailedTensorCheck::format) of a
    /// shape mismatch in add is not-broadcastable.
    #[test]
    fn add_shape_mismatch_is_not_broadcastable() {
        let text = "=== Tensor Operation Error ===\n  Operation: 'Add'\n  Reason:\n    1. The provided tensors \
                    have incompatible shapes. Incompatible size at dimension '0' => '2 != 3', which can't be \
                    broadcasted. Lhs tensor shape [2], Rhs tensor shape [3]. \n";
        assert_eq!(class_of(text), Status::NotBroadcastable);
    }

    /// The matmul core mismatch and the rank check are matmul-core; a batch
    /// mismatch is not-broadcastable.
    #[test]
    fn matmul_messages() {
        assert_eq!(class_of("1. The inner dimension of matmul should be the same, but got 3 and 4."), Status::MatmulCore);
        assert_eq!(class_of("1. Matmul requires tensors with at least 2 dimensions, but got 1 dimension(s)."), Status::MatmulCore);
        assert_eq!(class_of("1. Tensors are not broadcastable along batch dimension 0: 2 and 3."), Status::NotBroadcastable);
    }

    /// expand's argument checks are invalid-shape; anything unknown is other.
    #[test]
    fn expand_arguments_and_unknown() {
        assert_eq!(class_of("Broadcast arguments must be positive or -1! Got -3"), Status::InvalidShape);
        assert_eq!(class_of("Tried to create a 0-dim tensor, which is invalid."), Status::Other);
    }
}
