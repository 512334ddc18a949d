// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for instant preconditioning (backend_flash/precondition.c,
 * docs/design/precondition.md): the state holds together, maps exactly the
 * filled LBAs, the one-die replay's valid counts are distributed as a full
 * replay's, wear and age are added as asked, the device is idle after it,
 * and bad requests change nothing. No timing assertions; times are
 * explicit. vflash-bench-precondition (outside make check) prints what a
 * large device costs.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "backend_flash/flash.h"
#include "backend_flash/ftl.h"
#include "backend_flash/profile.h"
#include "policy/policy.h"

/* Two channels of two dies, 16 pages per block. */
static const struct vflash_profile tlc4 = {
	.name = "t-pre", .desc = "test", .cell = VFLASH_CELL_TLC,
	.channels = 2, .dies_per_channel = 2, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = 50000, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = 100000, .prog_ns = 500000, .slc_erase_ns = 1000000,
	.erase_ns = 3000000,
};

/* QLC behind an SLC region: migration runs too. */
static const struct vflash_profile hyb4 = {
	.name = "t-pre-hyb", .desc = "test", .cell = VFLASH_CELL_QLC,
	.slc_cache = true, .channels = 2, .dies_per_channel = 2,
	.flash_page_bytes = 4096, .pages_per_block = 16, .read_ns = 10000,
	.qlc_read_ns = { 20000, 30000, 40000, 50000 }, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = 100000, .prog_ns = 400000, .slc_erase_ns = 1000000,
	.erase_ns = 4000000,
};

#define CAP		(16ULL << 20)	/* 4096 logical pages */
#define BIG		(64ULL << 20)	/* 16384 */
#define NOW		5000000000000ULL
#define MAX_DEVS	4
#define SLOTS		16

struct pre_ctx {
	struct vflash_flash *f[MAX_DEVS];
};

static struct vflash_flash *mk(struct kunit *test,
			       const struct vflash_profile *prof, u64 bytes)
{
	struct pre_ctx *c = test->priv;
	struct vflash_flash *f = vflash_flash_create(prof, bytes);
	int i;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "create: %ld", PTR_ERR(f));
	for (i = 0; i < MAX_DEVS && c->f[i]; i++)
		;
	KUNIT_ASSERT_LT(test, i, MAX_DEVS);
	c->f[i] = f;
	return f;
}

static void check(struct kunit *test, struct vflash_flash *f)
{
	char why[160] = "";

	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_check(f, why, sizeof(why)), 0,
			    "invariant: %s", why);
}

/* Parses @line and runs it at NOW; the return value of either. */
static int pre(struct kunit *test, struct vflash_flash *f, const char *line)
{
	struct vflash_precondition p;
	int ret = vflash_flash_precondition_parse(f, line, &p);

	return ret ?: vflash_flash_precondition(f, &p, NOW);
}

/* Exactly LBAs [0, @fill) are mapped, and the valid counts add up to it. */
static void maps_fill(struct kunit *test, struct vflash_flash *f, u64 fill)
{
	u64 lpn, valid = 0, wrong = 0;
	u32 b;

	for (lpn = 0; lpn < f->nr_lpages; lpn++)
		wrong += (f->l2p[lpn] != VFF_INVALID) != (lpn < fill);
	for (b = 0; b < f->nr_blocks; b++)
		valid += atomic_read(&f->blocks[b].valid);
	KUNIT_EXPECT_EQ(test, wrong, 0ULL);
	KUNIT_EXPECT_EQ(test, valid, fill);
}

/* Idle from NOW, counters at zero. */
static void idle_and_zero(struct kunit *test, struct vflash_flash *f)
{
	u32 d, i;

	for (d = 0; d < f->nr_dies; d++) {
		KUNIT_EXPECT_LE(test, f->dies[d].busy_until_ns, NOW);
		KUNIT_EXPECT_EQ(test, f->dies[d].wb_used, 0U);
	}
	for (d = 0; d < f->nr_channels; d++)
		KUNIT_EXPECT_LE(test, vff_link_busy_until(&f->channels[d].link), NOW);
	for (i = 0; i < VFLASH_STAT_NR; i++)
		if (i != VFLASH_STAT_SPARE_BLOCKS)
			KUNIT_EXPECT_EQ_MSG(test, vflash_flash_stat(f, i), 0ULL,
					    "counter %s",
					    vflash_flash_stat_name(i));
}

