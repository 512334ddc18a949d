/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the static test tools share (scripts/tools/mmap_lat.c,
 * scripts/bench/study/kvstore.c): the clock, a xorshift generator, and a
 * log-linear latency histogram with 16 linear steps per power of two, so
 * that a percentile is within 1/16 of the true value. Header-only: each
 * tool is one C file built static by the Makefile.
 */
#ifndef VFLASH_TOOLKIT_H
#define VFLASH_TOOLKIT_H

#include <stdint.h>
#include <time.h>

#define SUB_SHIFT	4
#define BUCKETS		(64 << SUB_SHIFT)

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* The histogram bucket of @v. */
static inline unsigned int bucket(uint64_t v)
{
	unsigned int msb;

	if (v < (1U << SUB_SHIFT))
		return v;
	msb = 63 - __builtin_clzll(v);
	return ((msb - SUB_SHIFT + 1) << SUB_SHIFT) |
	       ((v >> (msb - SUB_SHIFT)) & ((1U << SUB_SHIFT) - 1));
}

/* The smallest value that falls in bucket @b. */
static inline uint64_t bucket_floor(unsigned int b)
{
	unsigned int e = b >> SUB_SHIFT, m = b & ((1U << SUB_SHIFT) - 1);

	if (!e)
		return m;
	return (uint64_t)((1U << SUB_SHIFT) | m) << (e - 1);
}

/* The @q quantile (0..1) of the @total values counted in @hist; 0 if none. */
static inline uint64_t percentile(const uint64_t *hist, uint64_t total,
				  double q)
{
	uint64_t want = (uint64_t)(q * total), seen = 0;
	unsigned int b;

	if (!total)
		return 0;
	if (want >= total)
		want = total - 1;
	for (b = 0; b < BUCKETS; b++) {
		seen += hist[b];
		if (seen > want)
			return bucket_floor(b);
	}
	return 0;
}

#endif /* VFLASH_TOOLKIT_H */
