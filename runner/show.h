/* show.h - `bcast-run show`: a case printed readably, with NumPy and torch one-liners that reproduce it. */
#ifndef BR_SHOW_H
#define BR_SHOW_H

#include "caseio.h"
#include "util.h"

/* Appends the description of c (materialized) to out. */
void br_show_case(const br_case *c, br_buf *out);

#endif
