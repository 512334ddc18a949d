// SPDX-License-Identifier: GPL-2.0
/*
 * The cache's part of stats/; a reset racing with misses may miss the
 * increments made during it.
 */
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/hist.h"

/**
 * vflash_cache_ctl_stat() - a counter of the device's DRAM cache
 * @ctl: the device's cache control
 * @stat: the counter
 *
 * Return: its value, 0 without a cache.
 */
u64 vflash_cache_ctl_stat(struct vflash_cache_ctl *ctl,
			  enum vflash_cache_stat stat)
{
	u64 val = 0;

	mutex_lock(&ctl->lock);
	if (ctl->cache)
		val = vflash_cache_stat(ctl->cache, stat);
	mutex_unlock(&ctl->lock);
	return val;
}

/**
 * vflash_cache_ctl_resident() - pages in the device's DRAM cache
 * @ctl: the device's cache control
 *
 * Return: slots in use (resident, loading or being evicted), 0 without a
 * cache.
 */
u64 vflash_cache_ctl_resident(struct vflash_cache_ctl *ctl)
{
	u64 val = 0;

	mutex_lock(&ctl->lock);
	if (ctl->cache)
		val = vflash_cache_resident(ctl->cache);
	mutex_unlock(&ctl->lock);
	return val;
}

/**
 * vflash_cache_ctl_record_miss() - count one cache miss's latency
 * @ctl: the device's cache control
 * @ns: from the fault's entry to its page being mapped
 *
 * Per CPU and lock-free.
 */
void vflash_cache_ctl_record_miss(struct vflash_cache_ctl *ctl, u64 ns)
{
	this_cpu_inc(ctl->miss_hist[vff_hist_bucket(ns)]);
}

/**
 * vflash_cache_ctl_miss_latency_pct() - a cache-miss latency percentile
 * @ctl: the device's cache control
 * @per_mille: 500 for the median, 990 for p99, 999 for p99.9
 *
 * Return: as vflash_flash_read_latency_pct(), for cache misses.
 */
u64 vflash_cache_ctl_miss_latency_pct(struct vflash_cache_ctl *ctl,
				      u32 per_mille)
{
	return vflash_hist_pct(ctl->miss_hist, per_mille);
}

/**
 * vflash_cache_ctl_reset_stats() - zero the cache's counters and the
 *	miss histogram
 * @ctl: the device's cache control
 */
void vflash_cache_ctl_reset_stats(struct vflash_cache_ctl *ctl)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(ctl->miss_hist, cpu), 0,
		       VFF_HIST_BUCKETS * sizeof(u64));
	mutex_lock(&ctl->lock);
	if (ctl->cache)
		vflash_cache_reset_stats(ctl->cache);
	mutex_unlock(&ctl->lock);
}
