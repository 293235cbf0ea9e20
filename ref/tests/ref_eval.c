/* ref_eval.c - test driver: reads cases (one per line) on stdin, runs bc_eval, prints outcomes.
 *
 * Line: OP MODE PROFILE AXIS TRANK T... NARGS then per arg
 *       DTYPE RANK DIMS... STRIDES... OFFSET NSTORE VALUES...
 * (names as in the case format; DTYPE "-" for shape-only args, which have
 * RANK and DIMS only). Prints "ok DTYPE (SHAPE) V..." (the result, or self/out
 * in C order) or "error CLASS unchanged|changed". Used by
 * test_ref_values.py to hold ref against NumPy and torch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bcast_ref.h"

#define MAXARG 8

typedef struct outbuf { int dtype, rank; int64_t shape[BC_MAX_RANK]; void *data; int calls; } outbuf;

static void *alloc_out(void *ctx, int dtype, int rank, const int64_t *shape)
{
    outbuf *o = ctx;
    int64_t n = 1;
    o->calls++;
    o->dtype = dtype;
    o->rank = rank;
    for (int i = 0; i < rank; i++) { o->shape[i] = shape[i]; n *= shape[i]; }
    if (n > (1 << 26)) return NULL;
    o->data = calloc((size_t)(n > 0 ? n : 1), 8);
    return o->data;
}

static char *tok(void) { return strtok(NULL, " \t\n"); }

static void put(const char *p, int dt)
{
    switch (dt) {
    case BCT_BOOL: printf(" %d", *(const uint8_t *)p); break;
    case BCT_I8: printf(" %d", *(const int8_t *)p); break;
    case BCT_U8: printf(" %d", *(const uint8_t *)p); break;
    case BCT_I16: printf(" %d", *(const int16_t *)(const void *)p); break;
    case BCT_I32: printf(" %d", *(const int32_t *)(const void *)p); break;
    case BCT_I64: printf(" %lld", (long long)*(const int64_t *)(const void *)p); break;
    case BCT_F32: printf(" %a", (double)*(const float *)(const void *)p); break;
    default: printf(" %a", *(const double *)(const void *)p); break;
    }
}

static void store(char *p, int dt, const char *s)
{
    switch (dt) {
    case BCT_BOOL: *(uint8_t *)p = (uint8_t)(strtoll(s, NULL, 0) != 0); break;
    case BCT_I8: *(int8_t *)p = (int8_t)strtoll(s, NULL, 0); break;
    case BCT_U8: *(uint8_t *)p = (uint8_t)strtoll(s, NULL, 0); break;
    case BCT_I16: *(int16_t *)(void *)p = (int16_t)strtoll(s, NULL, 0); break;
    case BCT_I32: *(int32_t *)(void *)p = (int32_t)strtoll(s, NULL, 0); break;
    case BCT_I64: *(int64_t *)(void *)p = (int64_t)strtoll(s, NULL, 0); break;
    case BCT_F32: *(float *)(void *)p = (float)strtod(s, NULL); break;
    default: *(double *)(void *)p = strtod(s, NULL); break;
    }
}

/* Prints the view a in C order (odometer over its index space). */
static void put_view(const bct_array *a)
{
    int64_t idx[BC_MAX_RANK] = {0}, n = 1;
    int sz = bc_dtype_size(a->dtype);
    for (int i = 0; i < a->rank; i++) n *= a->shape[i];
    for (int64_t k = 0; k < n; k++) {
        int64_t off = a->offset;
        for (int i = 0; i < a->rank; i++) off += idx[i] * a->strides[i];
        put((const char *)a->data + off * sz, a->dtype);
        for (int i = a->rank - 1; i >= 0; i--) {
            if (++idx[i] < a->shape[i]) break;
            idx[i] = 0;
        }
    }
}

/* Prints one line for bc_eval's answer st: "error CLASS unchanged|changed"
 * (whether self's bytes, copied before the call, changed), or "ok DTYPE
 * (SHAPE) VALUES..." of the in-place/out= destination or the allocated output. */
