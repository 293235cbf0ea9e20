/* hostile_sigbus.c - test target: a genuine SIGBUS (touching a mapping past the end of its file) on mul. */
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "broken.h"

/* Maps one page of an empty temporary file and reads it: the kernel answers
 * with SIGBUS, the fault a target gets from a truncated mmap'd file. If any
 * step fails the signal is raised directly, so the outcome is the same. */
static void touch_past_eof(void)
{
    FILE *f = tmpfile();
    if (f != NULL) {
        long page = sysconf(_SC_PAGESIZE);
        void *p = mmap(NULL, (size_t)(page > 0 ? page : 4096), PROT_READ, MAP_SHARED,
                       fileno(f), 0);
        if (p != MAP_FAILED) {
            volatile const char *c = p;
            (void)c[0];
        }
    }
    raise(SIGBUS);
}

static int run(const bct_call *call)
{
    if (call->op == BCT_MUL)
        touch_past_eof();
    return bk_correct(call);
}

BK_TARGET("hostile-sigbus", run)
