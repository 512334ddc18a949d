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
 * vf_invalidate() - a slot's page has been displaced
 * @f: the device
 * @slot: the slot whose logical page now lives elsewhere (or nowhere)
 *
 * Called by whoever displaced it from l2p, without the slot's die lock,
 * with preemption disabled: GC waits for a victim's count to reach zero.
 * The slot's p2l entry stays as it is: no page of its group maps to the
 * slot any more, which is what makes it invalid (vf_p2l_owner()).
 */
void vf_invalidate(struct vflash_flash *f, u32 slot)
{
	atomic_dec(&f->blocks[vf_block_of(f, slot)].valid);
}

/**
 * vf_seal_if_full() - a stream's open block that filled up becomes a GC
 *	candidate
 * @f: the device
 * @die: the block's die, locked
 * @b: the block
 * @stream: the stream it is open for
 * @r: its region
 * @now: the current time, its seal time
 */
void vf_seal_if_full(struct vflash_flash *f, struct vf_die *die, u32 b,
		     enum vf_stream stream, enum vf_region r, u64 now)
{
	struct vf_block *blk = &f->blocks[b];

	if (blk->wp < f->slots[r])
		return;
	blk->state = VF_BLK_FULL;
	blk->seal_seq = atomic64_inc_return(&f->seal_seq);
	blk->seal_ns = now;
	die->open[stream][r] = VF_INVALID;
}

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
	u32 b = die->open[stream][r];
	struct vf_block *blk;
	u32 slot;

	if (b == VF_INVALID) {
		u32 reserve = stream == VF_GC ? 0 : VF_GC_RESERVE +
					vf_failures_possible(f);

		if (die->nr_free[r] <= reserve)
			return VF_INVALID;
		b = die->free_head[r];
		blk = &f->blocks[b];
		die->free_head[r] = blk->next;
		die->nr_free[r]--;
		blk->next = VF_INVALID;
		blk->state = VF_BLK_OPEN;
		blk->stream = stream;
		blk->wp = 0;
		die->open[stream][r] = b;
	}
	blk = &f->blocks[b];
	slot = b * f->stride + blk->wp++;
	vf_seal_if_full(f, die, b, stream, r, *now);
	return slot;
}
