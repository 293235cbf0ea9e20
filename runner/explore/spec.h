/* spec.h - a case under construction (explore's generator and the shrinker edit these), and building one into a live case with its expectations from ref. */
#ifndef BR_SPEC_H
#define BR_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include "bcast_ref.h"
#include "case/caseio.h"
#include "case/live.h"

/* One operand: a strided view into its own storage (data: storage elements,
 * malloc'd; NULL for a shape-only arg of broadcast_shapes). */
typedef struct br_sarg {
    char name[16];
    int dtype, rank;
    int has_pat;             /* the storage was filled from pat (a `pattern ramp`); a case is written with
                                the pattern only while its data still equals it (checked when built) */
    int64_t pat[5];
    int64_t shape[BC_MAX_RANK], strides[BC_MAX_RANK];
    int64_t offset, storage;
    unsigned char *data;
    size_t datacap;          /* bytes allocated at data */
} br_sarg;

typedef struct br_spec {
    int op, mode, nargs;
    int has_axis;
    int64_t axis;
    int target_rank;         /* -1: no `attr shape` */
    int64_t target_shape[BC_MAX_RANK];
    br_sarg *args;
    int argcap;
} br_spec;

/* What a built case carries besides its spec (strings are copied). */
typedef struct br_spec_meta {
    const char *id, *suite, *tags, *rules, *source, *file;
    unsigned profiles;       /* which expectations: bit 1 << profile each; a written case
                                has both of a generation (br_generation_profiles) */
    int auto_tags;           /* add the tags and rules that follow from the case (gen/'s auto_tags) */
} br_spec_meta;

/* The profiles of profile's generation, as a br_spec_meta.profiles mask:
 * numpy and torch (3) for either of them, numpy2 and torch2 (12) for those.
 * Generation-1 cases that agree collapse to `expect *` (source ref covers
 * numpy and torch); generation-2 cases keep a line per profile. */
unsigned br_generation_profiles(int profile);

/* Every profile (numpy, torch, numpy2, torch2): what explore and shrink
 * write, so that gen/confirm.py checks ref against all four oracles. */
unsigned br_all_profiles(void);

void br_spec_init(br_spec *s);
void br_spec_free(br_spec *s);

/* Sets the op, mode and argument count (args zeroed, data kept for reuse). 0 or -1 (memory). */
int br_spec_reset(br_spec *s, int op, int mode, int nargs);

/* A deep copy of src into dst (an initialised spec). 0 or -1. */
int br_spec_copy(br_spec *dst, const br_spec *src);

/* Makes room for a's storage (storage elements of its dtype), zeroed. 0 or -1. */
int br_sarg_alloc(br_sarg *a);

/* Bytes of a's storage. */
size_t br_sarg_bytes(const br_sarg *a);

/* The spec of a loaded, materialized case (its values become the spec's storage). 0 or -1. */
int br_spec_from_case(br_spec *s, const br_case *c);

/* Builds s into a new case of lv: operands copied, then one expectation per
 * profile in m->profiles computed by ref (bc_eval), merged into `expect *`
 * when the profiles agree (else the case is tagged divergent). Comparison is
 * `ulp 2` for pow (as gen/ does), exact otherwise. *index: the case's index
 * in lv's case set. 0, or -1 when lv is full (nothing usable is left behind). */
#define BR_SPEC_DIGEST_OVER 4100   /* an exact result of more elements is kept (and written) as its digest */
int br_spec_to_live(br_live *lv, const br_spec *s, const br_spec_meta *m, size_t *index);

/* Elements the view addresses (product of extents), saturating at INT64_MAX. */
int64_t br_sarg_count(const br_sarg *a);

/* C-contiguous strides for a's shape (extents of 0 count as 1). */
void br_sarg_contiguous_strides(const br_sarg *a, int64_t *strides);

#endif
