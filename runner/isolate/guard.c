/* guard.c - guard pages around a worker's blocks (MADV_GUARD_INSTALL markers or PROT_NONE), and the canary check of the slack beside them. */
#define _GNU_SOURCE   /* MADV_GUARD_INSTALL */
#include "isolate/guard.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "isolate/isolate_internal.h"

/* See guard.h: the arena's mechanism, chosen at br_iso_start. */
int br_guard(const br_iso *I, void *p, size_t len)
{
    if (I->madv_guard) return madvise(p, len, MADV_GUARD_INSTALL);
    return mprotect(p, len, PROT_NONE);
}

/* See guard.h: the page accessible (read/write) again. */
int br_unguard(const br_iso *I, void *p, size_t len)
{
    if (I->madv_guard) return madvise(p, len, MADV_GUARD_REMOVE);
    return mprotect(p, len, PROT_READ | PROT_WRITE);
}

/* Whether bytes [lo, hi) of base all hold the canary (compared a word at a time). */
static int canary_ok(const char *base, int64_t lo, int64_t hi)
{
    static const unsigned char word[8] = { BR_CANARY, BR_CANARY, BR_CANARY, BR_CANARY,
                                           BR_CANARY, BR_CANARY, BR_CANARY, BR_CANARY };
    int64_t i = lo;
    for (; i + 8 <= hi; i += 8) if (memcmp(base + i, word, 8) != 0) return 0;
    for (; i < hi; i++) if ((unsigned char)base[i] != BR_CANARY) return 0;
    return 1;
}

/* Checks the slack around a block worker.c placed at off (n bytes): every
 * other byte of the block's pages holds the canary, whether the block sits at
 * the end of its pages (rounded up to 8) or at their start (--guard start). */
static int slack_ok(const char *base, int64_t off, int64_t n)
{
    static int64_t pg;
    if (off < 0) return 1;
    if (pg == 0) { long sp = sysconf(_SC_PAGESIZE); pg = sp > 0 ? sp : 4096; }
    int64_t start_page = off / pg * pg, end_page = (off + n + pg - 1) / pg * pg;
    return canary_ok(base, start_page, off) && canary_ok(base, off + n, end_page);
}

int br_slack_ok(const char *base, int64_t off, int64_t n) { return slack_ok(base, off, n); }
