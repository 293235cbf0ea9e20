/* zygote.h - the fork server: one process that has loaded (and, when that is safe, initialised) the target and forks every worker, so replacing a crashed worker costs a fork, not a dlopen and an init. */
#ifndef BR_ZYGOTE_H
#define BR_ZYGOTE_H

#include <sys/types.h>
#include "isolate/isolate_internal.h"

/* Starts the fork server for I (forked from the caller, after the case set
 * is in shared memory). It loads the target and runs init() itself; when
 * init leaves more than one thread or a child process behind (a thread pool,
 * a bridge process), forking it would be unsafe, so it is restarted to load
 * only, and each worker runs init itself. Returns NULL with err empty when
 * the target cannot be forked from at all (loading it already starts
 * threads): the caller then forks fresh workers itself. NULL with err set
 * when the target cannot be used. */
zygote *br_zy_start(br_iso *I, br_err *err);

/* The workers' starting state: BR_W_READY (initialised) or BR_W_LOADED. */
int br_zy_mode(const zygote *z);

/* Forks worker k with the given pipe ends (the zygote and the worker keep
 * them; the caller closes its copies). 0 with *pid, or -1. */
int br_zy_spawn(zygote *z, int k, int cmd_r, int rep_w, pid_t *pid);

/* The descriptor to poll for the fork server's exit reports. */
int br_zy_fd(const zygote *z);

/* Reads the reports that are waiting and records each worker's exit
 * (worker.exited / exit_status). -1 when the fork server is gone. */
int br_zy_drain(zygote *z);

/* Waits (up to ms) until worker k's exit is reported; its status, or -1. */
int br_zy_wait_exit(zygote *z, int k, int ms);

/* Closes the channel; the fork server lets idle workers exit (within
 * BCAST_RUN_EXIT_GRACE), kills the rest, and exits. */
void br_zy_stop(zygote *z);

#endif
