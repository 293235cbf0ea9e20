/* commands.h - bcast-run's subcommands, one file each (cmd_*.c). Each returns the process exit status. */
#ifndef BR_COMMANDS_H
#define BR_COMMANDS_H

#include "cli/options.h"

int br_cmd_run(const br_opts *o);       /* cmd_run.c */
int br_cmd_show(const br_opts *o);      /* cmd_show.c */
int br_cmd_merge(const br_opts *o);     /* cmd_merge.c */
int br_cmd_shrink(const br_opts *o);    /* cmd_shrink.c */
int br_cmd_explore(const br_opts *o);   /* cmd_explore.c */

#endif
