/* iter.c - the one strided N-d iterator: an odometer over the output's outer
 * dimensions handing out rows along the last dimension (B1, B2, B17). */
#include "ref_internal.h"

/* Sets up iteration over `shape` (rank dims) for nop operands. Each operand is
 * right-aligned against shape (B1); a dimension it lacks, or where it has
 * extent 1 against a larger extent, gets stride 0 (B2, B17: the operand is
 * read at any index of that dimension and gives the same slice, so nothing is
 * ever copied to the broadcast shape). Shapes must already be known to
 * broadcast. A rank-0 shape gives one row of one element. */
void bc_iter_init(bc_iter *it, int rank, const int64_t *shape, int nop, const bc_operand *ops)
{
    it->rank = rank;
    it->nop = nop;
    it->started = 0;
    it->empty = 0;
    for (int d = 0; d < rank; d++) {
        it->shape[d] = shape[d];
        it->index[d] = 0;
        if (shape[d] == 0)
            it->empty = 1;
    }
    for (int k = 0; k < nop; k++) {
        int lead = rank - ops[k].rank;
        it->base[k] = ops[k].base;
        it->off[k] = 0;
        for (int d = 0; d < rank; d++) {
            int i = d - lead;
            int stretched = i < 0 || (ops[k].shape[i] == 1 && shape[d] != 1);
            /* A dim of extent 1 is never stepped, and an empty iteration reads
             * nothing: their strides may not fit in bytes (e.g. the (0,2**62)
             * result of a zero-size broadcast) and are not needed. Any other
             * stride reaches an element inside its buffer, so fits. */
            int unused = it->empty || shape[d] == 1;
            it->stride[k][d] = stretched || unused ? 0 : ops[k].strides[i] * ops[k].itemsize;
        }
        it->inner[k] = rank > 0 ? it->stride[k][rank - 1] : 0;
    }
    it->n = rank > 0 ? shape[rank - 1] : 1;
}

/* Odometer step over dims rank-2..0 (the last dim is the row). Offsets are kept
 * as integers so no pointer ever leaves its buffer. */
int bc_iter_next(bc_iter *it, char **ptr)
{
    if (it->empty)
        return 0;
    if (!it->started) {
        it->started = 1;
    } else {
        int d;
        for (d = it->rank - 2; d >= 0; d--) {
            if (++it->index[d] < it->shape[d]) {
                for (int k = 0; k < it->nop; k++)
                    it->off[k] += it->stride[k][d];
                break;
            }
            it->index[d] = 0;
            for (int k = 0; k < it->nop; k++)
                it->off[k] -= it->stride[k][d] * (it->shape[d] - 1);
        }
        if (d < 0)
            return 0;
    }
    for (int k = 0; k < it->nop; k++)
        ptr[k] = it->base[k] + it->off[k];
    return 1;
}
