// SPDX-License-Identifier: GPL-2.0
/*
 * A concurrency torture test of the backend, reached through debugfs so the
 * VM suites run it on a real SMP kernel (KASAN and lockdep in check-debug).
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "backend_flash/ftl.h"

#define TORTURE_MAX_THREADS	64

struct torture_thread {
	struct vflash_flash *f;
	u64 ops;
	u64 seed;
	bool switcher;
	atomic_t *running;
	struct completion *done;
};

static u64 next(u64 *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

static void switch_some_policy(struct vflash_flash *f, u64 *seed)
{
	enum vflash_policy_kind kind = next(seed) % VFLASH_POLICY_NR;
	char list[128], *p, *name;
	const struct vflash_policy *pol;
	unsigned int words = 1, pick;

	/* The list reads "a b c\n": pick one of its words. */
	vflash_policy_list(kind, NULL, list, sizeof(list));
	p = strim(list);
	for (name = p; *name; name++)
		words += *name == ' ';
	pick = next(seed) % words;
	name = strsep(&p, " ");
	while (name && pick--)
		name = strsep(&p, " ");
	pol = name ? vflash_policy_find(kind, name) : NULL;
	if (pol)
		vflash_flash_set_policy(f, pol);
}

static int torture_fn(void *data)
{
	struct torture_thread *t = data;
	struct vflash_flash *f = t->f;
	u64 n = f->nr_lpages, i;

	for (i = 0; i < t->ops; i++) {
		u64 op = next(&t->seed) % 20;
		u64 lpn = next(&t->seed) % n;
		u32 count = 1 + next(&t->seed) % 8;

		count = min_t(u64, count, n - lpn);
		if (op < 10)
			vflash_flash_submit(f, VFLASH_IO_WRITE, lpn, count,
					    ktime_get_ns());
		else if (op < 17)
			vflash_flash_submit(f, VFLASH_IO_READ, lpn, count,
					    ktime_get_ns());
		else if (op < 19)
			vflash_flash_submit(f, VFLASH_IO_TRIM, lpn, count,
					    ktime_get_ns());
		else
			vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0,
					    ktime_get_ns());
		if (t->switcher && i % 256 == 255)
			switch_some_policy(f, &t->seed);
		if (i % 1024 == 1023)
			cond_resched();
	}
	if (atomic_dec_and_test(t->running))
		complete(t->done);
	return 0;
}

/**
 * vflash_flash_torture() - hammer the backend from many CPUs, then check it
 * @f: the device; no other request may be in flight (the check that
 *	follows needs a quiescent FTL), the GC worker may run
 * @threads: threads, bound round-robin to the online CPUs (1..64)
 * @ops: requests per thread
 * @why: receives the first invariant violation, if any
 * @size: size of @why
 *
 * Sleeps until every thread is done.
 *
 * Return: 0, -EINVAL for bad arguments, -EUCLEAN on a violation, or
 * another negative errno.
 */
int vflash_flash_torture(struct vflash_flash *f, unsigned int threads,
			 u64 ops, char *why, size_t size)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct torture_thread *t;
	atomic_t running;
	unsigned int i, cpu = cpumask_first(cpu_online_mask);
	int ret;

	if (!threads || threads > TORTURE_MAX_THREADS || !ops)
		return -EINVAL;
	t = kcalloc(threads, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	atomic_set(&running, threads);
	for (i = 0; i < threads; i++) {
		struct task_struct *task;

		t[i] = (struct torture_thread) {
			.f = f, .ops = ops, .seed = 0x9e3779b97f4a7c15ULL * (i + 1),
			.switcher = i == 0, .running = &running, .done = &done,
		};
		task = kthread_create(torture_fn, &t[i], "vflash-torture/%u", i);
		if (IS_ERR(task)) {
			/* Count the threads that will never run as done. */
			if (atomic_sub_and_test(threads - i, &running))
				complete(&done);
			break;
		}
		kthread_bind(task, cpu);
		wake_up_process(task);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	wait_for_completion(&done);
	kfree(t);

	/* Hold the worker off while the tables are walked. */
	mutex_lock(&f->maint_lock);
	ret = vflash_flash_check(f, why, size);
	mutex_unlock(&f->maint_lock);
	return ret;
}
