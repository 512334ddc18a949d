// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the device DRAM cache (backend_flash/cache/): the
 * per-page state machine, slots and watermarks, eviction with unmap and
 * writeback, sampling, prefetch, and concurrent misses. A fake user
 * records unmaps and supplies the Accessed bits and, where the test wants
 * it, a clock that a wait simply advances.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "backend_flash/cache/cache.h"
#include "backend_flash/cache/ctl.h"
#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/compat.h"
#include "policy/sets.h"

#define PAGES		256
#define MAX_UNMAPS	512

struct fake {
	struct vflash_flash *f;
	struct vflash_cache *c;
	/* The device's side of its cache, as a device embeds it. */
	struct vflash_cache_ctl ctl;
	bool ctl_set;
	u64 now;
	u64 unmapped[MAX_UNMAPS];
	u32 nr_unmapped;
	u32 kicks;
	DECLARE_BITMAP(young, PAGES);
	/* Race tests: run once at the probe point (then cleared). */
	void (*probe)(struct fake *fk, u64 lpn);
	/* Race tests: run once in the next kick (then cleared). */
	void (*in_kick)(struct fake *fk);
	/* Race tests: run once in the next wait (then cleared). */
	void (*in_wait)(struct fake *fk);
	/* Race tests: run once when the sampler asks about a page. */
	void (*in_young)(struct fake *fk, u64 lpn);
	bool waited_unset;
	u32 waits;
	/* Pages the sampler asked about, and how many times it asked. */
	DECLARE_BITMAP(asked, PAGES);
	u32 young_calls;
};

static void fake_unmap(void *priv, u64 lpn)
{
	struct fake *fk = priv;

	if (fk->nr_unmapped < MAX_UNMAPS)
		fk->unmapped[fk->nr_unmapped] = lpn;
	fk->nr_unmapped++;
}

/* The hot pages stay "accessed": the bit is set again at once. */
static bool fake_young(void *priv, u64 lpn)
{
	struct fake *fk = priv;
	void (*in_young)(struct fake *fk, u64 lpn) = fk->in_young;

	if (in_young) {
		fk->in_young = NULL;
		in_young(fk, lpn);
	}
	__set_bit(lpn, fk->asked);
	fk->young_calls++;
	return test_bit(lpn, fk->young);
}

static void fake_kick(void *priv)
{
	struct fake *fk = priv;
	void (*in_kick)(struct fake *fk) = fk->in_kick;

	fk->kicks++;
	if (in_kick) {
		fk->in_kick = NULL;
		in_kick(fk);
	}
}

static u64 fake_now(void *priv)
{
	return ((struct fake *)priv)->now;
}

static int fake_wait(void *priv, u64 deadline_ns)
{
	struct fake *fk = priv;
	void (*in_wait)(struct fake *fk) = fk->in_wait;

	fk->waits++;
	/* An unset deadline: noted, and the clock left alone. */
	if (deadline_ns == U64_MAX) {
		fk->waited_unset = true;
		return 0;
	}
	if (in_wait) {
		fk->in_wait = NULL;
		in_wait(fk);
	}
	fk->now = max(fk->now, deadline_ns);
	return 0;
}

static void fake_probe(void *priv, enum vflash_cache_probe where, u64 lpn)
{
	struct fake *fk = priv;
	void (*probe)(struct fake *fk, u64 lpn) = fk->probe;

	if (probe && where == VFLASH_PROBE_GET_WORD) {
		fk->probe = NULL;
		probe(fk, lpn);
	}
}

static const struct vflash_cache_host fake_host = {
	.unmap = fake_unmap, .test_clear_young = fake_young,
	.kick = fake_kick, .now_ns = fake_now, .wait_until = fake_wait,
	.probe = fake_probe,
};

/* The real clock and waits, for the concurrency test. */
static const struct vflash_cache_host real_host = {
	.unmap = fake_unmap,
};

static int fake_init(struct kunit *test)
{
	return vflash_policies_init();
}

/* Free the test's cache and device, so the test can make another. */
static void drop(struct kunit *test)
{
	struct fake *fk = test->priv;

	if (!fk)
		return;
	if (fk->ctl_set)
		vflash_cache_ctl_exit(&fk->ctl);
	vflash_cache_destroy(fk->c);
	if (fk->f && !IS_ERR(fk->f))
		vflash_flash_destroy(fk->f);
	test->priv = NULL;
}

static void fake_exit(struct kunit *test)
{
	drop(test);
	vflash_policies_exit();
}

/* Switch the cache's policy of @kind to @name. */
static int use(struct fake *fk, enum vflash_policy_kind kind, const char *name)
{
	const struct vflash_policy *pol = vflash_policy_find(kind, name);

	return kind == VFLASH_POLICY_EVICTION ?
		vflash_cache_set_eviction(fk->c, pol) :
		vflash_cache_set_prefetch(fk->c, pol);
}

/* A Z-NAND device of PAGES pages, all written, and a cache over it. */
static struct fake *mk(struct kunit *test, u32 nr_slots, u32 young,
		       const char *eviction, bool real_clock)
{
	struct fake *fk = kunit_kzalloc(test, sizeof(*fk), GFP_KERNEL);
	struct vflash_cache_params p = {
		.nr_pages = PAGES, .nr_slots = nr_slots, .young = young,
		.seed = 1, .host = real_clock ? &real_host : &fake_host,
	};

	KUNIT_ASSERT_NOT_NULL(test, fk);
	test->priv = fk;
	p.priv = fk;
	fk->f = vflash_flash_create(vflash_profile_find("znand"),
				    PAGES * VFLASH_LPAGE_SIZE);
	if (IS_ERR(fk->f)) {
		fk->f = NULL;
		KUNIT_FAIL_AND_ABORT(test, "flash_create failed");
	}
	fk->now = vflash_flash_submit(fk->f, VFLASH_IO_WRITE, 0, PAGES, 0);
	fk->now = vflash_flash_submit(fk->f, VFLASH_IO_FLUSH, 0, 0, fk->now);
	fk->now += 10 * NSEC_PER_MSEC;
	fk->c = vflash_cache_create(fk->f, &p);
	if (IS_ERR(fk->c)) {
		fk->c = NULL;
		KUNIT_FAIL_AND_ABORT(test, "cache_create failed");
	}
	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_EVICTION, eviction), 0);
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_init(&fk->ctl, 0), 0);
	fk->ctl_set = true;
	return fk;
}

/* Wait (5 to 10 s at most) until an evictor has taken @lpn: EVICTING. */
static void expect_evicting(struct kunit *test, struct fake *fk, u64 lpn)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (vflash_cache_page_state(fk->c, lpn) == VFLASH_PAGE_EVICTING)
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, lpn),
			(int)VFLASH_PAGE_EVICTING);
}

/* get + put; returns whether it was a miss. */
static bool touch(struct kunit *test, struct fake *fk, u64 lpn, bool write)
{
	struct vflash_cache_pin pin;

	KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, lpn, write, 1, &pin), 0);
	KUNIT_EXPECT_EQ(test, pin.lpn, lpn);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, lpn),
			(int)VFLASH_PAGE_RESIDENT);
	vflash_cache_put(fk->c, &pin);
	return pin.missed;
}

static u64 stat(struct fake *fk, enum vflash_cache_stat s)
{
	return vflash_cache_stat(fk->c, s);
}

