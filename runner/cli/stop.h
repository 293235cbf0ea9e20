/* stop.h - SIGINT and SIGTERM ask the running command to stop: its loops check br_stop_flag. */
#ifndef BR_STOP_H
#define BR_STOP_H

#include <signal.h>

/* The signal that asked for a stop, or 0. Set by the handler br_stop_catch installs. */
extern volatile sig_atomic_t br_stop_flag;

/* Installs the handler for SIGINT and SIGTERM, and ignores SIGPIPE (a worker
 * or a bridge that dies mid-write is an outcome, not the runner's death). */
void br_stop_catch(void);

#endif
