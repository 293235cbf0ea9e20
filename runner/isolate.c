/* isolate.c - worker processes that run a target one case at a time.
 *
 * Each worker owns one MAP_SHARED arena created by the parent before fork:
 *   [control block: batch + per-case results]
 *   [small slots: G D G D ... G]   one data page between two guard pages
 *   [big region:  G D..D G D..D G] outputs above a page, guards set per alloc
 * Outputs are placed at the end of their pages so a write past the end hits a
 * guard page; the slack before them is filled with a canary the parent checks.
 * The parent reads outputs straight from the arena, so a target that corrupts
 * its own process cannot fake a pass. Inputs live in the case data arena,
 * which each worker makes read-only once (no per-case mprotect).
 *
 * The parent hands out batches of up to BATCH cases over a pipe and waits for one byte
 * back per batch; the worker marks which case is running and since when, so
 * the parent can kill it on timeout, and on a crash the rest of the batch is
 * handed to a fresh worker. */
/* MAP_ANONYMOUS, MAP_NORESERVE, sigaltstack: not in plain POSIX 2008 */
#define _DEFAULT_SOURCE
#include "isolate.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "call.h"
#include "compare.h"
#include "judge.h"
#include "util.h"

#define BATCH 256
#define NSLOT (2 * BATCH)

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

enum { FAULT_NONE = 0, FAULT_OUTPUT, FAULT_INPUT };

typedef struct wctl {
    int32_t cur;              /* batch position running, -1 between cases (atomic) */
    int32_t ndone;            /* cases of the batch finished (atomic) */
    int64_t cur_start;        /* br_now_ns() when cur started (atomic) */
    int32_t fault;            /* FAULT_* from the signal handler */
    uint64_t fault_addr;
    int32_t ready;            /* 1 ok, -1 failed (ready_msg) */
    char ready_msg[512];
    br_target_info info;
    int32_t nbatch;
    int64_t batch[BATCH];
    int32_t prof[BATCH];
    br_wres res[BATCH];
} wctl;

typedef struct worker {
    pid_t pid;
    int cmd_fd, rep_fd;       /* parent's ends */
    char *base;               /* arena */
    size_t size;
    int busy;
} worker;

struct br_iso {
    br_caseset *cs;
    br_iso_cfg cfg;
    size_t page, ctl_size, small_off, big_off, big_size;
    worker *w;
    int nw;
};

/* ---- worker side ---- */

static struct {
    br_iso *iso;
    worker *self;
    wctl *ctl;
    const bct_target *t;
    size_t slot_next, big_cur, big_used;
    br_wres *res;
    const br_case *c;
} W;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr, b = (uintptr_t)W.self->base;
    if (sig == SIGSEGV || sig == SIGBUS) {
        if (a >= b + W.iso->small_off && a < b + W.self->size) W.ctl->fault = FAULT_OUTPUT;
        else if (br_arena_contains(&W.iso->cs->data, a)) W.ctl->fault = FAULT_INPUT;
        W.ctl->fault_addr = (uint64_t)a;
    }
    /* SA_RESETHAND restored the default action: returning re-faults and the
     * parent sees the signal. */
}

/* A writable block of n bytes placed at the end of its pages, zeroed, the
 * slack before it filled with the canary. NULL when it does not fit. */
static char *wslot(size_t n, int64_t *off)
{
    br_iso *I = W.iso;
    char *base = W.self->base;
    size_t pg = I->page, rn = (n + 7u) & ~(size_t)7u;
    if (n == 0) { *off = -1; return base + I->small_off; }    /* a guard page: any write faults */
    char *page;
    size_t span;
    if (rn <= pg && W.slot_next < NSLOT) {
        page = base + I->small_off + pg * (1 + 2 * W.slot_next++);
        span = pg;
    } else {
        size_t k = (rn + pg - 1) / pg;
        if (k > (I->big_size - W.big_cur) / pg || (k + 1) * pg > I->big_size - W.big_cur) return NULL;
        page = base + I->big_off + W.big_cur;
        span = k * pg;
        if (mprotect(page + span, pg, PROT_NONE) != 0) return NULL;
        W.big_cur += span + pg;
        if (W.big_cur > W.big_used) W.big_used = W.big_cur;
    }
    char *p = page + span - rn;
    memset(page, BR_CANARY, (size_t)(p - page));
    memset(p, 0, n);
    memset(p + n, BR_CANARY, rn - n);
    *off = p - base;
    return p;
}

