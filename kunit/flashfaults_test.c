// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the flash-level faults (docs/faults.md): the read-retry
 * model, blocks retired by program and erase failures, and a device that
 * runs out of spare blocks. Times are explicit, as in flash_test.c.
 */
#include <kunit/test.h>
#include <linux/err.h>

#include "backend_flash/flash.h"
#include "backend_flash/timing.h"
#include "backend_flash/profile.h"
#include "core/faults.h"

#define TR	10000ULL	/* array read */
#define PROG	100000ULL
#define ERASE	1000000ULL
#define LATER	1000000000000ULL	/* when every die is long idle */
#define MS	1000000ULL

/* 1 channel, 2 dies, 4 KiB pages, 16 pages per block. */
static const struct vflash_profile slc2 = {
	.name = "t-slc", .desc = "test", .cell = VFLASH_CELL_SLC,
	.channels = 1, .dies_per_channel = 2, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = TR, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = PROG, .prog_ns = PROG, .slc_erase_ns = ERASE,
	.erase_ns = ERASE,
};

/* QLC with an SLC region in front. */
static const struct vflash_profile hyb2 = {
	.name = "t-hyb", .desc = "test", .cell = VFLASH_CELL_QLC,
	.slc_cache = true, .channels = 1, .dies_per_channel = 2,
	.flash_page_bytes = 4096, .pages_per_block = 16, .read_ns = TR,
	.qlc_read_ns = { 20000, 30000, 40000, 50000 }, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = PROG, .prog_ns = 4 * PROG, .slc_erase_ns = ERASE,
	.erase_ns = 4 * ERASE,
};

/* QLC without an SLC region: wordlines of four pages. */
static const struct vflash_profile qlc2 = {
	.name = "t-qlc", .desc = "test", .cell = VFLASH_CELL_QLC,
	.channels = 1, .dies_per_channel = 2, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = TR,
	.qlc_read_ns = { 20000, 30000, 40000, 50000 }, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = PROG, .prog_ns = 4 * PROG, .slc_erase_ns = ERASE,
	.erase_ns = 4 * ERASE,
};

#define SMALL	BIT_ULL(20)	/* 256 logical pages */
#define MEDIUM	BIT_ULL(22)	/* 1024 logical pages */

/* A device and its fault rules; destroyed in that order's reverse. */
struct ff {
	struct vflash_flash *f;
	struct vflash_faults *ft;
};

static struct vflash_flash *mk(struct kunit *test,
			       const struct vflash_profile *p, u64 bytes)
{
	struct ff *ff = test->priv;

	ff->f = vflash_flash_create(p, bytes);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ff->f), "create: %ld",
			       PTR_ERR(ff->f));
	vflash_flash_set_knob(ff->f, VFLASH_KNOB_HOST_XFER_NS, 0);
	ff->ft = kunit_kzalloc(test, sizeof(*ff->ft), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ff->ft);
	KUNIT_ASSERT_EQ(test, vflash_faults_init(ff->ft, ff->f,
						 vflash_flash_nr_lpages(ff->f),
						 "vflash-t"), 0);
	return ff->f;
}

static struct vflash_faults *rules(struct kunit *test)
{
	return ((struct ff *)test->priv)->ft;
}

/* Set one file of a rule; the test fails if it is refused. */
static void rule(struct kunit *test, enum vflash_fault fault,
		 const char *file, const char *val)
{
	KUNIT_ASSERT_EQ_MSG(test, vflash_fault_set(rules(test), fault, file,
						   val), 0, "%s=%s", file, val);
}

static void check(struct kunit *test, struct vflash_flash *f)
{
	char why[160] = "";

	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_check(f, why, sizeof(why)), 0,
			    "invariant: %s", why);
}

static u64 wr(struct vflash_flash *f, u64 lpn, u64 now)
{
	return vflash_flash_submit(f, VFLASH_IO_WRITE, lpn, 1, now);
}

static u64 st(struct vflash_flash *f, enum vflash_stat s)
{
	return vflash_flash_stat(f, s);
}

static int set(struct vflash_flash *f, enum vflash_knob k, u64 val)
{
	return vflash_flash_set_knob(f, k, val);
}

