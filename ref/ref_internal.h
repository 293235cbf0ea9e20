/* ref_internal.h - declarations shared by ref's modules; not part of the public API. */
#ifndef BCAST_REF_INTERNAL_H
#define BCAST_REF_INTERNAL_H

#include <stdint.h>
#include "bcast_ref.h"

#if defined(__GNUC__)
#define BC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BC_PRINTF(f, a)
#endif

/* Fills err (if non-NULL) with status, the operands and dim involved and a
 * printf-style message; returns status so callers can `return bc_fail(...)`. */
int bc_fail(bc_error *err, int status, int operand, int other, int dim,
            const char *fmt, ...) BC_PRINTF(6, 7);

/* B16, NumPy profile: the product of s's non-zero extents times dtype's size
 * must fit in intp, or NumPy will not create the array (class overflow).
 * operand is the operand number, -1 for the result. */
int bc_check_numpy_bytes(const bc_shape *s, int dtype, int operand, bc_error *err);

/* Resets err to "no error". */
void bc_clear_error(bc_error *err);

/* Copies rank/shape of an ABI array into a bc_shape (rank must be valid). */
void bc_shape_of(const bct_array *a, bc_shape *out);

/* Internal dtypes beyond the eight of the ABI: NumPy's value-based casting can
 * name them as loop types (B19). They never reach an output. */
enum { BC_U16 = 16, BC_U32, BC_U64, BC_F16 };

/* B18/B19: the loop (compute) dtype and the result dtype of an element-wise op
 * over nin inputs. For where, args are cond, x, y. For comparisons and logical
 * ops, result is bool and compute may be internal (BC_U16...): compute then
 * names an exact wider ABI dtype to compare in. */
int bc_op_dtypes(int op, const bct_array *args, int nin, int profile,
                 int *compute, int *result, bc_error *err);

/* The same, except that a result NumPy's value-based casting makes an
 * unsigned type wider than u8 (a u8 array with a 0-d integer above 255) is
 * returned as BC_U16/BC_U32/BC_U64 instead of refused: an in-place or out=
 * call computes in it and casts into its destination, as NumPy does. */
int bc_op_dtypes_wide(int op, const bct_array *args, int nin, int profile,
                      int *compute, int *result, bc_error *err);

/* B19/B32: the profile's result_type over n operands, before any op's rule
 * (NumPy 1.24 value-based, NumPy 2 by dtype, torch by category). */
int bc_promote_operands(const bct_array *args, int n, int profile);

/* B34: weak scalars. dt holds the operands as promotion sees them (nin
 * inputs; for where, cond first); weak has bit k set for a weak input k.
 * Rewrites each weak operand's dtype to the one its profile gives it, or
 * fails with the error the library raises for the scalar (NumPy 2's
 * out-of-bounds Python int, torch.where's overflow, torch functions that
 * take no Python number). */
int bc_weak_view(int op, uint32_t weak, int profile, bct_array *dt, int nin, bc_error *err);

/* B34, torch2: pow of a bool tensor by a Python bool is bool (x ** e is
 * x | !e). Returns 1 and the equivalent logical_or call in alt (args and
 * not_e are its storage, valid while alt is used), or 0 when it does not apply. */
int bc_weak_bool_pow(const bct_call *call, bct_call *alt, bct_array *args, uint8_t *not_e);

/* B19: may a result of dtype `from` be written into dtype `to` (in-place, out=)?
 * NumPy's same_kind rule or torch's canCast. */
int bc_can_cast(int from, int to, int profile);

/* ---- the strided iterator (iter.c) ---- */
#define BC_ITER_MAXOP 8   /* grad mode walks g, cond, x, y and two gradients */

/* One operand as the iterator sees it: element-size, shape and strides in
 * elements (right-aligned against the iteration shape), and a base pointer
 * that already includes the operand's offset. */
