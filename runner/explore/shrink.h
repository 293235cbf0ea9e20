/* shrink.h - reducing a failing case while the target keeps failing the same way: greedy delta debugging over a spec, every candidate run in the isolated workers. */
#ifndef BR_SHRINK_H
#define BR_SHRINK_H

#include <signal.h>
#include <stddef.h>
#include "isolate/isolate.h"
#include "case/live.h"
#include "explore/spec.h"

typedef struct br_shrink_cfg {
    br_iso *iso;              /* workers started over lv's case set */
    br_live *lv;              /* candidates are built here; rewound before every batch */
    const br_target_info *info;
    int profile;              /* the profile used: candidates' expectations come from ref under it */
    int jobs;                 /* candidates run side by side */
    int probed;               /* the case is outside the target's claim: run candidates anyway */
    long max_runs;            /* candidate runs allowed */
    double seconds;           /* wall time allowed (checked between batches) */
    volatile sig_atomic_t *stop;
} br_shrink_cfg;

typedef struct br_shrink_stats {
    long runs;                /* candidates run */
    long steps;               /* candidates accepted */
    double seconds;
    int budget_hit;           /* stopped by max_runs, seconds or stop, not at a fixed point */
} br_shrink_stats;

/* Runs s once on the target (its expectation from ref under cfg->profile)
 * and judges it: *outcome (BR_O_*) and the signature (br_finding_signature;
 * "" when it passed or was skipped) in sig. 0, or -1 when s cannot be built
 * (it does not fit cfg->lv). */
int br_shrink_judge(const br_shrink_cfg *cfg, const br_spec *s, char *sig, size_t cap, int *outcome);

/* Shrinks s in place while it keeps failing with signature `want`. Passes,
 * cheap big reductions first: drop in-place/out=; drop dims (halves first);
 * drop an operand's leading dim or a broadcast_shapes operand; lower extents
 * toward 1, 0, 2 (all operands of a dim together, then one at a time); make
 * layouts contiguous or tight; simpler values (all 0, all 1, then chunks).
 * A candidate is kept only when it fails with the same signature and is
 * strictly smaller (elements, then rank, mode, non-contiguous operands,
 * storage, value complexity), so the loop ends; it also ends at the budget.
 * Of one batch of cfg->jobs candidates the first in pass order that fails
 * the same way wins, so the result does not depend on timing. 0, or -1 on
 * an internal error (out of memory). */
int br_shrink(const br_shrink_cfg *cfg, br_spec *s, const char *want, br_shrink_stats *st);

/* Bytes a live set needs to hold one candidate of s (its operands, the
 * contiguous form of each, its result, shapes): size shrink's live set with it. */
size_t br_shrink_case_bytes(const br_spec *s);

/* Raises cfg's arena sizes so that every candidate of s fits the workers'
 * arenas (an operand made contiguous may need more storage than its view had). */
void br_shrink_iso_caps(const br_spec *s, br_iso_cfg *cfg);

#endif
