/* stop.h - SIGINT and SIGTERM ask the running command to stop, and so does its --seconds deadline: its loops check br_stop_flag. */
#ifndef BR_STOP_H
#define BR_STOP_H

#include <signal.h>

/* The signal that asked for a stop (SIGALRM: the --seconds deadline), or 0.
 * Set by the handlers br_stop_catch and br_stop_after install. */
extern volatile sig_atomic_t br_stop_flag;

/* Installs the handler for SIGINT and SIGTERM, and ignores SIGPIPE (a worker
 * or a bridge that dies mid-write is an outcome, not the runner's death). */
void br_stop_catch(void);

/* Arms the deadline: `seconds` from now br_stop_flag becomes SIGALRM, so a
 * command stops within its polling interval whatever the target is doing
 * (the isolation layer kills busy workers and keeps what they finished).
 * seconds <= 0: no deadline. */
void br_stop_after(double seconds);

/* A signal (SIGINT, SIGTERM) asked for the stop: exit 130, results incomplete. */
int br_interrupted(void);

/* The --seconds deadline stopped the command: a budget, not an interruption. */
int br_deadline_passed(void);

#endif
