/* util.c - small runner helpers: bump pool, data arena, text buffer, atomic file writes, clock. */
/* MAP_ANONYMOUS, MAP_NORESERVE, sigaltstack: not in plain POSIX 2008 */
#define _DEFAULT_SOURCE
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- shared memory ----
 * The case set lives in MAP_SHARED mappings: fork copies no page tables for
 * them, so forking a worker stays cheap however many cases are loaded. The
 * mapping's size sits in a header before the block. */
#define SHARED_HDR 64

static void *shared_map(size_t n, int extra_flags)
{
    if (n > SIZE_MAX - SHARED_HDR) return NULL;
    size_t sz = n + SHARED_HDR;
    char *m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | extra_flags, -1, 0);
    if (m == MAP_FAILED) return NULL;
    memcpy(m, &sz, sizeof sz);
    return m + SHARED_HDR;
}

void *br_shared_alloc(size_t n) { return shared_map(n, 0); }

void *br_shared_alloc_populated(size_t n) { return shared_map(n, MAP_POPULATE); }

void br_shared_free(void *p)
{
    if (p == NULL) return;
    char *m = (char *)p - SHARED_HDR;
    size_t sz;
    memcpy(&sz, m, sizeof sz);
    munmap(m, sz);
}

void *br_shared_realloc(void *p, size_t old, size_t n)
{
    void *q = br_shared_alloc(n);
    if (q == NULL) return NULL;
    if (p != NULL) {
        memcpy(q, p, old < n ? old : n);
        br_shared_free(p);
    }
    return q;
}

#define POOL_CHUNK ((size_t)1 << 20)

void *br_pool_alloc(br_pool *p, size_t n)
{
    n = (n + 15u) & ~(size_t)15u;
    if (p->cur == NULL || (size_t)(p->end - p->cur) < n) {
        size_t sz = n > POOL_CHUNK ? n : POOL_CHUNK;
        char *c = br_shared_alloc_populated(sz);   /* filled front to back: map its pages in one call */
        if (c == NULL) return NULL;
        if (p->nchunks == p->capchunks) {
            size_t nc = p->capchunks ? p->capchunks * 2 : 16;
            void **v = realloc(p->chunks, nc * sizeof *v);
            if (v == NULL) { free(c); return NULL; }
            p->chunks = v; p->capchunks = nc;
        }
        p->chunks[p->nchunks++] = c;
        p->cur = c; p->end = c + sz;
    }
    void *r = p->cur;   /* fresh mapped pages are zero, and the pool never hands a byte out twice */
    p->cur += n;
    return r;
}

void br_pool_free(br_pool *p)
{
    for (size_t i = 0; i < p->nchunks; i++) br_shared_free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

int br_pool_adopt(br_pool *dst, br_pool *src)
{
    size_t need = dst->nchunks + src->nchunks;
    if (src->nchunks == 0) return 0;
    if (need > dst->capchunks) {
        void **v = realloc(dst->chunks, need * sizeof *v);
        if (v == NULL) return -1;
        dst->chunks = v; dst->capchunks = need;
    }
    memcpy(dst->chunks + dst->nchunks, src->chunks, src->nchunks * sizeof *src->chunks);
    dst->nchunks = need;
    if (dst->cur == NULL) { dst->cur = src->cur; dst->end = src->end; }
    free(src->chunks);
    memset(src, 0, sizeof *src);
    return 0;
}

int br_arena_adopt(br_arena *dst, br_arena *src)
{
    size_t need = dst->n + src->n;
    if (src->n == 0) return 0;
    if (need > dst->cap) {
        br_chunk *v = realloc(dst->chunks, need * sizeof *v);
        if (v == NULL) return -1;
        dst->chunks = v; dst->cap = need;
    }
    memcpy(dst->chunks + dst->n, src->chunks, src->n * sizeof *src->chunks);
    dst->n = need;
    free(src->chunks);
    memset(src, 0, sizeof *src);
    return 0;
}

#define ARENA_CHUNK ((size_t)16 << 20)

void *br_arena_alloc(br_arena *a, size_t n)
{
    size_t need = (n + 63u) & ~(size_t)63u;
    if (need < n) return NULL;
    br_chunk *c = a->n ? &a->chunks[a->n - 1] : NULL;
    if (c == NULL || c->size - c->used < need) {
        size_t sz = need > ARENA_CHUNK ? need : ARENA_CHUNK;
        long pg = sysconf(_SC_PAGESIZE);
        size_t page = pg > 0 ? (size_t)pg : 4096u;
        sz = (sz + page - 1) / page * page;
        if (a->n == a->cap) {
            size_t nc = a->cap ? a->cap * 2 : 8;
            br_chunk *v = realloc(a->chunks, nc * sizeof *v);
            if (v == NULL) return NULL;
            a->chunks = v; a->cap = nc;
        }
        void *m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        c = &a->chunks[a->n++];
        c->base = m; c->size = sz; c->used = 0;
    }
    void *r = c->base + c->used;   /* fresh anonymous pages are already zero */
    c->used += need;
    return r;
}

int br_arena_protect(br_arena *a, int prot)
{
    for (size_t i = 0; i < a->n; i++)
        if (mprotect(a->chunks[i].base, a->chunks[i].size, prot) != 0) return -1;
    return 0;
}

int br_arena_contains(const br_arena *a, uintptr_t addr)
{
    for (size_t i = 0; i < a->n; i++) {
        uintptr_t b = (uintptr_t)a->chunks[i].base;
        if (addr >= b && addr - b < a->chunks[i].size) return 1;
    }
    return 0;
}

void br_arena_free(br_arena *a)
{
    for (size_t i = 0; i < a->n; i++) munmap(a->chunks[i].base, a->chunks[i].size);
    free(a->chunks);
    memset(a, 0, sizeof *a);
}

static void buf_reserve(br_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->len + extra + 1) nc *= 2;
    char *s = realloc(b->s, nc);
    if (s == NULL) { fputs("bcast-run: out of memory\n", stderr); exit(2); }
    b->s = s; b->cap = nc;
}

