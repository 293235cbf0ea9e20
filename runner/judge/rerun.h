/* rerun.h - telling a library whose state an earlier case broke apart from a
 * bug: unexpected failures run again in fresh workers (docs/runner.md "Re-run"). */
#ifndef BR_RERUN_H
#define BR_RERUN_H

#include <signal.h>
#include <stddef.h>
#include "case/caseio.h"
#include "isolate/isolate.h"
#include "results/report.h"

/* Where each record's case ran in the first run: which worker process (life,
 * br_iso_life) and when (seq, the order the cases finished). Indexed by
 * record; case_of and prof_of give the record's case index and profile. */
typedef struct br_run_trace {
    long *life;
    size_t *seq;
    size_t *case_of;
    int *prof_of;
} br_run_trace;

/* What the re-run did, for the report's reader and for measuring its cost. */
typedef struct br_rerun_stats {
    size_t candidates;        /* unexpected failures re-run */
    size_t fresh_workers;     /* fresh worker sets started */
    size_t cases_run;         /* case runs the re-run made */
    size_t depends, nondeterministic;
    double seconds;
} br_rerun_stats;

/* After the first run (expectations applied): re-runs every unexpected
 * failure (fail, crash, memory violation; not a timeout, whose re-run costs
 * the whole limit) in fresh workers and marks, on the records,
 *   - depends_on: the case passes in a fresh worker, and fails again when
 *     replayed right after the case its worker ran before its first such
 *     failure (the trigger). Counted apart, in no finding (results/findings.c).
 *   - nondeterministic: it passes in a fresh worker but not after its trigger,
 *     or fails both times but differently: failure "varies", still a failure.
 * Cost: nothing when there is no unexpected failure; else one fresh worker
 * set for all candidates, one more if some failed differently, and one per
 * worker process whose cases depend on an earlier one; each candidate runs
 * once or twice. Returns 0, or -1 when stopped (*stop) part way. */
int br_rerun(br_report *rep, br_caseset *cs, br_iso *iso, const br_run_trace *tr,
             br_rerun_stats *st, volatile sig_atomic_t *stop);

#endif
