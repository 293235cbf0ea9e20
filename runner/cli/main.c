/* main.c - bcast-run: parses the command line and runs the subcommand (docs/runner.md). */
#include "cli/commands.h"
#include "cli/options.h"

int main(int argc, char **argv)
{
    br_opts o;
    int rc = br_parse_opts(argc, argv, &o);
    if (rc == 0) {
        switch (o.cmd) {
        case BR_CMD_SHOW: rc = br_cmd_show(&o); break;
        case BR_CMD_MERGE: rc = br_cmd_merge(&o); break;
        case BR_CMD_SHRINK: rc = br_cmd_shrink(&o); break;
        case BR_CMD_EXPLORE: rc = br_cmd_explore(&o); break;
        default: rc = br_cmd_run(&o); break;
        }
    }
    br_opts_free(&o);
    return rc;
}
