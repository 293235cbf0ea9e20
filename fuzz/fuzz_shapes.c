/* fuzz_shapes.c - libFuzzer entry for ref's shape rules (B1-B16): shapes
 * parsed from fuzz bytes go through every rule, which must never crash or hit
 * UB, and whose successful results must satisfy the rules' own properties. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_ref.h"

/* Input: lines. A line "@N" sets the axis for bc_axis_shape; every other line
 * is one shape for bc_shape_parse ("(2,1)", "()", ...); lines that do not
 * parse are skipped. At most MAX_SHAPES shapes are used. */
#define MAX_SHAPES 6

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A violated property is a finding: report it and abort so libFuzzer saves the input. */
static void bad(const char *rule, const char *what)
{
    fprintf(stderr, "fuzz_shapes: %s: %s\n", rule, what);
    abort();
}

/* Every failing rule must give an error class and a terminated, non-empty message. */
static void check_error(const char *rule, int st, const bc_error *err)
{
    if (st <= BCT_OK || st >= BCT_STATUS_COUNT) bad(rule, "status out of range");
    if (memchr(err->message, '\0', sizeof err->message) == NULL) bad(rule, "message not terminated");
    if (err->message[0] == '\0') bad(rule, "empty message");
}

static int64_t aligned(const bc_shape *s, int rank, int d)
{
    int i = d - (rank - s->rank);   /* B1: missing leading dims are 1 */
    return i >= 0 ? s->dim[i] : 1;
}

static int same(const bc_shape *a, const bc_shape *b)
{
    if (a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->dim[i] != b->dim[i]) return 0;
    return 1;
}

/* B1-B3 as a property: each result extent is one input's extent, every
 * input's extent is 1 or the result's, and a result of 1 means all were 1. */
static void check_broadcast(const bc_shape *in, int n, const bc_shape *out)
{
    int rank = 0;
    for (int k = 0; k < n; k++)
        if (in[k].rank > rank) rank = in[k].rank;
    if (out->rank != rank) bad("broadcast_shapes", "result rank is not the largest rank");
    for (int d = 0; d < rank; d++) {
        int found = out->dim[d] == 1;
        for (int k = 0; k < n; k++) {
            int64_t e = aligned(&in[k], rank, d);
            if (e != 1 && e != out->dim[d]) bad("broadcast_shapes", "an input extent is neither 1 nor the result's");
            if (e == out->dim[d]) found = 1;
        }
        if (!found) bad("broadcast_shapes", "a result extent comes from no input");
    }
}

/* B5/B6/B8 are all "broadcast(a, b) == target": check it with B1-B3. */
static int broadcasts_to(const bc_shape *a, const bc_shape *b, const bc_shape *target)
{
    bc_shape pair[2], res;
    bc_error err;
    pair[0] = *a;
    pair[1] = *b;
    return bc_broadcast_shapes(pair, 2, &res, &err) == BCT_OK && same(&res, target);
}

/* True when text holds a decimal number outside int64: bc_shape_parse must
 * reject it rather than clamp it to INT64_MAX/MIN. */
static int out_of_range(const char *text)
{
    for (const char *p = text; *p != '\0';) {
        if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '+') && isdigit((unsigned char)p[1]))) {
            char *end;
            errno = 0;
            (void)strtoll(p, &end, 10);
            if (errno == ERANGE) return 1;
            p = end;
        } else {
            p++;
        }
    }
    return 0;
}

static void roundtrip(const bc_shape *s)
{
    char buf[BC_MAX_RANK * 24 + 8];
    bc_shape back;
    bc_shape_format(s, buf, sizeof buf);
    if (bc_shape_parse(buf, &back) != 0 || !same(&back, s)) bad("shape_parse", "format/parse round trip differs");
}