static u64 rnd(u64 *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

static u32 nr_in_state(struct vflash_flash *f, enum vff_block_state s)
{
	u32 b, n = 0;

	for (b = 0; b < f->nr_blocks; b++)
		n += f->blocks[b].state == s;
	return n;
}

/*
 * Every page in @mapped is mapped to a slot of a block that holds data
 * (not free), and a read of it reaches the array.
 */
static void all_readable(struct kunit *test, struct vflash_flash *f,
			 const unsigned long *mapped, u64 now)
{
	u64 lpn, n = vflash_flash_nr_lpages(f);
	u64 before = st(f, VFLASH_STAT_NAND_READ_PAGES), want = 0;

	for (lpn = 0; lpn < n; lpn++) {
		u32 slot = f->l2p[lpn];

		if (!test_bit(lpn, mapped)) {
			KUNIT_EXPECT_EQ_MSG(test, slot, VFF_INVALID,
					    "page %llu", lpn);
			continue;
		}
		KUNIT_ASSERT_NE_MSG(test, slot, VFF_INVALID, "page %llu", lpn);
		KUNIT_EXPECT_NE_MSG(test, (int)f->blocks[vff_block_of(f, slot)].state,
				    VFF_BLK_FREE, "page %llu", lpn);
		vflash_flash_submit(f, VFLASH_IO_READ, lpn, 1, now);
		want++;
	}
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_READ_PAGES) - before,
			want);
}

/* A block of the main region, sealed at @seal_ns after @pe erases. */
static u32 worn_block(struct vflash_flash *f, u32 pe, u64 seal_ns)
{
	u32 b = f->slc_per_die;	/* die 0's first main block */

	f->blocks[b].erase_count = pe;
	f->blocks[b].state = VFF_BLK_FULL;
	f->blocks[b].seal_ns = seal_ns;
	return b;
}

/* The model: (pe / rated)^2 and log2(1 + age / unit), floored, capped. */
static void retries_follow_wear_and_age(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u64 t0 = 1000 * MS;
	u32 b = worn_block(f, 1000, t0);

	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_MAIN_PE_CYCLES, 1000), 0);
	/* Off by default, whatever the wear and age. */
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 100000 * MS), 0U);

	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_PE_MILLI, 2000), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 2U);
	f->blocks[b].erase_count = 500;		/* 2 x 0.25 */
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 0U);
	f->blocks[b].erase_count = 750;		/* 2 x 0.5625 */
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 1U);
	f->blocks[b].erase_count = 2000;	/* 2 x 4 */
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 8U);
	f->blocks[b].erase_count = 5000;	/* 50, capped at 16 */
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 16U);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_MAX, 4), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 4U);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_MAX, 0), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 0U);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_MAX, 255), 0);

	/* Age alone: one retry per doubling of 1 + age / 1 s. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_PE_MILLI, 0), 0);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI, 1000), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 0U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 - MS), 0U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 500 * MS), 0U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 1000 * MS), 1U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 2999 * MS), 1U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 3000 * MS), 2U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 7000 * MS), 3U);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 1023000 * MS), 10U);
	/* log2(3) = 1.585, taken as 1.5: 3 x 1.5 = 4.5. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI, 3000), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 2000 * MS), 4U);
	/* The unit scales the age. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS, 10), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 30 * MS), 6U);
	/* Ages beyond 104 days count as that, without overflow. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS, 1), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, U64_MAX), 99U);
	/* An open block's data is fresh. */
	f->blocks[b].state = VFF_BLK_OPEN;
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 1000 * MS), 0U);

	/* Both terms add before the floor: 1.5 + 0.5 = 2. */
	f->blocks[b].state = VFF_BLK_FULL;
	f->blocks[b].erase_count = 1000;
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS, 1000), 0);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_PE_MILLI, 1500), 0);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI, 500), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0 + 1000 * MS), 2U);
	/* The SLC region's rated cycles apply to its blocks. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI, 0), 0);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_MAIN_PE_CYCLES, 500), 0);
	KUNIT_EXPECT_EQ(test, vff_read_retries(f, b, t0), 6U);
}

/* A read of a worn block costs tR x (1 + r), all of it array time. */
static void retries_lengthen_the_array_read(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	struct vflash_latency lat;
	u64 done, lpn, now = 0;
	u32 b;

	/* Fill die 0's first block (stripe: even pages go to die 0). */
	for (lpn = 0; lpn < 32; lpn++)
		now = wr(f, lpn, now);
	vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, now);
	b = vff_block_of(f, f->l2p[0]);
	KUNIT_ASSERT_EQ(test, (int)f->blocks[b].state, VFF_BLK_FULL);
	f->blocks[b].erase_count = vflash_flash_knob(f,
						     VFLASH_KNOB_MAIN_PE_CYCLES);

	done = vflash_flash_submit_lat(f, VFLASH_IO_READ, 0, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.array_ns, TR);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_RETRIES), 0ULL);

	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_PE_MILLI, 3000), 0);
	done = vflash_flash_submit_lat(f, VFLASH_IO_READ, 0, 1, 2 * LATER,
				       &lat);
	KUNIT_EXPECT_EQ(test, lat.array_ns, 4 * TR);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, done - 2 * LATER, vflash_latency_total(&lat));
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_RETRIES), 3ULL);
	/* The die was busy for all of it: a read right behind waits. */
	vflash_flash_submit_lat(f, VFLASH_IO_READ, 2, 1, 2 * LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, 4 * TR);
	/* A page of a fresh block takes no retry. */
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_RETRIES), 6ULL);
	now = vflash_flash_submit(f, VFLASH_IO_WRITE, 100, 1, 3 * LATER);
	vflash_flash_submit_lat(f, VFLASH_IO_READ, 100, 1, 4 * LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.array_ns, TR);
}

