//! call.rs - safe views of one case: the call, its operands as the runner lays them out, its buffers.

use std::ffi::{c_int, c_void};
use std::ptr::NonNull;

use crate::abi::{BctArray, BctCall, Dtype, Mode, Op, Profile};
use crate::element::Element;

/// One operand: a strided view into the runner's storage. Every field of the
/// C struct stays reachable, so an adapter can hand the library the memory as
/// it is (offset, zero and negative strides included).
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    raw: &'a BctArray,
}

/// A slice of `len` i64 at `ptr`; empty (and never dereferenced) for len 0,
/// where the runner may pass NULL.
unsafe fn ints<'a>(ptr: *const i64, len: usize) -> &'a [i64] {
    if len == 0 || ptr.is_null() {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, len)
    }
}

impl<'a> Operand<'a> {
    /// The C struct itself.
    pub fn raw(&self) -> &'a BctArray {
        self.raw
    }

    /// The dtype, or None for a value the header does not define.
    pub fn dtype(&self) -> Option<Dtype> {
        Dtype::from_raw(self.raw.dtype)
    }

    /// The rank (0 for a 0-d operand).
    pub fn rank(&self) -> usize {
        self.raw.rank.max(0) as usize
    }

    /// The extents, outermost first.
    pub fn shape(&self) -> &'a [i64] {
        // SAFETY: the runner passes `rank` extents, valid for the call.
        unsafe { ints(self.raw.shape, self.rank()) }
    }

    /// The strides in elements (may be 0 or negative).
    pub fn strides(&self) -> &'a [i64] {
        // SAFETY: as for shape().
        unsafe { ints(self.raw.strides, self.rank()) }
    }

    /// The element offset of index (0, ..., 0) from `data()`.
    pub fn offset(&self) -> i64 {
        self.raw.offset
    }

    /// The storage base (writable only for in-place self and out=).
    pub fn data(&self) -> *mut c_void {
        self.raw.data
    }

    /// The number of elements the view addresses (the product of the extents).
    pub fn len(&self) -> usize {
        self.shape().iter().map(|&e| e.max(0) as usize).product()
    }

    /// True when some extent is 0.
    pub fn is_empty(&self) -> bool {
        self.shape().contains(&0)
    }

    /// The lowest and highest element index (from `data()`) the view addresses,
    /// or None when it addresses none. Negative strides reach below the offset.
    pub fn span(&self) -> Option<(i64, i64)> {
        if self.is_empty() {
            return None;
        }
        let (mut lo, mut hi) = (self.offset(), self.offset());
        for (&e, &s) in self.shape().iter().zip(self.strides()) {
            if s < 0 {
                lo += s * (e - 1);
            } else {
                hi += s * (e - 1);
            }
        }
        Some((lo, hi))
    }

    /// A pointer to element (0, ..., 0): `data + offset`, typed. Panics when T
    /// is not the operand's dtype (an adapter bug, not the library's).
    pub fn element_ptr<T: Element>(&self) -> *mut T {
        assert_eq!(self.dtype(), Some(T::DTYPE), "bcast-target: operand read with the wrong element type");
        (self.data() as *mut T).wrapping_offset(self.offset() as isize)
    }

    /// The element at `index` (one entry per dim, each inside its extent).
    pub fn get<T: Element>(&self, index: &[i64]) -> T {
        assert_eq!(index.len(), self.rank(), "bcast-target: index of the wrong rank");
        let mut at = 0i64;
        for ((&i, &e), &s) in index.iter().zip(self.shape()).zip(self.strides()) {
            assert!(0 <= i && i < e, "bcast-target: index outside the operand");
            at += i * s;
        }
        // SAFETY: the index is inside the view, whose elements the runner provides.
        unsafe { *self.element_ptr::<T>().offset(at as isize) }
    }

    /// A C-order copy of the view's elements, for libraries that take owned,
    /// contiguous data (the copy is then the adapter's, say so in FINDINGS.md).
    pub fn to_vec<T: Element>(&self) -> Vec<T> {
        // SAFETY: every index inside the view addresses an element the runner provides.
        unsafe { gather(self.element_ptr::<T>(), self.shape(), self.strides()) }
    }
}

/// One case: what to compute, the operands, and the runner's allocators.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    raw: &'a BctCall,
}

/// A mutable slice of `len` T at `ptr` (a dangling, aligned pointer for len 0).
unsafe fn buffer<'a, T>(ptr: *mut c_void, len: usize) -> Option<&'a mut [T]> {
    if ptr.is_null() {
        return None;
    }
    let p = if len == 0 { NonNull::<T>::dangling().as_ptr() } else { ptr as *mut T };
    Some(std::slice::from_raw_parts_mut(p, len))
}

/// The element count of a shape the runner accepted (it refuses overflowing ones).
fn count(shape: &[i64]) -> usize {
    shape.iter().map(|&e| e.max(0) as usize).product()
}

