// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the prefetch policies (policy/prefetch.c).
 */
#include <kunit/test.h>

#include "core/compat.h"
#include "policy/policy.h"

#define PAGES	1000ULL

static const struct vflash_prefetch_ops *ops_of(struct kunit *test,
						const char *name)
{
	const struct vflash_policy *p =
		vflash_policy_find(VFLASH_POLICY_PREFETCH, name);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p->ops;
}

static void none_and_next_n(struct kunit *test)
{
	const struct vflash_prefetch_ops *none = ops_of(test, "none");
	const struct vflash_prefetch_ops *next = ops_of(test, "next-n");
	u64 out[VFLASH_PREFETCH_MAX];
	u32 n, i;

	KUNIT_EXPECT_NULL(test, none->alloc);
	KUNIT_EXPECT_EQ(test, none->predict(NULL, 1, 10, 4, PAGES, out, 64),
			0U);

	n = next->predict(NULL, 1, 10, 4, PAGES, out, 64);
	KUNIT_ASSERT_EQ(test, n, 4U);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, out[i], 11ULL + i);
	/* Never past the end of the device, nor past the caller's room. */
	KUNIT_EXPECT_EQ(test, next->predict(NULL, 1, PAGES - 3, 8, PAGES, out,
					    64), 2U);
	KUNIT_EXPECT_EQ(test, out[1], PAGES - 1);
	KUNIT_EXPECT_EQ(test, next->predict(NULL, 1, PAGES - 1, 8, PAGES, out,
					    64), 0U);
	KUNIT_EXPECT_EQ(test, next->predict(NULL, 1, 0, 8, PAGES, out, 3), 3U);
	KUNIT_EXPECT_EQ(test, next->predict(NULL, 1, 0, 1000, PAGES, out, 1000),
			(u32)VFLASH_PREFETCH_MAX);
	KUNIT_EXPECT_EQ(test, next->predict(NULL, 1, 0, 0, PAGES, out, 64), 0U);
}

struct stride {
	const struct vflash_prefetch_ops *ops;
	void *st;
	u64 out[VFLASH_PREFETCH_MAX];
};

static int stride_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void stride_free(struct kunit_resource *res)
{
	struct stride *s = res->data;

	s->ops->free(s->st);
}

static struct stride *mk(struct kunit *test)
{
	struct stride *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->ops = ops_of(test, "stride");
	s->st = s->ops->alloc(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->st);
	if (!kunit_alloc_resource(test, stride_init, stride_free, GFP_KERNEL,
				  s)) {
		s->ops->free(s->st);
		KUNIT_FAIL_AND_ABORT(test, "no memory for a KUnit resource");
	}
	return s;
}

static u32 miss(struct stride *s, u64 stream, u64 lpn, u32 degree)
{
	return s->ops->predict(s->st, stream, lpn, degree, PAGES, s->out,
			       VFLASH_PREFETCH_MAX);
}

static void stride_detects_a_progression(struct kunit *test)
{
	struct stride *s = mk(test);
	u32 i;

	/* Two equal deltas are needed: nothing on the first two misses. */
	KUNIT_EXPECT_EQ(test, miss(s, 7, 100, 4), 0U);
	KUNIT_EXPECT_EQ(test, miss(s, 7, 103, 4), 0U);
	KUNIT_ASSERT_EQ(test, miss(s, 7, 106, 4), 4U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, s->out[i], 109ULL + 3 * i);
	/*
	 * The prefetches kept up: the next demand miss is one stride past
	 * the last page proposed, and the detector stays armed.
	 */
	KUNIT_ASSERT_EQ(test, miss(s, 7, 121, 2), 2U);
	KUNIT_EXPECT_EQ(test, s->out[0], 124ULL);
	KUNIT_EXPECT_EQ(test, s->out[1], 127ULL);
	/* A break in the pattern disarms it; a new stride re-arms it. */
	KUNIT_EXPECT_EQ(test, miss(s, 7, 500, 4), 0U);
	KUNIT_EXPECT_EQ(test, miss(s, 7, 490, 4), 0U);
	KUNIT_ASSERT_EQ(test, miss(s, 7, 480, 4), 4U);
	KUNIT_EXPECT_EQ(test, s->out[0], 470ULL);
	KUNIT_EXPECT_EQ(test, s->out[3], 440ULL);
}

/*
 * Regression: the frontier moved past every page proposed, so a demand
 * miss on a proposed page that the cache had not prefetched (no free
 * slot) or had evicted unused looked like a break in the pattern and
 * disarmed the detector for two more misses. It stays armed and proposes
 * on from that page.
 */
