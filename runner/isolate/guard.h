/* guard.h - the memory contract around a worker's blocks: guard pages, and the canary that fills the slack beside them. */
#ifndef BR_GUARD_H
#define BR_GUARD_H
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include "isolate/iso_types.h"

/* Linux >= 6.13 guard markers, named here for older headers (the kernel
 * refuses them when it lacks them, and PROT_NONE pages are used instead). */
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
#endif

#define BR_CANARY 0xA5   /* the slack fill around worker outputs: worker.c writes it, the judge checks it */

/* Makes [p, p+len) a guard region (any access faults) or
 * accessible again, with whichever mechanism the arena uses. 0 or -1. */
int br_guard(const br_iso *iso, void *p, size_t len);
int br_unguard(const br_iso *iso, void *p, size_t len);

/* Whether the slack around a block worker.c placed at arena offset off (n
 * bytes) still holds the canary (off < 0: no block, 1). */
int br_slack_ok(const char *base, int64_t off, int64_t n);

#endif