static void *alloc_cb(void *ctx, int dtype, int rank, const int64_t *shape)
{
    (void)ctx;
    br_wres *r = W.res;
    r->alloc_calls++;
    const char *why = NULL;
    if (r->alloc_calls > 1) why = "alloc_output called twice";
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
        if (why == NULL && cnt < 0) why = "element count overflows";
        if (why == NULL && dtype != BCT_NONE && br_mul_i64(cnt, bc_dtype_size(dtype), &bytes) != 0)
            why = "byte size overflows";
        int64_t cap = br_case_result_bytes(W.c);
        if (cap < W.iso->cfg.out_cap) cap = W.iso->cfg.out_cap;
        if (why == NULL && bytes > cap) why = "larger than the runner's output cap";
        if (why == NULL) {
            int64_t off;
            char *p = wslot((size_t)bytes, &off);
            if (p == NULL) why = "no room in the output arena";
            else { r->out_off = off; r->out_bytes = bytes; return p; }
        }
    }
    r->alloc_refused = 1;
    snprintf(r->refuse, sizeof r->refuse, "%s", why);
    return NULL;
}

static void run_case(int pos)
{
    wctl *ctl = W.ctl;
    const br_case *c = &W.iso->cs->cases[ctl->batch[pos]];
    br_wres *r = &ctl->res[pos];
    memset(r, 0, offsetof(br_wres, out_shape));
    r->message[0] = r->refuse[0] = '\0';
    r->out_off = r->w_off = -1;
    W.res = r;
    W.c = c;
    bct_array args[BR_MAX_ARGS];
    bct_call call;
    br_case_call(c, ctl->prof[pos], args, &call);
    int wi = br_writable_arg(c);
    if (wi >= 0) {
        size_t nb = br_arg_storage_bytes(&c->args[wi]);
        int64_t off;
        char *p = wslot(nb, &off);
        if (p == NULL) { r->status = -1; snprintf(r->message, sizeof r->message, "runner: writable arg too large"); return; }
        if (nb) memcpy(p, c->args[wi].data, nb);
        r->w_off = off;
        r->w_bytes = (int64_t)nb;
        args[wi].data = p;
    }
    call.alloc_output = alloc_cb;
    call.ctx = NULL;
    call.message = r->message;
    call.message_cap = sizeof r->message;
    int64_t t0 = br_now_ns();
    __atomic_store_n(&ctl->cur_start, t0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&ctl->cur, pos, __ATOMIC_SEQ_CST);
    r->status = W.t->run(&call);
    r->dur_ns = br_now_ns() - t0;
    r->message[sizeof r->message - 1] = '\0';
    /* Backstop for writes that got past the read-only pages. */
    for (int i = 0; i < c->nargs && i < 31; i++) {
        const br_arg *a = &c->args[i];
        if (i == wi || a->data == NULL) continue;
        size_t nb = br_arg_storage_bytes(a);
        if (nb <= ((size_t)64 << 20) && br_fingerprint(a->data, nb) != a->hash)
            r->inputs_changed |= 1 << i;
    }
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

static int read_byte(int fd, char *ch)
{
    for (;;) {
        ssize_t r = read(fd, ch, 1);
        if (r == 1) return 0;
        if (r < 0 && errno == EINTR) continue;
        return -1;
    }
}

/* Reads one byte if one is there now; -1 otherwise. */
static int read_byte_nb(int fd, char *ch)
{
    struct pollfd pf = { fd, POLLIN, 0 };
    if (poll(&pf, 1, 0) != 1 || !(pf.revents & POLLIN)) return -1;
    return read(fd, ch, 1) == 1 ? 0 : -1;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    if (src != NULL) for (; i + 1 < cap && src[i]; i++) dst[i] = src[i];
    dst[i] = '\0';
}

static void set_limits(void)
{
    struct rlimit rl = { 0, 0 };
    setrlimit(RLIMIT_CORE, &rl);
    /* CPU: a backstop for a worker's lifetime; per-case timeouts are the parent's job. */
    rl.rlim_cur = rl.rlim_max = 3600;
    setrlimit(RLIMIT_CPU, &rl);
    if (!UNDER_ASAN && !W.iso->cfg.no_rlimit) {
        /* Address space: what is mapped now (case data, arenas) plus 4 GiB. */
        unsigned long long vm = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (f != NULL) {
            if (fscanf(f, "%llu", &vm) != 1) vm = 0;
            fclose(f);
        }
        rl.rlim_cur = rl.rlim_max = (rlim_t)(vm * W.iso->page + (4ull << 30));
        setrlimit(RLIMIT_AS, &rl);
    }
}

static void worker_main(br_iso *I, int k, int cmd_fd, int rep_fd)
{
    worker *self = &I->w[k];
    wctl *ctl = (wctl *)(void *)self->base;
    W.iso = I; W.self = self; W.ctl = ctl;
    for (int j = 0; j < I->nw; j++) {
        if (j == k) continue;
        if (I->w[j].base != NULL) munmap(I->w[j].base, I->w[j].size);
        if (I->w[j].pid > 0) { close(I->w[j].cmd_fd); close(I->w[j].rep_fd); }
    }
    int dn = open("/dev/null", O_RDWR);
    if (dn >= 0) {
        dup2(dn, 0);
        dup2(dn, 1);
        /* debugging aid: see what a target (or a sanitizer in it) says */
        if (getenv("BCAST_RUN_WORKER_STDERR") == NULL) dup2(dn, 2);
        if (dn > 2) close(dn);
    }
    set_limits();
    br_arena_protect(&I->cs->data, PROT_READ);
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

    const char *msg = NULL;
    void *h = dlopen(I->cfg.target, RTLD_NOW | RTLD_LOCAL);
    bct_entry_fn entry = NULL;
    if (h == NULL) msg = dlerror();
    else {
        void *sym = dlsym(h, BCT_ENTRY_NAME);
        memcpy(&entry, &sym, sizeof entry);
        if (entry == NULL) msg = "the library does not export " BCT_ENTRY_NAME;
    }
    if (msg == NULL) {
        W.t = entry();
        if (W.t == NULL) msg = BCT_ENTRY_NAME "() returned NULL";
        else if (W.t->abi_version != BCT_ABI_VERSION) msg = "unsupported abi_version (runner knows 1)";
        else if (W.t->run == NULL) msg = "the descriptor has no run function";
    }
    /* The descriptor is read after init(): a target may complete it there from
     * --target-arg (targets/pipe fills it from its bridge's handshake). */
    if (msg == NULL && W.t->init != NULL && W.t->init(I->cfg.target_arg) != 0) msg = "the target's init() failed";
    if (msg == NULL) {
        br_target_info *ti = &ctl->info;
        copy_str(ti->name, sizeof ti->name, W.t->name);
        copy_str(ti->version, sizeof ti->version, W.t->version);
        ti->profile = W.t->profile;
        ti->ops = W.t->ops;
        ti->dtypes = W.t->dtypes;
        ti->max_rank = W.t->max_rank;
        ti->flags = W.t->flags;
    }
    if (msg != NULL) {
        copy_str(ctl->ready_msg, sizeof ctl->ready_msg, msg);
        ctl->ready = -1;
        write_byte(rep_fd, 'r');
        _exit(3);
    }
    ctl->ready = 1;
    if (write_byte(rep_fd, 'r') != 0) _exit(0);
    for (;;) {
        char ch;
        if (read_byte(cmd_fd, &ch) != 0) _exit(0);
        W.slot_next = 0;
        if (W.big_used > I->page) mprotect(self->base + I->big_off + I->page, W.big_used - I->page, PROT_READ | PROT_WRITE);
        W.big_cur = W.big_used = I->page;
        for (int i = 0; i < ctl->nbatch; i++) {
            run_case(i);
            __atomic_store_n(&ctl->cur, -1, __ATOMIC_SEQ_CST);
            __atomic_store_n(&ctl->ndone, i + 1, __ATOMIC_SEQ_CST);
        }
        if (write_byte(rep_fd, 'd') != 0) _exit(0);
    }
}

/* ---- parent side ---- */

static int spawn(br_iso *I, int k, br_err *err)
{
    worker *w = &I->w[k];
    int cmd[2], rep[2];
    if (pipe(cmd) != 0) goto fail;
    if (pipe(rep) != 0) { close(cmd[0]); close(cmd[1]); goto fail; }
    wctl *ctl = (wctl *)(void *)w->base;
    memset(ctl, 0, sizeof *ctl);
    ctl->cur = -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { close(cmd[0]); close(cmd[1]); close(rep[0]); close(rep[1]); goto fail; }
    if (pid == 0) {
        close(cmd[1]);
        close(rep[0]);
        worker_main(I, k, cmd[0], rep[1]);
        _exit(0);
    }
    close(cmd[0]);
    close(rep[1]);
    w->pid = pid;
    w->cmd_fd = cmd[1];
    w->rep_fd = rep[0];
    w->busy = 0;
    /* wait for the target to load and init */
    struct pollfd pf = { w->rep_fd, POLLIN, 0 };
    int64_t deadline = br_now_ns() + (int64_t)(I->cfg.timeout_s * 1e9) + 5000000000;
    for (;;) {
        int ms = (int)((deadline - br_now_ns()) / 1000000);
        if (ms <= 0) {
            snprintf(err->msg, sizeof err->msg, "%s: the target did not finish loading/init in time", I->cfg.target);
            goto fail_kill;
        }
        int r = poll(&pf, 1, ms);
        if (r < 0 && errno == EINTR) continue;
        if (r > 0) break;
    }
    char ch;
    if (read_byte(w->rep_fd, &ch) != 0 || ctl->ready != 1) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot use the target: %s", I->cfg.target,
                 ctl->ready == -1 ? ctl->ready_msg : "the worker died while loading it");
        goto fail_kill;
    }
    return 0;
