/* worker.h - the worker's entry points, called by the parent (isolate.c) and the fork server (zygote.c). */
#ifndef BR_WORKER_H
#define BR_WORKER_H
#include "isolate/isolate_internal.h"
#include "target/target.h"

/* the worker's life after fork. Never returns. mode: how much of
 * the target is already set up in this process (see zygote.h). */
enum { BR_W_FRESH = 0, BR_W_LOADED, BR_W_READY };
void br_worker_main(br_iso *iso, int k, int cmd_fd, int rep_fd, int mode);

/* the fault handlers and the target, loaded in the current process
 * (the fork server or a fresh worker). 0, or -1 with msg. */
void br_worker_install_handlers(void);
int br_worker_load(br_iso *iso, const char **msg);
int br_worker_init(br_iso *iso, const char **msg);
void br_worker_describe(br_target_info *info);

/* the fork server's one-time setup for all the workers it forks
 * (in mode): /dev/null opened, the case data made read-only, the mapped size
 * the address-space limit starts from, the descriptor once initialised. */
void br_worker_prefork(br_iso *iso, int mode);

/* Count of this process's threads (from /proc), or -1. */
int br_thread_count(void);

/* Whether workers run under the data-segment limit (RLIMIT_DATA): not under
 * AddressSanitizer, nor with BCAST_RUN_NO_RLIMIT=1. */
int br_worker_data_limited(const br_iso *iso);

#endif
