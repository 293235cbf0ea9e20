/* judge.h - deciding each case's outcome: comparing what a worker produced
 * against the case's expectation. */
#ifndef BR_JUDGE_H
#define BR_JUDGE_H

#include <stddef.h>
#include "case/caseio.h"
#include "isolate/iso_types.h"
#include "results/report.h"




/* Judges one finished case (see br_done_fn for kind/res/base/loss) into rec:
 * its outcome, reason, failure kind and detail, summaries and diff. */
void br_judge(br_report *rep, br_rec *rec, const br_case *c, int profile, int kind,
              const br_wres *res, const char *base, const br_loss *loss);

/* A malloc'd C-order copy of what a successful call produced (its dtype,
 * rank, shape and element count through the pointers), or NULL when the
 * call raised or produced nothing. For `show --target`. */
void *br_produced_copy(const br_case *c, const br_wres *r, const char *base, int *dtype, int *rank,
                       int64_t *shape, int64_t *n);




#endif
