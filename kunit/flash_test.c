// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the flash backend (backend_flash/). Every time is an
 * explicit now_ns, so nothing depends on the wall clock. Some tests look
 * at the FTL's internals (ftl.h) to craft a state or to check a decision.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/flash.h"
#include "backend_flash/ftl.h"
#include "backend_flash/timing.h"
#include "backend_flash/profile.h"

#define TR	10000ULL	/* array read */
#define XF	1000ULL		/* channel transfer */
#define PROG	100000ULL
#define QPROG	400000ULL
#define ERASE	1000000ULL
#define LATER	1000000000000ULL	/* when every die is long idle */

/* 1 channel, 2 dies, 4 KiB pages, 16 pages per block. */
static const struct vflash_profile slc2 = {
	.name = "t-slc", .desc = "test", .cell = VFLASH_CELL_SLC,
	.channels = 1, .dies_per_channel = 2, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = TR, .xfer_ns_per_4k = XF,
	.slc_prog_ns = PROG, .prog_ns = PROG, .slc_erase_ns = ERASE,
	.erase_ns = ERASE,
};

/* The same as QLC: wordlines of four pages, per-page-type reads. */
static const struct vflash_profile qlc2 = {
	.name = "t-qlc", .desc = "test", .cell = VFLASH_CELL_QLC,
	.channels = 1, .dies_per_channel = 2, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = TR,
	.qlc_read_ns = { 20000, 30000, 40000, 50000 }, .xfer_ns_per_4k = XF,
	.slc_prog_ns = PROG, .prog_ns = QPROG, .slc_erase_ns = ERASE,
	.erase_ns = 4 * ERASE,
};

/* QLC with an SLC region in front. */
static const struct vflash_profile hyb2 = {
	.name = "t-hyb", .desc = "test", .cell = VFLASH_CELL_QLC,
	.slc_cache = true, .channels = 1, .dies_per_channel = 2,
	.flash_page_bytes = 4096, .pages_per_block = 16, .read_ns = TR,
	.qlc_read_ns = { 20000, 30000, 40000, 50000 }, .xfer_ns_per_4k = XF,
	.slc_prog_ns = PROG, .prog_ns = QPROG, .slc_erase_ns = ERASE,
	.erase_ns = 4 * ERASE,
};

/* Two channels with one die each. */
static const struct vflash_profile wide = {
	.name = "t-wide", .desc = "test", .cell = VFLASH_CELL_SLC,
	.channels = 2, .dies_per_channel = 1, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = TR, .xfer_ns_per_4k = XF,
	.slc_prog_ns = PROG, .prog_ns = PROG, .slc_erase_ns = ERASE,
	.erase_ns = ERASE,
};

#define SMALL	BIT_ULL(20)	/* 256 logical pages */

static struct vflash_flash *mk(struct kunit *test,
			       const struct vflash_profile *p, u64 bytes)
{
	struct vflash_flash *f = vflash_flash_create(p, bytes);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "create: %ld", PTR_ERR(f));
	test->priv = f;
	/* Host link and firmware out of the way unless a test wants them. */
	vflash_flash_set_knob(f, VFLASH_KNOB_HOST_XFER_NS, 0);
	return f;
}

static void use(struct kunit *test, struct vflash_flash *f,
		enum vflash_policy_kind kind, const char *name)
{
	const struct vflash_policy *p = vflash_policy_find(kind, name);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_policy(f, p), 0);
}

/* Switch a device DRAM cache policy (eviction, prefetch), on @ctl. */
static void use_cache(struct kunit *test, struct vflash_cache_ctl *ctl,
		      enum vflash_policy_kind kind, const char *name)
{
	const struct vflash_policy *p = vflash_policy_find(kind, name);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_set_policy(ctl, p), 0);
}

static void check(struct kunit *test, struct vflash_flash *f)
{
	char why[160] = "";

	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_check(f, why, sizeof(why)), 0,
			    "invariant: %s", why);
}

static u64 rd(struct vflash_flash *f, u64 lpn, u64 now)
{
	return vflash_flash_submit(f, VFLASH_IO_READ, lpn, 1, now);
}

static u64 wr(struct vflash_flash *f, u64 lpn, u64 now)
{
	return vflash_flash_submit(f, VFLASH_IO_WRITE, lpn, 1, now);
}

static int set(struct vflash_flash *f, enum vflash_knob k, u64 val)
{
	return vflash_flash_set_knob(f, k, val);
}

static u64 st(struct vflash_flash *f, enum vflash_stat s)
{
	return vflash_flash_stat(f, s);
}

static u32 blk_of(struct vflash_flash *f, u64 lpn)
{
	return vff_block_of(f, f->l2p[lpn]);
}

static u64 rnd(u64 *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

/* Clean one block of a die's region as the write path or worker would. */
static bool clean(struct vflash_flash *f, u32 d, enum vff_region r, u64 now)
{
	bool ret;

	spin_lock(&f->dies[d].lock);
	ret = vff_clean(f, &f->dies[d], d, r, &now);
	spin_unlock(&f->dies[d].lock);
	return ret;
}

static void unwritten_read_costs_no_nand(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	KUNIT_EXPECT_EQ(test, rd(f, 7, 1000), 1000ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_READ_PAGES), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_HOST_READ_PAGES), 1ULL);
}

static void slc_read_latency(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	wr(f, 0, 0);
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + TR + XF);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_READ_PAGES), 1ULL);
}

static void qlc_read_latency_by_page_type(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);
	u64 i;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 0; i < 4; i++)
		wr(f, i, 0);
	/* One wordline: lower, centre-lower, centre-upper, upper. */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, rd(f, i, LATER * (i + 1)),
				LATER * (i + 1) + qlc2.qlc_read_ns[i] + XF);
}

static void reads_on_one_die_queue(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	wr(f, 0, 0);
	wr(f, 1, 0);
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + TR + XF);
	KUNIT_EXPECT_EQ(test, rd(f, 1, LATER), LATER + 2 * TR + XF);
}

static void reads_on_two_channels_overlap(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &wide, SMALL);

	wr(f, 0, 0);
	wr(f, 1, 0);
	KUNIT_ASSERT_NE(test, vff_die_of_block(f, blk_of(f, 0)),
			vff_die_of_block(f, blk_of(f, 1)));
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + TR + XF);
	KUNIT_EXPECT_EQ(test, rd(f, 1, LATER), LATER + TR + XF);
}

static void shared_channel_serialises_transfers(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	wr(f, 0, 0);
	wr(f, 1, 0);
	KUNIT_ASSERT_NE(test, vff_die_of_block(f, blk_of(f, 0)),
			vff_die_of_block(f, blk_of(f, 1)));
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + TR + XF);
	/* Array reads overlap on two dies; the one channel does not. */
	KUNIT_EXPECT_EQ(test, rd(f, 1, LATER), LATER + TR + 2 * XF);
}

static void host_link_and_firmware_time(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	vflash_flash_set_knob(f, VFLASH_KNOB_HOST_XFER_NS, 5000);
	vflash_flash_set_knob(f, VFLASH_KNOB_FW_OVERHEAD_NS, 300);
	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_READ, 0, 4, 100),
			100 + 4 * 5000 + 300ULL);
	/* The link is busy until then: the next request queues behind. */
	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_READ, 8, 1, 100),
			100 + 5 * 5000 + 300ULL);
}

static void host_overhead_shortens_completion(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	const u64 oh = 3000, t = LATER;

	wr(f, 0, 0);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, oh), 0);
	/* Two reads on one die: the second still queues behind the first. */
	KUNIT_EXPECT_EQ(test, rd(f, 0, t), t + TR + XF - oh);
	KUNIT_EXPECT_EQ(test, rd(f, 0, t), t + 2 * TR + XF - oh);
	/* The statistics keep the model's latency. */
	KUNIT_EXPECT_GE(test, vflash_flash_read_latency_pct(f, 500), TR + XF);
	/* Never before the request arrived. */
	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_TRIM, 0, 1, t),
			t);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 1000000),
			0);
	KUNIT_EXPECT_EQ(test, rd(f, 1, 2 * t), 2 * t);
	/* At most 1 ms; a bad value changes nothing. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 1000001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_HOST_OVERHEAD_NS),
			1000000ULL);
	KUNIT_EXPECT_STREQ(test,
			   vflash_flash_knob_name(VFLASH_KNOB_HOST_OVERHEAD_NS),
			   "host_overhead_ns");
}

/* One written page read on an idle device takes the model's prediction. */
static void expect_model_read(struct kunit *test,
			      const struct vflash_profile *p)
{
	struct vflash_flash *f = vflash_flash_create(p, 16ULL << 20);
	u64 model;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s", p->name);
	model = vflash_flash_model_read_ns(f);
	KUNIT_EXPECT_GT_MSG(test, model, 0ULL, "%s", p->name);
	vflash_flash_submit(f, VFLASH_IO_WRITE, 5, 1, 0);
	vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, 0);
	KUNIT_EXPECT_EQ_MSG(test, rd(f, 5, LATER), LATER + model, "%s",
			    p->name);
	/* It follows the knobs. */
	set(f, VFLASH_KNOB_FW_OVERHEAD_NS, 7777);
	set(f, VFLASH_KNOB_CHANNEL_XFER_NS, 3333);
	set(f, VFLASH_KNOB_HOST_XFER_NS, 2222);
	set(f, VFLASH_KNOB_SLC_READ_NS, 44444);
	set(f, VFLASH_KNOB_MAIN_READ_NS, 55555);
	set(f, VFLASH_KNOB_QLC_READ_L_NS, 66666);
	KUNIT_EXPECT_NE_MSG(test, vflash_flash_model_read_ns(f), model, "%s",
			    p->name);
	model = vflash_flash_model_read_ns(f);
	KUNIT_EXPECT_EQ_MSG(test, rd(f, 5, 2 * LATER), 2 * LATER + model,
			    "%s", p->name);
	/* host_overhead_ns is the host's share: the device keeps the rest. */
	set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 10000);
	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_model_read_ns(f), model, "%s",
			    p->name);
	KUNIT_EXPECT_EQ_MSG(test, rd(f, 5, 3 * LATER),
			    3 * LATER + model - 10000, "%s", p->name);
	vflash_flash_destroy(f);
}

static void model_read_is_an_idle_read(struct kunit *test)
{
	const struct vflash_profile *p;
	unsigned int i;

	for (i = 0; (p = vflash_profile_at(i)); i++)
		expect_model_read(test, p);
	expect_model_read(test, &slc2);
	expect_model_read(test, &qlc2);
	expect_model_read(test, &hyb2);
}

static void write_completes_before_its_program(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	KUNIT_EXPECT_EQ(test, wr(f, 0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_PROGRAM_PAGES), 1ULL);
	/* A read right after waits for the program: the die is busy. */
	KUNIT_EXPECT_EQ(test, rd(f, 0, 0), XF + PROG + TR + XF);
}

