//! abi.rs - the #[repr(C)] mirror of include/bcast_target.h: structs, enums, constants.
//!
//! Written by hand, field for field in the header's order; tests/layout.rs
//! compiles a C program against the header and fails on any difference in a
//! size, an alignment, a field's offset or size, or a constant's value.

use std::ffi::{c_char, c_int, c_uint, c_void};

/// The ABI version this crate mirrors (`BCT_ABI_VERSION`).
pub const BCT_ABI_VERSION: c_int = 2;
/// The largest rank the runner ever passes (`BCT_MAX_RANK`).
pub const BCT_MAX_RANK: usize = 128;
/// `BCT_CAP_STRIDED`: accepts non-contiguous, offset and stride-0 inputs.
pub const BCT_CAP_STRIDED: c_uint = 1;
/// `BCT_CAP_INPLACE`: supports `Mode::Inplace`.
pub const BCT_CAP_INPLACE: c_uint = 2;
/// `BCT_CAP_OUT`: supports `Mode::Out`.
pub const BCT_CAP_OUT: c_uint = 4;
/// `BCT_CAP_WEAK_SCALAR`: reads `BctCall::weak_args`, takes weak-scalar operands (B34).
pub const BCT_CAP_WEAK_SCALAR: c_uint = 8;
/// `BCT_CAP_COMPILES`: compiles on first use; a worker's first call of each op and mode gets
/// bcast-run's `--first-call-timeout`.
pub const BCT_CAP_COMPILES: c_uint = 16;
/// `BCT_CAP_GRAD_FORMS`: reads `BctCall::grad_form`, takes in-place and out= gradient cases (B46).
pub const BCT_CAP_GRAD_FORMS: c_uint = 32;
/// `BCT_ENTRY_NAME`: the symbol the runner looks up.
pub const BCT_ENTRY_NAME: &str = "bcast_target_v1";

/// Defines a C enum as a Rust enum with its C values, `from_raw` and the
/// table (C name, value) the layout test compares with the header.
macro_rules! c_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $value:expr => $cname:literal,)* }) => {
        $(#[$meta])*
        #[repr(i32)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant = $value,)* }

        impl $name {
            /// Every value with its C name, in the header's order.
            pub const ALL: &'static [(&'static str, $name)] = &[$(($cname, $name::$variant),)*];

            /// The variant of a raw C value, or None for a value the header does not define.
            pub fn from_raw(raw: c_int) -> Option<$name> {
                Self::ALL.iter().find(|(_, v)| *v as c_int == raw).map(|(_, v)| *v)
            }

            /// The C name (`BCT_ADD`).
            pub fn c_name(self) -> &'static str {
                Self::ALL.iter().find(|(_, v)| *v == self).map(|(n, _)| *n).unwrap_or("?")
            }
        }
    };
}

c_enum! {
    /// `bct_dtype`: element types; storage is native-endian, bool is one byte 0/1.
    Dtype {
        Bool = 0 => "BCT_BOOL", I8 = 1 => "BCT_I8", U8 = 2 => "BCT_U8", I16 = 3 => "BCT_I16",
        I32 = 4 => "BCT_I32", I64 = 5 => "BCT_I64", F32 = 6 => "BCT_F32", F64 = 7 => "BCT_F64",
        None = -1 => "BCT_NONE",
    }
}

/// `BCT_DTYPE_COUNT`.
pub const BCT_DTYPE_COUNT: c_int = 8;

