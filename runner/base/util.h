/* util.h - small runner helpers: bump pool, data arena, text buffer, atomic file writes, clock. */
#ifndef BR_UTIL_H
#define BR_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

/* Zeroed blocks in MAP_SHARED anonymous memory (fork copies no page tables
 * for them): the case set lives there. NULL when out of memory. */
void *br_shared_alloc(size_t n);
/* br_shared_alloc for a block about to be written whole: its pages are mapped in one call
 * (MAP_POPULATE) instead of one page fault each. */
void *br_shared_alloc_populated(size_t n);
void *br_shared_realloc(void *p, size_t old, size_t n);
void br_shared_free(void *p);

/* Bump allocator (in shared memory) for many small, case-lifetime objects (shapes, arg arrays):
 * no per-value malloc, everything freed at once. */
typedef struct br_pool {
    char *cur, *end;
    void **chunks;
    size_t nchunks, capchunks;
} br_pool;

void *br_pool_alloc(br_pool *p, size_t n);   /* 16-aligned, zeroed; NULL only when out of memory */
void br_pool_free(br_pool *p);
/* Takes src's chunks into dst (freed with dst; dst keeps allocating where it
 * was); src is left empty. 0, or -1 when out of memory (nothing moved). */
int br_pool_adopt(br_pool *dst, br_pool *src);

/* Arena for element data (inputs and expected values). Chunks are mmap'd so
 * that a worker can make all of them read-only with one mprotect per chunk. */
typedef struct br_chunk { char *base; size_t size, used; } br_chunk;
typedef struct br_arena {
    br_chunk *chunks;
    size_t n, cap;
} br_arena;

void *br_arena_alloc(br_arena *a, size_t n);  /* 64-aligned, zeroed; NULL when out of memory */
int br_arena_protect(br_arena *a, int prot);  /* mprotect every chunk; 0 on success */
int br_arena_contains(const br_arena *a, uintptr_t addr);
void br_arena_free(br_arena *a);
/* Takes src's chunks into dst (after dst's own); src is left empty. 0, or -1
 * when out of memory (nothing moved). */
int br_arena_adopt(br_arena *dst, br_arena *src);

/* Growable NUL-terminated text. */
typedef struct br_buf { char *s; size_t len, cap; } br_buf;
void br_buf_printf(br_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void br_buf_put(br_buf *b, const char *s, size_t n);
void br_buf_puts(br_buf *b, const char *s);
void br_buf_free(br_buf *b);

/* Writes data to path atomically: path.tmp, fsync, rename. 0 on success;
 * otherwise -1 with errno set. */
int br_write_atomic(const char *path, const char *data, size_t len);

/* The same in two steps, so that an unwritable path is found before a long
 * run, not after it: open creates path.tmp now (0, or -1 with errno); commit
 * writes, fsyncs and renames it over path; abort removes it. */
typedef struct br_outfile { char *path, *tmp; int fd; } br_outfile;
int br_outfile_open(br_outfile *f, const char *path);
int br_outfile_commit(br_outfile *f, const char *data, size_t len);
void br_outfile_abort(br_outfile *f);

/* Reads a whole file into a NUL-terminated malloc'd buffer. NULL with errno on failure. */
char *br_read_file(const char *path, size_t *len);
/* The same into a br_shared_alloc'd buffer (free it with br_shared_free). */
char *br_read_file_shared(const char *path, size_t *len);

int64_t br_now_ns(void);    /* CLOCK_MONOTONIC, comparable across processes */

/* Checked int64 arithmetic: 0 on success, -1 on overflow. */
int br_mul_i64(int64_t a, int64_t b, int64_t *out);
int br_add_i64(int64_t a, int64_t b, int64_t *out);

/* 64-bit FNV-1a over bytes, continuing from h (start with BR_FNV_BASIS). */
#define BR_FNV_BASIS 0xcbf29ce484222325ull
#define BR_FNV_PRIME 0x100000001b3ull
uint64_t br_fnv1a64(uint64_t h, const void *data, size_t n);

/* Whether the space-separated list (a case's tags or rules) holds word. */
int br_has_word(const char *list, const char *word);

/* A fast fingerprint of n bytes (FNV-style, eight bytes a step): detects a
 * target's write into an input (isolate.c); not the format's digest. */
uint64_t br_fingerprint(const void *data, size_t n);

#endif
