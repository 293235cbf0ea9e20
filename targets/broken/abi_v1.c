/* abi_v1.c - test target: an ABI-1 descriptor (no grad_ops field) placed flush against an unmapped page. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "broken.h"

/* The descriptor as include/bcast_target.h version 1 declared it: it ends at
 * run. An adapter built before ABI 2 hands the runner exactly this. */
typedef struct v1_target {
    int abi_version;
    const char *name, *version;
    int profile;
    uint64_t ops;
    uint32_t dtypes;
    int max_rank;
    unsigned flags;
    int (*init)(const char *arg);
    int (*run)(const bct_call *call);
} v1_target;

/* Copies the v1 descriptor to the very end of a page whose next page is
 * PROT_NONE: a runner that reads one byte past it (grad_ops) faults. */
const bct_target *bcast_target_v1(void);
const bct_target *bcast_target_v1(void)
{
    static v1_target *placed;
    if (placed == NULL) {
        long pg = sysconf(_SC_PAGESIZE);
        size_t page = pg > 0 ? (size_t)pg : 4096;
        unsigned char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED || mprotect(m + page, page, PROT_NONE) != 0) return NULL;
        v1_target d = { 1, "abi-v1", BCAST_VERSION, BCT_PROFILE_NUMPY, BK_ALL_OPS, BK_ALL_DTYPES,
                        BC_MAX_RANK, BK_ALL_FLAGS, NULL, bk_correct };
        placed = (v1_target *)(void *)(m + page - sizeof d);
        memcpy(placed, &d, sizeof d);
    }
    return (const bct_target *)(const void *)placed;
}