impl<'a> Call<'a> {
    /// Wraps the runner's call.
    ///
    /// # Safety
    /// `raw` must be the pointer `run` received, used only during that call.
    pub unsafe fn from_raw(raw: *const BctCall) -> Option<Call<'a>> {
        raw.as_ref().map(|raw| Call { raw })
    }

    /// The C struct itself.
    pub fn raw(&self) -> &'a BctCall {
        self.raw
    }

    /// The op, or None for a value the header does not define.
    pub fn op(&self) -> Option<Op> {
        Op::from_raw(self.raw.op)
    }

    /// The delivery mode.
    pub fn mode(&self) -> Option<Mode> {
        Mode::from_raw(self.raw.mode)
    }

    /// The profile this case is checked against.
    pub fn profile(&self) -> Option<Profile> {
        Profile::from_raw(self.raw.profile)
    }

    /// The number of operands.
    pub fn nargs(&self) -> usize {
        self.raw.nargs.max(0) as usize
    }

    /// Operand `i` (panics past `nargs()`).
    pub fn arg(&self, i: usize) -> Operand<'a> {
        assert!(i < self.nargs(), "bcast-target: operand {i} of {}", self.nargs());
        // SAFETY: the runner passes nargs operands, valid for the call.
        Operand { raw: unsafe { &*self.raw.args.add(i) } }
    }

    /// All operands, in the op's order.
    pub fn args(&self) -> Vec<Operand<'a>> {
        (0..self.nargs()).map(|i| self.arg(i)).collect()
    }

    /// The legacy axis (`Op::AxisAdd` only).
    pub fn axis(&self) -> i64 {
        self.raw.axis
    }

    /// The target shape of broadcast_to / expand (entries may be -1 for expand).
    pub fn target_shape(&self) -> &'a [i64] {
        // SAFETY: the runner passes target_rank extents, valid for the call.
        unsafe { ints(self.raw.target_shape, self.raw.target_rank.max(0) as usize) }
    }

    /// `alloc_output` as the C ABI has it: a zeroed C-contiguous buffer, or
    /// NULL when refused. At most once per call.
    pub fn alloc_output_raw(&self, dtype: Dtype, shape: &[i64]) -> *mut c_void {
        let none = 0i64; /* a 0-d result still passes a non-NULL shape */
        let ptr = if shape.is_empty() { &none } else { shape.as_ptr() };
        match self.raw.alloc_output {
            // SAFETY: the runner's allocator, called with a valid shape array.
            Some(f) => unsafe { f(self.raw.ctx, dtype as c_int, shape.len() as c_int, ptr) },
            None => std::ptr::null_mut(),
        }
    }

    /// The output buffer for a result of element type T and this shape, in C
    /// order, or None when the runner refuses it.
    pub fn alloc_output<T: Element>(&self, shape: &[i64]) -> Option<&'a mut [T]> {
        // SAFETY: the runner returns a buffer of exactly count(shape) elements.
        unsafe { buffer(self.alloc_output_raw(T::DTYPE, shape), count(shape)) }
    }

    /// A shape-only result (broadcast_shapes): false when refused.
    pub fn alloc_shape(&self, shape: &[i64]) -> bool {
        !self.alloc_output_raw(Dtype::None, shape).is_null()
    }

    /// The gradient buffer of input `arg_index` (its dtype T and shape), or
    /// None when refused. At most once per input, grad mode only.
    pub fn alloc_grad<T: Element>(&self, arg_index: usize, shape: &[i64]) -> Option<&'a mut [T]> {
        let none = 0i64;
        let ptr = if shape.is_empty() { &none } else { shape.as_ptr() };
        let f = self.raw.alloc_grad?;
        // SAFETY: the runner's allocator; it returns count(shape) elements or NULL.
        unsafe {
            let p = f(self.raw.ctx, arg_index as c_int, T::DTYPE as c_int, shape.len() as c_int, ptr);
            buffer(p, count(shape))
        }
    }

    /// Writes `text` as the call's NUL-terminated message, cut at the
    /// capacity on a character boundary.
    pub fn set_message(&self, text: &str) {
        let cap = self.raw.message_cap;
        if self.raw.message.is_null() || cap == 0 {
            return;
        }
        let mut n = text.len().min(cap - 1);
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        // SAFETY: the runner's buffer holds message_cap bytes; n + 1 <= cap.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), self.raw.message as *mut u8, n);
            *self.raw.message.add(n) = 0;
        }
    }
}

/// The elements of the strided view (`shape`, `strides` in elements, from
/// `base`) in C order. An adapter may pass a shape of its own, e.g. the view's
/// with its stride-0 dims reduced to 1; any zero extent gives an empty Vec.
///
/// # Safety
/// Every index inside `shape` must address a readable T at
/// `base + sum(index[d] * strides[d])`.
pub unsafe fn gather<T: Copy>(base: *const T, shape: &[i64], strides: &[i64]) -> Vec<T> {
    let n: usize = shape.iter().map(|&e| e.max(0) as usize).product();
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let mut index = vec![0i64; shape.len()];
    let mut at = 0i64;
    loop {
        // SAFETY: `at` is the element offset of an index inside the view (the caller's promise).
        out.push(unsafe { *base.offset(at as isize) });
        let mut d = shape.len();
        loop {
            if d == 0 {
                return out;
            }
            d -= 1;
            index[d] += 1;
            at += strides[d];
            if index[d] < shape[d] {
                break;
            }
            at -= strides[d] * shape[d];
            index[d] = 0;
        }
    }
}
