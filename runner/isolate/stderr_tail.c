/* stderr_tail.c - reading back the end of a worker's stderr memory file, sanitised for a report. */
#include "isolate/stderr_tail.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Moves *p past the first line break of [*p, end), or, when the text has
 * none, past its first space, so that a tail cut out of the middle of a
 * file never starts mid-word. Returns 1 when it could, 0 when the text is
 * one unbroken word (it is kept whole: cutting it would lose everything). */
static int skip_partial_word(char **p, char *end)
{
    char *nl = memchr(*p, '\n', (size_t)(end - *p));
    char *sp = memchr(*p, ' ', (size_t)(end - *p));
    char *cut = nl != NULL ? nl : sp;
    if (cut == NULL || cut + 1 >= end) return 0;
    *p = cut + 1;
    return 1;
}

/* See stderr_tail.h: at most BR_STDERR_KEEP bytes, printable ASCII and
 * newlines, trailing blank lines dropped; "" when nothing was written.
 * When the file holds more than fits, the tail starts at a line (or word)
 * boundary after "...", never mid-word. */
void br_stderr_tail(int fd, int64_t from, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (fd < 0 || from < 0 || cap < 8) return;
    off_t end = lseek(fd, 0, SEEK_END);
    if (end <= (off_t)from) return;
    size_t want = (size_t)(end - from), keep = cap - 5 < BR_STDERR_KEEP ? cap - 5 : BR_STDERR_KEEP;
    off_t start = want > keep ? end - (off_t)keep : (off_t)from;
    char *text = buf + 4;                 /* room for "... " in front */
    ssize_t n = pread(fd, text, (size_t)(end - start), start);
    if (n <= 0) return;
    /* printable ASCII and newlines only; trailing blank lines dropped */
    for (ssize_t i = 0; i < n; i++)
        if (text[i] != '\n' && (text[i] < 0x20 || text[i] > 0x7e)) text[i] = '?';
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ')) n--;
    char *p = text;
    int cut = start > (off_t)from && skip_partial_word(&p, text + n);
    size_t len = (size_t)(text + n - p);
    memmove(buf + (cut ? 4 : 0), p, len);
    if (cut) memcpy(buf, "... ", 4);
    buf[len + (cut ? 4 : 0)] = '\0';
}

/* Whether a target's stderr reads like a failed allocation. */
static int says_out_of_memory(const char *tail)
{
    static const char *const words[] = {
        "out of memory", "cannot allocate", "could not allocate", "failed to allocate", "memoryerror",
        "bad_alloc", "enomem", "allocation failed"
    };
    char low[BR_STDERR_KEEP + 8];
    size_t i;
    for (i = 0; tail[i] && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)tail[i]);
    low[i] = '\0';
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        if (strstr(low, words[w]) != NULL) return 1;
    return 0;
}

/* See stderr_tail.h. */
void br_start_failure(char *msg, size_t cap, const char *target, const char *why, int fd, int data_limited)
{
    char tail[1200];
    br_stderr_tail(fd, 0, tail, sizeof tail);
    const char *hint = data_limited && says_out_of_memory(tail)
        ? "; it failed to allocate under bcast-run's memory limit (each worker's data segment, RLIMIT_DATA, "
          "is limited to its size at start + 4 GiB): BCAST_RUN_NO_RLIMIT=1 lifts the limit"
        : "";
    snprintf(msg, cap, "%.400s: cannot use the target: %.500s%s%s%s", target, why,
             tail[0] ? "; its stderr: " : "", tail, hint);
}
