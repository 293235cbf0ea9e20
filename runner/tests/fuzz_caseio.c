/* fuzz_caseio.c - libFuzzer entry for the case reader: any bytes must give
 * either cases or a "FILE:LINE: message" error, never a crash, hang or leak.
 * Build with `make BUILD=build-fuzz CC=clang fuzz-caseio` and run
 * build-fuzz/fuzz-caseio [corpus-dir] (seed it with cases/ and the fixtures). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "caseio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    if (rc == 0)
        for (size_t i = 0; i < cs.n; i++)
            if (br_materialize(&cs, &cs.cases[i], &err) != 0) break;
    if (rc != 0 && strncmp(err.msg, "fuzz.cases:", 11) != 0) abort();   /* errors must name file:line */
    br_caseset_free(&cs);
    return 0;
}
