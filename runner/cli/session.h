/* session.h - what every subcommand that runs a target shares: loading cases, finding the target, sizing the workers, describing the target in a report. */
#ifndef BR_SESSION_H
#define BR_SESSION_H

#include <stddef.h>
#include "case/caseio.h"
#include "isolate/isolate.h"
#include "cli/options.h"
#include "results/report.h"

/* Loads o->paths (default cases/). A path that holds no case is an error
 * unless o->allow_empty. 0, or 2 after printing the reason. */
int br_load_cases(br_caseset *cs, const br_opts *o);

/* A bare NAME means <dir of bcast-run>/targets/NAME.so; NULL means ref. */
const char *br_resolve_target(const char *t, char *buf, size_t cap);

/* Worker settings for running the listed cases of cs under o. */
br_iso_cfg br_iso_config(const br_opts *o, const br_caseset *cs, const size_t *sel, size_t nsel,
                         char *tbuf, size_t tcap);

/* Fills the report's header: target, capabilities, versions, profile. */
void br_report_describe_target(br_report *rep, const br_target_info *info, int profile, const char *caseset);

/* The profile a run checks: --profile, else the target's (numpy if unknown). */
int br_profile_used(const br_opts *o, const br_target_info *info);

#endif
