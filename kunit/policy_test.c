// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the policy registry and the built-in policies (policy/).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "policy/policy.h"

static void defaults_are_first_registered(struct kunit *test)
{
	static const char * const want[VFLASH_POLICY_NR] = {
		"greedy", "stripe", "read-heat", "background", "fifo", "none",
	};
	int k;

	for (k = 0; k < VFLASH_POLICY_NR; k++) {
		const struct vflash_policy *p = vflash_policy_default(k);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_STREQ(test, p->name, want[k]);
		KUNIT_EXPECT_EQ(test, (int)p->kind, k);
	}
	KUNIT_EXPECT_NULL(test, vflash_policy_default(VFLASH_POLICY_NR));
	KUNIT_EXPECT_STREQ(test, vflash_policy_kind_name(VFLASH_POLICY_GC), "gc");
	KUNIT_EXPECT_STREQ(test,
			   vflash_policy_kind_name(VFLASH_POLICY_MAINTENANCE),
			   "maintenance");
	KUNIT_EXPECT_STREQ(test,
			   vflash_policy_kind_name(VFLASH_POLICY_EVICTION),
			   "eviction");
	KUNIT_EXPECT_STREQ(test,
			   vflash_policy_kind_name(VFLASH_POLICY_PREFETCH),
			   "prefetch");
	KUNIT_EXPECT_NULL(test, vflash_policy_kind_name(VFLASH_POLICY_NR));
}

static void list_brackets_the_current_one(struct kunit *test)
{
	const struct vflash_policy *fifo =
		vflash_policy_find(VFLASH_POLICY_GC, "fifo");
	char buf[128];

	KUNIT_ASSERT_NOT_NULL(test, fifo);
	vflash_policy_list(VFLASH_POLICY_GC, fifo, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "greedy cost-benefit [fifo]\n");
	vflash_policy_list(VFLASH_POLICY_MAINTENANCE,
			   vflash_policy_default(VFLASH_POLICY_MAINTENANCE),
			   buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "[background] inline read-priority\n");
	vflash_policy_list(VFLASH_POLICY_PLACEMENT, NULL, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "stripe die-affinity hot-cold\n");
	vflash_policy_list(VFLASH_POLICY_EVICTION,
			   vflash_policy_find(VFLASH_POLICY_EVICTION, "clock"),
			   buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "fifo lifo [clock] lru s3fifo random\n");
	vflash_policy_list(VFLASH_POLICY_PREFETCH,
			   vflash_policy_default(VFLASH_POLICY_PREFETCH),
			   buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "[none] next-n stride\n");
}

static void find_by_name(struct kunit *test)
{
	static const char long_name[] = "a-name-far-too-long-for-any-policy";

	KUNIT_EXPECT_NOT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC,
						       "cost-benefit\n"));
	KUNIT_EXPECT_NOT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC,
						       " greedy "));
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC, "gree"));
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC, ""));
	/* A name of another kind is not of this one. */
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC, "stripe"));
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_NR, "greedy"));
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC, long_name));
}

static void register_checks(struct kunit *test)
{
	static const struct vflash_gc_ops ops;
	struct vflash_policy dup = {
		.name = "greedy", .kind = VFLASH_POLICY_GC, .ops = &ops,
	};
	struct vflash_policy bad = dup;
	struct vflash_policy extra = {
		.name = "extra", .kind = VFLASH_POLICY_GC, .ops = &ops,
	};
	char buf[128];

	KUNIT_EXPECT_EQ(test, vflash_policy_register(&dup), -EEXIST);
	bad.name = "two words";
	KUNIT_EXPECT_EQ(test, vflash_policy_register(&bad), -EINVAL);
	bad.name = "[x]";
	KUNIT_EXPECT_EQ(test, vflash_policy_register(&bad), -EINVAL);
	bad.name = "ok";
	bad.ops = NULL;
	KUNIT_EXPECT_EQ(test, vflash_policy_register(&bad), -EINVAL);
	bad.ops = &ops;
	bad.kind = VFLASH_POLICY_NR;
	KUNIT_EXPECT_EQ(test, vflash_policy_register(&bad), -EINVAL);

	KUNIT_ASSERT_EQ(test, vflash_policy_register(&extra), 0);
	vflash_policy_list(VFLASH_POLICY_GC, &extra, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "greedy cost-benefit fifo [extra]\n");
	vflash_policy_unregister(&extra);
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_GC, "extra"));
}

static u64 gc_cost(const char *name, u32 valid, u32 slots, u64 seq, u64 age)
{
	const struct vflash_gc_ops *ops =
		vflash_policy_find(VFLASH_POLICY_GC, name)->ops;
	struct vflash_gc_candidate c = {
		.valid = valid, .slots = slots, .seal_seq = seq, .age_ns = age,
	};

	return ops->cost(&c);
}

