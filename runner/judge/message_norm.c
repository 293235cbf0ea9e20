/* message_norm.c - a target's own error message reduced to its signature: numbers, shapes, quoted names and dtypes stripped. */
#include "judge/message_norm.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "(#,#,#)", "[#, #]", "((#), (#))" and " ()" are shapes: one "(#)" token
 * whatever their rank. Rewrites buf in place (never longer than cap). */
static void collapse_shapes(char *buf, size_t cap)
{
    char *tmp = malloc(cap);
    if (tmp == NULL) return;
    const char *r = buf;
    size_t w = 0;
    while (*r && w + 4 < cap) {
        char close = *r == '(' ? ')' : *r == '[' ? ']' : 0;
        if (close && (r[1] == '#' || (r[1] == '(' && r[2] == '#') || ((r == buf || r[-1] == ' ') && r[1] == close))) {
            const char *q = r + 1;
            for (;;) {
                if (*q == '#' || *q == ',' || *q == ' ') q++;
                else if (q[0] == '(' && q[1] == '#' && q[2] == ')') q += 3;
                else if (q[0] == '(' && q[1] == '#' && q[2] == ',') { q += 2; while (*q == '#' || *q == ',' || *q == ' ') q++; if (*q == ')') q++; else break; }
                else break;
            }
            /* a list cut off by the end of the message is a shape too */
            if (*q == close || (*q == '\0' && q > r + 2)) { tmp[w++] = *r; tmp[w++] = '#'; tmp[w++] = close; r = *q ? q + 1 : q; continue; }
        }
        tmp[w++] = *r++;
    }
    tmp[w] = '\0';
    memcpy(buf, tmp, w + 1);
    free(tmp);
}

/* Dtype names in a message are a case's parameter, like its numbers:
 * "float#", "int#", "uint#", "bool", "f#", "i#", "u#", the C/C++ type
 * names "float", "double", "int#_t", "uint#_t", and candle's "U#", "F#",
 * "I#", "BF#" become "DT". */
static void dtype_words(char *buf)
{
    static const char *const names[] = { "float#", "int#_t", "uint#_t", "int#", "uint#", "complex#", "bool", "f#", "i#",
                                         "u#", "double", "float", "BF#", "F#", "I#", "U#" };   /* BF16, F32, U8: candle's */
    char *r = buf, *w = buf;
    while (*r) {
        int at_word = r == buf || !isalnum((unsigned char)r[-1]);
        size_t hit = 0;
        for (size_t i = 0; at_word && i < sizeof names / sizeof names[0] && !hit; i++) {
            if (r[0] != names[i][0]) continue;   /* most words start with no name's letter */
            size_t n = strlen(names[i]);
            if (strncmp(r, names[i], n) == 0 && !isalnum((unsigned char)r[n]) && r[n] != '_') hit = n;
        }
        if (hit) { memcpy(w, "DT", 2); w += 2; r += hit; continue; }   /* never longer than the name */
        *w++ = *r++;
    }
    *w = '\0';
}

/* Values the case put in the message: a complex number ("# - #i"), a byte
 * size's unit ("# TiB") become "#". In place, never longer. */
static void value_words(char *buf)
{
    static const char *const units[] = { " KiB", " MiB", " GiB", " TiB", " PiB", " EiB", " bytes" };
    char *r = buf, *w = buf;
    while (*r) {
        if (r[0] == '#' && r[1] == 'i' && !isalnum((unsigned char)r[2])) { *w++ = '#'; r += 2; continue; }
        if (r[0] == '#' && (strncmp(r + 1, " + #", 4) == 0 || strncmp(r + 1, " - #", 4) == 0)) { r += 4; continue; }
        size_t hit = 0;
        for (size_t i = 0; r[0] == '#' && i < sizeof units / sizeof units[0] && !hit; i++) {
            size_t n = strlen(units[i]);
            if (strncmp(r + 1, units[i], n) == 0 && !isalnum((unsigned char)r[1 + n])) hit = n;
        }
        if (hit) { *w++ = '#'; r += 1 + hit; continue; }
        *w++ = *r++;
    }
    *w = '\0';
}

/* Names the case put in the message: an operator's "(Add)", "Max(#)", and
 * shapes written without brackets ("x: 2,3, y: 4" -> "x: #, y: #"; an empty
 * one is marked while copying the message). In place, never longer. */
