/* judge.h - deciding each case's outcome: capability skips, and comparing what
 * a worker produced against the case's expectation. */
#ifndef BR_JUDGE_H
#define BR_JUDGE_H

#include <stddef.h>
#include "caseio.h"
#include "isolate.h"
#include "report.h"

#define BR_CANARY 0xA5   /* the slack fill around worker outputs: isolate.c writes it, judge.c checks it */

/* Why the target cannot run c (op, dtype, rank, strided input, mode outside
 * its declared capabilities), or NULL when it can. */
const char *br_skip_reason(const br_case *c, const br_target_info *t, int profile, char *buf, size_t cap);

/* Fills the case's descriptive fields (id, suite, tags, op, dtypes, shapes,
 * features under profile...). */
void br_rec_describe(br_report *rep, br_rec *rec, const br_case *c, int profile);

/* Judges one finished case (see br_done_fn for kind/res/base/loss) into rec:
 * its outcome, reason, failure kind and detail, summaries and diff. */
void br_judge(br_report *rep, br_rec *rec, const br_case *c, int profile, int kind,
              const br_wres *res, const char *base, const br_loss *loss);

/* A malloc'd C-order copy of what a successful call produced (its dtype,
 * rank, shape and element count through the pointers), or NULL when the
 * call raised or produced nothing. For `show --target`. */
void *br_produced_copy(const br_case *c, const br_wres *r, const char *base, int *dtype, int *rank,
                       int64_t *shape, int64_t *n);

/* Whether the slack around a block worker.c placed at arena offset off (n
 * bytes) still holds the canary (off < 0: no block, 1). */
int br_slack_ok(const char *base, int64_t off, int64_t n);

/* Whether a skip reason names a declared limit (--probe-limits runs those
 * cases anyway); a target without grad_ops is not probed in grad mode. */
int br_skip_probeable(const char *reason);

/* Whether the view (offset, strides) is plain C-contiguous. */
int br_is_contiguous(const br_arg *a);

#endif
