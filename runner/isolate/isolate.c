/* isolate.c - the parent's side of isolation: worker arenas, handing out batches, timeouts, and lost workers.
 *
 * Workers are forked by the fork server (zygote.c) when the target allows it,
 * else by the parent; their life is worker.c. The parent hands out batches of
 * up to BR_BATCH cases over a pipe and waits for one byte back per batch; the
 * worker marks which case is running and since when, so the parent can kill
 * it on timeout, and on a crash the rest of the batch is handed to a fresh
 * worker. A worker's stderr is a memory file the parent reads after a crash. */
#define _GNU_SOURCE   /* memfd_create */
#include "isolate/isolate.h"
#include "isolate/isolate_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "isolate/guard.h"
#include "isolate/stderr_tail.h"
#include "isolate/worker.h"
#include "isolate/zygote.h"
#include "bcast_ref.h"

/* ---- stderr ---- */

/* A worker's stderr: an anonymous memory file, or -1 (then /dev/null). */
static int make_err_file(void)
{
    int fd = memfd_create("bcast-worker-stderr", 0);
    if (fd >= 0) fcntl(fd, F_SETFL, O_APPEND);
    return fd;
}

/* ---- layout ---- */

/* Sizes the regions of each worker arena (see worker.c). */
static void layout(br_iso *I)
{
    long pg = sysconf(_SC_PAGESIZE);
    I->page = pg > 0 ? (size_t)pg : 4096;
    I->ctl_size = (sizeof(wctl) + I->page - 1) / I->page * I->page;
    I->small_off = I->ctl_size;
    I->in_off = I->small_off + I->page * (2 * BR_NSLOT + 1);
    I->big_off = I->in_off + I->page * (2 * BR_NISLOT + 1);
    /* room for an output at the cap and a writable arg of the same size, for
     * the judged call and (--guard both) the start call; unused room costs
     * nothing (MAP_NORESERVE, never touched) */
    size_t cap = (size_t)(I->cfg.arena_cap > I->cfg.out_cap ? I->cfg.arena_cap : I->cfg.out_cap);
    I->big_size = (cap * 4 + ((size_t)64 << 20)) / I->page * I->page;
    I->inbig_off = I->big_off + I->big_size;
    I->inbig_size = ((size_t)I->cfg.in_cap + ((size_t)1 << 20)) / I->page * I->page + I->page;
}

/* Whether the kernel has guard markers for MAP_SHARED anonymous memory (Linux
 * 6.13 and later), tried on a scratch page; BCAST_RUN_MPROTECT_GUARDS=1 says
 * no. */
static int have_guard_markers(size_t page)
{
    if (getenv("BCAST_RUN_MPROTECT_GUARDS") != NULL) return 0;
    void *m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 0;
    int ok = madvise(m, page, MADV_GUARD_INSTALL) == 0;
    munmap(m, page);
    return ok;
}

static int map_arena(br_iso *I, worker *w, br_err *err)
{
    w->size = I->inbig_off + I->inbig_size;
    void *m = mmap(NULL, w->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        snprintf(err->msg, sizeof err->msg, "cannot map a worker arena: %s", strerror(errno));
        return -1;
    }
    w->base = m;
    /* No guard pages here: each worker installs the ones next to the blocks
     * it hands out (worker.c), since guards are per process (a marker or a
     * PROT_NONE mapping) and every one the fork server held would be copied
     * by each fork and torn down at each worker's exit. Guard markers where
     * the kernel has them (no VMA each); PROT_NONE pages otherwise. */
    if (w == I->w) I->madv_guard = have_guard_markers(I->page);
    w->err_fd = make_err_file();
    return 0;
}

/* ---- starting and reaping workers ---- */

static int read_byte(int fd, char *ch)
{
    for (;;) {
        ssize_t r = read(fd, ch, 1);
        if (r == 1) return 0;
        if (r < 0 && errno == EINTR) continue;
        return -1;
    }
}