fail_kill:
    kill(w->pid, SIGKILL);
    waitpid(w->pid, NULL, 0);
    close(w->cmd_fd);
    close(w->rep_fd);
    w->pid = 0;
    return -1;
fail:
    snprintf(err->msg, sizeof err->msg, "cannot start a worker: %s", strerror(errno));
    return -1;
}

br_iso *br_iso_start(br_caseset *cs, const br_iso_cfg *cfg, br_target_info *info, br_err *err)
{
    br_iso *I = calloc(1, sizeof *I);
    if (I == NULL) { snprintf(err->msg, sizeof err->msg, "out of memory"); return NULL; }
    I->cs = cs;
    I->cfg = *cfg;
    if (I->cfg.jobs < 1) I->cfg.jobs = 1;
    long pg = sysconf(_SC_PAGESIZE);
    I->page = pg > 0 ? (size_t)pg : 4096;
    I->ctl_size = (sizeof(wctl) + I->page - 1) / I->page * I->page;
    I->small_off = I->ctl_size;
    I->big_off = I->small_off + I->page * (2 * NSLOT + 1);
    /* room for an output at the cap and a writable arg of the same size */
    size_t cap = (size_t)(cfg->arena_cap > cfg->out_cap ? cfg->arena_cap : cfg->out_cap);
    I->big_size = (cap * 2 + ((size_t)64 << 20)) / I->page * I->page;
    I->nw = I->cfg.jobs;
    I->w = calloc((size_t)I->nw, sizeof *I->w);
    if (I->w == NULL) { free(I); snprintf(err->msg, sizeof err->msg, "out of memory"); return NULL; }
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        w->size = I->big_off + I->big_size;
        void *m = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            snprintf(err->msg, sizeof err->msg, "cannot map a worker arena: %s", strerror(errno));
            goto fail;
        }
        w->base = m;
        /* guard pages set once here are inherited by every (re)started worker */
        for (int s = 0; s <= NSLOT; s++) mprotect(w->base + I->small_off + I->page * (size_t)(2 * s), I->page, PROT_NONE);
        mprotect(w->base + I->big_off, I->page, PROT_NONE);
    }
    for (int k = 0; k < I->nw; k++) if (spawn(I, k, err) != 0) goto fail;
    *info = ((wctl *)(void *)I->w[0].base)->info;
    return I;
