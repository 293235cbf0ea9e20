/* worker.c - a worker process: loads the target (or inherits it), then runs batches of cases with guarded memory.
 *
 * Each worker owns one MAP_SHARED arena created by the parent before any fork:
 *   [control block][output slots: G D G D ... G][input slots: G D ... G]
 *   [big outputs: G D..D G D..D G ...][big inputs: G D..D G ...]
 * Every block sits against a guard page: at the end of its pages (so a read or
 * write one element past the end faults) or at their start (so one before the
 * start faults). The rest of the pages holds a canary: the parent checks it
 * beside outputs, and beside inputs it makes a read that is not trapped give
 * the same bytes in every run. With --guard both (the default) each case is
 * called with blocks at the end (the judged call), then again with them at the
 * start (the start call, see start_call); --guard end or start makes only one
 * of the two calls. Outputs and the self/out copy live for a batch (the parent
 * reads them afterwards); inputs are copied per case. Inputs above
 * BR_INPUT_COPY_MAX, or all with --guard off, are passed in place, from the
 * case data arena, which the worker makes read-only. */
#define _GNU_SOURCE   /* REG_ERR: whether a fault was a load or a store */
#include "isolate/isolate_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include "base/util.h"
#include "isolate/guard.h"
#include "isolate/worker.h"
#include "target/call.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

typedef struct span { uintptr_t lo, hi; } span;   /* a placed block: [lo, hi) */

static struct {
    br_iso *iso;
    worker *self;
    wctl *ctl;
    const bct_target *t;
    void *handle;
    size_t slot_next, big_cur, big_used;     /* per batch */
    int at_start;                             /* 1: blocks placed now sit at the start of their pages */
    int copies_inputs;                        /* bcast's own pipe.so: no start call (see start_call) */
    size_t islot_next, inbig_cur, inbig_used; /* per case */
    /* guard pages this process has installed, per region: the first n of
     * its G D G D ... pattern (guard i at page 2i). Set on first use, not
     * inherited: each one would cost every fork a page table entry. */
    int g_out, g_in, g_big, g_inbig;
    br_wres *res;
    const br_case *c;
    span in[BR_MAX_ARGS];                     /* the current case's guarded inputs (hi == 0: none) */
    span out, wr;                             /* its output and self/out copy */
    span grad[BR_MAX_GRADS];                  /* its gradients (grad mode) */
    /* set once by the fork server before it forks (br_worker_prefork) */
    int pre;                                  /* 1: the fields below are valid */
    int devnull;                              /* /dev/null, for the workers' stdin/stdout */
    unsigned long long data_bytes;            /* the fork server's data segment (VmData) */
    int have_info;                            /* info: the target's descriptor after init */
    br_target_info info;
} W;

/* ---- faults ---- */

static int fault_is_write(void *ucv)
{
#if defined(__x86_64__) && defined(REG_ERR)
    const ucontext_t *uc = ucv;
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;   /* page-fault error code: bit 1 = write */
#else
    (void)ucv;
    return -1;
#endif
}

/* Whether a sits on the guard page next to block b; *dist is its distance
 * past b's end (>= 0) or before its start (< 0). */
static int near_block(span b, uintptr_t a, size_t page, int64_t *dist)
{
    if (b.hi == 0 && b.lo == 0) return 0;
    if (a >= b.hi && a - b.hi < page) { *dist = (int64_t)(a - b.hi); return 1; }
    if (a < b.lo && b.lo - a <= page) { *dist = -(int64_t)(b.lo - a); return 1; }
    return 0;
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr, b = (uintptr_t)W.self->base;
    wctl *ctl = W.ctl;
    if (ctl == NULL || (sig != SIGSEGV && sig != SIGBUS)) return;
    size_t pg = W.iso->page;
    int64_t d = 0;
    ctl->fault_write = fault_is_write(uc);
    if (W.c != NULL)
        for (int i = 0; i < W.c->nargs; i++)
            if (near_block(W.in[i], a, pg, &d)) {
                ctl->fault = BR_FAULT_INPUT_GUARD;
                ctl->fault_arg = i;
                ctl->fault_dist = d;
                return;
            }
    for (int i = 0; i < BR_MAX_GRADS; i++)
        if (near_block(W.grad[i], a, pg, &d)) {
            ctl->fault = BR_FAULT_GRAD;
            ctl->fault_arg = i;
            ctl->fault_dist = d;
            return;
        }
    if (near_block(W.out, a, pg, &d)) { ctl->fault = BR_FAULT_OUTPUT; ctl->fault_dist = d; }
    else if (near_block(W.wr, a, pg, &d)) { ctl->fault = BR_FAULT_WRITABLE; ctl->fault_dist = d; }
    else if (a >= b + W.iso->small_off && a < b + W.self->size) ctl->fault = BR_FAULT_ARENA;
    else if (br_arena_contains(&W.iso->cs->data, a)) ctl->fault = BR_FAULT_INPUT_RO;
    /* SA_RESETHAND restored the default action: returning re-faults, and the
     * parent sees the signal. */
}

