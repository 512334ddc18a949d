// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the backing store modes (core/backing.c, store=): what
 * each mode gives to read from, write to and map, when store=sparse
 * allocates and frees, store_bytes, the sparse reserve that turns a
 * shortage into -ENOMEM, the load-time check, and store= parsing.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/params.h"
#include "core/vflash.h"
#include "policy/policy.h"

#define SIZE_BYTES	(16ULL << 20)
#define NR_CHUNKS	(SIZE_BYTES / PAGE_SIZE / VFLASH_CHUNK_PAGES)
#define TABLE_BYTES	(NR_CHUNKS * sizeof(struct vflash_chunk))
#define ARRAY_BYTES	(VFLASH_CHUNK_PAGES * sizeof(struct page *))

static const void *zero_page_addr(void)
{
	return page_address(ZERO_PAGE(0));
}

/* A store of @mode over SIZE_BYTES, freed when the test ends. */
static struct vflash_backing *store(struct kunit *test,
				    enum vflash_store_mode mode)
{
	struct vflash_backing *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct vflash_config cfg = {
		.size_bytes = SIZE_BYTES,
		.profile = vflash_profile_find("qlc-hybrid"),
		.store = mode,
	};

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, cfg.profile);
	cfg.model = *cfg.profile;
	KUNIT_ASSERT_EQ(test, vflash_backing_init(b, &cfg), 0);
	test->priv = b;
	return b;
}

static void store_exit(struct kunit *test)
{
	if (test->priv)
		vflash_backing_exit(test->priv);
}

static bool all_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/* Unwritten pages read as the zero page; the first write allocates. */
static void sparse_allocates_on_write(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_SPARSE);
	u8 *w, *again;

	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), (u64)TABLE_BYTES);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 5),
			    zero_page_addr());
	/* Reading allocates nothing. */
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), (u64)TABLE_BYTES);

	w = vflash_store_write_page(b, 5, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(w));
	KUNIT_EXPECT_PTR_NE(test, (const void *)w, zero_page_addr());
	KUNIT_EXPECT_TRUE(test, all_zero(w, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b),
			(u64)(TABLE_BYTES + ARRAY_BYTES + PAGE_SIZE));
	memset(w, 0xa5, PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 5),
			    (const void *)w);

	/* A second write finds the same page and allocates nothing. */
	again = vflash_store_write_page(b, 5, GFP_KERNEL);
	KUNIT_EXPECT_PTR_EQ(test, again, w);
	/* A neighbour in the same chunk costs a page, not another array. */
	KUNIT_ASSERT_FALSE(test,
			   IS_ERR_OR_NULL(vflash_store_write_page(b, 6,
								  GFP_KERNEL)));
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b),
			(u64)(TABLE_BYTES + ARRAY_BYTES + 2 * PAGE_SIZE));
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 7),
			    zero_page_addr());
	/* The last page of the device. */
	w = vflash_store_write_page(b, SIZE_BYTES / PAGE_SIZE - 1, GFP_KERNEL);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(w));
}

/* Zeroing a whole page frees it; part of one, or none held, does not. */
static void sparse_zero_frees_whole_pages(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_SPARSE);
	u64 held;
	u8 *w;

	w = vflash_store_write_page(b, 100, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(w));
	memset(w, 0x5a, PAGE_SIZE);
	held = vflash_store_bytes(b);

	vflash_store_zero(b, 100, 512, 1024);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), held);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 100),
			    (const void *)w);
	KUNIT_EXPECT_TRUE(test, all_zero(w + 512, 1024));
	KUNIT_EXPECT_EQ(test, w[511], 0x5a);
	KUNIT_EXPECT_EQ(test, w[1536], 0x5a);

	vflash_store_zero(b, 100, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), held - PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 100),
			    zero_page_addr());

	/* Nothing held: nothing allocated, nothing freed twice. */
	vflash_store_zero(b, 100, 0, PAGE_SIZE);
	vflash_store_zero(b, 2000, 0, 100);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), held - PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 2000),
			    zero_page_addr());
}

