/* matmul.c - x @ y with 1-D promotion and batch broadcasting over the strided iterator (B12-B14). */
#include <string.h>
#include "ref_internal.h"

/* Reads element p (dtype st) converted to dtype dt into tmp (8 bytes). */
static void load_as(void *tmp, int dt, const char *p, int st)
{
    bc_cast((char *)tmp, dt, 0, p, st, 0, 1);
}

/* One core product out[M,N] = a[M,K] @ b[K,N] with byte strides, in dtype dt.
 * Floats accumulate in dt in k order, from +0 or (neg_zero, B47) from -0;
 * ints wrap (through uint64); bool is an OR of ANDs as in NumPy. */
static void core(char *out, int dt, int neg_zero, int64_t M, int64_t N, int64_t K,
                 const char *a, int at, int64_t as0, int64_t as1,
                 const char *b, int bt, int64_t bs0, int64_t bs1)
{
    int osz = bc_dtype_size(dt);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            char *o = out + (i * N + j) * osz;
            if (dt == BCT_F32) {
                float acc = neg_zero ? -0.0f : 0.0f, x, y;
                for (int64_t k = 0; k < K; k++) {
                    load_as(&x, dt, a + i * as0 + k * as1, at);
                    load_as(&y, dt, b + k * bs0 + j * bs1, bt);
                    acc += x * y;
                }
                memcpy(o, &acc, sizeof acc);
            } else if (dt == BCT_F64) {
                double acc = neg_zero ? -0.0 : 0.0, x, y;
                for (int64_t k = 0; k < K; k++) {
                    load_as(&x, dt, a + i * as0 + k * as1, at);
                    load_as(&y, dt, b + k * bs0 + j * bs1, bt);
                    acc += x * y;
                }
                memcpy(o, &acc, sizeof acc);
            } else {
                uint64_t acc = 0;
                for (int64_t k = 0; k < K; k++) {
                    int64_t x = bc_load_i64(a + i * as0 + k * as1, at);
                    int64_t y = bc_load_i64(b + k * bs0 + j * bs1, bt);
                    if (dt == BCT_BOOL)
                        acc |= (uint64_t)(x != 0 && y != 0);
                    else
                        acc += (uint64_t)x * (uint64_t)y;
                }
                bc_cast(o, dt, 0, (const char *)&acc, BCT_I64, 0, 1);
            }
        }
}

/* Evaluates x @ y (shapes already checked by bc_matmul_shape) into the
 * contiguous buffer out of dtype dt and shape out_shape. The batch dims are
 * walked by the iterator with one extra trailing dim of extent 1, so each
 * "row" is one batch element; stretched batch dims have stride 0 (B14, B17).
 * neg_zero: float sums start from -0 (B47, bc_matmul_value_negzero). */
int bc_matmul_eval(const bct_array *x, const bct_array *y, int dt, const bc_shape *out_shape, char *out,
                   int neg_zero)
{
    int64_t M = x->rank > 1 ? x->shape[x->rank - 2] : 1, K = x->shape[x->rank - 1];
    int64_t N = y->rank > 1 ? y->shape[y->rank - 1] : 1;
    int64_t xs0 = x->rank > 1 ? x->strides[x->rank - 2] : 0, xs1 = x->strides[x->rank - 1];
    int64_t ys0 = y->strides[y->rank > 1 ? y->rank - 2 : 0], ys1 = y->rank > 1 ? y->strides[y->rank - 1] : 0;
    int xz = bc_dtype_size(x->dtype), yz = bc_dtype_size(y->dtype);
    int xb = x->rank > 2 ? x->rank - 2 : 0, yb = y->rank > 2 ? y->rank - 2 : 0;
    int nb = out_shape->rank - (x->rank > 1) - (y->rank > 1);
    int64_t bshape[BC_MAX_RANK + 1], xsh[BC_MAX_RANK + 1], xst[BC_MAX_RANK + 1];
    int64_t ysh[BC_MAX_RANK + 1], yst[BC_MAX_RANK + 1], batch = 0;
    bc_operand ops[2];
    bc_iter it;
    char *ptr[2];
    if (M == 0 || N == 0)
        return BCT_OK;
    for (int i = 0; i < nb; i++) bshape[i] = out_shape->dim[i];
    for (int i = 0; i < xb; i++) { xsh[i] = x->shape[i]; xst[i] = x->strides[i]; }
    for (int i = 0; i < yb; i++) { ysh[i] = y->shape[i]; yst[i] = y->strides[i]; }
    bshape[nb] = xsh[xb] = ysh[yb] = 1;
    xst[xb] = yst[yb] = 0;
    ops[0] = (bc_operand){ bc_base(x), xz, xb + 1, xsh, xst };
    ops[1] = (bc_operand){ bc_base(y), yz, yb + 1, ysh, yst };
    bc_iter_init(&it, nb + 1, bshape, 2, ops);
    while (bc_iter_next(&it, ptr)) {
        core(out + batch * M * N * bc_dtype_size(dt), dt, neg_zero, M, N, K,
             ptr[0], x->dtype, xs0 * xz, xs1 * xz, ptr[1], y->dtype, ys0 * yz, ys1 * yz);
        batch++;
    }
    return BCT_OK;
}
