/* fuzz_caseio.c - libFuzzer entry for the case reader: any bytes must give
 * either cases or a "FILE:LINE: message" error, never a crash, hang, leak or
 * a huge allocation. Built and run by fuzz/fuzz.mk (`make fuzz`); the same
 * entry is replayed over fuzz/regressions/caseio/ by fuzz/replay.c in `make test`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "case/caseio.h"
#include "bcast_ref.h"

/* Patterns are materialized only up to this many bytes per arg: a pattern of
 * 2^31 elements is a legitimate (large-suite) case, and generating it would
 * only measure memset speed. The reader's own limits are still exercised. */
#define FUZZ_MAX_PATTERN_BYTES ((int64_t)1 << 24)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Contract: never returns non-zero; aborts (a finding) when an error message
 * does not start with the file name, i.e. would not name FILE:LINE. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    br_caseset cs;
    br_err err;
    memset(&cs, 0, sizeof cs);
    char *buf = malloc(size + 1);
    if (buf == NULL) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    int rc = br_load_buffer(&cs, "fuzz.cases", buf, size, &err);
    if (rc == 0) rc = br_finish(&cs, &err);
    for (size_t i = 0; rc == 0 && i < cs.n; i++) {
        const br_case *c = &cs.cases[i];
        int small = 1;
        for (int a = 0; a < c->nargs; a++)
            if (c->args[a].data_kind == BR_DATA_PATTERN &&
                c->args[a].storage * bc_dtype_size(c->args[a].dtype) > FUZZ_MAX_PATTERN_BYTES)
                small = 0;
        if (small) rc = br_materialize(&cs, &cs.cases[i], &err);
    }
    if (rc != 0 && strncmp(err.msg, "fuzz.cases:", 11) != 0) abort();   /* errors must name file:line */
    br_caseset_free(&cs);
    return 0;
}
