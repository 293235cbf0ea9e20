/* pipe.c - the pipe target: a library in any language, behind a bridge process speaking docs/pipe-protocol.md. */
/* socketpair, MSG_NOSIGNAL, kill, setpgid: POSIX 2008 with the default extensions */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bcast_ref.h"
#include "bcast_target.h"

#define LINE_MAX_BYTES (1u << 20)  /* a reply line longer than this is a protocol error */
#define HANDSHAKE_LINES 64

/* One bridge per worker process: started by init(), replaced only by the
 * worker's own replacement (see bridge_lost). */
static struct {
    char *cmd;
    char *shell_cmd;          /* what sh -c runs: cmd, or "exec cmd" (see simple_command) */
    pid_t pid;
    int fd;
    char *in;                 /* received bytes not consumed yet: in[pos..len) */
    size_t pos, len, cap;
    char *out;                /* the request being built */
    size_t olen, ocap;
    int broken;               /* the bridge said its library is no longer usable: restart it */
} B = { NULL, NULL, -1, -1, NULL, 0, 0, 0, NULL, 0, 0, 0 };

static char bridge_name[128] = "pipe", bridge_version[128] = "?";

static int pipe_init(const char *arg);
static int pipe_run(const bct_call *call);

/* Filled from the bridge's handshake in init(); the runner reads it after init
 * returns (docs/target-abi.md, Initialisation). Until then it claims nothing. */
static bct_target descriptor = {
    .abi_version = BCT_ABI_VERSION, .name = bridge_name, .version = bridge_version,
    .profile = BCT_PROFILE_NUMPY, .ops = 0, .dtypes = 0, .max_rank = 0, .flags = 0,
    .init = pipe_init, .run = pipe_run,
};

/* ---- the bridge process ---- */

/* Whether cmd is one simple command, which sh may replace itself with (exec):
 * then the bridge is the worker's own child and PR_SET_PDEATHSIG reaches it.
 * A compound command keeps sh in between; its bridge must exit on end of input
 * (see docs/pipe-protocol.md). */
static int simple_command(const char *cmd)
{
    static const char *const keywords[] = { "if", "for", "while", "until", "case", "exec", "!", NULL };
    if (strpbrk(cmd, ";&|(){}\n") != NULL) return 0;
    while (*cmd == ' ' || *cmd == '\t') cmd++;
    size_t n = strcspn(cmd, " \t");
    for (int i = 0; keywords[i] != NULL; i++)
        if (strlen(keywords[i]) == n && strncmp(cmd, keywords[i], n) == 0) return 0;
    return n > 0 && memchr(cmd, '=', n) == NULL;   /* exec VAR=value cmd would run "VAR=value" */
}

/* Forks `sh -c CMD` with stdin and stdout on one end of a socketpair. The child
 * dies with the worker (PR_SET_PDEATHSIG), so a runner timeout, which SIGKILLs
 * the worker, also ends a hung bridge; its own process group keeps a terminal's
 * Ctrl-C for the runner to handle. Returns 0, or -1 with errno set. */
static int spawn_bridge(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return -1;
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        close(sv[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        setpgid(0, 0);
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0) _exit(127);
        /* the worker's pipes to the runner are none of the bridge's business */
        long maxfd = sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 65536); fd++) close(fd);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execl("/bin/sh", "sh", "-c", B.shell_cmd, (char *)NULL);
        _exit(127);
    }
    close(sv[1]);
    B.pid = pid;
    B.fd = sv[0];
    B.pos = B.len = 0;
    return 0;
}

/* The bridge died, or broke the protocol, during a case. The worker mirrors its
 * fate so the runner records the case as a crash (the library crashed, not the
 * adapter) and replaces the worker, whose init() starts a fresh bridge: a dying
 * bridge costs one case. A bridge killed by signal S kills the worker with S;
 * one that exited kills it with SIGABRT; the reason goes to stderr (visible
 * with BCAST_RUN_WORKER_STDERR=1) and into the case's message buffer. */
