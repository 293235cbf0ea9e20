/* broken.c - shared plumbing for the deliberately broken test targets: ref run into private memory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broken.h"

/* Larger private results than this are refused: the fixtures are tiny, and a
 * test target must never be the thing that exhausts memory. */
#define BK_PRIVATE_CAP ((size_t)1 << 28)

int64_t bk_count(int rank, const int64_t *shape)
{
    if (rank < 0 || rank > BC_MAX_RANK || (rank > 0 && shape == NULL))
        return -1;
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0 || (shape[i] > 0 && n > INT64_MAX / shape[i]))
            return -1;
        n *= shape[i];
    }
    return n;
}

void bk_message(const bct_call *call, const char *fmt, ...)
{
    if (call->message == NULL || call->message_cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(call->message, call->message_cap, fmt, ap);
    va_end(ap);
}

/* alloc_output for the private run: remembers the shape ref computed and
 * refuses what the runner would refuse, so ref's error paths stay the same. */
static void *private_alloc(void *ctx, int dtype, int rank, const int64_t *shape)
{
    bk_result *res = ctx;
    int64_t n = bk_count(rank, shape);
    if (res->allocated || n < 0 ||
        (dtype != BCT_NONE && (dtype < 0 || dtype >= BCT_DTYPE_COUNT)))
        return NULL;
    size_t size = dtype == BCT_NONE ? 0 : (size_t)bc_dtype_size(dtype);
    if ((uint64_t)n > BK_PRIVATE_CAP / (size ? size : 1))
        return NULL;
    res->bytes = (size_t)n * size;
    res->data = calloc(res->bytes ? res->bytes : 1, 1);
    if (res->data == NULL)
        return NULL;
    res->dtype = dtype;
    res->rank = rank;
    if (rank > 0)
        memcpy(res->shape, shape, (size_t)rank * sizeof shape[0]);
    res->allocated = 1;
    return res->data;
}

int bk_eval_private(const bct_call *call, bk_result *res)
{
    memset(res, 0, sizeof *res);
    bct_call priv = *call;
    priv.alloc_output = private_alloc;
    priv.ctx = res;
    bc_error err;
    return bc_eval(&priv, &err);
}

void bk_free(bk_result *res)
{
    free(res->data);
    res->data = NULL;
}

void *bk_emit(const bct_call *call, const bk_result *res, int rank, const int64_t *shape)
{
    void *out = call->alloc_output(call->ctx, res->dtype, rank, shape);
    if (out == NULL) {
        bk_message(call, "the runner refused the output buffer");
        return NULL;
    }
    size_t size = res->dtype == BCT_NONE ? 0 : (size_t)bc_dtype_size(res->dtype);
    int64_t count = bk_count(rank, shape);
    size_t want = count > 0 ? (size_t)count * size : 0;
    size_t n = want < res->bytes ? want : res->bytes;
    if (n > 0)
        memcpy(out, res->data, n);
    return out;
}

int bk_correct(const bct_call *call)
{
    bc_error err;
    return bc_eval(call, &err);
}

/* alloc_grad for the private run: one calloc'd buffer per input. */
static void *private_grad(void *ctx, int k, int dtype, int rank, const int64_t *shape)
{
    bk_grads *g = ctx;
    int64_t n = bk_count(rank, shape);
    if (k < 0 || k >= BK_MAXG || g->have[k] || n < 0 || (dtype != BCT_F32 && dtype != BCT_F64) ||
        (uint64_t)n > BK_PRIVATE_CAP / 8)
        return NULL;
    g->bytes[k] = (size_t)n * (size_t)bc_dtype_size(dtype);
    g->data[k] = calloc(g->bytes[k] ? g->bytes[k] : 1, 1);
    if (g->data[k] == NULL) return NULL;
    g->have[k] = 1;
    g->dtype[k] = dtype;
    g->rank[k] = rank;
    if (rank > 0) memcpy(g->shape[k], shape, (size_t)rank * sizeof shape[0]);
    return g->data[k];
}

int bk_grad_private(const bct_call *call, bk_grads *g)
{
    memset(g, 0, sizeof *g);
    bct_call priv = *call;
    priv.alloc_grad = private_grad;
    priv.ctx = g;
    bc_error err;
    return bc_eval(&priv, &err);
}

void bk_grads_free(bk_grads *g)
{
    for (int k = 0; k < BK_MAXG; k++) free(g->data[k]);
    memset(g, 0, sizeof *g);
}

void *bk_emit_grad(const bct_call *call, int k, int dtype, int rank, const int64_t *shape,
                   const void *src, size_t n)
{
    void *out = call->alloc_grad(call->ctx, k, dtype, rank, shape);
    if (out == NULL) {
        bk_message(call, "the runner refused a gradient buffer");
        return NULL;
    }
    int64_t count = bk_count(rank, shape);
    size_t want = count > 0 ? (size_t)count * (size_t)bc_dtype_size(dtype) : 0;
    if (n > want) n = want;
    if (n > 0) memcpy(out, src, n);
    return out;
}