/* Every workload, both replays, some fill levels: a sound state. */
static void states_hold_together(struct kunit *test)
{
	static const char * const lines[] = {
		"workload=seq", "workload=random replay=full",
		"workload=random replay=die", "workload=hotcold replay=full",
		"workload=hotcold replay=die hot=10:90 seed=7",
		"workload=seq fill=37 written=300 replay=die",
		"workload=random fill=50 replay=die seed=3",
		"workload=random fill=63 written=63 replay=full",
	};
	static const u32 fills[] = { 100, 100, 100, 100, 100, 37, 50, 63 };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		struct vflash_flash *f = mk(test, i % 2 ? &hyb4 : &tlc4, CAP);
		u64 fill = div_u64(f->nr_lpages * fills[i], 100);

		/* Something written before: preconditioning starts afresh. */
		vflash_flash_submit(f, VFLASH_IO_WRITE, 5, 40, 1000);
		KUNIT_ASSERT_EQ_MSG(test, pre(test, f, lines[i]), 0, "%s",
				    lines[i]);
		check(test, f);
		maps_fill(test, f, fill);
		idle_and_zero(test, f);
		KUNIT_EXPECT_TRUE(test, f->pre_res.done);
		KUNIT_EXPECT_GE(test, f->pre_res.program_pages,
				f->pre_res.host_pages);
		KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_PRECONDITION),
				(u64)(fills[i] == 100));
		/* The device goes on: a read and writes after it. */
		vflash_flash_submit(f, VFLASH_IO_READ, 0, 8, NOW);
		vflash_flash_submit(f, VFLASH_IO_WRITE, 0, 64, NOW + 1000);
		vflash_flash_maintain(f, NOW + 2000);
		check(test, f);
		vflash_flash_destroy(f);
		((struct pre_ctx *)test->priv)->f[0] = NULL;
	}
}

static void set_policy(struct kunit *test, struct vflash_flash *f,
		       enum vflash_policy_kind kind, const char *name)
{
	const struct vflash_policy *pol = vflash_policy_find(kind, name);

	KUNIT_ASSERT_EQ(test, vflash_flash_set_policy(f, pol), 0);
}

/*
 * A steady state: random overwrites make GC copy; sequential ones hardly.
 * Cleaning on the write path only (maintenance inline), whose amount does
 * not depend on the worker's pace.
 */
static void workloads_differ(struct kunit *test)
{
	struct vflash_flash *s = mk(test, &tlc4, CAP);
	struct vflash_flash *r = mk(test, &tlc4, CAP);
	struct vflash_flash *h = mk(test, &tlc4, CAP);

	set_policy(test, s, VFLASH_POLICY_MAINTENANCE, "inline");
	set_policy(test, r, VFLASH_POLICY_MAINTENANCE, "inline");
	set_policy(test, h, VFLASH_POLICY_MAINTENANCE, "inline");
	KUNIT_ASSERT_EQ(test, pre(test, s, "workload=seq replay=full"), 0);
	KUNIT_ASSERT_EQ(test, pre(test, r, "workload=random replay=full"), 0);
	KUNIT_ASSERT_EQ(test, pre(test, h, "workload=hotcold hot=2:98 replay=full"),
			0);
	kunit_info(test, "seq: WAF x1000 %llu, random: %llu, hotcold 2:98: %llu",
		   div64_u64(s->pre_res.program_pages * 1000,
			     s->pre_res.host_pages),
		   div64_u64(r->pre_res.program_pages * 1000,
			     r->pre_res.host_pages),
		   div64_u64(h->pre_res.program_pages * 1000,
			     h->pre_res.host_pages));
	/* Nearly every write to 2 % of the LBAs: blocks empty on their own. */
	KUNIT_EXPECT_LT(test, h->pre_res.copied_pages * 2,
			r->pre_res.copied_pages);
	KUNIT_EXPECT_LT(test, s->pre_res.copied_pages,
			s->pre_res.host_pages / 100);
	KUNIT_EXPECT_GT(test, r->pre_res.copied_pages,
			r->pre_res.host_pages / 10);
	/* After it, the next random writes find a steady state: GC at once. */
	vflash_flash_submit(r, VFLASH_IO_WRITE, 17, 1, NOW);
	vflash_flash_submit(r, VFLASH_IO_WRITE, 900, 256, NOW + 1000);
	vflash_flash_maintain(r, NOW + 2000);
	KUNIT_EXPECT_GT(test, vflash_flash_stat(r, VFLASH_STAT_GC_RUNS), 0ULL);
}

/*
 * Histogram of the valid counts of the main region's full blocks, in
 * per-mille of those blocks; returns their mean valid count x 1000.
 */
