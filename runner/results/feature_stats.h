/* feature_stats.h - which case features explain a group of failures: a vocabulary of feature words, one bitset per record, and a greedy choice of discriminating features. */
#ifndef BR_FEATURE_STATS_H
#define BR_FEATURE_STATS_H

#include <stddef.h>
#include "results/report.h"

typedef struct br_fstats br_fstats;

/* Indexes the features (br_rec.features) of every record of rep; failure
 * rates are over the records that ran (not skipped, not probed). NULL when
 * out of memory. */
br_fstats *br_fstats_build(const br_report *rep);
void br_fstats_free(br_fstats *s);

/* The features that explain why the records recs[0..n) fail, most telling
 * first: greedily, among the features that at least 95% of them have, the
 * one whose presence raises the share of the group among it and the passing
 * cases the most (by at least 25 points; 50 for the later ones); then,
 * within the cases that have it, the next; up to max. A feature that only rides along with a better one
 * (f32 in a suite where the failing zero-size cases happen to be f32) is not
 * chosen, since within the better one's cases it no longer discriminates.
 * Writes the words space-separated into buf ("" when none). */
double br_fstats_explain(const br_fstats *s, const size_t *recs, size_t n, int max, char *buf, size_t cap);
/* (returns the first feature's lift, 0 when none was chosen) */

#endif
