/* explore_gen.h - explore's case generator: random cases built on purpose (broadcasting relations, layouts, modes, special values), reproducible from a seed. */
#ifndef BR_EXPLORE_GEN_H
#define BR_EXPLORE_GEN_H

#include <stdint.h>
#include "explore/spec.h"

typedef struct br_gen_cfg {
    uint64_t ops;            /* ops the target declares, after --op */
    uint64_t grad_ops;       /* ops whose gradient the target declares (bct_target.grad_ops), after --op */
    uint32_t dtypes;         /* dtypes the target declares, after --dtype */
    int max_rank;            /* the largest rank generated (the target's max_rank, or BC_MAX_RANK) */
    unsigned flags;          /* BCT_CAP_*: strided layouts, in-place, out= */
    int profile;             /* the profile used: decides which result dtypes the target must declare */
    int probe;               /* --probe-limits: a share of cases step outside the claim */
    uint64_t probe_ops;      /* what probing may use (all ops/dtypes after the filters) */
    uint32_t probe_dtypes;
    int64_t max_elems;       /* bound on the elements of the result and of each operand's view */
    int64_t large_elems;     /* the largest size of the large class (0: BR_GEN_LARGE_ELEMS; < 0: no large cases) */
} br_gen_cfg;

/* The default bound on elements per case (the largest size class: 2^12+1 fits). */
#define BR_GEN_MAX_ELEMS 4100
/* The large class: 1 case in BR_GEN_LARGE_ONE_IN holds about 2^k elements,
 * k uniform in 13..21 (8192 to 2^21 = 2,097,152 elements with the default). */
#define BR_GEN_LARGE_ELEMS ((int64_t)1 << 21)
#define BR_GEN_LARGE_ONE_IN 128
/* ... among the cases of index below this: at most about 512 large cases in
 * any budget (each costs tens of ms against ref), the same for every shard. */
#define BR_GEN_LARGE_WINDOW 65536

/* The distributions (docs/explore.md):
 *  - op: uniform over cfg->ops; a gradient case (BCT_MODE_GRAD) in 1 of 4 of an op in cfg->grad_ops
 *    (div and pow excepted); otherwise mode value 70%, in-place 20%, out= 10% (binary ops, when declared);
 *  - 1 case in BR_GEN_LARGE_ONE_IN of index below BR_GEN_LARGE_WINDOW large: rank 1-4, about 2^13 to 2^21 elements, ramp values only;
 *  - rank of the result: 0-4 mostly, 5-8 sometimes, up to max_rank rarely (max_rank + 1 when probing);
 *    above rank 8 about 8 dims are not 1;
 *  - extents: 1, 2 and 0 often, 3-8, and the fast-path sizes 2^k-1, 2^k, 2^k+1 (k <= 12), 17, 31, 127,
 *    257, 1031; the largest are lowered until the result holds at most the case's size class:
 *    max_elems/64 (60% of cases), max_elems/8 (28%) or max_elems (12%);
 *  - operands derived from the result shape (leading dims dropped, dims set to 1), about 1 in 8
 *    mutated so that they do not broadcast;
 *  - layouts: contiguous about half the time, else transposed, padded, reversed (negative strides),
 *    offset, stride 0; an in-place self that overlaps itself in 1 case of 5;
 *  - values: ramps, with special values (NaN, +-0, +-inf, the extremes, -1, 0 divisors) in 2 cases of 5.
 * Builds case `index` of stream `seed` into s (an initialised spec); the same (cfg, seed, index) gives
 * the same case on every machine. 0, or -1 when out of memory. */
int br_gen_case(const br_gen_cfg *cfg, uint64_t seed, uint64_t index, br_spec *s);

#endif