void br_worker_install_handlers(void)
{
    static char altstack[65536];
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = (int)(SA_SIGINFO | SA_ONSTACK | SA_RESETHAND);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_IGN);   /* the parent decides what an interrupt means */
    signal(SIGTERM, SIG_DFL);
}

/* ---- placing blocks against guard pages ---- */

/* Makes sure the first n guard pages of the region at arena offset off
 * (guard i at page 2i) are installed in this process; *done counts those
 * that are. Slots are used in order, so a block is never handed out before
 * the guards on both its sides. 0, or -1 when the kernel refuses one. */
static int guard_upto(size_t off, int *done, int n)
{
    size_t pg = W.iso->page;
    for (; *done < n; ++*done)
        if (br_guard(W.iso, W.self->base + off + pg * (size_t)(2 * *done), pg) != 0) return -1;
    return 0;
}

/* Places n bytes in page (span bytes, a guard page on each side) at its end
 * or its start, zeroes them, fills the rest with the canary. */
static char *place(char *page, size_t span_bytes, size_t n, int at_start)
{
    size_t rn = (n + 7u) & ~(size_t)7u;
    char *p = at_start ? page : page + span_bytes - rn;
    memset(page, BR_CANARY, span_bytes);
    memset(p, 0, n);
    return p;
}

/* A writable block of n bytes for an output or the self/out copy (lives for
 * the batch). NULL when it does not fit. *off: its arena offset, -1 for n == 0. */
static char *wslot(size_t n, int64_t *off)
{
    br_iso *I = W.iso;
    char *base = W.self->base;
    size_t pg = I->page, rn = (n + 7u) & ~(size_t)7u;
    int at_start = W.at_start;
    *off = -1;
    if (n == 0)     /* a guard page: any access faults */
        return guard_upto(I->small_off, &W.g_out, 1) == 0 ? base + I->small_off : NULL;
    char *page, *p;
    if (rn <= pg && W.slot_next < BR_NSLOT) {
        if (guard_upto(I->small_off, &W.g_out, (int)W.slot_next + 2) != 0) return NULL;
        page = base + I->small_off + pg * (1 + 2 * W.slot_next++);
        p = place(page, pg, n, at_start);
    } else {
        size_t k = (rn + pg - 1) / pg;
        if (k > (I->big_size - W.big_cur) / pg || (k + 1) * pg > I->big_size - W.big_cur) return NULL;
        if (guard_upto(I->big_off, &W.g_big, 1) != 0) return NULL;
        page = base + I->big_off + W.big_cur;
        if (br_guard(I, page + k * pg, pg) != 0) return NULL;
        W.big_cur += (k + 1) * pg;
        if (W.big_cur > W.big_used) W.big_used = W.big_cur;
        p = place(page, k * pg, n, at_start);
    }
    *off = p - base;
    return p;
}

/* A guarded copy of an input's n bytes (lives for the case), or NULL when it
 * does not fit (the input is then passed in place). */
