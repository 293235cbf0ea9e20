/* live.h - a case set you can append to while the workers run: case slots and bytes reserved in the case set's shared memory before the fork.
 *
 * Workers are forked after the case set is loaded and see it through fork
 * (isolate.h): a case the parent builds later is visible to them only if it
 * lives in shared memory that existed at the fork. A br_live reserves that
 * memory up front (a block of slots at the end of cs->cases and one chunk of
 * the case data arena, which the workers map read-only like every input);
 * shrink and explore build their cases into it, run them, and rewind it to
 * build the next round. The case set's own struct is copied into each worker
 * at the fork, so nothing may change cs->cases, cs->pool or cs->data after
 * the workers start: only the reserved memory's contents change. */
#ifndef BR_LIVE_H
#define BR_LIVE_H

#include <stddef.h>
#include "case/caseio.h"

typedef struct br_live {
    br_caseset *cs;
    size_t first, cap, n;     /* slots cs->cases[first .. first+cap); n in use */
    char *mem;                /* `size` bytes in the case data arena; `used` in use */
    size_t size, used;
    br_expect *expect;        /* BR_MAX_EXPECT per slot, for the slots' cases */
} br_live;

/* Reserves `slots` case slots and `bytes` bytes for live cases. Call after
 * every case file is loaded (br_finish) and before br_iso_start; several
 * live sets may share one case set. 0, or -1 when out of memory. */
int br_live_init(br_live *lv, br_caseset *cs, size_t slots, size_t bytes);

/* n zeroed bytes, 64-aligned (element data) from the reserved memory, or NULL when full. */
void *br_live_alloc(br_live *lv, size_t n);

/* A copy of s in the reserved memory, or NULL when full. */
const char *br_live_str(br_live *lv, const char *s);

/* The next free slot, zeroed (strings "", target_rank -1, room for BR_MAX_EXPECT
 * expects); *index is its
 * index in cs->cases (what br_iso_run takes). NULL when all slots are used. */
br_case *br_live_add(br_live *lv, size_t *index);

/* Drops the last case added (after a failure to build it); its bytes stay used until rewind. */
void br_live_drop_last(br_live *lv);

/* Forgets every case and byte. Only while no worker runs one of its cases
 * (between br_iso_run calls). */
void br_live_rewind(br_live *lv);

/* Bytes still free. */
size_t br_live_room(const br_live *lv);

#endif