/* The knobs take their range and refuse anything else, unchanged. */
static void retry_knobs_are_checked(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	enum vflash_knob k;

	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_READ_RETRY_MAX),
			16ULL);
	KUNIT_EXPECT_EQ(test,
			vflash_flash_knob(f, VFLASH_KNOB_READ_RETRY_PE_MILLI),
			0ULL);
	KUNIT_EXPECT_EQ(test,
			vflash_flash_knob(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI),
			0ULL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_MAX, 256), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_PE_MILLI, 1000001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI, 1000001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS,
				  86400001), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			vflash_flash_knob(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS),
			1000ULL);
	for (k = VFLASH_KNOB_READ_RETRY_MAX; k <= VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS;
	     k++)
		KUNIT_EXPECT_NOT_NULL(test, vflash_flash_knob_name(k));
	KUNIT_EXPECT_STREQ(test, vflash_flash_stat_name(VFLASH_STAT_READ_RETRIES),
			   "read_retries");
}

/*
 * A failed program retires its block: bad, off every list, emptied onto
 * other blocks (the page just written among them), the spare one less.
 */
static void program_fail_retires_the_block(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, MEDIUM);
	DECLARE_BITMAP(mapped, 1024) = { 0 };
	struct vflash_placement_events ev;
	struct vflash_health h;
	u32 spare = st(f, VFLASH_STAT_SPARE_BLOCKS), b, bad = VFF_INVALID;
	u64 lpn, now = 0, copied;

	KUNIT_EXPECT_GT(test, spare, 0U);
	vflash_flash_health(f, &h);
	KUNIT_EXPECT_EQ(test, h.spare_pct, 100U);
	KUNIT_EXPECT_FALSE(test, h.read_only);
	for (lpn = 0; lpn < 40; lpn++) {
		now = wr(f, lpn, now);
		__set_bit(lpn, mapped);
	}
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "range", "45-45");
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "times", "1");
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "1");
	for (lpn = 40; lpn < 50; lpn++) {
		now = wr(f, lpn, now);
		__set_bit(lpn, mapped);
	}
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_FAULT_PROGRAM_FAILS), 1ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), 1ULL);
	KUNIT_EXPECT_EQ(test, nr_in_state(f, VFF_BLK_BAD), 1U);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_SPARE_BLOCKS), spare - 1ULL);
	for (b = 0; b < f->nr_blocks; b++)
		if (f->blocks[b].state == VFF_BLK_BAD)
			bad = b;
	KUNIT_ASSERT_NE(test, bad, VFF_INVALID);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->blocks[bad].valid), 0);
	/* Its pages, 45 among them, moved: read and programmed elsewhere. */
	copied = st(f, VFLASH_STAT_GC_COPIED_PAGES);
	KUNIT_EXPECT_GT(test, copied, 0ULL);
	KUNIT_EXPECT_NE(test, vff_block_of(f, f->l2p[45]), bad);
	/*
	 * For FDP (handle 0 wrote them): every page moved is the handle's,
	 * the last one named; its open block was retired (a new unit).
	 */
	vflash_flash_placement_events(f, 0, &ev);
	KUNIT_EXPECT_EQ(test, ev.moved_pages, copied);
	/* The page whose program failed was the last one moved off. */
	KUNIT_EXPECT_EQ(test, ev.moved_lpn, 45ULL);
	KUNIT_EXPECT_EQ(test, ev.units_retired, 1ULL);
	vflash_flash_placement_events(f, 1, &ev);
	KUNIT_EXPECT_EQ(test, ev.moved_pages + ev.units_retired, 0ULL);
	vflash_flash_health(f, &h);
	KUNIT_EXPECT_EQ(test, h.bad_blocks, 1U);
	KUNIT_EXPECT_EQ(test, h.spare_pct,
			(u32)DIV_ROUND_UP((spare - 1) * 100, spare));
	check(test, f);
	/* The rule disarmed itself; the bad block never comes back. */
	for (lpn = 0; lpn < 20000; lpn++)
		now = wr(f, lpn % 1000, now);
	bitmap_set(mapped, 0, 1000);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), 1ULL);
	KUNIT_EXPECT_EQ(test, (int)f->blocks[bad].state, VFF_BLK_BAD);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 10ULL);
	check(test, f);
	all_readable(test, f, mapped, LATER);
}

