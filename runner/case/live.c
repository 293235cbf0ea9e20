/* live.c - case slots and bytes reserved in shared memory before the workers fork, filled and rewound while they run. */
#include "case/live.h"

#include <string.h>

int br_live_init(br_live *lv, br_caseset *cs, size_t slots, size_t bytes)
{
    memset(lv, 0, sizeof *lv);
    size_t need = cs->n + cs->live + slots;
    if (need > cs->cap) {
        /* the case array is shared memory; grow it now, while nothing has forked */
        br_case *v = br_shared_realloc(cs->cases, cs->cap * sizeof *v, need * sizeof *v);
        if (v == NULL) return -1;
        cs->cases = v;
        cs->cap = need;
    }
    lv->cs = cs;
    lv->first = cs->n + cs->live;
    lv->cap = slots;
    cs->live += slots;
    lv->mem = br_arena_alloc(&cs->data, bytes ? bytes : 64);
    if (lv->mem == NULL) return -1;
    lv->expect = br_arena_alloc(&cs->data, slots * BR_MAX_EXPECT * sizeof *lv->expect);
    if (lv->expect == NULL) return -1;
    lv->size = bytes;
    return 0;
}

void *br_live_alloc(br_live *lv, size_t n)
{
    size_t at = (lv->used + 63u) & ~(size_t)63u, need = (n + 63u) & ~(size_t)63u;
    if (need < n || at > lv->size || need > lv->size - at) return NULL;
    char *p = lv->mem + at;
    lv->used = at + need;
    memset(p, 0, n);
    return p;
}

const char *br_live_str(br_live *lv, const char *s)
{
    size_t n = strlen(s) + 1;
    /* strings need no alignment: pack them */
    if (n > lv->size - lv->used) return NULL;
    char *p = lv->mem + lv->used;
    memcpy(p, s, n);
    lv->used += n;
    return p;
}

br_case *br_live_add(br_live *lv, size_t *index)
{
    if (lv->n >= lv->cap) return NULL;
    *index = lv->first + lv->n;
    br_case *c = &lv->cs->cases[*index];
    lv->n++;
    memset(c, 0, sizeof *c);
    c->id = c->suite = c->tags = c->rules = c->source = c->file = "";
    c->target_rank = -1;
    c->expect = &lv->expect[(*index - lv->first) * BR_MAX_EXPECT];
    memset(c->expect, 0, BR_MAX_EXPECT * sizeof *c->expect);
    return c;
}

void br_live_drop_last(br_live *lv)
{
    if (lv->n > 0) lv->n--;
}

void br_live_rewind(br_live *lv)
{
    lv->n = 0;
    lv->used = 0;
}

size_t br_live_room(const br_live *lv)
{
    return lv->size - lv->used;
}
