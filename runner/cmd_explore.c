/* cmd_explore.c - `bcast-run explore --target T`: random cases judged against ref. */
#include "commands.h"

#include <stdio.h>

int br_cmd_explore(const br_opts *o)
{
    (void)o;
    fprintf(stderr, "bcast-run: explore is not built yet\n");
    return 2;
}
