//! guard.rs - the ABI boundary: no panic unwinds across it; panics and Errs become a class and a message.

use std::any::Any;
use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use crate::abi::{BctCall, Status};
use crate::call::Call;

/// An error class with its message: the library's error, or a refused buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub status: Status,
    pub message: String,
}

impl Failure {
    /// A failure of class `status` saying `message`.
    pub fn new(status: Status, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into() }
    }
}

/// The text of a panic's payload (`panic!("...")` gives a &str or a String).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// Replaces the default panic hook, once per process, with one that writes a
/// single line ("panic at FILE:LINE: MESSAGE") to stderr and captures no
/// backtrace, whatever RUST_BACKTRACE says: run_guarded reports every panic
/// it catches through the call's message, and a case that panics must not pay
/// for a backtrace. run_guarded calls it; an adapter may call it in `init`.
pub fn quiet_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            eprintln!("panic{at}: {}", panic_message(info.payload()));
        }));
    });
}

/// Runs `body` on the case behind `raw` and returns what `run` returns:
/// `Status::Ok`, the `Err`'s class (its message written to the call), or, when
/// `body` panics, the class `classify` gives the panic's message (written as
/// "panic: MESSAGE"; see quiet_panics for stderr). A panic in `classify` itself is reported as
/// `Status::Other`. A NULL `raw` is `Status::Other`.
pub fn run_guarded<F, C>(raw: *const BctCall, classify: C, body: F) -> c_int
where
    F: FnOnce(&Call) -> Result<(), Failure>,
    C: Fn(&Call, &str) -> Status,
{
    // SAFETY: `raw` is the pointer the runner passed to `run`, used only here.
    let Some(call) = (unsafe { Call::from_raw(raw) }) else {
        return Status::Other as c_int;
    };
    quiet_panics();
    let failure = match catch_unwind(AssertUnwindSafe(|| body(&call))) {
        Ok(Ok(())) => return Status::Ok as c_int,
        Ok(Err(f)) => f,
        Err(payload) => {
            let text = panic_message(payload.as_ref());
            let status = catch_unwind(AssertUnwindSafe(|| classify(&call, &text))).unwrap_or(Status::Other);
            Failure::new(status, format!("panic: {text}"))
        }
    };
    call.set_message(&failure.message);
    failure.status as c_int
}