static char *islot(const void *src, size_t n)
{
    br_iso *I = W.iso;
    char *base = W.self->base;
    size_t pg = I->page, rn = (n + 7u) & ~(size_t)7u, span_bytes;
    int at_start = W.at_start;
    char *page, *p;
    if (n == 0)     /* a guard page */
        return guard_upto(I->in_off, &W.g_in, 1) == 0 ? base + I->in_off : NULL;
    if (rn <= pg && W.islot_next < BR_NISLOT) {
        if (guard_upto(I->in_off, &W.g_in, (int)W.islot_next + 2) != 0) return NULL;
        page = base + I->in_off + pg * (1 + 2 * W.islot_next++);
        span_bytes = pg;
    } else {
        size_t k = (n + pg - 1) / pg;
        if ((k + 1) * pg > I->inbig_size - W.inbig_cur) return NULL;
        if (guard_upto(I->inbig_off, &W.g_inbig, 1) != 0) return NULL;
        page = base + I->inbig_off + W.inbig_cur;
        if (br_guard(I, page + k * pg, pg) != 0) return NULL;
        W.inbig_cur += (k + 1) * pg;
        if (W.inbig_cur > W.inbig_used) W.inbig_used = W.inbig_cur;
        span_bytes = k * pg;
    }
    p = at_start ? page : page + span_bytes - n;  /* flush with the guard: no rounding */
    /* the slack: the same bytes in every run, whatever earlier cases left there */
    if (at_start) memset(p + n, BR_CANARY, span_bytes - n);
    else memset(page, BR_CANARY, span_bytes - n);
    memcpy(p, src, n);
    return p;
}

/* Makes the per-case input region writable again and forgets its blocks. */
static void reset_inputs(void)
{
    br_iso *I = W.iso;
    if (W.inbig_used > I->page) br_unguard(I, W.self->base + I->inbig_off + I->page, W.inbig_used - I->page);
    W.inbig_cur = W.inbig_used = I->page;
    W.islot_next = 0;
}

/* Points each read-only arg at a guarded copy (unless --guard off or too large). */
static void guard_inputs(const br_case *c, bct_array *args, int wi)
{
    reset_inputs();
    for (int i = 0; i < c->nargs; i++) {
        W.in[i].lo = W.in[i].hi = 0;
        const br_arg *a = &c->args[i];
        if (i == wi || a->data == NULL || W.iso->cfg.guard == BR_GUARD_OFF) continue;
        size_t nb = br_arg_storage_bytes(a);
        if ((int64_t)nb > BR_INPUT_COPY_MAX) continue;
        char *p = islot(a->data, nb);
        if (p == NULL) continue;
        args[i].data = p;
        W.in[i].lo = (uintptr_t)p;
        W.in[i].hi = (uintptr_t)p + nb;
    }
}

/* ---- one case ---- */

static void *alloc_cb(void *ctx, int dtype, int rank, const int64_t *shape)
{
    (void)ctx;
    br_wres *r = W.res;
    r->alloc_calls++;
    const char *why = NULL;
    if (r->alloc_calls > 1) why = "alloc_output called twice";
    else if (W.c->mode == BCT_MODE_GRAD) why = "alloc_output called in grad mode (gradients come from alloc_grad)";
    else if (dtype != BCT_NONE && (dtype < 0 || dtype >= BCT_DTYPE_COUNT)) why = "invalid dtype";
    else if (rank < 0 || rank > BC_MAX_RANK) why = "rank outside [0, 128]";
    else if (rank > 0 && shape == NULL) why = "NULL shape";
    if (why == NULL) {
        r->out_dtype = dtype;
        r->out_rank = rank;
        if (rank > 0) /* the ABI allows shape == NULL for a 0-d result */
            memcpy(r->out_shape, shape, (size_t)rank * sizeof *shape);
        int64_t cnt = br_shape_count(r->out_shape, rank), bytes = 0;
        for (int i = 0; i < rank; i++) if (r->out_shape[i] < 0) why = "negative extent";
        /* a shape-only result (broadcast_shapes) holds no elements: its count may
         * overflow (torch answers broadcast_shapes((2^62,1),(1,4)) with a shape) */
        if (why == NULL && cnt < 0 && dtype != BCT_NONE) why = "element count overflows";
        if (why == NULL && dtype != BCT_NONE && br_mul_i64(cnt, bc_dtype_size(dtype), &bytes) != 0)
            why = "byte size overflows";
        int64_t cap = br_case_result_bytes(W.c);
        if (cap < W.iso->cfg.out_cap) cap = W.iso->cfg.out_cap;
        if (why == NULL && bytes > cap) why = "larger than the runner's output cap";
        if (why == NULL) {
            int64_t off;
            char *p = wslot((size_t)bytes, &off);
            if (p == NULL) why = "no room in the output arena";
            else {
                r->out_off = off;
                r->out_bytes = bytes;
                W.out.lo = (uintptr_t)p;
                W.out.hi = (uintptr_t)p + (size_t)bytes;
                return p;
            }
        }
    }
    r->alloc_refused = 1;
    snprintf(r->refuse, sizeof r->refuse, "%s", why);
    return NULL;
}