static void print_result(int st, const bct_call *call, const bct_array *args, const outbuf *ob,
                         const void *copy, size_t self_bytes)
{
    if (st != BCT_OK) {
        int same = copy == NULL || memcmp(copy, args[0].data, self_bytes) == 0;
        printf("error %s %s\n", bc_status_name(st), same ? "unchanged" : "changed");
    } else if (call->mode != 0 && ob->calls == 0) {
        const bct_array *w = call->mode == 1 ? &args[0] : &args[call->nargs - 1];
        printf("ok %s (", bc_dtype_name(w->dtype));
        for (int i = 0; i < w->rank; i++) printf("%s%lld", i ? "," : "", (long long)w->shape[i]);
        printf(w->rank == 1 ? ",)" : ")");
        put_view(w);
        printf("\n");
    } else {
        int64_t n = 1;
        printf("ok %s (", bc_dtype_name(ob->dtype));
        for (int i = 0; i < ob->rank; i++) { printf("%s%lld", i ? "," : "", (long long)ob->shape[i]); n *= ob->shape[i]; }
        printf(ob->rank == 1 ? ",)" : ")");
        if (ob->dtype != BCT_NONE)
            for (int64_t i = 0; i < n; i++) put((char *)ob->data + i * bc_dtype_size(ob->dtype), ob->dtype);
        printf("\n");
    }
}

int main(void)
{
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        static int64_t shp[MAXARG][BC_MAX_RANK], str[MAXARG][BC_MAX_RANK], tshape[BC_MAX_RANK];
        bct_array args[MAXARG];
        void *store_buf[MAXARG] = {0}, *copy = NULL;
        size_t self_bytes = 0;
        outbuf ob = { 0 };
        char msg[512];
        bct_call call;
        bc_error err;
        int st;
        char *t = strtok(line, " \t\n");
        if (t == NULL) continue;
        memset(&call, 0, sizeof call);
        call.op = bc_op_from_name(t);
        t = tok(); call.mode = strcmp(t, "inplace") == 0 ? 1 : strcmp(t, "out") == 0 ? 2 : 0;
        call.profile = bc_profile_from_name(tok());
        call.axis = strtoll(tok(), NULL, 10);
        call.target_rank = atoi(tok());
        for (int i = 0; i < call.target_rank; i++) tshape[i] = strtoll(tok(), NULL, 10);
        call.target_shape = tshape;
        call.nargs = atoi(tok());
        for (int k = 0; k < call.nargs; k++) {
            bct_array *a = &args[k];
            int64_t ns;
            int sz;
            a->dtype = bc_dtype_from_name(tok());
            a->rank = atoi(tok());
            for (int i = 0; i < a->rank; i++) shp[k][i] = strtoll(tok(), NULL, 10);
            a->shape = shp[k];
            a->strides = str[k];
            a->data = NULL;
            a->offset = 0;
            if (a->dtype < 0) { a->dtype = BCT_NONE; continue; }
            for (int i = 0; i < a->rank; i++) str[k][i] = strtoll(tok(), NULL, 10);
            a->offset = strtoll(tok(), NULL, 10);
            ns = strtoll(tok(), NULL, 10);
            sz = bc_dtype_size(a->dtype);
            store_buf[k] = calloc((size_t)(ns > 0 ? ns : 1), (size_t)sz);
            for (int64_t i = 0; i < ns; i++) store((char *)store_buf[k] + i * sz, a->dtype, tok());
            a->data = store_buf[k];
            if ((call.mode == 1 && k == 0)) {
                self_bytes = (size_t)(ns * sz);
                copy = malloc(self_bytes + 1);
                memcpy(copy, a->data, self_bytes);
            }
        }
        call.args = args;
        call.alloc_output = alloc_out;
        call.ctx = &ob;
        call.message = msg;
        call.message_cap = sizeof msg;
        st = bc_eval(&call, &err);
        print_result(st, &call, args, &ob, copy, self_bytes);
        fflush(stdout);
        for (int k = 0; k < call.nargs; k++) free(store_buf[k]);
        free(copy);
        free(ob.data);
    }
    return 0;
}