c_enum! {
    /// `bct_op`: binary ops take x, y; where takes cond, x, y; clip, lerp,
    /// addcmul, addcdiv and gemm_bias take x, y, z.
    Op {
        Add = 0 => "BCT_ADD", Sub = 1 => "BCT_SUB", Mul = 2 => "BCT_MUL", Div = 3 => "BCT_DIV",
        FloorDivide = 4 => "BCT_FLOOR_DIVIDE", Remainder = 5 => "BCT_REMAINDER", Pow = 6 => "BCT_POW",
        Maximum = 7 => "BCT_MAXIMUM", Minimum = 8 => "BCT_MINIMUM",
        Eq = 9 => "BCT_EQ", Ne = 10 => "BCT_NE", Lt = 11 => "BCT_LT", Le = 12 => "BCT_LE",
        Gt = 13 => "BCT_GT", Ge = 14 => "BCT_GE",
        LogicalAnd = 15 => "BCT_LOGICAL_AND", LogicalOr = 16 => "BCT_LOGICAL_OR",
        LogicalXor = 17 => "BCT_LOGICAL_XOR",
        BitwiseAnd = 18 => "BCT_BITWISE_AND", BitwiseOr = 19 => "BCT_BITWISE_OR",
        BitwiseXor = 20 => "BCT_BITWISE_XOR",
        Where = 21 => "BCT_WHERE", BroadcastTo = 22 => "BCT_BROADCAST_TO", Expand = 23 => "BCT_EXPAND",
        Matmul = 24 => "BCT_MATMUL", BroadcastShapes = 25 => "BCT_BROADCAST_SHAPES",
        AxisAdd = 26 => "BCT_AXIS_ADD", UniAdd = 27 => "BCT_UNI_ADD",
        // issue #25 (docs/semantics.md B38-B45), value mode only
        Copysign = 28 => "BCT_COPYSIGN", Atan2 = 29 => "BCT_ATAN2", Hypot = 30 => "BCT_HYPOT",
        Fmod = 31 => "BCT_FMOD", Heaviside = 32 => "BCT_HEAVISIDE",
        Logaddexp = 33 => "BCT_LOGADDEXP", Logaddexp2 = 34 => "BCT_LOGADDEXP2",
        Nextafter = 35 => "BCT_NEXTAFTER", Ldexp = 36 => "BCT_LDEXP", Gcd = 37 => "BCT_GCD",
        Lcm = 38 => "BCT_LCM", LeftShift = 39 => "BCT_LEFT_SHIFT",
        RightShift = 40 => "BCT_RIGHT_SHIFT", FloatPower = 41 => "BCT_FLOAT_POWER",
        Fmax = 42 => "BCT_FMAX", Fmin = 43 => "BCT_FMIN", DivTrunc = 44 => "BCT_DIV_TRUNC",
        DivFloor = 45 => "BCT_DIV_FLOOR", Clip = 46 => "BCT_CLIP", Lerp = 47 => "BCT_LERP",
        Addcmul = 48 => "BCT_ADDCMUL", Addcdiv = 49 => "BCT_ADDCDIV", Prelu = 50 => "BCT_PRELU",
        GemmBias = 51 => "BCT_GEMM_BIAS",
    }
}

/// `BCT_OP_COUNT`.
pub const BCT_OP_COUNT: c_int = 52;

c_enum! {
    /// `bct_mode`: how the result is delivered.
    Mode {
        Value = 0 => "BCT_MODE_VALUE", Inplace = 1 => "BCT_MODE_INPLACE",
        Out = 2 => "BCT_MODE_OUT", Grad = 3 => "BCT_MODE_GRAD",
    }
}

c_enum! {
    /// `bct_grad_form`: the call form a gradient case differentiates (`BctCall::grad_form`, B46).
    GradForm {
        Value = 0 => "BCT_GRAD_VALUE", Inplace = 1 => "BCT_GRAD_INPLACE", Out = 2 => "BCT_GRAD_OUT",
    }
}

c_enum! {
    /// `bct_profile`: whose semantics decide the divergent cases; two
    /// generations of each library (issue #22), the family is the value % 2.
    Profile {
        Numpy = 0 => "BCT_PROFILE_NUMPY", Torch = 1 => "BCT_PROFILE_TORCH",
        Numpy2 = 2 => "BCT_PROFILE_NUMPY2", Torch2 = 3 => "BCT_PROFILE_TORCH2",
    }
}

