/* call.h - turning a loaded case into a target call (bct_call and its arg
 * views), shared by the workers (isolate.c) and ref's re-computation (judge.c). */
#ifndef BR_CALL_H
#define BR_CALL_H

#include "bcast_target.h"
#include "case/caseio.h"

/* Index of the arg a case's mode writes (self for inplace, out for out), or -1. */
int br_writable_arg(const br_case *c);

/* Fills args[0..c->nargs) with views on the case's (materialized) data and
 * call with op, mode, profile, args and attributes. The caller points the
 * writable arg (br_writable_arg) at its own copy and sets alloc_output, ctx
 * and the message buffer. */
void br_case_call(const br_case *c, int profile, bct_array *args, bct_call *call);

/* Bytes of an arg's whole storage. */
size_t br_arg_storage_bytes(const br_arg *a);

#endif
