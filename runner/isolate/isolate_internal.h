/* isolate_internal.h - what the parent (isolate.c), the fork server (zygote.c) and the workers (worker.c) share. */
#ifndef BR_ISOLATE_INTERNAL_H
#define BR_ISOLATE_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "case/caseio.h"
#include "isolate/iso_types.h"

#define BR_BATCH 256
#define BR_NSLOT (2 * BR_BATCH)     /* one-page output/writable slots, reused per batch */
#define BR_NISLOT 8                 /* one-page input slots, reused per case */
#define BR_INPUT_COPY_MAX ((int64_t)64 << 20)   /* larger inputs are passed in place */

enum {
    BR_FAULT_NONE = 0,
    BR_FAULT_OUTPUT,          /* a guard page of the output */
    BR_FAULT_WRITABLE,        /* a guard page of the self/out copy */
    BR_FAULT_INPUT_RO,        /* a store into a read-only input page */
    BR_FAULT_INPUT_GUARD,     /* outside an input's storage: a guard page next to it */
    BR_FAULT_ARENA,           /* elsewhere in the worker's arena */
    BR_FAULT_GRAD             /* a guard page of a gradient (grad mode): fault_arg is its input */
};

/* The control block at the start of each worker's arena (MAP_SHARED). */
typedef struct wctl {
    int32_t cur;              /* batch position running, -1 between cases (atomic) */
    int32_t ndone;            /* cases of the batch finished (atomic) */
    int64_t cur_start;        /* br_now_ns() when cur started (atomic) */
    int32_t cur_first;        /* 1: cur is this worker process's first call of its op and mode (atomic,
                                 stored before cur): it gets the first-call time limit */
    int32_t fault;            /* BR_FAULT_* from the signal handler */
    int32_t fault_arg;        /* BR_FAULT_INPUT_GUARD: the arg */
    int32_t fault_write;      /* 1 store, 0 load, -1 unknown */
    int64_t fault_dist;       /* bytes past the end (>= 0) or before the start (< 0) of the block */
    int32_t ready;            /* 1 ok, -1 failed (ready_msg) */
    char ready_msg[512];
    br_target_info info;
    int32_t nbatch;
    int64_t batch[BR_BATCH];
    int32_t prof[BR_BATCH];
    int64_t err_mark[BR_BATCH];   /* stderr bytes written before each case began */
    br_wres res[BR_BATCH];
} wctl;

typedef struct worker {
    pid_t pid;
    int cmd_fd, rep_fd;       /* parent's ends */
    char *base;               /* arena */
    size_t size;
    int busy;
    int err_fd;               /* the worker's stderr (a memory file the parent reads), -1 none */
    int exited;               /* the zygote reported its exit: status in exit_status */
    int exit_status;
    long life;                /* which worker process this is: numbered from 1 in the order started */
} worker;

typedef struct zygote zygote;

struct br_iso {
    br_caseset *cs;
    br_iso_cfg cfg;
    size_t page, ctl_size;
    size_t small_off;         /* output/writable slots: G D G D ... G */
    size_t in_off;            /* input slots: G D G ... G */
    size_t big_off, big_size; /* outputs/writables above a page; guards set per block */
    size_t inbig_off, inbig_size;   /* inputs above a page; guards set per block */
    worker *w;
    int nw;
    int madv_guard;           /* guard pages are MADV_GUARD_INSTALL markers (Linux >= 6.13), not
                                 PROT_NONE mappings: no VMA each, so a fork stays cheap */
    zygote *zy;               /* the fork server, or NULL: workers forked by the parent */
    int zy_err_fd;            /* the fork server's own stderr (dlopen/init messages) */
    long nlives;              /* worker processes started so far */
    long reporting;           /* the life of the worker whose cases are being reported (br_iso_life) */
    volatile sig_atomic_t *stop;   /* br_iso_run's stop flag while it runs, else NULL: a worker
                                      still starting (an interpreter importing) is given up on */
};

#endif
