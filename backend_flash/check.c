// SPDX-License-Identifier: GPL-2.0
/* The FTL's invariant checker, for tests and debugging. */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "backend_flash/ftl.h"

static __printf(3, 4) int broken(char *why, size_t size, const char *fmt,
				 ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, size, fmt, args);
	va_end(args);
	return -EUCLEAN;
}

/**
 * vflash_flash_check() - verify the FTL's invariants
 * @f: the device, quiescent (no request in flight, worker idle)
 * @why: receives a description of the first violation
 * @size: size of @why
 *
 * May sleep (it reschedules on large devices).
 *
 * Return: 0, -EUCLEAN on a violation, -ENOMEM.
 */
int vflash_flash_check(struct vflash_flash *f, char *why, size_t size)
{
	u32 *count, bad = 0;
	u64 lpn;
	u32 b, d, r, n;
	int ret = 0;

	count = kvcalloc(f->nr_blocks, sizeof(*count), GFP_KERNEL);
	if (!count)
		return -ENOMEM;

	for (lpn = 0; lpn < f->nr_lpages && !ret; lpn++) {
		u32 slot = f->l2p[lpn];
		struct vff_block *blk;

		/* A 1 TiB device has 2^28 pages: the CPU is given up now and then. */
		if (!(lpn % (1U << 16)))
			cond_resched();
		if (slot == VFF_INVALID)
			continue;
		b = vff_block_of(f, slot);
		if (b >= f->nr_blocks) {
			ret = broken(why, size, "l2p[%llu] = %u: no such slot",
				     lpn, slot);
			break;
		}
		blk = &f->blocks[b];
		if (slot % f->stride >= blk->wp)
			ret = broken(why, size, "page %llu at slot %u beyond wp %u",
				     lpn, slot, blk->wp);
		else if (vff_p2l_owner(f, slot) != lpn)
			ret = broken(why, size,
				     "l2p[%llu] = %u but p2l's group %u owner %u",
				     lpn, slot, vff_p2l_group(f, slot),
				     vff_p2l_owner(f, slot));
		else if (blk->state != VFF_BLK_OPEN && blk->state != VFF_BLK_FULL &&
			 blk->state != VFF_BLK_BAD)
			ret = broken(why, size, "page %llu in block %u of state %u",
				     lpn, b, blk->state);
		count[b]++;
	}

	for (b = 0; b < f->nr_blocks && !ret; b++) {
		if (atomic_read(&f->blocks[b].valid) != count[b])
			ret = broken(why, size, "block %u: valid %d, mapped %u",
				     b, atomic_read(&f->blocks[b].valid),
				     count[b]);
		bad += f->blocks[b].state == VFF_BLK_BAD;
	}
	if (!ret && bad != vflash_flash_stat(f, VFLASH_STAT_BAD_BLOCKS))
		ret = broken(why, size, "%u bad blocks, %llu counted", bad,
			     vflash_flash_stat(f, VFLASH_STAT_BAD_BLOCKS));

	for (d = 0; d < f->nr_dies && !ret; d++) {
		struct vff_die *die = &f->dies[d];

		for (r = 0; r < VFF_NR_REGIONS && !ret; r++) {
			n = 0;
			for (b = die->free_head[r]; b != VFF_INVALID && !ret;
			     b = f->blocks[b].next) {
				struct vff_block *blk = &f->blocks[b];

				if (vff_die_of_block(f, b) != d ||
				    vff_region_of(f, b) != r)
					ret = broken(why, size,
						     "block %u on die %u region %u's free list",
						     b, d, r);
				else if (blk->state != VFF_BLK_FREE || blk->wp ||
					 count[b])
					ret = broken(why, size,
						     "free block %u: state %u wp %u mapped %u",
						     b, blk->state, blk->wp,
						     count[b]);
				if (++n > f->blocks_per_die)
					ret = broken(why, size,
						     "die %u region %u: free list loops",
						     d, r);
			}
			if (!ret && n != die->nr_free[r])
				ret = broken(why, size,
					     "die %u region %u: %u free listed, nr_free %u",
					     d, r, n, die->nr_free[r]);
		}
	}
	kvfree(count);
	return ret;
}