static void write_buffer_back_pressure(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u64 done[6];
	int i;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	/* The smallest buffer: two slots on each die. */
	vflash_flash_set_knob(f, VFLASH_KNOB_WRITE_BUFFER_BYTES, 0);
	for (i = 0; i < 6; i++)
		done[i] = wr(f, i, 0);
	KUNIT_EXPECT_EQ(test, done[0], 0ULL);
	KUNIT_EXPECT_EQ(test, done[1], 0ULL);
	/* The third waits for the first program to end, and so on. */
	KUNIT_EXPECT_EQ(test, done[2], XF + PROG);
	KUNIT_EXPECT_EQ(test, done[3], XF + 2 * PROG);
	KUNIT_EXPECT_GT(test, done[5], done[4]);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_WB_STALLS), 4ULL);
}

static void big_buffer_absorbs_a_burst(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	int i;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ(test, wr(f, i, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_WB_STALLS), 0ULL);
}

static void flush_waits_for_programs(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, 5),
			5ULL);
	wr(f, 0, 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, 0),
			XF + PROG);
}

static void flush_pads_a_partial_wordline(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);

	wr(f, 0, 0);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_PROGRAM_PAGES), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, 0),
			4 * XF + QPROG);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_PROGRAM_PAGES), 4ULL);
	check(test, f);
}

static void qlc_wordline_is_one_program(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);
	int i;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 0; i < 4; i++)
		wr(f, i, 0);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_PROGRAM_PAGES), 4ULL);
	/* One program for four pages, after four transfers. */
	KUNIT_EXPECT_EQ(test, rd(f, 0, 0), 4 * XF + QPROG + 20000 + XF);
}

static void knobs_change_latency(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	wr(f, 0, 0);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_MAIN_READ_NS,
						    77777), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_MAIN_READ_NS),
			77777ULL);
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + 77777 + XF);
}

static void knobs_reject_out_of_range(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_MAIN_READ_NS,
						    11000000000ULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_MAIN_READ_NS), TR);
	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_GC_LOW_PCT,
						    0), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_GC_LOW_PCT,
						    20), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT,
						    4), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_WRITE_BUFFER_BYTES,
				  (64ULL << 20) + 1), -EINVAL);
	/* Read heat has 4 bits. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_MIGRATE_HOT_READS, 16),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_MIGRATE_HOT_READS, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS),
			4ULL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_MIGRATE_HOT_READS, 15), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_NR, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_GC_LOW_PCT), 5ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_GC_HIGH_PCT),
			15ULL);
	KUNIT_EXPECT_STREQ(test, vflash_flash_knob_name(VFLASH_KNOB_GC_LOW_PCT),
			   "gc_low_pct");
	KUNIT_EXPECT_NULL(test, vflash_flash_knob_name(VFLASH_KNOB_NR));
}

static void overwrite_and_trim(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	wr(f, 5, 0);
	wr(f, 5, 0);
	wr(f, 5, 0);
	check(test, f);
	KUNIT_EXPECT_NE(test, f->l2p[5], VFF_INVALID);
	KUNIT_EXPECT_EQ(test, vflash_flash_submit(f, VFLASH_IO_TRIM, 5, 1, 10),
			10ULL);
	KUNIT_EXPECT_EQ(test, f->l2p[5], VFF_INVALID);
	vflash_flash_submit(f, VFLASH_IO_TRIM, 100, 50, 10);
	check(test, f);
	KUNIT_EXPECT_EQ(test, rd(f, 5, LATER), LATER);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_HOST_TRIM_PAGES), 51ULL);
}

/* Random writes, trims and reads; invariants and contents checked often. */
static void churn(struct kunit *test, struct vflash_flash *f, u64 ops,
		  u64 seed, bool switch_policies)
{
	static const char * const names[VFLASH_POLICY_NR][3] = {
		{ "greedy", "cost-benefit", "fifo" },
		{ "stripe", "die-affinity", "hot-cold" },
		{ "read-heat", "off", NULL },
		{ "background", "inline", "read-priority" },
		{ "fifo", "clock", "s3fifo" },
		{ "none", "next-n", "stride" },
	};
	u64 n = vflash_flash_nr_lpages(f), i, lpn, now = 0;
	/* The device's cache control: eviction and prefetch switch there. */
	struct vflash_cache_ctl *ctl;
	unsigned long *mapped;

	mapped = kunit_kcalloc(test, BITS_TO_LONGS(n), sizeof(long),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mapped);
	ctl = kunit_kzalloc(test, sizeof(*ctl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctl);
	KUNIT_ASSERT_EQ(test, vflash_cache_ctl_init(ctl, 0), 0);
	for (i = 0; i < ops; i++) {
		u64 op = rnd(&seed) % 10;

		lpn = rnd(&seed) % n;
		now += 5000;
		if (op < 6) {
			wr(f, lpn, now);
			__set_bit(lpn, mapped);
		} else if (op < 7) {
			vflash_flash_submit(f, VFLASH_IO_TRIM, lpn, 1, now);
			__clear_bit(lpn, mapped);
		} else {
			/* Reads favour a small hot set. */
			rd(f, op == 9 ? lpn % 8 : lpn, now);
		}
		if (i % 500 == 499)
			vflash_flash_maintain(f, now);
		if (switch_policies && i % 300 == 299) {
			int k = rnd(&seed) % VFLASH_POLICY_NR;
			const char *name = names[k][rnd(&seed) % 3];

			if (name && vflash_cache_policy_kind(k))
				use_cache(test, ctl, k, name);
			else if (name)
				use(test, f, k, name);
		}
		if (i % 2000 == 1999)
			check(test, f);
	}
	vflash_cache_ctl_exit(ctl);
	check(test, f);
	for (lpn = 0; lpn < n; lpn++)
		KUNIT_EXPECT_EQ_MSG(test, (int)(f->l2p[lpn] != VFF_INVALID),
				    (int)test_bit(lpn, mapped), "page %llu", lpn);
}

static void churn_slc_gc_keeps_invariants(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	churn(test, f, 20000, 1, false);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 20ULL);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), 0ULL);
}

static void churn_inline_maintenance(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);

	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	churn(test, f, 20000, 2, false);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 20ULL);
}

static void churn_hybrid_gc_and_migration(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);

	churn(test, f, 30000, 3, false);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_MIGRATED_PAGES), 0ULL);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 20ULL);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS), 20ULL);
}

static void switching_policies_mid_workload(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);

	churn(test, f, 30000, 4, true);
	f = vflash_flash_create(&slc2, SMALL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	churn(test, f, 20000, 5, true);
	vflash_flash_destroy(f);
}

static void waf_sequential_is_one(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u64 n = vflash_flash_nr_lpages(f), pass, lpn, now = 0;

	for (pass = 0; pass < 4; pass++)
		for (lpn = 0; lpn < n; lpn++)
			wr(f, lpn, now += 1000);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_write_amplification(f), 1000ULL);
	check(test, f);
}

static void waf_random_over_full_capacity(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u64 n = vflash_flash_nr_lpages(f), i, now = 0, seed = 9;

	for (i = 0; i < n; i++)
		wr(f, i, now += 1000);
	for (i = 0; i < 4 * n; i++)
		wr(f, rnd(&seed) % n, now += 1000);
	KUNIT_EXPECT_GT(test, vflash_flash_write_amplification(f), 1000ULL);
	check(test, f);
}

/* Three full blocks on die 0: b[0..2] hold pages 0-15, 16-31, 32-47. */
static void three_blocks(struct kunit *test, struct vflash_flash *f, u32 *b,
			 u64 t0, u64 t1)
{
	u64 i;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 0; i < 48; i++)
		wr(f, i, i < 16 ? t0 : t1);
	for (i = 0; i < 3; i++) {
		b[i] = blk_of(f, i * 16);
		KUNIT_ASSERT_EQ(test, vff_die_of_block(f, b[i]), 0U);
		KUNIT_ASSERT_EQ(test, f->blocks[b[i]].state, (u8)VFF_BLK_FULL);
	}
}

static void trim_range(struct vflash_flash *f, u64 lpn, u32 n)
{
	vflash_flash_submit(f, VFLASH_IO_TRIM, lpn, n, 0);
}

static void gc_greedy_picks_fewest_valid(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 b[3];

	three_blocks(test, f, b, 0, 0);
	trim_range(f, 0, 4);	/* b0: 12 valid */
	trim_range(f, 16, 12);	/* b1: 4 valid */
	KUNIT_ASSERT_TRUE(test, clean(f, 0, VFF_MAIN, LATER));
	KUNIT_EXPECT_EQ(test, f->blocks[b[1]].erase_count, 1U);
	KUNIT_EXPECT_EQ(test, f->blocks[b[0]].erase_count, 0U);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), 4ULL);
	check(test, f);
}

static void gc_fifo_picks_oldest(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 b[3];

	use(test, f, VFLASH_POLICY_GC, "fifo");
	three_blocks(test, f, b, 0, 0);
	trim_range(f, 0, 4);
	trim_range(f, 16, 12);
	KUNIT_ASSERT_TRUE(test, clean(f, 0, VFF_MAIN, LATER));
	KUNIT_EXPECT_EQ(test, f->blocks[b[0]].erase_count, 1U);
	KUNIT_EXPECT_EQ(test, f->blocks[b[1]].erase_count, 0U);
	check(test, f);
}

static void gc_cost_benefit_weighs_age(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 b[3];

	use(test, f, VFLASH_POLICY_GC, "cost-benefit");
	three_blocks(test, f, b, 0, 1000000000);
	trim_range(f, 0, 8);	/* b0: 8 valid, sealed at 0 */
	trim_range(f, 16, 9);	/* b1: 7 valid, sealed at 1 s */
	KUNIT_ASSERT_TRUE(test, clean(f, 0, VFF_MAIN, 2000000000));
	KUNIT_EXPECT_EQ(test, f->blocks[b[0]].erase_count, 1U);
	KUNIT_EXPECT_EQ(test, f->blocks[b[1]].erase_count, 0U);
	check(test, f);
}

static void gc_skips_full_blocks(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 b[3];

	three_blocks(test, f, b, 0, 0);
	/* Nothing invalid anywhere: cleaning would gain nothing. */
	KUNIT_EXPECT_FALSE(test, clean(f, 0, VFF_MAIN, LATER));
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS), 0ULL);
}

/* Pages 0-7 in two SLC blocks of die 0; pages 0 and 1 read hot. */
static void slc_state(struct kunit *test, struct vflash_flash *f)
{
	u64 i;
	int r;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 0; i < 8; i++)
		wr(f, i, 0);
	for (r = 0; r < 5; r++) {
		rd(f, 0, LATER);
		rd(f, 1, LATER);
	}
	for (i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, vff_region_of(f, blk_of(f, i)), VFF_SLC);
}

static void migration_keeps_hot_moves_cold(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);

	slc_state(test, f);
	KUNIT_ASSERT_TRUE(test, clean(f, 0, VFF_SLC, LATER));
	KUNIT_EXPECT_EQ(test, vff_region_of(f, blk_of(f, 0)), VFF_SLC);
	KUNIT_EXPECT_EQ(test, vff_region_of(f, blk_of(f, 1)), VFF_SLC);
	KUNIT_EXPECT_EQ(test, vff_region_of(f, blk_of(f, 2)), VFF_MAIN);
	KUNIT_EXPECT_EQ(test, vff_region_of(f, blk_of(f, 3)), VFF_MAIN);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_MIGRATED_PAGES), 2ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), 2ULL);
	check(test, f);
}