static void name_words(char *buf)
{
    char *r = buf, *w = buf;
    while (*r) {
        if (r[0] == '#' && r[1] == ',' && r[2] == '#') { r += 2; continue; }            /* "#,#,#" -> "#" */
        if (r[0] == '(' && isupper((unsigned char)r[1])) {                                /* "(Add)" -> "(W)" */
            const char *q = r + 1;
            while (isalnum((unsigned char)*q) || *q == '_') q++;
            if (*q == ')' && q - r > 2) { memcpy(w, "(W)", 3); w += 3; r = (char *)(uintptr_t)q + 1; continue; }
        }
        if (isupper((unsigned char)r[0]) && (r == buf || !isalnum((unsigned char)r[-1]))) { /* "Max(#)" -> "W(#)" */
            const char *q = r + 1;
            while (isalnum((unsigned char)*q) || *q == '_') q++;
            if (strncmp(q, "(#)", 3) == 0 && q - r > 1) { *w++ = 'W'; r = (char *)(uintptr_t)q; continue; }
        }
        *w++ = *r++;
    }
    *w = '\0';
}

/* Whether text[0..n) is an identifier a library names: a letter or '_'
 * first, then letters, digits, '_', '.' or ':' (numpy.add, aten::add). */
static int identifier(const char *text, size_t n)
{
    if (n == 0 || n > 48 || !(isalpha((unsigned char)text[0]) || text[0] == '_')) return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)text[i]) || text[i] == '_' || text[i] == '.' || text[i] == ':')) return 0;
    return 1;
}

/* Copies identifier text[0..n) to out with each run of digits as one '#';
 * returns the characters written (at most n). */
static size_t copy_identifier(const char *text, size_t n, char *out)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (isdigit((unsigned char)text[i])) {
            while (i + 1 < n && isdigit((unsigned char)text[i + 1])) i++;
            out[w++] = '#';
        } else out[w++] = text[i];
    }
    return w;
}

/* The passes, in order: a copy that turns every number into "#", keeps only
 * the quotes of a quoted name, folds whitespace runs into one space and marks
 * an empty shape ("x: , y" -> "x: #, y"); then shapes, dtypes, values and
 * names (the helpers above, each in place and never longer, except that
 * collapse_shapes stays within cap); then the cut at 64 characters. The
 * message is untrusted (a third-party library's text, or the last line it
 * printed before crashing): any NUL-terminated bytes are fine. cap >= 1. */
void br_normalise_message(const char *msg, char *buf, size_t cap)
{
    size_t o = 0;
    int space = 0;
    for (const char *s = msg; *s && o + 2 < cap; s++) {
        unsigned char ch = (unsigned char)*s;
        if (isdigit(ch) || ((ch == '-' || ch == '+') && isdigit((unsigned char)s[1]))) {
            while (s[1] && (isdigit((unsigned char)s[1]) || s[1] == '.' || s[1] == 'e' || s[1] == 'x')) s++;
            buf[o++] = '#';
            space = 0;
            continue;
        }
        /* a quoted identifier ('add', "numpy.float_power", 'sub_bbb') is the
         * library naming its function, attribute or op: kept, its digits masked
         * like any number (the later passes mask a quoted dtype name); any other
         * quoted text (`a == b', 'x: 2,3') is the case's: only the quotes stay.
         * An apostrophe inside a word (couldn't) opens nothing. */
        if ((ch == '\'' || ch == '"' || ch == '`') && (s == msg || !isalnum((unsigned char)s[-1]))) {
            const char *q = s + 1;
            while (*q && *q != (ch == '`' ? '\'' : (char)ch) && !(ch == '`' && *q == '`') && q - s < 64) q++;
            if (*q && q - s < 64) {
                size_t len = (size_t)(q - s - 1);
                buf[o++] = (char)ch;
                if (identifier(s + 1, len) && o + len + 2 < cap) o += copy_identifier(s + 1, len, buf + o);
                buf[o++] = *q; s = q; space = 0;
                continue;
            }
        }
        if (isspace(ch)) { if (!space && o) buf[o++] = ' '; space = 1; continue; }
        if (ch == ':' && s[1] == ' ' && (s[2] == ',' || s[2] == '\0') && o + 4 < cap) {  /* an empty shape: "x: , y" */
            memcpy(buf + o, ": #", 3); o += 3; s++;
            space = 0;
            continue;
        }
        buf[o++] = (char)ch;
        space = 0;
    }
    while (o && buf[o - 1] == ' ') o--;
    buf[o] = '\0';
    collapse_shapes(buf, cap);
    dtype_words(buf);
    value_words(buf);
    name_words(buf);
    /* The rest of a long message is mostly more of the same, or cut short at
     * a different place in each case (a target's message buffer is finite):
     * the first 64 characters, at a word end, are its signature. */
    size_t n = strlen(buf);
    if (n > 64) {
        size_t cut = 64;
        while (cut > 40 && buf[cut] != ' ') cut--;
        buf[cut] = '\0';
        while (cut > 0 && (buf[cut - 1] == ' ' || buf[cut - 1] == ',' || buf[cut - 1] == '=')) buf[--cut] = '\0';
    }
}