static void miss_then_hit(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 2, "fifo", false);
	struct vflash_cache_pin pin;
	u64 before = fk->now;

	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 5),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, 5, false, 1, &pin), 0);
	KUNIT_EXPECT_TRUE(test, pin.missed);
	/* The wait is the backend's read: at least Z-NAND's 3 us tR. */
	KUNIT_EXPECT_GE(test, pin.waited_ns, 3000ULL);
	KUNIT_EXPECT_EQ(test, fk->now - before, pin.waited_ns);
	vflash_cache_put(fk->c, &pin);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(fk->f,
						VFLASH_STAT_NAND_READ_PAGES),
			1ULL);

	KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, 5, false, 1, &pin), 0);
	KUNIT_EXPECT_FALSE(test, pin.missed);
	KUNIT_EXPECT_EQ(test, pin.waited_ns, 0ULL);
	vflash_cache_put(fk->c, &pin);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 1ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 1U);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(fk->f,
						VFLASH_STAT_NAND_READ_PAGES),
			1ULL);
}

/*
 * A miss's NAND read arrives at the device when the access did
 * (vflash_cache_get_at()'s @now_ns, a fault's entry), not when vflash
 * got round to submitting it: the 2 us vflash spent first overlap the
 * modelled read, which then completes at arrival + the idle read.
 */
static void miss_is_submitted_at_its_arrival(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 2, "fifo", false);
	struct vflash_cache_pin pin;
	u64 t = fk->now, idle_read, arrival;

	/* What one read on an idle device takes, arriving now. */
	KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, 5, false, 1, &pin), 0);
	KUNIT_ASSERT_TRUE(test, pin.missed);
	idle_read = pin.due_ns - t;
	vflash_cache_put(fk->c, &pin);
	KUNIT_ASSERT_GT(test, idle_read, 2000ULL);

	fk->now += 10 * NSEC_PER_MSEC;	/* every die idle again */
	arrival = fk->now;
	fk->now += 2000;
	KUNIT_ASSERT_EQ(test, vflash_cache_get_at(fk->c, 9, false, 1, arrival,
						  &pin), 0);
	KUNIT_EXPECT_TRUE(test, pin.missed);
	KUNIT_EXPECT_EQ(test, pin.due_ns, arrival + idle_read);
	KUNIT_EXPECT_EQ(test, pin.waited_ns, idle_read - 2000);
	KUNIT_EXPECT_EQ(test, fk->now, arrival + idle_read);
	vflash_cache_put(fk->c, &pin);
}

static void full_cache_evicts_by_policy(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	u64 i;

	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, touch(test, fk, i, false));
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_free(fk->c), 0U);
	KUNIT_EXPECT_GT(test, fk->kicks, 0U);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 0U);
	/* No free slot: each miss evicts the oldest page itself. */
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 8, false));
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 9, false));
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 2U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 0ULL);
	KUNIT_EXPECT_EQ(test, fk->unmapped[1], 1ULL);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 0),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_EVICTIONS), 2ULL);
	/* Both in the misses' own faults: no evictor ran. */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRECT_EVICTIONS), 2ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_REFAULTS), 0ULL);
	/* Page 0 again: a refault. */
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 0, false));
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_REFAULTS), 1ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 11ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 8U);
}

/*
 * The two-page livelock: with lifo, the newest page is always the victim,
 * so an instruction needing pages A and B would evict each for the other
 * forever. The last `young` fills are never victims.
 */
static void young_fills_are_never_evicted(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 4, "lifo", false);
	u64 i, j;

	for (i = 0; i < 8; i++)
		touch(test, fk, i, false);
	for (i = 8; i < 100; i++) {
		u32 before = fk->nr_unmapped;

		KUNIT_EXPECT_TRUE(test, touch(test, fk, i, false));
		KUNIT_ASSERT_EQ(test, fk->nr_unmapped, before + 1);
		/* The victim is not among the 4 fills before this one. */
		for (j = i - 4; j < i; j++)
			KUNIT_EXPECT_NE(test, fk->unmapped[before], j);
		/* And the previous page is still resident: A and B both. */
		KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, i - 1),
				(int)VFLASH_PAGE_RESIDENT);
	}
}

/* mkwrite; returns its result, the pin released. */
static int mkwrite(struct fake *fk, u64 lpn)
{
	struct vflash_cache_pin pin;
	int ret = vflash_cache_mkwrite(fk->c, lpn, &pin);

	if (!ret)
		vflash_cache_put(fk->c, &pin);
	return ret;
}

static void dirty_pages_are_written_back(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	u64 writes = vflash_flash_stat(fk->f, VFLASH_STAT_HOST_WRITE_PAGES);
	u64 i;

	KUNIT_EXPECT_EQ(test, mkwrite(fk, 2), -EAGAIN);
	touch(test, fk, 0, true);		/* write miss */
	touch(test, fk, 1, false);
	touch(test, fk, 2, false);
	KUNIT_EXPECT_EQ(test, mkwrite(fk, 2), 0);	/* 1st write */
	for (i = 3; i < 12; i++)
		touch(test, fk, i, false);
	/* 0, 1, 2, 3 were evicted; two were dirty. */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_EVICTIONS), 4ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRTY_WRITEBACKS), 2ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(fk->f,
						VFLASH_STAT_HOST_WRITE_PAGES),
			writes + 2);
	KUNIT_EXPECT_EQ(test, mkwrite(fk, 2), -EAGAIN);
}

struct evictor {
	struct fake *fk;
	struct completion done;
};

static int evict_fn(void *data)
{
	struct evictor *e = data;

	vflash_cache_evict_one(e->fk->c);
	complete(&e->done);
	return 0;
}

/*
 * Regression: mkwrite returns with the page pinned, so an eviction cannot
 * unmap it between the dirty bit and the caller's writable PTE (which let
 * a refill of the page be written through a writable PTE uncounted).
 */
static void mkwrite_pins_against_eviction(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", true);
	struct vflash_cache_pin pin;
	struct evictor e = { .fk = fk };
	struct task_struct *t;
	int i;

	init_completion(&e.done);
	for (i = 0; i < 4; i++)
		touch(test, fk, i, false);
	/* Page 0 is fifo's victim. */
	KUNIT_ASSERT_EQ(test, vflash_cache_mkwrite(fk->c, 0, &pin), 0);
	t = kthread_run(evict_fn, &e, "vflash-test-evict");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	expect_evicting(test, fk, 0);
	/* Still pinned: the evictor waits before it unmaps. */
	msleep(20);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 0U);
	vflash_cache_put(fk->c, &pin);
	wait_for_completion(&e.done);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 0ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRTY_WRITEBACKS), 1ULL);
}

static void reclaim_to_the_high_watermark(struct kunit *test)
{
	struct fake *fk = mk(test, 40, 4, "fifo", false);
	u64 i;

	KUNIT_EXPECT_EQ(test, vflash_cache_set_watermarks(fk->c, 11, 10),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_cache_set_watermarks(fk->c, 1, 35),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, vflash_cache_set_watermarks(fk->c, 4, 10), 0);
	for (i = 0; i < 36; i++)
		touch(test, fk, i, false);
	KUNIT_EXPECT_EQ(test, fk->kicks, 0U);
	touch(test, fk, 36, false);		/* 3 free: below low */
	KUNIT_EXPECT_EQ(test, fk->kicks, 1U);
	KUNIT_EXPECT_EQ(test, vflash_cache_reclaim(fk->c), 7U);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_free(fk->c), 10U);
	KUNIT_EXPECT_EQ(test, vflash_cache_reclaim(fk->c), 0U);
	/* The pool serves the next misses without evicting. */
	for (i = 37; i < 40; i++)
		touch(test, fk, i, false);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_EVICTIONS), 7ULL);
	/* All seven by the evictor's reclaim, none in a miss. */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRECT_EVICTIONS), 0ULL);
}

