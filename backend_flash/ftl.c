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
 * vff_pad_unit() - pad a block's partly filled unit to its end
 * @f: the device
 * @b: an open block, its die locked
 * @r: its region
 *
 * Return: the slots of padding written (0 if the unit was not started).
 */
u32 vff_pad_unit(struct vflash_flash *f, u32 b, enum vff_region r)
{
	struct vff_block *blk = &f->blocks[b];
	u32 pad = (f->unit[r] - blk->wp % f->unit[r]) % f->unit[r];

	blk->wp += pad;
	return pad;
}

/**
 * vff_alloc_slot() - take the next slot of a stream's open block
 * @f: the device
 * @die: the die, locked
 * @d: its number
 * @stream: the write stream
 * @r: the region
 * @now: the current time, for sealing
 *
 * Opens a free block when needed; only the GC stream may take the die's
 * last VFF_GC_RESERVE free blocks of the region (one more while blocks can
 * go bad: vff_failures_possible()).
 *
 * Return: the slot, or VFF_INVALID if no block is to be had.
 */
u32 vff_alloc_slot(struct vflash_flash *f, struct vff_die *die, u32 d,
		   enum vff_stream stream, enum vff_region r, u64 *now)
{
	return vff_alloc_slot_inline(f, die, d, stream, r, now);
}