/* A failed erase retires the block GC emptied; GC goes on without it. */
static void erase_fail_retires_the_block(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, MEDIUM);
	DECLARE_BITMAP(mapped, 1024) = { 0 };
	u32 spare = st(f, VFLASH_STAT_SPARE_BLOCKS);
	u64 i, now = 0, x = 7;

	/* An erase has no logical pages: only all. */
	KUNIT_EXPECT_EQ(test, vflash_fault_set(rules(test),
					       VFLASH_FAULT_ERASE_FAIL,
					       "range", "1-2"), -EINVAL);
	rule(test, VFLASH_FAULT_ERASE_FAIL, "range", "all");
	rule(test, VFLASH_FAULT_ERASE_FAIL, "after", "5");
	rule(test, VFLASH_FAULT_ERASE_FAIL, "times", "3");
	rule(test, VFLASH_FAULT_ERASE_FAIL, "armed", "1");
	for (i = 0; i < 1000; i++) {
		now = wr(f, i, now);
		__set_bit(i, mapped);
	}
	for (i = 0; i < 20000; i++)
		now = wr(f, rnd(&x) % 1000, now);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_FAULT_ERASE_FAILS), 3ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), 3ULL);
	KUNIT_EXPECT_EQ(test, nr_in_state(f, VFF_BLK_BAD), 3U);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_SPARE_BLOCKS), spare - 3ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&rules(test)->rule
					    [VFLASH_FAULT_ERASE_FAIL].matched),
			8LL);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS), 8ULL);
	check(test, f);
	all_readable(test, f, mapped, LATER);
}

/*
 * Random program and erase failures under random overwrites and trims,
 * on both kinds of device: the FTL's invariants hold, no bad block is on
 * a free list, every page written and not trimmed is mapped and read.
 */
