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

/* Units in the last place between two finite or infinite floats of the same
 * dtype (f32/f64); INT64_MAX when one is NaN and the other not. */
int64_t br_ulp_distance(int dtype, const void *a, const void *b);

/* fnv1a64 of the little-endian bytes of n elements, NaNs canonical. */
uint64_t br_digest(int dtype, const void *data, int64_t n);

/* "3", "-0x1.8p+1 (-3)", "nan" ... for element i. */
void br_format_value(int dtype, const void *data, int64_t i, char *buf, size_t cap);
/* "(1,0,2)": the multi-index of flat C-order index flat in shape. */
void br_format_index(const int64_t *shape, int rank, int64_t flat, char *buf, size_t cap);
/* "[1, 2, 3, ...]": up to max leading elements. */
void br_format_values(int dtype, const void *data, int64_t n, int max, char *buf, size_t cap);

#endif
