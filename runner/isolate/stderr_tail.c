/* stderr_tail.c - reading back the end of a worker's stderr memory file, sanitised for a report. */
#include "isolate/stderr_tail.h"

#include <unistd.h>

/* See stderr_tail.h: at most BR_STDERR_KEEP bytes, printable ASCII and
 * newlines, trailing blank lines dropped; "" when nothing was written. */
void br_stderr_tail(int fd, int64_t from, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (fd < 0 || from < 0 || cap < 2) return;
    off_t end = lseek(fd, 0, SEEK_END);
    if (end <= (off_t)from) return;
    size_t want = (size_t)(end - from), keep = cap - 1 < BR_STDERR_KEEP ? cap - 1 : BR_STDERR_KEEP;
    off_t start = want > keep ? end - (off_t)keep : (off_t)from;
    ssize_t n = pread(fd, buf, (size_t)(end - start), start);
    if (n <= 0) { buf[0] = '\0'; return; }
    /* printable ASCII and newlines only; trailing blank lines dropped */
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] != '\n' && (buf[i] < 0x20 || buf[i] > 0x7e)) buf[i] = '?';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) n--;
    buf[n] = '\0';
}