static u64 valid_hist(struct vflash_flash *f, u32 *hist)
{
	u32 h[SLOTS + 1] = { }, b, v, n = 0;
	u64 sum = 0;

	for (b = 0; b < f->nr_blocks; b++) {
		if (f->blocks[b].state != VFF_BLK_FULL ||
		    vff_region_of(f, b) != VFF_MAIN)
			continue;
		v = min_t(u32, atomic_read(&f->blocks[b].valid), SLOTS);
		h[v]++;
		sum += v;
		n++;
	}
	for (v = 0; v <= SLOTS; v++)
		hist[v] = n ? h[v] * 1000 / n : 0;
	return n ? div_u64(sum * 1000, n) : 0;
}

/* Total variation distance, per mille. */
static u32 tv_distance(const u32 *a, const u32 *b)
{
	u32 v, d = 0;

	for (v = 0; v <= SLOTS; v++)
		d += a[v] > b[v] ? a[v] - b[v] : b[v] - a[v];
	return d / 2;
}

static u32 free_blocks(struct vflash_flash *f)
{
	u32 d, n = 0;

	for (d = 0; d < f->nr_dies; d++)
		n += f->dies[d].nr_free[VFF_MAIN];
	return n;
}

/*
 * The one-die replay against the full one, same workload and seed, on a
 * geometry of 4 dies: the per-block valid-count distributions within a
 * total variation distance of 10 % and means within 5 %. Under inline
 * maintenance the sequential state's distribution (a different one) is far
 * from both, so the comparison can tell states apart; under background
 * maintenance the worker cleans every block with an invalid page while
 * free blocks are below gc_high_pct (above the over-provisioning here), so
 * the states differ little and only the match is checked.
 */
static void one_die_matches_full(struct kunit *test)
{
	static const char * const kinds[] = { "random", "hotcold" };
	static const char * const maint[] = { "inline", "background" };
	u32 hf[SLOTS + 1], hd[SLOTS + 1], hs[SLOTS + 1], i;
	struct vflash_flash *s;
	u64 ms;

	for (i = 0; i < 2 * ARRAY_SIZE(kinds); i++) {
		const char *m = maint[i / ARRAY_SIZE(kinds)];
		const char *kind = kinds[i % ARRAY_SIZE(kinds)];
		struct vflash_flash *full = mk(test, &tlc4, BIG);
		struct vflash_flash *die = mk(test, &tlc4, BIG);
		char line[96];
		u64 mf, md;
		u32 tv;

		s = mk(test, &tlc4, BIG);
		set_policy(test, s, VFLASH_POLICY_MAINTENANCE, m);
		set_policy(test, full, VFLASH_POLICY_MAINTENANCE, m);
		set_policy(test, die, VFLASH_POLICY_MAINTENANCE, m);
		KUNIT_ASSERT_EQ(test, pre(test, s, "workload=seq replay=full"),
				0);
		valid_hist(s, hs);

		snprintf(line, sizeof(line), "workload=%s seed=11 replay=full",
			 kind);
		KUNIT_ASSERT_EQ(test, pre(test, full, line), 0);
		snprintf(line, sizeof(line), "workload=%s seed=11 replay=die",
			 kind);
		KUNIT_ASSERT_EQ(test, pre(test, die, line), 0);
		KUNIT_EXPECT_EQ(test, die->pre_res.replay, (u32)VFLASH_PRE_DIE);
		mf = valid_hist(full, hf);
		md = valid_hist(die, hd);
		tv = tv_distance(hf, hd);
		kunit_info(test, "%s %s: mean valid x1000 full %llu die %llu, TV %u/1000, free %u/%u, WAF x1000 %llu/%llu, vs seq TV %u",
			   m, kind, mf, md, tv, free_blocks(full),
			   free_blocks(die),
			   div64_u64(full->pre_res.program_pages * 1000,
				     full->pre_res.host_pages),
			   div64_u64(die->pre_res.program_pages * 1000,
				     die->pre_res.host_pages),
			   tv_distance(hs, hd));
		KUNIT_EXPECT_LE(test, tv, 100U);
		KUNIT_EXPECT_LE(test, (mf > md ? mf - md : md - mf) * 100, mf * 5);
		if (!strcmp(m, "inline")) {
			KUNIT_EXPECT_GT(test, tv_distance(hs, hd), 300U);
			KUNIT_EXPECT_GT(test, tv_distance(hs, hf), 300U);
		}
		ms = div_u64(full->pre_res.replay_ns, NSEC_PER_MSEC);
		kunit_info(test, "%s %s: full replay %llu ms, die replay %llu ms + copy %llu ms",
			   m, kind, ms,
			   div_u64(die->pre_res.replay_ns, NSEC_PER_MSEC),
			   div_u64(die->pre_res.copy_ns, NSEC_PER_MSEC));
		vflash_flash_destroy(full);
		vflash_flash_destroy(die);
		vflash_flash_destroy(s);
		((struct pre_ctx *)test->priv)->f[0] = NULL;
		((struct pre_ctx *)test->priv)->f[1] = NULL;
		((struct pre_ctx *)test->priv)->f[2] = NULL;
	}
}