/* Worker k's exit status, waiting for it when block is set; -1 if unknown. */
static int reap(br_iso *I, int k, int block)
{
    worker *w = &I->w[k];
    int st = 0;
    if (I->zy == NULL) {
        pid_t p = waitpid(w->pid, &st, block ? 0 : WNOHANG);
        return p == w->pid ? st : -1;
    }
    if (!block) { br_zy_drain(I->zy); return w->exited ? w->exit_status : -1; }
    return br_zy_wait_exit(I->zy, k, 5000);
}

static void forget_worker(worker *w)
{
    close(w->cmd_fd);
    close(w->rep_fd);
    w->pid = 0;
    w->busy = 0;
}

/* Starts worker k (through the fork server, or by forking this process). */
static int fork_worker(br_iso *I, int k, br_err *err)
{
    worker *w = &I->w[k];
    int cmd[2], rep[2];
    if (pipe2(cmd, O_CLOEXEC) != 0) goto fail;
    if (pipe2(rep, O_CLOEXEC) != 0) { close(cmd[0]); close(cmd[1]); goto fail; }
    wctl *ctl = (wctl *)(void *)w->base;
    /* the results (1.2 MB) are written by the worker before the parent reads
     * them: clear only what comes before */
    memset(ctl, 0, offsetof(wctl, res));
    ctl->cur = -1;
    w->exited = 0;
    pid_t pid;
    if (I->zy != NULL) {
        if (br_zy_spawn(I->zy, k, cmd[0], rep[1], &pid) != 0) { errno = ECHILD; pid = -1; }
    } else {
        fflush(NULL);
        pid = fork();
        if (pid == 0) {
            close(cmd[1]);
            close(rep[0]);
            br_worker_main(I, k, cmd[0], rep[1], BR_W_FRESH);
            _exit(0);
        }
    }
    close(cmd[0]);
    close(rep[1]);
    if (pid < 0) { close(cmd[1]); close(rep[0]); goto fail; }
    w->pid = pid;
    w->life = ++I->nlives;
    w->cmd_fd = cmd[1];
    w->rep_fd = rep[0];
    w->busy = 0;
    return 0;
fail:
    snprintf(err->msg, sizeof err->msg, "cannot start a worker: %s", strerror(errno));
    return -1;
}

/* Starts worker k and waits until its target is ready; gives up when the
 * init grace runs out or a stop is asked for (I->stop). */
static int spawn(br_iso *I, int k, br_err *err)
{
    if (fork_worker(I, k, err) != 0) return -1;
    worker *w = &I->w[k];
    wctl *ctl = (wctl *)(void *)w->base;
    struct pollfd pf = { w->rep_fd, POLLIN, 0 };
    int64_t deadline = br_now_ns() + (int64_t)((I->cfg.timeout_s + BR_INIT_GRACE_S) * 1e9);
    for (;;) {
        int ms = (int)((deadline - br_now_ns()) / 1000000);
        if (ms <= 0) {
            snprintf(err->msg, sizeof err->msg, "%s: the target did not finish loading/init in time", I->cfg.target);
            goto fail_kill;
        }
        int r = poll(&pf, 1, ms < 100 ? ms : 100);
        if (I->stop != NULL && *I->stop) {
            snprintf(err->msg, sizeof err->msg, "%s: stopped while the target was loading", I->cfg.target);
            goto fail_kill;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r > 0) break;
    }
    char ch;
    if (read_byte(w->rep_fd, &ch) != 0 || ctl->ready != 1) {
        br_start_failure(err->msg, sizeof err->msg, I->cfg.target,
                         ctl->ready == -1 ? ctl->ready_msg : "the worker died while loading it", w->err_fd,
                         br_worker_data_limited(I));
        goto fail_kill;
    }
    return 0;
fail_kill:
    kill(w->pid, SIGKILL);
    reap(I, k, 1);
    forget_worker(w);
    return -1;
}

/* The fork server, unless disabled or impossible (then workers are forked here). */
static int start_fork_server(br_iso *I, br_err *err)
{
    const char *env = getenv("BCAST_RUN_FORK_SERVER");
    if (!I->cfg.fork_server || (env != NULL && strcmp(env, "0") == 0)) return 0;
    I->zy_err_fd = make_err_file();
    I->zy = br_zy_start(I, err);
    return I->zy == NULL && err->msg[0] ? -1 : 0;
}

