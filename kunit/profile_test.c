// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the shipped flash models (backend_flash/profile.c).
 */
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "backend_flash/profile.h"

static const char * const shipped[] = {
	"qlc-hybrid", "znand", "cylon", "tlc", "samsung-970pro", "optane",
	"cxdvirt-znand", "zn540",
};

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
		/* Over-provisioning in the range op_percent= takes, or 0. */
		KUNIT_EXPECT_LE(test, p->op_pct, 100U);
		/* A power of two: what page_size= takes. */
		KUNIT_EXPECT_TRUE(test, is_power_of_2(p->flash_page_bytes));

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

/* Every shipped model is in shipped[], and the other way round. */
static void every_profile_is_listed(struct kunit *test)
{
	const struct vflash_profile *p;
	unsigned int i, j;

	for (i = 0; (p = vflash_profile_at(i)); i++) {
		for (j = 0; j < ARRAY_SIZE(shipped); j++)
			if (!strcmp(shipped[j], p->name))
				break;
		KUNIT_EXPECT_LT_MSG(test, j, (unsigned int)ARRAY_SIZE(shipped),
				    "%s is not in shipped[]", p->name);
	}
	KUNIT_EXPECT_EQ(test, i, (unsigned int)ARRAY_SIZE(shipped));
}

/* NVMeVirt's WD_ZN540 figures and the drive's zones (docs/profiles.md). */
static void zn540_matches_nvmevirt(struct kunit *test)
{
	const struct vflash_profile *p = vflash_profile_find("zn540");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->channels * p->dies_per_channel, 32U);
	KUNIT_EXPECT_EQ(test, p->flash_page_bytes, 32768U);
	/* A zone is one block on every die. */
	KUNIT_EXPECT_EQ(test, (u64)p->pages_per_block * p->flash_page_bytes *
			p->channels * p->dies_per_channel, p->zone_bytes);
	KUNIT_EXPECT_EQ(test, p->read_ns, 50000ULL);
	KUNIT_EXPECT_EQ(test, p->prog_ns, 561000ULL);
	KUNIT_EXPECT_EQ(test, p->fw_overhead_ns, 20000ULL);
	KUNIT_EXPECT_LE(test, p->zone_cap_bytes, p->zone_bytes);
	KUNIT_EXPECT_EQ(test, p->zone_max_active, 14U);
}

/* NVMeVirt's SAMSUNG_970PRO figures (docs/profiles.md). */
static void samsung_970pro_matches_nvmevirt(struct kunit *test)
{
	const struct vflash_profile *p = vflash_profile_find("samsung-970pro");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->cell, VFLASH_CELL_MLC);
	KUNIT_EXPECT_EQ(test, p->channels, 8U);
	KUNIT_EXPECT_EQ(test, p->dies_per_channel, 2U);
	KUNIT_EXPECT_EQ(test, p->flash_page_bytes, 32768U);
	KUNIT_EXPECT_EQ(test, p->read_ns, 35760ULL);
	KUNIT_EXPECT_EQ(test, p->xfer_ns_per_4k, 5120ULL);
	KUNIT_EXPECT_EQ(test, p->prog_ns, 185000ULL);
	KUNIT_EXPECT_EQ(test, p->fw_overhead_ns, 21500ULL);
	KUNIT_EXPECT_EQ(test, p->op_pct, 7U);
	KUNIT_EXPECT_EQ(test, p->write_buffer_bytes, 1ULL << 20);
}

/* The P4800X's 7 channels x 4 dies, 8.9 us with the 1.219 us host link. */
static void optane_matches_the_p4800x(struct kunit *test)
{
	const struct vflash_profile *p = vflash_profile_find("optane");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->channels * p->dies_per_channel, 28U);
	KUNIT_EXPECT_EQ(test, p->read_ns + p->xfer_ns_per_4k + 1219 +
			p->fw_overhead_ns, 8919ULL);
	KUNIT_EXPECT_LE(test, p->prog_ns, 10000ULL);
}

/* CXDVirt's SAMSUNG_ZNAND: 6.232 us a serial 4 KiB read. */
static void cxdvirt_znand_matches_cxdvirt(struct kunit *test)
{
	const struct vflash_profile *p = vflash_profile_find("cxdvirt-znand");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p->channels, 8U);
	KUNIT_EXPECT_EQ(test, p->dies_per_channel, 16U);
	KUNIT_EXPECT_EQ(test, p->flash_page_bytes * p->pages_per_block,
			1U << 20);
	KUNIT_EXPECT_EQ(test, p->read_ns + p->xfer_ns_per_4k, 6232ULL);
	KUNIT_EXPECT_EQ(test, p->prog_ns, 100000ULL);
	KUNIT_EXPECT_EQ(test, p->erase_ns, 1000000ULL);
}

static void lookup_and_names(struct kunit *test)
{
	char names[160];
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
	KUNIT_CASE(every_profile_is_listed),
	KUNIT_CASE(samsung_970pro_matches_nvmevirt),
	KUNIT_CASE(zn540_matches_nvmevirt),
	KUNIT_CASE(optane_matches_the_p4800x),
	KUNIT_CASE(cxdvirt_znand_matches_cxdvirt),
	KUNIT_CASE(lookup_and_names),
	{}
};

static struct kunit_suite profile_test_suite = {
	.name = "vflash-profile",
	.test_cases = profile_test_cases,
};

kunit_test_suite(profile_test_suite);
