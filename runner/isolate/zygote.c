/* zygote.c - the fork server: loads (and, when fork-safe, initialises) the target once and forks the workers.
 *
 * The parent talks to it over a SOCK_SEQPACKET pair: "spawn worker k" with
 * the worker's pipe ends passed as SCM_RIGHTS, answered by the pid; and the
 * fork server reports every worker's exit status, since the workers are its
 * children, not the parent's. A crashed worker is then replaced by one fork
 * of a small process (the case data and the arenas are shared mappings, so
 * fork copies almost no page tables). */
#define _GNU_SOURCE
#include "isolate/zygote.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>   /* malloc_trim */
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "isolate/stderr_tail.h"
#include "isolate/worker.h"

enum { Z_READY = 1, Z_FAILED, Z_NOFORK, Z_UNSAFE, Z_SPAWN, Z_SPAWNED, Z_EXITED };

typedef struct zmsg {
    int32_t type, k, mode, status;
    int32_t pid;
    char text[480];
} zmsg;

struct zygote {
    br_iso *iso;
    pid_t pid;
    int fd;          /* the parent's end */
    int mode;        /* BR_W_READY or BR_W_LOADED */
};

/* ---- messages ---- */

static int send_msg(int fd, const zmsg *m, const int *fds, int nfds)
{
    struct iovec iov = { (void *)(uintptr_t)m, sizeof *m };
    union { char buf[CMSG_SPACE(2 * sizeof(int))]; struct cmsghdr align; } u;
    struct msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    if (nfds > 0) {
        memset(&u, 0, sizeof u);
        h.msg_control = u.buf;
        h.msg_controllen = CMSG_SPACE((size_t)nfds * sizeof(int));
        struct cmsghdr *c = CMSG_FIRSTHDR(&h);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN((size_t)nfds * sizeof(int));
        memcpy(CMSG_DATA(c), fds, (size_t)nfds * sizeof(int));
    }
    ssize_t n;
    do n = sendmsg(fd, &h, MSG_NOSIGNAL); while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof *m ? 0 : -1;
}

/* Receives one message (and up to 2 fds). 1, 0 at end of stream, -1 error. */
static int recv_msg(int fd, zmsg *m, int *fds, int *nfds)
{
    struct iovec iov = { m, sizeof *m };
    union { char buf[CMSG_SPACE(2 * sizeof(int))]; struct cmsghdr align; } u;
    struct msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    h.msg_control = u.buf;
    h.msg_controllen = sizeof u.buf;
    ssize_t n;
    do n = recvmsg(fd, &h, MSG_CMSG_CLOEXEC); while (n < 0 && errno == EINTR);
    if (n == 0) return 0;
    if (n != (ssize_t)sizeof *m) return -1;
    if (nfds != NULL) {
        *nfds = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&h); c != NULL; c = CMSG_NXTHDR(&h, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
                for (int i = 0; i < k && *nfds < 2; i++) memcpy(&fds[(*nfds)++], CMSG_DATA(c) + (size_t)i * sizeof(int), sizeof(int));
            }
    }
    return 1;
}

static void reply(int fd, int type, int mode, const char *text)
{
    zmsg m;
    memset(&m, 0, sizeof m);
    m.type = type;
    m.mode = mode;
    if (text != NULL) snprintf(m.text, sizeof m.text, "%s", text);
    send_msg(fd, &m, NULL, 0);
}

/* ---- the fork server's side ---- */

/* Whether this process has (or had) a child: a bridge started by init. */
static int has_children(void)
{
    return !(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
}

/* Loads the target (and initialises it when try_init); the workers' mode,
 * or the reply type that ends the fork server. */
static int prepare(br_iso *I, int fd, int try_init, int *mode)
{
    const char *msg;
    br_worker_install_handlers();
    if (br_worker_load(I, &msg) != 0) { reply(fd, Z_FAILED, 0, msg); return -1; }
    if (br_thread_count() > 1) { reply(fd, Z_NOFORK, 0, "loading the target started threads"); return -1; }
    *mode = BR_W_LOADED;
    if (!try_init) return 0;
    if (br_worker_init(I, &msg) != 0) { reply(fd, Z_FAILED, 0, msg); return -1; }
    if (br_thread_count() > 1 || has_children()) { reply(fd, Z_UNSAFE, 0, "init left threads or a child process"); return -1; }
    *mode = BR_W_READY;
    return 0;
}

static void report_exits(int fd)
{
    int st;
    pid_t p;
    while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
        zmsg m;
        memset(&m, 0, sizeof m);
        m.type = Z_EXITED;
        m.pid = (int32_t)p;
        m.status = st;
        send_msg(fd, &m, NULL, 0);
    }
}