/* Hot pages (Accessed bit always set) against a stream of cold ones. */
static u32 hot_resident_after_stream(struct kunit *test, const char *policy)
{
	struct fake *fk = mk(test, 20, 2, policy, false);
	u64 i;
	u32 n = 0;

	for (i = 0; i < 5; i++)
		__set_bit(i, fk->young);
	for (i = 0; i < 20; i++)
		touch(test, fk, i, false);
	/* The first sample after a fill is discarded: sample twice. */
	vflash_cache_sample(fk->c, U32_MAX);
	vflash_cache_sample(fk->c, U32_MAX);
	for (i = 20; i < 120; i++) {
		if (i % 5 == 0)
			vflash_cache_sample(fk->c, U32_MAX);
		touch(test, fk, i, false);
	}
	for (i = 0; i < 5; i++)
		n += vflash_cache_page_state(fk->c, i) == VFLASH_PAGE_RESIDENT;
	return n;
}

static void sampled_references_keep_hot_pages(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, hot_resident_after_stream(test, "clock"), 5U);
	drop(test);
	KUNIT_EXPECT_EQ(test, hot_resident_after_stream(test, "lru"), 5U);
	drop(test);
	/* Without references (fifo), the stream flushes them. */
	KUNIT_EXPECT_EQ(test, hot_resident_after_stream(test, "fifo"), 0U);
}

/*
 * Regression: the sampler looked at every slot each period, so its cost
 * grew with the cache (about a CPU at 16 GiB). A call now looks at no
 * more than its budget, and the hand goes on where the last call stopped:
 * every page is asked about once per sweep.
 */
static void sampler_cost_bounded_by_budget(struct kunit *test)
{
	struct fake *fk = mk(test, 20, 2, "clock", false);
	u32 calls;
	u64 i;

	for (i = 0; i < 20; i++)
		touch(test, fk, i, false);
	KUNIT_ASSERT_EQ(test, vflash_cache_resident(fk->c), 20U);
	KUNIT_EXPECT_EQ(test, vflash_cache_sample(fk->c, 6), 6U);
	KUNIT_EXPECT_EQ(test, fk->young_calls, 6U);
	KUNIT_EXPECT_EQ(test, bitmap_weight(fk->asked, PAGES), 6U);
	/* Three more calls finish the sweep, each page asked once. */
	for (calls = 1; calls < 4; calls++)
		vflash_cache_sample(fk->c, 6);
	KUNIT_EXPECT_EQ(test, bitmap_weight(fk->asked, PAGES), 20U);
	KUNIT_EXPECT_EQ(test, fk->young_calls, 20U + 4);
	/* A budget over the cache's size is one full sweep. */
	fk->young_calls = 0;
	KUNIT_EXPECT_EQ(test, vflash_cache_sample(fk->c, U32_MAX), 20U);
	KUNIT_EXPECT_EQ(test, fk->young_calls, 20U);
}

static void first_sample_is_discarded(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 0, "clock", false);
	u64 i;

	/*
	 * Pages 0-3 look accessed at the first sample; that is the faulting
	 * access itself, not a reference (else clock would pass over them).
	 */
	for (i = 0; i < 8; i++)
		touch(test, fk, i, false);
	bitmap_set(fk->young, 0, 4);
	vflash_cache_sample(fk->c, U32_MAX);
	bitmap_zero(fk->young, PAGES);
	vflash_cache_sample(fk->c, U32_MAX);
	/* So clock evicts in fifo order. */
	touch(test, fk, 8, false);
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 0ULL);
}

static void next_n_prefetch(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 2, "fifo", false);
	struct vflash_cache_pin pin;

	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "next-n"), 0);
	vflash_cache_set_prefetch_degree(fk->c, 2);
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 10, false));
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_PREFETCH_ISSUED), 2ULL);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 12),
			(int)VFLASH_PAGE_RESIDENT);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 13),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, 11, false, 1, &pin), 0);
	KUNIT_EXPECT_FALSE(test, pin.missed);
	vflash_cache_put(fk->c, &pin);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_PREFETCH_HITS), 1ULL);
	touch(test, fk, 11, false);	/* used already: no second hit */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_PREFETCH_HITS), 1ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 1ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(fk->f,
						VFLASH_STAT_NAND_READ_PAGES),
			3ULL);
}

/*
 * Regression: a demand miss took the pool's last free slots, so under a
 * scan larger than the cache (every slot the evictor freed taken by the
 * next miss) prefetch, which only takes free slots, never ran again. A
 * miss leaves min(degree, free_high) free slots to its prefetches and
 * evicts a page for itself instead.
 */
static void prefetch_gets_the_reserve(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	u64 i;

	KUNIT_ASSERT_EQ(test, vflash_cache_set_watermarks(fk->c, 1, 2), 0);
	for (i = 0; i < 6; i++)
		touch(test, fk, i, false);
	KUNIT_ASSERT_EQ(test, stat(fk, VFLASH_CACHE_EVICTIONS), 0ULL);
	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "next-n"), 0);
	vflash_cache_set_prefetch_degree(fk->c, 2);
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 20, false));
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_EVICTIONS), 1ULL);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 0),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_PREFETCH_ISSUED), 2ULL);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 21),
			(int)VFLASH_PAGE_RESIDENT);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 22),
			(int)VFLASH_PAGE_RESIDENT);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 8U);
}

static void switching_policy_keeps_pages(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	const struct vflash_policy *pf;
	u64 i;

	for (i = 0; i < 8; i++)
		touch(test, fk, i, false);
	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_EVICTION, "lru"), 0);
	/* A prefetch policy is no eviction policy. */
	pf = vflash_policy_default(VFLASH_POLICY_PREFETCH);
	KUNIT_EXPECT_EQ(test, vflash_cache_set_eviction(fk->c, pf), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 8U);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, i),
				(int)VFLASH_PAGE_RESIDENT);
	/* The old order carried over: the oldest page leaves first. */
	touch(test, fk, 8, false);
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 0ULL);
}

/*
 * A cache attached to its device: policy switches and knobs reach it,
 * an impossible watermark changes nothing, stats/ reads and resets it.
 */
static void attached_to_the_device(struct kunit *test)
{
	const enum vflash_cache_knob high = VFLASH_CACHE_KNOB_FREE_HIGH_PCT;
	const enum vflash_cache_stat misses = VFLASH_CACHE_MISSES;
	struct fake *fk = mk(test, 40, 20, "fifo", false);
	struct vflash_cache_ctl *ctl = &fk->ctl;
	const struct vflash_policy *lifo, *lru;
	u64 i;

	lifo = vflash_policy_find(VFLASH_POLICY_EVICTION, "lifo");
	lru = vflash_policy_find(VFLASH_POLICY_EVICTION, "lru");
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_attach(ctl, fk->c), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_attach(ctl, fk->c), -EBUSY);
	for (i = 0; i < 40; i++)
		touch(test, fk, i, false);
	/* Pages 20..39 are young; the policy holds 0..19, oldest first. */
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_set_policy(ctl, lifo), 0);
	KUNIT_EXPECT_PTR_EQ(test,
			    vflash_cache_ctl_policy(ctl, VFLASH_POLICY_EVICTION),
			    lifo);
	touch(test, fk, 40, false);
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 19ULL);
	/* 50 % free leaves no room for the 20 young slots: refused. */
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_set_knob(ctl, high, 50), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_knob(ctl, high), 3ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_set_knob(ctl, high, 10), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_stat(ctl, misses), 41ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_resident(ctl), 40ULL);
	vflash_cache_ctl_reset_stats(ctl);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_stat(ctl, misses), 0ULL);
	vflash_cache_ctl_detach(ctl);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_resident(ctl), 0ULL);
	/* Without a cache, a switch is only recorded. */
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_set_policy(ctl, lru), 0);
	/* The cache's kinds are the control's alone, not the flash model's. */
	KUNIT_EXPECT_EQ(test, vflash_flash_set_policy(fk->f, lru), -EINVAL);
	KUNIT_EXPECT_NULL(test,
			  vflash_flash_policy(fk->f, VFLASH_POLICY_EVICTION));
	KUNIT_EXPECT_PTR_EQ(test,
			    vflash_cache_ctl_policy(ctl, VFLASH_POLICY_EVICTION),
			    lru);
}