/*
 * The tile replay against the full one on 4 dies of 1100 blocks (4 tiles
 * a die): the same bounds as one_die_matches_full, the state sound and
 * the fill exact, with a fill that ends inside a tile.
 */
static void tile_matches_full(struct kunit *test)
{
	static const char * const maint[] = { "inline", "background" };
	u32 hf[SLOTS + 1], ht[SLOTS + 1], i;

	for (i = 0; i < ARRAY_SIZE(maint); i++) {
		struct vflash_flash *full = mk(test, &tlc4, 4 * BIG);
		struct vflash_flash *tile = mk(test, &tlc4, 4 * BIG);
		u64 mf, mt;
		u32 tv;

		set_policy(test, full, VFLASH_POLICY_MAINTENANCE, maint[i]);
		set_policy(test, tile, VFLASH_POLICY_MAINTENANCE, maint[i]);
		KUNIT_ASSERT_EQ(test, pre(test, full,
					  "workload=random seed=13 replay=full"), 0);
		KUNIT_ASSERT_EQ(test, pre(test, tile,
					  "workload=random seed=13 replay=tile"), 0);
		KUNIT_EXPECT_EQ(test, tile->pre_res.tiles, 4U);
		check(test, tile);
		maps_fill(test, tile, tile->nr_lpages);
		mf = valid_hist(full, hf);
		mt = valid_hist(tile, ht);
		tv = tv_distance(hf, ht);
		kunit_info(test, "%s random: mean valid x1000 full %llu tile %llu, TV %u/1000, free %u/%u, WAF x1000 %llu/%llu, replay %llu/%llu ms",
			   maint[i], mf, mt, tv, free_blocks(full),
			   free_blocks(tile),
			   div64_u64(full->pre_res.program_pages * 1000,
				     full->pre_res.host_pages),
			   div64_u64(tile->pre_res.program_pages * 1000,
				     tile->pre_res.host_pages),
			   div_u64(full->pre_res.replay_ns, NSEC_PER_MSEC),
			   div_u64(tile->pre_res.replay_ns, NSEC_PER_MSEC));
		KUNIT_EXPECT_LE(test, tv, 100U);
		KUNIT_EXPECT_LE(test, (mf > mt ? mf - mt : mt - mf) * 100, mf * 5);
		/* A fill that ends inside a tile of the last die. */
		KUNIT_ASSERT_EQ(test, pre(test, tile,
					  "workload=hotcold fill=77 replay=tile"), 0);
		check(test, tile);
		maps_fill(test, tile, div_u64(tile->nr_lpages * 77, 100));
		vflash_flash_destroy(full);
		vflash_flash_destroy(tile);
		((struct pre_ctx *)test->priv)->f[0] = NULL;
		((struct pre_ctx *)test->priv)->f[1] = NULL;
	}
}

/*
 * die-affinity keeps 64-page extents on a die: the one-die replay's copies
 * put every LBA on the die the policy would, so later writes of it land
 * where its valid copy is; fill levels that end inside an extent included.
 */
static void one_die_keeps_affinity(struct kunit *test)
{
	static const char * const lines[] = {
		"workload=random replay=die",
		"workload=hotcold fill=41 replay=die seed=2",
		"workload=random replay=tile",
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		struct vflash_flash *f = mk(test, &tlc4, i < 2 ? CAP : 4 * BIG);
		u64 fill, lpn, wrong = 0;

		set_policy(test, f, VFLASH_POLICY_PLACEMENT, "die-affinity");
		KUNIT_ASSERT_EQ_MSG(test, pre(test, f, lines[i]), 0, "%s",
				    lines[i]);
		check(test, f);
		fill = div_u64(f->nr_lpages * (i == 1 ? 41 : 100), 100);
		maps_fill(test, f, fill);
		for (lpn = 0; lpn < fill; lpn++)
			wrong += vff_die_of_block(f, vff_block_of(f, f->l2p[lpn])) !=
				 (lpn / 64) % f->nr_dies;
		KUNIT_EXPECT_EQ(test, wrong, 0ULL);
		vflash_flash_destroy(f);
		((struct pre_ctx *)test->priv)->f[0] = NULL;
	}
}

/* Block @b (of @nd dies, @bpd blocks a die) moved to die (its die + @k). */
static u32 rot_block(u32 b, u32 bpd, u32 nd, u32 k)
{
	if (b == VFF_INVALID)
		return b;
	return ((b / bpd + k) % nd) * bpd + b % bpd;
}