static void migration_off_spills_everything(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	u64 i;

	use(test, f, VFLASH_POLICY_MIGRATION, "off");
	slc_state(test, f);
	KUNIT_ASSERT_TRUE(test, clean(f, 0, VFF_SLC, LATER));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, vff_region_of(f, blk_of(f, i)), VFF_MAIN);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_MIGRATED_PAGES), 4ULL);
	/* With migration off the worker leaves SLC alone. */
	vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT, 90);
	vflash_flash_maintain(f, LATER);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_MIGRATED_PAGES), 4ULL);
	check(test, f);
}

static void hot_qlc_page_is_repromoted(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	int r;

	use(test, f, VFLASH_POLICY_MIGRATION, "off");
	slc_state(test, f);
	/* Spill page 3 (cold so far) to QLC, then make it hot. */
	KUNIT_ASSERT_TRUE(test, clean(f, 0, VFF_SLC, LATER));
	KUNIT_ASSERT_EQ(test, vff_region_of(f, blk_of(f, 3)), VFF_MAIN);
	use(test, f, VFLASH_POLICY_MIGRATION, "read-heat");
	for (r = 0; r < 4; r++)
		rd(f, 3, 2 * LATER);
	KUNIT_EXPECT_EQ(test, vff_region_of(f, blk_of(f, 3)), VFF_SLC);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_REPROMOTED_PAGES), 1ULL);
	check(test, f);
}

/* Die 0 busy with background work until @bg_until; page 0 is on die 0. */
static void busy_die(struct vflash_flash *f, u64 bg_until)
{
	spin_lock(&f->dies[0].lock);
	f->dies[0].busy_until_ns = bg_until;
	spin_unlock(&f->dies[0].lock);
}

static void background_work_delays_host_reads(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	wr(f, 0, 0);
	busy_die(f, LATER + 5000000);
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + 5000000 + TR + XF);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_PREEMPTS), 0ULL);
}

static void read_priority_passes_background(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	use(test, f, VFLASH_POLICY_MAINTENANCE, "read-priority");
	wr(f, 0, 0);
	busy_die(f, LATER + 5000000);
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + TR + XF);
	/* The background work is pushed back by the read. */
	KUNIT_EXPECT_EQ(test, f->dies[0].busy_until_ns, LATER + 5000000 + TR);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_PREEMPTS), 1ULL);
}

static void read_priority_deferral_is_bounded(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u64 end;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	use(test, f, VFLASH_POLICY_MAINTENANCE, "read-priority");
	vflash_flash_set_knob(f, VFLASH_KNOB_MAX_DEFER_NS, TR);
	wr(f, 0, 0);
	busy_die(f, LATER + 5000000);
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), LATER + TR + XF);
	/* Deferred by TR already: the next read waits for the work. */
	end = LATER + 5000000 + TR;
	KUNIT_EXPECT_EQ(test, rd(f, 0, LATER), end + TR + XF);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_PREEMPTS), 1ULL);
}

static void background_gc_is_charged(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 b[3];

	three_blocks(test, f, b, 0, 0);
	trim_range(f, 0, 12);
	vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT, 90);
	vflash_flash_maintain(f, LATER);
	KUNIT_ASSERT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
	/* Page 20 is on die 0, which is still copying and erasing. */
	KUNIT_EXPECT_GE(test, rd(f, 20, LATER), LATER + ERASE + TR + XF);
	check(test, f);
}

static void inline_policy_leaves_worker_idle(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 b[3];

	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	three_blocks(test, f, b, 0, 0);
	trim_range(f, 0, 12);
	vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT, 90);
	vflash_flash_maintain(f, LATER);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
}

static void background_reaches_high_watermark(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u64 n = vflash_flash_nr_lpages(f), i, seed = 11;
	u32 d;

	for (i = 0; i < 3 * n; i++)
		wr(f, rnd(&seed) % n, i * 1000);
	vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT, 20);
	vflash_flash_maintain(f, LATER);
	for (d = 0; d < f->nr_dies; d++)
		KUNIT_EXPECT_GE(test, f->dies[d].nr_free[VFF_MAIN],
				vff_free_high(f, VFF_MAIN));
	check(test, f);
}

static void writes_never_fail_at_full_capacity(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &qlc2, SMALL);
	u64 n = vflash_flash_nr_lpages(f), i, seed = 12;

	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 0; i < 6 * n; i++)
		wr(f, i < n ? i : rnd(&seed) % n, i * 1000);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_NE(test, f->l2p[i], VFF_INVALID);
	check(test, f);
}

static void placement_spreads_or_pins(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	u32 per_die[2] = { };
	u64 i;

	for (i = 0; i < 64; i++) {
		wr(f, i, 0);
		per_die[vff_die_of_block(f, blk_of(f, i))]++;
	}
	KUNIT_EXPECT_EQ(test, per_die[0], 32U);
	KUNIT_EXPECT_EQ(test, per_die[1], 32U);

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	for (i = 64; i < 128; i++)
		wr(f, i, 0);
	for (i = 64; i < 128; i++)
		KUNIT_EXPECT_EQ(test, vff_die_of_block(f, blk_of(f, i)),
				vff_die_of_block(f, blk_of(f, 64)));
}

static void stats_and_percentiles(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	int i;

	KUNIT_EXPECT_EQ(test, vflash_flash_read_latency_pct(f, 500), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_write_amplification(f), 0ULL);
	vflash_flash_set_knob(f, VFLASH_KNOB_HOST_XFER_NS, 1000);
	for (i = 0; i < 99; i++)
		rd(f, 3, LATER * (i + 1));	/* unwritten: 1000 ns each */
	vflash_flash_set_knob(f, VFLASH_KNOB_HOST_XFER_NS, 1000000);
	rd(f, 3, LATER * 200);
	KUNIT_EXPECT_GE(test, vflash_flash_read_latency_pct(f, 500), 1000ULL);
	KUNIT_EXPECT_LE(test, vflash_flash_read_latency_pct(f, 500),
			1000ULL * 17 / 16);
	KUNIT_EXPECT_LE(test, vflash_flash_read_latency_pct(f, 990),
			1000ULL * 17 / 16);
	KUNIT_EXPECT_GE(test, vflash_flash_read_latency_pct(f, 999),
			1000000ULL);
	KUNIT_EXPECT_LE(test, vflash_flash_read_latency_pct(f, 999),
			1000000ULL * 17 / 16);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_HOST_READ_PAGES), 100ULL);

	vflash_flash_reset_stats(f);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_HOST_READ_PAGES), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_read_latency_pct(f, 999), 0ULL);
	KUNIT_EXPECT_STREQ(test, vflash_flash_stat_name(VFLASH_STAT_GC_RUNS),
			   "gc_runs");
}

/*
 * Request ids: a tag with id 0 takes the next one, a tag that has one
 * keeps it (one command's several submits), ids increase by one per
 * request; a die's current id is cleared once the submit is done.
 */
static void request_ids(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	struct vflash_req_tag a = { .qid = 3, .cid = 9 }, b = { };
	u32 d;

	vflash_flash_submit_tagged(f, VFLASH_FE_NVME, VFLASH_IO_WRITE, 0, 8,
				   1000, NULL, &a);
	KUNIT_EXPECT_EQ(test, a.id, 1ULL);
	/* The same command's flush and read back: the same id. */
	vflash_flash_submit_tagged(f, VFLASH_FE_NVME, VFLASH_IO_FLUSH, 0, 0,
				   2000, NULL, &a);
	vflash_flash_submit_tagged(f, VFLASH_FE_NVME, VFLASH_IO_READ, 0, 8,
				   LATER, NULL, &a);
	KUNIT_EXPECT_EQ(test, a.id, 1ULL);
	KUNIT_EXPECT_EQ(test, a.qid, (u16)3);
	vflash_flash_submit_tagged(f, VFLASH_FE_CXL, VFLASH_IO_READ, 1, 1,
				   LATER, NULL, &b);
	KUNIT_EXPECT_EQ(test, b.id, 2ULL);
	/* Untagged submits and ids taken directly count too. */
	vflash_flash_submit_from(f, VFLASH_FE_CXL, VFLASH_IO_READ, 2, 1, LATER);
	KUNIT_EXPECT_EQ(test, vflash_flash_new_req_id(f), 4ULL);
	for (d = 0; d < f->nr_dies; d++)
		KUNIT_EXPECT_EQ(test, f->dies[d].trace_req, 0ULL);
}

/* Submit with the breakdown, and check that its parts add up. */
static u64 sub_lat(struct kunit *test, struct vflash_flash *f,
		   enum vflash_io op, u64 lpn, u32 count, u64 now,
		   struct vflash_latency *lat)
{
	u64 oh = vflash_flash_knob(f, VFLASH_KNOB_HOST_OVERHEAD_NS);
	u64 due = vflash_flash_submit_lat(f, op, lpn, count, now, lat);
	u64 model = vflash_latency_total(lat);
	u64 want = now + model - min(oh, model);

	/*
	 * due is the model's completion less the host overhead, >= now; a
	 * flush's never before the programs it waited for (die_wait_ns).
	 */
	if (op == VFLASH_IO_FLUSH)
		want = max(want, now + lat->die_wait_ns);
	KUNIT_EXPECT_EQ_MSG(test, due, want,
			    "op %d lpn %llu count %u", op, lpn, count);
	KUNIT_EXPECT_LE(test, lat->bg_wait_ns, lat->die_wait_ns);
	return due;
}

static void latency_parts_of_a_queued_read(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	struct vflash_latency lat;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	set(f, VFLASH_KNOB_HOST_XFER_NS, 700);
	set(f, VFLASH_KNOB_FW_OVERHEAD_NS, 300);
	wr(f, 0, 0);
	wr(f, 1, 0);
	wr(f, 64, 0);	/* die 1: its own extent */
	sub_lat(test, f, VFLASH_IO_READ, 0, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, lat.array_ns, TR);
	KUNIT_EXPECT_EQ(test, lat.chan_ns, XF);
	KUNIT_EXPECT_EQ(test, lat.host_ns, 700ULL);
	KUNIT_EXPECT_EQ(test, lat.fw_ns, 300ULL);
	/* Same die: queues behind the first read, host work only. */
	sub_lat(test, f, VFLASH_IO_READ, 1, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, TR);
	KUNIT_EXPECT_EQ(test, lat.bg_wait_ns, 0ULL);
	/*
	 * Other die, same channel: its data (ready at TR) waits for the
	 * first read's transfer only, and takes the gap before the second's
	 * (at 2 * TR), not the end of the queue.
	 */
	sub_lat(test, f, VFLASH_IO_READ, 64, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, lat.chan_wait_ns, XF);
	/*
	 * A read of an unwritten page at TR: the host link is free until
	 * the first read's data arrive (TR + XF), and 700 fits before.
	 */
	sub_lat(test, f, VFLASH_IO_READ, 100, 1, LATER + TR, &lat);
	KUNIT_EXPECT_EQ(test, lat.host_wait_ns, 0ULL);
	/*
	 * One at TR + XF: behind the first read's 700, then the 300 ns gap
	 * before the die-1 read's data (at TR + 2 * XF) is too short, so
	 * behind those 700 too: 1700; the gap before the second die-0 read's
	 * (at 2 * TR + XF) holds it.
	 */
	sub_lat(test, f, VFLASH_IO_READ, 101, 1, LATER + TR + XF, &lat);
	KUNIT_EXPECT_EQ(test, lat.host_wait_ns, 2 * 700ULL + (XF - 700));
	/* An unwritten page costs the link and firmware only. */
	sub_lat(test, f, VFLASH_IO_READ, 200, 1, 2 * LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.array_ns + lat.chan_ns + lat.die_wait_ns,
			0ULL);
	KUNIT_EXPECT_EQ(test, vflash_latency_total(&lat), 700ULL + 300);
}

