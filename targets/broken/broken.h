/* broken.h - shared plumbing for the deliberately broken test targets (tests only). */
#ifndef BCAST_BROKEN_H
#define BCAST_BROKEN_H

#include <stddef.h>
#include <stdint.h>

#include "bcast_ref.h"
#include "bcast_target.h"

#ifndef BCAST_VERSION
#error "BCAST_VERSION must be defined (the top Makefile passes it with -D)"
#endif

/* A result computed by ref into private memory, so that a broken target can
 * damage it (shape, size) before handing it to the runner. */
typedef struct bk_result {
    int dtype;
    int rank;
    int64_t shape[BC_MAX_RANK];
    unsigned char *data;      /* malloc'd; NULL until ref allocated the output */
    size_t bytes;
    int allocated;            /* ref called alloc_output */
} bk_result;

/* Runs a value-mode call on ref with a private alloc_output. Returns ref's
 * status (the message goes to call->message as usual); on BCT_OK res holds the
 * result. Always pair with bk_free. */
int bk_eval_private(const bct_call *call, bk_result *res);
void bk_free(bk_result *res);

/* Asks the runner for an output of (rank, shape) with res's dtype and copies as
 * many of res's bytes as fit. Returns the runner's buffer, or NULL (and a
 * message) when the runner refused it. */
void *bk_emit(const bct_call *call, const bk_result *res, int rank, const int64_t *shape);

/* Runs the call on ref unchanged: the correct behaviour every broken target
 * falls back to outside its trigger. */
int bk_correct(const bct_call *call);

/* Element count of (rank, shape), or -1 for a bad rank, a negative extent or overflow. */
int64_t bk_count(int rank, const int64_t *shape);

/* Writes a formatted message into call->message (if there is room). */
void bk_message(const bct_call *call, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Grad mode: ref's gradients computed into private memory (one per input
 * index, have[k] set when ref asked for it), so a broken target can damage
 * them (shape, values) before handing them to the runner. */
#define BK_MAXG 3
typedef struct bk_grads {
    int have[BK_MAXG], dtype[BK_MAXG], rank[BK_MAXG];
    int64_t shape[BK_MAXG][BC_MAX_RANK];
    unsigned char *data[BK_MAXG];   /* malloc'd */
    size_t bytes[BK_MAXG];
} bk_grads;

/* Runs a grad-mode call on ref with a private alloc_grad. Returns ref's
 * status; on BCT_OK g holds the gradients. Always pair with bk_grads_free. */
int bk_grad_private(const bct_call *call, bk_grads *g);
void bk_grads_free(bk_grads *g);

/* Asks the runner for input k's gradient buffer of (rank, shape) with g's
 * dtype and copies as many of src's bytes (n of them) as fit. The runner's
 * buffer, or NULL (and a message). */
void *bk_emit_grad(const bct_call *call, int k, int dtype, int rank, const int64_t *shape,
                   const void *src, size_t n);

#define BK_ALL_OPS ((UINT64_C(1) << BCT_OP_COUNT) - 1)
#define BK_ALL_DTYPES ((UINT32_C(1) << BCT_DTYPE_COUNT) - 1)
#define BK_ALL_FLAGS (BCT_CAP_STRIDED | BCT_CAP_INPLACE | BCT_CAP_OUT)

/* Defines the entry point of a broken target that claims everything ref does.
 * Use at file scope without a trailing semicolon. */
#define BK_TARGET(tname, runfn)                                              \
    static const bct_target bk_descriptor = {                               \
        BCT_ABI_VERSION, tname, BCAST_VERSION, BCT_PROFILE_NUMPY,           \
        BK_ALL_OPS, BK_ALL_DTYPES, BC_MAX_RANK, BK_ALL_FLAGS, NULL, runfn,  \
        BC_GRAD_OPS                                                         \
    };                                                                      \
    const bct_target *bcast_target_v1(void);                                \
    const bct_target *bcast_target_v1(void) { return &bk_descriptor; }

#endif /* BCAST_BROKEN_H */
