/* compare.h - output comparison: exact, ulp, fnv1a64 digests, and value formatting for diffs. */
#ifndef BR_COMPARE_H
#define BR_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Copies the strided view (strides in elements) into dst in C order. */
void br_gather(const void *data, int dtype, int rank, const int64_t *shape,
               const int64_t *strides, int64_t offset, void *dst);

/* Compares n elements of dtype. cmp is BR_CMP_EXACT (bitwise; any NaN equals
 * any NaN) or BR_CMP_ULP (floats within ulp units; infinities exact; integers
 * exact). Returns 0 when equal, else 1 with *first = first differing index. */
int br_compare(int dtype, const void *expected, const void *actual, int64_t n,
               int cmp, int64_t ulp, int64_t *first);

/* br_compare with the case format's `ulp N abs A`: under BR_CMP_ULP, finite
 * floats also agree when they differ by at most abs_tol (0: no such rule). */
int br_compare_tol(int dtype, const void *expected, const void *actual, int64_t n,
                   int cmp, int64_t ulp, double abs_tol, int64_t *first);

/* Units in the last place between two finite or infinite floats of the same
 * dtype (f32/f64); INT64_MAX when one is NaN and the other not. */
int64_t br_ulp_distance(int dtype, const void *a, const void *b);

/* How two outputs of the same dtype and shape differ: every differing element
 * falls in exactly one class (checked in this order), so a report can say
 * "13 of 196 differ: 13 NaN dropped" instead of showing only the first one. */
enum {
    BR_DC_NAN_DROPPED,   /* expected NaN, got a number */
    BR_DC_NAN_INVENTED,  /* got NaN where a number was expected */
    BR_DC_INF,           /* one side is +-inf, the other is not the same inf */
    BR_DC_SIGNED_ZERO,   /* +0 against -0 */
    BR_DC_ZERO,          /* actual is 0 where a non-zero number was expected (not written,
                          * or written with zeros: the runner zeroes outputs, so either) */
    BR_DC_WRAPPED,       /* integer: actual is expected wrapped to 8/16/32 bits */
    BR_DC_SATURATED,     /* integer: actual is the dtype's min or max */
    BR_DC_HIGH_HALF,     /* i64: the low 32 bits agree, the high 32 do not */
    BR_DC_MISPLACED,     /* actual is a value that occurs elsewhere in the expected output
                            (of 16+ elements, at least half of them distinct): a stride/index bug */
    BR_DC_ROUNDING,      /* float: finite and within 2^20 ulp (a precision difference) */
    BR_DC_OTHER,
    BR_DC_COUNT
};
extern const char *const br_diff_class_names[BR_DC_COUNT];   /* "nan-dropped", ... */

#define BR_DIFF_FIRST 6
typedef struct br_diff {
    int64_t n, count;               /* elements compared, elements that differ */
    int64_t by_class[BR_DC_COUNT];
    int64_t max_ulp;                /* over float pairs that are both finite */
    int64_t first[BR_DIFF_FIRST];   /* flat indices of the first differences */
    int nfirst;
    int dominant;                   /* the class with the most elements (earlier class on ties), -1 if none */
} br_diff;

/* Classifies every difference between expected and actual (n elements of
 * dtype) under the comparison rule (as br_compare). Returns d->count. */
int64_t br_diff_compute(int dtype, const void *expected, const void *actual, int64_t n,
                        int cmp, int64_t ulp, br_diff *d);
int64_t br_diff_compute_tol(int dtype, const void *expected, const void *actual, int64_t n,
                            int cmp, int64_t ulp, double abs_tol, br_diff *d);

/* "13 of 196 elements differ: 13 nan-dropped; first at (0,3) (1,2)" */
void br_diff_describe(const br_diff *d, const int64_t *shape, int rank, char *buf, size_t cap);

/* fnv1a64 of the little-endian bytes of n elements, NaNs canonical. */
uint64_t br_digest(int dtype, const void *data, int64_t n);

/* "3", "-0x1.8p+1 (-3)", "nan" ... for element i. */
void br_format_value(int dtype, const void *data, int64_t i, char *buf, size_t cap);
/* "(1,0,2)": the multi-index of flat C-order index flat in shape. */
void br_format_index(const int64_t *shape, int rank, int64_t flat, char *buf, size_t cap);
/* "[1, 2, 3, ...]": up to max leading elements. */
void br_format_values(int dtype, const void *data, int64_t n, int max, char *buf, size_t cap);

#endif
