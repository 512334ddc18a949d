// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping: slots handed out from each stream's open block, blocks
 * sealed when full, pages displaced from their old slots. No timing here
 * (timing.c) and no cleaning (gc.c).
 */
#include <linux/atomic.h>
#include <linux/kernel.h>

#include "backend_flash/ftl.h"

/**
 * vf_pad_unit() - pad a block's partly filled unit to its end
 * @f: the device
 * @b: an open block, its die locked
 * @r: its region
 *
 * Return: the slots of padding written (0 if the unit was not started).
 */
u32 vf_pad_unit(struct vflash_flash *f, u32 b, enum vf_region r)
{
	struct vf_block *blk = &f->blocks[b];
	u32 pad = (f->unit[r] - blk->wp % f->unit[r]) % f->unit[r];

	blk->wp += pad;
	return pad;
}

/**
 * vf_alloc_slot() - take the next slot of a stream's open block
 * @f: the device
 * @die: the die, locked
 * @d: its number
 * @stream: the write stream
 * @r: the region
 * @now: the current time, for sealing
 *
 * Opens a free block when needed; only the GC stream may take the die's
 * last VF_GC_RESERVE free blocks of the region (one more while blocks can
 * go bad: vf_failures_possible()).
 *
 * Return: the slot, or VF_INVALID if no block is to be had.
 */
u32 vf_alloc_slot(struct vflash_flash *f, struct vf_die *die, u32 d,
		  enum vf_stream stream, enum vf_region r, u64 *now)
{
	return vf_alloc_slot_inline(f, die, d, stream, r, now);
}
