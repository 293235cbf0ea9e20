/* iso_types.h - what a worker reports for one case and how isolation is configured: shared by isolate/ and the judge. */
#ifndef BR_ISO_TYPES_H
#define BR_ISO_TYPES_H
#include <stddef.h>
#include <stdint.h>
#include "bcast_ref.h"
#include "target/target.h"

#define BR_MAX_GRADS 3       /* inputs of a differentiable op (where: cond, x, y) */

/* One gradient a grad-mode call asked for through alloc_grad. */
typedef struct br_wgrad {
    int32_t calls;           /* alloc_grad calls for this input */
    int32_t dtype, rank;
    int64_t off, bytes;      /* arena offset (-1 none), bytes */
    int64_t shape[BC_MAX_RANK];
} br_wgrad;

/* What a worker reports for one case (lives in memory shared with the parent). */
typedef struct br_wres {
    int32_t status;          /* target's return value */
    int32_t alloc_calls;     /* alloc_output calls made */
    int32_t alloc_refused;   /* 1 when a call was refused (reason in refuse) */
    int32_t out_dtype, out_rank;
    int32_t inputs_changed;  /* bit i: read-only arg i's bytes changed */
    int64_t out_off, out_bytes;   /* alloc_output buffer: arena offset (-1 none), bytes */
    int64_t w_off, w_bytes;       /* the writable self/out copy: arena offset (-1 none) */
    int64_t dur_ns;
    int64_t out_shape[BC_MAX_RANK];
    char message[256];
    char refuse[128];
    /* grad mode: what alloc_grad handed out, per input index; calls beyond
     * BR_MAX_GRADS, or for no input, are counted in grad_bad (refused) */
    int32_t grad_bad;
    br_wgrad grad[BR_MAX_GRADS];
} br_wres;

enum { BR_RUN_DONE = 0, BR_RUN_CRASH, BR_RUN_TIMEOUT, BR_RUN_VIOLATION };

/* Loading and init() get the per-case timeout plus this much: a bridge that
 * imports a large library (torch, numba) can take tens of seconds on a
 * loaded machine, and only a hung init ever waits this long. */
#define BR_INIT_GRACE_S 60
#define BR_FIRST_CALL_S 60.0   /* first-call limit of a target that compiles on first use */
#define BR_DATA_HEADROOM (4ull << 30)   /* a worker's RLIMIT_DATA: its data segment at start + this */

/* Where each input meets its guard page (--guard both|end|start|off): both
 * calls each case twice, blocks at the end of their pages, then at their start. */
enum { BR_GUARD_END, BR_GUARD_START, BR_GUARD_OFF, BR_GUARD_BOTH };

typedef struct br_iso_cfg {
    const char *target;       /* path of the .so */
    const char *target_arg;   /* or NULL */
    int jobs;
    double timeout_s;
    double first_call_timeout_s;   /* a worker's first call of each op and mode (--first-call-timeout;
                                      0: BR_FIRST_CALL_S for a target declaring BCT_CAP_COMPILES) */
    int64_t out_cap;          /* alloc_output refuses more bytes than this, unless the
                                 case itself expects a larger result */
    int64_t arena_cap;        /* largest output or writable arg of any case run */
    int no_rlimit;            /* skip RLIMIT_DATA (sanitizer builds skip it anyway) */
    int guard;                /* BR_GUARD_* (above): where inputs meet a guard page */
    int64_t in_cap;           /* bytes of guarded input copies one case needs above a page each */
    int fork_server;          /* fork workers from a process that has loaded (and, when safe,
                                 initialised) the target, so a replacement costs a fork */
} br_iso_cfg;

/* Why a case was lost (kind is not BR_RUN_DONE). */
typedef struct br_loss {
    const char *why;          /* "crashed with SIGSEGV (signal 11)", "read past the end of input y ..." */
    const char *detail;       /* the signal name, "timeout", or the violation kind */
    const char *stderr_tail;  /* the worker's last stderr lines while the case ran, or "" */
} br_loss;

/* Called in the parent for every finished case, while the worker's output is
 * still in place: base is the arena (offsets in res are relative to it); res
 * is NULL unless kind is BR_RUN_DONE; loss explains a crash/timeout/violation
 * (NULL when kind is BR_RUN_DONE). */
typedef void (*br_done_fn)(void *ctx, size_t case_index, int kind, const br_wres *res,
                           const char *base, const br_loss *loss);

typedef struct br_iso br_iso;

#endif