const char *br_iso_mode(const br_iso *I)
{
    if (I->zy == NULL) return "workers forked by the runner, each loads and initialises the target";
    return br_zy_mode(I->zy) == BR_W_READY ? "fork server: the target is loaded and initialised once"
                                            : "fork server: the target is loaded once, each worker initialises it";
}

br_iso *br_iso_start(br_caseset *cs, const br_iso_cfg *cfg, br_target_info *info, br_err *err)
{
    br_iso *I = calloc(1, sizeof *I);
    if (I == NULL) { snprintf(err->msg, sizeof err->msg, "out of memory"); return NULL; }
    I->cs = cs;
    I->cfg = *cfg;
    I->zy_err_fd = -1;
    if (I->cfg.jobs < 1) I->cfg.jobs = 1;
    layout(I);
    I->nw = I->cfg.jobs;
    I->w = calloc((size_t)I->nw, sizeof *I->w);
    if (I->w == NULL) { free(I); snprintf(err->msg, sizeof err->msg, "out of memory"); return NULL; }
    for (int k = 0; k < I->nw; k++) I->w[k].err_fd = -1;
    for (int k = 0; k < I->nw; k++) if (map_arena(I, &I->w[k], err) != 0) goto fail;
    if (start_fork_server(I, err) != 0) goto fail;
    for (int k = 0; k < I->nw; k++) if (spawn(I, k, err) != 0) goto fail;
    *info = ((wctl *)(void *)I->w[0].base)->info;
    return I;
fail:
    br_iso_stop(I);
    return NULL;
}

/* ---- losing a worker ---- */

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

static const char *access_word(int w) { return w == 1 ? "write" : w == 0 ? "read" : "access"; }

/* The time limit of a worker's first call of an op and mode: --first-call-timeout
 * when given, else BR_FIRST_CALL_S for a target that declares BCT_CAP_COMPILES;
 * never less than --timeout. */
static double first_call_limit(const br_iso *I, const wctl *ctl)
{
    double t = I->cfg.first_call_timeout_s;
    if (t <= 0 && (ctl->info.flags & BCT_CAP_COMPILES)) t = BR_FIRST_CALL_S;
    return t > I->cfg.timeout_s ? t : I->cfg.timeout_s;
}

/* Why the case at the worker's current position was lost: the text, the
 * detail findings group on, and the kind (crash may become violation). */
