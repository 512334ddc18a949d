// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for power loss: the backend's durable times of logged page
 * writes (backend_flash/undo.c, vflash_flash_sync_pages()) and what a cut
 * takes back (core/powerloss.c).
 */
#include <kunit/test.h>
#include <linux/ioport.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/faults.h"
#include "core/powerloss.h"
#include "core/vflash.h"
#include "policy/policy.h"

#define PAGES	16

struct pl_env {
	struct vflash_flash *f;
	struct vflash_backing b;
	struct resource res;
	u8 *store;
	struct vflash_powerloss pl;
};

static struct pl_env *env(struct kunit *test)
{
	struct pl_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	/* TLC: a 32 KiB program unit, 8 logical pages per die. */
	e->f = vflash_flash_create(vflash_profile_find("tlc"), 16ULL << 20);
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->f));
	e->store = vzalloc(PAGES * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, e->store);
	e->b.size_bytes = PAGES * PAGE_SIZE;
	e->b.res = &e->res;
	e->b.kaddr = e->store;
	vflash_pl_init(&e->pl, e->f, &e->b);
	test->priv = e;
	return e;
}

static void env_exit(struct kunit *test)
{
	struct pl_env *e = test->priv;

	if (!e)
		return;
	vflash_pl_stop(&e->pl);
	vflash_flash_destroy(e->f);
	vfree(e->store);
}

/*
 * A page waits in the write buffer (U64_MAX) until its unit is
 * programmed: by the write that fills the unit or by a sync of its die;
 * after undo_forget nothing is stamped any more.
 */
