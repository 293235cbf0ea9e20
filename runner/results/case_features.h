/* case_features.h - what a case exercises, as words findings group on: layouts, stretched operands, zero-size, 0-d, rank band, mode, dtype pair. */
#ifndef BR_CASE_FEATURES_H
#define BR_CASE_FEATURES_H

#include <stddef.h>
#include "case/caseio.h"

/* Writes the case's feature words, space-separated and sorted, into buf:
 *   0d zero-size rank-mismatch huge divergent error-expected
 *   rank:0 rank:1-2 rank:3-4 rank:5-8 rank:9-32 rank:33+   (the largest rank; 33+ is above NumPy's 32)
 *   stretch:NAME   an operand read along a dim it does not have or has as 1 (B2, B3)
 *   missing-dims:NAME   an operand with fewer dims than the broadcast (B1)
 *   stride0:NAME negative:NAME offset:NAME noncontig:NAME   layouts of the operands
 *   overlap:self   a self with stride 0 on an extent > 1 (B9)
 *   mode:inplace mode:out
 *   dtypes:same dtypes:int-int dtypes:int-float dtypes:float-float dtypes:bool-int ...
 *   dtype:D        an operand of dtype D
 *   tag:T          the case's annotation tags (torch-simd, self-modified, seed, values, ...)
 *   big   a result of 64K elements or more
 * (docs/findings.md). */
void br_case_features(const br_case *c, int profile, char *buf, size_t cap);

#endif
