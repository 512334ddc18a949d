// SPDX-License-Identifier: GPL-2.0
/* Prefetch policies: after a demand miss, which pages to load as well. */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "policy/builtin.h"

/* How many pages a policy may propose after this miss. */
static u32 budget(u32 degree, u32 max)
{
	return min3(degree, max, (u32)VFLASH_PREFETCH_MAX);
}

/* none: demand misses only. */
static u32 none_predict(void *st, u64 stream, u64 lpn, u32 degree,
			u64 nr_pages, u64 *out, u32 max)
{
	return 0;
}

/* next-n: the @degree pages after the missed one, within the device. */
static u32 next_n_predict(void *st, u64 stream, u64 lpn, u32 degree,
			  u64 nr_pages, u64 *out, u32 max)
{
	u32 n = budget(degree, max), i;

	for (i = 0; i < n && lpn + 1 + i < nr_pages; i++)
		out[i] = lpn + 1 + i;
	return i;
}

/*
 * stride: two equal non-zero deltas in a row arm the detector. It moves the
 * stream's frontier to the last page it proposed, so the next miss of a
 * stream the prefetches kept up with is again one stride away; a miss on a
 * page it proposed keeps it armed.
 */
#define STRIDE_STREAMS	16
#define STRIDE_CONF_MAX	3

/**
 * struct stride_stream - what the detector knows of one access stream
 * @stream: its key
 * @last: last demand miss, or last page proposed
 * @miss: last demand miss
 * @stride: last delta between demand misses, in pages
 * @used: when the stream last missed (the instance's @tick), 0 if the
 *	entry is free
 * @conf: how many times in a row @stride repeated (saturating)
 */
struct stride_stream {
	u64 stream;
	u64 last;
	u64 miss;
	s64 stride;
	u64 used;
	u8 conf;
};

/**
 * struct stride_state - an instance of the stride policy
 * @lock: protects @streams and @tick
 * @streams: the streams seen last; a new stream replaces the one that
 *	missed least recently
 * @tick: counts misses, to order the streams
 */
struct stride_state {
	/* protects streams[] and tick */
	spinlock_t lock;
	struct stride_stream streams[STRIDE_STREAMS];
	u64 tick;
};

static bool stride_proposed(const struct stride_stream *e, u64 lpn)
{
	s64 k = (s64)(lpn - e->miss), ahead = (s64)(e->last - e->miss);

	if (!e->conf || !e->stride || k % e->stride)
		return false;
	k /= e->stride;
	return k > 0 && k <= ahead / e->stride;
}

static struct stride_stream *stride_lookup(struct stride_state *s, u64 stream,
					   u64 lpn, bool *found)
{
	struct stride_stream *e, *lru = &s->streams[0];

	for (e = s->streams; e < s->streams + STRIDE_STREAMS; e++) {
		if (e->used && e->stream == stream) {
			*found = true;
			e->used = ++s->tick;
			return e;
		}
		if (e->used < lru->used)
			lru = e;
	}
	*found = false;
	*lru = (struct stride_stream){
		.stream = stream, .last = lpn, .miss = lpn, .used = ++s->tick,
	};
	return lru;
}

static void *stride_alloc(gfp_t gfp)
{
	struct stride_state *s = kzalloc(sizeof(*s), gfp);

	if (s)
		spin_lock_init(&s->lock);
	return s;
}

static void stride_free(void *st)
{
	kfree(st);
}

static u32 stride_predict(void *st, u64 stream, u64 lpn, u32 degree,
			  u64 nr_pages, u64 *out, u32 max)
{
	struct stride_state *s = st;
	struct stride_stream *e;
	u32 n = budget(degree, max), i = 0;
	bool found;
	s64 delta;

	spin_lock(&s->lock);
	e = stride_lookup(s, stream, lpn, &found);
	if (!found)
		goto out;
	delta = (s64)(lpn - e->last);
	if (stride_proposed(e, lpn))
		delta = e->stride;
	e->last = lpn;
	e->miss = lpn;
	if (!delta || delta != e->stride) {
		e->stride = delta;
		e->conf = 0;
		goto out;
	}
	if (e->conf < STRIDE_CONF_MAX)
		e->conf++;
	for (; i < n; i++) {
		u64 next = lpn + (u64)(delta * (s64)(i + 1));

		/* Stop at either end of the device (unsigned wrap included). */
		if (next >= nr_pages)
			break;
		out[i] = next;
	}
	if (i)
		e->last = out[i - 1];
out:
	spin_unlock(&s->lock);
	return i;
}

static const struct vflash_prefetch_ops none_ops = {
	.predict = none_predict,
	.demand_only = true,
};

static const struct vflash_prefetch_ops next_n_ops = {
	.predict = next_n_predict,
};

static const struct vflash_prefetch_ops stride_ops = {
	.alloc = stride_alloc, .free = stride_free, .predict = stride_predict,
};

struct vflash_policy vflash_prefetch_policies[VFLASH_NR_PREFETCH_POLICIES] = {
	{ .name = "none", .kind = VFLASH_POLICY_PREFETCH, .ops = &none_ops },
	{ .name = "next-n", .kind = VFLASH_POLICY_PREFETCH,
	  .ops = &next_n_ops },
	{ .name = "stride", .kind = VFLASH_POLICY_PREFETCH,
	  .ops = &stride_ops },
};