static void spawn_worker(br_iso *I, int fd, int sfd, const sigset_t *old, const zmsg *req, const int *fds, int mode)
{
    zmsg m;
    memset(&m, 0, sizeof m);
    m.type = Z_SPAWNED;
    m.k = req->k;
    pid_t p = fork();
    if (p == 0) {
        close(fd);
        close(sfd);
        sigprocmask(SIG_SETMASK, old, NULL);
        br_worker_main(I, req->k, fds[0], fds[1], mode);
        _exit(0);
    }
    m.pid = p > 0 ? (int32_t)p : -1;
    close(fds[0]);
    close(fds[1]);
    send_msg(fd, &m, NULL, 0);
}

/* The grace period idle processes get to exit (BCAST_RUN_EXIT_GRACE seconds,
 * default 1), so that valgrind's leak check in each of them can finish. */
static int64_t exit_grace_ns(void)
{
    const char *g = getenv("BCAST_RUN_EXIT_GRACE");
    int64_t grace = g != NULL && atoi(g) > 0 && atoi(g) <= 3600 ? atoi(g) : 1;
    return grace * 1000000000;
}

/* At the end: idle workers exit on EOF of their command pipe; wait for them
 * within the grace period. Those still running die with this process
 * (PR_SET_PDEATHSIG). */
static void finish(void)
{
    int64_t until = br_now_ns() + exit_grace_ns();
    while (waitpid(-1, NULL, WNOHANG) >= 0 && br_now_ns() < until) usleep(1000);
}

static void zygote_main(br_iso *I, int fd, int try_init)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(0);
    signal(SIGINT, SIG_IGN);
    if (I->zy_err_fd >= 0 && getenv("BCAST_RUN_WORKER_STDERR") == NULL) dup2(I->zy_err_fd, 2);
    int mode;
    if (prepare(I, fd, try_init, &mode) != 0) _exit(0);
    br_worker_prefork(I, mode);
#ifdef __GLIBC__
    /* The heap inherited from the parent is mostly freed memory (file
     * buffers of the case loader: ~3.5 MB against ~0.3 MB in use). Every
     * fork copies a page table entry per resident private page and write-
     * protects it, so give the free pages back once, here. */
    malloc_trim(0);
#endif
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    int sfd = signalfd(-1, &chld, SFD_CLOEXEC);
    reply(fd, Z_READY, mode, NULL);
    for (;;) {
        struct pollfd pf[2] = { { fd, POLLIN, 0 }, { sfd, POLLIN, 0 } };
        if (poll(pf, 2, -1) < 0) { if (errno == EINTR) continue; break; }
        if (pf[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) < 0 && errno == EINTR) {}
            report_exits(fd);
        }
        if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            zmsg m;
            int fds[2], nfds = 0;
            int r = recv_msg(fd, &m, fds, &nfds);
            if (r <= 0) break;
            if (m.type == Z_SPAWN && nfds == 2) spawn_worker(I, fd, sfd, &old, &m, fds, mode);
            else for (int i = 0; i < nfds; i++) close(fds[i]);
            report_exits(fd);
        }
    }
    finish();
    exit(0);   /* exit, not _exit: valgrind runs its leak check */
}

/* ---- the parent's side ---- */

static void record_exit(zygote *z, const zmsg *m)
{
    for (int k = 0; k < z->iso->nw; k++) {
        worker *w = &z->iso->w[k];
        if (w->pid == m->pid) { w->exited = 1; w->exit_status = m->status; }
    }
}