static int explain_loss(br_iso *I, const br_case *c, const wctl *ctl, int kind, int status,
                        char *why, size_t cap, char *detail, size_t dcap)
{
    long long d = (long long)ctl->fault_dist;
    if (kind == BR_RUN_TIMEOUT) {
        if (ctl->cur_first && first_call_limit(I, ctl) > I->cfg.timeout_s)
            snprintf(why, cap, "timed out after %gs (the worker's first %s call in this mode: --first-call-timeout)",
                     first_call_limit(I, ctl), bc_op_name(c->op));
        else snprintf(why, cap, "timed out after %gs", I->cfg.timeout_s);
        snprintf(detail, dcap, "timeout");
        return kind;
    }
    switch (ctl->fault) {
    case BR_FAULT_INPUT_GUARD: {
        const char *name = ctl->fault_arg >= 0 && ctl->fault_arg < c->nargs ? c->args[ctl->fault_arg].name : "?";
        if (d >= 0) snprintf(why, cap, "%s past the end of input %s (%lld bytes after its storage, a guard page)",
                             access_word(ctl->fault_write), name, d);
        else snprintf(why, cap, "%s before the start of input %s (%lld bytes before its storage, a guard page)",
                      access_word(ctl->fault_write), name, -d);
        snprintf(detail, dcap, "%s-%s-input-%s", access_word(ctl->fault_write), d >= 0 ? "past-end" : "before-start", name);
        return BR_RUN_VIOLATION;
    }
    case BR_FAULT_OUTPUT: case BR_FAULT_WRITABLE: {
        const char *what = ctl->fault == BR_FAULT_OUTPUT ? "the output"
                         : c->mode == BCT_MODE_INPLACE ? "self's storage" : "out's storage";
        snprintf(why, cap, "%s %s %s (%lld bytes %s, a guard page)", access_word(ctl->fault_write),
                 d >= 0 ? "past the end of" : "before the start of", what, d >= 0 ? d : -d, d >= 0 ? "after it" : "before it");
        snprintf(detail, dcap, "%s-%s-%s", access_word(ctl->fault_write), d >= 0 ? "past-end" : "before-start",
                 ctl->fault == BR_FAULT_OUTPUT ? "output" : c->mode == BCT_MODE_INPLACE ? "self" : "out");
        return BR_RUN_VIOLATION;
    }
    case BR_FAULT_GRAD: {
        const char *name = ctl->fault_arg >= 0 && ctl->fault_arg < c->nargs ? c->args[ctl->fault_arg].name : "?";
        snprintf(why, cap, "%s %s the gradient of %s (%lld bytes %s, a guard page)", access_word(ctl->fault_write),
                 d >= 0 ? "past the end of" : "before the start of", name, d >= 0 ? d : -d, d >= 0 ? "after it" : "before it");
        snprintf(detail, dcap, "%s-%s-gradient-%s", access_word(ctl->fault_write), d >= 0 ? "past-end" : "before-start", name);
        return BR_RUN_VIOLATION;
    }
    case BR_FAULT_ARENA:
        snprintf(why, cap, "%s outside the output (a guard page)", access_word(ctl->fault_write));
        snprintf(detail, dcap, "%s-outside-output", access_word(ctl->fault_write));
        return BR_RUN_VIOLATION;
    case BR_FAULT_INPUT_RO:
        snprintf(why, cap, "write into an input (a read-only page)");
        snprintf(detail, dcap, "write-input");
        return BR_RUN_VIOLATION;
    default: break;
    }
    if (status >= 0 && WIFSIGNALED(status)) {
        snprintf(why, cap, "crashed with %s (signal %d)", signame(WTERMSIG(status)), WTERMSIG(status));
        snprintf(detail, dcap, "%s", signame(WTERMSIG(status)));
    } else {
        int code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        snprintf(why, cap, "the worker exited with status %d during the case", code);
        snprintf(detail, dcap, "exit-%d", code);
    }
    return kind;
}

typedef struct queue { size_t *retry; int *rprof; size_t nretry; size_t next; } queue;

/* Reports the finished part of a worker's batch; returns how many. */
static size_t report_done(br_iso *I, worker *w, int upto, br_done_fn done, void *ctx)
{
    I->reporting = w->life;
    wctl *ctl = (wctl *)(void *)w->base;
    for (int i = 0; i < upto; i++)
        done(ctx, (size_t)ctl->batch[i], BR_RUN_DONE, &ctl->res[i], w->base, NULL);
    return upto < 0 ? 0 : (size_t)upto;
}

/* The worker died or was killed while running batch position `pos`: report
 * the finished cases and that one, queue the rest again. */
static size_t lose_worker(br_iso *I, int k, int kind, int status, queue *q, br_done_fn done, void *ctx)
{
    worker *w = &I->w[k];
    wctl *ctl = (wctl *)(void *)w->base;
    int nd = __atomic_load_n(&ctl->ndone, __ATOMIC_SEQ_CST);
    if (nd > ctl->nbatch) nd = ctl->nbatch;
    size_t finished = report_done(I, w, nd, done, ctx);
    if (nd < ctl->nbatch) {
        char why[300], detail[96], tail[BR_STDERR_KEEP + 1];
        const br_case *c = &I->cs->cases[ctl->batch[nd]];
        kind = explain_loss(I, c, ctl, kind, status, why, sizeof why, detail, sizeof detail);
        br_stderr_tail(w->err_fd, ctl->err_mark[nd], tail, sizeof tail);
        br_loss loss = { why, detail, tail };
        done(ctx, (size_t)ctl->batch[nd], kind, NULL, w->base, &loss);
        finished++;
        for (int i = ctl->nbatch - 1; i > nd; i--) {
            q->retry[q->nretry] = (size_t)ctl->batch[i];
            q->rprof[q->nretry++] = ctl->prof[i];
        }
    }
    forget_worker(w);
    return finished;
}

long br_iso_life(const br_iso *I)
{
    return I->reporting;
}

