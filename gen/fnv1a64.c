/* fnv1a64.c - prints the 64-bit FNV-1a digest of stdin (gen/ hashes large expected outputs with it). */
#include <stdint.h>
#include <stdio.h>

/* Reads stdin to EOF and prints the digest as 16 lower-case hex digits and the
 * byte count. Python is far too slow for a byte-serial hash over gigabytes,
 * so gen/suite_large.py streams the bytes here. */
int main(void)
{
    static unsigned char buf[1 << 20];
    uint64_t h = 0xcbf29ce484222325u;
    uint64_t total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
        for (size_t i = 0; i < n; i++) {
            h ^= buf[i];
            h *= 0x100000001b3u;
        }
        total += n;
    }
    if (ferror(stdin)) {
        fprintf(stderr, "fnv1a64: error reading stdin\n");
        return 1;
    }
    printf("%016llx %llu\n", (unsigned long long)h, (unsigned long long)total);
    return 0;
}
