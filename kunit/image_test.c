// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the flash model's image sections (backend_flash/image.c,
 * docs/design/image.md): a saved and restored model is the same model, and
 * continues a seeded workload to the same counters; bad images are refused
 * and leave a new device. Times are explicit, as in flash_test.c.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "backend_flash/flash.h"
#include "backend_flash/ftl.h"
#include "backend_flash/profile.h"
#include "policy/policy.h"

/* QLC with an SLC region in front: GC and migration both run. */
static const struct vflash_profile hyb = {
	.name = "t-img", .desc = "test", .cell = VFLASH_CELL_QLC,
	.slc_cache = true, .channels = 1, .dies_per_channel = 2,
	.flash_page_bytes = 4096, .pages_per_block = 16, .read_ns = 10000,
	.qlc_read_ns = { 20000, 30000, 40000, 50000 }, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = 100000, .prog_ns = 400000, .slc_erase_ns = 1000000,
	.erase_ns = 4000000,
};

#define CAP		BIT_ULL(20)	/* 256 logical pages */
#define SAVED_AT	5000000000000ULL
#define LOADED_AT	70000000000ULL	/* earlier: a restore after a reboot */
#define MAX_DEVS	3
/* Where a die's element has its busy time: after its lists and counts. */
#define DIE_BUSY_AT	((VFF_NR_REGIONS * (2 + VFF_NR_STREAMS) + 6) * 4)

struct image_ctx {
	struct vflash_flash *f[MAX_DEVS];
	void *sect[VFLASH_IMG_FLASH_NR];
	u32 esz[VFLASH_IMG_FLASH_NR];
	u64 n[VFLASH_IMG_FLASH_NR];
};

static struct vflash_flash *mk(struct kunit *test, u64 bytes)
{
	struct image_ctx *c = test->priv;
	struct vflash_flash *f = vflash_flash_create(&hyb, bytes);
	int i;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "create: %ld", PTR_ERR(f));
	for (i = 0; i < MAX_DEVS && c->f[i]; i++)
		;
	KUNIT_ASSERT_LT(test, i, MAX_DEVS);
	c->f[i] = f;
	return f;
}