/*
 * Issue 42: a read of an idle die does not wait for the reads queued on
 * a busy die before it. The links (each die's channel here, the host
 * link) are booked in time order: the data of the idle die's read move
 * when they are ready, not after every transfer booked before them.
 */
static void link_idle_die_not_behind_busy_die(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &wide, SMALL);
	u64 i, base;

	use(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
	set(f, VFLASH_KNOB_HOST_XFER_NS, 0);
	set(f, VFLASH_KNOB_FW_OVERHEAD_NS, 0);
	set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 0);
	for (i = 0; i < 3; i++)
		wr(f, i, 0);
	wr(f, 64, 0);	/* die 1 */
	KUNIT_ASSERT_NE(test,
			vff_die_of_block(f, vff_block_of(f, f->l2p[0])),
			vff_die_of_block(f, vff_block_of(f, f->l2p[64])));
	/* A host link of 0 ns: the idle die's read at TR + XF. */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, rd(f, i, LATER),
				LATER + (i + 1) * TR + XF);
	KUNIT_EXPECT_EQ(test, rd(f, 64, LATER), LATER + TR + XF);
	/*
	 * A host link of 700 ns: the idle die's data (ready at TR + XF, as
	 * the first read's) wait for that read's 700 only.
	 */
	set(f, VFLASH_KNOB_HOST_XFER_NS, 700);
	base = 2 * LATER;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, rd(f, i, base),
				base + (i + 1) * TR + XF + 700);
	KUNIT_EXPECT_EQ(test, rd(f, 64, base), base + TR + XF + 2 * 700);
	check(test, f);
}

/*
 * vff_link_book() against a reference that keeps every span ever booked:
 * a booking never shares time with another, starts no earlier than its
 * data are ready, lasts its time, and (while the link has had room for
 * every span) takes the earliest gap that holds it. Seeded; the live
 * spans stay under VFF_LINK_SPANS in the first phase, then the second
 * books far ahead, so that gaps are filled for room (still never
 * shared).
 */
#define LINK_REF_MAX	600
static void link_book_takes_the_earliest_gap(struct kunit *test)
{
	struct vff_link *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u64 *rs = kunit_kcalloc(test, LINK_REF_MAX, sizeof(u64), GFP_KERNEL);
	u64 *re = kunit_kcalloc(test, LINK_REF_MAX, sizeof(u64), GFP_KERNEL);
	u64 seed = 42, now = 1000, t, dur, start, end, c, best;
	u32 n = 0, i, j, exact = 0, phase;
	bool folded = false;

	KUNIT_ASSERT_NOT_NULL(test, l);
	KUNIT_ASSERT_NOT_NULL(test, rs);
	KUNIT_ASSERT_NOT_NULL(test, re);
	spin_lock_init(&l->lock);
	vff_link_reset(l, 0);
	for (phase = 0; phase < 2; phase++) {
		for (j = 0; j < LINK_REF_MAX / 2; j++) {
			/* phase 1: short, sparse, far ahead: few merge */
			now += rnd(&seed) % (phase ? 30 : 300);
			t = now + rnd(&seed) % (phase ? 1000000 : 1000);
			dur = 1 + rnd(&seed) % (phase ? 10 : 200);
			folded |= l->nr == VFF_LINK_SPANS;
			end = vff_link_book(l, now, t, dur);
			start = end - dur;
			KUNIT_EXPECT_GE(test, start, t);
			for (i = 0; i < n; i++)
				KUNIT_EXPECT_TRUE_MSG(test, end <= rs[i] ||
						      start >= re[i],
						      "[%llu, %llu) shares time with [%llu, %llu)",
						      start, end, rs[i], re[i]);
			/*
			 * Exact until the first fold (a gap filled for room);
			 * spans dropped for having ended are all before
			 * now <= t.
			 */
			if (!folded) {
				/* The earliest start: t, or a span's end. */
				best = U64_MAX;
				for (c = 0; c <= n; c++) {
					u64 s0 = c < n ? max(re[c], t) : t;
					bool ok = true;

					for (i = 0; i < n && ok; i++)
						ok = s0 + dur <= rs[i] ||
						     s0 >= re[i];
					if (ok)
						best = min(best, s0);
				}
				KUNIT_EXPECT_EQ(test, start, best);
				exact++;
			}
			rs[n] = start;
			re[n] = end;
			n++;
			/* A 0 ns transfer never waits, books nothing. */
			KUNIT_EXPECT_EQ(test, vff_link_book(l, now, t, 0), t);
		}
		if (!phase)
			/* No fold in the first phase: every booking exact. */
			KUNIT_EXPECT_EQ(test, exact, LINK_REF_MAX / 2);
	}
	/* The second phase's bookings run far ahead: gaps were filled. */
	KUNIT_EXPECT_TRUE(test, folded);
}

/*
 * Issue 42: with every transfer, firmware and host time 0, the model is
 * the dies alone, so a seeded closed loop of reads at queue depth 16
 * over 8 dies gets, for every read, max(arrival, its die's free time) +
 * tR, the rule each die keeps on its own: no die's reads ever wait for
 * another's.
 */
static void dies_independent_in_a_closed_loop(struct kunit *test)
{
	static const struct vflash_profile eight = {
		.name = "t-eight", .desc = "test", .cell = VFLASH_CELL_SLC,
		.channels = 4, .dies_per_channel = 2, .flash_page_bytes = 4096,
		.pages_per_block = 16, .read_ns = TR, .xfer_ns_per_4k = XF,
		.slc_prog_ns = PROG, .prog_ns = PROG, .slc_erase_ns = ERASE,
		.erase_ns = ERASE,
	};
	struct vflash_flash *f = mk(test, &eight, SMALL);
	u64 due[16], free_at[8] = { }, seed = 7, lpn, now, want;
	u32 q, k, d, n = f->nr_lpages;

	set(f, VFLASH_KNOB_CHANNEL_XFER_NS, 0);
	set(f, VFLASH_KNOB_HOST_XFER_NS, 0);
	set(f, VFLASH_KNOB_FW_OVERHEAD_NS, 0);
	set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 0);
	for (lpn = 0; lpn < n / 2; lpn++)
		wr(f, lpn, 0);
	KUNIT_ASSERT_EQ(test, f->nr_dies, 8U);
	for (d = 0; d < 8; d++)
		free_at[d] = LATER;
	for (q = 0; q < 16; q++)
		due[q] = LATER;
	for (k = 0; k < 4000; k++) {
		/* The slot whose read completes first submits the next. */
		for (q = 0, now = U64_MAX; q < 16; q++)
			now = min(now, due[q]);
		for (q = 0; due[q] != now; q++)
			;
		lpn = rnd(&seed) % (n / 2);
		d = vff_die_of_block(f, vff_block_of(f, f->l2p[lpn]));
		want = max(now, free_at[d]) + TR;
		free_at[d] = want;
		due[q] = rd(f, lpn, now);
		KUNIT_EXPECT_EQ_MSG(test, due[q], want, "read %u, die %u", k, d);
		if (due[q] != want)
			break;
	}
}

/*
 * What the model predicts (backend_flash/model.c) agrees with its parts
 * and its bounds: the idle read is vflash_flash_model_read_ns(), one read
 * at a time gives 1 / that, saturation stays within the dies' ceiling and
 * reaches most of it at 32 commands a die, a sequential write is no
 * faster than the dies can program, and the steady state copies (WAF > 1)
 * and is slower than a new device. The same call twice gives the same
 * figures (a seeded closed loop on a virtual clock).
 */
static void model_predicts_within_the_dies_bounds(struct kunit *test)
{
	struct vflash_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct vflash_model *m2 = kunit_kzalloc(test, sizeof(*m2),
						 GFP_KERNEL);
	struct vflash_flash *f = vflash_flash_create(&wide, SMALL);
	u64 read;

	/* The profile's defaults (no mk()), as the scratch model has them */
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	read = vflash_flash_model_read_ns(f);
	vflash_flash_destroy(f);
	u64 dies = wide.channels * wide.dies_per_channel;
	u64 ceiling = dies * NSEC_PER_SEC / TR;
	u64 prog_pages_s = dies * NSEC_PER_SEC / PROG;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, m2);
	KUNIT_ASSERT_EQ(test, vflash_flash_model_predict(&wide, NULL, m), 0);
	/* The profile's defaults: the same as a new device's formula */
	KUNIT_EXPECT_EQ(test, m->read_lat_ns, read);
	KUNIT_EXPECT_EQ(test, m->randread_qd1_iops, NSEC_PER_SEC / read);
	KUNIT_EXPECT_LE(test, m->randread_sat_iops, ceiling);
	KUNIT_EXPECT_GE(test, m->randread_sat_iops * 100, ceiling * 95);
	KUNIT_EXPECT_EQ(test, m->sat_qd, 32U * (u32)dies);
	KUNIT_EXPECT_LE(test, m->seqwrite_mbps * 1000000,
			prog_pages_s * PAGE_SIZE);
	KUNIT_EXPECT_GT(test, m->seqwrite_mbps, 0ULL);
	KUNIT_EXPECT_GT(test, m->seqread_mbps, 0ULL);
	KUNIT_EXPECT_GT(test, m->randwrite_sat_iops, 0ULL);
	KUNIT_EXPECT_GT(test, m->steady_waf_milli, 1000ULL);
	KUNIT_EXPECT_LT(test, m->steady_write_iops, m->randwrite_sat_iops);
	KUNIT_ASSERT_EQ(test, vflash_flash_model_predict(&wide, NULL, m2), 0);
	KUNIT_EXPECT_EQ(test, memcmp(m, m2, sizeof(*m)), 0);
}

/* Every request of a GC-heavy mix: the parts add up, host overhead on. */
static void latency_parts_add_up_under_churn(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	u64 n = vflash_flash_nr_lpages(f), seed = 7, now = 0, bg = 0, i;
	struct vflash_latency lat;

	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	set(f, VFLASH_KNOB_HOST_XFER_NS, 500);
	set(f, VFLASH_KNOB_FW_OVERHEAD_NS, 200);
	set(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 3000);
	for (i = 0; i < 6000; i++) {
		u64 op = rnd(&seed) % 10, lpn = rnd(&seed) % (n - 4);
		u32 count = 1 + rnd(&seed) % 4;

		now += 3000;
		if (op < 6) {
			sub_lat(test, f, VFLASH_IO_WRITE, lpn, count, now, &lat);
			bg += lat.bg_wait_ns;
		} else if (op < 9) {
			sub_lat(test, f, VFLASH_IO_READ, lpn, count, now, &lat);
		} else if (op == 9 && i % 2) {
			sub_lat(test, f, VFLASH_IO_FLUSH, 0, 0, now, &lat);
		} else {
			sub_lat(test, f, VFLASH_IO_TRIM, lpn, count, now, &lat);
		}
	}
	/* Inline maintenance cleaned on the write path, and it shows. */
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
	KUNIT_EXPECT_GT(test, bg, 0ULL);
	check(test, f);
}