static _Noreturn void bridge_lost(const bct_call *call, const char *what)
{
    int status = 0, sig = SIGABRT;
    char why[256];
    pid_t r = 0;
    for (int i = 0; i < 100 && r == 0; i++) {   /* give a dying bridge 1 s to be reaped */
        r = waitpid(B.pid, &status, WNOHANG);
        if (r == 0) {
            struct timespec ts = { 0, 10000000 };
            nanosleep(&ts, NULL);
        }
    }
    if (r == 0) {
        kill(B.pid, SIGKILL);
        waitpid(B.pid, &status, 0);
        snprintf(why, sizeof why, "bridge died: %s (it was still running; killed)", what);
    } else if (r > 0 && WIFSIGNALED(status)) {
        sig = WTERMSIG(status);
        snprintf(why, sizeof why, "bridge died: %s (killed by signal %d)", what, sig);
    } else if (r > 0 && WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 32) {
        sig = WEXITSTATUS(status) - 128;   /* sh -c ran the bridge as its child: 128+N is signal N */
        snprintf(why, sizeof why, "bridge died: %s (its shell reported signal %d)", what, sig);
    } else if (r > 0 && WIFEXITED(status)) {
        snprintf(why, sizeof why, "bridge died: %s (exited with status %d)", what, WEXITSTATUS(status));
    } else {
        snprintf(why, sizeof why, "bridge died: %s", what);
    }
    if (call != NULL && call->message != NULL && call->message_cap > 0)
        snprintf(call->message, call->message_cap, "%s", why);
    fprintf(stderr, "bcast pipe target (%s): %s\n", B.cmd ? B.cmd : "?", why);
    fflush(stderr);
    signal(sig, SIG_DFL);
    raise(sig);
    signal(SIGABRT, SIG_DFL);
    abort();
}

/* The bridge's `fatal` reply: its last words, what its library said before
 * it dies. They go to stderr as "the library said: TEXT", the line the runner
 * names the crash by (runner/judge/message_norm.h, br_telling_line). */
static _Noreturn void bridge_said(const bct_call *call, const char *text)
{
    fprintf(stderr, "bcast pipe target (%s): the library said: %.1000s\n", B.cmd ? B.cmd : "?", text);
    bridge_lost(call, "it reported a fatal error");
}

/* ---- bytes in and out ---- */

static int out_reserve(size_t n)
{
    if (B.ocap - B.olen >= n) return 0;
    size_t cap = B.ocap ? B.ocap : 4096;
    while (cap - B.olen < n) {
        if (cap > SIZE_MAX / 2) return -1;
        cap *= 2;
    }
    char *p = realloc(B.out, cap);
    if (p == NULL) return -1;
    B.out = p;
    B.ocap = cap;
    return 0;
}

static int out_bytes(const void *p, size_t n)
{
    if (out_reserve(n) != 0) return -1;
    if (n) memcpy(B.out + B.olen, p, n);
    B.olen += n;
    return 0;
}

static int out_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int out_printf(const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) return -1;
    return out_bytes(tmp, (size_t)n);
}

/* A shape as the case format writes it: (2,3), (5,), (). */
static int out_shape(int rank, const int64_t *v)
{
    if (out_bytes("(", 1) != 0) return -1;
    for (int d = 0; d < rank; d++)
        if (out_printf(d ? ",%lld" : "%lld", (long long)v[d]) != 0) return -1;
    return out_bytes(rank == 1 ? ",)" : ")", rank == 1 ? 2 : 1);
}

