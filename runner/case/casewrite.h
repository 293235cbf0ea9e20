/* casewrite.h - the writer of docs/case-format.md: a loaded or built case back to its record text, which runner/case/caseio.c reads back unchanged. */
#ifndef BR_CASEWRITE_H
#define BR_CASEWRITE_H

#include "case/caseio.h"
#include "base/util.h"

/* Appends the file header: "bcast-cases 1", then one "# ..." line per line
 * of comment (NULL for none), then "# case-set VERSION" when caseset is not
 * NULL or "". */
void br_casefile_header(br_buf *out, const char *comment, const char *caseset);

/* Appends c as one record, "case ID" to "end", keys in the format's order.
 * Args keep their data form: a pattern arg is written as its pattern line, a
 * values arg as every storage element; an expectation as its values or its
 * digest. Floats are C99 hex floats of the exact value (f32 widened exactly),
 * nan/inf/-inf spelled out; shape-only args as `- SHAPE (0,..) 0 1`. */
void br_case_write(const br_case *c, br_buf *out);

/* Appends n elements of dtype as space-separated format tokens (no keyword). */
void br_write_values(br_buf *out, int dtype, const void *data, int64_t n);

#endif
