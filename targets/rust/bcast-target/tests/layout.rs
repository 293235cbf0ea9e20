//! layout.rs - the Rust mirror (src/abi.rs) against include/bcast_target.h, as a C compiler lays it out.
//!
//! Compiles tests/layout.c with $CC (default cc) against the header, runs it,
//! and compares its lines with the same facts computed from the #[repr(C)]
//! types: every struct's size and alignment, every field's offset and size,
//! every enum value and constant. Any reordered, resized, missing or extra
//! field, or a renumbered constant, is a named difference.

use std::collections::BTreeSet;
use std::mem::{align_of, offset_of, size_of};
use std::path::Path;
use std::process::Command;

use bcast_target::*;

/// The size of the field a projection closure returns.
fn field_size<T, F>(_: fn(&T) -> &F) -> usize {
    size_of::<F>()
}

macro_rules! fields {
    ($out:ident, $rust:ty, $c:literal, $($f:ident),*) => {
        $out.push(format!("size {} {}", $c, size_of::<$rust>()));
        $out.push(format!("align {} {}", $c, align_of::<$rust>()));
        $($out.push(format!("field {}.{} {} {}", $c, stringify!($f), offset_of!($rust, $f),
                            field_size(|x: &$rust| &x.$f)));)*
    };
}

/// The lines tests/layout.c prints, computed from the Rust side.
fn rust_lines() -> Vec<String> {
    let mut out = Vec::new();
    fields!(out, BctArray, "bct_array", dtype, rank, shape, strides, offset, data);
    fields!(out, BctCall, "bct_call", op, mode, profile, nargs, args, axis, target_rank, target_shape,
            alloc_output, ctx, message, message_cap, alloc_grad, weak_args, grad_form);
    fields!(out, BctTarget, "bct_target", abi_version, name, version, profile, ops, dtypes, max_rank,
            flags, init, run, grad_ops);
    for (c, size, align) in [("bct_dtype", size_of::<Dtype>(), align_of::<Dtype>()),
                             ("bct_op", size_of::<Op>(), align_of::<Op>()),
                             ("bct_mode", size_of::<Mode>(), align_of::<Mode>()),
                             ("bct_grad_form", size_of::<GradForm>(), align_of::<GradForm>()),
                             ("bct_profile", size_of::<Profile>(), align_of::<Profile>()),
                             ("bct_status", size_of::<Status>(), align_of::<Status>())] {
        out.push(format!("size {c} {size}"));
        out.push(format!("align {c} {align}"));
    }
    let consts: [(&str, i64); 11] = [
        ("BCT_ABI_VERSION", BCT_ABI_VERSION as i64), ("BCT_MAX_RANK", BCT_MAX_RANK as i64),
        ("BCT_CAP_STRIDED", BCT_CAP_STRIDED as i64), ("BCT_CAP_INPLACE", BCT_CAP_INPLACE as i64),
        ("BCT_CAP_OUT", BCT_CAP_OUT as i64), ("BCT_CAP_COMPILES", BCT_CAP_COMPILES as i64),
        ("BCT_CAP_GRAD_FORMS", BCT_CAP_GRAD_FORMS as i64),
        ("BCT_CAP_WEAK_SCALAR", BCT_CAP_WEAK_SCALAR as i64), ("BCT_DTYPE_COUNT", BCT_DTYPE_COUNT as i64),
        ("BCT_OP_COUNT", BCT_OP_COUNT as i64), ("BCT_STATUS_COUNT", BCT_STATUS_COUNT as i64),
    ];
    out.extend(consts.iter().map(|(name, value)| format!("const {name} {value}")));
    let enums = Dtype::ALL.iter().map(|(n, v)| (*n, *v as i64))
        .chain(Op::ALL.iter().map(|(n, v)| (*n, *v as i64)))
        .chain(Mode::ALL.iter().map(|(n, v)| (*n, *v as i64)))
        .chain(GradForm::ALL.iter().map(|(n, v)| (*n, *v as i64)))
        .chain(Profile::ALL.iter().map(|(n, v)| (*n, *v as i64)))
        .chain(Status::ALL.iter().map(|(n, v)| (*n, *v as i64)));
    out.extend(enums.map(|(n, v)| format!("const {n} {v}")));
    out.push(format!("entry {BCT_ENTRY_NAME}"));
    out
}

/// Compiles and runs tests/layout.c; its output lines.
fn c_lines() -> Vec<String> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let include = here.join("../../../include");
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bcast_layout");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Wextra", "-I"]).arg(&include)
        .arg(here.join("tests/layout.c")).arg("-o").arg(&exe)
        .status().unwrap_or_else(|e| panic!("cannot run the C compiler {cc}: {e}"));
    assert!(status.success(), "{cc} failed to compile tests/layout.c");
    let out = Command::new(&exe).output().expect("cannot run the layout program");
    assert!(out.status.success(), "the layout program failed");
    String::from_utf8(out.stdout).expect("layout output is text").lines().map(str::to_string).collect()
}

#[test]
fn rust_mirror_matches_the_c_header() {
    let c: BTreeSet<String> = c_lines().into_iter().collect();
    let rust: BTreeSet<String> = rust_lines().into_iter().collect();
    let only_c: Vec<_> = c.difference(&rust).collect();
    let only_rust: Vec<_> = rust.difference(&c).collect();
    assert!(only_c.is_empty() && only_rust.is_empty(),
            "the Rust mirror differs from include/bcast_target.h\n  C says:    {only_c:?}\n  Rust says: {only_rust:?}");
    assert!(c.len() > 100, "the layout program printed too little: {} lines", c.len());
}
