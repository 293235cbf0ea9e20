/* skip.h - capability checks: whether a target's declared ops, dtypes, ranks and modes cover a case. */
#ifndef BR_SKIP_H
#define BR_SKIP_H
#include <stddef.h>
#include "case/caseio.h"
#include "target/target.h"

/* Why the target cannot run c (op, dtype, rank, strided input, mode outside
 * its declared capabilities), or NULL when it can. */
const char *br_skip_reason(const br_case *c, const br_target_info *t, int profile, char *buf, size_t cap);
/* Whether a skip reason names a declared limit (--probe-limits runs those
 * cases anyway); a target without grad_ops is not probed in grad mode. */
int br_skip_probeable(const char *reason);

#endif