/* A read behind GC on its die is charged to background work; the other
 * die's reads are not.
 */
static void background_wait_is_attributed_to_its_die(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	struct vflash_latency lat;
	u32 b[3];

	three_blocks(test, f, b, 0, 0);
	wr(f, 64, 0);	/* die 1 */
	trim_range(f, 0, 12);
	set(f, VFLASH_KNOB_GC_HIGH_PCT, 90);
	vflash_flash_maintain(f, LATER);
	KUNIT_ASSERT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
	KUNIT_ASSERT_GT(test, f->dies[0].busy_until_ns, LATER);
	/* Page 20 is on die 0, still copying and erasing. */
	sub_lat(test, f, VFLASH_IO_READ, 20, 1, LATER, &lat);
	KUNIT_EXPECT_GT(test, lat.die_wait_ns, ERASE);
	KUNIT_EXPECT_EQ(test, lat.bg_wait_ns, lat.die_wait_ns);
	/* Behind that read: its die wait is host work plus the GC left. */
	sub_lat(test, f, VFLASH_IO_READ, 21, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns - lat.bg_wait_ns, TR);
	sub_lat(test, f, VFLASH_IO_READ, 64, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, lat.bg_wait_ns, 0ULL);
}

/* Under read-priority a read that passes background work waited for none. */
static void read_priority_read_waits_for_no_background(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	struct vflash_latency lat;
	u32 b[3];

	three_blocks(test, f, b, 0, 0);
	trim_range(f, 0, 12);
	set(f, VFLASH_KNOB_GC_HIGH_PCT, 90);
	vflash_flash_maintain(f, LATER);
	use(test, f, VFLASH_POLICY_MAINTENANCE, "read-priority");
	sub_lat(test, f, VFLASH_IO_READ, 20, 1, LATER, &lat);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_READ_PREEMPTS), 1ULL);
	/* Deferral spent: the next read waits, for background work. */
	set(f, VFLASH_KNOB_MAX_DEFER_NS, 0);
	sub_lat(test, f, VFLASH_IO_READ, 21, 1, LATER, &lat);
	KUNIT_EXPECT_GT(test, lat.bg_wait_ns, ERASE);
	KUNIT_EXPECT_EQ(test, lat.die_wait_ns - lat.bg_wait_ns, TR);
}

static void lateness_histogram(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &slc2, SMALL);
	int i;

	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_pct(f, 500), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_max(f), 0ULL);
	for (i = 0; i < 990; i++)
		vflash_flash_record_lateness(f, 1000000, 1000000 + 2000);
	for (i = 0; i < 9; i++)
		vflash_flash_record_lateness(f, 1000000, 1000000 + 50000);
	vflash_flash_record_lateness(f, 1000000, 1000000 + 4000000);
	/* Early: counted apart, not in the histogram. */
	vflash_flash_record_lateness(f, 1000000, 999999);
	vflash_flash_record_lateness(f, 1000000, 0);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_EARLY_COMPLETIONS), 2ULL);
	KUNIT_EXPECT_GE(test, vflash_flash_lateness_pct(f, 500), 2000ULL);
	KUNIT_EXPECT_LE(test, vflash_flash_lateness_pct(f, 500),
			2000ULL * 17 / 16);
	KUNIT_EXPECT_LE(test, vflash_flash_lateness_pct(f, 990),
			2000ULL * 17 / 16);
	KUNIT_EXPECT_GE(test, vflash_flash_lateness_pct(f, 999), 50000ULL);
	KUNIT_EXPECT_LE(test, vflash_flash_lateness_pct(f, 999),
			50000ULL * 17 / 16);
	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_max(f), 4000000ULL);
	/* Its bucket's bound is above it: no percentile says more than max. */
	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_pct(f, 1000), 4000000ULL);
	/* On time is zero lateness, not early. */
	vflash_flash_record_lateness(f, 5, 5);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_EARLY_COMPLETIONS), 2ULL);

	vflash_flash_reset_stats(f);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_EARLY_COMPLETIONS), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_max(f), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_pct(f, 999), 0ULL);
}

static void erase_and_free_block_accounting(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	u64 erases = 0, free_blocks = 0;
	u32 b, d;

	churn(test, f, 10000, 13, false);
	for (b = 0; b < f->nr_blocks; b++)
		erases += f->blocks[b].erase_count;
	KUNIT_EXPECT_EQ(test, erases, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS));
	for (d = 0; d < f->nr_dies; d++)
		free_blocks += f->dies[d].nr_free[VFF_SLC];
	KUNIT_EXPECT_EQ(test, free_blocks, vflash_flash_free_blocks(f, true));
}

static void create_rejects_bad_input(struct kunit *test)
{
	struct vflash_profile p = slc2;
	struct vflash_flash *f;

	p.channels = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_flash_create(&p, SMALL)),
			(long)-EINVAL);
	p = slc2;
	p.flash_page_bytes = 6000;
	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_flash_create(&p, SMALL)),
			(long)-EINVAL);
	p = qlc2;
	p.pages_per_block = 6;	/* not whole wordlines */
	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_flash_create(&p, SMALL)),
			(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_flash_create(&slc2, 0)),
			(long)-EINVAL);
	f = vflash_flash_create(&slc2, 16ULL << 40);
	KUNIT_EXPECT_EQ(test, PTR_ERR(f), (long)-E2BIG);
}

static void every_shipped_profile_serves_io(struct kunit *test)
{
	const struct vflash_profile *p;
	unsigned int i;

	for (i = 0; (p = vflash_profile_at(i)); i++) {
		struct vflash_flash *f = vflash_flash_create(p, 16ULL << 20);
		u64 t;

		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s", p->name);
		vflash_flash_submit(f, VFLASH_IO_WRITE, 0, 64, 0);
		t = vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, 0);
		KUNIT_EXPECT_GT_MSG(test, t, 0ULL, "%s", p->name);
		t = vflash_flash_submit(f, VFLASH_IO_READ, 0, 8, LATER);
		KUNIT_EXPECT_GT_MSG(test, t, LATER + p->read_ns, "%s",
				    p->name);
		vflash_flash_submit(f, VFLASH_IO_TRIM, 0, 32, LATER);
		check(test, f);
		vflash_flash_destroy(f);
	}
}

static void torture_threads_keep_invariants(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	char why[160] = "";

	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_torture(f, 4, 5000, why,
						       sizeof(why)), 0,
			    "%s", why);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_torture(f, 0, 10, why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_flash_torture(f, 65, 10, why, sizeof(why)),
			-EINVAL);
}

/*
 * Store p2l groups of 1 << @shift pages on a fresh device, as a device
 * of 2^(24 + @shift) pages would: nothing is mapped yet, so no entry is
 * in the old format.
 */
static void p2l_groups(struct kunit *test, struct vflash_flash *f, u32 shift)
{
	KUNIT_ASSERT_EQ(test, f->l2p[0], VFF_INVALID);
	f->p2l_shift = shift;
}

/* p2l has one entry per slot that a block of its region holds, no holes. */
static void p2l_index_is_compact(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	u64 n = (u64)f->nr_dies * f->p2l_per_die, bytes;
	unsigned long *seen;
	u32 b, i;

	KUNIT_ASSERT_GT(test, f->slc_per_die, 0U);
	KUNIT_ASSERT_LT(test, f->slots[VFF_SLC], f->stride);
	seen = kunit_kcalloc(test, BITS_TO_LONGS(n), sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (b = 0; b < f->nr_blocks; b++) {
		for (i = 0; i < f->slots[vff_region_of(f, b)]; i++) {
			u64 idx = vff_p2l_index(f, b * f->stride + i);

			KUNIT_ASSERT_LT(test, idx, n);
			KUNIT_EXPECT_FALSE_MSG(test, __test_and_set_bit(idx, seen),
					       "block %u slot %u", b, i);
		}
	}
	KUNIT_EXPECT_EQ(test, (u64)bitmap_weight(seen, n), n);
	/* What metadata_bytes() says is what the device holds. */
	KUNIT_ASSERT_EQ(test, vflash_flash_metadata_bytes(&hyb2, SMALL, &bytes),
			0);
	KUNIT_EXPECT_EQ(test, bytes, f->nr_lpages * sizeof(*f->l2p) +
			n * VFF_P2L_BYTES + DIV_ROUND_UP(f->nr_lpages, 2) +
			(u64)f->nr_blocks * sizeof(*f->blocks));
}

/* A slot's owner is the page of its group that l2p maps to it. */
static void p2l_group_lookup(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	u32 s15, s16;

	/* Small devices store the page itself. */
	KUNIT_EXPECT_EQ(test, f->p2l_shift, 0U);
	wr(f, 7, 0);
	KUNIT_EXPECT_EQ(test, vff_p2l_group(f, f->l2p[7]), 7U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, f->l2p[7]), 7U);
	vflash_flash_destroy(f);
	test->priv = NULL;

	f = mk(test, &hyb2, SMALL);
	p2l_groups(test, f, 4);
	/* The last page of group 0, the first of group 1, the device's last. */
	wr(f, 15, 0);
	wr(f, 16, 0);
	wr(f, 255, 0);
	s15 = f->l2p[15];
	s16 = f->l2p[16];
	KUNIT_EXPECT_EQ(test, vff_p2l_group(f, s15), 0U);
	KUNIT_EXPECT_EQ(test, vff_p2l_group(f, s16), 1U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, s15), 15U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, s16), 16U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, f->l2p[255]), 255U);
	check(test, f);
}

/* The last group of a device whose pages are no whole number of groups. */
static void p2l_last_partial_group(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL - 3 * 4096);
	u32 slot;

	KUNIT_ASSERT_EQ(test, f->nr_lpages, 253ULL);
	p2l_groups(test, f, 4);
	wr(f, 252, 0);
	wr(f, 240, 0);
	slot = f->l2p[252];
	KUNIT_EXPECT_EQ(test, vff_p2l_group(f, slot), 15U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, slot), 252U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, f->l2p[240]), 240U);
	/* The group runs past the device's end: the lookup stops there. */
	vflash_flash_submit(f, VFLASH_IO_TRIM, 252, 1, 10);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, slot), VFF_INVALID);
	check(test, f);
}

/* p2l is never cleared: a displaced slot's stale entry finds no owner. */
static void p2l_stale_entry_is_not_valid(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	u32 old, cur;

	p2l_groups(test, f, 4);
	wr(f, 5, 0);
	wr(f, 6, 0);
	old = f->l2p[5];
	wr(f, 5, 0);
	cur = f->l2p[5];
	KUNIT_ASSERT_NE(test, old, cur);
	/* Page 6 of the same group is mapped, elsewhere. */
	KUNIT_EXPECT_EQ(test, vff_p2l_group(f, old), 0U);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, old), VFF_INVALID);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, cur), 5U);
	vflash_flash_submit(f, VFLASH_IO_TRIM, 5, 1, 10);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, cur), VFF_INVALID);
	KUNIT_EXPECT_EQ(test, vff_p2l_owner(f, f->l2p[6]), 6U);
	check(test, f);
}