c_enum! {
    /// `bct_status`: success or one of the fixed error classes.
    Status {
        Ok = 0 => "BCT_OK", NotBroadcastable = 1 => "BCT_ERR_NOT_BROADCASTABLE",
        InplaceShape = 2 => "BCT_ERR_INPLACE_SHAPE", Overlap = 3 => "BCT_ERR_OVERLAP",
        Axis = 4 => "BCT_ERR_AXIS", MatmulCore = 5 => "BCT_ERR_MATMUL_CORE",
        RankLimit = 6 => "BCT_ERR_RANK_LIMIT", Overflow = 7 => "BCT_ERR_OVERFLOW",
        InvalidShape = 8 => "BCT_ERR_INVALID_SHAPE", DivisionByZero = 9 => "BCT_ERR_DIVISION_BY_ZERO",
        Dtype = 10 => "BCT_ERR_DTYPE", Other = 11 => "BCT_ERR_OTHER",
    }
}

/// `BCT_STATUS_COUNT`.
pub const BCT_STATUS_COUNT: c_int = 12;

/// `bct_array`: one operand, a strided view into a storage buffer. Element
/// (i0..ik) is at `data[offset + sum(i_j * strides[j])]`, in elements.
#[repr(C)]
#[derive(Debug)]
pub struct BctArray {
    pub dtype: c_int,
    pub rank: c_int,
    pub shape: *const i64,
    pub strides: *const i64,
    pub offset: i64,
    pub data: *mut c_void,
}

/// `alloc_output(ctx, dtype, rank, shape)`.
pub type AllocOutputFn = unsafe extern "C" fn(*mut c_void, c_int, c_int, *const i64) -> *mut c_void;
/// `alloc_grad(ctx, arg_index, dtype, rank, shape)` (ABI 2).
pub type AllocGradFn = unsafe extern "C" fn(*mut c_void, c_int, c_int, c_int, *const i64) -> *mut c_void;

/// `bct_call`: one case, valid only for the duration of `run`.
#[repr(C)]
#[derive(Debug)]
pub struct BctCall {
    pub op: c_int,
    pub mode: c_int,
    pub profile: c_int,
    pub nargs: c_int,
    pub args: *const BctArray,
    pub axis: i64,
    pub target_rank: c_int,
    pub target_shape: *const i64,
    pub alloc_output: Option<AllocOutputFn>,
    pub ctx: *mut c_void,
    pub message: *mut c_char,
    pub message_cap: usize,
    pub alloc_grad: Option<AllocGradFn>,
    /// Bit i set when `args[i]` is a weak scalar (a 0-d I64/F64/Bool standing for a
    /// plain Python int/float/bool); given only to targets claiming `BCT_CAP_WEAK_SCALAR`.
    pub weak_args: u32,
    /// In `Mode::Grad`, the call form to differentiate (`GradForm` as a C int, B46):
    /// nonzero only for targets claiming `BCT_CAP_GRAD_FORMS`.
    pub grad_form: c_int,
}

/// `init(arg)`: nonzero means the target is unusable.
pub type InitFn = unsafe extern "C" fn(*const c_char) -> c_int;
/// `run(call)`: `Status` as a C int.
pub type RunFn = unsafe extern "C" fn(*const BctCall) -> c_int;

/// `bct_target`: the descriptor `bcast_target_v1` returns, with static storage.
#[repr(C)]
#[derive(Debug)]
pub struct BctTarget {
    pub abi_version: c_int,
    pub name: *const c_char,
    pub version: *const c_char,
    pub profile: c_int,
    pub ops: u64,
    pub dtypes: u32,
    pub max_rank: c_int,
    pub flags: c_uint,
    pub init: Option<InitFn>,
    pub run: Option<RunFn>,
    pub grad_ops: u64,
}

// SAFETY: a descriptor is immutable static data (two pointers to static C
// strings and two function pointers); the runner only reads it.
unsafe impl Sync for BctTarget {}

/// The `ops`/`grad_ops` bit of each op in `ops` (`1 << op` summed).
pub const fn op_bits(ops: &[Op]) -> u64 {
    let mut bits = 0u64;
    let mut i = 0;
    while i < ops.len() {
        bits |= 1u64 << (ops[i] as u32);
        i += 1;
    }
    bits
}

/// The `dtypes` bit of each dtype in `dtypes` (`1 << dtype` summed).
pub const fn dtype_bits(dtypes: &[Dtype]) -> u32 {
    let mut bits = 0u32;
    let mut i = 0;
    while i < dtypes.len() {
        bits |= 1u32 << (dtypes[i] as u32);
        i += 1;
    }
    bits
}
