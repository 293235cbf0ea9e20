/* feature_stats.c - discriminating features of a group of failures: vocabulary, per-record bitsets, the greedy choice (docs/findings.md). */
#include "results/feature_stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB 256
#define WORDS (VOCAB / 64)

typedef struct fmask { uint64_t w[WORDS]; } fmask;

struct br_fstats {
    char vocab[VOCAB][32];
    unsigned char vlen[VOCAB];   /* strlen of each vocab word: the lookup runs once per word per record */
    int nvocab;
    fmask *mask;          /* per record */
    unsigned char *ran;   /* per record: 1 ran and passed, 2 ran and failed, 0 did not run */
    size_t n;
};

static int has(const fmask *m, int f) { return (int)((m->w[f / 64] >> (f % 64)) & 1u); }

static int word_id(br_fstats *s, const char *w, size_t len)
{
    if (len == 0 || len >= sizeof s->vocab[0]) return -1;
    for (int i = 0; i < s->nvocab; i++) if (s->vlen[i] == len && memcmp(s->vocab[i], w, len) == 0) return i;
    if (s->nvocab == VOCAB) return -1;
    memcpy(s->vocab[s->nvocab], w, len);
    s->vocab[s->nvocab][len] = '\0';
    s->vlen[s->nvocab] = (unsigned char)len;
    return s->nvocab++;
}

br_fstats *br_fstats_build(const br_report *rep)
{
    br_fstats *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->n = rep->n;
    s->mask = calloc(rep->n ? rep->n : 1, sizeof *s->mask);
    s->ran = calloc(rep->n ? rep->n : 1, 1);
    if (s->mask == NULL || s->ran == NULL) { br_fstats_free(s); return NULL; }
    for (size_t i = 0; i < rep->n; i++) {
        const br_rec *x = &rep->recs[i];
        if (!x->probed && x->outcome != BR_O_SKIP) s->ran[i] = x->outcome == BR_O_PASS ? 1 : 2;
        for (const char *p = x->features; *p;) {
            while (*p == ' ') p++;
            size_t len = strcspn(p, " ");
            int f = word_id(s, p, len);
            if (f >= 0) s->mask[i].w[f / 64] |= (uint64_t)1 << (f % 64);
            p += len;
        }
    }
    return s;
}

void br_fstats_free(br_fstats *s)
{
    if (s == NULL) return;
    free(s->mask);
    free(s->ran);
    free(s);
}

/* How much more often the considered cases with f are in the group than
 * those without: P(group | f) - P(group | not f), over the group and the
 * cases that passed (other failures are left out: another family's cases
 * must not make a feature look telling), restricted to the cases whose
 * mask includes `within`. */
static double lift(const br_fstats *s, int f, const fmask *within, const unsigned char *member)
{
    size_t with = 0, with_bad = 0, without = 0, without_bad = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!s->ran[i] || (s->ran[i] == 2 && !member[i])) continue;
        int inside = 1;
        for (int k = 0; k < WORDS && inside; k++) inside = (s->mask[i].w[k] & within->w[k]) == within->w[k];
        if (!inside) continue;
        if (has(&s->mask[i], f)) { with++; with_bad += member[i]; }
        else { without++; without_bad += member[i]; }
    }
    /* a feature every considered case has (or none has) tells nothing apart */
    if (with == 0 || without == 0) return 0;
    return (double)with_bad / (double)with - (double)without_bad / (double)without;
}

double br_fstats_explain(const br_fstats *s, const size_t *recs, size_t n, int max, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (s == NULL || n == 0) return 0;
    int cand[VOCAB], nc = 0;
    for (int f = 0; f < s->nvocab; f++) {   /* the features (nearly) all of the group have */
        size_t have = 0;
        for (size_t i = 0; i < n; i++) have += (size_t)has(&s->mask[recs[i]], f);
        if (have * 100 >= n * 95) cand[nc++] = f;
    }
    unsigned char *member = calloc(s->n ? s->n : 1, 1);
    if (member == NULL) return 0;
    double first_lift = 0;
    for (size_t i = 0; i < n; i++) member[recs[i]] = 1;
    fmask within;
    memset(&within, 0, sizeof within);
    size_t o = 0;
    for (int step = 0; step < max; step++) {
        int best = -1;
        double best_lift = step == 0 ? 0.25 : 0.5;   /* a second feature must matter a lot */
        for (int c = 0; c < nc; c++) {
            if (cand[c] < 0 || has(&within, cand[c])) continue;
            double l = lift(s, cand[c], &within, member);
            if (l > best_lift + 1e-12) { best_lift = l; best = cand[c]; }
        }
        if (best < 0) break;
        if (step == 0) first_lift = best_lift;
        within.w[best / 64] |= (uint64_t)1 << (best % 64);
        if (o + strlen(s->vocab[best]) + 2 < cap) o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? " " : "", s->vocab[best]);
    }
    free(member);
    return first_lift;
}