/* GC and migration find valid pages by group as they did by page. */
static void churn_with_p2l_groups(struct kunit *test)
{
	u32 shift;

	for (shift = 1; shift <= 8; shift += 7) {
		struct vflash_flash *f = mk(test, &hyb2, SMALL);

		p2l_groups(test, f, shift);
		churn(test, f, 20000, 11 + shift, false);
		KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_MIGRATED_PAGES), 0ULL);
		KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 20ULL);
		vflash_flash_destroy(f);
		test->priv = NULL;
	}
}

/* Host threads overwrite and trim while GC moves pages, with groups. */
static void torture_with_p2l_groups(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	char why[160] = "";

	p2l_groups(test, f, 4);
	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_torture(f, 4, 5000, why,
						       sizeof(why)), 0,
			    "%s", why);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
}

/* Read heat: 4 bits per page, two pages to a byte. */
static void heat_nibbles(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	int i;

	wr(f, 10, 0);
	for (i = 0; i < 20; i++)
		rd(f, 10, LATER);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 10), 15U);
	/* The neighbour's bumps and its own are both kept. */
	for (i = 0; i < 3; i++)
		rd(f, 11, LATER);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 11), 3U);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 10), 15U);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 9), 0U);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 12), 0U);
	KUNIT_EXPECT_EQ(test, vff_heat_bump(f, 10), 15U);
	KUNIT_EXPECT_EQ(test, vff_heat_bump(f, 11), 4U);
	/* Decay halves both, neither spilling into the other. */
	vff_heat_decay(f, 5);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 10), 7U);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 11), 2U);
	vff_heat_decay(f, 5);
	vff_heat_decay(f, 5);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 10), 1U);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 11), 0U);
	/* A trim forgets its page's heat only. */
	rd(f, 11, LATER);
	vflash_flash_submit(f, VFLASH_IO_TRIM, 10, 1, LATER);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 10), 0U);
	KUNIT_EXPECT_EQ(test, vff_heat(f, 11), 1U);
	/* The knob's top value still means hot. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_MIGRATE_HOT_READS, 15), 0);
	for (i = 0; i < 15; i++)
		rd(f, 11, LATER);
	KUNIT_EXPECT_GE(test, vff_heat(f, 11),
			(u32)vflash_flash_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS));
}

struct heat_thread {
	struct vflash_flash *f;
	u64 lpn;
	struct completion done;
};

static int heat_fn(void *data)
{
	struct heat_thread *t = data;
	int i;

	for (i = 0; i < 14; i++) {
		vff_heat_bump(t->f, t->lpn);
		cond_resched();
	}
	complete(&t->done);
	return 0;
}

/* Two threads bumping the two pages of one byte lose no bump. */
static void heat_neighbours_race(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb2, SMALL);
	struct heat_thread t[2];
	int round, i;

	for (round = 0; round < 50; round++) {
		for (i = 0; i < 2; i++) {
			struct task_struct *task;

			t[i].f = f;
			t[i].lpn = 20 + i;
			init_completion(&t[i].done);
			task = kthread_run(heat_fn, &t[i], "vflash-heat/%d", i);
			KUNIT_ASSERT_FALSE(test, IS_ERR(task));
		}
		for (i = 0; i < 2; i++)
			wait_for_completion(&t[i].done);
		KUNIT_ASSERT_EQ(test, vff_heat(f, 20), 14U);
		KUNIT_ASSERT_EQ(test, vff_heat(f, 21), 14U);
		vff_heat_clear(f, 20);
		vff_heat_clear(f, 21);
	}
}

static int flash_test_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void flash_test_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static int flash_test_init(struct kunit *test)
{
	test->priv = NULL;
	return 0;
}

static void flash_test_exit(struct kunit *test)
{
	vflash_flash_destroy(test->priv);
}

/* slc2 with @ph placement handles. */
static struct vflash_flash *mk_placed(struct kunit *test, u32 ph, u64 bytes)
{
	struct vflash_profile *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	*p = slc2;
	p->placement_handles = ph;
	return mk(test, p, bytes);
}

static u64 wr_ph(struct vflash_flash *f, u64 lpn, u32 ph, u64 now)
{
	return vflash_flash_submit_placed(f, VFLASH_FE_NONE, lpn, 1, now,
					  NULL, ph);
}

/*
 * Pages written with different placement handles never share an erase
 * block; each handle's blocks are its stream's; each extra handle adds a
 * block per die to the working set.
 */
static void placement_handles_never_share_a_block(struct kunit *test)
{
	struct vflash_flash *one = vflash_flash_create(&slc2, SMALL);
	struct vflash_flash *f;
	u64 lpn, now = 0;

	KUNIT_ASSERT_FALSE(test, IS_ERR(one));
	f = mk_placed(test, 4, SMALL);
	KUNIT_EXPECT_EQ(test, f->blocks_per_die, one->blocks_per_die + 3);
	vflash_flash_destroy(one);
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_handles(f), 4U);
	for (lpn = 0; lpn < 200; lpn++)
		now = wr_ph(f, lpn, lpn % 4, now);
	for (lpn = 0; lpn < 200; lpn++) {
		u32 b = vff_block_of(f, f->l2p[lpn]);

		KUNIT_EXPECT_EQ_MSG(test, (u32)f->blocks[b].stream,
				    (u32)vff_host_stream(lpn % 4),
				    "page %llu in block %u", lpn, b);
	}
	check(test, f);
	/* Too many handles: refused. */
	{
		struct vflash_profile p = slc2;

		p.placement_handles = VFLASH_FLASH_MAX_PLACEMENT + 1;
		KUNIT_EXPECT_EQ(test, PTR_ERR(vflash_flash_create(&p, SMALL)),
				-EINVAL);
	}
}

/*
 * FEMU's crash (every handle holding a partly written reclaim unit, no
 * free block left and no victim): random writes with all 16 handles over
 * a small device, 40 times its capacity, with GC on the write path only.
 * No write may find no room, free blocks never fall below GC's reserve
 * between requests, GC runs hundreds of times, and the counts add up.
 */
static void placement_gc_never_stuck(struct kunit *test)
{
	struct vflash_flash *f = mk_placed(test, VFLASH_FLASH_MAX_PLACEMENT,
					   SMALL);
	u64 n = f->nr_lpages, i, now = 0, host = 0, media = 0, h, m;
	u32 seed = 12345, d, ph, min_free = U32_MAX;

	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	for (i = 0; i < 40 * n; i++) {
		seed = seed * 1103515245 + 12345;
		ph = (seed >> 8) % VFLASH_FLASH_MAX_PLACEMENT;
		seed = seed * 1103515245 + 12345;
		now = wr_ph(f, (seed >> 8) % n, ph, now);
		/* Now and then a handle gets a new unit (RUH Update). */
		if (i % 97 == 0)
			vflash_flash_placement_update(f, ph, now);
		for (d = 0; d < f->nr_dies; d++)
			min_free = min(min_free, f->dies[d].nr_free[VFF_MAIN]);
		if (READ_ONCE(f->no_room))
			break;
	}
	KUNIT_EXPECT_FALSE(test, READ_ONCE(f->no_room));
	KUNIT_EXPECT_GE(test, min_free, (u32)VFF_GC_RESERVE);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 200ULL);
	check(test, f);
	for (i = 0, h = 0; i < n; i++)
		h += f->l2p[i] == VFF_INVALID;
	KUNIT_EXPECT_EQ_MSG(test, h, 0ULL, "pages never written");
	for (ph = 0; ph < VFLASH_FLASH_MAX_PLACEMENT; ph++) {
		vflash_flash_placement_stat(f, ph, &h, &m);
		KUNIT_EXPECT_GT(test, h, 0ULL);
		host += h;
		media += m;
	}
	KUNIT_EXPECT_EQ(test, host, st(f, VFLASH_STAT_HOST_WRITE_PAGES));
	/* Every program is some handle's, or a copy out of a GC block. */
	KUNIT_EXPECT_LE(test, media, st(f, VFLASH_STAT_NAND_PROGRAM_PAGES));
	KUNIT_EXPECT_GT(test, media, host);
	KUNIT_EXPECT_EQ(test, vflash_flash_erased_bytes(f),
			st(f, VFLASH_STAT_NAND_ERASE_BLOCKS) * f->slots[VFF_MAIN] *
			VFLASH_LPAGE_SIZE);
}

/*
 * The controller events' counts (NVMe FDP): only handle 2 writes, so
 * only its pages are moved (by GC, inline), never more than GC copied,
 * the last one named; a stats reset leaves the counts alone.
 */
static void placement_events_count_moves(struct kunit *test)
{
	struct vflash_flash *f = mk_placed(test, 4, SMALL);
	u64 n = f->nr_lpages / 2, i, now = 0, x = 7;
	struct vflash_placement_events ev;
	u32 ph;

	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	vflash_flash_placement_events(f, 2, &ev);
	KUNIT_EXPECT_EQ(test, ev.moved_pages, 0ULL);
	for (i = 0; i < 20 * n; i++)
		now = wr_ph(f, rnd(&x) % n, 2, now);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_GC_RUNS), 10ULL);
	vflash_flash_placement_events(f, 2, &ev);
	KUNIT_EXPECT_GT(test, ev.moved_pages, 0ULL);
	KUNIT_EXPECT_LE(test, ev.moved_pages,
			st(f, VFLASH_STAT_GC_COPIED_PAGES));
	KUNIT_EXPECT_LT(test, ev.moved_lpn, n);
	KUNIT_EXPECT_EQ(test, ev.units_retired, 0ULL);
	for (ph = 0; ph < 4; ph++) {
		struct vflash_placement_events o;

		if (ph == 2)
			continue;
		vflash_flash_placement_events(f, ph, &o);
		KUNIT_EXPECT_EQ(test, o.moved_pages + o.units_retired, 0ULL);
	}
	i = ev.moved_pages;
	vflash_flash_reset_stats(f);
	vflash_flash_placement_events(f, 2, &ev);
	KUNIT_EXPECT_EQ(test, ev.moved_pages, i);
	check(test, f);
}

/*
 * A handle's update closes its open blocks: room back to a whole unit,
 * the partial program unit padded and programmed (counted for the
 * handle), the pages still readable where they are; a fresh handle's
 * update does nothing.
 */
static void placement_update_closes_the_unit(struct kunit *test)
{
	struct vflash_flash *f = mk_placed(test, 4, SMALL);
	u64 full = vflash_flash_placement_room(f, 1), now = 0, h, m;
	u32 slot;

	KUNIT_EXPECT_EQ(test, full, 2ULL * f->slots[VFF_MAIN]);
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_ru_bytes(f),
			full * VFLASH_LPAGE_SIZE);
	now = wr_ph(f, 5, 1, now);
	now = wr_ph(f, 6, 1, now);
	now = wr_ph(f, 7, 1, now);
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_room(f, 1), full - 3);
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_room(f, 2), full);
	slot = f->l2p[6];
	KUNIT_EXPECT_TRUE(test, vflash_flash_placement_update(f, 1, now));
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_room(f, 1), full);
	KUNIT_EXPECT_EQ(test, f->l2p[6], slot);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[vff_block_of(f, slot)].state,
			(u32)VFF_BLK_FULL);
	KUNIT_EXPECT_FALSE(test, vflash_flash_placement_update(f, 1, now));
	KUNIT_EXPECT_FALSE(test, vflash_flash_placement_update(f, 4, now));
	vflash_flash_placement_stat(f, 1, &h, &m);
	KUNIT_EXPECT_EQ(test, h, 3ULL);
	KUNIT_EXPECT_EQ(test, m, 3ULL);	/* one-page units: no padding */
	vflash_flash_placement_stat(f, 2, &h, &m);
	KUNIT_EXPECT_EQ(test, h + m, 0ULL);
	now = wr_ph(f, 8, 1, now);
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_room(f, 1), full - 1);
	check(test, f);
}

