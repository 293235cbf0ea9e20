/* stderr_tail.h - the last lines a worker or the fork server wrote to its stderr memory file. */
#ifndef BR_STDERR_TAIL_H
#define BR_STDERR_TAIL_H
#include <stddef.h>
#include <stdint.h>

#define BR_STDERR_KEEP 4096         /* bytes of a worker's stderr kept for a lost case */

/* The last lines a worker wrote to stderr since byte `from`,
 * sanitised to printable ASCII, into buf. */
void br_stderr_tail(int fd, int64_t from, char *buf, size_t cap);

/* The message of a target that could not start: "TARGET: cannot use the
 * target: WHY; its stderr: TAIL" from the stderr file fd, and, when
 * data_limited (the worker ran under the RLIMIT_DATA limit) and the stderr
 * reads like a failed allocation, what the limit is and that
 * BCAST_RUN_NO_RLIMIT=1 lifts it. */
void br_start_failure(char *msg, size_t cap, const char *target, const char *why, int fd, int data_limited);

#endif
