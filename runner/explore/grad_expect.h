/* grad_expect.h - the expectations of an explored gradient case: ref's backward pass, one per differentiable input, with a bound for the summation order. */
#ifndef BR_GRAD_EXPECT_H
#define BR_GRAD_EXPECT_H

#include "case/caseio.h"
#include "case/live.h"

/* Fills e[0..) with what ref (bc_eval, BCT_MODE_GRAD) answers for the live
 * grad-mode case c under profile: one error, or one gradient per input ref
 * differentiates (grad_arg set, in argument order), its values in lv. Each
 * gradient compares `ulp 0 abs A` (exact when A is 0), where A bounds what
 * another summation order can change (B23): 2^ceil(log2((T + 8) * eps * S)),
 * T the most terms one gradient element sums, S a bound of their magnitudes
 * (T times the largest incoming gradient, times the largest other operand
 * for mul and matmul), eps the f32 or f64 epsilon (f32 when any float operand
 * is f32): the bound gen/grad_builder.py uses, from the operands alone;
 * exact when each element takes one term (T = 1).
 * cap: room in e. Returns the number of expectations, or -1 when lv (or cap) is full. */
int br_grad_expect(br_live *lv, const br_case *c, int profile, br_expect *e, int cap);

#endif
