/* bcast_shape.c - the bcast-shape tool: applies one shape rule to shapes given on the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bcast_ref.h"

static const char usage[] =
    "usage: bcast-shape KIND SHAPE... [--axis N] [--profile numpy|torch]\n"
    "  KIND: broadcast (any number of shapes), broadcast_to SRC TARGET, expand SRC SIZES,\n"
    "        inplace SELF OTHER, matmul X Y, where COND X Y, paddle_axis X Y --axis N,\n"
    "        onnx_uni A B. SHAPE: (5,1,4,1), (3,), ()\n";

/* Malformed arguments: says what was wrong, then the usage; exit 2. */
static int bad(const char *what, const char *arg)
{
    fprintf(stderr, "bcast-shape: %s%s%s\n%s", what, arg ? ": " : "", arg ? arg : "", usage);
    return 2;
}

static int arity(const char *kind)
{
    static const struct { const char *name; int n; } kinds[] = {
        { "broadcast", -1 }, { "broadcast_to", 2 }, { "expand", 2 }, { "inplace", 2 },
        { "matmul", 2 }, { "where", 3 }, { "paddle_axis", 2 }, { "onnx_uni", 2 },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, kind) == 0)
            return kinds[i].n;
    return -2;
}

/* Applies KIND's rule to the n parsed shapes (broadcast: the fold already
 * made, its status fold_st and error fold_err), then the profile's limits on
 * the result. BCT_OK with res, or the status with err. */
static int apply_rule(const char *kind, bc_shape *shapes, int n, int want, int profile, long long axis,
                      int fold_st, const bc_error *fold_err, const bc_shape *acc, bc_shape *res,
                      bc_error *err)
{
    int st;
    /* Shape entries may be negative only where a rule gives them meaning
     * (broadcast_to/expand targets); elsewhere bc_check_shape reports them. */
    memset(err, 0, sizeof *err);
    st = BCT_OK;
    for (int i = 0; i < n && want >= 0 && st == BCT_OK; i++) {
        int is_target = (strcmp(kind, "broadcast_to") == 0 || strcmp(kind, "expand") == 0) && i == 1;
        if (!is_target)
            st = bc_check_shape(&shapes[i], profile, i, err);
    }
    if (st == BCT_OK) {
        if (strcmp(kind, "broadcast") == 0) {
            st = fold_st;
            *err = *fold_err;
            *res = *acc;
        } else if (strcmp(kind, "where") == 0) {
            st = bc_broadcast_shapes(shapes, n, res, err);
        } else if (strcmp(kind, "broadcast_to") == 0) {
            st = bc_broadcast_to_shape(&shapes[0], &shapes[1], err);
            *res = shapes[1];
        } else if (strcmp(kind, "expand") == 0) {
            st = bc_expand_shape(&shapes[0], &shapes[1], res, err);
        } else if (strcmp(kind, "inplace") == 0) {
            st = bc_inplace_shape(&shapes[0], &shapes[1], err);
            *res = shapes[0];
        } else if (strcmp(kind, "matmul") == 0) {
            st = bc_matmul_shape(&shapes[0], &shapes[1], res, err);
        } else if (strcmp(kind, "paddle_axis") == 0) {
            st = bc_axis_shape(&shapes[0], &shapes[1], axis, NULL, res, err);
        } else {
            st = bc_onnx_uni_shape(&shapes[0], &shapes[1], res, err);
        }
    }
    /* B16: torch.broadcast_shapes counts nothing; every other rule's result
     * is counted as the profile's library counts it. */
    if (st == BCT_OK && !(strcmp(kind, "broadcast") == 0 && bc_profile_is_torch(profile)))
        st = bc_check_shape(res, profile, -1, err);
    return st;
}

int main(int argc, char **argv)
{
    /* The fixed-arity kinds take at most 3 shapes; broadcast takes any number,
     * folded into acc as they are read (B4: O(rank) memory, no operand limit).
     * A rule error is kept in fold_st until every argument has parsed, so
     * malformed arguments still win (exit 2). */
    bc_shape shapes[3], one, acc, res;
    bc_error err, fold_err;
    int n = 0, have_axis = 0, profile = BCT_PROFILE_NUMPY, want, st, fold_st = BCT_OK;
    long long axis = 0;
    const char *kind;
    char buf[2048];

    acc.rank = 0;
    memset(&fold_err, 0, sizeof fold_err);
    if (argc < 2)
        return bad("missing KIND", NULL);
    kind = argv[1];
    want = arity(kind);
    if (want == -2)
        return bad("unknown kind", kind);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--axis") == 0) {
            char *end;
            if (i + 1 >= argc)
                return bad("--axis needs a value", NULL);
            axis = strtoll(argv[++i], &end, 10);
            if (*argv[i] == '\0' || *end != '\0')
                return bad("bad --axis value", argv[i]);
            have_axis = 1;
        } else if (strcmp(argv[i], "--profile") == 0) {
            if (i + 1 >= argc)
                return bad("--profile needs a value", NULL);
            profile = bc_profile_from_name(argv[++i]);
            if (profile < 0)
                return bad("unknown profile", argv[i]);
        } else {
            if (bc_shape_parse(argv[i], &one) != 0)
                return bad("malformed shape", argv[i]);
            if (want < 0) {
                if (fold_st == BCT_OK)
                    fold_st = bc_broadcast_fold(&acc, &one, n, &fold_err);
            } else if (n < 3) {
                shapes[n] = one;
            }
            n++;
        }
    }
    if (want >= 0 && n != want) {
        snprintf(buf, sizeof buf, "%s takes %d shapes, got %d", kind, want, n);
        return bad(buf, NULL);
    }
    if (strcmp(kind, "paddle_axis") == 0 && !have_axis)
        return bad("paddle_axis requires --axis N", NULL);
    if (have_axis && strcmp(kind, "paddle_axis") != 0)
        return bad("--axis applies to paddle_axis only", NULL);
    st = apply_rule(kind, shapes, n, want, profile, axis, fold_st, &fold_err, &acc, &res, &err);
    if (st != BCT_OK) {
        printf("error: %s: %s\n", bc_status_name(st), err.message);
        return 1;
    }
    printf("%s\n", bc_shape_format(&res, buf, sizeof buf));
    return 0;
}