/* Why a gradient buffer of (dtype, rank, shape) cannot be had, or NULL; its
 * byte size in *bytes. The same limits as an output's. */
static const char *grad_refusal(int dtype, int rank, const int64_t *shape, int64_t *bytes)
{
    if (dtype != BCT_F32 && dtype != BCT_F64) return "a gradient's dtype is f32 or f64";
    if (rank < 0 || rank > BC_MAX_RANK) return "rank outside [0, 128]";
    if (rank > 0 && shape == NULL) return "NULL shape";
    for (int i = 0; i < rank; i++) if (shape[i] < 0) return "negative extent";
    int64_t cnt = br_shape_count(shape, rank), cap = br_case_result_bytes(W.c);
    if (cnt < 0 || br_mul_i64(cnt, bc_dtype_size(dtype), bytes) != 0) return "element count overflows";
    if (cap < W.iso->cfg.out_cap) cap = W.iso->cfg.out_cap;
    return *bytes > cap ? "larger than the runner's output cap" : NULL;
}

/* alloc_grad (BCT_MODE_GRAD): one guarded, zeroed buffer per input, at most
 * once each. What is asked is recorded as asked; whether that input should
 * have a gradient at all is the judge's question (an extra gradient). */
static void *alloc_grad_cb(void *ctx, int k, int dtype, int rank, const int64_t *shape)
{
    (void)ctx;
    br_wres *r = W.res;
    const char *why = NULL;
    int64_t bytes = 0, off;
    if (W.c->mode != BCT_MODE_GRAD) why = "alloc_grad called outside grad mode";
    else if (k < 0 || k >= W.c->nargs - 1 || k >= BR_MAX_GRADS) why = "alloc_grad for no input of the op";
    else if (r->grad[k].calls++ > 0) why = "alloc_grad called twice for one input";
    else why = grad_refusal(dtype, rank, shape, &bytes);
    if (why == NULL) {
        char *p = wslot((size_t)bytes, &off);
        if (p != NULL) {
            br_wgrad *g = &r->grad[k];
            g->dtype = dtype;
            g->rank = rank;
            if (rank > 0) memcpy(g->shape, shape, (size_t)rank * sizeof *shape);
            g->off = off;
            g->bytes = bytes;
            W.grad[k].lo = (uintptr_t)p;
            W.grad[k].hi = (uintptr_t)p + (size_t)bytes;
            return p;
        }
        why = "no room in the output arena";
    }
    r->grad_bad++;
    if (r->refuse[0] == '\0') snprintf(r->refuse, sizeof r->refuse, "%s", why);
    return NULL;
}

/* The self/out copy for the case's writable arg, or -1 when it does not fit. */
static int place_writable(const br_case *c, int wi, bct_array *args, br_wres *r)
{
    size_t nb = br_arg_storage_bytes(&c->args[wi]);
    int64_t off;
    char *p = wslot(nb, &off);
    if (p == NULL) { r->status = -1; snprintf(r->message, sizeof r->message, "runner: writable arg too large"); return -1; }
    if (nb) memcpy(p, c->args[wi].data, nb);
    r->w_off = off;
    r->w_bytes = (int64_t)nb;
    args[wi].data = p;
    W.wr.lo = (uintptr_t)p;
    W.wr.hi = (uintptr_t)p + nb;
    return 0;
}

/* 1 when this worker process has not called the target with c's op and
 * mode before (and remembers that it now has): a library that compiles on
 * first use compiles there, so the parent gives that call the first-call
 * time limit. Per process: a replaced worker starts afresh, as its library does. */
static int first_call(const br_case *c)
{
    static unsigned char called[256][8];
    unsigned op = (unsigned)c->op & 255u, mode = (unsigned)c->mode & 7u;
    if (called[op][mode]) return 0;
    called[op][mode] = 1;
    return 1;
}

/* Calls the target once on c, its result in r: the self/out copy and the
 * inputs placed as W.at_start says. The time limit starts here; first gives
 * the call the first-call limit. -1 (and no call) when the self/out copy
 * does not fit. */