static void durable_when_programmed(struct kunit *test)
{
	struct pl_env *e = env(test);
	struct vflash_undo u = { 0 }, v = { 0 }, w = { 0 }, *pu = &u, *pv = &v;
	struct vflash_undo *pw = &w;
	u64 now = 1000000, end;

	vflash_flash_submit_undo(e->f, VFLASH_FE_NVME, 3, 1, now, &pu);
	KUNIT_EXPECT_EQ(test, u.end_ns, U64_MAX);
	/* An unlogged write elsewhere on another die stamps nothing. */
	vflash_flash_submit(e->f, VFLASH_IO_WRITE, 4, 1, now);
	KUNIT_EXPECT_EQ(test, u.end_ns, U64_MAX);
	end = vflash_flash_sync_pages(e->f, 3, 1, now, 0);
	KUNIT_EXPECT_NE(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_GT(test, u.end_ns, now);
	KUNIT_EXPECT_LE(test, u.end_ns, end);
	/* A flush stamps every waiting page. */
	vflash_flash_submit_undo(e->f, VFLASH_FE_NVME, 5, 1, now, &pv);
	KUNIT_EXPECT_EQ(test, v.end_ns, U64_MAX);
	vflash_flash_submit(e->f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_EXPECT_NE(test, v.end_ns, U64_MAX);
	/* Forgotten records are never stamped. */
	vflash_flash_submit_undo(e->f, VFLASH_FE_NVME, 6, 1, now, &pw);
	vflash_flash_undo_forget(e->f);
	vflash_flash_submit(e->f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_EXPECT_EQ(test, w.end_ns, U64_MAX);
}

/*
 * Regression (issue 37): the backend kept one waiting record per slot of
 * a die's unit and region, as if a die had one open host block; with two
 * placement handles (FDP, zones) two pages at the same offset of their
 * handles' units on one die took the same place, and a flush stamped only
 * the second: the first stayed "never durable" and a cut took it back.
 */
static void flush_stamps_every_handle(struct kunit *test)
{
	struct vflash_profile *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct vflash_undo u = { 0 }, v = { 0 }, *pu = &u, *pv = &v;
	const struct vflash_policy *aff;
	struct vflash_flash *f;
	u64 now = 1000000;

	KUNIT_ASSERT_NOT_NULL(test, p);
	*p = *vflash_profile_find("tlc");
	p->placement_handles = 2;
	f = vflash_flash_create(p, 16ULL << 20);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	aff = vflash_policy_find(VFLASH_POLICY_PLACEMENT, "die-affinity");
	KUNIT_ASSERT_NOT_NULL(test, aff);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_policy(f, aff), 0);
	u.die = U32_MAX;
	v.die = U32_MAX;
	/* Pages 0 and 1: one die, each the first page of its handle's unit. */
	vflash_flash_submit_placed(f, VFLASH_FE_NVME, 0, 1, now, &pu, 0);
	vflash_flash_submit_placed(f, VFLASH_FE_NVME, 1, 1, now, &pv, 1);
	KUNIT_EXPECT_EQ(test, u.die, v.die);
	KUNIT_EXPECT_EQ(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_EQ(test, v.end_ns, U64_MAX);
	vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_EXPECT_NE(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_NE(test, v.end_ns, U64_MAX);
	/* Detaching one leaves the other handle's waiting record in place. */
	vflash_flash_submit_placed(f, VFLASH_FE_NVME, 0, 1, now, &pu, 0);
	vflash_flash_submit_placed(f, VFLASH_FE_NVME, 1, 1, now, &pv, 1);
	vflash_flash_undo_detach(f, &u);
	vflash_flash_sync_pages(f, 1, 1, now, 0);
	KUNIT_EXPECT_EQ(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_NE(test, v.end_ns, U64_MAX);
	vflash_flash_destroy(f);
}

/*
 * Issue 37, 5: a FUA write found the dies to program through the mapping
 * after it was written, so a write of the same page in between (a CXL
 * write-back on a dual device) moved it and the FUA completed before its
 * own program. A synchronous write programs the dies it placed its pages
 * on, in the same call: its records are stamped, its due time is after
 * their programs, and nothing that moves the page later changes that.
 * With VFLASH_SYNC_STREAM the handle's earlier buffered pages on other
 * dies (a zone's) are programmed as well.
 */
static void sync_write_programs_its_own_dies(struct kunit *test)
{
	struct pl_env *e = env(test);
	struct vflash_undo u = { 0 }, v = { 0 }, w = { 0 };
	struct vflash_undo *pu = &u, *pv = &v, *pw = &w;
	struct vflash_req_tag tag = { .sync = VFLASH_SYNC_PAGES };
	u64 now = 1000000, due, end;

	due = vflash_flash_submit_tagged(e->f, VFLASH_FE_NVME, VFLASH_IO_WRITE,
					 3, 1, now, &pu, &tag);
	KUNIT_ASSERT_NE(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_GE(test, due, u.end_ns);
	end = u.end_ns;
	/* The page written again elsewhere: the first write stays durable. */
	vflash_flash_submit(e->f, VFLASH_IO_WRITE, 3, 1, now);
	vflash_flash_submit(e->f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_EXPECT_EQ(test, u.end_ns, end);
	/* Pages only: another die's buffered page is left buffered. */
	vflash_flash_submit_undo(e->f, VFLASH_FE_NVME, 5, 1, now, &pv);
	tag = (struct vflash_req_tag) { .sync = VFLASH_SYNC_PAGES };
	vflash_flash_submit_tagged(e->f, VFLASH_FE_NVME, VFLASH_IO_WRITE, 6, 1,
				   now, &pw, &tag);
	KUNIT_EXPECT_NE(test, w.end_ns, U64_MAX);
	KUNIT_ASSERT_NE(test, v.die, w.die);
	KUNIT_EXPECT_EQ(test, v.end_ns, U64_MAX);
	/* The stream: it is programmed too. */
	tag = (struct vflash_req_tag) { .sync = VFLASH_SYNC_STREAM };
	vflash_flash_submit_tagged(e->f, VFLASH_FE_NVME, VFLASH_IO_WRITE, 7, 1,
				   now, &pw, &tag);
	KUNIT_EXPECT_NE(test, v.end_ns, U64_MAX);
}

/*
 * Filling a unit on one die programs it: with stripe placement the die
 * of a page comes round again after nr_dies writes.
 */
static void unit_fill_stamps(struct kunit *test)
{
	struct pl_env *e = env(test);
	struct vflash_undo u = { 0 }, *pu = &u;
	u32 i;

	vflash_flash_submit_undo(e->f, VFLASH_FE_NVME, 0, 1, 1000, &pu);
	for (i = 1; i < 2048 && u.end_ns == U64_MAX; i++)
		vflash_flash_submit(e->f, VFLASH_IO_WRITE, i, 1, 1000);
	KUNIT_EXPECT_NE(test, u.end_ns, U64_MAX);
	/* 8 pages per unit on each of 16 dies: 7 more rounds of the dies. */
	KUNIT_EXPECT_EQ(test, i, 7U * 16 + 1);
}

static void set_page(struct pl_env *e, u64 lpn, u8 val)
{
	memset(e->store + lpn * PAGE_SIZE, val, PAGE_SIZE);
}

static u8 page_val(struct pl_env *e, u64 lpn)
{
	return e->store[lpn * PAGE_SIZE + PAGE_SIZE - 1];
}

/* Log a write of one page and store @val; its durable time is @end. */
static void logged_write(struct kunit *test, struct pl_env *e, u64 lpn,
			 u8 val, u64 end)
{
	struct vflash_undo *const *undo;

	KUNIT_ASSERT_TRUE(test, vflash_pl_lock(&e->pl));
	undo = vflash_pl_log(&e->pl, lpn, 1, 0);
	KUNIT_ASSERT_NOT_NULL(test, undo);
	set_page(e, lpn, val);
	undo[0]->end_ns = end;
	vflash_pl_unlock(&e->pl);
}

/*
 * A cut at T keeps, per page, the data of its newest write durable by T,
 * or what it held before logging began.
 */
static void cut_keeps_newest_durable(struct kunit *test)
{
	struct pl_env *e = env(test);

	set_page(e, 0, 'A');
	set_page(e, 1, 'A');
	set_page(e, 2, 'A');
	set_page(e, 3, 'A');
	KUNIT_EXPECT_FALSE(test, vflash_pl_lock(&e->pl));	/* off */
	vflash_pl_start(&e->pl);
	/* Page 0: B durable, C and D not: B. */
	logged_write(test, e, 0, 'B', 10);
	logged_write(test, e, 0, 'C', 30);
	logged_write(test, e, 0, 'D', U64_MAX);
	/* Page 1: all durable: the last. */
	logged_write(test, e, 1, 'B', 5);
	logged_write(test, e, 1, 'C', 15);
	/* Page 2: none durable: the original. */
	logged_write(test, e, 2, 'B', 25);
	logged_write(test, e, 2, 'C', U64_MAX);
	/* Page 3: an older write not durable, a newer one durable (another
	 * die programmed first): the newer one's data.
	 */
	logged_write(test, e, 3, 'B', 40);
	logged_write(test, e, 3, 'C', 12);
	KUNIT_EXPECT_EQ(test, e->pl.nr_pages, 9ULL);
	KUNIT_EXPECT_EQ(test, vflash_pl_cut(&e->pl, 20, NULL, NULL), 4ULL);
	KUNIT_EXPECT_EQ(test, page_val(e, 0), 'B');
	KUNIT_EXPECT_EQ(test, page_val(e, 1), 'C');
	KUNIT_EXPECT_EQ(test, page_val(e, 2), 'A');
	KUNIT_EXPECT_EQ(test, page_val(e, 3), 'C');
	/* The log is freed and off; a second cut takes nothing back. */
	KUNIT_EXPECT_EQ(test, e->pl.nr_pages, 0ULL);
	KUNIT_EXPECT_FALSE(test, vflash_pl_lock(&e->pl));
	KUNIT_EXPECT_EQ(test, vflash_pl_cut(&e->pl, 100, NULL, NULL), 0ULL);
}

/* Entries whose pages are all durable are freed as writes go on. */
static void durable_entries_pruned(struct kunit *test)
{
	struct pl_env *e = env(test);
	u32 i;

	vflash_pl_start(&e->pl);
	for (i = 0; i < 200; i++)
		logged_write(test, e, i % PAGES, i, i < 150 ? 1 : U64_MAX);
	/* 150 durable ones were freed at the prunes, the rest are kept. */
	KUNIT_EXPECT_LT(test, e->pl.nr_pages, 200ULL - 64);
	KUNIT_EXPECT_GE(test, e->pl.nr_pages, 50ULL);
	vflash_pl_stop(&e->pl);
	KUNIT_EXPECT_EQ(test, e->pl.nr_pages, 0ULL);
}

/*
 * Regression: the prune freed any entry whose pages were all durable.
 * A newer write of a page made durable first (a FUA write, its die
 * synced) was freed while an older write of it on another die was still
 * logged and not durable; the cut then restored the page to what it held
 * before the older write: FUA-acknowledged data lost.
 */
static void prune_keeps_a_newer_durable_write(struct kunit *test)
{
	struct pl_env *e = env(test);
	u32 i;

	set_page(e, 3, 'A');
	vflash_pl_start(&e->pl);
	logged_write(test, e, 3, 'B', U64_MAX);
	logged_write(test, e, 3, 'C', 12);
	/* Enough durable writes elsewhere for a prune. */
	for (i = 0; i < 70; i++)
		logged_write(test, e, 4 + i % 8, 'x', 1);
	vflash_pl_cut(&e->pl, 20, NULL, NULL);
	KUNIT_EXPECT_EQ(test, page_val(e, 3), 'C');
}

/*
 * Regression: with host_overhead_ns above fw_overhead_ns a Flush
 * completed (its due time less the host's overhead) before the programs
 * it waits for had ended.
 */
static void flush_completes_after_its_programs(struct kunit *test)
{
	struct pl_env *e = env(test);
	struct vflash_undo u = { 0 }, *pu = &u;
	u64 now = 1000000, due;
	int ret;

	ret = vflash_flash_set_knob(e->f, VFLASH_KNOB_HOST_OVERHEAD_NS, 50000);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = vflash_flash_set_knob(e->f, VFLASH_KNOB_FW_OVERHEAD_NS, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	vflash_flash_submit_undo(e->f, VFLASH_FE_NVME, 3, 1, now, &pu);
	due = vflash_flash_submit(e->f, VFLASH_IO_FLUSH, 0, 0, now);
	KUNIT_ASSERT_NE(test, u.end_ns, U64_MAX);
	KUNIT_EXPECT_GE(test, due, u.end_ns);
}

/*
 * Settled pages (a Deallocate, a CXL store on a dual device) are durable
 * as they are: a cut leaves them, unless they are written again.
 */
static void settled_pages_survive(struct kunit *test)
{
	struct pl_env *e = env(test);

	set_page(e, 5, 'A');
	set_page(e, 6, 'A');
	vflash_pl_start(&e->pl);
	logged_write(test, e, 5, 'B', U64_MAX);
	logged_write(test, e, 6, 'B', U64_MAX);
	KUNIT_ASSERT_TRUE(test, vflash_pl_lock(&e->pl));
	vflash_pl_settle(&e->pl, 5, 2);
	vflash_pl_unlock(&e->pl);
	KUNIT_EXPECT_EQ(test, e->pl.nr_pages, 0ULL);
	logged_write(test, e, 6, 'C', U64_MAX);
	KUNIT_EXPECT_EQ(test, vflash_pl_cut(&e->pl, 100, NULL, NULL), 1ULL);
	KUNIT_EXPECT_EQ(test, page_val(e, 5), 'B');
	KUNIT_EXPECT_EQ(test, page_val(e, 6), 'B');
}

static u32 xorshift(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * Against a reference: random logged writes (durable by the cut or
 * never), settles and prunes on PAGES pages; after the cut each page
 * holds its newest write durable by then, or what it held at its last
 * settle (or at the start); the log's record count matches its records.
 */
static void cut_matches_reference(struct kunit *test)
{
	struct pl_env *e = env(test);
	u8 want[PAGES], cur[PAGES];
	u32 x = 2463534242U, round, i;

	for (round = 0; round < 20; round++) {
		for (i = 0; i < PAGES; i++) {
			set_page(e, i, 0x10 + i);
			want[i] = 0x10 + i;
			cur[i] = want[i];
		}
		vflash_pl_start(&e->pl);
		for (i = 0; i < 400; i++) {
			u64 lpn = xorshift(&x) % PAGES;
			u32 what = xorshift(&x) % 16;
			u8 val = 1 + xorshift(&x) % 250;

			if (!what) {
				KUNIT_ASSERT_TRUE(test, vflash_pl_lock(&e->pl));
				vflash_pl_settle(&e->pl, lpn, 1);
				vflash_pl_unlock(&e->pl);
				want[lpn] = cur[lpn];
			} else if (what < 8) {
				logged_write(test, e, lpn, val,
					     1 + xorshift(&x) % 20);
				want[lpn] = val;
				cur[lpn] = val;
			} else {
				logged_write(test, e, lpn, val, U64_MAX);
				cur[lpn] = val;
			}
		}
		vflash_pl_cut(&e->pl, 20, NULL, NULL);
		for (i = 0; i < PAGES; i++)
			KUNIT_EXPECT_EQ_MSG(test, page_val(e, i), want[i],
					    "round %u page %u", round, i);
		KUNIT_EXPECT_EQ(test, e->pl.nr_pages, 0ULL);
	}
}

static int cuts;

static int fake_cut(void *priv)
{
	cuts++;
	return *(int *)priv;
}

/*
 * faults/power_cut: cut is refused unless the rule is armed (the log
 * starts with it) and the frontend can cut; plp keeps the log off and is
 * not changed under an armed rule; the files belong to power_cut only.
 */
static void power_cut_files(struct kunit *test)
{
	struct pl_env *e = env(test);
	struct vflash_faults *ft = kunit_kzalloc(test, sizeof(*ft), GFP_KERNEL);
	enum vflash_fault pc = VFLASH_FAULT_POWER_CUT;
	int ret = 0;

	KUNIT_ASSERT_NOT_NULL(test, ft);
	KUNIT_ASSERT_EQ(test, vflash_faults_init(ft, e->f, PAGES, "vflash-t"), 0);
	cuts = 0;
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "cut", "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_READ_ERROR,
					       "cut", "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "delay_ns", "1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "armed", "1"), 0);
	KUNIT_EXPECT_TRUE(test, ft->pl.on);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "cut", "2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "cut", "1"), -EOPNOTSUPP);
	vflash_faults_set_cut_hook(ft, fake_cut, &ret);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "cut", "1"), 0);
	KUNIT_EXPECT_EQ(test, cuts, 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ft->rule[pc].injected), 1LL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(e->f, VFLASH_STAT_FAULT_POWER_CUTS),
			1ULL);
	ret = -ETIMEDOUT;
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "cut", "1"), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ft->rule[pc].injected), 1LL);
	/* Disarmed by hand: the log stops; with plp, arming leaves it off. */
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "armed", "0"), 0);
	KUNIT_EXPECT_FALSE(test, ft->pl.on);
	ft->plp = true;
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, pc, "armed", "1"), 0);
	KUNIT_EXPECT_FALSE(test, ft->pl.on);
	vflash_faults_destroy(ft);
	KUNIT_EXPECT_FALSE(test, ft->pl.on);
}

static struct kunit_case powerloss_test_cases[] = {
	KUNIT_CASE(durable_when_programmed),
	KUNIT_CASE(unit_fill_stamps),
	KUNIT_CASE(flush_stamps_every_handle),
	KUNIT_CASE(sync_write_programs_its_own_dies),
	KUNIT_CASE(cut_keeps_newest_durable),
	KUNIT_CASE(durable_entries_pruned),
	KUNIT_CASE(prune_keeps_a_newer_durable_write),
	KUNIT_CASE(flush_completes_after_its_programs),
	KUNIT_CASE(settled_pages_survive),
	KUNIT_CASE(cut_matches_reference),
	KUNIT_CASE(power_cut_files),
	{}
};

static int powerloss_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void powerloss_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_suite powerloss_test_suite = {
	.name = "vflash-powerloss",
	.suite_init = powerloss_suite_init,
	.suite_exit = powerloss_suite_exit,
	.exit = env_exit,
	.test_cases = powerloss_test_cases,
};

kunit_test_suite(powerloss_test_suite);