/*
 * The sequential workload under stripe placement, replayed on die 0 and
 * copied, against the full replay: the same state up to which die holds
 * what. The full replay's second pass starts where the first left the
 * placement cursor, so its LBAs sit on the dies rotated by K against the
 * one-die replay's (LBA j*D + d on die d); with the dies relabelled by K,
 * every mapping, every block's metadata but its seal sequence and seal
 * time, and every die's free list, open units, write-buffer fill and idle
 * times are the same, so a measured run of uniform random I/O (make
 * bench-precondition's seq arms, which turn read retries by data age off)
 * cannot tell the two apart but by the host. The seal times differ: the
 * one-die replay's clock runs one die's writes, not four dies' at once
 * (ages, which docs/design/precondition.md scales). Counts the fields
 * that differ and names the first.
 */
static void seq_die_equals_full(struct kunit *test)
{
	struct vflash_flash *full = mk(test, &tlc4, CAP);
	struct vflash_flash *die = mk(test, &tlc4, CAP);
	u32 nd = full->nr_dies, bpd = full->blocks_per_die, b, d, k, r, st;
	u64 lpn, diff = 0, ages = 0;
	char first[96] = "";

#define SAME(what, a, c, ...)						\
	do {								\
		if ((a) != (c) && !diff++)				\
			snprintf(first, sizeof(first), what, ##__VA_ARGS__); \
	} while (0)

	set_policy(test, full, VFLASH_POLICY_PLACEMENT, "stripe");
	set_policy(test, die, VFLASH_POLICY_PLACEMENT, "stripe");
	set_policy(test, full, VFLASH_POLICY_MAINTENANCE, "inline");
	set_policy(test, die, VFLASH_POLICY_MAINTENANCE, "inline");
	KUNIT_ASSERT_EQ(test, pre(test, full, "workload=seq written=200 replay=full"), 0);
	KUNIT_ASSERT_EQ(test, pre(test, die, "workload=seq written=200 replay=die"), 0);
	KUNIT_ASSERT_EQ(test, die->pre_res.replay, (u32)VFLASH_PRE_DIE);
	k = (vff_die_of_block(full, vff_block_of(full, full->l2p[0])) + nd -
	     vff_die_of_block(die, vff_block_of(die, die->l2p[0]))) % nd;
	for (lpn = 0; lpn < full->nr_lpages; lpn++) {
		u32 ds = die->l2p[lpn];

		SAME("l2p[%llu]", full->l2p[lpn], ds == VFF_INVALID ? ds :
		     rot_block(vff_block_of(die, ds), bpd, nd, k) * die->stride +
		     ds % die->stride, lpn);
	}
	for (b = 0; b < full->nr_blocks; b++) {
		const struct vff_block *y = &die->blocks[b];
		const struct vff_block *x = &full->blocks[rot_block(b, bpd, nd, k)];

		SAME("block %u valid", atomic_read(&x->valid),
		     atomic_read(&y->valid), b);
		SAME("block %u wp", x->wp, y->wp, b);
		SAME("block %u state", x->state, y->state, b);
		SAME("block %u stream", x->stream, y->stream, b);
		SAME("block %u next", x->next, rot_block(y->next, bpd, nd, k), b);
		SAME("block %u erase_count", x->erase_count, y->erase_count, b);
		if (x->seal_ns != y->seal_ns)
			ages++;
	}
	for (d = 0; d < nd; d++) {
		const struct vff_die *y = &die->dies[d];
		const struct vff_die *x = &full->dies[(d + k) % nd];

		for (r = 0; r < VFF_NR_REGIONS; r++) {
			SAME("die %u free_head[%u]", x->free_head[r],
			     rot_block(y->free_head[r], bpd, nd, k), d, r);
			SAME("die %u nr_free[%u]", x->nr_free[r], y->nr_free[r],
			     d, r);
			for (st = 0; st < VFF_NR_STREAMS; st++)
				SAME("die %u open[%u][%u]", x->open[st][r],
				     rot_block(y->open[st][r], bpd, nd, k), d,
				     st, r);
		}
		SAME("die %u wb_pending", x->wb_pending, y->wb_pending, d);
		SAME("die %u wb_count", x->wb_count, y->wb_count, d);
		SAME("die %u busy_until_ns", x->busy_until_ns,
		     y->busy_until_ns, d);
		SAME("die %u durable_ns", x->durable_ns, y->durable_ns, d);
		SAME("die %u deferred_ns", x->deferred_ns, y->deferred_ns, d);
	}
#undef SAME
	kunit_info(test, "seq, stripe: dies rotated by %u, %llu fields differ between the die and the full replay%s%s; seal times (data ages) of %llu blocks",
		   k, diff, diff ? ", the first " : "", first, ages);
	KUNIT_EXPECT_EQ_MSG(test, diff, 0ULL, "first: %s", first);
}

/* pe= adds to the replay's erases, age= to its data ages, exactly. */
static void wear_and_age(struct kunit *test)
{
	struct vflash_flash *a = mk(test, &tlc4, CAP);
	struct vflash_flash *b = mk(test, &tlc4, CAP);
	u32 i, full = 0;

	KUNIT_ASSERT_EQ(test, pre(test, a, "workload=random seed=5 replay=die"),
			0);
	KUNIT_ASSERT_EQ(test, pre(test, b,
				  "workload=random seed=5 replay=die pe=250 age=86400"),
			0);
	for (i = 0; i < a->nr_blocks; i++) {
		struct vff_block *x = &a->blocks[i], *y = &b->blocks[i];

		KUNIT_EXPECT_EQ(test, y->erase_count, x->erase_count + 250);
		KUNIT_EXPECT_EQ(test, y->state, x->state);
		if (x->state != VFF_BLK_FULL)
			continue;
		full++;
		KUNIT_EXPECT_EQ(test, vff_age_clock(b, NOW) - y->seal_ns,
				vff_age_clock(a, NOW) - x->seal_ns +
				86400 * NSEC_PER_SEC);
	}
	KUNIT_EXPECT_GT(test, full, a->nr_blocks / 2);
	/* The replay itself erased: its wear is there without pe=. */
	KUNIT_EXPECT_GT(test, a->pre_res.erased_blocks, 0ULL);
	/* Ages older than the host's uptime: the age clock runs ahead. */
	KUNIT_EXPECT_GE(test, b->age_base_ns, 86400 * NSEC_PER_SEC - NOW);
	check(test, b);
}

/* The same line on the same device: the same state. */
static void deterministic(struct kunit *test)
{
	struct vflash_flash *a = mk(test, &hyb4, CAP);
	struct vflash_flash *b = mk(test, &hyb4, CAP);
	u32 i;

	KUNIT_ASSERT_EQ(test, pre(test, a, "workload=hotcold seed=9 replay=full"),
			0);
	KUNIT_ASSERT_EQ(test, pre(test, b, "workload=hotcold seed=9 replay=full"),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(a->l2p, b->l2p,
				     a->nr_lpages * sizeof(*a->l2p)), 0);
	for (i = 0; i < a->nr_blocks; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&a->blocks[i].valid),
				atomic_read(&b->blocks[i].valid));
}