static int call_once(const br_case *c, int pos, br_wres *r, int first, bct_array *args, int wi)
{
    wctl *ctl = W.ctl;
    memset(r, 0, offsetof(br_wres, out_shape));
    r->message[0] = r->refuse[0] = '\0';
    r->out_off = r->w_off = -1;
    r->grad_bad = 0;
    for (int i = 0; i < BR_MAX_GRADS; i++) {
        r->grad[i].calls = 0;
        r->grad[i].off = -1;
        r->grad[i].bytes = 0;
        W.grad[i].lo = W.grad[i].hi = 0;
    }
    W.res = r;
    W.out.lo = W.out.hi = W.wr.lo = W.wr.hi = 0;
    bct_call call;
    br_case_call(c, ctl->prof[pos], args, &call);
    if (wi >= 0 && place_writable(c, wi, args, r) != 0) return -1;
    guard_inputs(c, args, wi);
    W.c = c;
    call.alloc_output = alloc_cb;
    call.alloc_grad = alloc_grad_cb;
    call.ctx = NULL;
    call.message = r->message;
    call.message_cap = sizeof r->message;
    int64_t t0 = br_now_ns();
    __atomic_store_n(&ctl->cur_first, first, __ATOMIC_SEQ_CST);
    __atomic_store_n(&ctl->cur_start, t0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&ctl->cur, pos, __ATOMIC_SEQ_CST);
    r->status = W.t->run(&call);
    r->dur_ns = br_now_ns() - t0;
    W.c = NULL;
    r->message[sizeof r->message - 1] = '\0';
    return 0;
}

/* Whether the judged call (blocks at the end of their pages) left a byte
 * before some guarded input's start untrapped: an input whose size is not a
 * page multiple, so the start call has something to add. */
static int start_call_needed(const br_case *c)
{
    if (W.iso->cfg.guard != BR_GUARD_BOTH || W.copies_inputs) return 0;
    for (int i = 0; i < c->nargs; i++)
        if (W.in[i].hi > W.in[i].lo && (W.in[i].hi - W.in[i].lo) % W.iso->page != 0) return 1;
    return 0;
}

/* The start call (--guard both): c again, inputs, outputs and the self/out
 * copy at the start of their pages, so a read or write one element before an
 * input's start faults, and the fault is reported for c like any other. Its
 * result is not judged (the judged call's is), and the output room it took is
 * handed back afterwards. Skipped for bcast's own pipe.so (copies_inputs): the
 * library behind it reads the copy pipe.so sends, in the bridge's process,
 * never this memory; the start call would only re-test pipe.so's copy loop
 * and double every bridge's work. */
static void start_call(const br_case *c, int pos, int wi)
{
    static br_wres scratch;
    bct_array args[BR_MAX_ARGS];
    size_t slot0 = W.slot_next, big0 = W.big_cur;
    span out = W.out, wr = W.wr;
    W.at_start = 1;
    (void)call_once(c, pos, &scratch, 0, args, wi);   /* no room: no start call */
    W.at_start = 0;
    if (W.big_cur > big0) br_unguard(W.iso, W.self->base + W.iso->big_off + big0, W.big_cur - big0);
    W.slot_next = slot0;
    W.big_cur = big0;
    W.out = out;
    W.wr = wr;
    W.res = NULL;
}

static void run_case(int pos)
{
    wctl *ctl = W.ctl;
    const br_case *c = &W.iso->cs->cases[ctl->batch[pos]];
    br_wres *r = &ctl->res[pos];
    bct_array args[BR_MAX_ARGS];
    int wi = br_writable_arg(c);
    ctl->err_mark[pos] = lseek(2, 0, SEEK_END);
    W.at_start = W.iso->cfg.guard == BR_GUARD_START;
    if (call_once(c, pos, r, first_call(c), args, wi) != 0) return;
    /* A write into an input: the guarded copies are writable, so compare. */
    for (int i = 0; i < c->nargs && i < 31; i++) {
        const br_arg *a = &c->args[i];
        if (i == wi || a->data == NULL) continue;
        size_t nb = br_arg_storage_bytes(a);
        if (nb <= ((size_t)64 << 20) && br_fingerprint(args[i].data, nb) != a->hash)
            r->inputs_changed |= 1 << i;
    }
    if (start_call_needed(c)) start_call(c, pos, wi);
}

/* ---- process setup ---- */