/* With a frontend that maps pages, a zeroed page keeps its memory. */
static void sparse_keep_pages(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_SPARSE);
	u64 held;
	u8 *w;

	b->keep_pages = true;
	w = vflash_store_write_page(b, 3, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(w));
	memset(w, 1, PAGE_SIZE);
	held = vflash_store_bytes(b);
	vflash_store_zero(b, 3, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), held);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 3),
			    (const void *)w);
	KUNIT_EXPECT_TRUE(test, all_zero(w, PAGE_SIZE));
}

/* A mapping gets memory on any access, and only that frame is "ours". */
static void sparse_pfn(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_SPARSE);
	unsigned long pfn, again;

	KUNIT_ASSERT_EQ(test, vflash_store_pfn(b, 9, false, &pfn), 0);
	KUNIT_EXPECT_NE(test, pfn, page_to_pfn(ZERO_PAGE(0)));
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 9),
			    (const void *)page_address(pfn_to_page(pfn)));
	KUNIT_ASSERT_EQ(test, vflash_store_pfn(b, 9, true, &again), 0);
	KUNIT_EXPECT_EQ(test, again, pfn);
	KUNIT_EXPECT_TRUE(test, vflash_store_maps_pfn(b, 9, pfn));
	KUNIT_EXPECT_FALSE(test, vflash_store_maps_pfn(b, 10, pfn));
	KUNIT_EXPECT_FALSE(test, vflash_store_maps_pfn(b, 9, pfn + 1));
}

/*
 * Memory below the store's reserve: a write gets -ENOMEM (the NVMe
 * status, the CXL SIGBUS) and nothing is held; once there is room again
 * the same page is written.
 */
static void sparse_reserve_fails_cleanly(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_SPARSE);
	unsigned long reserve = b->reserve_pages, pfn = 0;
	u64 held = vflash_store_bytes(b);
	void *w;

	KUNIT_EXPECT_GT(test, reserve, 0UL);
	b->reserve_pages = totalram_pages() * 2;
	w = vflash_store_write_page(b, 42, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, IS_ERR(w));
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(w), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vflash_store_pfn(b, 42, true, &pfn), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), held);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 42),
			    zero_page_addr());

	b->reserve_pages = reserve;
	w = vflash_store_write_page(b, 42, GFP_KERNEL);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(w));
}

/* store=none: nothing to write to, zeros to read, zero/scratch to map. */
static void none_mode(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_NONE);
	unsigned long rd, wr;

	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), (u64)2 * PAGE_SIZE);
	KUNIT_EXPECT_NULL(test, vflash_store_write_page(b, 1, GFP_KERNEL));
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 1),
			    zero_page_addr());
	KUNIT_ASSERT_EQ(test, vflash_store_pfn(b, 1, false, &rd), 0);
	KUNIT_ASSERT_EQ(test, vflash_store_pfn(b, 1, true, &wr), 0);
	/* Not the shared zero page: 6.12 maps none into our VMAs. */
	KUNIT_EXPECT_NE(test, rd, page_to_pfn(ZERO_PAGE(0)));
	KUNIT_EXPECT_TRUE(test, all_zero(page_address(pfn_to_page(rd)),
					 PAGE_SIZE));
	KUNIT_EXPECT_NE(test, wr, rd);
	KUNIT_EXPECT_TRUE(test, vflash_store_maps_pfn(b, 1, rd));
	KUNIT_EXPECT_TRUE(test, vflash_store_maps_pfn(b, 2, wr));
	KUNIT_EXPECT_TRUE(test, vflash_store_maps_pfn(b, 2, rd));
	KUNIT_EXPECT_FALSE(test, vflash_store_maps_pfn(b, 2,
						       page_to_pfn(ZERO_PAGE(0))));
	vflash_store_zero(b, 1, 0, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b), (u64)2 * PAGE_SIZE);
	KUNIT_EXPECT_FALSE(test, vflash_store_has_data(b));
}