/* Bad requests and a busy device: refused, the model as it was. */
static void bad_requests_change_nothing(struct kunit *test)
{
	static const char * const bad[] = {
		"", "fill=50", "workload=zipf", "workload=random fill=0",
		"workload=random fill=101", "workload=random written=99",
		"workload=random fill=50 written=40",
		"workload=random written=10001", "workload=hotcold hot=0:50",
		"workload=hotcold hot=20:100", "workload=hotcold hot=20",
		"workload=random pe=1000001", "workload=random age=1000000001",
		"workload=random replay=some", "workload=random colour=red",
		"workload=random replay=tile",
		"workload=random fill", "workload=random fill=1x",
	};
	struct vflash_flash *f = mk(test, &tlc4, CAP);
	struct vflash_precondition p;
	u32 *l2p, i;
	u64 progs;

	vflash_flash_submit(f, VFLASH_IO_WRITE, 0, 300, 1000);
	vflash_flash_submit(f, VFLASH_IO_WRITE, 100, 300, 2000);
	progs = vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES);
	l2p = kunit_kmalloc_array(test, f->nr_lpages, sizeof(*l2p),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l2p);
	memcpy(l2p, f->l2p, f->nr_lpages * sizeof(*l2p));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, pre(test, f, bad[i]), -EINVAL, "'%s'",
				    bad[i]);
	/* Checked again by the run itself, for callers that skip parsing. */
	KUNIT_ASSERT_EQ(test, vflash_flash_precondition_parse(f, "workload=seq",
							      &p), 0);
	p.fill_pct = 0;
	KUNIT_EXPECT_EQ(test, vflash_flash_precondition(f, &p, NOW), -EINVAL);
	/* hot-cold placement puts host writes by read heat: no die for all. */
	set_policy(test, f, VFLASH_POLICY_PLACEMENT, "hot-cold");
	KUNIT_EXPECT_EQ(test, pre(test, f, "workload=random replay=die"),
			-EINVAL);
	/* A running worker: the device is not held. */
	KUNIT_ASSERT_EQ(test, vflash_flash_start_worker(f, "t-pre"), 0);
	KUNIT_EXPECT_EQ(test, pre(test, f, "workload=random"), -EBUSY);
	vflash_flash_stop_worker(f);

	KUNIT_EXPECT_EQ(test, memcmp(l2p, f->l2p,
				     f->nr_lpages * sizeof(*l2p)), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES),
			progs);
	KUNIT_EXPECT_FALSE(test, f->pre_res.done);
	check(test, f);
	/* hot-cold with a full replay is fine: it is exact. */
	KUNIT_EXPECT_EQ(test, pre(test, f, "workload=random"), 0);
	KUNIT_EXPECT_EQ(test, f->pre_res.replay, (u32)VFLASH_PRE_FULL);
	check(test, f);
}