static void gc_policies_order_candidates(struct kunit *test)
{
	/* greedy: fewer valid pages is cheaper, age and order do not matter */
	KUNIT_EXPECT_LT(test, gc_cost("greedy", 3, 64, 9, 0),
			gc_cost("greedy", 4, 64, 1, 1000000));
	/* fifo: the older seal wins whatever it holds */
	KUNIT_EXPECT_LT(test, gc_cost("fifo", 60, 64, 1, 0),
			gc_cost("fifo", 0, 64, 2, 0));
	/* cost-benefit: at equal utilisation the older block wins ... */
	KUNIT_EXPECT_LT(test, gc_cost("cost-benefit", 32, 64, 0, 10000000),
			gc_cost("cost-benefit", 32, 64, 0, 1000000));
	/* ... an old, fuller block can beat a young, emptier one ... */
	KUNIT_EXPECT_LT(test, gc_cost("cost-benefit", 32, 64, 0, 1000000000),
			gc_cost("cost-benefit", 16, 64, 0, 1000000));
	/* ... an empty block always wins and a full one never */
	KUNIT_EXPECT_EQ(test, gc_cost("cost-benefit", 0, 64, 0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, gc_cost("cost-benefit", 64, 64, 0, 5), U64_MAX);
}

static void placement_policies(struct kunit *test)
{
	const struct vflash_placement_ops *stripe =
		vflash_policy_find(VFLASH_POLICY_PLACEMENT, "stripe")->ops;
	const struct vflash_placement_ops *aff =
		vflash_policy_find(VFLASH_POLICY_PLACEMENT, "die-affinity")->ops;
	u32 hits[8] = { };
	atomic64_t cursor;
	unsigned int i;

	atomic64_set(&cursor, 0);
	for (i = 0; i < 800; i++)
		hits[stripe->pick_die(7, false, 8, &cursor)]++;
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, hits[i], 100U);

	/* One 64-page extent, one die; the next extent, the next die. */
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, aff->pick_die(128 + i, false, 8, &cursor),
				aff->pick_die(128, true, 8, &cursor));
	KUNIT_EXPECT_EQ(test, aff->pick_die(192, false, 8, &cursor),
			(aff->pick_die(128, false, 8, &cursor) + 1) % 8);
}

static void hot_cold_placement_separates(struct kunit *test)
{
	const struct vflash_placement_ops *hc =
		vflash_policy_find(VFLASH_POLICY_PLACEMENT, "hot-cold")->ops;
	u32 hits[8] = { };
	atomic64_t cursor;
	unsigned int i;

	atomic64_set(&cursor, 0);
	for (i = 0; i < 400; i++)
		hits[hc->pick_die(i, true, 8, &cursor)]++;
	for (i = 0; i < 400; i++)
		hits[hc->pick_die(i, false, 8, &cursor)] += 1000;
	/* Hot pages only on dies 0-3, cold ones only on 4-7, evenly. */
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, hits[i], 100U);
	for (i = 4; i < 8; i++)
		KUNIT_EXPECT_EQ(test, hits[i], 100000U);
	KUNIT_EXPECT_EQ(test, hc->pick_die(5, true, 1, &cursor), 0U);
	KUNIT_EXPECT_EQ(test, hc->pick_die(5, false, 1, &cursor), 0U);
}

static void migration_and_maintenance_policies(struct kunit *test)
{
	const struct vflash_migration_ops *heat =
		vflash_policy_find(VFLASH_POLICY_MIGRATION, "read-heat")->ops;
	const struct vflash_migration_ops *off =
		vflash_policy_find(VFLASH_POLICY_MIGRATION, "off")->ops;
	const struct vflash_maintenance_ops *bg, *in, *rp;

	KUNIT_EXPECT_TRUE(test, heat->background);
	KUNIT_EXPECT_TRUE(test, heat->stays_in_slc(4, 4));
	KUNIT_EXPECT_FALSE(test, heat->stays_in_slc(3, 4));
	KUNIT_EXPECT_FALSE(test, off->background);
	KUNIT_EXPECT_FALSE(test, off->stays_in_slc(255, 1));

	bg = vflash_policy_find(VFLASH_POLICY_MAINTENANCE, "background")->ops;
	in = vflash_policy_find(VFLASH_POLICY_MAINTENANCE, "inline")->ops;
	rp = vflash_policy_find(VFLASH_POLICY_MAINTENANCE, "read-priority")->ops;
	KUNIT_EXPECT_TRUE(test, bg->background && !bg->read_priority);
	KUNIT_EXPECT_TRUE(test, !in->background && !in->read_priority);
	KUNIT_EXPECT_TRUE(test, rp->background && rp->read_priority);
}

static int policy_test_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void policy_test_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_case policy_test_cases[] = {
	KUNIT_CASE(defaults_are_first_registered),
	KUNIT_CASE(list_brackets_the_current_one),
	KUNIT_CASE(find_by_name),
	KUNIT_CASE(register_checks),
	KUNIT_CASE(gc_policies_order_candidates),
	KUNIT_CASE(placement_policies),
	KUNIT_CASE(hot_cold_placement_separates),
	KUNIT_CASE(migration_and_maintenance_policies),
	{}
};

static struct kunit_suite policy_test_suite = {
	.name = "vflash-policy",
	.suite_init = policy_test_init,
	.suite_exit = policy_test_exit,
	.test_cases = policy_test_cases,
};

kunit_test_suite(policy_test_suite);