/*
 * A zoned device's FTL (docs/design/zns.md): hyb2 (QLC main region with an
 * SLC cache, four-slot wordlines) with 16 handles, 1 and up zone handles.
 * A zone here is ZONE_PAGES pages from its first lpn, one block per die.
 */
#define ZONE_PAGES	32

static struct vflash_flash *mk_zoned(struct kunit *test)
{
	struct vflash_profile *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct vflash_flash *f;

	KUNIT_ASSERT_NOT_NULL(test, p);
	*p = hyb2;
	p->placement_handles = VFLASH_FLASH_MAX_PLACEMENT;
	f = mk(test, p, SMALL);
	KUNIT_ASSERT_EQ(test, f->slots[VFF_MAIN] * f->nr_dies, ZONE_PAGES);
	vflash_flash_set_zone_handles(f, true);
	KUNIT_ASSERT_TRUE(test, vflash_flash_zone_handles(f));
	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	return f;
}

/* Write pages [@from, @to) of the zone at @zone with handle @ph. */
static u64 zone_fill(struct vflash_flash *f, u64 zone, u32 from, u32 to,
		     u32 ph, u64 now)
{
	u32 i;

	for (i = from; i < to; i++)
		now = wr_ph(f, zone + i, ph, now);
	return now;
}

/*
 * Every slot of every block holding a page of the zone at @zone holds a
 * page of that zone, or nothing; the blocks are main-region blocks of
 * handle @ph's stream. Returns how many blocks there are.
 */
static u32 zone_blocks_alone(struct kunit *test, struct vflash_flash *f,
			     u64 zone, u32 ph)
{
	u32 i, j, n = 0, seen[8];

	for (i = 0; i < ZONE_PAGES; i++) {
		u32 b, k;

		if (f->l2p[zone + i] == VFF_INVALID)
			continue;
		b = vff_block_of(f, f->l2p[zone + i]);
		for (k = 0; k < n && seen[k] != b; k++)
			;
		if (k < n)
			continue;
		KUNIT_ASSERT_LT(test, n, 8U);
		seen[n++] = b;
		KUNIT_EXPECT_EQ(test, (u32)f->blocks[b].stream,
				(u32)vff_host_stream(ph));
		KUNIT_EXPECT_EQ(test, (u32)vff_region_of(f, b), (u32)VFF_MAIN);
		for (j = 0; j < f->slots[VFF_MAIN]; j++) {
			u32 o = vff_p2l_owner(f, b * f->stride + j);

			KUNIT_EXPECT_TRUE_MSG(test, o == VFF_INVALID ||
					      (o >= zone && o < zone + ZONE_PAGES),
					      "block %u holds page %u", b, o);
		}
	}
	return n;
}

/*
 * Two zones written at once, page by page in turn, with their own zone
 * handles: neither shares a block with the other (nor with handle 0's
 * pages written meanwhile), and zone writes skip the SLC cache.
 */
static void zone_blocks_hold_one_zone(struct kunit *test)
{
	struct vflash_flash *f = mk_zoned(test);
	u64 now = 0;
	u32 i;

	vflash_flash_zone_bind(f, 1, 0, ZONE_PAGES, 0);
	vflash_flash_zone_bind(f, 2, ZONE_PAGES, ZONE_PAGES, 1);
	for (i = 0; i < ZONE_PAGES; i++) {
		now = wr_ph(f, 0 + i, 1, now);
		now = wr_ph(f, ZONE_PAGES + i, 2, now);
		if (i % 4 == 0)
			now = wr_ph(f, 4 * ZONE_PAGES + i, 0, now);
	}
	vflash_flash_placement_update(f, 1, now);
	vflash_flash_placement_update(f, 2, now);
	KUNIT_EXPECT_GE(test, zone_blocks_alone(test, f, 0, 1), 2U);
	KUNIT_EXPECT_GE(test, zone_blocks_alone(test, f, ZONE_PAGES, 2), 2U);
	/* Handle 0 is the ordinary host stream: SLC first. */
	KUNIT_EXPECT_EQ(test,
			(u32)vff_region_of(f, blk_of(f, 4 * ZONE_PAGES)),
			(u32)VFF_SLC);
	check(test, f);
}

/*
 * A reset erases the zone's sealed blocks at once: one erase per block,
 * charged on each die's timeline (the reset ends no earlier than an
 * erase after the die's queued work), counted in nand_erase_blocks and
 * zone_erase_blocks, the blocks free again; the pages read as never
 * written. A zone left half written is padded, sealed and erased as well.
 */
static void zone_reset_erases_at_once(struct kunit *test)
{
	struct vflash_flash *f = mk_zoned(test);
	u64 erase_ns = vflash_flash_knob(f, VFLASH_KNOB_MAIN_ERASE_NS);
	u64 free0 = vflash_flash_free_blocks(f, false), now, busy, t;
	u32 d;

	vflash_flash_zone_bind(f, 1, 0, ZONE_PAGES, 0);
	now = zone_fill(f, 0, 0, ZONE_PAGES, 1, 0);
	vflash_flash_placement_update(f, 1, now);
	KUNIT_EXPECT_EQ(test, zone_blocks_alone(test, f, 0, 1), 2U);
	KUNIT_EXPECT_EQ(test, vflash_flash_free_blocks(f, false), free0 - 2);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS), 0ULL);
	for (d = 0, busy = 0; d < f->nr_dies; d++)
		busy = max(busy, f->dies[d].busy_until_ns);
	t = vflash_flash_zone_reset(f, 0, ZONE_PAGES, now);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS), 2ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_ERASE_BLOCKS), 2ULL);
	KUNIT_EXPECT_EQ(test, t, max(busy, now) + erase_ns);
	for (d = 0; d < f->nr_dies; d++)
		KUNIT_EXPECT_GE(test, f->dies[d].busy_until_ns, now + erase_ns);
	KUNIT_EXPECT_EQ(test, vflash_flash_free_blocks(f, false), free0);
	KUNIT_EXPECT_EQ(test, f->l2p[0], VFF_INVALID);
	KUNIT_EXPECT_EQ(test, f->l2p[ZONE_PAGES - 1], VFF_INVALID);

	/* Ten pages, five a die: padded to two wordlines each, then erased. */
	vflash_flash_zone_bind(f, 3, ZONE_PAGES, ZONE_PAGES, 1);
	now = zone_fill(f, ZONE_PAGES, 0, 10, 3, t);
	vflash_flash_placement_update(f, 3, now);
	KUNIT_EXPECT_EQ(test, zone_blocks_alone(test, f, ZONE_PAGES, 3), 2U);
	t = vflash_flash_zone_reset(f, ZONE_PAGES, ZONE_PAGES, now);
	KUNIT_EXPECT_GE(test, t, now + erase_ns);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_ERASE_BLOCKS), 4ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_free_blocks(f, false), free0);
	/* Nothing left to erase: no time, no count. */
	KUNIT_EXPECT_EQ(test, vflash_flash_zone_reset(f, 0, ZONE_PAGES, t), t);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS), 4ULL);
	check(test, f);
}

/*
 * Seal handle @ph's blocks (a zone's Finish or Full); returns the slots
 * of padding this programs: each open block's partly filled wordline.
 */
static u32 zone_seal(struct vflash_flash *f, u32 ph, u64 now)
{
	u32 d, pad = 0;

	for (d = 0; d < f->nr_dies; d++) {
		u32 b = f->dies[d].open[vff_host_stream(ph)][VFF_MAIN];

		if (b != VFF_INVALID)
			pad += (4 - f->blocks[b].wp % 4) % 4;
	}
	vflash_flash_placement_update(f, ph, now);
	return pad;
}

/*
 * A zone-only workload (three zones filled at once, a zone reset before
 * it is written again, some zones finished early) over 40 times the
 * capacity: GC never copies a page nor runs, every erase is a reset's,
 * and the zone counters add up: media pages = host pages + the padding
 * of each early finish, no other page written.
 */
static void zone_workload_needs_no_gc(struct kunit *test)
{
	struct vflash_flash *f = mk_zoned(test);
	u32 nr_zones = f->nr_lpages / ZONE_PAGES, z, fill[3], pad = 0;
	u64 now = 0, writes = 0, x = 7;
	u32 zone[3], k;
	u32 used[16] = { };
	u64 erases = 0;

	KUNIT_ASSERT_GE(test, nr_zones, 6U);
	KUNIT_ASSERT_LE(test, nr_zones, 16U);
	for (k = 0; k < 3; k++) {
		zone[k] = k;
		fill[k] = 0;
		vflash_flash_zone_bind(f, 1 + k, k * ZONE_PAGES, ZONE_PAGES,
				       k);
	}
	while (writes < 40 * f->nr_lpages) {
		k = rnd(&x) % 3;
		now = wr_ph(f, (u64)zone[k] * ZONE_PAGES + fill[k]++, 1 + k,
			    now);
		writes++;
		/* Full, or one in 64 finished early. */
		if (fill[k] < ZONE_PAGES && rnd(&x) % 64)
			continue;
		pad += zone_seal(f, 1 + k, now);
		used[zone[k]] = min(fill[k], f->nr_dies);
		/* The next zone: one no other is writing, reset first. */
		do {
			z = rnd(&x) % nr_zones;
		} while (z == zone[0] || z == zone[1] || z == zone[2]);
		now = max(now, vflash_flash_zone_reset(f, (u64)z * ZONE_PAGES,
						       ZONE_PAGES, now));
		erases += used[z];
		used[z] = 0;
		zone[k] = z;
		fill[k] = 0;
		vflash_flash_zone_bind(f, 1 + k, (u64)z * ZONE_PAGES,
				       ZONE_PAGES, z);
		KUNIT_ASSERT_FALSE(test, READ_ONCE(f->no_room));
	}
	for (k = 0; k < 3; k++)
		pad += zone_seal(f, 1 + k, now);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_RUNS), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_MIGRATED_PAGES), 0ULL);
	KUNIT_EXPECT_GT(test, st(f, VFLASH_STAT_ZONE_ERASE_BLOCKS),
			(u64)2 * 30 * nr_zones);
	/* A zone takes one block on each die it wrote: one erase each. */
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_ERASE_BLOCKS), erases);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_ERASE_BLOCKS),
			st(f, VFLASH_STAT_ZONE_ERASE_BLOCKS));
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_HOST_PAGES), writes);
	KUNIT_EXPECT_GT(test, pad, 0U);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_MEDIA_PAGES),
			writes + pad);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_NAND_PROGRAM_PAGES),
			writes + pad);
	check(test, f);
}

/*
 * The zone-to-die layout (config/zone_dies): 0 spreads a zone over as
 * many dies as it fills whole blocks on (a one-block zone on one die, the
 * next zone on the next die), N over N dies; more than the dies refused.
 */
