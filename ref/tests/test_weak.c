/* test_weak.c - ref's weak scalars (B34) per profile: a (2,) array with a plain Python number.
 * Expected values are the measured ones of docs/semantics.md B34 (NumPy 1.24.2 /
 * 2.4.6, torch 1.13 / 2.15 on the same expressions). */
#include <math.h>
#include <string.h>
#include "bcast_ref.h"
#include "check.h"

typedef struct out {
    int status, dtype;
    char data[64];
    char message[256];
} out;

static void *grab(void *ctx, int dtype, int rank, const int64_t *shape)
{
    out *o = ctx;
    (void)rank; (void)shape;
    o->dtype = dtype;
    memset(o->data, 0, sizeof o->data);
    return o->data;
}

/* op(x, s) (or op(s, x) when left) with x a (2,) array of xdt over xdata and
 * s a weak scalar stored as sdt (I64, F64, BOOL) at sdata; weak=0 passes s as
 * an ordinary 0-d array, as a caller without the B34 bit would. */
static out call2(int op, int profile, int xdt, void *xdata, int sdt, void *sdata, int left, int weak)
{
    static const int64_t shape2[1] = { 2 }, stride1[1] = { 1 };
    bct_array x = { xdt, 1, shape2, stride1, 0, xdata }, s = { sdt, 0, NULL, NULL, 0, sdata };
    bct_array args[2] = { left ? s : x, left ? x : s };
    bct_call call;
    static out o;
    memset(&o, 0, sizeof o);
    memset(&call, 0, sizeof call);
    call.op = op;
    call.mode = BCT_MODE_VALUE;
    call.profile = profile;
    call.nargs = 2;
    call.args = args;
    call.alloc_output = grab;
    call.ctx = &o;
    call.message = o.message;
    call.message_cap = sizeof o.message;
    call.weak_args = weak ? (left ? 1u : 2u) : 0u;
    o.status = bc_eval(&call, NULL);
    return o;
}

static int8_t i8x[2] = { 1, -2 };
static uint8_t u8x[2] = { 1, 2 };
static float f32x[2] = { 1, 2 };

/* numpy (1.24): a Python int is np.asarray(value), int64, and B19 promotes it by value. */
static void test_numpy_weak_int_is_value_based(void)
{
    int64_t v = 1000;
    out o = call2(BCT_ADD, BCT_PROFILE_NUMPY, BCT_I8, i8x, BCT_I64, &v, 0, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_I16);
    CHECK_EQ_I64(((int16_t *)o.data)[0], 1001);
    CHECK_EQ_I64(((int16_t *)o.data)[1], 998);
}

/* numpy2 (NEP 50): the int takes the array's dtype, and must fit it. */
static void test_numpy2_weak_int_takes_the_array_dtype(void)
{
    int64_t five = 5, big = 1000, neg = -1;
    out o = call2(BCT_ADD, BCT_PROFILE_NUMPY2, BCT_I8, i8x, BCT_I64, &five, 1, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_I8);
    CHECK_EQ_I64(((int8_t *)o.data)[1], 3);
    CHECK_EQ_I64(call2(BCT_ADD, BCT_PROFILE_NUMPY2, BCT_I8, i8x, BCT_I64, &big, 0, 1).status, BCT_ERR_OVERFLOW);
    CHECK_EQ_I64(call2(BCT_MUL, BCT_PROFILE_NUMPY2, BCT_U8, u8x, BCT_I64, &neg, 0, 1).status, BCT_ERR_OVERFLOW);
    /* the same 0-d int64 without the weak bit is a strong array: int64 */
    o = call2(BCT_ADD, BCT_PROFILE_NUMPY2, BCT_I8, i8x, BCT_I64, &big, 0, 0);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_I64);
}

/* numpy2: comparisons take an out-of-range Python int by value. */
static void test_numpy2_compares_an_out_of_range_int_exactly(void)
{
    int64_t big = 1000, neg = -1;
    out o = call2(BCT_LT, BCT_PROFILE_NUMPY2, BCT_I8, i8x, BCT_I64, &big, 0, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_BOOL);
    CHECK_EQ_I64(o.data[0] + o.data[1], 2);
    o = call2(BCT_LT, BCT_PROFILE_NUMPY2, BCT_U8, u8x, BCT_I64, &neg, 0, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.data[0] + o.data[1], 0);
}

/* numpy2: a float keeps an f32 array f32 (1e300 overflows to inf); with an int array it is float64. */
static void test_numpy2_weak_float(void)
{
    double big = 1e300, half = 1.5;
    out o = call2(BCT_ADD, BCT_PROFILE_NUMPY2, BCT_F32, f32x, BCT_F64, &big, 0, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_F32);
    CHECK(isinf(((float *)o.data)[0]));
    o = call2(BCT_ADD, BCT_PROFILE_NUMPY2, BCT_I8, i8x, BCT_F64, &half, 0, 1);
    CHECK_EQ_I64(o.dtype, BCT_F64);
    CHECK(((double *)o.data)[0] == 2.5);
    o = call2(BCT_ADD, BCT_PROFILE_NUMPY, BCT_F32, f32x, BCT_F64, &big, 0, 1);
    CHECK_EQ_I64(o.dtype, BCT_F64);   /* numpy 1.24: by value, 1e300 needs float64 */
}