/* store=full: every page at load; zeroing never frees. */
static void full_mode(struct kunit *test)
{
	struct vflash_backing *b = store(test, VFLASH_STORE_FULL);
	unsigned long pfn;
	u8 *w;

	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b),
			(u64)(TABLE_BYTES + SIZE_BYTES));
	w = vflash_store_write_page(b, 77, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(w));
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 77),
			    (const void *)w);
	KUNIT_EXPECT_TRUE(test, all_zero(w, PAGE_SIZE));
	memset(w, 3, PAGE_SIZE);
	vflash_store_zero(b, 77, 0, PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, vflash_store_read_page(b, 77),
			    (const void *)w);
	KUNIT_EXPECT_TRUE(test, all_zero(w, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(b),
			(u64)(TABLE_BYTES + SIZE_BYTES));
	KUNIT_ASSERT_EQ(test, vflash_store_pfn(b, 77, false, &pfn), 0);
	KUNIT_EXPECT_PTR_EQ(test, page_address(pfn_to_page(pfn)), (void *)w);
}

/*
 * The load-time check: sparse and none need memory for the metadata
 * only, so a capacity far beyond RAM loads as long as its FTL tables
 * fit; one whose tables do not is refused with -ENOMEM.
 */
static void load_check(struct kunit *test)
{
	struct vflash_backing b = {};
	struct vflash_config cfg = {
		.profile = vflash_profile_find("qlc-hybrid"),
		.store = VFLASH_STORE_SPARSE,
	};
	u64 meta;

	KUNIT_ASSERT_NOT_NULL(test, cfg.profile);
	cfg.model = *cfg.profile;
	/* 8 TiB: about 22 GB of tables, beyond a KUnit guest. */
	cfg.size_bytes = 8ULL << 40;
	KUNIT_EXPECT_EQ(test, vflash_backing_init(&b, &cfg), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vflash_store_bytes(&b), 0ULL);
	cfg.store = VFLASH_STORE_FULL;
	KUNIT_EXPECT_EQ(test, vflash_backing_init(&b, &cfg), -ENOMEM);

	/* Beyond the KUnit guest's RAM as data, not as metadata. */
	cfg.size_bytes = (u64)totalram_pages() << (PAGE_SHIFT + 1);
	KUNIT_ASSERT_EQ(test, vflash_flash_metadata_bytes(cfg.profile,
							  cfg.size_bytes,
							  &meta), 0);
	cfg.store = VFLASH_STORE_NONE;
	KUNIT_EXPECT_EQ(test, vflash_backing_init(&b, &cfg), 0);
	vflash_backing_exit(&b);
	cfg.store = VFLASH_STORE_FULL;
	KUNIT_EXPECT_EQ(test, vflash_backing_init(&b, &cfg), -ENOMEM);
}

/* FTL metadata per 4 KiB page of a 1 TiB device, per profile. */
static void metadata_per_page(struct kunit *test)
{
	u64 pages = (1ULL << 40) / PAGE_SIZE, bytes;
	const struct vflash_profile *p;
	unsigned int i;

	for (i = 0; (p = vflash_profile_at(i)); i++) {
		KUNIT_ASSERT_EQ(test, vflash_flash_metadata_bytes(p, 1ULL << 40,
								  &bytes), 0);
		kunit_info(test, "%s, 1 TiB: %llu MiB of FTL tables, %llu.%03llu bytes per 4 KiB page\n",
			   p->name, bytes >> 20, div64_u64(bytes, pages),
			   div64_u64((bytes % pages) * 1000, pages));
		/*
		 * At least l2p (4 B) and 3-byte p2l entries for the pages;
		 * at most 8 B per page (issue 15), docs/design/backend.md's table.
		 */
		KUNIT_EXPECT_GE(test, bytes, pages * 7);
		KUNIT_EXPECT_LE(test, bytes, pages * 8);
	}
}

