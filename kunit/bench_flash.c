// SPDX-License-Identifier: GPL-2.0
/*
 * The backend's own CPU cost per request: not a test, a benchmark. It
 * only prints figures and always passes; `make bench-backend` runs it
 * (and `make kunit` leaves it out). docs/performance.md records them.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ktime.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"

#define BENCH_BYTES	BIT_ULL(30)
#define BENCH_OPS	200000

static u64 next(u64 *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

static void bench_profile(struct kunit *test, const char *name)
{
	const struct vflash_profile *p = vflash_profile_find(name);
	struct vflash_flash *f = vflash_flash_create(p, BENCH_BYTES);
	u64 n, i, t0, t_read, t_write, now = 0, seed = 42, gc0;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	n = vflash_flash_nr_lpages(f);
	/* Fill the device, then overwrite at random until GC runs steadily. */
	for (i = 0; i < n; i++)
		vflash_flash_submit(f, VFLASH_IO_WRITE, i, 1, now += 1000);
	for (i = 0; i < n; i++)
		vflash_flash_submit(f, VFLASH_IO_WRITE, next(&seed) % n, 1,
				    now += 1000);

	t0 = ktime_get_ns();
	for (i = 0; i < BENCH_OPS; i++)
		vflash_flash_submit(f, VFLASH_IO_READ, next(&seed) % n, 1,
				    now += 1000);
	t_read = ktime_get_ns() - t0;

	gc0 = vflash_flash_stat(f, VFLASH_STAT_GC_RUNS);
	t0 = ktime_get_ns();
	for (i = 0; i < BENCH_OPS; i++)
		vflash_flash_submit(f, VFLASH_IO_WRITE, next(&seed) % n, 1,
				    now += 1000);
	t_write = ktime_get_ns() - t0;

	kunit_info(test,
		   "bench %s: read_submit_ns=%llu write_submit_ns=%llu (gc_runs during writes=%llu, waf=%llu/1000)\n",
		   name, div_u64(t_read, BENCH_OPS), div_u64(t_write, BENCH_OPS),
		   vflash_flash_stat(f, VFLASH_STAT_GC_RUNS) - gc0,
		   vflash_flash_write_amplification(f));
	vflash_flash_destroy(f);
}

static void bench_submit_cost(struct kunit *test)
{
	bench_profile(test, "qlc-hybrid");
	bench_profile(test, "tlc");
}

static int bench_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void bench_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_case bench_cases[] = {
	KUNIT_CASE(bench_submit_cost),
	{}
};

static struct kunit_suite bench_suite = {
	.name = "vflash-bench",
	.suite_init = bench_init,
	.suite_exit = bench_exit,
	.test_cases = bench_cases,
};

kunit_test_suite(bench_suite);