/* Bytes of private writable memory (the data segment RLIMIT_DATA counts:
 * heap, malloc's mmaps, writable library data) this process has now, from
 * /proc/self/status's VmData, or 0. */
static unsigned long long data_bytes(void)
{
    unsigned long long kb = 0;
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "VmData: %llu kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024;
}

/* See worker.h. */
int br_worker_data_limited(const br_iso *I)
{
    return !UNDER_ASAN && !I->cfg.no_rlimit;
}

/* Core dumps off, a CPU backstop, and (outside sanitizer builds) a limit on
 * the worker's data segment: what it has now plus BR_DATA_HEADROOM.
 * RLIMIT_DATA, not RLIMIT_AS: WebAssembly engines and JIT compilers (V8,
 * XLA, TensorFlow) reserve many GiB of address space they never touch
 * (PROT_NONE), which an address-space limit refuses at startup, while a
 * runaway allocation (malloc, writable mmap) is still stopped. The case
 * data and the workers' arenas are shared mappings, which it does not count. */
static void set_limits(void)
{
    struct rlimit rl = { 0, 0 };
    setrlimit(RLIMIT_CORE, &rl);
    /* CPU: a backstop for a worker's lifetime; per-case timeouts are the parent's job. */
    rl.rlim_cur = rl.rlim_max = 3600;
    setrlimit(RLIMIT_CPU, &rl);
    if (br_worker_data_limited(W.iso)) {
        /* forked from the fork server: its data size, read once before it forks */
        unsigned long long data = W.pre ? W.data_bytes : data_bytes();
        rl.rlim_cur = rl.rlim_max = (rlim_t)(data + BR_DATA_HEADROOM);
        setrlimit(RLIMIT_DATA, &rl);
    }
}

int br_thread_count(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL) return -1;
    char line[256];
    int n = -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "Threads:", 8) == 0) { n = atoi(line + 8); break; }
    fclose(f);
    return n;
}

int br_worker_load(br_iso *I, const char **msg)
{
    *msg = NULL;
    W.iso = I;
    W.handle = dlopen(I->cfg.target, RTLD_NOW | RTLD_LOCAL);
    bct_entry_fn entry = NULL;
    if (W.handle == NULL) { *msg = dlerror(); return -1; }
    /* bcast's own pipe.so says so: its bridge's library never reads our memory (start_call) */
    W.copies_inputs = dlsym(W.handle, "bcast_pipe_copies_inputs") != NULL;
    void *sym = dlsym(W.handle, BCT_ENTRY_NAME);
    memcpy(&entry, &sym, sizeof entry);
    if (entry == NULL) {
        /* a C++ adapter without extern "C" exports the mangled name instead */
        *msg = dlsym(W.handle, "_Z15bcast_target_v1v") != NULL
            ? "the library exports " BCT_ENTRY_NAME " with C++ linkage (as _Z15bcast_target_v1v): declare it "
              "extern \"C\" (include/bcast_target.h does when it is included before the definition)"
            : "the library does not export " BCT_ENTRY_NAME;
        return -1;
    }
    W.t = entry();
    if (W.t == NULL) *msg = BCT_ENTRY_NAME "() returned NULL";
    /* ABI 2 only appended fields: a version-1 descriptor is read up to run */
    else if (W.t->abi_version != 1 && W.t->abi_version != BCT_ABI_VERSION)
        *msg = "unsupported abi_version (runner knows 1 and 2)";
    else if (W.t->run == NULL) *msg = "the descriptor has no run function";
    return *msg ? -1 : 0;
}

int br_worker_init(br_iso *I, const char **msg)
{
    *msg = NULL;
    if (W.t->init != NULL && W.t->init(I->cfg.target_arg) != 0) *msg = "the target's init() failed";
    return *msg ? -1 : 0;
}

/* The descriptor is read after init(): a target may complete it there from
 * --target-arg (targets/pipe fills it from its bridge's handshake). */
void br_worker_describe(br_target_info *ti)
{
    snprintf(ti->name, sizeof ti->name, "%s", W.t->name ? W.t->name : "");
    snprintf(ti->version, sizeof ti->version, "%s", W.t->version ? W.t->version : "");
    ti->abi_version = W.t->abi_version;
    ti->profile = W.t->profile;
    ti->ops = W.t->ops;
    ti->grad_ops = W.t->abi_version >= 2 ? W.t->grad_ops : 0;   /* never read past a v1 descriptor */
    ti->dtypes = W.t->dtypes;
    ti->max_rank = W.t->max_rank;
    ti->flags = W.t->flags;
}

