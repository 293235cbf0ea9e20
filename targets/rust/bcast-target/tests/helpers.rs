//! helpers.rs - the safe helpers against the ABI's rules: the layout rule for operands, the message, the guard.

use bcast_target::*;
use std::ffi::{c_int, c_void};

/// A call of `op`/`mode` with the given operands and a message buffer of `cap` bytes.
fn call(args: &[BctArray], msg: &mut [u8], mode: Mode) -> BctCall {
    BctCall {
        op: Op::Add as c_int, mode: mode as c_int, profile: 0, nargs: args.len() as c_int,
        args: args.as_ptr(), axis: 0, target_rank: 0, target_shape: std::ptr::null(),
        alloc_output: None, ctx: std::ptr::null_mut(), message: msg.as_mut_ptr().cast(),
        message_cap: msg.len(), alloc_grad: None, weak_args: 0, grad_form: 0,
    }
}

/// An f32 operand over `data`.
fn operand(data: &mut [f32], shape: &[i64], strides: &[i64], offset: i64) -> BctArray {
    BctArray {
        dtype: Dtype::F32 as c_int, rank: shape.len() as c_int, shape: shape.as_ptr(),
        strides: strides.as_ptr(), offset, data: data.as_mut_ptr() as *mut c_void,
    }
}

#[test]
fn to_vec_follows_offset_negative_and_zero_strides() {
    let mut data: Vec<f32> = (0..6).map(|i| i as f32).collect();
    let (shape, strides) = ([2i64, 3], [-3i64, 0]);
    let args = [operand(&mut data, &shape, &strides, 4)];
    let mut msg = [0u8; 8];
    let raw = call(&args, &mut msg, Mode::Value);
    let c = unsafe { Call::from_raw(&raw) }.unwrap();
    let a = c.arg(0);
    assert_eq!(a.to_vec::<f32>(), vec![4.0, 4.0, 4.0, 1.0, 1.0, 1.0]);
    assert_eq!(a.span(), Some((1, 4)));
    assert_eq!(a.get::<f32>(&[1, 2]), 1.0);
}

#[test]
fn an_empty_operand_has_no_span_and_no_elements() {
    let mut data: Vec<f32> = vec![];
    let (shape, strides) = ([0i64, 3], [3i64, 1]);
    let args = [operand(&mut data, &shape, &strides, 0)];
    let mut msg = [0u8; 8];
    let raw = call(&args, &mut msg, Mode::Value);
    let a = unsafe { Call::from_raw(&raw) }.unwrap().arg(0);
    assert_eq!(a.span(), None);
    assert!(a.to_vec::<f32>().is_empty());
}

#[test]
fn the_message_is_cut_on_a_character_boundary_and_terminated() {
    let mut msg = [0xffu8; 6];
    let raw = call(&[], &mut msg, Mode::Value);
    unsafe { Call::from_raw(&raw) }.unwrap().set_message("abcé€");
    assert_eq!(&msg[..], b"abc\xc3\xa9\0"); // 5 bytes fit, the euro sign does not
}

#[test]
fn run_guarded_maps_errs_and_panics_to_classes() {
    let mut msg = [0u8; 64];
    let raw = call(&[], &mut msg, Mode::Value);
    let err = run_guarded(&raw, |_, _| Status::Other, |_| Err(Failure::new(Status::Overlap, "no")));
    assert_eq!(err, Status::Overlap as c_int);
    let classify = |_: &Call, m: &str| if m.contains("boom") { Status::Dtype } else { Status::Other };
    let panicked = run_guarded(&raw, classify, |_| panic!("boom {}", 1));
    assert_eq!(panicked, Status::Dtype as c_int);
    assert!(msg.starts_with(b"panic: boom 1\0"));
    assert_eq!(run_guarded(&raw, classify, |_| Ok(())), Status::Ok as c_int);
}
