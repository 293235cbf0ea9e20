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
 * "float#", "int#", "uint#", "bool", "f#", "i#", "u#", and the C/C++ type
 * names "float", "double", "int#_t", "uint#_t" become "DT". */
static void dtype_words(char *buf)
{
    static const char *const names[] = { "float#", "int#_t", "uint#_t", "int#", "uint#", "complex#", "bool", "f#", "i#",
                                         "u#", "double", "float" };
    char *r = buf, *w = buf;
    while (*r) {
        int at_word = r == buf || !isalnum((unsigned char)r[-1]);
        size_t hit = 0;
        for (size_t i = 0; at_word && i < sizeof names / sizeof names[0] && !hit; i++) {
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
        /* a quoted name ('sub_bbb', `a == b', "x"): keep only the quotes; an
         * apostrophe inside a word (couldn't) opens nothing */
        if ((ch == '\'' || ch == '"' || ch == '`') && (s == msg || !isalnum((unsigned char)s[-1]))) {
            const char *q = s + 1;
            while (*q && *q != (ch == '`' ? '\'' : (char)ch) && !(ch == '`' && *q == '`') && q - s < 64) q++;
            if (*q && q - s < 64) { buf[o++] = (char)ch; buf[o++] = *q; s = q; space = 0; continue; }
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
