//! classify.rs - ndarray's errors (its ShapeError kinds, its panics' messages) mapped to bcast's error classes.

use bcast_target::{Call, Failure, Mode, Status};
use ndarray::{ErrorKind, ShapeError};

/// A ShapeError from one of ndarray's constructors, by its kind: Overflow
/// (a size past isize::MAX), Unsupported (a mutable view whose elements
/// overlap, B9), IncompatibleShape (shapes that do not broadcast, B3).
pub fn shape_error(call: &Call, e: ShapeError) -> Failure {
    let status = match e.kind() {
        ErrorKind::Overflow => Status::Overflow,
        ErrorKind::Unsupported if call.mode() == Some(Mode::Inplace) => Status::Overlap,
        ErrorKind::IncompatibleShape => broadcast_class(call),
        _ => Status::Other,
    };
    Failure::new(status, format!("ndarray: {e}"))
}

/// Shapes that do not broadcast: in-place, y does not broadcast to self's
/// shape (B8); otherwise the operands do not broadcast together (B3).
fn broadcast_class(call: &Call) -> Status {
    if call.mode() == Some(Mode::Inplace) {
        Status::InplaceShape
    } else {
        Status::NotBroadcastable
    }
}

/// A panic's message: ndarray's operators panic when shapes do not
/// broadcast ("could not broadcast array from shape", or an unwrapped
/// ShapeError "IncompatibleShape"; "Overflow" when the result's size
/// overflows); Rust's integer `/` and `%` panic on a zero divisor ("divide
/// by zero", "divisor of zero", B20) and on MIN / -1 ("with overflow", no
/// class of its own: other); a Vec too large panics with "capacity overflow".
pub fn panic_class(call: &Call, message: &str) -> Status {
    if message.contains("could not broadcast") || message.contains("IncompatibleShape") {
        broadcast_class(call)
    } else if message.contains("divide by zero") || message.contains("divisor of zero") {
        Status::DivisionByZero
    } else if message.contains("ShapeError/Overflow") || message.contains("capacity overflow") {
        Status::Overflow
    } else {
        Status::Other
    }
}

#[cfg(test)]
mod tests {
    //! The messages ndarray and Rust actually produce, each to its class.
    use super::*;
    use bcast_target::{BctCall, Call};

    /// `f` with a call of mode `mode` (nothing else is read).
    fn with_mode(mode: Mode, f: impl Fn(&Call)) {
        let raw = BctCall {
            op: 0, mode: mode as i32, profile: 0, nargs: 0, args: std::ptr::null(), axis: 0,
            target_rank: 0, target_shape: std::ptr::null(), alloc_output: None,
            ctx: std::ptr::null_mut(), message: std::ptr::null_mut(), message_cap: 0, alloc_grad: None, weak_args: 0, grad_form: 0,
        };
        f(&unsafe { Call::from_raw(&raw) }.unwrap());
    }

    /// The message of the panic `f` raises.
    fn panic_of(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        bcast_target::panic_message(std::panic::catch_unwind(f).unwrap_err().as_ref())
    }

    #[test]
    fn shapes_that_do_not_broadcast_are_not_broadcastable_or_inplace_shape() {
        let m = panic_of(|| {
            let _ = &ndarray::Array1::<f32>::zeros(2) + &ndarray::Array1::<f32>::zeros(3);
        });
        let n = panic_of(|| {
            let mut s = ndarray::Array1::<f32>::zeros(2);
            s += &ndarray::Array1::<f32>::zeros(3);
        });
        with_mode(Mode::Value, |c| assert_eq!(panic_class(c, &m), Status::NotBroadcastable));
        with_mode(Mode::Inplace, |c| assert_eq!(panic_class(c, &n), Status::InplaceShape));
    }

    #[test]
    fn integer_division_by_zero_is_its_class() {
        let zero = std::hint::black_box(0i32);
        let m = panic_of(|| {
            let _ = std::hint::black_box(1i32) / zero;
        });
        with_mode(Mode::Value, |c| assert_eq!(panic_class(c, &m), Status::DivisionByZero));
    }
}