static int send_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(B.fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Reads more bytes into B.in. Returns 0, or -1 on EOF or error. */
static int fill(void)
{
    if (B.pos > 0 && B.pos == B.len) B.pos = B.len = 0;
    if (B.cap - B.len < 65536) {
        if (B.pos > 0) {
            memmove(B.in, B.in + B.pos, B.len - B.pos);
            B.len -= B.pos;
            B.pos = 0;
        }
        if (B.cap - B.len < 65536) {
            size_t cap = B.cap ? B.cap * 2 : 131072;
            char *p = realloc(B.in, cap);
            if (p == NULL) return -1;
            B.in = p;
            B.cap = cap;
        }
    }
    for (;;) {
        ssize_t r = read(B.fd, B.in + B.len, B.cap - B.len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        B.len += (size_t)r;
        return 0;
    }
}

/* The next line, without its newline, NUL-terminated in place (valid until the
 * next read). Returns NULL on EOF or a line over LINE_MAX_BYTES (*toolong). */
static char *read_line(int *toolong)
{
    *toolong = 0;
    size_t scanned = B.pos;
    for (;;) {
        char *nl = B.len > scanned ? memchr(B.in + scanned, '\n', B.len - scanned) : NULL;
        if (nl != NULL) {
            char *line = B.in + B.pos;
            *nl = '\0';
            B.pos = (size_t)(nl - B.in) + 1;
            return line;
        }
        scanned = B.len - B.pos;
        if (scanned > LINE_MAX_BYTES) { *toolong = 1; return NULL; }
        if (fill() != 0) return NULL;
        scanned += B.pos;
    }
}

/* Copies exactly n payload bytes to dst (NULL: discards them). -1 on EOF. */
static int read_exact(char *dst, size_t n)
{
    while (n > 0) {
        if (B.pos == B.len && fill() != 0) return -1;
        size_t k = B.len - B.pos < n ? B.len - B.pos : n;
        if (dst != NULL) {
            memcpy(dst, B.in + B.pos, k);
            dst += k;
        }
        B.pos += k;
        n -= k;
    }
    return 0;
}

/* ---- the handshake ---- */

/* Reads `bcast-pipe 1`, the capability lines and `ready` into the descriptor.
 * Returns 0, or -1 with a message in err. */
static int handshake(char *err, size_t cap)
{
    int toolong, seen_ready = 0;
    char *line = read_line(&toolong);
    if (line == NULL || strcmp(line, "bcast-pipe 1") != 0) {
        snprintf(err, cap, "expected the greeting 'bcast-pipe 1', got %s",
                 line == NULL ? "end of output (did the command start?)" : line);
        return -1;
    }
    for (int n = 0; n < HANDSHAKE_LINES && !seen_ready; n++) {
        line = read_line(&toolong);
        if (line == NULL) {
            snprintf(err, cap, "the bridge stopped before 'ready'");
            return -1;
        }
        char *sp = strchr(line, ' ');
        char *rest = sp ? sp + 1 : line + strlen(line);
        if (sp) *sp = '\0';
        if (strcmp(line, "ready") == 0) seen_ready = 1;
        else if (strcmp(line, "fail") == 0) {
            snprintf(err, cap, "the bridge cannot start: %s", rest);
            return -1;
        } else if (strcmp(line, "name") == 0) snprintf(bridge_name, sizeof bridge_name, "%s", rest);
        else if (strcmp(line, "version") == 0) snprintf(bridge_version, sizeof bridge_version, "%s", rest);
        else if (strcmp(line, "profile") == 0) {
            int p = bc_profile_from_name(rest);
            if (p < 0) { snprintf(err, cap, "unknown profile '%s'", rest); return -1; }
            descriptor.profile = p;
        } else if (strcmp(line, "max_rank") == 0) {
            char *end;
            long v = strtol(rest, &end, 10);
            if (*rest == '\0' || *end != '\0' || v < 0 || v > 1000000) {
                snprintf(err, cap, "bad max_rank '%s'", rest);
                return -1;
            }
            descriptor.max_rank = (int)v;
        } else if (strcmp(line, "ops") == 0 || strcmp(line, "dtypes") == 0 || strcmp(line, "flags") == 0 ||
                   strcmp(line, "grad_ops") == 0) {
            for (char *tok = strtok(rest, " "); tok != NULL; tok = strtok(NULL, " ")) {
                int v;
                if (line[0] == 'g') {   /* grad_ops: the ops whose gradients the bridge returns */
                    if ((v = bc_op_from_name(tok)) < 0) { snprintf(err, cap, "unknown op '%s'", tok); return -1; }
                    descriptor.grad_ops |= UINT64_C(1) << v;
                } else if (line[0] == 'o') {
                    if ((v = bc_op_from_name(tok)) < 0) { snprintf(err, cap, "unknown op '%s'", tok); return -1; }
                    descriptor.ops |= UINT64_C(1) << v;
                } else if (line[0] == 'd') {
                    if ((v = bc_dtype_from_name(tok)) < 0 || v >= BCT_DTYPE_COUNT) {
                        snprintf(err, cap, "unknown dtype '%s'", tok);
                        return -1;
                    }
                    descriptor.dtypes |= UINT32_C(1) << v;
                } else if (strcmp(tok, "strided") == 0) descriptor.flags |= BCT_CAP_STRIDED;
                else if (strcmp(tok, "inplace") == 0) descriptor.flags |= BCT_CAP_INPLACE;
                else if (strcmp(tok, "out") == 0) descriptor.flags |= BCT_CAP_OUT;
                else if (strcmp(tok, "compiles") == 0) descriptor.flags |= BCT_CAP_COMPILES;
                else if (strcmp(tok, "weak") == 0) descriptor.flags |= BCT_CAP_WEAK_SCALAR;   /* B34 */
                else if (strcmp(tok, "gradforms") == 0) descriptor.flags |= BCT_CAP_GRAD_FORMS;   /* B46 */
                else { snprintf(err, cap, "unknown flag '%s'", tok); return -1; }
            }
        } else {
            snprintf(err, cap, "unknown handshake line '%s'", line);
            return -1;
        }
    }
    if (!seen_ready) {
        snprintf(err, cap, "no 'ready' within %d handshake lines", HANDSHAKE_LINES);
        return -1;
    }
    return 0;
}

/* Starts the bridge given as --target-arg (a shell command) and fills the
 * descriptor from its handshake. Nonzero: no command, or the bridge did not
 * start or announce itself; the reason goes to stderr. */
static int pipe_init(const char *arg)
{
    char err[512];
    const uint16_t probe = 1;
    unsigned char lo;
    memcpy(&lo, &probe, 1);
    if (lo != 1) {
        snprintf(err, sizeof err, "the protocol's data is little-endian; this machine is not");
        goto fail;
    }
    if (arg == NULL || arg[0] == '\0') {
        snprintf(err, sizeof err, "no bridge command: give it with --target-arg 'COMMAND'");
        goto fail;
    }
    free(B.cmd);
    free(B.shell_cmd);
    B.cmd = strdup(arg);
    B.shell_cmd = malloc(strlen(arg) + 6);
    if (B.cmd != NULL && B.shell_cmd != NULL)
        snprintf(B.shell_cmd, strlen(arg) + 6, "%s%s", simple_command(arg) ? "exec " : "", arg);
    if (B.cmd == NULL || B.shell_cmd == NULL || spawn_bridge() != 0) {
        snprintf(err, sizeof err, "cannot start '%s': %s", arg, strerror(errno));
        goto fail;
    }
    descriptor.ops = 0;
    descriptor.grad_ops = 0;
    descriptor.dtypes = 0;
    descriptor.flags = 0;
    descriptor.max_rank = 0;
    if (handshake(err, sizeof err) != 0) {
        kill(B.pid, SIGKILL);
        waitpid(B.pid, NULL, 0);
        close(B.fd);
        B.fd = -1;
        goto fail;
    }
    return 0;
fail:
    fprintf(stderr, "bcast pipe target: %s\n", err);
    return 1;
}

/* ---- one case ---- */

/* The storage span an operand addresses, in elements: [*lo, *lo + *n). *n is 0
 * for a zero-size operand. The runner's reader has checked that the view lies
 * inside its storage, so the products below cannot overflow. */
static void span(const bct_array *a, int64_t *lo, int64_t *n)
{
    int64_t min = a->offset, max = a->offset;
    for (int d = 0; d < a->rank; d++) {
        if (a->shape[d] == 0) { *lo = 0; *n = 0; return; }
        int64_t reach = (a->shape[d] - 1) * a->strides[d];
        if (reach < 0) min += reach;
        else max += reach;
    }
    *lo = min;
    *n = max - min + 1;
}

static int build_request(const bct_call *call)
{
    static const char *modes[] = { "value", "inplace", "out", "grad" };
    /* B46: only a bridge announcing `gradforms` is sent a grad-inplace/grad-out case */
    const char *mode = call->mode != BCT_MODE_GRAD || call->grad_form == BCT_GRAD_VALUE ? modes[call->mode]
                     : call->grad_form == BCT_GRAD_INPLACE ? "grad-inplace" : "grad-out";
    B.olen = 0;
    if (out_printf("case %s %s %s %d %lld ", bc_op_name(call->op), mode,
                   bc_profile_name(call->profile), call->nargs, (long long)call->axis) != 0)
        return -1;
    if (call->op == BCT_BROADCAST_TO || call->op == BCT_EXPAND) {
        if (out_shape(call->target_rank, call->target_shape) != 0) return -1;
    } else if (out_bytes("-", 1) != 0) return -1;
    if (out_bytes("\n", 1) != 0) return -1;
    for (int i = 0; i < call->nargs; i++) {
        const bct_array *a = &call->args[i];
        if (a->dtype == BCT_NONE) {
            if (out_printf("arg - ") != 0 || out_shape(a->rank, a->shape) != 0 || out_printf(" - 0 0\n") != 0)
                return -1;
            continue;
        }
        int64_t lo, n;
        span(a, &lo, &n);
        size_t es = (size_t)bc_dtype_size(a->dtype);
        /* B34: a weak scalar goes as weak-int/-float/-bool, with its 0-d i64/f64/bool bytes */
        const char *weak = a->dtype == BCT_I64 ? "weak-int" : a->dtype == BCT_F64 ? "weak-float" : "weak-bool";
        int is_weak = i < 32 && (call->weak_args & (1u << i));
        if (out_printf("arg %s ", is_weak ? weak : bc_dtype_name(a->dtype)) != 0 || out_shape(a->rank, a->shape) != 0 ||
            out_bytes(" ", 1) != 0 || out_shape(a->rank, a->strides) != 0 ||
            out_printf(" %lld %lld\n", (long long)(n ? a->offset - lo : 0), (long long)n * (long long)es) != 0 ||
            out_bytes((const char *)a->data + (size_t)lo * es, (size_t)n * es) != 0)
            return -1;
    }
    return 0;
}

/* Parses "(2,3)" / "(5,)" / "()" into rank and shape. -1 if malformed. */
static int parse_shape(const char *s, int *rank, int64_t *shape)
{
    if (*s++ != '(') return -1;
    int r = 0;
    while (*s != ')') {
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (end == s || errno != 0 || v < 0 || r >= BC_MAX_RANK) return -1;
        shape[r++] = (int64_t)v;
        s = end;
        if (*s == ',') s++;
        else if (*s != ')') return -1;
    }
    if (s[1] != '\0') return -1;
    *rank = r;
    return 0;
}

/* Writes n C-order elements from src through a's strides (self or out). */
static void scatter(const bct_array *a, const char *src, int64_t n)
{
    size_t es = (size_t)bc_dtype_size(a->dtype);
    int64_t idx[BC_MAX_RANK] = { 0 }, off = a->offset;
    char *base = a->data;
    for (int64_t i = 0; i < n; i++) {
        memcpy(base + off * (int64_t)es, src + (size_t)i * es, es);
        for (int d = a->rank - 1; d >= 0; d--) {
            if (++idx[d] < a->shape[d]) { off += a->strides[d]; break; }
            idx[d] = 0;
            off -= a->strides[d] * (a->shape[d] - 1);
        }
    }
}

static int same_shape(int rank, const int64_t *shape, const bct_array *a)
{
    if (rank != a->rank) return 0;
    for (int d = 0; d < rank; d++)
        if (shape[d] != a->shape[d]) return 0;
    return 1;
}

/* Element count of a reply shape; -1 when it overflows. */
static int64_t count(int rank, const int64_t *shape)
{
    for (int d = 0; d < rank; d++)
        if (shape[d] == 0) return 0;   /* empty, however large the other extents */
    int64_t n = 1;
    for (int d = 0; d < rank; d++) {
        if (n > INT64_MAX / shape[d]) return -1;
        n *= shape[d];
    }
    return n;
}

/* Grad mode: after `grads N`, N gradients `grad INDEX DTYPE SHAPE NBYTES` +
 * bytes, each handed to alloc_grad for input INDEX as the bridge gave it (the
 * runner judges which inputs should have one, and their shapes). */
static int read_grads(const bct_call *call, const char *text)
{
    char *end, what[200];
    long n = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || n < 0 || n > call->nargs) {
        snprintf(what, sizeof what, "malformed 'grads %.40s'", text);
        bridge_lost(call, what);
    }
    for (long i = 0; i < n; i++) {
        int toolong, rank, k;
        int64_t shape[BC_MAX_RANK];
        char dt[32], shp[4096];
        long long nbytes;
        char *line = read_line(&toolong);
        if (line == NULL) bridge_lost(call, toolong ? "reply line too long" : "reply cut short inside grads");
        if (sscanf(line, "grad %d %31s %4095s %lld", &k, dt, shp, &nbytes) != 4 || parse_shape(shp, &rank, shape) != 0 ||
            nbytes < 0 || k < 0 || k >= call->nargs - 1) {
            snprintf(what, sizeof what, "malformed gradient line '%.60s'", line);
            bridge_lost(call, what);
        }
        int dtype = bc_dtype_from_name(dt);
        int64_t cnt = count(rank, shape);
        if (dtype < 0 || dtype >= BCT_DTYPE_COUNT || cnt < 0 || cnt > INT64_MAX / bc_dtype_size(dtype) ||
            cnt * bc_dtype_size(dtype) != nbytes) {
            snprintf(what, sizeof what, "gradient '%.60s': byte count does not match dtype and shape", line);
            bridge_lost(call, what);
        }
        void *dst = call->alloc_grad(call->ctx, k, dtype, rank, shape);
        if (read_exact((char *)dst, (size_t)nbytes) != 0) bridge_lost(call, "gradient data cut short");
        if (dst == NULL) {
            snprintf(call->message, call->message_cap, "the runner refused a gradient of %s %s for input %d", dt, shp, k);
            for (long j = i + 1; j < n; j++) {   /* drain the rest of the reply */
                if ((line = read_line(&toolong)) == NULL || sscanf(line, "grad %*d %*s %*s %lld", &nbytes) != 1 ||
                    nbytes < 0 || read_exact(NULL, (size_t)nbytes) != 0)
                    bridge_lost(call, "malformed gradient while draining");
            }
            return BCT_ERR_OTHER;
        }
    }
    return BCT_OK;
}

/* Whether line is `broken [REASON]`: the bridge's library is no longer usable;
 * the reply follows, and the bridge is restarted before the next case. */
static int broken_line(const char *line)
{
    if (strncmp(line, "broken", 6) != 0 || (line[6] != ' ' && line[6] != '\0')) return 0;
    fprintf(stderr, "bcast pipe target: the bridge says its library is no longer usable (%.200s); "
            "restarting it before the next case\n", line[6] ? line + 7 : "no reason given");
    B.broken = 1;
    return 1;
}

/* Reads one reply. `ok` results go to alloc_output (value mode, or an out= the
 * library resized) or through self's/out's strides; `wrote` (before an error)
 * puts back what a failed in-place op left in self, so B22 is judged on the
 * library's behaviour; `fatal TEXT` (the bridge is about to die: TEXT is what
 * its library said) goes to stderr, where the runner names the crash by it.
 * A malformed reply is the bridge's fault: bridge_lost. */
static int read_reply(const bct_call *call)
{
    int toolong, rank;
    int64_t shape[BC_MAX_RANK];
    char what[200];
    const bct_array *w = call->mode == BCT_MODE_INPLACE ? &call->args[0]
                       : call->mode == BCT_MODE_OUT ? &call->args[call->nargs - 1] : NULL;
    for (;;) {
        char *line = read_line(&toolong);
        if (line == NULL) bridge_lost(call, toolong ? "reply line too long" : "no reply to the case");
        if (broken_line(line)) continue;
        if (strncmp(line, "error ", 6) == 0) {
            char *cls = line + 6, *msg = strchr(cls, ' ');
            if (msg != NULL) *msg++ = '\0';
            int st = bc_status_from_name(cls);
            if (st <= BCT_OK) {
                snprintf(what, sizeof what, "unknown error class in '%.60s'", cls);
                bridge_lost(call, what);
            }
            snprintf(call->message, call->message_cap, "%s", msg ? msg : "");
            return st;
        }
        if (strncmp(line, "fatal ", 6) == 0) bridge_said(call, line + 6);
        if (call->mode == BCT_MODE_GRAD && strncmp(line, "grads ", 6) == 0) return read_grads(call, line + 6);
        char dt[32], shp[4096];
        long long nbytes;
        int wrote = strncmp(line, "wrote ", 6) == 0;
        int ok = strncmp(line, "ok ", 3) == 0;
        if (!wrote && !ok) {
            snprintf(what, sizeof what, "garbage reply '%.60s'", line);
            bridge_lost(call, what);
        }
        if (sscanf(line + (ok ? 3 : 6), "%31s %4095s %lld", dt, shp, &nbytes) != 3 ||
            parse_shape(shp, &rank, shape) != 0 || nbytes < 0) {
            snprintf(what, sizeof what, "malformed reply '%.60s'", line);
            bridge_lost(call, what);
        }
        int shape_only = strcmp(dt, "-") == 0;
        int dtype = shape_only ? BCT_NONE : bc_dtype_from_name(dt);
        int64_t n = count(rank, shape);
        if (!shape_only && dtype < 0) {   /* e.g. float16: the library's answer, not a protocol error */
            if (read_exact(NULL, (size_t)nbytes) != 0) bridge_lost(call, "reply data cut short");
            snprintf(call->message, call->message_cap, "the library's result dtype %s is none of bcast's", dt);
            return BCT_ERR_OTHER;
        }
        int64_t es = shape_only ? 0 : bc_dtype_size(dtype);
        /* a shape-only result may name more elements than int64 counts (B16) */
        if (shape_only ? nbytes != 0 : n < 0 || n > INT64_MAX / es || n * es != nbytes) {
            snprintf(what, sizeof what, "reply '%.60s': byte count does not match dtype and shape", line);
            bridge_lost(call, what);
        }
        if (wrote || (ok && w != NULL && dtype == w->dtype && same_shape(rank, shape, w))) {
            if (w == NULL || dtype != w->dtype || !same_shape(rank, shape, w)) {
                snprintf(what, sizeof what, "'wrote' must give self's/out's dtype and shape");
                bridge_lost(call, what);
            }
            char *tmp = malloc(nbytes ? (size_t)nbytes : 1);
            if (tmp == NULL || read_exact(tmp, (size_t)nbytes) != 0) bridge_lost(call, "reply data cut short");
            scatter(w, tmp, n);
            free(tmp);
            if (ok) return BCT_OK;
            continue;   /* the error line follows */
        }
        if (call->mode == BCT_MODE_INPLACE) {
            /* self cannot change shape or dtype: the adapter's honest answer */
            if (read_exact(NULL, (size_t)nbytes) != 0) bridge_lost(call, "reply data cut short");
            snprintf(call->message, call->message_cap, "in-place result is %s %s, self is another shape or dtype", dt, shp);
            return BCT_ERR_OTHER;
        }
        void *dst = call->alloc_output(call->ctx, dtype, rank, shape);
        if (read_exact((char *)dst, (size_t)nbytes) != 0)
            bridge_lost(call, "reply data cut short");
        if (dst == NULL) {
            snprintf(call->message, call->message_cap, "the runner refused an output of %s %s", dt, shp);
            return BCT_ERR_OTHER;
        }
        return BCT_OK;
    }
}

/* Ends the bridge that said `broken` and starts a new one from the same
 * command: the next case sees a fresh library. A bridge that cannot be
 * restarted costs this case (bridge_lost). */
static void restart_bridge(const bct_call *call)
{
    close(B.fd);
    B.fd = -1;
    kill(B.pid, SIGKILL);
    waitpid(B.pid, NULL, 0);
    B.broken = 0;
    char err[512];
    if (spawn_bridge() != 0) bridge_lost(call, "it said broken and could not be restarted");
    if (handshake(err, sizeof err) != 0) {
        char what[600];
        snprintf(what, sizeof what, "it said broken and its restart failed: %s", err);
        bridge_lost(call, what);
    }
}

static int pipe_run(const bct_call *call)
{
    if (B.broken) restart_bridge(call);
    if (B.fd < 0) {
        snprintf(call->message, call->message_cap, "no bridge (init failed)");
        return BCT_ERR_OTHER;
    }
    if (build_request(call) != 0) {
        snprintf(call->message, call->message_cap, "pipe target: out of memory building the request");
        return BCT_ERR_OTHER;
    }
    if (send_all(B.out, B.olen) != 0) bridge_lost(call, "it stopped reading its input");
    return read_reply(call);
}

const bct_target *bcast_target_v1(void);

/* Not part of the target ABI: tells bcast-run that this is bcast's own pipe
 * target, whose library reads the copy of each input that pipe.so sends to
 * the bridge, in the bridge's process, never the runner's guarded memory. So
 * --guard both makes one call per case here, not two (docs/runner.md). */
extern const int bcast_pipe_copies_inputs;
const int bcast_pipe_copies_inputs = 1;

const bct_target *bcast_target_v1(void)
{
    return &descriptor;
}
