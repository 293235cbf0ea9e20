/* cmd_shrink.c - `bcast-run shrink ID --target T`: reduces a failing case while the target keeps failing the same way. */
#include "commands.h"

#include <stdio.h>

int br_cmd_shrink(const br_opts *o)
{
    (void)o;
    fprintf(stderr, "bcast-run: shrink is not built yet\n");
    return 2;
}
