/* message_norm.h - a target's own error message normalised into the signature findings group on (docs/findings.md). */
#ifndef BR_MESSAGE_NORM_H
#define BR_MESSAGE_NORM_H

#include <stddef.h>

/* A target's own error text with numbers, shapes, dtype names, values and
 * quoted text that is not an identifier stripped (a quoted identifier, the
 * library naming a function, attribute or op, is kept), cut at 64
 * characters on a word end:
 * "size of tensor a (3) must match (4) at dim 1" -> "size of tensor a (#) must match (#) at dim #".
 * msg is untrusted (any NUL-terminated bytes); buf receives a NUL-terminated
 * string of at most cap - 1 characters (cap >= 1). msg and buf must not overlap. */
void br_normalise_message(const char *msg, char *buf, size_t cap);

/* The last line a crashed target printed, reduced to what names its code
 * path before br_normalise_message: glibc's assert() line "PROG: FILE:LINE:
 * FUNCTION: Assertion `EXPR' failed." (FUNCTION can be a C++ signature of
 * thousands of characters) becomes "assertion failed in BASENAME(FILE):
 * EXPR" ("assertion failed: EXPR" when the line's start is cut off); any
 * other line is copied. line is untrusted; buf as above. */
void br_crash_line(const char *line, char *buf, size_t cap);

/* The line of a crashed target's stderr tail that says what went wrong, into
 * buf. In order of preference: the text a bridge reported with the pipe
 * protocol's `fatal` reply (the adapter's line "bcast pipe target (...): the
 * library said: TEXT"); the last line that reads like an error ("...Error:
 * ...", "panicked at", "Assertion", "error:", "terminate called", glibc's
 * "free(): ..."); Python faulthandler's "Fatal Python error: ..." (it names
 * only the signal); the last line; the adapter's own line ("bcast pipe target
 * ...: bridge died"). Stack frames ("  File ...", "    at ...", "#3 0x...")
 * and blank lines never count. tail is untrusted; buf as above. */
void br_telling_line(const char *tail, char *buf, size_t cap);

#endif