void br_buf_put(br_buf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void br_buf_puts(br_buf *b, const char *s) { br_buf_put(b, s, strlen(s)); }

void br_buf_printf(br_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) { br_buf_put(b, tmp, (size_t)n); return; }
    buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void br_buf_free(br_buf *b) { free(b->s); memset(b, 0, sizeof *b); }

/* A crash between write and rename leaves the old file intact: readers never
 * see half a report. */
int br_outfile_open(br_outfile *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    size_t pl = strlen(path);
    f->path = malloc(pl + 1);
    f->tmp = malloc(pl + 5);
    if (f->path == NULL || f->tmp == NULL) { free(f->path); free(f->tmp); errno = ENOMEM; return -1; }
    memcpy(f->path, path, pl + 1);
    memcpy(f->tmp, path, pl);
    memcpy(f->tmp + pl, ".tmp", 5);
    f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f->fd < 0) {
        int e = errno;
        free(f->path); free(f->tmp);
        f->path = f->tmp = NULL;
        errno = e;
        return -1;
    }
    return 0;
}

int br_outfile_commit(br_outfile *f, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(f->fd, data + off, len - off);
        if (w < 0) { if (errno == EINTR) continue; goto fail; }
        off += (size_t)w;
    }
    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS) goto fail;
    if (close(f->fd) != 0) { f->fd = -1; goto fail; }
    f->fd = -1;
    if (rename(f->tmp, f->path) != 0) goto fail;
    free(f->path); free(f->tmp);
    f->path = f->tmp = NULL;
    return 0;
fail: {
        int e = errno;
        br_outfile_abort(f);
        errno = e;
    }
    return -1;
}

void br_outfile_abort(br_outfile *f)
{
    if (f->fd >= 0) close(f->fd);
    if (f->tmp != NULL) unlink(f->tmp);
    free(f->path); free(f->tmp);
    f->path = f->tmp = NULL;
    f->fd = -1;
}

int br_write_atomic(const char *path, const char *data, size_t len)
{
    br_outfile f;
    if (br_outfile_open(&f, path) != 0) return -1;
    return br_outfile_commit(&f, data, len);
}

char *br_read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) { close(fd); return NULL; }
    if (S_ISDIR(st.st_mode)) { close(fd); errno = EISDIR; return NULL; }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
    char *b = malloc(cap);
    if (b == NULL) { close(fd); return NULL; }
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(b, cap * 2);
            if (nb == NULL) { free(b); close(fd); errno = ENOMEM; return NULL; }
            b = nb; cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n - 1);
        if (r < 0) { if (errno == EINTR) continue; int e = errno; free(b); close(fd); errno = e; return NULL; }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    b[n] = '\0';
    *len = n;
    return b;
}

char *br_read_file_shared(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) { close(fd); return NULL; }
    if (S_ISDIR(st.st_mode)) { close(fd); errno = EISDIR; return NULL; }
    /* room for the NUL and one byte more, so that the read that sees the end finds room */
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 2 : 4096, n = 0;
    char *b = br_shared_alloc_populated(cap);   /* read() writes every page */
    if (b == NULL) { close(fd); errno = ENOMEM; return NULL; }
    for (;;) {
        if (n + 1 >= cap) {   /* the file grew since fstat */
            char *nb = br_shared_realloc(b, cap, cap * 2);
            if (nb == NULL) { br_shared_free(b); close(fd); errno = ENOMEM; return NULL; }
            b = nb; cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n - 1);
        if (r < 0) { if (errno == EINTR) continue; int e = errno; br_shared_free(b); close(fd); errno = e; return NULL; }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    b[n] = '\0';
    *len = n;
    return b;
}

int64_t br_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int br_mul_i64(int64_t a, int64_t b, int64_t *out)
{
    if (a == 0 || b == 0) { *out = 0; return 0; }
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
              : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b)) return -1;
    *out = a * b;
    return 0;
}

int br_add_i64(int64_t a, int64_t b, int64_t *out)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return -1;
    *out = a + b;
    return 0;
}

uint64_t br_fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= BR_FNV_PRIME; }
    return h;
}

uint64_t br_fingerprint(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = BR_FNV_BASIS ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * BR_FNV_PRIME;
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ p[i]) * BR_FNV_PRIME;
    return h;
}

/* Whether the space-separated list holds word (tags, rules). */
int br_has_word(const char *list, const char *word)
{
    size_t wl = strlen(word);
    const char *s = list;
    while (*s) {
        while (*s == ' ') s++;
        const char *e = s;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - s) == wl && memcmp(s, word, wl) == 0) return 1;
        s = e;
    }
    return 0;
}