fail:
    br_iso_stop(I);
    return NULL;
}

static const char *signame(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV"; case SIGBUS: return "SIGBUS"; case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT"; case SIGILL: return "SIGILL"; case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU"; case SIGTERM: return "SIGTERM"; case SIGPIPE: return "SIGPIPE";
    case SIGTRAP: return "SIGTRAP"; case SIGSYS: return "SIGSYS";
    default: return "signal";
    }
}

typedef struct queue { size_t *retry; int *rprof; size_t nretry; size_t next; } queue;

/* Reports the finished part of a worker's batch; returns how many. */
static int report_done(br_iso *I, worker *w, int upto, br_done_fn done, void *ctx)
{
    wctl *ctl = (wctl *)(void *)w->base;
    for (int i = 0; i < upto; i++)
        done(ctx, (size_t)ctl->batch[i], BR_RUN_DONE, &ctl->res[i], w->base, NULL);
    (void)I;
    return upto;
}

/* The worker died or was killed while running batch position `pos`: report
 * the finished cases and that one, queue the rest again, start a new worker. */
static size_t lose_worker(br_iso *I, int k, int kind, int status, queue *q, br_done_fn done, void *ctx)
{
    worker *w = &I->w[k];
    wctl *ctl = (wctl *)(void *)w->base;
    int nd = __atomic_load_n(&ctl->ndone, __ATOMIC_SEQ_CST);
    if (nd > ctl->nbatch) nd = ctl->nbatch;
    size_t finished = (size_t)report_done(I, w, nd, done, ctx);
    if (nd < ctl->nbatch) {
        char why[160];
        if (kind == BR_RUN_TIMEOUT) snprintf(why, sizeof why, "timed out after %gs", I->cfg.timeout_s);
        else if (ctl->fault == FAULT_OUTPUT) {
            kind = BR_RUN_VIOLATION;
            snprintf(why, sizeof why, "write outside the output (fault at 0x%llx, a guard page)",
                     (unsigned long long)ctl->fault_addr);
        } else if (ctl->fault == FAULT_INPUT) {
            kind = BR_RUN_VIOLATION;
            snprintf(why, sizeof why, "write into an input (fault at 0x%llx, a read-only page)",
                     (unsigned long long)ctl->fault_addr);
        } else if (WIFSIGNALED(status))
            snprintf(why, sizeof why, "crashed with %s (signal %d)", signame(WTERMSIG(status)), WTERMSIG(status));
        else snprintf(why, sizeof why, "the worker exited with status %d during the case",
                      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        done(ctx, (size_t)ctl->batch[nd], kind, NULL, w->base, why);
        finished++;
        for (int i = ctl->nbatch - 1; i > nd; i--) {
            q->retry[q->nretry] = (size_t)ctl->batch[i];
            q->rprof[q->nretry++] = ctl->prof[i];
        }
    }
    close(w->cmd_fd);
    close(w->rep_fd);
    w->pid = 0;
    w->busy = 0;
    return finished;
}

size_t br_iso_run(br_iso *I, const size_t *cases, const int *profiles, size_t n,
                  br_done_fn done, void *ctx, volatile sig_atomic_t *stop)
{
    queue q;
    q.retry = malloc((n ? n : 1) * sizeof *q.retry);
    q.rprof = malloc((n ? n : 1) * sizeof *q.rprof);
    q.nretry = 0;
    q.next = 0;
    size_t finished = 0;
    struct pollfd *pf = calloc((size_t)I->nw, sizeof *pf);
    int *map = calloc((size_t)I->nw, sizeof *map);
    if (q.retry == NULL || q.rprof == NULL || pf == NULL || map == NULL) goto out;
    int64_t tmo = (int64_t)(I->cfg.timeout_s * 1e9);
    for (;;) {
        if (stop != NULL && *stop) break;
        /* hand out work */
        int nbusy = 0;
        for (int k = 0; k < I->nw; k++) {
            worker *w = &I->w[k];
            if (w->pid == 0) {
                if (q.nretry == 0 && q.next >= n) continue;
                br_err e;
                if (spawn(I, k, &e) != 0) { fprintf(stderr, "bcast-run: %s\n", e.msg); goto out; }
            }
            if (!w->busy && (q.nretry > 0 || q.next < n)) {
                wctl *ctl = (wctl *)(void *)w->base;
                /* Guided batches: large while much remains (few round trips for a
                 * fast target), shrinking toward the end so that the workers of a
                 * slow target finish together. */
                size_t left = q.nretry + (n - q.next), share = (left + 2 * (size_t)I->nw - 1) / (2 * (size_t)I->nw);
                int bmax = share < 1 ? 1 : share > BATCH ? BATCH : (int)share;
                int b = 0;
                while (b < bmax && q.nretry > 0) {
                    q.nretry--;
                    ctl->batch[b] = (int64_t)q.retry[q.nretry];
                    ctl->prof[b++] = q.rprof[q.nretry];
                }
                while (b < bmax && q.next < n) {
                    ctl->batch[b] = (int64_t)cases[q.next];
                    ctl->prof[b++] = profiles[q.next++];
                }
                ctl->nbatch = b;
                ctl->ndone = 0;
                ctl->cur = -1;
                ctl->fault = FAULT_NONE;
                if (write_byte(w->cmd_fd, 'b') != 0) {
                    int st = 0;
                    waitpid(w->pid, &st, 0);
                    finished += lose_worker(I, k, BR_RUN_CRASH, st, &q, done, ctx);
                    continue;
                }
                w->busy = 1;
            }
            if (w->busy) { pf[nbusy].fd = w->rep_fd; pf[nbusy].events = POLLIN; pf[nbusy].revents = 0; map[nbusy++] = k; }
        }
        if (nbusy == 0) break;
        int r = poll(pf, (nfds_t)nbusy, 20);
        if (r < 0 && errno != EINTR) break;
        int64_t now = br_now_ns();
        for (int i = 0; i < nbusy; i++) {
            int k = map[i];
            worker *w = &I->w[k];
            wctl *ctl = (wctl *)(void *)w->base;
            if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                char ch;
                if (read_byte(w->rep_fd, &ch) == 0) {
                    w->busy = 0;
                    finished += (size_t)report_done(I, w, ctl->nbatch, done, ctx);
                } else {
                    int st = 0;
                    waitpid(w->pid, &st, 0);
                    finished += lose_worker(I, k, BR_RUN_CRASH, st, &q, done, ctx);
                }
                continue;
            }
            /* a worker can die without its pipe closing (a child of the
             * target may hold it open): ask the kernel too */
            int wst = 0;
            if (waitpid(w->pid, &wst, WNOHANG) == w->pid) {
                char ch;
                if (ctl->ndone == ctl->nbatch && read_byte_nb(w->rep_fd, &ch) == 0) {
                    finished += (size_t)report_done(I, w, ctl->nbatch, done, ctx);
                    close(w->cmd_fd);
                    close(w->rep_fd);
                    w->pid = 0;
                    w->busy = 0;
                } else finished += lose_worker(I, k, BR_RUN_CRASH, wst, &q, done, ctx);
                continue;
            }
            int cur = __atomic_load_n(&ctl->cur, __ATOMIC_SEQ_CST);
            int64_t st0 = __atomic_load_n(&ctl->cur_start, __ATOMIC_SEQ_CST);
            if (cur >= 0 && cur == __atomic_load_n(&ctl->cur, __ATOMIC_SEQ_CST) && now - st0 > tmo) {
                kill(w->pid, SIGKILL);
                int st = 0;
                waitpid(w->pid, &st, 0);
                finished += lose_worker(I, k, BR_RUN_TIMEOUT, st, &q, done, ctx);
            }
        }
    }
    /* interrupted: keep what busy workers finished of their batches */
    if (stop != NULL && *stop)
        for (int k = 0; k < I->nw; k++) {
            worker *w = &I->w[k];
            if (w->pid <= 0 || !w->busy) continue;
            kill(w->pid, SIGKILL);
            waitpid(w->pid, NULL, 0);
            wctl *ctl = (wctl *)(void *)w->base;
            int nd = __atomic_load_n(&ctl->ndone, __ATOMIC_SEQ_CST);
            finished += (size_t)report_done(I, w, nd < ctl->nbatch ? nd : ctl->nbatch, done, ctx);
            close(w->cmd_fd);
            close(w->rep_fd);
            w->pid = 0;
            w->busy = 0;
        }
out:
    free(q.retry);
    free(q.rprof);
    free(pf);
    free(map);
    return finished;
}

void br_iso_stop(br_iso *I)
{
    if (I == NULL) return;
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        if (w->pid > 0) {
            close(w->cmd_fd);    /* EOF: an idle worker exits by itself */
            close(w->rep_fd);
            if (w->busy) kill(w->pid, SIGKILL);
        }
    }
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        if (w->pid > 0) {
            int st;
            /* an idle worker exits at EOF; give it a moment, then kill.
             * BCAST_RUN_EXIT_GRACE (seconds) lengthens the moment, so that
             * `make valgrind` sees each worker's own leak check finish. */
            const char *g = getenv("BCAST_RUN_EXIT_GRACE");
            int64_t grace = g != NULL && atoi(g) > 0 && atoi(g) <= 3600 ? atoi(g) : 1;
            int64_t until = br_now_ns() + grace * 1000000000;
            while (waitpid(w->pid, &st, WNOHANG) == 0) {
                if (br_now_ns() > until) { kill(w->pid, SIGKILL); waitpid(w->pid, &st, 0); break; }
                usleep(1000);
            }
            w->pid = 0;
        }
        if (w->base != NULL) munmap(w->base, w->size);
    }
    free(I->w);
    free(I);
}
