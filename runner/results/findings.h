/* findings.h - grouping a run's non-passing results into findings (one root cause each) and the limits a target declares. */
#ifndef BR_FINDINGS_H
#define BR_FINDINGS_H

#include <stddef.h>
#include "results/report.h"

/* Groups every non-passing record of rep (known failures included; probed
 * ones apart) into findings, names them, picks each one's smallest case,
 * and adds one "limit" finding per declared capability that excluded cases
 * (from the skip reasons). Sets rep->findings and each record's finding.
 * Uses only what a record carries (so merged JSON results group the same
 * way as a live run). The algorithm is docs/findings.md. */
void br_findings_build(br_report *rep);

/* The signature shrinking and exploring keep: the level-1 key findings group
 * a record on (what the target did, normalised, and what the profile
 * expected: "ok" or the error class), with the record's detail (how a shape
 * or dtype was wrong) when it has one: "succeeds with a wrong shape (one dim
 * fewer) | expected ok". */
void br_finding_signature(const br_rec *x, char *buf, size_t cap);

/* "F3" for the third failure finding, "L1" for the first limit (failures
 * come first in rep->findings). */
void br_finding_id(const br_report *rep, size_t f, char *buf, size_t cap);

/* Elements in all of a record's operands (from its shapes), saturating. */
double br_rec_elements(const br_rec *x);

#endif
