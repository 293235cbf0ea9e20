/* rng.c - xoshiro256** seeded by splitmix64: integer arithmetic only, so a seed gives the same stream everywhere. */
#include "base/rng.h"

uint64_t br_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void br_rng_seed(br_rng *r, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < 4; i++) r->s[i] = br_splitmix64(&st);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0) r->s[0] = 1;   /* xoshiro's one bad state */
}

uint64_t br_rng_case_seed(uint64_t seed, uint64_t index)
{
    uint64_t a = seed, b = index ^ 0x6a09e667f3bcc908ull;
    return br_splitmix64(&a) ^ br_splitmix64(&b);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t br_rng_next(br_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* 64x64 -> 128-bit product, high and low halves, in portable C. */
static void mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    *lo = (mid << 32) | (ll & 0xffffffffu);
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

uint64_t br_rng_below(br_rng *r, uint64_t n)
{
    uint64_t hi, lo;
    mul128(br_rng_next(r), n, &hi, &lo);
    if (lo < n) {
        uint64_t thresh = (0 - n) % n;
        while (lo < thresh) mul128(br_rng_next(r), n, &hi, &lo);
    }
    return hi;
}

int64_t br_rng_range(br_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span == UINT64_MAX) return (int64_t)br_rng_next(r);
    return (int64_t)((uint64_t)lo + br_rng_below(r, span + 1));
}

int br_rng_chance(br_rng *r, uint32_t num, uint32_t den)
{
    return br_rng_below(r, den) < num;
}

int br_rng_pick(br_rng *r, const uint32_t *w, int n)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++) total += w[i];
    if (total == 0) return 0;
    uint64_t x = br_rng_below(r, total);
    for (int i = 0; i < n; i++) {
        if (x < w[i]) return i;
        x -= w[i];
    }
    return n - 1;
}
