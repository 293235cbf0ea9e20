/* fnv1a64.c - prints the 64-bit FNV-1a digest of stdin (gen/ hashes large expected outputs with it). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FNV_BASIS 0xcbf29ce484222325u
#define FNV_PRIME 0x100000001b3u

static unsigned char buf[1 << 20];

/* Hashes up to `limit` bytes of stdin into *h (all of it when limit < 0);
 * returns the number of bytes read, or -1 on a read error. */
static long long hash_stdin(uint64_t *h, long long limit)
{
    long long total = 0;
    while (limit < 0 || total < limit) {
        size_t want = sizeof buf;
        if (limit >= 0 && (unsigned long long)(limit - total) < want)
            want = (size_t)(limit - total);
        size_t n = fread(buf, 1, want, stdin);
        for (size_t i = 0; i < n; i++) {
            *h ^= buf[i];
            *h *= FNV_PRIME;
        }
        total += (long long)n;
        if (n < want)
            break;
    }
    return ferror(stdin) ? -1 : total;
}

/* Framed mode (--frames): each frame is an 8-byte little-endian length and
 * that many bytes; each gets one output line "HEX BYTES", flushed at once, so
 * one helper process serves every digest of a generator worker (a process
 * per small output would cost more than the hash). Ends at EOF between frames. */
static int frames(void)
{
    unsigned char len[8];
    for (;;) {
        size_t got = fread(len, 1, sizeof len, stdin);
        if (got == 0 && feof(stdin))
            return 0;
        if (got != sizeof len) {
            fprintf(stderr, "fnv1a64: truncated frame header\n");
            return 1;
        }
        unsigned long long n = 0;
        for (int i = 7; i >= 0; i--)
            n = (n << 8) | len[i];
        uint64_t h = FNV_BASIS;
        long long total = hash_stdin(&h, (long long)n);
        if (total < 0 || (unsigned long long)total != n) {
            fprintf(stderr, "fnv1a64: frame of %llu bytes ended after %lld\n", n, total);
            return 1;
        }
        printf("%016llx %llu\n", (unsigned long long)h, n);
        fflush(stdout);
    }
}

/* Without arguments: reads stdin to EOF and prints the digest as 16
 * lower-case hex digits and the byte count. Python is far too slow for a
 * byte-serial hash over gigabytes, so gen/ streams the bytes here. */
int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--frames") == 0)
        return frames();
    if (argc != 1) {
        fprintf(stderr, "usage: fnv1a64 [--frames] < BYTES\n");
        return 2;
    }
    uint64_t h = FNV_BASIS;
    long long total = hash_stdin(&h, -1);
    if (total < 0) {
        fprintf(stderr, "fnv1a64: error reading stdin\n");
        return 1;
    }
    printf("%016llx %llu\n", (unsigned long long)h, (unsigned long long)total);
    return 0;
}
