/* rng.h - the explorer's pseudo-random numbers: xoshiro256** seeded by splitmix64, the same stream on every machine. */
#ifndef BR_RNG_H
#define BR_RNG_H

#include <stdint.h>

typedef struct br_rng { uint64_t s[4]; } br_rng;

/* One step of splitmix64 on *state (Steele, Lea, Flood 2014): a good 64-bit
 * mix, used to seed xoshiro and to derive per-case seeds. */
uint64_t br_splitmix64(uint64_t *state);

/* Seeds r from a 64-bit seed (four splitmix64 outputs, never all zero). */
void br_rng_seed(br_rng *r, uint64_t seed);

/* The seed of case `index` of the stream `seed`: cases are generated from
 * their own seed, so any case (and any shard's cases) can be rebuilt alone. */
uint64_t br_rng_case_seed(uint64_t seed, uint64_t index);

/* xoshiro256** (Blackman, Vigna 2018): the next 64 random bits. */
uint64_t br_rng_next(br_rng *r);

/* Uniform in [0, n) (n > 0), by Lemire's multiply-and-reject: no modulo bias. */
uint64_t br_rng_below(br_rng *r, uint64_t n);

/* Uniform in [lo, hi] (lo <= hi). */
int64_t br_rng_range(br_rng *r, int64_t lo, int64_t hi);

/* 1 with probability num/den. */
int br_rng_chance(br_rng *r, uint32_t num, uint32_t den);

/* An index drawn by weights w[0..n) (not all zero). */
int br_rng_pick(br_rng *r, const uint32_t *w, int n);

#endif
