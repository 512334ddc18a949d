// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the CXL frontend's range allocator of private regions
 * (frontend_cxl/ranges.c): first fit, owners, refusals, full device,
 * disown before release.
 */
#include <kunit/test.h>

#include "frontend_cxl/ranges.h"

static int owner_a, owner_b;

/* A device of @granules granules plus a tail short of one. */
static struct vfc_ranges *ranges(struct kunit *test, u64 granules)
{
	struct vfc_ranges *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, vfc_ranges_init(r, granules * VFC_GRANULE_PAGES +
					       VFC_GRANULE_PAGES - 1), 0);
	KUNIT_EXPECT_EQ(test, r->nr_granules, granules);
	return r;
}

static void alloc_owner_free(struct kunit *test)
{
	struct vfc_ranges *r = ranges(test, 16);
	u64 a, b;

	KUNIT_ASSERT_EQ(test, vfc_ranges_alloc(r, 3, &owner_a, &a), 0);
	KUNIT_ASSERT_EQ(test, vfc_ranges_alloc(r, 2, &owner_b, &b), 0);
	KUNIT_EXPECT_EQ(test, a, 0);
	KUNIT_EXPECT_EQ(test, b, 3);
	KUNIT_EXPECT_EQ(test, vfc_ranges_nr_free(r), 11);
	/* Every page of a granule has its owner; beyond, none. */
	KUNIT_EXPECT_PTR_EQ(test, vfc_ranges_owner(r, 0), (void *)&owner_a);
	KUNIT_EXPECT_PTR_EQ(test, vfc_ranges_owner(r, 3 * VFC_GRANULE_PAGES - 1),
			    (void *)&owner_a);
	KUNIT_EXPECT_PTR_EQ(test, vfc_ranges_owner(r, 3 * VFC_GRANULE_PAGES),
			    (void *)&owner_b);
	KUNIT_EXPECT_NULL(test, vfc_ranges_owner(r, 5 * VFC_GRANULE_PAGES));
	KUNIT_EXPECT_NULL(test, vfc_ranges_owner(r, 16 * VFC_GRANULE_PAGES));
	/* Another owner's granules, or a range past the device: refused. */
	KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, a, 3, &owner_b), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, a, 4, &owner_a), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, 15, 2, &owner_a), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, 16, 1, &owner_a), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfc_ranges_nr_free(r), 11);
	KUNIT_EXPECT_PTR_EQ(test, vfc_ranges_owner(r, 0), (void *)&owner_a);
	KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, a, 3, &owner_a), 0);
	KUNIT_EXPECT_NULL(test, vfc_ranges_owner(r, 0));
	KUNIT_EXPECT_EQ(test, vfc_ranges_nr_free(r), 14);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 0, &owner_a, &a), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 1, NULL, &a), -EINVAL);
	vfc_ranges_destroy(r);
}

/* Full, fragmented: a run that fits nowhere is -ENOMEM; holes are reused. */
static void full_and_fragmented(struct kunit *test)
{
	struct vfc_ranges *r = ranges(test, 8);
	u64 g[8], x;
	int i;

	for (i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, vfc_ranges_alloc(r, 1, &owner_a, &g[i]), 0);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 1, &owner_a, &x), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 9, &owner_a, &x), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vfc_ranges_nr_free(r), 0);
	/* Free every other granule: four free, no two together. */
	for (i = 0; i < 8; i += 2)
		KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, g[i], 1, &owner_a), 0);
	KUNIT_EXPECT_EQ(test, vfc_ranges_nr_free(r), 4);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 2, &owner_b, &x), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 1, &owner_b, &x), 0);
	KUNIT_EXPECT_EQ(test, x % 2, 0);
	KUNIT_EXPECT_PTR_EQ(test, vfc_ranges_owner(r, x * VFC_GRANULE_PAGES),
			    (void *)&owner_b);
	/* Granule 1 freed beside the free 2: a run of two, and it is used. */
	KUNIT_EXPECT_EQ(test, vfc_ranges_free(r, 1, 1, &owner_a), 0);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 3, &owner_b, &x), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 2, &owner_b, &x), 0);
	KUNIT_EXPECT_EQ(test, x, 1);
	vfc_ranges_destroy(r);
}

/* Disowned granules have no owner but stay taken until released. */
static void disown_then_release(struct kunit *test)
{
	struct vfc_ranges *r = ranges(test, 2);
	u64 a, x;

	KUNIT_ASSERT_EQ(test, vfc_ranges_alloc(r, 2, &owner_a, &a), 0);
	KUNIT_EXPECT_EQ(test, vfc_ranges_disown(r, a, 2, &owner_b), -EINVAL);
	KUNIT_EXPECT_EQ(test, vfc_ranges_disown(r, a, 2, &owner_a), 0);
	KUNIT_EXPECT_NULL(test, vfc_ranges_owner(r, 0));
	KUNIT_EXPECT_NULL(test, vfc_ranges_owner(r, VFC_GRANULE_PAGES));
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 1, &owner_b, &x), -ENOMEM);
	/* Nobody owns them: nobody can disown them again. */
	KUNIT_EXPECT_EQ(test, vfc_ranges_disown(r, a, 2, &owner_a), -EINVAL);
	vfc_ranges_release(r, a, 2);
	KUNIT_EXPECT_EQ(test, vfc_ranges_nr_free(r), 2);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 2, &owner_b, &x), 0);
	vfc_ranges_destroy(r);
}

/* A device smaller than a granule has none to give. */
static void tiny_device(struct kunit *test)
{
	struct vfc_ranges *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	u64 x;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, vfc_ranges_init(r, VFC_GRANULE_PAGES - 1), 0);
	KUNIT_EXPECT_EQ(test, vfc_ranges_alloc(r, 1, &owner_a, &x), -ENOMEM);
	KUNIT_EXPECT_NULL(test, vfc_ranges_owner(r, 0));
	vfc_ranges_destroy(r);
}

static struct kunit_case ranges_test_cases[] = {
	KUNIT_CASE(alloc_owner_free),
	KUNIT_CASE(full_and_fragmented),
	KUNIT_CASE(disown_then_release),
	KUNIT_CASE(tiny_device),
	{}
};

static struct kunit_suite ranges_test_suite = {
	.name = "vflash-cxl-ranges",
	.test_cases = ranges_test_cases,
};

kunit_test_suite(ranges_test_suite);