void br_iso_renew(br_iso *I)
{
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        if (w->pid <= 0 || w->busy) continue;
        kill(w->pid, SIGKILL);
        reap(I, k, 1);
        forget_worker(w);
    }
}

void br_iso_use(br_iso *I, int n)
{
    I->nw = n < 1 ? 1 : n > I->cfg.jobs ? I->cfg.jobs : n;
}

/* ---- the run ---- */

/* Gives worker k its next batch. Guided sizes: large while much remains (few
 * round trips for a fast target), shrinking toward the end so that the
 * workers of a slow target finish together. 0, or -1 when the worker is gone. */
static int hand_out(br_iso *I, int k, queue *q, const size_t *cases, const int *profiles, size_t n)
{
    worker *w = &I->w[k];
    wctl *ctl = (wctl *)(void *)w->base;
    size_t left = q->nretry + (n - q->next), share = (left + 2 * (size_t)I->nw - 1) / (2 * (size_t)I->nw);
    int bmax = share < 1 ? 1 : share > BR_BATCH ? BR_BATCH : (int)share;
    int b = 0;
    while (b < bmax && q->nretry > 0) {
        q->nretry--;
        ctl->batch[b] = (int64_t)q->retry[q->nretry];
        ctl->prof[b++] = q->rprof[q->nretry];
    }
    while (b < bmax && q->next < n) {
        ctl->batch[b] = (int64_t)cases[q->next];
        ctl->prof[b++] = profiles[q->next++];
    }
    ctl->nbatch = b;
    ctl->ndone = 0;
    ctl->cur = -1;
    ctl->fault = BR_FAULT_NONE;
    char ch = 'b';
    ssize_t wr;
    do wr = write(w->cmd_fd, &ch, 1); while (wr < 0 && errno == EINTR);
    if (wr != 1) return -1;
    w->busy = 1;
    return 0;
}

/* Looks at one busy worker after poll: a finished batch, a death, a timeout. */
static size_t check_worker(br_iso *I, int k, short revents, int64_t now, queue *q, br_done_fn done, void *ctx)
{
    worker *w = &I->w[k];
    wctl *ctl = (wctl *)(void *)w->base;
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        char ch;
        if (read_byte(w->rep_fd, &ch) == 0) {
            w->busy = 0;
            return report_done(I, w, ctl->nbatch, done, ctx);
        }
        return lose_worker(I, k, BR_RUN_CRASH, reap(I, k, 1), q, done, ctx);
    }
    /* a worker can die without its pipe closing (a child of the target may
     * hold it open): ask for its exit too */
    int st = reap(I, k, 0);
    if (st >= 0) {
        struct pollfd pf = { w->rep_fd, POLLIN, 0 };
        char ch;
        if (ctl->ndone == ctl->nbatch && poll(&pf, 1, 0) == 1 && read_byte(w->rep_fd, &ch) == 0) {
            size_t f = report_done(I, w, ctl->nbatch, done, ctx);
            forget_worker(w);
            return f;
        }
        return lose_worker(I, k, BR_RUN_CRASH, st, q, done, ctx);
    }
    int cur = __atomic_load_n(&ctl->cur, __ATOMIC_SEQ_CST);
    int64_t st0 = __atomic_load_n(&ctl->cur_start, __ATOMIC_SEQ_CST);
    double limit = __atomic_load_n(&ctl->cur_first, __ATOMIC_SEQ_CST) ? first_call_limit(I, ctl) : I->cfg.timeout_s;
    if (cur >= 0 && cur == __atomic_load_n(&ctl->cur, __ATOMIC_SEQ_CST) && now - st0 > (int64_t)(limit * 1e9)) {
        kill(w->pid, SIGKILL);
        return lose_worker(I, k, BR_RUN_TIMEOUT, reap(I, k, 1), q, done, ctx);
    }
    return 0;
}