static u64 rnd(u64 *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

/*
 * Seeded writes (a hot eighth of the pages takes most), reads that heat
 * pages up, trims and background passes, from @t0 on; returns the end.
 */
static u64 workload(struct vflash_flash *f, u64 seed, u32 ops, u64 t0)
{
	u64 n = vflash_flash_nr_lpages(f), now = t0, lpn;
	u32 i;

	for (i = 0; i < ops; i++) {
		u64 op = rnd(&seed) % 20;

		lpn = rnd(&seed) % (op % 2 ? n / 8 : n);
		now += 20000;
		if (op < 11)
			vflash_flash_submit(f, VFLASH_IO_WRITE, lpn, 1, now);
		else if (op < 17)
			vflash_flash_submit(f, VFLASH_IO_READ, lpn, 1, now);
		else if (op < 18)
			vflash_flash_submit(f, VFLASH_IO_TRIM, lpn, 1, now);
		else
			vflash_flash_maintain(f, now);
	}
	return now;
}

static void save(struct kunit *test, struct vflash_flash *f, u64 now)
{
	struct image_ctx *c = test->priv;
	enum vflash_img_sect s;
	u64 i;

	KUNIT_ASSERT_EQ(test, vflash_flash_img_save_begin(f, now), 0);
	for (s = 0; s < VFLASH_IMG_FLASH_NR; s++) {
		c->esz[s] = vflash_flash_img_elem_bytes(f, s);
		c->n[s] = vflash_flash_img_elems(f, s);
		KUNIT_ASSERT_GT(test, c->esz[s], 0U);
		kvfree(c->sect[s]);
		c->sect[s] = kvzalloc(c->esz[s] * c->n[s], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->sect[s]);
		/* Seven at a time: ranges that start anywhere. */
		for (i = 0; i < c->n[s]; i += 7) {
			u32 nr = min_t(u64, 7, c->n[s] - i);
			void *at = c->sect[s] + i * c->esz[s];

			KUNIT_ASSERT_EQ(test,
					vflash_flash_img_get(f, s, i, nr, at), 0);
		}
	}
}

/* Restores the saved sections (those before @stop) into @f; 0 or why not. */
static int load(struct kunit *test, struct vflash_flash *f, u64 now,
		enum vflash_img_sect stop, char *why, size_t size)
{
	struct image_ctx *c = test->priv;
	enum vflash_img_sect s;
	int ret;
	u64 i;

	ret = vflash_flash_img_load_begin(f, now);
	if (ret)
		return ret;
	for (s = 0; s < stop; s++) {
		KUNIT_ASSERT_EQ(test, vflash_flash_img_elem_bytes(f, s),
				c->esz[s]);
		for (i = 0; i < c->n[s]; i += 5) {
			ret = vflash_flash_img_put(f, s, i,
						   min_t(u64, 5, c->n[s] - i),
						   c->sect[s] + i * c->esz[s]);
			if (ret)
				return ret;
		}
	}
	return vflash_flash_img_finish(f, why, size);
}

static void check(struct kunit *test, struct vflash_flash *f)
{
	char why[160] = "";

	KUNIT_EXPECT_EQ_MSG(test, vflash_flash_check(f, why, sizeof(why)), 0,
			    "invariant: %s", why);
}

/* Every counter of @a equals @b's. */
static void same_counters(struct kunit *test, struct vflash_flash *a,
			  struct vflash_flash *b)
{
	u32 i;

	for (i = 0; i < VFLASH_STAT_NR; i++)
		KUNIT_EXPECT_EQ_MSG(test, vflash_flash_stat(a, i),
				    vflash_flash_stat(b, i), "counter %s",
				    vflash_flash_stat_name(i));
	KUNIT_EXPECT_EQ(test, vflash_flash_write_amplification(a),
			vflash_flash_write_amplification(b));
	KUNIT_EXPECT_EQ(test, vflash_flash_read_latency_pct(a, 990),
			vflash_flash_read_latency_pct(b, 990));
}

/* What remains of @t after @at. */
static u64 rem(u64 t, u64 at)
{
	return t > at ? t - at : 0;
}

/* The same tables, blocks (with their data's ages), dies and knobs. */
static void same_model(struct kunit *test, struct vflash_flash *a, u64 at_a,
		       struct vflash_flash *b, u64 at_b)
{
	u32 i, s, r;

	KUNIT_EXPECT_EQ(test, memcmp(a->l2p, b->l2p,
				     a->nr_lpages * sizeof(*a->l2p)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a->p2l, b->p2l, (size_t)a->nr_dies *
				     a->p2l_per_die * VFF_P2L_BYTES), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a->heat, b->heat,
				     vff_heat_bytes(a->nr_lpages)), 0);
	for (i = 0; i < a->nr_blocks; i++) {
		struct vff_block *x = &a->blocks[i], *y = &b->blocks[i];

		KUNIT_EXPECT_EQ(test, atomic_read(&x->valid),
				atomic_read(&y->valid));
		KUNIT_EXPECT_EQ(test, x->wp, y->wp);
		KUNIT_EXPECT_EQ(test, x->state, y->state);
		KUNIT_EXPECT_EQ(test, x->stream, y->stream);
		KUNIT_EXPECT_EQ(test, x->next, y->next);
		KUNIT_EXPECT_EQ(test, x->erase_count, y->erase_count);
		KUNIT_EXPECT_EQ(test, x->seal_seq, y->seal_seq);
		KUNIT_EXPECT_EQ_MSG(test, vff_age_clock(a, at_a) - x->seal_ns,
				    vff_age_clock(b, at_b) - y->seal_ns,
				    "block %u's data age", i);
	}
	for (i = 0; i < a->nr_dies; i++) {
		struct vff_die *x = &a->dies[i], *y = &b->dies[i];

		for (r = 0; r < VFF_NR_REGIONS; r++) {
			KUNIT_EXPECT_EQ(test, x->free_head[r], y->free_head[r]);
			KUNIT_EXPECT_EQ(test, x->nr_free[r], y->nr_free[r]);
			for (s = 0; s < VFF_NR_STREAMS; s++)
				KUNIT_EXPECT_EQ(test, x->open[s][r],
						y->open[s][r]);
		}
		KUNIT_EXPECT_EQ(test, x->wb_pending, y->wb_pending);
		KUNIT_EXPECT_EQ(test, x->wb_count, y->wb_count);
		KUNIT_EXPECT_EQ(test, rem(x->busy_until_ns, at_a),
				rem(y->busy_until_ns, at_b));
		KUNIT_EXPECT_EQ(test, rem(x->durable_ns, at_a),
				rem(y->durable_ns, at_b));
	}
	for (i = 0; i < VFLASH_KNOB_NR; i++)
		KUNIT_EXPECT_EQ(test, a->knob[i], b->knob[i]);
	for (i = 0; i < VFLASH_POLICY_NR; i++)
		KUNIT_EXPECT_PTR_EQ(test, a->policy[i], b->policy[i]);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->seal_seq),
			atomic64_read(&b->seal_seq));
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->cursor),
			atomic64_read(&b->cursor));
}

/*
 * Aged with GC, migration and trims, a model saved at one moment and
 * restored at an earlier one (another boot) is the same model, and the
 * same seeded workload continued on both gives the same counters.
 */
