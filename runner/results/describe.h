/* describe.h - a result record's descriptive fields, from its case. */
#ifndef BR_DESCRIBE_H
#define BR_DESCRIBE_H
#include "case/caseio.h"
#include "results/report.h"

/* Fills the case's descriptive fields (id, suite, tags, op, dtypes, shapes,
 * features under profile...). */
void br_rec_describe(br_report *rep, br_rec *rec, const br_case *c, int profile);

#endif