/* Interrupted: keep what busy workers finished of their batches. */
static size_t abandon(br_iso *I, br_done_fn done, void *ctx)
{
    size_t finished = 0;
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        if (w->pid <= 0 || !w->busy) continue;
        kill(w->pid, SIGKILL);
        reap(I, k, 1);
        wctl *ctl = (wctl *)(void *)w->base;
        int nd = __atomic_load_n(&ctl->ndone, __ATOMIC_SEQ_CST);
        finished += report_done(I, w, nd < ctl->nbatch ? nd : ctl->nbatch, done, ctx);
        forget_worker(w);
    }
    return finished;
}

size_t br_iso_run(br_iso *I, const size_t *cases, const int *profiles, size_t n,
                  br_done_fn done, void *ctx, volatile sig_atomic_t *stop)
{
    queue q = { malloc((n ? n : 1) * sizeof(size_t)), malloc((n ? n : 1) * sizeof(int)), 0, 0 };
    size_t finished = 0;
    struct pollfd *pf = calloc((size_t)I->nw + 1, sizeof *pf);
    int *map = calloc((size_t)I->nw + 1, sizeof *map);
    if (q.retry == NULL || q.rprof == NULL || pf == NULL || map == NULL) goto out;
    I->stop = stop;
    for (;;) {
        if (stop != NULL && *stop) break;
        int nbusy = 0;
        for (int k = 0; k < I->nw; k++) {
            worker *w = &I->w[k];
            int more = q.nretry > 0 || q.next < n;
            if (w->pid == 0) {
                if (!more) continue;
                br_err e;
                if (spawn(I, k, &e) != 0) {
                    if (stop != NULL && *stop) break;   /* the busy workers are abandoned below */
                    fprintf(stderr, "bcast-run: %s\n", e.msg);
                    goto out;
                }
            }
            if (!w->busy && more && hand_out(I, k, &q, cases, profiles, n) != 0) {
                finished += lose_worker(I, k, BR_RUN_CRASH, reap(I, k, 1), &q, done, ctx);
                continue;
            }
            if (w->busy) { pf[nbusy] = (struct pollfd){ w->rep_fd, POLLIN, 0 }; map[nbusy++] = k; }
        }
        if (nbusy == 0) break;
        int nfd = nbusy;
        if (I->zy != NULL) pf[nfd++] = (struct pollfd){ br_zy_fd(I->zy), POLLIN, 0 };
        int r = poll(pf, (nfds_t)nfd, 20);
        if (r < 0 && errno != EINTR) break;
        int64_t now = br_now_ns();
        for (int i = 0; i < nbusy; i++) finished += check_worker(I, map[i], pf[i].revents, now, &q, done, ctx);
    }
    if (stop != NULL && *stop) finished += abandon(I, done, ctx);
out:
    I->stop = NULL;
    free(q.retry);
    free(q.rprof);
    free(pf);
    free(map);
    return finished;
}

void br_iso_stop(br_iso *I)
{
    if (I == NULL) return;
    I->nw = I->cfg.jobs;   /* every worker br_iso_start made, whatever br_iso_use kept */
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        if (w->pid > 0) {
            close(w->cmd_fd);    /* EOF: an idle worker exits by itself */
            close(w->rep_fd);
            if (w->busy) kill(w->pid, SIGKILL);
        }
    }
    if (I->zy != NULL) {
        br_zy_stop(I->zy);       /* waits for the workers, within the grace period */
        I->zy = NULL;
    } else {
        const char *g = getenv("BCAST_RUN_EXIT_GRACE");
        int64_t grace = g != NULL && atoi(g) > 0 && atoi(g) <= 3600 ? atoi(g) : 1;
        for (int k = 0; k < I->nw; k++) {
            worker *w = &I->w[k];
            int64_t until = br_now_ns() + grace * 1000000000;
            int st;
            while (w->pid > 0 && waitpid(w->pid, &st, WNOHANG) == 0) {
                if (br_now_ns() > until) { kill(w->pid, SIGKILL); waitpid(w->pid, &st, 0); break; }
                usleep(1000);
            }
        }
    }
    for (int k = 0; k < I->nw; k++) {
        worker *w = &I->w[k];
        w->pid = 0;
        if (w->base != NULL) munmap(w->base, w->size);
        if (w->err_fd >= 0) close(w->err_fd);
    }
    if (I->zy_err_fd >= 0) close(I->zy_err_fd);
    free(I->w);
    free(I);
}