static void zone_layout_by_dies(struct kunit *test)
{
	struct vflash_flash *f = mk_zoned(test);
	u32 half = ZONE_PAGES / 2, i;
	u64 now = 0;

	/* Zones of one block: zone 0 on die 0, zone 1 on die 1. */
	vflash_flash_zone_bind(f, 1, 0, half, 0);
	vflash_flash_zone_bind(f, 2, half, half, 1);
	now = zone_fill(f, 0, 0, half, 1, now);
	now = zone_fill(f, half, 0, half, 2, now);
	for (i = 0; i < half; i++) {
		KUNIT_EXPECT_EQ(test, blk_of(f, i), blk_of(f, 0));
		KUNIT_EXPECT_EQ(test, blk_of(f, half + i), blk_of(f, half));
	}
	KUNIT_EXPECT_EQ(test, vff_die_of_block(f, blk_of(f, 0)), 0U);
	KUNIT_EXPECT_EQ(test, vff_die_of_block(f, blk_of(f, half)), 1U);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[blk_of(f, 0)].state,
			(u32)VFF_BLK_FULL);
	/* One die per zone: a two-block zone takes two blocks of die 1. */
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_ZONE_DIES, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(f, VFLASH_KNOB_ZONE_DIES, 1), 0);
	vflash_flash_zone_bind(f, 3, ZONE_PAGES, ZONE_PAGES, 1);
	now = zone_fill(f, ZONE_PAGES, 0, ZONE_PAGES, 3, now);
	for (i = 0; i < ZONE_PAGES; i++)
		KUNIT_EXPECT_EQ(test,
				vff_die_of_block(f, blk_of(f, ZONE_PAGES + i)),
				1U);
	KUNIT_EXPECT_EQ(test, zone_blocks_alone(test, f, ZONE_PAGES, 3), 2U);
	check(test, f);
}

/* Clean one block of die @d's main region, as the write path does. */
static bool clean_die(struct vflash_flash *f, u32 d, u64 now)
{
	bool ok;

	spin_lock(&f->dies[d].lock);
	ok = vff_clean(f, &f->dies[d], d, VFF_MAIN, &now);
	spin_unlock(&f->dies[d].lock);
	return ok;
}

/*
 * GC and zone blocks: a zone's block that still holds valid pages is a
 * victim only when no other block is, even with fewer valid pages than
 * the others (greedy); one a deallocation emptied is cleaned at no copy.
 */
static void zone_blocks_are_gc_last(struct kunit *test)
{
	struct vflash_flash *f = mk_placed(test, VFLASH_FLASH_MAX_PLACEMENT,
					   SMALL);
	u32 zb, hb = VFF_INVALID, i;
	u64 now = 0, copied;

	vflash_flash_set_zone_handles(f, true);
	use(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	use(test, f, VFLASH_POLICY_GC, "greedy");
	vflash_flash_zone_bind(f, 1, 0, ZONE_PAGES, 0);
	now = zone_fill(f, 0, 0, ZONE_PAGES, 1, now);
	vflash_flash_placement_update(f, 1, now);
	/* Zone 0's even pages fill a block of die 0: 12 valid of 16. */
	zb = blk_of(f, 0);
	KUNIT_ASSERT_EQ(test, vff_die_of_block(f, zb), 0U);
	now = vflash_flash_submit(f, VFLASH_IO_TRIM, 0, 8, now);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->blocks[zb].valid), 12);
	/* Handle 0's full block on die 0 with 14 valid pages. */
	for (i = 0; i < ZONE_PAGES; i++)
		now = wr(f, 2 * ZONE_PAGES + i, now);
	for (i = 0; i < ZONE_PAGES; i++) {
		u32 b = blk_of(f, 2 * ZONE_PAGES + i);

		if (vff_die_of_block(f, b) ||
		    f->blocks[b].state != VFF_BLK_FULL)
			continue;
		if (hb == VFF_INVALID)
			hb = b;
		if (b == hb && atomic_read(&f->blocks[hb].valid) > 14)
			now = wr(f, 2 * ZONE_PAGES + i, now);
	}
	KUNIT_ASSERT_NE(test, hb, VFF_INVALID);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->blocks[hb].valid), 14);
	KUNIT_EXPECT_TRUE(test, clean_die(f, 0, now));
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), 14ULL);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[zb].state, (u32)VFF_BLK_FULL);
	/*
	 * The zone's pages deallocated (not reset): its block costs no copy
	 * and goes before handle 0's full blocks (one with an invalid page).
	 */
	now = vflash_flash_submit(f, VFLASH_IO_TRIM, 0, ZONE_PAGES, now);
	for (i = 0; i < ZONE_PAGES; i++)
		now = wr(f, 4 * ZONE_PAGES + i, now);
	for (i = 0, hb = VFF_INVALID; i < ZONE_PAGES && hb == VFF_INVALID;
	     i++) {
		u32 b = blk_of(f, 4 * ZONE_PAGES + i);

		if (!vff_die_of_block(f, b) && f->blocks[b].state == VFF_BLK_FULL) {
			hb = b;
			now = wr(f, 4 * ZONE_PAGES + i, now);
		}
	}
	KUNIT_ASSERT_NE(test, hb, VFF_INVALID);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->blocks[hb].valid), 15);
	copied = st(f, VFLASH_STAT_GC_COPIED_PAGES);
	KUNIT_EXPECT_TRUE(test, clean_die(f, 0, now));
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_GC_COPIED_PAGES), copied);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[zb].state, (u32)VFF_BLK_FREE);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[hb].state, (u32)VFF_BLK_FULL);
	check(test, f);
}

/*
 * Zone counters: host and media pages of the zone handles only (handle
 * 0's writes are not a zone's), zero on a device without zone handles.
 */
static void zone_counters_add_up(struct kunit *test)
{
	struct vflash_flash *f = mk_zoned(test);
	u64 now;

	vflash_flash_zone_bind(f, 1, 0, ZONE_PAGES, 0);
	now = zone_fill(f, 0, 0, 10, 1, 0);
	now = wr_ph(f, 4 * ZONE_PAGES, 0, now);
	vflash_flash_placement_update(f, 1, now);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_HOST_PAGES), 10ULL);
	/* Five pages a die, each die's second wordline padded by three. */
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_MEDIA_PAGES), 16ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_HOST_WRITE_PAGES), 11ULL);
	vflash_flash_set_zone_handles(f, false);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_HOST_PAGES), 0ULL);
	KUNIT_EXPECT_EQ(test, st(f, VFLASH_STAT_ZONE_MEDIA_PAGES), 0ULL);
}

static struct kunit_case flash_test_cases[] = {
	KUNIT_CASE(unwritten_read_costs_no_nand),
	KUNIT_CASE(latency_parts_of_a_queued_read),
	KUNIT_CASE(link_idle_die_not_behind_busy_die),
	KUNIT_CASE(link_book_takes_the_earliest_gap),
	KUNIT_CASE(dies_independent_in_a_closed_loop),
	KUNIT_CASE(model_predicts_within_the_dies_bounds),
	KUNIT_CASE(latency_parts_add_up_under_churn),
	KUNIT_CASE(background_wait_is_attributed_to_its_die),
	KUNIT_CASE(read_priority_read_waits_for_no_background),
	KUNIT_CASE(lateness_histogram),
	KUNIT_CASE(slc_read_latency),
	KUNIT_CASE(qlc_read_latency_by_page_type),
	KUNIT_CASE(reads_on_one_die_queue),
	KUNIT_CASE(reads_on_two_channels_overlap),
	KUNIT_CASE(shared_channel_serialises_transfers),
	KUNIT_CASE(host_link_and_firmware_time),
	KUNIT_CASE(host_overhead_shortens_completion),
	KUNIT_CASE(model_read_is_an_idle_read),
	KUNIT_CASE(write_completes_before_its_program),
	KUNIT_CASE(write_buffer_back_pressure),
	KUNIT_CASE(big_buffer_absorbs_a_burst),
	KUNIT_CASE(flush_waits_for_programs),
	KUNIT_CASE(flush_pads_a_partial_wordline),
	KUNIT_CASE(qlc_wordline_is_one_program),
	KUNIT_CASE(knobs_change_latency),
	KUNIT_CASE(knobs_reject_out_of_range),
	KUNIT_CASE(overwrite_and_trim),
	KUNIT_CASE(churn_slc_gc_keeps_invariants),
	KUNIT_CASE(churn_inline_maintenance),
	KUNIT_CASE(churn_hybrid_gc_and_migration),
	KUNIT_CASE(switching_policies_mid_workload),
	KUNIT_CASE(waf_sequential_is_one),
	KUNIT_CASE(waf_random_over_full_capacity),
	KUNIT_CASE(gc_greedy_picks_fewest_valid),
	KUNIT_CASE(gc_fifo_picks_oldest),
	KUNIT_CASE(gc_cost_benefit_weighs_age),
	KUNIT_CASE(gc_skips_full_blocks),
	KUNIT_CASE(migration_keeps_hot_moves_cold),
	KUNIT_CASE(migration_off_spills_everything),
	KUNIT_CASE(hot_qlc_page_is_repromoted),
	KUNIT_CASE(background_work_delays_host_reads),
	KUNIT_CASE(read_priority_passes_background),
	KUNIT_CASE(read_priority_deferral_is_bounded),
	KUNIT_CASE(background_gc_is_charged),
	KUNIT_CASE(inline_policy_leaves_worker_idle),
	KUNIT_CASE(background_reaches_high_watermark),
	KUNIT_CASE(writes_never_fail_at_full_capacity),
	KUNIT_CASE(placement_spreads_or_pins),
	KUNIT_CASE(stats_and_percentiles),
	KUNIT_CASE(erase_and_free_block_accounting),
	KUNIT_CASE(create_rejects_bad_input),
	KUNIT_CASE(every_shipped_profile_serves_io),
	KUNIT_CASE(torture_threads_keep_invariants),
	KUNIT_CASE(p2l_index_is_compact),
	KUNIT_CASE(placement_handles_never_share_a_block),
	KUNIT_CASE(placement_gc_never_stuck),
	KUNIT_CASE(placement_update_closes_the_unit),
	KUNIT_CASE(placement_events_count_moves),
	KUNIT_CASE(zone_blocks_hold_one_zone),
	KUNIT_CASE(zone_reset_erases_at_once),
	KUNIT_CASE(zone_workload_needs_no_gc),
	KUNIT_CASE(zone_counters_add_up),
	KUNIT_CASE(zone_layout_by_dies),
	KUNIT_CASE(zone_blocks_are_gc_last),
	KUNIT_CASE(p2l_group_lookup),
	KUNIT_CASE(p2l_last_partial_group),
	KUNIT_CASE(p2l_stale_entry_is_not_valid),
	KUNIT_CASE(churn_with_p2l_groups),
	KUNIT_CASE(torture_with_p2l_groups),
	KUNIT_CASE(heat_nibbles),
	KUNIT_CASE(heat_neighbours_race),
	KUNIT_CASE(request_ids),
	{}
};

static struct kunit_suite flash_test_suite = {
	.name = "vflash-flash",
	.suite_init = flash_test_suite_init,
	.suite_exit = flash_test_suite_exit,
	.init = flash_test_init,
	.exit = flash_test_exit,
	.test_cases = flash_test_cases,
};

kunit_test_suite(flash_test_suite);
