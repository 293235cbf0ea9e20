/* onednn_memory.c - bcast operands as oneDNN memory descriptors and memory objects, and primitive execution. */
#include <stdlib.h>
#include <string.h>

#include "onednn_common.h"

dnnl_engine_t bct_onednn_engine;
dnnl_stream_t bct_onednn_stream;

/* bcast dtype -> oneDNN data type; the binary primitive's documented types
 * among bcast's are f32, s8, u8 (docs: "Binary", Data Types). */
dnnl_data_type_t dnnl_type(int dt)
{
    switch (dt) {
    case BCT_F32: return dnnl_f32;
    case BCT_I8: return dnnl_s8;
    case BCT_U8: return dnnl_u8;
    default: return dnnl_data_type_undef;
    }
}

static size_t elem_size(int dt)
{
    return dt == BCT_F32 ? 4u : 1u;
}

const char *status_name(dnnl_status_t s)
{
    switch (s) {
    case dnnl_success: return "success";
    case dnnl_out_of_memory: return "out_of_memory";
    case dnnl_invalid_arguments: return "invalid_arguments";
    case dnnl_unimplemented: return "unimplemented";
    case dnnl_runtime_error: return "runtime_error";
    default: return "other status";
    }
}

/* The format tag of a dense C-order (row-major) layout of nd dims, 1 <= nd <= 12:
 * oneDNN computes the strides from the dims itself. */
dnnl_format_tag_t dense_tag(int nd)
{
    static const dnnl_format_tag_t tags[] = {
        dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd, dnnl_abcde, dnnl_abcdef, dnnl_abcdefg,
        dnnl_abcdefgh, dnnl_abcdefghi, dnnl_abcdefghij, dnnl_abcdefghijk, dnnl_abcdefghijkl,
    };
    return nd >= 1 && nd <= 12 ? tags[nd - 1] : dnnl_format_tag_undef;
}

/* Copies the strided view a into dense C order. */
static void densify(const bct_array *a, char *dense)
{
    size_t es = elem_size(a->dtype);
    int64_t n = 1, idx[BCT_MAX_RANK] = {0}, off = a->offset;
    for (int d = 0; d < a->rank; d++)
        n *= a->shape[d];
    for (int64_t i = 0; i < n; i++) {
        memcpy(dense + (size_t)i * es, (const char *)a->data + off * (int64_t)es, es);
        for (int d = a->rank - 1; d >= 0; d--) {
            if (++idx[d] < a->shape[d]) {
                off += a->strides[d];
                break;
            }
            idx[d] = 0;
            off -= a->strides[d] * (a->shape[d] - 1);
        }
    }
}

/* Pads a's dims and strides to rank nd into op; returns its element count,
 * or -1 when it is too large for a dense copy (2^28 elements or more). */
static int64_t pad_dims(const bct_array *a, int nd, operand *op)
{
    int lead = nd - a->rank;
    int64_t n = 1;
    int huge = 0;
    for (int d = 0; d < nd; d++) {
        op->dims[d] = d < lead ? 1 : a->shape[d - lead];
        op->strides[d] = d < lead ? 0 : a->strides[d - lead];
        if (op->dims[d] > 0 && n > (INT64_C(1) << 28) / op->dims[d])
            huge = 1;                       /* no dense copy of this many elements */
        else
            n *= op->dims[d];
    }
    op->copy = NULL;
    op->handle = (char *)a->data + a->offset * (int64_t)elem_size(a->dtype);
    return huge ? -1 : n;
}

/* op's handle becomes a dense copy of a (n elements), described by a format tag. */
static dnnl_status_t dense_copy(const bct_array *a, int nd, int64_t n, operand *op)
{
    op->copy = malloc(n > 0 ? (size_t)n * elem_size(a->dtype) : 1u);
    if (op->copy == NULL)
        return dnnl_out_of_memory;
    densify(a, op->copy);
    op->handle = op->copy;
    return dnnl_memory_desc_init_by_tag(&op->md, nd, op->dims, dnnl_type(a->dtype), dense_tag(nd));
}

dnnl_status_t prepare(const bct_array *a, int nd, operand *op)
{
    int64_t n = pad_dims(a, nd, op);
    dnnl_status_t s = dnnl_memory_desc_init_by_strides(&op->md, nd, op->dims,
                                                       dnnl_type(a->dtype), op->strides);
    if (s == dnnl_success || n < 0)
        return s;
    return dense_copy(a, nd, n, op);   /* oneDNN refused the layout: calling convention */
}

dnnl_status_t prepare_dense(const bct_array *a, int nd, operand *op)
{
    int64_t n = pad_dims(a, nd, op);
    return n < 0 ? dnnl_out_of_memory : dense_copy(a, nd, n, op);
}

dnnl_status_t execute(dnnl_primitive_t prim, int n, const int *ids, const operand *const *ops,
                      dnnl_memory_t *m, const char **stage)
{
    dnnl_status_t s;
    dnnl_exec_arg_t args[4];
    for (int i = 0; i < n && i < 4; i++) {
        if ((s = dnnl_memory_create(&m[i], &ops[i]->md, bct_onednn_engine, ops[i]->handle)) != dnnl_success) {
            *stage = "dnnl_memory_create";
            return s;
        }
        args[i].arg = ids[i];
        args[i].memory = m[i];
    }
    if ((s = dnnl_primitive_execute(prim, bct_onednn_stream, n, args)) != dnnl_success ||
        (s = dnnl_stream_wait(bct_onednn_stream)) != dnnl_success)
        *stage = "dnnl_primitive_execute";
    return s;
}
