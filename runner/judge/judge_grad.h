/* judge_grad.h - judging a grad-mode call: each gradient the target produced
 * against the case's expectation, and what an autodiff bug looks like. */
#ifndef BR_JUDGE_GRAD_H
#define BR_JUDGE_GRAD_H

#include <stddef.h>
#include "case/caseio.h"
#include "isolate/isolate.h"

/* A grad-mode verdict: failed is 0 when every gradient matched; else the
 * outcome (BR_O_*), the failure kind (BR_FK_*) and the words findings group on. */
typedef struct br_grad_verdict {
    int failed, outcome, failure;
    char reason[700], detail[160], behaviour[400];
    char expected[600], actual[600];   /* one summary per gradient, "x: f32 (3,1) [...]; y: ..." */
} br_grad_verdict;

/* Memory checks of the gradients a call was handed: the canary around each.
 * Returns 1 (and fills gv) on a violation. */
int br_grad_memory(const br_case *c, const br_wres *r, const char *base, br_grad_verdict *gv);

/* Judges a grad-mode call that returned BCT_OK against the case under
 * profile: alloc_output misuse, refused alloc_grad requests, a gradient
 * missing or extra, its dtype, its shape (classified: not reduced, size-1
 * dims dropped, ...) and its values (scaled by the broadcast factor, ...). */
void br_judge_grads(const br_case *c, int profile, const br_wres *r, const char *base, br_grad_verdict *gv);

/* The gradient of input arg recomputed on ref (malloc'd, C order), for a
 * digest mismatch; NULL when ref gives none. */
void *br_ref_grad(const br_case *c, int profile, int arg);

#endif