/* Called by the fork server after loading (and, for BR_W_READY, initialising)
 * the target, before it forks any worker: does once what every worker would
 * otherwise repeat after its fork. The case data becomes read-only here (the
 * workers inherit the protection; the parent's mapping stays writable). */
void br_worker_prefork(br_iso *I, int mode)
{
    W.iso = I;
    W.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    br_arena_protect(&I->cs->data, PROT_READ);
    W.data_bytes = data_bytes();
    if (mode == BR_W_READY) {
        br_worker_describe(&W.info);
        W.have_info = 1;
    }
    W.pre = 1;
}

static int write_byte(int fd, char ch)
{
    for (;;) {
        ssize_t w = write(fd, &ch, 1);
        if (w == 1) return 0;
        if (w < 0 && errno == EINTR) continue;
        return -1;
    }
}

/* Leaves only this worker's arena, pipes and stderr file open to the target. */
static void isolate_process(br_iso *I, int k)
{
    for (int j = 0; j < I->nw; j++) {
        if (j == k) continue;
        if (I->w[j].base != NULL) munmap(I->w[j].base, I->w[j].size);
        if (I->w[j].pid > 0) { close(I->w[j].cmd_fd); close(I->w[j].rep_fd); }
        if (I->w[j].err_fd >= 0) close(I->w[j].err_fd);
    }
    int dn = W.pre ? W.devnull : open("/dev/null", O_RDWR);
    if (dn >= 0) {
        dup2(dn, 0);
        dup2(dn, 1);
        /* stderr goes to the memory file the parent reads after a crash;
         * BCAST_RUN_WORKER_STDERR=1 leaves the terminal's */
        if (getenv("BCAST_RUN_WORKER_STDERR") == NULL)
            dup2(I->w[k].err_fd >= 0 ? I->w[k].err_fd : dn, 2);
        if (dn > 2) close(dn);
    }
    if (I->w[k].err_fd > 2) close(I->w[k].err_fd);
    if (I->zy_err_fd > 2) close(I->zy_err_fd);
}

void br_worker_main(br_iso *I, int k, int cmd_fd, int rep_fd, int mode)
{
    worker *self = &I->w[k];
    wctl *ctl = (wctl *)(void *)self->base;
    W.iso = I; W.self = self; W.ctl = ctl;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    isolate_process(I, k);
    set_limits();
    if (!W.pre) br_arena_protect(&I->cs->data, PROT_READ);
    if (mode == BR_W_FRESH) br_worker_install_handlers();
    const char *msg = NULL;
    if (mode == BR_W_FRESH) br_worker_load(I, &msg);
    if (msg == NULL && mode != BR_W_READY) br_worker_init(I, &msg);
    if (msg == NULL && W.have_info) ctl->info = W.info;
    else if (msg == NULL) br_worker_describe(&ctl->info);
    if (msg != NULL) {
        snprintf(ctl->ready_msg, sizeof ctl->ready_msg, "%s", msg);
        ctl->ready = -1;
        write_byte(rep_fd, 'r');
        _exit(3);
    }
    ctl->ready = 1;
    if (write_byte(rep_fd, 'r') != 0) _exit(0);
    for (;;) {
        char ch;
        ssize_t n;
        do n = read(cmd_fd, &ch, 1); while (n < 0 && errno == EINTR);
        if (n != 1) _exit(0);
        W.slot_next = 0;
        if (W.big_used > I->page) br_unguard(I, self->base + I->big_off + I->page, W.big_used - I->page);
        W.big_cur = W.big_used = I->page;
        /* a chatty target: keep the stderr file small between batches */
        if (lseek(2, 0, SEEK_END) > (off_t)1 << 20 && ftruncate(2, 0) == 0) lseek(2, 0, SEEK_SET);
        for (int i = 0; i < ctl->nbatch; i++) {
            run_case(i);
            __atomic_store_n(&ctl->cur, -1, __ATOMIC_SEQ_CST);
            __atomic_store_n(&ctl->ndone, i + 1, __ATOMIC_SEQ_CST);
        }
        if (write_byte(rep_fd, 'd') != 0) _exit(0);
    }
}