static void stride_survives_unprefetched_proposals(struct kunit *test)
{
	struct stride *s = mk(test);

	miss(s, 3, 100, 4);
	miss(s, 3, 102, 4);
	KUNIT_ASSERT_EQ(test, miss(s, 3, 104, 4), 4U);	/* 106 .. 112 */
	/* 106 was not prefetched: its own miss keeps the stride. */
	KUNIT_ASSERT_EQ(test, miss(s, 3, 106, 4), 4U);
	KUNIT_EXPECT_EQ(test, s->out[0], 108ULL);
	KUNIT_EXPECT_EQ(test, s->out[3], 114ULL);
	/* Neither was 110, nor 112 after it. */
	KUNIT_ASSERT_EQ(test, miss(s, 3, 110, 2), 2U);
	KUNIT_EXPECT_EQ(test, s->out[0], 112ULL);
	KUNIT_ASSERT_EQ(test, miss(s, 3, 112, 2), 2U);
	KUNIT_EXPECT_EQ(test, s->out[1], 116ULL);
	/* Off the progression, or behind the last miss: a break. */
	KUNIT_EXPECT_EQ(test, miss(s, 3, 113, 2), 0U);
	miss(s, 3, 200, 2);
	miss(s, 3, 210, 2);
	KUNIT_ASSERT_EQ(test, miss(s, 3, 220, 2), 2U);	/* 230, 240 */
	KUNIT_EXPECT_EQ(test, miss(s, 3, 210, 2), 0U);
}

static void stride_needs_a_stride(struct kunit *test)
{
	struct stride *s = mk(test);
	static const u64 trace[] = { 5, 900, 17, 17, 17, 300, 301, 303, 306 };
	u32 i;

	/* Random jumps, repeats (delta 0) and growing deltas never arm it. */
	for (i = 0; i < ARRAY_SIZE(trace); i++)
		KUNIT_EXPECT_EQ_MSG(test, miss(s, 1, trace[i], 4), 0U,
				    "miss %u", i);
}

static void stride_stays_in_the_device(struct kunit *test)
{
	struct stride *s = mk(test);

	miss(s, 2, PAGES - 30, 8);
	miss(s, 2, PAGES - 20, 8);
	KUNIT_EXPECT_EQ(test, miss(s, 2, PAGES - 10, 8), 0U);
	/* Downwards, stopping at page 0 without wrapping. */
	miss(s, 3, 9, 8);
	miss(s, 3, 6, 8);
	KUNIT_ASSERT_EQ(test, miss(s, 3, 3, 8), 1U);
	KUNIT_EXPECT_EQ(test, s->out[0], 0ULL);
}

static void stride_tracks_streams_apart(struct kunit *test)
{
	struct stride *s = mk(test);
	u64 a = 100, b = 800;
	u32 i, na = 0, nb = 0;

	/* Interleaved streams with strides +2 and -5 are both detected. */
	for (i = 0; i < 3; i++, a += 2, b -= 5) {
		na = miss(s, 11, a, 1);
		nb = miss(s, 12, b, 1);
	}
	KUNIT_ASSERT_EQ(test, na, 1U);
	KUNIT_ASSERT_EQ(test, nb, 1U);
	KUNIT_EXPECT_EQ(test, s->ops->predict(s->st, 11, a + 2, 1, PAGES,
					      s->out, 64), 1U);
	KUNIT_EXPECT_EQ(test, s->out[0], a + 4);
	KUNIT_EXPECT_EQ(test, s->ops->predict(s->st, 12, b - 5, 1, PAGES,
					      s->out, 64), 1U);
	KUNIT_EXPECT_EQ(test, s->out[0], b - 10);
}

static int prefetch_test_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void prefetch_test_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_case prefetch_test_cases[] = {
	KUNIT_CASE(none_and_next_n),
	KUNIT_CASE(stride_detects_a_progression),
	KUNIT_CASE(stride_survives_unprefetched_proposals),
	KUNIT_CASE(stride_needs_a_stride),
	KUNIT_CASE(stride_stays_in_the_device),
	KUNIT_CASE(stride_tracks_streams_apart),
	{}
};

static struct kunit_suite prefetch_test_suite = {
	.name = "vflash-prefetch",
	.suite_init = prefetch_test_init,
	.suite_exit = prefetch_test_exit,
	.test_cases = prefetch_test_cases,
};

kunit_test_suite(prefetch_test_suite);