static void bad_shapes(struct kunit *test)
{
	struct vflash_cache_params p = {
		.nr_pages = PAGES, .nr_slots = 8, .young = 5,
	};

	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_cache_create(NULL, &p)),
			(long)-EINVAL);
	p.young = 0;
	p.nr_slots = PAGES + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_cache_create(NULL, &p)),
			(long)-EINVAL);
	p.nr_slots = 4;
	p.nr_pages = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_cache_create(NULL, &p)),
			(long)-EINVAL);
}

/* Several threads fault at once, on one page or on their own. */
struct racer {
	struct fake *fk;
	u64 lpn;
	struct completion *go;
	struct completion done;
	int ret;
	bool missed;
};

static int racer_fn(void *data)
{
	struct racer *r = data;
	struct vflash_cache_pin pin;

	wait_for_completion(r->go);
	r->ret = vflash_cache_get(r->fk->c, r->lpn, false, r->lpn, &pin);
	if (!r->ret) {
		r->missed = pin.missed;
		vflash_cache_put(r->fk->c, &pin);
	}
	complete(&r->done);
	return 0;
}

static u32 race(struct kunit *test, struct fake *fk, bool same_page)
{
	struct racer r[4];
	DECLARE_COMPLETION_ONSTACK(go);
	u32 i, missed = 0;

	for (i = 0; i < ARRAY_SIZE(r); i++) {
		r[i] = (struct racer){
			.fk = fk, .lpn = same_page ? 100 : 200 + i, .go = &go,
		};
		init_completion(&r[i].done);
		KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(racer_fn, &r[i],
							    "vflash-racer")));
	}
	complete_all(&go);
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		wait_for_completion(&r[i].done);
		KUNIT_EXPECT_EQ(test, r[i].ret, 0);
		missed += r[i].missed;
	}
	return missed;
}

static void concurrent_misses(struct kunit *test)
{
	struct fake *fk = mk(test, 32, 4, "fifo", true);

	/* One page: one NAND read, one miss, all four waited for it. */
	KUNIT_EXPECT_EQ(test, race(test, fk, true), 1U);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 1ULL);
	/* Four pages: four misses in parallel. */
	KUNIT_EXPECT_EQ(test, race(test, fk, false), 4U);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 5ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(fk->f,
						VFLASH_STAT_NAND_READ_PAGES),
			5ULL);
}

static void wait_until_reaches_the_deadline(struct kunit *test)
{
	u64 t0 = ktime_get_ns();

	KUNIT_EXPECT_EQ(test, vflash_cache_wait_until(t0 + 5000, 20000), 0);
	KUNIT_EXPECT_GE(test, ktime_get_ns(), t0 + 5000);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, vflash_cache_wait_until(t0 + 2000000, 20000), 0);
	KUNIT_EXPECT_GE(test, ktime_get_ns(), t0 + 2000000);
	/* A deadline in the past returns at once. */
	KUNIT_EXPECT_EQ(test, vflash_cache_wait_until(0, 20000), 0);
}

/* A kthread that runs one cache call, and what it returned. */
struct worker {
	struct fake *fk;
	u64 lpn;
	bool killable;
	int ret;
	bool missed;
	struct completion started;
	struct completion done;
};

static struct worker *worker_new(struct kunit *test, struct fake *fk, u64 lpn)
{
	struct worker *wk = kunit_kzalloc(test, sizeof(*wk), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, wk);
	wk->fk = fk;
	wk->lpn = lpn;
	init_completion(&wk->started);
	init_completion(&wk->done);
	return wk;
}

/* get + put of wk->lpn. */
static int get_fn(void *data)
{
	struct worker *wk = data;
	struct vflash_cache_pin pin;

	if (wk->killable)
		allow_signal(SIGKILL);
	complete(&wk->started);
	wk->ret = vflash_cache_get(wk->fk->c, wk->lpn, false, 7, &pin);
	if (!wk->ret) {
		wk->missed = pin.missed;
		vflash_cache_put(wk->fk->c, &pin);
	}
	complete(&wk->done);
	return 0;
}

static int evict_worker_fn(void *data)
{
	struct worker *wk = data;

	complete(&wk->started);
	vflash_cache_evict_one(wk->fk->c);
	complete(&wk->done);
	return 0;
}

/* Finish a miss on page 100 first: the kicked fill loses its claim. */
static void win_page_100(struct fake *fk)
{
	struct vflash_cache_pin pin;

	if (!vflash_cache_get(fk->c, 100, false, 1, &pin))
		vflash_cache_put(fk->c, &pin);
}

/*
 * Between the page word's read and the slot's: page 0 is evicted, and a
 * miss on page 100 takes its slot but loses the page to another miss on
 * it (which finishes first, from the pool-low kick between the slot's
 * claim and the page's): a fill that lost its claim.
 */
static void evict_and_lose_a_claim(struct fake *fk, u64 lpn)
{
	vflash_cache_evict_one(fk->c);
	fk->in_kick = win_page_100;
	win_page_100(fk);
}

/*
 * Regression: vflash_cache_get() read the slot of a page evicted since its
 * word was read, and waited for the deadline it found there; a fill that
 * had lost its claim on the slot had left it unset (U64_MAX: forever, on
 * the real clock). It must see the page gone first, never wait on an
 * unset deadline, and a lost claim must not leave one.
 */
static void get_never_waits_on_an_unset_deadline(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	struct vflash_cache_pin pin;
	int i, ret;

	for (i = 0; i < 8; i++)
		touch(test, fk, i, false);
	fk->probe = evict_and_lose_a_claim;
	ret = vflash_cache_get(fk->c, 0, false, 1, &pin);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, pin.missed);
	vflash_cache_put(fk->c, &pin);
	KUNIT_EXPECT_FALSE(test, fk->waited_unset);
	/* One miss each on 0 and 100 (the lost claim issued no read). */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 10ULL);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 0),
			(int)VFLASH_PAGE_RESIDENT);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 100),
			(int)VFLASH_PAGE_RESIDENT);
}

/*
 * Regression: a thread waiting for a page's eviction to finish slept
 * uninterruptibly; SIGKILL must get it out while the eviction is held up
 * (here by a mkwrite pin).
 */
