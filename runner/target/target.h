/* target.h - what a loaded target declares about itself (name, version, profile, ops, dtypes, limits). */
#ifndef BR_TARGET_H
#define BR_TARGET_H
#include <stdint.h>

/* Filled from the target's descriptor by the worker that loaded it. */
typedef struct br_target_info {
    char name[128], version[64];
    int abi_version;
    int profile;
    uint64_t ops;
    uint64_t grad_ops;       /* 0 for an ABI-1 target (its descriptor has no such field) */
    uint32_t dtypes;
    int max_rank;
    unsigned flags;
} br_target_info;

#endif