static void round_trip_is_exact(struct kunit *test)
{
	struct vflash_flash *a = mk(test, CAP), *b = mk(test, CAP);
	char why[160] = "";
	u64 end;
	const struct vflash_policy *cb =
		vflash_policy_find(VFLASH_POLICY_GC, "cost-benefit");
	enum vflash_knob age_milli = VFLASH_KNOB_READ_RETRY_AGE_MILLI;

	KUNIT_ASSERT_EQ(test, vflash_flash_set_knob(a, VFLASH_KNOB_GC_HIGH_PCT,
						    30), 0);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_knob(a, age_milli, 700), 0);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_policy(a, cb), 0);
	end = workload(a, 1, 6000, 1000000);
	KUNIT_ASSERT_GT(test, vflash_flash_stat(a, VFLASH_STAT_GC_COPIED_PAGES),
			0ULL);
	KUNIT_ASSERT_GT(test, vflash_flash_stat(a, VFLASH_STAT_MIGRATED_PAGES),
			0ULL);
	KUNIT_ASSERT_LT(test, end, SAVED_AT);

	save(test, a, SAVED_AT);
	KUNIT_ASSERT_EQ_MSG(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR,
				       why, sizeof(why)), 0, "%s", why);
	check(test, b);
	same_model(test, a, SAVED_AT, b, LOADED_AT);
	same_counters(test, a, b);

	/* The same workload on both, from their own moment. */
	workload(a, 2, 4000, SAVED_AT);
	workload(b, 2, 4000, LOADED_AT);
	KUNIT_EXPECT_GT(test, vflash_flash_stat(b, VFLASH_STAT_NAND_ERASE_BLOCKS),
			vflash_flash_stat(b, VFLASH_STAT_BAD_BLOCKS));
	check(test, a);
	check(test, b);
	same_counters(test, a, b);
	same_model(test, a, SAVED_AT, b, LOADED_AT);
}

/* After a refusal, the reset device is new: empty, checked, and usable. */
static void expect_new(struct kunit *test, struct vflash_flash *f)
{
	struct vflash_flash *ref;
	u64 lpn;
	u32 i;

	KUNIT_EXPECT_EQ(test, vflash_flash_img_reset(f), 0);
	check(test, f);
	for (lpn = 0; lpn < f->nr_lpages; lpn++)
		KUNIT_EXPECT_EQ(test, f->l2p[lpn], VFF_INVALID);
	for (i = 0; i < f->nr_blocks; i++)
		KUNIT_EXPECT_EQ(test, f->blocks[i].state, VFF_BLK_FREE);
	/* Counters and what is derived from the model (spare blocks). */
	ref = vflash_flash_create(&hyb, f->nr_lpages * VFLASH_LPAGE_SIZE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ref));
	for (i = 0; i < VFLASH_STAT_NR; i++)
		KUNIT_EXPECT_EQ_MSG(test, vflash_flash_stat(f, i),
				    vflash_flash_stat(ref, i), "counter %s",
				    vflash_flash_stat_name(i));
	vflash_flash_destroy(ref);
	KUNIT_EXPECT_EQ(test, f->knob[VFLASH_KNOB_GC_HIGH_PCT], 15ULL);
}

/* Where the FLASH_STATE element holds @name's value (a knob's). */
static u8 *knob_value(struct kunit *test, const char *name)
{
	struct image_ctx *c = test->priv;
	u8 *p = c->sect[VFLASH_IMG_FLASH_STATE];
	u32 i, len = strlen(name);

	for (i = 0; i + 40 <= c->esz[VFLASH_IMG_FLASH_STATE]; i++)
		if (!memcmp(p + i, name, len + 1))
			return p + i + 32;
	KUNIT_FAIL(test, "no knob %s in the flash state", name);
	return NULL;
}