static void killable_wait_for_an_eviction(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", true);
	struct worker *ev, *wk;
	struct vflash_cache_pin pin;
	struct task_struct *t;
	int i;

	for (i = 0; i < 4; i++)
		touch(test, fk, i, false);
	KUNIT_ASSERT_EQ(test, vflash_cache_mkwrite(fk->c, 0, &pin), 0);
	ev = worker_new(test, fk, 0);
	t = kthread_run(evict_worker_fn, ev, "vflash-test-evict");
	if (IS_ERR(t)) {
		vflash_cache_put(fk->c, &pin);
		KUNIT_FAIL_AND_ABORT(test, "kthread_run failed");
	}
	expect_evicting(test, fk, 0);
	wk = worker_new(test, fk, 0);
	wk->killable = true;
	t = kthread_run(get_fn, wk, "vflash-test-waiter");
	if (!IS_ERR(t)) {
		wait_for_completion(&wk->started);
		msleep(50);
		send_sig(SIGKILL, t, 1);
		/* Out well before the pin goes (a bound, not a timing). */
		for (i = 0; i < 200 && !completion_done(&wk->done); i++)
			usleep_range(10000, 20000);
		KUNIT_EXPECT_TRUE(test, completion_done(&wk->done));
	}
	vflash_cache_put(fk->c, &pin);
	wait_for_completion(&ev->done);
	if (!IS_ERR(t)) {
		wait_for_completion(&wk->done);
		KUNIT_EXPECT_EQ(test, wk->ret, -EINTR);
	}
}

/* The background evictor runs during the loader's NAND wait. */
static void evict_during_wait(struct fake *fk)
{
	vflash_cache_evict_one(fk->c);
}

/*
 * Regression: with lifo and next-n at a degree >= the young ring, the
 * prefetches pushed the loader's own fill out of the young ring into the
 * policy, as its newest page, and an eviction during the loader's NAND
 * wait took it: the loader missed again (on a busy cache, forever). The
 * loader's page must stay its own until it is mapped.
 */
static void lifo_next_n_keeps_the_loaders_page(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 2, "lifo", false);
	struct vflash_cache_pin pin;
	u64 i;

	for (i = 0; i < 13; i++)
		touch(test, fk, i, false);
	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "next-n"), 0);
	vflash_cache_set_prefetch_degree(fk->c, 8);
	fk->in_wait = evict_during_wait;
	fk->nr_unmapped = 0;
	KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, 100, false, 1, &pin), 0);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 100),
			(int)VFLASH_PAGE_RESIDENT);
	vflash_cache_put(fk->c, &pin);
	KUNIT_EXPECT_TRUE(test, pin.missed);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 14ULL);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_NE(test, fk->unmapped[0], 100ULL);
}

/*
 * Regression: vflash_cache_mkwrite() made a page writable whose NAND read
 * (a prefetch's) had not completed yet: a write hit on a page still being
 * loaded. It must refuse until the read is done.
 */
static void mkwrite_waits_for_the_read(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 2, "fifo", false);
	u64 t0;

	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "next-n"), 0);
	vflash_cache_set_prefetch_degree(fk->c, 4);
	t0 = fk->now;
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 10, false));
	KUNIT_ASSERT_EQ(test, (int)vflash_cache_page_state(fk->c, 14),
			(int)VFLASH_PAGE_RESIDENT);
	/* Back to the time of the miss: the prefetches are in flight. */
	fk->now = t0;
	KUNIT_EXPECT_EQ(test, mkwrite(fk, 14), -EAGAIN);
	fk->now = t0 + 10 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, mkwrite(fk, 14), 0);
}

/* Evicts the page the sampler asks about and loads it again. */
static int evict_refill_fn(void *data)
{
	struct worker *wk = data;
	struct vflash_cache_pin pin;

	complete(&wk->started);
	vflash_cache_evict_one(wk->fk->c);
	wk->ret = vflash_cache_get(wk->fk->c, wk->lpn, false, 7, &pin);
	if (!wk->ret)
		vflash_cache_put(wk->fk->c, &pin);
	complete(&wk->done);
	return 0;
}

static struct worker *refiller;

static void refill_during_sample(struct fake *fk, u64 lpn)
{
	int i;

	refiller->lpn = lpn;
	if (IS_ERR(kthread_run(evict_refill_fn, refiller, "vflash-test-refill"))) {
		complete(&refiller->done);
		return;
	}
	/* Blocked by the sampler's pin, it finishes after the sample. */
	for (i = 0; i < 20 && !completion_done(&refiller->done); i++)
		usleep_range(10000, 20000);
}

/*
 * Regression: the sampler cleared the "fresh" flag of a slot that was
 * evicted and refilled while it read the page's Accessed bits, so the
 * refill's own faulting access later counted as a reference (clock gave
 * the page a second chance it had not earned).
 */
static void sampler_keeps_a_refill_fresh(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 0, "clock", false);
	u64 i;

	for (i = 0; i < 8; i++)
		touch(test, fk, i, false);
	/* Page 0 (clock's next victim) leaves and comes back mid-sample. */
	refiller = worker_new(test, fk, 0);
	fk->in_young = refill_during_sample;
	vflash_cache_sample(fk->c, U32_MAX);
	wait_for_completion(&refiller->done);
	KUNIT_ASSERT_EQ(test, refiller->ret, 0);
	KUNIT_ASSERT_EQ(test, (int)vflash_cache_page_state(fk->c, 0),
			(int)VFLASH_PAGE_RESIDENT);
	/* The refill's faulting access: its first sample is discarded. */
	__set_bit(0, fk->young);
	vflash_cache_sample(fk->c, U32_MAX);
	__clear_bit(0, fk->young);
	/* 1..7 leave first (oldest); then page 0, with no second chance. */
	fk->nr_unmapped = 0;
	for (i = 8; i < 16; i++)
		touch(test, fk, i, false);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 8U);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 0),
			(int)VFLASH_PAGE_ABSENT);
}

/* Measures how long it goes without the CPU while another thread works. */
struct prober {
	bool stop;
	u64 max_gap_ns;
	struct completion done;
};

static int prober_fn(void *data)
{
	struct prober *pr = data;
	u64 last = ktime_get_ns(), now;

	while (!READ_ONCE(pr->stop)) {
		now = ktime_get_ns();
		pr->max_gap_ns = max(pr->max_gap_ns, now - last);
		last = now;
		cond_resched();
	}
	/* The wait that ended with the stop counts too. */
	pr->max_gap_ns = max(pr->max_gap_ns, ktime_get_ns() - last);
	complete(&pr->done);
	return 0;
}

/*
 * Benchmark (numbers, no timing assertion): an eviction policy switch on
 * a cache of 1 Mi resident slots, and the longest time another thread
 * waits for the CPU meanwhile (UML has one CPU and no preemption, so
 * that is the longest stretch the switch keeps policy_lock or the CPU).
 * Correctness: every page stays resident and the oldest leaves first.
 */