static void failures_under_churn_keep_invariants(struct kunit *test)
{
	/* Failures bounded (the device lives on), then unbounded. */
	static const struct {
		const struct vflash_profile *prof;
		const char *pf_times, *ef_times;
	} runs[] = {
		{ &slc2, "3", "2" }, { &slc2, "0", "0" }, { &hyb2, "0", "0" },
	};
	unsigned long *mapped;
	u32 p;

	mapped = kunit_kzalloc(test, BITS_TO_LONGS(1024) * sizeof(long),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mapped);
	for (p = 0; p < ARRAY_SIZE(runs); p++) {
		struct vflash_flash *f;
		u64 i, now = 0, x = 11 + p, n;

		if (p) {
			/* One device at a time: the first goes. */
			vflash_faults_destroy(rules(test));
			vflash_flash_destroy(((struct ff *)test->priv)->f);
			((struct ff *)test->priv)->f = NULL;
		}
		f = mk(test, runs[p].prof, MEDIUM);
		n = vflash_flash_nr_lpages(f);
		bitmap_zero(mapped, 1024);
		rule(test, VFLASH_FAULT_PROGRAM_FAIL, "probability", "3000");
		rule(test, VFLASH_FAULT_PROGRAM_FAIL, "times", runs[p].pf_times);
		rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "1");
		rule(test, VFLASH_FAULT_ERASE_FAIL, "probability", "20000");
		rule(test, VFLASH_FAULT_ERASE_FAIL, "times", runs[p].ef_times);
		rule(test, VFLASH_FAULT_ERASE_FAIL, "armed", "1");
		for (i = 0; i < 30000; i++) {
			u64 lpn = rnd(&x) % n;

			if (rnd(&x) % 10 == 0) {
				vflash_flash_submit(f, VFLASH_IO_TRIM, lpn, 1,
						    now);
				__clear_bit(lpn, mapped);
				continue;
			}
			if (vflash_flash_write_refused(f))
				break;
			now = wr(f, lpn, now);
			__set_bit(lpn, mapped);
			if (i % 5000 == 0)
				check(test, f);
		}
		kunit_info(test, "%s: %llu ops, %llu bad blocks, %llu spare, %llu program and %llu erase failures",
			   runs[p].prof->name, i, st(f, VFLASH_STAT_BAD_BLOCKS),
			   st(f, VFLASH_STAT_SPARE_BLOCKS),
			   st(f, VFLASH_STAT_FAULT_PROGRAM_FAILS),
			   st(f, VFLASH_STAT_FAULT_ERASE_FAILS));
		KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_FAULT_PROGRAM_FAILS), 0ULL);
		if (!p) {
			KUNIT_EXPECT_EQ(test,
					st(f, VFLASH_STAT_FAULT_PROGRAM_FAILS),
					3ULL);
			KUNIT_EXPECT_EQ(test,
					st(f, VFLASH_STAT_FAULT_ERASE_FAILS),
					2ULL);
			/* Five blocks of six spare: the device went on. */
			KUNIT_EXPECT_EQ(test, i, 30000ULL);
			KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), 5ULL);
			KUNIT_EXPECT_FALSE(test, vflash_flash_write_refused(f));
			KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 500ULL);
		}
		KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS),
				st(f, VFLASH_STAT_FAULT_PROGRAM_FAILS) +
				st(f, VFLASH_STAT_FAULT_ERASE_FAILS));
		KUNIT_EXPECT_EQ(test, (u64)nr_in_state(f, VFF_BLK_BAD),
				st(f, VFLASH_STAT_BAD_BLOCKS));
		rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "0");
		rule(test, VFLASH_FAULT_ERASE_FAIL, "armed", "0");
		vflash_flash_maintain(f, now);
		check(test, f);
		all_readable(test, f, mapped, LATER);
	}
}

/*
 * Every host page's program failing eats one spare block per write
 * until none is left: then the device refuses writes (and says so in
 * its health), reads go on, and nothing was lost.
 */
static void running_out_of_spare_goes_read_only(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, MEDIUM);
	DECLARE_BITMAP(mapped, 1024) = { 0 };
	u32 spare = st(f, VFLASH_STAT_SPARE_BLOCKS), writes = 0;
	struct vflash_health h;
	u64 lpn, now = 0;

	for (lpn = 0; lpn < 1024; lpn++) {
		now = wr(f, lpn, now);
		__set_bit(lpn, mapped);
	}
	KUNIT_EXPECT_FALSE(test, vflash_flash_write_refused(f));
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "1");
	for (lpn = 0; writes < 1000 && !vflash_flash_write_refused(f); lpn++) {
		vflash_flash_health(f, &h);
		KUNIT_EXPECT_FALSE(test, h.read_only);
		KUNIT_EXPECT_GT(test, h.spare_pct, 0U);
		now = wr(f, lpn % 1024, now);
		writes++;
	}
	/* Each write retired one main block, down to none left. */
	KUNIT_EXPECT_EQ(test, writes, spare);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), (u64)spare);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_SPARE_BLOCKS), 0ULL);
	vflash_flash_health(f, &h);
	KUNIT_EXPECT_TRUE(test, h.read_only);
	KUNIT_EXPECT_EQ(test, h.spare_pct, 0U);
	KUNIT_EXPECT_EQ(test, h.spare_blocks, 0U);
	KUNIT_EXPECT_TRUE(test, vflash_flash_write_refused(f));
	/* Two refusals asked above (the loop's last and this one). */
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_WORN_OUT_WRITES), 2ULL);
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "0");
	check(test, f);
	all_readable(test, f, mapped, LATER);
	/* Stats reset leaves the device's state alone. */
	vflash_flash_reset_stats(f);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), (u64)spare);
	KUNIT_EXPECT_TRUE(test, vflash_flash_write_refused(f));
}

