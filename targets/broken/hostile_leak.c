/* hostile_leak.c - test target: leaks 512 MiB of address space per call and aborts when malloc fails, like an xmalloc-style library. */
#include <stdlib.h>

#include "broken.h"

#define LEAK_BYTES ((size_t)512 << 20)

/* The leak is never freed, so a worker that serves many cases runs into its
 * address-space limit (docs/reliability.md): that case crashes (SIGABRT), the
 * worker is replaced, and the cases after it must still pass. Only the first
 * page is touched, so the leak costs address space, not RAM. */
static int run(const bct_call *call)
{
    volatile char *p = malloc(LEAK_BYTES);   /* volatile: the store keeps the malloc */
    if (p == NULL)
        abort();
    p[0] = 1;   /* never freed */
    return bk_correct(call);
}

BK_TARGET("hostile-leak", run)