/* Waits for a message other than an exit report, recording those. */
static int await(zygote *z, zmsg *m, int ms)
{
    int64_t until = br_now_ns() + (int64_t)ms * 1000000;
    for (;;) {
        struct pollfd pf = { z->fd, POLLIN, 0 };
        int left = (int)((until - br_now_ns()) / 1000000);
        if (left <= 0) return -1;
        int r = poll(&pf, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        if (recv_msg(z->fd, m, NULL, NULL) != 1) return -1;
        if (m->type == Z_EXITED) { record_exit(z, m); continue; }
        return 0;
    }
}

static zygote *start_one(br_iso *I, int try_init, zmsg *m, br_err *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err->msg, sizeof err->msg, "cannot start the fork server: %s", strerror(errno));
        return NULL;
    }
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) { close(sv[0]); close(sv[1]); snprintf(err->msg, sizeof err->msg, "fork: %s", strerror(errno)); return NULL; }
    if (p == 0) { close(sv[0]); zygote_main(I, sv[1], try_init); }
    close(sv[1]);
    zygote *z = calloc(1, sizeof *z);
    if (z == NULL) { close(sv[0]); kill(p, SIGKILL); waitpid(p, NULL, 0); return NULL; }
    z->iso = I;
    z->pid = p;
    z->fd = sv[0];
    int ms = (int)((I->cfg.timeout_s + BR_INIT_GRACE_S) * 1000);
    if (await(z, m, ms) != 0) {
        m->type = Z_FAILED;
        snprintf(m->text, sizeof m->text, "the target did not finish loading/init in time, or its loader died");
    }
    if (m->type == Z_READY) { z->mode = m->mode; return z; }
    br_zy_stop(z);
    return NULL;
}

zygote *br_zy_start(br_iso *I, br_err *err)
{
    zmsg m;
    err->msg[0] = '\0';
    zygote *z = start_one(I, 1, &m, err);
    if (z == NULL && m.type == Z_UNSAFE) z = start_one(I, 0, &m, err);
    if (z != NULL || err->msg[0]) return z;
    if (m.type == Z_FAILED) {
        br_start_failure(err->msg, sizeof err->msg, I->cfg.target, m.text, I->zy_err_fd,
                         br_worker_data_limited(I));
    }
    return NULL;   /* Z_NOFORK: err stays empty, fork fresh workers */
}

int br_zy_mode(const zygote *z) { return z->mode; }
int br_zy_fd(const zygote *z) { return z->fd; }

int br_zy_spawn(zygote *z, int k, int cmd_r, int rep_w, pid_t *pid)
{
    zmsg m;
    memset(&m, 0, sizeof m);
    m.type = Z_SPAWN;
    m.k = k;
    int fds[2] = { cmd_r, rep_w };
    if (send_msg(z->fd, &m, fds, 2) != 0) return -1;
    if (await(z, &m, 10000) != 0 || m.type != Z_SPAWNED || m.pid <= 0) return -1;
    *pid = m.pid;
    return 0;
}

int br_zy_drain(zygote *z)
{
    for (;;) {
        struct pollfd pf = { z->fd, POLLIN, 0 };
        if (poll(&pf, 1, 0) <= 0) return 0;
        zmsg m;
        if (recv_msg(z->fd, &m, NULL, NULL) != 1) return -1;
        if (m.type == Z_EXITED) record_exit(z, &m);
    }
}

int br_zy_wait_exit(zygote *z, int k, int ms)
{
    worker *w = &z->iso->w[k];
    int64_t until = br_now_ns() + (int64_t)ms * 1000000;
    while (!w->exited) {
        struct pollfd pf = { z->fd, POLLIN, 0 };
        int left = (int)((until - br_now_ns()) / 1000000);
        if (left <= 0) return -1;
        int r = poll(&pf, 1, left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        if (br_zy_drain(z) != 0 && !w->exited) return -1;
    }
    return w->exit_status;
}

void br_zy_stop(zygote *z)
{
    if (z == NULL) return;
    close(z->fd);
    int64_t until = br_now_ns() + exit_grace_ns() + 1000000000;
    int st;
    while (waitpid(z->pid, &st, WNOHANG) == 0) {
        if (br_now_ns() > until) { kill(z->pid, SIGKILL); waitpid(z->pid, &st, 0); break; }
        usleep(1000);
    }
    free(z);
}
