/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's side of its DRAM cache: the attached cache and what outlives
 * it (knobs, policies, the miss-latency histogram).
 */
#ifndef VFLASH_CACHE_CTL_H
#define VFLASH_CACHE_CTL_H

#include <linux/compiler_types.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "backend_flash/cache/cache.h"
#include "policy/policy.h"

/**
 * enum vflash_cache_knob - the cache's run-time tunables in config/
 * @VFLASH_CACHE_KNOB_FREE_LOW_PCT: free slots (%) below which the evictor
 *	is woken
 * @VFLASH_CACHE_KNOB_FREE_HIGH_PCT: free slots the evictor restores
 * @VFLASH_CACHE_KNOB_PREFETCH_DEGREE: pages a prefetch may propose
 * @VFLASH_CACHE_KNOB_SAMPLE_PERIOD_MS: sampling and evictor period
 * @VFLASH_CACHE_KNOB_SAMPLE_BATCH: slots the sampler looks at per period
 * @VFLASH_CACHE_KNOB_WAIT_SPIN_NS: the last part of a NAND wait that is spun
 * @VFLASH_CACHE_KNOB_WAYS: ways of a set, 0 for fully associative
 * @VFLASH_CACHE_KNOB_NR: number of knobs
 */
enum vflash_cache_knob {
	VFLASH_CACHE_KNOB_FREE_LOW_PCT,
	VFLASH_CACHE_KNOB_FREE_HIGH_PCT,
	VFLASH_CACHE_KNOB_PREFETCH_DEGREE,
	VFLASH_CACHE_KNOB_SAMPLE_PERIOD_MS,
	VFLASH_CACHE_KNOB_SAMPLE_BATCH,
	VFLASH_CACHE_KNOB_WAIT_SPIN_NS,
	VFLASH_CACHE_KNOB_WAYS,
	VFLASH_CACHE_KNOB_NR,
};

/**
 * struct vflash_cache_ctl - a device's DRAM cache as the device sees it
 * @id: the device's number N (vflashN), for its dmesg lines
 * @lock: serialises attaching and detaching the cache with the sysfs
 *	calls that reach it (policy switches, knobs, stats); protects
 *	@cache and the writes of @knob, @eviction and @prefetch
 * @cache: the cache a frontend attached, or NULL
 * @io_cache: @cache for block I/O: set and cleared with it under @lock,
 *	read under the layer's SRCU (vflash_cache_ctl_begin())
 * @knob: enum vflash_cache_knob values; READ_ONCE
 * @eviction: the eviction policy in force; READ_ONCE
 * @prefetch: the prefetch policy in force; READ_ONCE
 * @miss_hist: per CPU, the miss latencies (backend_flash/hist.h)
 *
 * Lives as long as the device, cache attached or not.
 */
struct vflash_cache_ctl {
	u32 id;
	struct mutex lock;	/* see the kernel-doc above */
	struct vflash_cache *cache;
	struct vflash_cache __rcu *io_cache;
	u64 knob[VFLASH_CACHE_KNOB_NR];
	const struct vflash_policy *eviction;
	const struct vflash_policy *prefetch;
	u64 __percpu *miss_hist;
};

int vflash_cache_ctl_init(struct vflash_cache_ctl *ctl, u32 id);
void vflash_cache_ctl_exit(struct vflash_cache_ctl *ctl);

int vflash_cache_ctl_attach(struct vflash_cache_ctl *ctl,
			    struct vflash_cache *c);
void vflash_cache_ctl_detach(struct vflash_cache_ctl *ctl);
struct vflash_cache *vflash_cache_ctl_begin(struct vflash_cache_ctl *ctl,
					    int *idx);
void vflash_cache_ctl_end(int idx);

u64 vflash_cache_ctl_knob(const struct vflash_cache_ctl *ctl,
			  enum vflash_cache_knob knob);
int vflash_cache_ctl_set_knob(struct vflash_cache_ctl *ctl,
			      enum vflash_cache_knob knob, u64 val);
const char *vflash_cache_ctl_knob_name(enum vflash_cache_knob knob);

bool vflash_cache_policy_kind(enum vflash_policy_kind kind);
const struct vflash_policy *
vflash_cache_ctl_policy(const struct vflash_cache_ctl *ctl,
			enum vflash_policy_kind kind);
int vflash_cache_ctl_set_policy(struct vflash_cache_ctl *ctl,
				const struct vflash_policy *pol);

/* stats.c */
u64 vflash_cache_ctl_stat(struct vflash_cache_ctl *ctl,
			  enum vflash_cache_stat stat);
u64 vflash_cache_ctl_resident(struct vflash_cache_ctl *ctl);
void vflash_cache_ctl_record_miss(struct vflash_cache_ctl *ctl, u64 ns);
u64 vflash_cache_ctl_miss_latency_pct(struct vflash_cache_ctl *ctl,
				      u32 per_mille);
void vflash_cache_ctl_reset_stats(struct vflash_cache_ctl *ctl);

#endif /* VFLASH_CACHE_CTL_H */