/* Bad images: each refused with -EINVAL, the device new again after. */
static void bad_images_refused(struct kunit *test)
{
	struct image_ctx *c = test->priv;
	struct vflash_flash *a = mk(test, CAP), *b = mk(test, CAP);
	struct vflash_flash *big = mk(test, 2 * CAP);
	char why[160] = "";
	u8 *blk, *v, keep[8];
	__le32 *l2p, t, le32;
	__le64 le64;
	u64 n;

	workload(a, 3, 3000, 1000000);
	save(test, a, SAVED_AT);
	l2p = c->sect[VFLASH_IMG_L2P];

	/* Another geometry: refused at the flash state, before any table. */
	KUNIT_EXPECT_EQ(test, vflash_flash_img_load_begin(big, LOADED_AT), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_img_put(big, VFLASH_IMG_FLASH_STATE,
						   0, 1, c->sect[0]), -EINVAL);
	expect_new(test, big);

	/* A table before the flash state. */
	KUNIT_EXPECT_EQ(test, vflash_flash_img_load_begin(b, LOADED_AT), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_img_put(b, VFLASH_IMG_L2P, 0, 1,
						   l2p), -EINVAL);
	expect_new(test, b);

	/* Truncated: the tables stop after the l2p. */
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_P2L, why,
				   sizeof(why)), -EINVAL);
	expect_new(test, b);

	/* A slot beyond the flash. */
	t = l2p[3];
	l2p[3] = cpu_to_le32(0xfffffff0);
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	l2p[3] = t;
	expect_new(test, b);

	/* Two pages swapped: each slot valid, the whole inconsistent. */
	while (l2p[1] == cpu_to_le32(VFF_INVALID) || l2p[1] == l2p[2])
		l2p++;
	swap(l2p[1], l2p[2]);
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "p2l"));
	swap(l2p[1], l2p[2]);
	expect_new(test, b);

	/* A block's write pointer beyond its slots. */
	blk = c->sect[VFLASH_IMG_BLOCKS];
	memcpy(keep, blk + 4, 4);
	blk[4] = 0xff;
	blk[5] = 0xff;
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	memcpy(blk + 4, keep, 4);
	expect_new(test, b);

	/*
	 * An open block with no room left: the next write would take a slot
	 * of the block after it (past the tables for the last one).
	 */
	for (n = 0; blk[n * 40 + 8] != VFF_BLK_OPEN; n++)
		KUNIT_ASSERT_LT(test, n + 1, c->n[VFLASH_IMG_BLOCKS]);
	memcpy(keep, blk + n * 40 + 4, 4);
	le32 = cpu_to_le32(a->slots[vff_region_of(a, n)]);
	memcpy(blk + n * 40 + 4, &le32, 4);
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "open block"));
	memcpy(blk + n * 40 + 4, keep, 4);
	expect_new(test, b);

	/* A GC victim: a quiescent model has none. */
	for (n = 0; blk[n * 40 + 8] != VFF_BLK_FULL; n++)
		KUNIT_ASSERT_LT(test, n + 1, c->n[VFLASH_IMG_BLOCKS]);
	blk[n * 40 + 8] = VFF_BLK_VICTIM;
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	blk[n * 40 + 8] = VFF_BLK_FULL;
	expect_new(test, b);

	/* A die busy for years. */
	v = c->sect[VFLASH_IMG_DIES] + DIE_BUSY_AT;
	memcpy(keep, v, 8);
	le64 = cpu_to_le64(U64_MAX / 2);
	memcpy(v, &le64, 8);
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	memcpy(v, keep, 8);
	expect_new(test, b);

	/* A knob out of its range. */
	v = knob_value(test, "gc_high_pct");
	KUNIT_ASSERT_NOT_NULL(test, v);
	memcpy(keep, v, 8);
	v[0] = 200;
	KUNIT_EXPECT_EQ(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR, why,
				   sizeof(why)), -EINVAL);
	memcpy(v, keep, 8);
	expect_new(test, b);

	/* Into a device that ran: refused before anything changes. */
	KUNIT_EXPECT_EQ(test, vflash_flash_img_load_begin(a, LOADED_AT), -EBUSY);

	/* And the good image, after all of that, restores. */
	KUNIT_EXPECT_EQ_MSG(test, load(test, b, LOADED_AT, VFLASH_IMG_FLASH_NR,
				       why, sizeof(why)), 0, "%s", why);
	same_model(test, a, SAVED_AT, b, LOADED_AT);
}

/* A save needs the worker stopped: it would clean under the reader. */
static void save_needs_quiescence(struct kunit *test)
{
	struct vflash_flash *a = mk(test, CAP);

	workload(a, 4, 500, 1000000);
	KUNIT_ASSERT_EQ(test, vflash_flash_start_worker(a, "t-img"), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_img_save_begin(a, SAVED_AT), -EBUSY);
	vflash_flash_stop_worker(a);
	KUNIT_EXPECT_EQ(test, vflash_flash_img_save_begin(a, SAVED_AT), 0);
}

static int image_test_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void image_test_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static int image_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct image_ctx), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void image_test_exit(struct kunit *test)
{
	struct image_ctx *c = test->priv;
	int i;

	for (i = 0; i < MAX_DEVS; i++)
		vflash_flash_destroy(c->f[i]);
	for (i = 0; i < VFLASH_IMG_FLASH_NR; i++)
		kvfree(c->sect[i]);
}

static struct kunit_case image_test_cases[] = {
	KUNIT_CASE(round_trip_is_exact),
	KUNIT_CASE(bad_images_refused),
	KUNIT_CASE(save_needs_quiescence),
	{}
};

static struct kunit_suite image_test_suite = {
	.name = "vflash-image",
	.suite_init = image_test_suite_init,
	.suite_exit = image_test_suite_exit,
	.init = image_test_init,
	.exit = image_test_exit,
	.test_cases = image_test_cases,
};

kunit_test_suite(image_test_suite);
