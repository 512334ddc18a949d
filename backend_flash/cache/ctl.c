// SPDX-License-Identifier: GPL-2.0
/* A device's side of its DRAM cache: attach, detach, knobs, policies. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/srcu.h>
#include <linux/time64.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/flash.h"
#include "backend_flash/hist.h"
#include "policy/sets.h"

static const struct vflash_knob_range knobs[VFLASH_CACHE_KNOB_NR] = {
	[VFLASH_CACHE_KNOB_FREE_LOW_PCT] = { "cache_free_low_pct", 0, 50 },
	[VFLASH_CACHE_KNOB_FREE_HIGH_PCT] = { "cache_free_high_pct", 0, 50 },
	[VFLASH_CACHE_KNOB_PREFETCH_DEGREE] = { "prefetch_degree", 1,
						VFLASH_PREFETCH_MAX },
	[VFLASH_CACHE_KNOB_SAMPLE_PERIOD_MS] = { "sample_period_ms", 1, 10000 },
	[VFLASH_CACHE_KNOB_SAMPLE_BATCH] = { "sample_batch", 1,
					     VFLASH_CACHE_MAX_SLOTS },
	[VFLASH_CACHE_KNOB_WAIT_SPIN_NS] = { "wait_spin_ns", 0, NSEC_PER_SEC },
	[VFLASH_CACHE_KNOB_WAYS] = { "cache_ways", 0, VFLASH_CACHE_MAX_WAYS },
};

/**
 * vflash_cache_ctl_knob_name() - the config/ file name of a cache knob
 * @knob: the knob
 *
 * Return: its name, or NULL for an invalid knob.
 */
const char *vflash_cache_ctl_knob_name(enum vflash_cache_knob knob)
{
	return knob < VFLASH_CACHE_KNOB_NR ? knobs[knob].name : NULL;
}

/**
 * vflash_cache_ctl_knob() - a cache knob's current value
 * @ctl: the device's cache control
 * @knob: the knob, below VFLASH_CACHE_KNOB_NR
 *
 * Return: the value.
 */
u64 vflash_cache_ctl_knob(const struct vflash_cache_ctl *ctl,
			  enum vflash_cache_knob knob)
{
	return READ_ONCE(ctl->knob[knob]);
}

static u32 cache_watermark(u32 nr_slots, u64 pct)
{
	return max_t(u32, div_u64((u64)nr_slots * pct, 100), 4);
}

/* @c may be NULL. */
static int apply_knob(struct vflash_cache_ctl *ctl, struct vflash_cache *c,
		      enum vflash_cache_knob knob, u64 val)
{
	u64 low = ctl->knob[VFLASH_CACHE_KNOB_FREE_LOW_PCT];
	u64 high = ctl->knob[VFLASH_CACHE_KNOB_FREE_HIGH_PCT];
	u32 n;

	switch (knob) {
	case VFLASH_CACHE_KNOB_FREE_LOW_PCT:
		low = val;
		break;
	case VFLASH_CACHE_KNOB_FREE_HIGH_PCT:
		high = val;
		break;
	case VFLASH_CACHE_KNOB_PREFETCH_DEGREE:
		if (c)
			vflash_cache_set_prefetch_degree(c, val);
		return 0;
	case VFLASH_CACHE_KNOB_WAYS:
		return c ? vflash_cache_set_ways(c, val) : 0;
	default:
		return 0;
	}
	if (low > high)
		return -EINVAL;
	if (!c)
		return 0;
	n = vflash_cache_nr_slots(c);
	return vflash_cache_set_watermarks(c, cache_watermark(n, low),
					   cache_watermark(n, high));
}

/**
 * vflash_cache_ctl_set_knob() - change a cache knob at run time
 * @ctl: the device's cache control
 * @knob: the knob
 * @val: its new value
 *
 * Reaches the attached cache at once, and a cache attached later.
 *
 * Return: 0, or -EINVAL (nothing changed) if @val is out of range or the
 * watermarks would not fit.
 */
int vflash_cache_ctl_set_knob(struct vflash_cache_ctl *ctl,
			      enum vflash_cache_knob knob, u64 val)
{
	int ret;