void br_crash_line(const char *line, char *buf, size_t cap)
{
    static const char open_[] = "Assertion `", close_[] = "' failed.";
    const char *a = strstr(line, open_);
    const char *e = a ? strstr(a + sizeof open_ - 1, close_) : NULL;
    if (a == NULL || e == NULL) {
        snprintf(buf, cap, "%s", line);
        return;
    }
    const char *expr = a + sizeof open_ - 1;
    const char *colon = strstr(line, ": ");          /* after PROG */
    const char *file = colon && colon < a ? colon + 2 : NULL;
    const char *fend = file ? strchr(file, ':') : NULL;
    if (fend == NULL || fend > a) {                  /* the line's start was cut off (a bounded tail) */
        snprintf(buf, cap, "assertion failed: %.*s", (int)(e - expr), expr);
        return;
    }
    const char *base = file;
    for (const char *p = file; p < fend; p++) if (*p == '/') base = p + 1;
    snprintf(buf, cap, "assertion failed in %.*s: %.*s", (int)(fend - base), base, (int)(e - expr), expr);
}

/* The longest stderr line looked into whole (a stderr tail is at most 4 KiB;
 * C++ assertions name long template signatures before the word Assertion). */
#define BR_LINE_MAX 4200

/* A line a pipe adapter wrote about its bridge, not the library's words. */
static int adapter_line(const char *l, size_t n)
{
    static const char tag[] = "bcast pipe target";
    return n >= sizeof tag - 1 && strncmp(l, tag, sizeof tag - 1) == 0;
}

/* A stack frame of a traceback (Python, JavaScript, gdb/glibc backtraces) or a blank line. */
static int frame_line(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && (l[i] == ' ' || l[i] == '\t')) i++;
    if (i == n) return 1;
    return strncmp(l + i, "File \"", 6) == 0 || strncmp(l + i, "at ", 3) == 0 || (l[i] == '#' && i + 1 < n && isdigit((unsigned char)l[i + 1]))
           || strncmp(l + i, "Traceback (most recent call last)", 33) == 0 || strncmp(l + i, "Current thread", 14) == 0
           || strncmp(l + i, "Extension modules:", 18) == 0 || strncmp(l + i, "Stack (most recent call first)", 30) == 0 || (i > 0 && l[i] == '^');
}

/* Whether a line reads like the statement of an error. */
static int error_line(const char *l, size_t n)
{
    static const char *const marks[] = { "Fatal Python error", "Error:", "Exception:", "panicked at", "Assertion", "error:",
                                         "terminate called", "Aborted", "FATAL", "Segmentation fault", "free(): ",
                                         "malloc(): ", "double free", "stack smashing" };
    char tmp[BR_LINE_MAX];
    size_t m = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
    memcpy(tmp, l, m);
    tmp[m] = '\0';
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(tmp, marks[i]) != NULL) return 1;
    return 0;
}

/* The text after "the library said: " in an adapter's line, or NULL: a
 * bridge's own report of its library's last words (the pipe protocol's
 * `fatal` reply, docs/pipe-protocol.md). */
static const char *said_text(const char *l, size_t n)
{
    static const char mark[] = "): the library said: ";
    char tmp[BR_LINE_MAX];
    size_t m = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
    memcpy(tmp, l, m);
    tmp[m] = '\0';
    const char *p = strstr(tmp, mark);
    return p ? l + (p - tmp) + sizeof mark - 1 : NULL;
}

/* Python's faulthandler line ("Fatal Python error: Segmentation fault"):
 * it names the signal only, so a line of the library's own comes first. */
static int python_fatal_line(const char *l, size_t n)
{
    return n >= 18 && strncmp(l, "Fatal Python error", 18) == 0;
}

void br_telling_line(const char *tail, char *buf, size_t cap)
{
    /* in order of preference: what the bridge said its library said, the
     * last error line of the library's, faulthandler's line, the last line,
     * the adapter's line */
    const char *pick[5] = { NULL, NULL, NULL, NULL, NULL };
    size_t len[5] = { 0, 0, 0, 0, 0 };
    for (const char *l = tail; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        const char *said = adapter_line(l, n) ? said_text(l, n) : NULL;
        int k = said ? 0 : adapter_line(l, n) ? 4 : frame_line(l, n) ? -1 : python_fatal_line(l, n) ? 2
              : error_line(l, n) ? 1 : 3;
        if (said) { pick[0] = said; len[0] = n - (size_t)(said - l); }
        else if (k > 0) { pick[k] = l; len[k] = n; }
        if (k == 1 || k == 2) { pick[3] = l; len[3] = n; }
        l += n + (e != NULL);
    }
    for (int k = 0; k < 5; k++)
        if (pick[k] != NULL) { snprintf(buf, cap, "%.*s", (int)len[k], pick[k]); return; }
    snprintf(buf, cap, "%s", "");
}