static void policy_switch_on_a_large_cache(struct kunit *test)
{
	const u32 pages = 1U << 20;
	struct fake *fk = kunit_kzalloc(test, sizeof(*fk), GFP_KERNEL);
	struct vflash_cache_params p = {
		.nr_pages = pages, .nr_slots = pages, .young = 16, .seed = 1,
		.host = &fake_host,
	};
	struct vflash_cache_pin pin;
	struct prober *pr;
	struct task_struct *t;
	u64 i, t0, t1;

	KUNIT_ASSERT_NOT_NULL(test, fk);
	test->priv = fk;
	p.priv = fk;
	fk->f = vflash_flash_create(vflash_profile_find("znand"),
				    (u64)pages * VFLASH_LPAGE_SIZE);
	if (IS_ERR(fk->f)) {
		fk->f = NULL;
		KUNIT_FAIL_AND_ABORT(test, "flash_create failed");
	}
	fk->c = vflash_cache_create(fk->f, &p);
	if (IS_ERR(fk->c)) {
		fk->c = NULL;
		KUNIT_FAIL_AND_ABORT(test, "cache_create failed");
	}
	for (i = 0; i < pages; i++) {
		KUNIT_ASSERT_EQ(test, vflash_cache_get(fk->c, i, false, 1, &pin),
				0);
		vflash_cache_put(fk->c, &pin);
		if (!(i % 4096))
			cond_resched();
	}
	KUNIT_ASSERT_EQ(test, vflash_cache_resident(fk->c), pages);
	pr = kunit_kzalloc(test, sizeof(*pr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pr);
	init_completion(&pr->done);
	t = kthread_run(prober_fn, pr, "vflash-test-prober");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(20);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, use(fk, VFLASH_POLICY_EVICTION, "lru"), 0);
	t1 = ktime_get_ns();
	WRITE_ONCE(pr->stop, true);
	wait_for_completion(&pr->done);
	kunit_info(test, "eviction switch of %u slots: %llu us; longest wait of another thread for the CPU: %llu us\n",
		   pages, (t1 - t0) / NSEC_PER_USEC,
		   pr->max_gap_ns / NSEC_PER_USEC);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), pages);
	KUNIT_EXPECT_TRUE(test, vflash_cache_evict_one(fk->c));
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 0ULL);
}

/*
 * docs/dual.md: a block access to a resident page is a hit (a write
 * dirties it, so its eviction writes it back); to an absent page a miss
 * that changes nothing.
 */
static void block_access_hits_resident_pages(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	u64 reads = vflash_flash_stat(fk->f, VFLASH_STAT_NAND_READ_PAGES);
	u64 i;

	KUNIT_EXPECT_FALSE(test, vflash_cache_block_access(fk->c, 3, false));
	KUNIT_EXPECT_FALSE(test, vflash_cache_block_access(fk->c, 3, true));
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 3),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 0U);
	touch(test, fk, 3, false);
	KUNIT_EXPECT_TRUE(test, vflash_cache_block_access(fk->c, 3, false));
	KUNIT_EXPECT_TRUE(test, vflash_cache_block_access(fk->c, 3, false));
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_BLOCK_READ_HITS), 2ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_BLOCK_WRITE_HITS), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(fk->f,
						VFLASH_STAT_NAND_READ_PAGES),
			reads + 1);
	KUNIT_EXPECT_TRUE(test, vflash_cache_block_access(fk->c, 3, true));
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_BLOCK_WRITE_HITS), 1ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES), 1ULL);
	/* Pushed out by fifo: written back, as a mapped write would be. */
	for (i = 10; i < 20; i++)
		touch(test, fk, i, false);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 3),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRTY_WRITEBACKS), 1ULL);
}

/* How often @lpn was unmapped. */
static u32 unmaps_of(struct fake *fk, u64 lpn)
{
	u32 i, n = 0;

	for (i = 0; i < min_t(u32, fk->nr_unmapped, MAX_UNMAPS); i++)
		n += fk->unmapped[i] == lpn;
	return n;
}

/*
 * An invalidation unmaps a page and frees its slot without a writeback,
 * from the young ring as from the policy; the evictions that follow never
 * meet the freed slots, and the counters add up.
 */
static void invalidate_drops_without_writeback(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", false);
	u64 i;

	KUNIT_EXPECT_FALSE(test, vflash_cache_invalidate(fk->c, 1));
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 0U);
	/* 0..3 in the policy, 4 and 5 young; all dirty. */
	for (i = 0; i < 6; i++)
		touch(test, fk, i, true);
	KUNIT_EXPECT_TRUE(test, vflash_cache_invalidate(fk->c, 1));
	KUNIT_EXPECT_TRUE(test, vflash_cache_invalidate(fk->c, 5));
	KUNIT_EXPECT_FALSE(test, vflash_cache_invalidate(fk->c, 5));
	KUNIT_EXPECT_EQ(test, unmaps_of(fk, 1), 1U);
	KUNIT_EXPECT_EQ(test, unmaps_of(fk, 5), 1U);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 1),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 5),
			(int)VFLASH_PAGE_ABSENT);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_INVALIDATIONS), 2ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 4U);
	KUNIT_EXPECT_FALSE(test, vflash_cache_block_access(fk->c, 1, false));
	/* Cycle every slot several times. */
	for (i = 100; i < 140; i++)
		touch(test, fk, i, false);
	KUNIT_EXPECT_EQ(test, unmaps_of(fk, 1), 1U);
	KUNIT_EXPECT_EQ(test, unmaps_of(fk, 5), 1U);
	/* 0, 2, 3, 4 written back; 1 and 5 not. */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRTY_WRITEBACKS), 4ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES) +
			stat(fk, VFLASH_CACHE_PREFETCH_ISSUED),
			stat(fk, VFLASH_CACHE_EVICTIONS) +
			stat(fk, VFLASH_CACHE_INVALIDATIONS) +
			vflash_cache_resident(fk->c));
	/* An invalidated page refills as a refault. */
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 1, false));
}

struct invalidator {
	struct fake *fk;
	u64 lpn;
	struct completion done;
};

static int invalidate_fn(void *data)
{
	struct invalidator *v = data;

	vflash_cache_invalidate(v->fk->c, v->lpn);
	complete(&v->done);
	return 0;
}

/* An invalidation waits for a pinned page's mapper before it unmaps. */
static void invalidate_waits_for_a_pin(struct kunit *test)
{
	struct fake *fk = mk(test, 8, 2, "fifo", true);
	struct invalidator v = { .fk = fk, .lpn = 0 };
	struct vflash_cache_pin pin;
	struct task_struct *t;

	init_completion(&v.done);
	touch(test, fk, 0, false);
	KUNIT_ASSERT_EQ(test, vflash_cache_mkwrite(fk->c, 0, &pin), 0);
	t = kthread_run(invalidate_fn, &v, "vflash-test-inval");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	expect_evicting(test, fk, 0);
	msleep(20);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 0U);
	vflash_cache_put(fk->c, &pin);
	wait_for_completion(&v.done);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_INVALIDATIONS), 1ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRTY_WRITEBACKS), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_free(fk->c), 8U);
}

struct mixer {
	struct fake *fk;
	u32 seed;
	bool invalidate;
	struct completion *go;
	atomic_t *running;
	struct completion done;
	int ret;
};

/*
 * 2000 random gets or block accesses over 64 pages; or, for the
 * invalidator, random invalidations for as long as the others run. Each
 * sleeps a tick now and then, so that the threads interleave even on one
 * CPU without preemption (UML).
 */
static int mixer_fn(void *data)
{
	struct mixer *m = data;
	struct vflash_cache_pin pin;
	u32 x = m->seed, i;

	wait_for_completion(m->go);
	for (i = 0; !m->ret; i++) {
		u64 lpn;

		if (m->invalidate ? !atomic_read(m->running) : i == 2000)
			break;
		x = x * 1103515245 + 12345;
		lpn = (x >> 8) % 64;
		if (m->invalidate) {
			vflash_cache_invalidate(m->fk->c, lpn);
		} else if (x & 0x10000) {
			vflash_cache_block_access(m->fk->c, lpn, x & 0x20000);
		} else {
			m->ret = vflash_cache_get(m->fk->c, lpn, x & 0x20000,
						  m->seed, &pin);
			if (!m->ret)
				vflash_cache_put(m->fk->c, &pin);
		}
		if (!(i % (m->invalidate ? 16 : 64)))
			schedule_timeout_uninterruptible(1);
	}
	if (!m->invalidate)
		atomic_dec(m->running);
	complete(&m->done);
	return 0;
}

