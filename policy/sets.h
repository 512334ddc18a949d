/* SPDX-License-Identifier: GPL-2.0 */
/* Sets of a set-associative device DRAM cache (docs/design/cxl.md). */
#ifndef VFLASH_POLICY_SETS_H
#define VFLASH_POLICY_SETS_H

#include <linux/math64.h>
#include <linux/types.h>

/* The largest number of ways a set-associative cache may have. */
#define VFLASH_CACHE_MAX_WAYS	16

/**
 * vflash_set_nr() - the number of sets of a cache
 * @nr_slots: its slots, at least 1
 * @ways: its ways, 0 for fully associative
 *
 * Return: max(@nr_slots / @ways, 1), or 1 when @ways is 0.
 */
static inline u32 vflash_set_nr(u32 nr_slots, u32 ways)
{
	return ways && nr_slots >= ways ? nr_slots / ways : 1;
}

/**
 * vflash_set_of() - the set of a logical page
 * @lpn: the page
 * @nr_sets: sets of the cache, at least 1
 *
 * Return: @lpn mod @nr_sets.
 */
static inline u32 vflash_set_of(u64 lpn, u32 nr_sets)
{
	u32 rem;

	if (nr_sets == 1)
		return 0;
	div_u64_rem(lpn, nr_sets, &rem);
	return rem;
}

/**
 * vflash_set_capacity() - the pages a set holds
 * @nr_slots: slots of the cache
 * @nr_sets: its sets, at least 1 and at most @nr_slots
 * @set: the set, below @nr_sets
 *
 * Return: @nr_slots / @nr_sets, one more for the first @nr_slots mod
 * @nr_sets sets: the capacities add up to @nr_slots.
 */
static inline u32 vflash_set_capacity(u32 nr_slots, u32 nr_sets, u32 set)
{
	return nr_slots / nr_sets + (set < nr_slots % nr_sets);
}

#endif /* VFLASH_POLICY_SETS_H */
