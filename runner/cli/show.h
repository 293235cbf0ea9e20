/* show.h - `bcast-run show`: a case printed readably, with NumPy and torch one-liners that reproduce it. */
#ifndef BR_SHOW_H
#define BR_SHOW_H

#include "case/caseio.h"
#include "base/util.h"

/* Appends the description of c (materialized) to out. */
void br_show_case(const br_case *c, br_buf *out);

/* Appends the one-liners that reproduce c, one line per oracle its source
 * names: generation 1 "NumPy: /usr/bin/python3 -c ...", "torch: ..."; then
 * generation 2 "NumPy 2: .venv/oracles/bin/python -c ...", "torch 2: ...". */
void br_show_one_liners(const br_case *c, br_buf *out);

/* Appends expected and actual side by side, one element a line, marking
 * the elements that differ (for results of up to `max` elements). */
void br_show_side_by_side(int dtype, const int64_t *shape, int rank, const void *expected,
                          const void *actual, int64_t n, int max, br_buf *out);

#endif