/*
 * Invalidations race with faults, block accesses and the evictions the
 * faults make (a 16-slot cache over 64 pages, lru, next-n prefetch): no
 * slot is lost or doubled, and the counters add up.
 */
static void invalidate_races_with_faults(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 4, "lru", true);
	struct mixer m[4];
	DECLARE_COMPLETION_ONSTACK(go);
	atomic_t running = ATOMIC_INIT(ARRAY_SIZE(m) - 1);
	u32 i, n;

	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "next-n"), 0);
	for (i = 0; i < ARRAY_SIZE(m); i++) {
		m[i] = (struct mixer){
			.fk = fk, .seed = i + 1, .invalidate = i == 0, .go = &go,
			.running = &running,
		};
		init_completion(&m[i].done);
		KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(mixer_fn, &m[i],
							    "vflash-mixer")));
	}
	complete_all(&go);
	for (i = 0; i < ARRAY_SIZE(m); i++) {
		wait_for_completion(&m[i].done);
		KUNIT_EXPECT_EQ(test, m[i].ret, 0);
	}
	KUNIT_EXPECT_GT(test, stat(fk, VFLASH_CACHE_INVALIDATIONS), 0ULL);
	KUNIT_EXPECT_GT(test, stat(fk, VFLASH_CACHE_EVICTIONS), 0ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_MISSES) +
			stat(fk, VFLASH_CACHE_PREFETCH_ISSUED),
			stat(fk, VFLASH_CACHE_EVICTIONS) +
			stat(fk, VFLASH_CACHE_INVALIDATIONS) +
			vflash_cache_resident(fk->c));
	/* Quiet: every page absent or resident, one slot each. */
	for (i = 0, n = 0; i < 64; i++) {
		int st = vflash_cache_page_state(fk->c, i);

		KUNIT_EXPECT_TRUE(test, st == VFLASH_PAGE_ABSENT ||
				  st == VFLASH_PAGE_RESIDENT);
		n += st == VFLASH_PAGE_RESIDENT;
	}
	KUNIT_EXPECT_EQ(test, n, vflash_cache_resident(fk->c));
	/* The evictable ones leave; the young ones stay (at most 4). */
	while (vflash_cache_evict_one(fk->c))
		;
	KUNIT_EXPECT_LE(test, vflash_cache_resident(fk->c), 4U);
}

/* A cache of @nr_slots slots, no young ring, no prefetch, @ways ways. */
static struct fake *mk_ways(struct kunit *test, u32 nr_slots, u32 ways,
			    const char *eviction, bool real_clock)
{
	struct fake *fk = mk(test, nr_slots, 0, eviction, real_clock);

	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "none"), 0);
	KUNIT_ASSERT_EQ(test, vflash_cache_set_ways(fk->c, ways), 0);
	KUNIT_ASSERT_EQ(test, vflash_cache_nr_sets(fk->c),
			vflash_set_nr(nr_slots, ways));
	return fk;
}

/*
 * Direct-mapped: every slot is reachable (16 pages of 16 sets fill the
 * cache), and a miss evicts exactly the page of its set, a conflict miss
 * when the pool had free slots.
 */
static void direct_mapped_evicts_the_conflicting_page(struct kunit *test)
{
	struct fake *fk = mk_ways(test, 16, 1, "lru", false);
	u64 i;

	/* Pages 0 and 16 share set 0: with 15 free slots, 16 evicts 0. */
	touch(test, fk, 0, false);
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 16, false));
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 0ULL);
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_CONFLICT_MISSES), 1ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_free(fk->c), 15U);
	for (i = 1; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, touch(test, fk, i, false));
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_free(fk->c), 0U);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 16U);
	for (i = 17; i < 200; i++) {
		u32 before = fk->nr_unmapped;

		KUNIT_EXPECT_TRUE(test, touch(test, fk, i, false));
		KUNIT_ASSERT_EQ(test, fk->nr_unmapped, before + 1);
		KUNIT_EXPECT_EQ(test, fk->unmapped[before], i - 16);
	}
	/* A full cache: no free slot anywhere, so no conflict miss. */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_CONFLICT_MISSES), 1ULL);
	/* Every eviction was a miss's own, in its set. */
	KUNIT_EXPECT_EQ(test, stat(fk, VFLASH_CACHE_DIRECT_EVICTIONS),
			(u64)fk->nr_unmapped);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, vflash_cache_set_used(fk->c, i), 1U);
	/* Nothing is over capacity: the evictor finds nothing to trim. */
	KUNIT_EXPECT_FALSE(test, vflash_cache_evict_one(fk->c));
}

/*
 * A full direct-mapped cache, every set within its way, and a miss on the
 * set of a young page (the two-page livelock guard keeps it): the miss
 * borrows a slot from another set rather than wait for ever, both pages
 * of the set stay resident, and once the young page has aged the set is
 * trimmed back to one way.
 */
static void a_set_of_young_pages_borrows_a_slot(struct kunit *test)
{
	struct fake *fk = mk(test, 16, 4, "fifo", false);
	u32 set;
	u64 i;

	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "none"), 0);
	KUNIT_ASSERT_EQ(test, vflash_cache_set_ways(fk->c, 1), 0);
	for (i = 0; i < 16; i++)
		touch(test, fk, i, false);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_free(fk->c), 0U);
	/* Page 15 is young: page 31 of its set takes another set's slot. */
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 31, false));
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_NE(test, fk->unmapped[0] % 16, 15ULL);
	KUNIT_EXPECT_EQ(test, (int)vflash_cache_page_state(fk->c, 15),
			(int)VFLASH_PAGE_RESIDENT);
	KUNIT_EXPECT_EQ(test, vflash_cache_set_used(fk->c, 15), 2U);
	/* Four fills of other sets age page 15 and 31 out of the ring. */
	for (i = 0; i < 4; i++)
		touch(test, fk, 32 + fk->unmapped[0] % 16 + i, false);
	while (vflash_cache_evict_one(fk->c))
		;
	for (set = 0; set < 16; set++)
		KUNIT_EXPECT_LE(test, vflash_cache_set_used(fk->c, set), 1U);
}

/*
 * 4 ways, every policy: each victim is a page of the missing page's set,
 * and no set ever holds more than its ways.
 */
static void victims_stay_in_their_set(struct kunit *test)
{
	static const char * const pols[] = {
		"fifo", "lifo", "clock", "lru", "s3fifo", "random",
	};
	u32 i, k, set;

	for (i = 0; i < ARRAY_SIZE(pols); i++) {
		struct fake *fk = mk_ways(test, 32, 4, pols[i], false);

		KUNIT_ASSERT_EQ(test, vflash_cache_nr_sets(fk->c), 8U);
		for (k = 0; k < 600; k++) {
			u64 lpn = k % 3 ? (k * 5) % 24 : (k * 37) % PAGES;

			fk->nr_unmapped = 0;
			if (!touch(test, fk, lpn, false))
				continue;
			KUNIT_ASSERT_LE(test, fk->nr_unmapped, 1U);
			if (fk->nr_unmapped)
				KUNIT_EXPECT_EQ_MSG(test, fk->unmapped[0] % 8,
						    lpn % 8, "%s: miss on %llu",
						    pols[i], lpn);
			for (set = 0; set < 8; set++)
				KUNIT_ASSERT_LE(test,
						vflash_cache_set_used(fk->c, set),
						4U);
		}
		KUNIT_EXPECT_GT(test, stat(fk, VFLASH_CACHE_EVICTIONS), 32ULL);
		drop(test);
	}
}