/* The file's read: the request, then what the replay did. */
static void show_reports(struct kunit *test)
{
	static const char want[] =
		"workload=hotcold fill=80 written=200 hot=20:80 pe=0 age=0 seed=4 replay=auto\n";
	struct vflash_flash *f = mk(test, &tlc4, CAP);
	char buf[512];

	vflash_flash_precondition_show(f, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "none\n");
	KUNIT_ASSERT_EQ(test, pre(test, f, "workload=hotcold fill=80 seed=4\n"),
			0);
	vflash_flash_precondition_show(f, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, strncmp(buf, want, strlen(want)), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "\nreplay=full tiles=0 host_pages=8192 "));
}

static int pre_test_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void pre_test_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static int pre_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct pre_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void pre_test_exit(struct kunit *test)
{
	struct pre_ctx *c = test->priv;
	int i;

	for (i = 0; i < MAX_DEVS; i++)
		vflash_flash_destroy(c->f[i]);
}

static struct kunit_case pre_test_cases[] = {
	KUNIT_CASE(states_hold_together),
	KUNIT_CASE(workloads_differ),
	KUNIT_CASE(one_die_matches_full),
	KUNIT_CASE(one_die_keeps_affinity),
	KUNIT_CASE(seq_die_equals_full),
	KUNIT_CASE(tile_matches_full),
	KUNIT_CASE(wear_and_age),
	KUNIT_CASE(deterministic),
	KUNIT_CASE(bad_requests_change_nothing),
	KUNIT_CASE(show_reports),
	{}
};

static struct kunit_suite pre_test_suite = {
	.name = "vflash-precondition",
	.suite_init = pre_test_suite_init,
	.suite_exit = pre_test_suite_exit,
	.init = pre_test_init,
	.exit = pre_test_exit,
	.test_cases = pre_test_cases,
};

/* 1 GiB of 4 KiB pages per die share; what a large device costs. */
#define BENCH_BYTES	(16ULL << 30)

static const struct vflash_profile bench32 = {
	.name = "t-pre-bench", .desc = "test", .cell = VFLASH_CELL_TLC,
	.channels = 8, .dies_per_channel = 4, .flash_page_bytes = 16384,
	.pages_per_block = 256, .read_ns = 50000, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = 100000, .prog_ns = 500000, .slc_erase_ns = 1000000,
	.erase_ns = 3000000,
};

/*
 * The one-die replay of random overwrites, 2x the capacity, on 32 dies:
 * the time of each step, for docs/design/precondition.md. Not a test of
 * speed: nothing is asserted but the state.
 */
static void bench_one_die(struct kunit *test)
{
	static const char * const maint[] = { "inline", "background" };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(maint); i++) {
		struct vflash_flash *f = mk(test, &bench32, BENCH_BYTES);
		u64 t0 = ktime_get_ns();

		set_policy(test, f, VFLASH_POLICY_MAINTENANCE, maint[i]);
		KUNIT_ASSERT_EQ(test, pre(test, f, "workload=random replay=die"),
				0);
		kunit_info(test, "%llu GiB, %u dies, %s: %llu host pages on die 0 (WAF x1000 %llu) in %llu ms, copy %llu ms, check %llu ms, all %llu ms",
			   BENCH_BYTES >> 30, f->nr_dies, maint[i],
			   f->pre_res.host_pages,
			   div64_u64(f->pre_res.program_pages * 1000,
				     f->pre_res.host_pages),
			   div_u64(f->pre_res.replay_ns, NSEC_PER_MSEC),
			   div_u64(f->pre_res.copy_ns, NSEC_PER_MSEC),
			   div_u64(f->pre_res.check_ns, NSEC_PER_MSEC),
			   div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
		maps_fill(test, f, f->nr_lpages);
		vflash_flash_destroy(f);
		((struct pre_ctx *)test->priv)->f[0] = NULL;
	}
}