/* gc_high_pct goes up to 99, so a huge device starts cleaning early. */
static void gc_high_pct_99(struct kunit *test)
{
	struct vflash_flash *f = vflash_flash_create(vflash_profile_find("tlc"),
						     SIZE_BYTES);

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT,
						    99), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_knob(f, VFLASH_KNOB_GC_HIGH_PCT),
			99ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_GC_HIGH_PCT,
						    100), -EINVAL);
	vflash_flash_destroy(f);
}

static void parse_store(struct kunit *test)
{
	enum vflash_store_mode m = VFLASH_STORE_NR;

	KUNIT_EXPECT_EQ(test, vflash_parse_store("sparse", &m), 0);
	KUNIT_EXPECT_EQ(test, m, VFLASH_STORE_SPARSE);
	KUNIT_EXPECT_EQ(test, vflash_parse_store("none\n", &m), 0);
	KUNIT_EXPECT_EQ(test, m, VFLASH_STORE_NONE);
	KUNIT_EXPECT_EQ(test, vflash_parse_store("full", &m), 0);
	KUNIT_EXPECT_EQ(test, m, VFLASH_STORE_FULL);
	KUNIT_EXPECT_EQ(test, vflash_parse_store("", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_parse_store("Sparse", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_parse_store("sparsely", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, vflash_parse_store(NULL, &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, m, VFLASH_STORE_FULL);
	KUNIT_EXPECT_STREQ(test, vflash_store_mode_name(VFLASH_STORE_NONE),
			   "none");
}

static void parse_config_store(struct kunit *test)
{
	struct vflash_param_strings in = {
		.frontend = "none", .size = "1T", .store = "sparse",
	};
	struct vflash_param_error err;
	struct vflash_config cfg;

	KUNIT_EXPECT_EQ(test, vflash_parse_config(&in, &cfg, &err), 0);
	KUNIT_EXPECT_EQ(test, cfg.store, VFLASH_STORE_SPARSE);
	KUNIT_EXPECT_EQ(test, cfg.size_bytes, 1ULL << 40);

	in.store = NULL;
	KUNIT_EXPECT_EQ(test, vflash_parse_config(&in, &cfg, &err), 0);
	KUNIT_EXPECT_EQ(test, cfg.store, VFLASH_STORE_FULL);

	in.store = "bogus";
	KUNIT_EXPECT_EQ(test, vflash_parse_config(&in, &cfg, &err), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.param, "store");
	KUNIT_EXPECT_STREQ(test, err.value, "bogus");

	in.store = "none";
	in.size = NULL;
	in.memmap_start = "1G";
	in.memmap_size = "256M";
	KUNIT_EXPECT_EQ(test, vflash_parse_config(&in, &cfg, &err), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.param, "store");
	in.store = "full";
	KUNIT_EXPECT_EQ(test, vflash_parse_config(&in, &cfg, &err), 0);
}

static struct kunit_case store_test_cases[] = {
	KUNIT_CASE(sparse_allocates_on_write),
	KUNIT_CASE(sparse_zero_frees_whole_pages),
	KUNIT_CASE(sparse_keep_pages),
	KUNIT_CASE(sparse_pfn),
	KUNIT_CASE(sparse_reserve_fails_cleanly),
	KUNIT_CASE(none_mode),
	KUNIT_CASE(full_mode),
	KUNIT_CASE(load_check),
	KUNIT_CASE(metadata_per_page),
	KUNIT_CASE(gc_high_pct_99),
	KUNIT_CASE(parse_store),
	KUNIT_CASE(parse_config_store),
	{}
};

static int store_suite_init(struct kunit_suite *suite)
{
	int ret = vflash_policies_init();

	if (ret)
		return ret;
	ret = vflash_frontends_init(NULL, 0);
	if (ret)
		vflash_policies_exit();
	return ret;
}

static void store_suite_exit(struct kunit_suite *suite)
{
	vflash_frontends_exit();
	vflash_policies_exit();
}

static struct kunit_suite store_test_suite = {
	.name = "vflash-store",
	.suite_init = store_suite_init,
	.suite_exit = store_suite_exit,
	.exit = store_exit,
	.test_cases = store_test_cases,
};

kunit_test_suite(store_test_suite);