static void pair_rules(const bc_shape *a, const bc_shape *b, int64_t axis)
{
    bc_shape out, al;
    bc_error err;
    int st = bc_broadcast_to_shape(a, b, &err);
    if (st != BCT_OK) check_error("broadcast_to", st, &err);
    else if (!broadcasts_to(a, b, b)) bad("broadcast_to", "accepted, but broadcast(from, to) != to");

    st = bc_expand_shape(a, b, &out, &err);
    if (st != BCT_OK) check_error("expand", st, &err);
    else {
        if (out.rank != b->rank) bad("expand", "result rank differs from sizes");
        for (int i = 0; i < b->rank; i++)
            if (b->dim[i] != -1 && out.dim[i] != b->dim[i]) bad("expand", "result differs from sizes");
        if (!broadcasts_to(a, &out, &out)) bad("expand", "accepted, but broadcast(from, result) != result");
    }

    st = bc_onnx_uni_shape(a, b, &out, &err);
    if (st != BCT_OK) check_error("onnx_uni", st, &err);
    else if (!same(&out, a) || !broadcasts_to(a, b, a)) bad("onnx_uni", "result is not A's shape");

    st = bc_inplace_shape(a, b, &err);
    if (st != BCT_OK) check_error("inplace", st, &err);
    else if (!broadcasts_to(a, b, a)) bad("inplace", "accepted, but broadcast(self, other) != self");

    int64_t axes[3] = { axis, -1, 0 };
    for (int k = 0; k < 3; k++) {
        st = bc_axis_shape(a, b, axes[k], &al, &out, &err);
        if (st != BCT_OK) check_error("axis", st, &err);
        else if (al.rank != a->rank || !broadcasts_to(a, &al, &out)) bad("axis", "result is not broadcast(x, aligned y)");
    }

    st = bc_matmul_shape(a, b, &out, &err);
    if (st != BCT_OK) check_error("matmul", st, &err);
    else {
        int want = (a->rank > b->rank ? a->rank : b->rank) - (a->rank == 1) - (b->rank == 1);
        if (a->rank == 1 && b->rank == 1) want = 0;
        else if (a->rank == 1 || b->rank == 1) want = (a->rank > b->rank ? a->rank : b->rank) - 1;
        if (out.rank != want) bad("matmul", "result rank is wrong (B12-B14)");
        if (bc_check_shape(&out, BCT_PROFILE_TORCH, -1, &err) != BCT_OK) bad("matmul", "result not countable");
    }
}

/* Contract: never returns non-zero; aborts on a violated rule property. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bc_shape shapes[MAX_SHAPES];
    int n = 0;
    int64_t axis = -1;
    char *text = malloc(size + 1);
    if (text == NULL) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *line = text, *next; line != NULL && n < MAX_SHAPES; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) *next++ = '\0';
        if (line[0] == '@') { axis = strtoll(line + 1, NULL, 10); continue; }
        if (bc_shape_parse(line, &shapes[n]) == 0) {
            if (out_of_range(line)) bad("shape_parse", "accepted an extent outside int64");
            if (shapes[n].rank < 0 || shapes[n].rank > BC_MAX_RANK) bad("shape_parse", "rank out of range");
            roundtrip(&shapes[n]);
            n++;
        }
    }
    free(text);

    bc_shape out;
    bc_error err;
    for (int k = 0; k < n; k++)
        for (int prof = 0; prof < 2; prof++) {
            int st = bc_check_shape(&shapes[k], prof, k, &err);
            if (st != BCT_OK) check_error("check_shape", st, &err);
        }
    int st = bc_broadcast_shapes(shapes, n, &out, &err);
    if (st != BCT_OK) check_error("broadcast_shapes", st, &err);
    else {
        check_broadcast(shapes, n, &out);
        /* B16: torch counts in uint64 up to the first 0, NumPy in int64: a
         * count torch refuses, NumPy refuses too. */
        if (bc_check_shape(&out, BCT_PROFILE_TORCH, -1, &err) != BCT_OK &&
            bc_check_shape(&out, BCT_PROFILE_NUMPY, -1, &err) == BCT_OK)
            bad("broadcast_shapes", "a count torch refuses, NumPy accepts (B16)");
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            pair_rules(&shapes[i], &shapes[j], axis);
    return 0;
}