/*
 * Power loss: the pages of a failed program are durable once they are
 * programmed again elsewhere (the failed program, then the move's
 * padded one), and the log's waiting slots are left clean for the next
 * host block.
 */
static void failed_program_is_durable_after_its_move(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);
	struct vflash_undo u = { 0 }, v = { 0 }, *pu = &u, *pv = &v;
	u64 now = 1000000, end;

	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "range", "1-1");
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "1");
	vflash_flash_submit_undo(f, VFLASH_FE_NVME, 1, 1, now, &pu);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), 1ULL);
	/* A wordline program fails, the page is read and programmed again. */
	KUNIT_EXPECT_NE(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_GE(test, u.end_ns, now + 8 * PROG + TR);
	end = u.end_ns;
	/* The next page of that die waits for its own wordline. */
	vflash_flash_submit_undo(f, VFLASH_FE_NVME, 3, 1, now, &pv);
	KUNIT_EXPECT_EQ(test, v.end_ns, U64_MAX);
	vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_EXPECT_NE(test, v.end_ns, U64_MAX);
	KUNIT_EXPECT_EQ(test, u.end_ns, end);
	check(test, f);
}

/*
 * Regression: after a program failure the moved pages are durable at the
 * die's busy end, but a Flush (and a FUA write's sync) took its time
 * from the write buffer, which holds only the failed program's end: it
 * completed before the data it promises was durable.
 */
static void flush_after_failed_program_waits_for_the_move(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);
	struct vflash_undo u = { 0 }, *pu = &u;
	u64 now = 1000000, due;

	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "range", "1-1");
	rule(test, VFLASH_FAULT_PROGRAM_FAIL, "armed", "1");
	vflash_flash_submit_undo(f, VFLASH_FE_NVME, 1, 1, now, &pu);
	KUNIT_ASSERT_EQ(test, st(f, VFLASH_STAT_BAD_BLOCKS), 1ULL);
	KUNIT_ASSERT_NE(test, u.end_ns, U64_MAX);
	due = vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_EXPECT_GE(test, due, u.end_ns);
	due = vflash_flash_sync_pages(f, 1, 1, now, 0);
	KUNIT_EXPECT_GE(test, due, u.end_ns);
	check(test, f);
}

static int ff_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void ff_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static int ff_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct ff), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void ff_exit(struct kunit *test)
{
	struct ff *ff = test->priv;

	if (ff->ft)
		vflash_faults_destroy(ff->ft);
	if (!IS_ERR_OR_NULL(ff->f))
		vflash_flash_destroy(ff->f);
}

static struct kunit_case ff_cases[] = {
	KUNIT_CASE(retries_follow_wear_and_age),
	KUNIT_CASE(retries_lengthen_the_array_read),
	KUNIT_CASE(retry_knobs_are_checked),
	KUNIT_CASE(program_fail_retires_the_block),
	KUNIT_CASE(erase_fail_retires_the_block),
	KUNIT_CASE(failures_under_churn_keep_invariants),
	KUNIT_CASE(running_out_of_spare_goes_read_only),
	KUNIT_CASE(failed_program_is_durable_after_its_move),
	KUNIT_CASE(flush_after_failed_program_waits_for_the_move),
	{}
};

static struct kunit_suite ff_suite = {
	.name = "vflash-flashfaults",
	.suite_init = ff_suite_init,
	.suite_exit = ff_suite_exit,
	.init = ff_init,
	.exit = ff_exit,
	.test_cases = ff_cases,
};

kunit_test_suite(ff_suite);
