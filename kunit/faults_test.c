// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the fault rules (core/faults.c): what a rule's files
 * accept and refuse, and when an armed rule fires.
 */
#include <kunit/test.h>
#include <linux/jump_label.h>

#include "core/faults.h"

#define PAGES	1000

static struct vflash_faults *new_faults(struct kunit *test)
{
	struct vflash_faults *ft = kunit_kzalloc(test, sizeof(*ft), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ft);
	KUNIT_ASSERT_EQ(test, vflash_faults_init(ft, NULL, PAGES, "vflash-t"), 0);
	return ft;
}

static int set(struct vflash_faults *ft, const char *file, const char *val)
{
	return vflash_fault_set(ft, VFLASH_FAULT_READ_ERROR, file, val);
}

/* Every file refuses what it cannot take, and nothing changes. */
static void bad_values(struct kunit *test)
{
	struct vflash_faults *ft = new_faults(test);
	struct vflash_fault_rule *r = &ft->rule[VFLASH_FAULT_READ_ERROR];

	KUNIT_EXPECT_EQ(test, set(ft, "range", "5-2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "range", "0-1000"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "range", "7"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "range", "a-b"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "range", "-3"), -EINVAL);
	KUNIT_EXPECT_EQ(test, r->first, 0ULL);
	KUNIT_EXPECT_EQ(test, r->last, PAGES - 1ULL);
	KUNIT_EXPECT_EQ(test, set(ft, "probability", "1000001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "probability", "half"), -EINVAL);
	KUNIT_EXPECT_EQ(test, r->ppm, 1000000U);
	KUNIT_EXPECT_EQ(test, set(ft, "armed", "2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "after", "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "matched", "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, set(ft, "nosuch", "0"), -EINVAL);
	/* delay_ns belongs to the delay rule only. */
	KUNIT_EXPECT_EQ(test, set(ft, "delay_ns", "5"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_DELAY, "delay_ns",
					       "60000000001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_DELAY, "delay_ns",
					       "60000000000"), 0);
	KUNIT_EXPECT_FALSE(test, r->armed);
	vflash_faults_destroy(ft);
}

/* An armed rule is not edited; arming resets its counts; the key follows. */
static void armed_rules(struct kunit *test)
{
	struct vflash_faults *ft = new_faults(test);
	struct vflash_fault_rule *r = &ft->rule[VFLASH_FAULT_READ_ERROR];
	bool was = static_key_enabled(&vflash_faults_armed);

	KUNIT_ASSERT_EQ(test, set(ft, "range", "10-19"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "1"), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&vflash_faults_armed));
	KUNIT_EXPECT_EQ(test, set(ft, "range", "all"), -EBUSY);
	KUNIT_EXPECT_EQ(test, set(ft, "times", "3"), -EBUSY);
	KUNIT_EXPECT_EQ(test, r->first, 10ULL);
	KUNIT_EXPECT_TRUE(test, vflash_fault_rule_fires(r, 15, 1, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->injected), 1LL);
	/* Arming again starts the counts afresh. */
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "1"), 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->injected), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->matched), 0LL);
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "0"), 0);
	KUNIT_EXPECT_EQ(test, static_key_enabled(&vflash_faults_armed), was);
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 15, 1, 0));
	KUNIT_EXPECT_EQ(test, set(ft, "range", "all"), 0);
	/* Destroying an armed rule drops its key reference. */
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "1"), 0);
	vflash_faults_destroy(ft);
	KUNIT_EXPECT_EQ(test, static_key_enabled(&vflash_faults_armed), was);
}

/* Range overlap, after, times (then disarmed), probability. */
static void when_rules_fire(struct kunit *test)
{
	struct vflash_faults *ft = new_faults(test);
	struct vflash_fault_rule *r = &ft->rule[VFLASH_FAULT_READ_ERROR];
	int i, fired;

	KUNIT_ASSERT_EQ(test, set(ft, "range", "10-19"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "after", "2"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "times", "2"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "1"), 0);
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 0, 10, 0));
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 20, 5, 0));
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 15, 0, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->matched), 0LL);
	/* The first two matching commands pass, the next two fail. */
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 5, 6, 0));
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 19, 3, 0));
	KUNIT_EXPECT_TRUE(test, vflash_fault_rule_fires(r, 12, 1, 0));
	KUNIT_EXPECT_TRUE(test, vflash_fault_rule_fires(r, 0, 1000, 0));
	KUNIT_EXPECT_FALSE(test, r->armed);
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 12, 1, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->injected), 2LL);

	/* Probability: rnd below ppm/10^6 of 2^32 fires, above does not. */
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "0"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "after", "0"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "times", "0"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "probability", "250000"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "1"), 0);
	KUNIT_EXPECT_TRUE(test, vflash_fault_rule_fires(r, 10, 1, 0));
	KUNIT_EXPECT_TRUE(test, vflash_fault_rule_fires(r, 10, 1, U32_MAX / 4 - 2000));
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 10, 1, U32_MAX / 4 + 2000));
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 10, 1, U32_MAX));
	for (fired = 0, i = 0; i < 1000; i++)
		fired += vflash_fault_rule_fires(r, 10, 1, (u32)i * 4294968U);
	KUNIT_EXPECT_EQ(test, fired, 250);
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "0"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "probability", "0"), 0);
	KUNIT_ASSERT_EQ(test, set(ft, "armed", "1"), 0);
	KUNIT_EXPECT_FALSE(test, vflash_fault_rule_fires(r, 10, 1, 0));
	vflash_faults_destroy(ft);
}

static struct kunit_case faults_test_cases[] = {
	KUNIT_CASE(bad_values),
	KUNIT_CASE(armed_rules),
	KUNIT_CASE(when_rules_fire),
	{}
};

static struct kunit_suite faults_test_suite = {
	.name = "vflash-faults",
	.test_cases = faults_test_cases,
};

kunit_test_suite(faults_test_suite);