/*
 * A switch of ways keeps every resident page and counts it in its new
 * set; bad values are refused and change nothing; the device's knob
 * reaches the attached cache.
 */
static void switching_ways_keeps_pages(struct kunit *test)
{
	const enum vflash_cache_knob ways = VFLASH_CACHE_KNOB_WAYS;
	struct fake *fk = mk(test, 64, 4, "clock", false);
	struct vflash_cache_ctl *ctl = &fk->ctl;
	u32 i, set, sum;

	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_PREFETCH, "none"), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_sets(fk->c), 1U);
	for (i = 0; i < 64; i++)
		touch(test, fk, i, false);
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_attach(ctl, fk->c), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_set_knob(ctl, ways, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_set_knob(ctl, ways, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_cache_set_ways(fk->c, 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_knob(ctl, ways), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_sets(fk->c), 1U);
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_set_knob(ctl, ways, 4), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_ctl_knob(ctl, ways), 4ULL);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_sets(fk->c), 16U);
	KUNIT_EXPECT_EQ(test, vflash_cache_resident(fk->c), 64U);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 0U);
	for (set = 0; set < 16; set++)
		KUNIT_EXPECT_EQ(test, vflash_cache_set_used(fk->c, set), 4U);
	/* A miss of set 3 now evicts a page of set 3 (fifo order: 3). */
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 67, false));
	KUNIT_ASSERT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_EQ(test, fk->unmapped[0], 3ULL);
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_set_knob(ctl, ways, 16), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_sets(fk->c), 4U);
	for (set = 0, sum = 0; set < 4; set++) {
		KUNIT_EXPECT_EQ(test, vflash_cache_set_used(fk->c, set), 16U);
		sum += vflash_cache_set_used(fk->c, set);
	}
	KUNIT_EXPECT_EQ(test, sum, 64U);
	/* An eviction policy switch keeps the counts. */
	KUNIT_ASSERT_EQ(test, use(fk, VFLASH_POLICY_EVICTION, "s3fifo"), 0);
	for (set = 0; set < 4; set++)
		KUNIT_EXPECT_EQ(test, vflash_cache_set_used(fk->c, set), 16U);
	/* Back to fully associative: the pool's order, nothing evicted. */
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_set_knob(ctl, ways, 0), 0);
	KUNIT_EXPECT_EQ(test, vflash_cache_nr_sets(fk->c), 1U);
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 1U);
	KUNIT_EXPECT_TRUE(test, touch(test, fk, 100, false));
	KUNIT_EXPECT_EQ(test, fk->nr_unmapped, 2U);
	vflash_cache_ctl_detach(ctl);
}

/* Threads missing at once on a 4-way cache, each on its own pages. */
struct way_racer {
	struct fake *fk;
	u32 id;
	struct completion *go;
	struct completion done;
	int ret;
};

static int way_racer_fn(void *data)
{
	struct way_racer *r = data;
	struct vflash_cache_pin pin;
	u32 k;

	wait_for_completion(r->go);
	for (k = 0; k < 300 && !r->ret; k++) {
		u64 lpn = (k * 7 + r->id * 61) % PAGES;

		r->ret = vflash_cache_get(r->fk->c, lpn, k % 2, lpn, &pin);
		if (!r->ret)
			vflash_cache_put(r->fk->c, &pin);
	}
	complete(&r->done);
	return 0;
}

/*
 * Once quiet, the sets count exactly the resident pages, and trimming
 * leaves every set within its ways.
 */
static void concurrent_misses_in_sets(struct kunit *test)
{
	struct fake *fk = mk(test, 32, 4, "lru", true);
	DECLARE_COMPLETION_ONSTACK(go);
	struct way_racer r[4];
	u32 i, set, sum = 0;

	KUNIT_ASSERT_EQ(test, vflash_cache_set_ways(fk->c, 4), 0);
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		r[i] = (struct way_racer){ .fk = fk, .id = i, .go = &go };
		init_completion(&r[i].done);
		KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(way_racer_fn, &r[i],
							    "vflash-ways")));
	}
	complete_all(&go);
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		wait_for_completion(&r[i].done);
		KUNIT_EXPECT_EQ(test, r[i].ret, 0);
	}
	for (set = 0; set < 8; set++)
		sum += vflash_cache_set_used(fk->c, set);
	KUNIT_EXPECT_EQ(test, sum, vflash_cache_resident(fk->c));
	while (vflash_cache_evict_one(fk->c))
		;
	for (set = 0; set < 8; set++)
		KUNIT_EXPECT_LE(test, vflash_cache_set_used(fk->c, set), 4U);
	KUNIT_EXPECT_GT(test, stat(fk, VFLASH_CACHE_EVICTIONS), 0ULL);
}

static struct kunit_case cache_test_cases[] = {
	KUNIT_CASE(miss_then_hit),
	KUNIT_CASE(miss_is_submitted_at_its_arrival),
	KUNIT_CASE(full_cache_evicts_by_policy),
	KUNIT_CASE(young_fills_are_never_evicted),
	KUNIT_CASE(dirty_pages_are_written_back),
	KUNIT_CASE(mkwrite_pins_against_eviction),
	KUNIT_CASE(reclaim_to_the_high_watermark),
	KUNIT_CASE(sampled_references_keep_hot_pages),
	KUNIT_CASE(first_sample_is_discarded),
	KUNIT_CASE(sampler_cost_bounded_by_budget),
	KUNIT_CASE(next_n_prefetch),
	KUNIT_CASE(prefetch_gets_the_reserve),
	KUNIT_CASE(switching_policy_keeps_pages),
	KUNIT_CASE(attached_to_the_device),
	KUNIT_CASE(bad_shapes),
	KUNIT_CASE(concurrent_misses),
	KUNIT_CASE(wait_until_reaches_the_deadline),
	KUNIT_CASE(get_never_waits_on_an_unset_deadline),
	KUNIT_CASE(killable_wait_for_an_eviction),
	KUNIT_CASE(lifo_next_n_keeps_the_loaders_page),
	KUNIT_CASE(mkwrite_waits_for_the_read),
	KUNIT_CASE(sampler_keeps_a_refill_fresh),
	KUNIT_CASE(policy_switch_on_a_large_cache),
	KUNIT_CASE(block_access_hits_resident_pages),
	KUNIT_CASE(invalidate_drops_without_writeback),
	KUNIT_CASE(invalidate_waits_for_a_pin),
	KUNIT_CASE(invalidate_races_with_faults),
	KUNIT_CASE(direct_mapped_evicts_the_conflicting_page),
	KUNIT_CASE(a_set_of_young_pages_borrows_a_slot),
	KUNIT_CASE(victims_stay_in_their_set),
	KUNIT_CASE(switching_ways_keeps_pages),
	KUNIT_CASE(concurrent_misses_in_sets),
	{}
};

static struct kunit_suite cache_test_suite = {
	.name = "vflash-cache",
	.init = fake_init,
	.exit = fake_exit,
	.test_cases = cache_test_cases,
};

kunit_test_suite(cache_test_suite);
