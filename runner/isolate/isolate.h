/* isolate.h - worker processes that run a target one case at a time, with
 * read-only inputs, guard-paged outputs in memory the parent reads, per-case
 * timeouts and crash recovery. See docs/runner.md "Isolation". */
#ifndef BR_ISOLATE_H
#define BR_ISOLATE_H

#include <signal.h>
#include <stdint.h>
#include "case/caseio.h"
#include "isolate/iso_types.h"
#include "target/target.h"

/* The mode the workers were started in, for the report ("fork server, target
 * initialised once", ...). */
const char *br_iso_mode(const br_iso *iso);

/* Forks cfg->jobs workers over cs (cases must be loaded and materialized:
 * workers see them through fork). Fills info from the first worker.
 * Returns NULL with err on failure (target not loadable, init failed).
 * The workers (and the fork server, which forks replacements later) keep the
 * case set as it was at this call: cs->cases, its pool and its data arena
 * must not be reallocated or grown afterwards, and a case built later is
 * invisible to them unless it lives in memory reserved before this call: a
 * live set (live.h), which shrink and explore fill between br_iso_run calls. */
br_iso *br_iso_start(br_caseset *cs, const br_iso_cfg *cfg, br_target_info *info, br_err *err);

/* Runs the listed cases (indices into cs->cases, each with its profile) and
 * calls done for each. Stops early when *stop becomes nonzero; returns the
 * number of cases finished. */
size_t br_iso_run(br_iso *iso, const size_t *cases, const int *profiles, size_t n,
                  br_done_fn done, void *ctx, volatile sig_atomic_t *stop);

/* During a done callback: which worker process ran the case (numbered from 1
 * in the order the workers were started; a replaced worker gets a new number).
 * Cases one worker process ran are reported in the order it ran them. */
long br_iso_life(const br_iso *iso);

/* Ends every idle worker, so that the next br_iso_run starts fresh ones (a
 * fork of the fork server, or a new process that loads and initialises the
 * target): what a case does next sees none of what earlier cases did. */
void br_iso_renew(br_iso *iso);

/* Runs the next br_iso_run on the first n workers only (1..jobs): a sequence
 * of cases that must run in one worker, in order. Call after br_iso_renew
 * (the others are ended then); br_iso_stop ends them all. */
void br_iso_use(br_iso *iso, int n);

void br_iso_stop(br_iso *iso);

#endif