/* torch: a wrapped number never widens by value (it wraps), a float is the default float32. */
static void test_torch_wrapped_number(void)
{
    int64_t big = 1000;
    double half = 1.5;
    out o = call2(BCT_ADD, BCT_PROFILE_TORCH2, BCT_I8, i8x, BCT_I64, &big, 1, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_I8);
    CHECK_EQ_I64(((int8_t *)o.data)[0], -23);
    o = call2(BCT_ADD, BCT_PROFILE_TORCH, BCT_I8, i8x, BCT_F64, &half, 0, 1);
    CHECK_EQ_I64(o.dtype, BCT_F32);
    o = call2(BCT_LT, BCT_PROFILE_TORCH, BCT_I8, i8x, BCT_I64, &big, 0, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.data[0] + o.data[1], 0);   /* 1000 wraps to -24 */
}

/* torch: functions without a Scalar overload refuse the number (TypeError: other). */
static void test_torch_functions_without_a_number_overload(void)
{
    int64_t three = 3;
    CHECK_EQ_I64(call2(BCT_MAXIMUM, BCT_PROFILE_TORCH, BCT_I8, i8x, BCT_I64, &three, 0, 1).status, BCT_ERR_OTHER);
    CHECK_EQ_I64(call2(BCT_LOGICAL_OR, BCT_PROFILE_TORCH2, BCT_I8, i8x, BCT_I64, &three, 0, 1).status, BCT_ERR_OTHER);
    CHECK_EQ_I64(call2(BCT_EQ, BCT_PROFILE_TORCH, BCT_I8, i8x, BCT_I64, &three, 1, 1).status, BCT_ERR_OTHER);
    CHECK_EQ_I64(call2(BCT_EQ, BCT_PROFILE_TORCH, BCT_I8, i8x, BCT_I64, &three, 0, 1).status, BCT_OK);
    CHECK_EQ_I64(call2(BCT_MAXIMUM, BCT_PROFILE_NUMPY2, BCT_I8, i8x, BCT_I64, &three, 0, 1).status, BCT_OK);
}

/* torch 2: a bool tensor to a Python bool power is bool (x ** True is x, x ** False is 1); torch 1.13 refuses it. */
static void test_torch2_bool_power_of_a_python_bool(void)
{
    static uint8_t bx[2] = { 1, 0 };
    uint8_t t = 1, f = 0;
    out o = call2(BCT_POW, BCT_PROFILE_TORCH2, BCT_BOOL, bx, BCT_BOOL, &t, 0, 1);
    CHECK_EQ_I64(o.status, BCT_OK);
    CHECK_EQ_I64(o.dtype, BCT_BOOL);
    CHECK_EQ_I64(o.data[0] * 10 + o.data[1], 10);
    o = call2(BCT_POW, BCT_PROFILE_TORCH2, BCT_BOOL, bx, BCT_BOOL, &f, 0, 1);
    CHECK_EQ_I64(o.data[0] * 10 + o.data[1], 11);
    CHECK_EQ_I64(call2(BCT_POW, BCT_PROFILE_TORCH, BCT_BOOL, bx, BCT_BOOL, &t, 0, 1).status, BCT_ERR_DTYPE);
    CHECK_EQ_I64(call2(BCT_POW, BCT_PROFILE_TORCH2, BCT_BOOL, bx, BCT_BOOL, &t, 0, 0).status, BCT_ERR_DTYPE);
}

/* where(cond, x, s): torch checks that s fits the result; NumPy 2 casts it unchecked. */
static void test_where_with_a_weak_branch(void)
{
    static const int64_t shape2[1] = { 2 }, stride1[1] = { 1 };
    static uint8_t cond[2] = { 1, 0 };
    int64_t big = 1000;
    bct_array args[3] = { { BCT_BOOL, 1, shape2, stride1, 0, cond }, { BCT_I8, 1, shape2, stride1, 0, i8x },
                          { BCT_I64, 0, NULL, NULL, 0, &big } };
    int want[2] = { BCT_ERR_OVERFLOW, BCT_OK };
    int profile[2] = { BCT_PROFILE_TORCH, BCT_PROFILE_NUMPY2 };
    for (int i = 0; i < 2; i++) {
        out o;
        bct_call call;
        memset(&o, 0, sizeof o);
        memset(&call, 0, sizeof call);
        call = (bct_call){ .op = BCT_WHERE, .mode = BCT_MODE_VALUE, .profile = profile[i], .nargs = 3,
                           .args = args, .alloc_output = grab, .ctx = &o, .message = o.message,
                           .message_cap = sizeof o.message, .weak_args = 4u };
        o.status = bc_eval(&call, NULL);
        CHECK_EQ_I64(o.status, want[i]);
        if (i == 1) {
            CHECK_EQ_I64(o.dtype, BCT_I8);
            CHECK_EQ_I64(((int8_t *)o.data)[1], -24);
        }
    }
}

int main(void)
{
    RUN(test_numpy_weak_int_is_value_based);
    RUN(test_numpy2_weak_int_takes_the_array_dtype);
    RUN(test_numpy2_compares_an_out_of_range_int_exactly);
    RUN(test_numpy2_weak_float);
    RUN(test_torch_wrapped_number);
    RUN(test_torch_functions_without_a_number_overload);
    RUN(test_where_with_a_weak_branch);
    RUN(test_torch2_bool_power_of_a_python_bool);
    return check_summary();
}