typedef struct bc_operand {
    char *base;
    int itemsize;
    int rank;
    const int64_t *shape;
    const int64_t *strides;
} bc_operand;

typedef struct bc_iter {
    int rank, nop;
    int64_t shape[BC_MAX_RANK];
    int64_t stride[BC_ITER_MAXOP][BC_MAX_RANK]; /* bytes; 0 where stretched (B17) */
    int64_t index[BC_MAX_RANK];
    int64_t off[BC_ITER_MAXOP];                 /* byte offset of the current row */
    char *base[BC_ITER_MAXOP];
    int64_t n;                                  /* elements per row (last extent) */
    int64_t inner[BC_ITER_MAXOP];               /* byte stride along the row */
    int started, empty;
} bc_iter;

void bc_iter_init(bc_iter *it, int rank, const int64_t *shape, int nop, const bc_operand *ops);
/* Advances to the next row; returns 1 and sets ptr[] to each operand's row start,
 * or 0 when the iteration is over. */
int bc_iter_next(bc_iter *it, char **ptr);

/* ---- element loops (ops.c) ---- */
typedef void (*bc_loop2)(char *o, const char *a, const char *b, int64_t n,
                         int64_t so, int64_t sa, int64_t sb);

/* The typed loop for op over compute dtype under profile, or NULL. */
bc_loop2 bc_binary_loop(int op, int dtype, int profile);
bc_loop2 bc_pow_half_loop(int dtype);
/* Converts n elements from src (dtype st, byte stride ss) to dst (dt, ds). */
void bc_cast(char *dst, int dt, int64_t ds, const char *src, int st, int64_t ss, int64_t n);
/* where: out[i] = cond[i] ? x[i] : y[i] for elements of `size` bytes; cond is bool. */
void bc_where_loop(char *o, const char *c, const char *x, const char *y, int64_t n,
                   int64_t so, int64_t sc, int64_t sx, int64_t sy, int size);
/* Floor division (B20, B21), shared with torch's div_floor (B42). */
double bc_floor_div_f64(double a, double b);
float bc_floor_div_f32(float a, float b);
int64_t bc_floor_div_i64(int64_t a, int64_t b);
/* The ops of issue #25 (B38-B45, mathops.c): value mode only. */
int bc_is_mathop(int op);
int bc_eval_mathop(const bct_call *call, bc_error *err);
/* Reads element p of dtype dt as int64 / double (for checks). */
int64_t bc_load_i64(const char *p, int dt);
double bc_load_f64(const char *p, int dt);
int bc_is_float(int dtype);
int bc_is_int(int dtype);

/* An operand's element (0,...,0), or NULL for a buffer-less (empty) operand. */
static inline char *bc_base(const bct_array *a)
{
    return a->data != NULL ? (char *)a->data + a->offset * bc_dtype_size(a->dtype) : NULL;
}

/* ---- the backward pass (grad.c) ---- */
/* BCT_MODE_GRAD (B23-B31): call has been checked by check_call (the op's
 * inputs, then the incoming gradient). */
int bc_eval_grad(const bct_call *call, bc_error *err);

/* ---- B47: the in-place and out= call forms (grad_form.c) ---- */
/* A grad call of form BCT_GRAD_INPLACE or BCT_GRAD_OUT: its forward call's
 * error (torch: out='s autograd refusal first), or BCT_OK with *value set to
 * the value-form call (args x, y, grad in args[3]) whose backward pass is the
 * form's. */
int bc_grad_form_call(const bct_call *call, bct_call *value, bct_array *args, bc_error *err);

/* ---- matmul (matmul.c) ---- */
int bc_matmul_eval(const bct_array *x, const bct_array *y, int dtype,
                   const bc_shape *out_shape, char *out, int neg_zero);

/* ---- B47: torch's matmul sums that start from -0 (matmul_zero.c) ---- */
int bc_matmul_value_negzero(const bct_call *call);
void bc_matmul_grad_negzero(const bct_call *call, int neg[2]);

#endif
