// SPDX-License-Identifier: GPL-2.0
/* Placement policies: which die a flash page of writes goes to. */
#include <linux/kernel.h>

#include "policy/builtin.h"

/* Logical pages that die-affinity keeps together on one die. */
#define AFFINITY_EXTENT_PAGES	64

/* stripe: round robin over all dies, for the most parallelism. */
static u32 stripe_pick(u64 lpn, bool hot, u32 nr_dies, atomic64_t *cursor)
{
	return (u32)(atomic64_inc_return(cursor) % nr_dies);
}

/* die-affinity: each 64-page extent has a home die (the seed study's). */
static u32 affinity_pick(u64 lpn, bool hot, u32 nr_dies, atomic64_t *cursor)
{
	return (u32)((lpn / AFFINITY_EXTENT_PAGES) % nr_dies);
}

/*
 * hot-cold: read-hot pages round robin over the first half of the dies,
 * the rest over the second half, so that hot data neither shares blocks
 * (and GC victims) nor dies with cold data.
 */
static u32 hot_cold_pick(u64 lpn, bool hot, u32 nr_dies, atomic64_t *cursor)
{
	u32 hot_dies = max(nr_dies / 2, 1U);
	u64 n = atomic64_inc_return(cursor);

	if (nr_dies == 1)
		return 0;
	if (hot)
		return (u32)(n % hot_dies);
	return hot_dies + (u32)(n % (nr_dies - hot_dies));
}

static const struct vflash_placement_ops stripe_ops = {
	.pick_die = stripe_pick,
	.round_robin = true,
};

static const struct vflash_placement_ops affinity_ops = {
	.pick_die = affinity_pick,
	.lba_extent = AFFINITY_EXTENT_PAGES,
};

static const struct vflash_placement_ops hot_cold_ops = {
	.pick_die = hot_cold_pick,
};

struct vflash_policy vflash_placement_policies[VFLASH_NR_PLACEMENT_POLICIES] = {
	{ .name = "stripe", .kind = VFLASH_POLICY_PLACEMENT,
	  .ops = &stripe_ops },
	{ .name = "die-affinity", .kind = VFLASH_POLICY_PLACEMENT,
	  .ops = &affinity_ops },
	{ .name = "hot-cold", .kind = VFLASH_POLICY_PLACEMENT,
	  .ops = &hot_cold_ops },
};
