//! ops.rs - each op as an ndarray user writes it: `&x + &y` (co-broadcasting), `self += &y`, per element type.
//!
//! ndarray has no dtype promotion and no op a Rust type lacks: `bool + bool`
//! and `f32 & f32` do not compile. `NdElement` lists, per Rust type, the
//! std::ops operators ndarray implements for arrays of it; an op the type
//! lacks is `None`, which the adapter reports as a dtype error.

use bcast_target::{Element, Op};
use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD};

/// The element types the adapter claims, with the operators ndarray offers on them.
pub trait NdElement: Element + Clone + std::fmt::Debug {
    /// `&x OP &y`: ndarray co-broadcasts the two views; None if it does not compile for Self.
    fn binary(op: Op, x: &ArrayViewD<Self>, y: &ArrayViewD<Self>) -> Option<ArrayD<Self>>;
    /// `s OP= &y`: ndarray broadcasts y to s's shape; None if it does not compile for Self.
    fn compound(op: Op, s: &mut ArrayViewMutD<Self>, y: &ArrayViewD<Self>) -> Option<()>;
}

/// Arithmetic operators (+ - * / %), on integers and floats.
macro_rules! arith {
    ($op:expr, $x:expr, $y:expr) => {
        match $op {
            Op::Add => Some($x + $y),
            Op::Sub => Some($x - $y),
            Op::Mul => Some($x * $y),
            Op::Div => Some($x / $y),
            Op::Remainder => Some($x % $y),
            _ => None,
        }
    };
}

/// Bitwise operators (& | ^), on integers and bool.
macro_rules! bits {
    ($op:expr, $x:expr, $y:expr) => {
        match $op {
            Op::BitwiseAnd => Some($x & $y),
            Op::BitwiseOr => Some($x | $y),
            Op::BitwiseXor => Some($x ^ $y),
            _ => None,
        }
    };
}

/// Shift operators (<< >>), on integers (ndarray implements Shl and Shr for
/// arrays, impl_ops.rs; Rust's `>>` on a signed integer is arithmetic).
macro_rules! shifts {
    ($op:expr, $x:expr, $y:expr) => {
        match $op {
            Op::LeftShift => Some($x << $y),
            Op::RightShift => Some($x >> $y),
            _ => None,
        }
    };
}

/// Compound arithmetic assignments (+= -= *= /= %=).
macro_rules! arith_assign {
    ($op:expr, $s:expr, $y:expr) => {
        match $op {
            Op::Add => Some(*$s += $y),
            Op::Sub => Some(*$s -= $y),
            Op::Mul => Some(*$s *= $y),
            Op::Div => Some(*$s /= $y),
            Op::Remainder => Some(*$s %= $y),
            _ => None,
        }
    };
}

/// Compound bitwise assignments (&= |= ^=).
macro_rules! bits_assign {
    ($op:expr, $s:expr, $y:expr) => {
        match $op {
            Op::BitwiseAnd => Some(*$s &= $y),
            Op::BitwiseOr => Some(*$s |= $y),
            Op::BitwiseXor => Some(*$s ^= $y),
            _ => None,
        }
    };
}

macro_rules! integers {
    ($($t:ty)*) => {$(
        impl NdElement for $t {
            fn binary(op: Op, x: &ArrayViewD<$t>, y: &ArrayViewD<$t>) -> Option<ArrayD<$t>> {
                arith!(op, x, y).or_else(|| bits!(op, x, y)).or_else(|| shifts!(op, x, y))
            }
            fn compound(op: Op, s: &mut ArrayViewMutD<$t>, y: &ArrayViewD<$t>) -> Option<()> {
                arith_assign!(op, s, y).or_else(|| bits_assign!(op, s, y))
            }
        }
    )*};
}

macro_rules! floats {
    ($($t:ty)*) => {$(
        impl NdElement for $t {
            fn binary(op: Op, x: &ArrayViewD<$t>, y: &ArrayViewD<$t>) -> Option<ArrayD<$t>> {
                arith!(op, x, y)
            }
            fn compound(op: Op, s: &mut ArrayViewMutD<$t>, y: &ArrayViewD<$t>) -> Option<()> {
                arith_assign!(op, s, y)
            }
        }
    )*};
}

integers!(i8 u8 i16 i32 i64);
floats!(f32 f64);

impl NdElement for bool {
    fn binary(op: Op, x: &ArrayViewD<bool>, y: &ArrayViewD<bool>) -> Option<ArrayD<bool>> {
        bits!(op, x, y)
    }
    fn compound(op: Op, s: &mut ArrayViewMutD<bool>, y: &ArrayViewD<bool>) -> Option<()> {
        bits_assign!(op, s, y)
    }
}
