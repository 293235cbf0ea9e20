/* stop.c - SIGINT and SIGTERM ask the running command to stop (run, explore, shrink); --seconds stops it too. */
#include "cli/stop.h"

#include <string.h>
#include <sys/time.h>

volatile sig_atomic_t br_stop_flag;

static void on_stop(int sig) { br_stop_flag = sig; }

/* The --seconds deadline: a stop, unless a signal asked for one first. */
static void on_deadline(int sig)
{
    if (br_stop_flag == 0) br_stop_flag = sig;
}

void br_stop_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* See stop.h: a one-shot ITIMER_REAL; SIGALRM without SA_RESTART, so a
 * blocking poll or read returns and its loop sees the flag. */
void br_stop_after(double seconds)
{
    if (!(seconds > 0)) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_deadline;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)seconds;
    it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &it, NULL);
}

int br_interrupted(void)
{
    return br_stop_flag != 0 && br_stop_flag != SIGALRM;
}

int br_deadline_passed(void)
{
    return br_stop_flag == SIGALRM;
}
