/* onednn_common.h - what the oneDNN adapter's primitives share: the engine, operands as memory descriptors, execution. */
#ifndef BCT_ONEDNN_COMMON_H
#define BCT_ONEDNN_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <oneapi/dnnl/dnnl.h>

#include "bcast_target.h"

/* A CPU engine and an in-order stream per worker (onednn_target.c's init). */
extern dnnl_engine_t bct_onednn_engine;
extern dnnl_stream_t bct_onednn_stream;

/* One operand prepared for oneDNN: padded dims and strides, the handle, and
 * an owned dense copy when oneDNN could not take the view as it is. */
typedef struct operand {
    /* BCT_MAX_RANK, not DNNL_MAX_NDIMS: under --probe-limits oneDNN itself
     * must answer a rank above its limit */
    int64_t dims[BCT_MAX_RANK], strides[BCT_MAX_RANK];
    void *handle;
    void *copy;
    dnnl_memory_desc_t md;
} operand;

/* bcast dtype -> oneDNN data type (f32, s8, u8; else undef). */
dnnl_data_type_t dnnl_type(int dt);
/* The name of a dnnl status, for messages. */
const char *status_name(dnnl_status_t s);
/* The format tag of a dense C-order layout of nd dims, 1 <= nd <= 12. */
dnnl_format_tag_t dense_tag(int nd);
/* Fills op for a at padded rank nd (leading 1s; nd >= a->rank): its strides
 * as they are, or a dense copy when oneDNN refuses them. A dnnl status. */
dnnl_status_t prepare(const bct_array *a, int nd, operand *op);
/* op as a dense C-order copy of a at padded rank nd, whatever its strides. */
dnnl_status_t prepare_dense(const bct_array *a, int nd, operand *op);
/* Wraps the n operands in memory objects (into m[0..n-1], which the caller
 * destroys) and executes prim with them as the arguments ids[0..n-1].
 * dnnl_success, or the failing status with *stage naming the call. */
dnnl_status_t execute(dnnl_primitive_t prim, int n, const int *ids, const operand *const *ops,
                      dnnl_memory_t *m, const char **stage);

/* The adapter's ops beyond the binary primitive (onednn_fused.c). */
int onednn_prelu(const bct_call *call);
int onednn_gemm_bias(const bct_call *call);

#endif