	if (knob >= VFLASH_CACHE_KNOB_NR ||
	    !vflash_knob_in_range(&knobs[knob], ctl->id, val))
		return -EINVAL;
	if (knob == VFLASH_CACHE_KNOB_WAYS && val && !is_power_of_2(val)) {
		pr_err("vflash%u: config/%s=%llu: not 0, 1, 2, 4, 8 or 16\n",
		       ctl->id, knobs[knob].name, val);
		return -EINVAL;
	}
	mutex_lock(&ctl->lock);
	ret = apply_knob(ctl, ctl->cache, knob, val);
	if (!ret)
		WRITE_ONCE(ctl->knob[knob], val);
	mutex_unlock(&ctl->lock);
	return ret;
}

/**
 * vflash_cache_policy_kind() - is a policy kind the cache's?
 * @kind: the kind
 *
 * Return: true for eviction and prefetch; false for the flash model's.
 */
bool vflash_cache_policy_kind(enum vflash_policy_kind kind)
{
	return kind == VFLASH_POLICY_EVICTION || kind == VFLASH_POLICY_PREFETCH;
}

/**
 * vflash_cache_ctl_policy() - a device's current cache policy of a kind
 * @ctl: the device's cache control
 * @kind: eviction or prefetch
 *
 * Return: the policy, or NULL for another kind.
 */
const struct vflash_policy *
vflash_cache_ctl_policy(const struct vflash_cache_ctl *ctl,
			enum vflash_policy_kind kind)
{
	switch (kind) {
	case VFLASH_POLICY_EVICTION:
		return READ_ONCE(ctl->eviction);
	case VFLASH_POLICY_PREFETCH:
		return READ_ONCE(ctl->prefetch);
	default:
		return NULL;
	}
}

/**
 * vflash_cache_ctl_set_policy() - switch a device's eviction or prefetch
 *	policy
 * @ctl: the device's cache control
 * @pol: a registered eviction or prefetch policy
 *
 * Safe under load; without a cache, recorded for one attached later.
 *
 * Return: 0, -EINVAL for a policy of another kind, or the cache's error
 * (-ENOMEM) with nothing changed.
 */
int vflash_cache_ctl_set_policy(struct vflash_cache_ctl *ctl,
				const struct vflash_policy *pol)
{
	bool ev;
	int ret = 0;

	if (!pol || !vflash_cache_policy_kind(pol->kind))
		return -EINVAL;
	ev = pol->kind == VFLASH_POLICY_EVICTION;
	mutex_lock(&ctl->lock);
	if (ctl->cache)
		ret = ev ? vflash_cache_set_eviction(ctl->cache, pol) :
			   vflash_cache_set_prefetch(ctl->cache, pol);
	if (!ret && ev)
		WRITE_ONCE(ctl->eviction, pol);
	if (!ret && !ev)
		WRITE_ONCE(ctl->prefetch, pol);
	mutex_unlock(&ctl->lock);
	return ret;
}

/*
 * Keeps a device's cache alive for block I/O between
 * vflash_cache_ctl_begin() and vflash_cache_ctl_end(): SRCU, since the
 * block path may sleep there, and no lock per command.
 */
DEFINE_STATIC_SRCU(vflash_cache_srcu);

/**
 * vflash_cache_ctl_begin() - the device's DRAM cache, for block I/O
 * @ctl: the device's cache control
 * @idx: receives what vflash_cache_ctl_end() takes
 *
 * The cache stays alive until vflash_cache_ctl_end(), which must always
 * follow, cache or not; the caller may sleep between.
 *
 * Return: the cache, or NULL if the device has none.
 */
struct vflash_cache *vflash_cache_ctl_begin(struct vflash_cache_ctl *ctl,
					    int *idx)
	__acquires(&vflash_cache_srcu)
{
	*idx = srcu_read_lock(&vflash_cache_srcu);
	return srcu_dereference(ctl->io_cache, &vflash_cache_srcu);
}

/**
 * vflash_cache_ctl_end() - end what vflash_cache_ctl_begin() began
 * @idx: what it stored
 */
void vflash_cache_ctl_end(int idx)
	__releases(&vflash_cache_srcu)
{
	srcu_read_unlock(&vflash_cache_srcu, idx);
}

