// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the shipped flash models (backend_flash/profile.c).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "backend_flash/profile.h"

static const char * const shipped[] = { "qlc-hybrid", "znand", "cylon", "tlc" };

static void every_profile_is_consistent(struct kunit *test)
{
	unsigned int i, t;

	for (i = 0; i < ARRAY_SIZE(shipped); i++) {
		const struct vflash_profile *p = vflash_profile_find(shipped[i]);

		KUNIT_ASSERT_NOT_NULL_MSG(test, p, "%s missing", shipped[i]);
		KUNIT_EXPECT_STREQ(test, p->name, shipped[i]);
		KUNIT_EXPECT_NOT_NULL(test, p->desc);
		KUNIT_EXPECT_GT(test, p->channels, 0U);
		KUNIT_EXPECT_GT(test, p->dies_per_channel, 0U);
		KUNIT_EXPECT_GT(test, p->pages_per_block, 0U);
		/* A flash page holds whole 4 KiB logical pages. */
		KUNIT_EXPECT_GT(test, p->flash_page_bytes, 0U);
		KUNIT_EXPECT_EQ(test, p->flash_page_bytes % 4096, 0U);
		KUNIT_EXPECT_GT(test, p->read_ns, 0ULL);
		/* Programs are slower than reads, erases than programs. */
		KUNIT_EXPECT_GT(test, p->prog_ns, p->read_ns);
		KUNIT_EXPECT_GT(test, p->slc_prog_ns, p->read_ns);
		KUNIT_EXPECT_GE(test, p->erase_ns, p->prog_ns);
		KUNIT_EXPECT_GE(test, p->slc_erase_ns, p->slc_prog_ns);
		KUNIT_EXPECT_LE(test, p->slc_prog_ns, p->prog_ns);

		if (p->cell != VFLASH_CELL_QLC) {
			for (t = 0; t < 4; t++)
				KUNIT_EXPECT_EQ(test, p->qlc_read_ns[t], 0ULL);
			continue;
		}
		/* QLC page types get slower from lower to upper. */
		KUNIT_EXPECT_GE(test, p->qlc_read_ns[0], p->read_ns);
		for (t = 1; t < 4; t++)
			KUNIT_EXPECT_GT(test, p->qlc_read_ns[t],
					p->qlc_read_ns[t - 1]);
	}
}

static void hybrid_matches_the_study(struct kunit *test)
{
	const struct vflash_profile *p = vflash_profile_find("qlc-hybrid");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, p->slc_cache);
	KUNIT_EXPECT_EQ(test, p->qlc_read_ns[0], 44600ULL);
	KUNIT_EXPECT_EQ(test, p->qlc_read_ns[3], 187900ULL);
	KUNIT_EXPECT_EQ(test, p->slc_prog_ns, 185000ULL);
	KUNIT_EXPECT_EQ(test, p->prog_ns, 740000ULL);
}

static void lookup_and_names(struct kunit *test)
{
	char names[128];
	unsigned int i;

	KUNIT_EXPECT_NULL(test, vflash_profile_find(""));
	KUNIT_EXPECT_NULL(test, vflash_profile_find("qlc"));
	KUNIT_EXPECT_NULL(test, vflash_profile_find("ZNAND"));

	vflash_profile_names(names, sizeof(names));
	for (i = 0; i < ARRAY_SIZE(shipped); i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(names, shipped[i]),
					  "'%s' not in '%s'", shipped[i],
					  names);
	KUNIT_EXPECT_EQ(test, vflash_profile_names(names, 5), (size_t)4);
	KUNIT_EXPECT_STREQ(test, names, "qlc-");
}

static struct kunit_case profile_test_cases[] = {
	KUNIT_CASE(every_profile_is_consistent),
	KUNIT_CASE(hybrid_matches_the_study),
	KUNIT_CASE(lookup_and_names),
	{}
};

static struct kunit_suite profile_test_suite = {
	.name = "vflash-profile",
	.test_cases = profile_test_cases,
};

kunit_test_suite(profile_test_suite);
