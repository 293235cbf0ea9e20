/* caseio.h - the in-memory case set and the strict reader of docs/case-format.md. */
#ifndef BR_CASEIO_H
#define BR_CASEIO_H

#include <stdint.h>
#include <stddef.h>
#include "base/util.h"

#define BR_MAX_ARGS 1024                     /* broadcast_shapes may take many shapes */
#define BR_MAX_STORAGE ((int64_t)1 << 31)    /* elements in one operand's storage */
#define BR_MAX_STORAGE_BYTES ((int64_t)1 << 32)
#define BR_MAX_VALUES ((int64_t)1 << 24)     /* above this a pattern/digest is required */
#define BR_MAX_RESULT_BYTES ((int64_t)1 << 34) /* an expected result (16 GiB) */
#define BR_PROFILE_ANY (-1)                  /* `expect *` */
#define BR_MAX_EXPECT 12                     /* grad mode: a gradient per input, per profile (4 profiles) */

enum { BR_CMP_EXACT = 0, BR_CMP_ULP = 1 };
enum { BR_DATA_NONE = 0, BR_DATA_VALUES, BR_DATA_PATTERN, BR_DATA_DIGEST };

typedef struct br_arg {
    const char *name;
    int dtype;              /* bct_dtype; BCT_NONE for a shape-only arg */
    int weak;               /* B34: a weak scalar (weak-int/-float/-bool): 0-d I64/F64/BOOL */
    int rank;
    int64_t *shape, *strides;
    int64_t offset, storage;
    int data_kind;          /* BR_DATA_VALUES or BR_DATA_PATTERN (NONE for shape-only) */
    int64_t pat[5];         /* pattern ramp A B M K D */
    void *data;             /* storage bytes in the data arena; NULL until materialized */
    uint64_t hash;          /* br_fingerprint of the storage bytes, once materialized */
} br_arg;

typedef struct br_expect {
    int profile;            /* BR_PROFILE_ANY, BCT_PROFILE_NUMPY or BCT_PROFILE_TORCH */
    int status;             /* BCT_OK or the expected error class */
    int dtype, rank;        /* ok only; dtype BCT_NONE for shape-only ops */
    int64_t *shape;
    int64_t nelem;
    int cmp;                /* BR_CMP_* */
    int64_t ulp;
    double abs_tol;         /* `ulp N abs A`: A (a difference of at most A also passes); 0 otherwise */
    int grad_arg;           /* `expect P grad NAME ...`: the index of input NAME; -1 for a result */
    int data_kind;          /* BR_DATA_VALUES or BR_DATA_DIGEST */
    void *values;           /* nelem elements, C order */
    uint64_t digest;
    int line;
} br_expect;

typedef struct br_case {
    const char *id, *suite, *tags, *rules, *source, *file;   /* tags/rules: space-separated, may be "" */
    int line;
    int op, mode;
    int grad_form;          /* grad mode: bct_grad_form (`mode grad inplace|out`, B46); 0 otherwise */
    int has_axis;
    int64_t axis;
    int target_rank;        /* -1 when the case has no `attr shape` */
    int64_t *target_shape;
    int nargs;
    br_arg *args;
    unsigned profiles;      /* br_source_profiles(source), set by the reader; 0: not yet known */
    int nexpect;
    br_expect *expect;      /* nexpect (at most BR_MAX_EXPECT): a result or an error per profile; in
                               grad mode, a gradient per differentiable input (grad_arg), or an error.
                               Not embedded: a case set of 36k cases would carry 36k x 12 of them */
    int nmsg;
    const char *msg[4];     /* "LIB TEXT" */
} br_case;

typedef struct br_caseset {
    br_case *cases;
    size_t n, cap;
    char caseset_version[64];
    br_pool pool;
    br_arena data;
    char **bufs;            /* file contents; strings in cases point into them */
    size_t nbufs;
    size_t live;            /* case slots past n reserved by live sets (live.c); no file may be
                               loaded once there are any */
} br_caseset;

typedef struct br_err { char msg[2400]; } br_err;

/* Reads a file, or every *.cases file under a directory (sorted, not
 * recursive), appending its cases. Returns 0, or -1 with err = "FILE:LINE: why". */
int br_load_path(br_caseset *cs, const char *path, br_err *err);

/* The *.cases files of directory path, sorted, as malloc'd paths (free each
 * and the array): 0; 1 when path is not a directory; -1 with err. */
int br_case_files(const char *path, char ***names, size_t *n, br_err *err);

/* Moves every case of src, and the memory its strings and data live in,
 * to the end of dst; src is left empty. Neither may have live sets. 0, or
 * -1 when out of memory (both unchanged but for spare capacity). */
int br_caseset_append(br_caseset *dst, br_caseset *src);

/* Parses one file's contents (buf is taken over: freed with the set). */
int br_load_buffer(br_caseset *cs, const char *name, char *buf, size_t len, br_err *err);

/* Sorts the cases by id and rejects duplicate ids, naming both places. */
int br_finish(br_caseset *cs, br_err *err);

/* Generates pattern data of the case's args (done only for selected cases,
 * so a large suite costs nothing when it is not run). 0 or -1 with err. */
int br_materialize(br_caseset *cs, br_case *c, br_err *err);

/* The storage of `pattern ramp A B M K D` (pat) over n elements of dtype:
 * element j is ((j*A + B) mod M - K) / D, integers wrapped to the dtype, bool
 * as (value != 0) (docs/case-format.md). */
void br_ramp_fill(int dtype, const int64_t pat[5], void *data, int64_t n);

/* Bytes of the largest `ok` result the case expects (any profile), 0 if none. */
int64_t br_case_result_bytes(const br_case *c);

/* The profiles an `expect *` line of a case with this `source` line covers
 * (a bit 1 << profile each), by generation: a source naming numpy, torch,
 * rule or ref was measured in generation 1 and covers numpy and torch (an op
 * only torch has, expand, is `source torch` and still means both); numpy2 or
 * torch2 covers numpy2 and torch2 (issue #22). A source naming no oracle
 * (or none at all) is a generation-1 case, as every case was before. */
unsigned br_source_profiles(const char *source);

/* The expectation that applies under profile, or NULL: a line for the
 * profile, or `*` when the case's source covers the profile (a case that
 * predates NumPy 2 has none for numpy2; the runner skips it). In grad mode:
 * the error, or the first gradient expected under profile. */
const br_expect *br_pick_expect(const br_case *c, int profile);

/* Grad mode: the gradient expected for input arg under profile, or NULL. */
const br_expect *br_pick_grad(const br_case *c, int profile, int arg);

void br_caseset_free(br_caseset *cs);

/* The arg's DTYPE token: "-", a dtype name, or (B34) "weak-int", "weak-float", "weak-bool". */
const char *br_arg_dtype_name(const br_arg *a);

/* Shape helpers shared by the modules. */
int br_parse_shape(const char *s, int64_t *dims, int maxrank);   /* rank, or -1 */
int64_t br_shape_count(const int64_t *dims, int rank);            /* -1 on overflow/negative */
void br_shape_str(const int64_t *dims, int rank, char *buf, size_t cap);

#endif