/**
 * vflash_cache_ctl_attach() - give the device its DRAM cache
 * @ctl: the device's cache control, without a cache
 * @c: a cache of the device; the caller keeps owning it
 *
 * The cache takes on the device's cache policies and knobs.
 *
 * Return: 0, -EBUSY if the device has a cache, -ENOMEM or -EINVAL
 * (watermarks that do not fit the cache) with nothing changed.
 */
int vflash_cache_ctl_attach(struct vflash_cache_ctl *ctl,
			    struct vflash_cache *c)
{
	int ret;

	mutex_lock(&ctl->lock);
	ret = ctl->cache ? -EBUSY : 0;
	if (!ret)
		ret = vflash_cache_set_eviction(c, ctl->eviction);
	if (!ret)
		ret = vflash_cache_set_prefetch(c, ctl->prefetch);
	if (!ret)
		ret = apply_knob(ctl, c, VFLASH_CACHE_KNOB_PREFETCH_DEGREE,
				 ctl->knob[VFLASH_CACHE_KNOB_PREFETCH_DEGREE]);
	if (!ret)
		ret = apply_knob(ctl, c, VFLASH_CACHE_KNOB_FREE_LOW_PCT,
				 ctl->knob[VFLASH_CACHE_KNOB_FREE_LOW_PCT]);
	if (!ret)
		ret = apply_knob(ctl, c, VFLASH_CACHE_KNOB_WAYS,
				 ctl->knob[VFLASH_CACHE_KNOB_WAYS]);
	if (!ret) {
		ctl->cache = c;
		rcu_assign_pointer(ctl->io_cache, c);
	}
	mutex_unlock(&ctl->lock);
	return ret;
}

/**
 * vflash_cache_ctl_detach() - undo vflash_cache_ctl_attach()
 * @ctl: the device's cache control
 *
 * Once this returns, no sysfs call and no block I/O reaches the cache.
 */
void vflash_cache_ctl_detach(struct vflash_cache_ctl *ctl)
{
	mutex_lock(&ctl->lock);
	ctl->cache = NULL;
	RCU_INIT_POINTER(ctl->io_cache, NULL);
	mutex_unlock(&ctl->lock);
	synchronize_srcu(&vflash_cache_srcu);
}

/**
 * vflash_cache_ctl_init() - a device's cache control, without a cache
 * @ctl: to set up
 * @id: the device's number N (vflashN)
 *
 * Return: 0, -EINVAL if a cache kind has no policy, or -ENOMEM.
 */
int vflash_cache_ctl_init(struct vflash_cache_ctl *ctl, u32 id)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->id = id;
	mutex_init(&ctl->lock);
	ctl->eviction = vflash_policy_default(VFLASH_POLICY_EVICTION);
	ctl->prefetch = vflash_policy_default(VFLASH_POLICY_PREFETCH);
	if (!ctl->eviction || !ctl->prefetch)
		return -EINVAL;
	ctl->knob[VFLASH_CACHE_KNOB_FREE_LOW_PCT] = 1;
	ctl->knob[VFLASH_CACHE_KNOB_FREE_HIGH_PCT] = 3;
	ctl->knob[VFLASH_CACHE_KNOB_PREFETCH_DEGREE] = 4;
	ctl->knob[VFLASH_CACHE_KNOB_SAMPLE_PERIOD_MS] = 20;
	ctl->knob[VFLASH_CACHE_KNOB_SAMPLE_BATCH] = 4096;
	ctl->knob[VFLASH_CACHE_KNOB_WAIT_SPIN_NS] = 20 * NSEC_PER_USEC;
	ctl->miss_hist = __alloc_percpu(VFF_HIST_BUCKETS * sizeof(u64),
					__alignof__(u64));
	return ctl->miss_hist ? 0 : -ENOMEM;
}

/**
 * vflash_cache_ctl_exit() - free what vflash_cache_ctl_init() set up
 * @ctl: the control, with no cache attached (or one whose init failed)
 */
void vflash_cache_ctl_exit(struct vflash_cache_ctl *ctl)
{
	WARN_ON(ctl->cache);
	free_percpu(ctl->miss_hist);
	ctl->miss_hist = NULL;
}
