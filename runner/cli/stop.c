/* stop.c - SIGINT and SIGTERM ask the running command to stop (run, explore, shrink). */
#include "cli/stop.h"

#include <string.h>

volatile sig_atomic_t br_stop_flag;

static void on_stop(int sig) { br_stop_flag = sig; }

void br_stop_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}