/* qlc-hybrid's die (16 KiB pages, 256 per block, SLC in front), alone. */
static const struct vflash_profile hyb1 = {
	.name = "t-pre-hyb1", .desc = "test", .cell = VFLASH_CELL_QLC,
	.slc_cache = true, .channels = 1, .dies_per_channel = 1,
	.flash_page_bytes = 16384, .pages_per_block = 256, .read_ns = 30000,
	.qlc_read_ns = { 44600, 104400, 146200, 187900 },
	.xfer_ns_per_4k = 5120, .slc_prog_ns = 185000, .prog_ns = 740000,
	.slc_erase_ns = 2000000, .erase_ns = 8000000,
};

/*
 * Die 0's part of a 1 TiB qlc-hybrid device (16 dies): one die of 64 GiB
 * has the same blocks and takes the same 2x-its-share writes; the replay
 * of a 1 TiB device costs this, plus the copy and check of its tables
 * (linear: 16x what bench_one_die's 16 GiB took for them x 4).
 */
static void bench_tib_die_share(struct kunit *test)
{
	struct vflash_flash *f = mk(test, &hyb1, 64ULL << 30);

	set_policy(test, f, VFLASH_POLICY_MAINTENANCE, "inline");
	KUNIT_ASSERT_EQ(test, pre(test, f, "workload=random replay=full"), 0);
	kunit_info(test, "64 GiB, 1 die (%u blocks), inline: %llu host pages (WAF x1000 %llu) in %llu ms, check %llu ms",
		   f->blocks_per_die, f->pre_res.host_pages,
		   div64_u64(f->pre_res.program_pages * 1000,
			     f->pre_res.host_pages),
		   div_u64(f->pre_res.replay_ns, NSEC_PER_MSEC),
		   div_u64(f->pre_res.check_ns, NSEC_PER_MSEC));
}

/* qlc-hybrid's geometry on 4 dies. */
static const struct vflash_profile hyb4big = {
	.name = "t-pre-hyb4", .desc = "test", .cell = VFLASH_CELL_QLC,
	.slc_cache = true, .channels = 2, .dies_per_channel = 2,
	.flash_page_bytes = 16384, .pages_per_block = 256, .read_ns = 30000,
	.qlc_read_ns = { 44600, 104400, 146200, 187900 },
	.xfer_ns_per_4k = 5120, .slc_prog_ns = 185000, .prog_ns = 740000,
	.slc_erase_ns = 2000000, .erase_ns = 8000000,
};

/*
 * The tile replay (the default from 4 GiB where a die holds two tiles) of
 * a 64 GiB device of qlc-hybrid's dies, 4 of them: each step's time; the
 * copy and the check are linear in the capacity, the replay in a tile.
 */
static void bench_tile(struct kunit *test)
{
	static const char * const maint[] = { "inline", "background" };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(maint); i++) {
		struct vflash_flash *f = mk(test, &hyb4big, 64ULL << 30);
		u64 t0 = ktime_get_ns();

		set_policy(test, f, VFLASH_POLICY_MAINTENANCE, maint[i]);
		KUNIT_ASSERT_EQ(test, pre(test, f, "workload=random"), 0);
		KUNIT_EXPECT_EQ(test, f->pre_res.replay, (u32)VFLASH_PRE_TILE);
		kunit_info(test, "64 GiB, 4 dies of %u blocks, %s: %u tiles a die, %llu host pages on a tile (WAF x1000 %llu) in %llu ms, lay-out %llu ms, check %llu ms, all %llu ms",
			   f->blocks_per_die, maint[i], f->pre_res.tiles,
			   f->pre_res.host_pages,
			   div64_u64(f->pre_res.program_pages * 1000,
				     f->pre_res.host_pages),
			   div_u64(f->pre_res.replay_ns, NSEC_PER_MSEC),
			   div_u64(f->pre_res.copy_ns, NSEC_PER_MSEC),
			   div_u64(f->pre_res.check_ns, NSEC_PER_MSEC),
			   div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
		maps_fill(test, f, f->nr_lpages);
		vflash_flash_destroy(f);
		((struct pre_ctx *)test->priv)->f[0] = NULL;
	}
}

static struct kunit_case pre_bench_cases[] = {
	KUNIT_CASE(bench_tile),
	KUNIT_CASE(bench_one_die),
	KUNIT_CASE(bench_tib_die_share),
	{}
};

static struct kunit_suite pre_bench_suite = {
	.name = "vflash-bench-precondition",
	.suite_init = pre_test_suite_init,
	.suite_exit = pre_test_suite_exit,
	.init = pre_test_init,
	.exit = pre_test_exit,
	.test_cases = pre_bench_cases,
};

kunit_test_suites(&pre_test_suite, &pre_bench_suite);
