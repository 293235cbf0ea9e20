/* replay.c - runs a fuzz harness's LLVMFuzzerTestOneInput over saved inputs
 * (fuzz/regressions/), without libFuzzer, so `make test` replays every crash
 * ever found with the ordinary compiler and flags (and sanitizers under
 * `make sanitize`). A crash kills the process: run-tests.sh counts it failed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads a whole file; NULL (and a message) when it cannot. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL) goto fail;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, ncap);
            if (nb == NULL) goto fail;
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) goto fail;
    fclose(f);
    *len = n;
    return buf;
fail:
    fprintf(stderr, "replay: cannot read %s\n", path);
    if (f != NULL) fclose(f);
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        uint8_t *buf = slurp(argv[i], &len);
        if (buf == NULL) { failed++; continue; }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        printf("PASS %s\n", argv[i]);
        passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
