// SPDX-License-Identifier: GPL-2.0
/* The mapping: slots from each stream's open block; no timing, no cleaning. */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/minmax.h>

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
 * Only the GC stream may take the region's last VFF_GC_RESERVE free blocks.
 *
 * Return: the slot, or VFF_INVALID if no block is to be had.
 */
u32 vff_alloc_slot(struct vflash_flash *f, struct vff_die *die, u32 d,
		   enum vff_stream stream, enum vff_region r, u64 *now)
{
	return vff_alloc_slot_inline(f, die, d, stream, r, now);
}

/**
 * vff_p2l_group() - the group of logical pages a slot's p2l entry names
 * @f: the device
 * @slot: the slot
 *
 * Return: the group (lpn >> p2l_shift), stale once the slot is displaced.
 */
u32 vff_p2l_group(const struct vflash_flash *f, u32 slot)
{
	const u8 *e = f->p2l + VFF_P2L_BYTES * vff_p2l_index(f, slot);

	return e[0] | e[1] << 8 | (u32)e[2] << 16;
}

/**
 * vff_p2l_owner() - the logical page whose valid copy a slot is
 * @f: the device
 * @slot: the slot; its die locked (so that its p2l entry is not being
 *	rewritten), or the device quiescent
 *
 * l2p may change right after, as after any lookup.
 *
 * Return: the page, or VFF_INVALID if the slot is not valid.
 */
u32 vff_p2l_owner(const struct vflash_flash *f, u32 slot)
{
	u64 lpn = (u64)vff_p2l_group(f, slot) << f->p2l_shift;
	u64 end = min(lpn + (1ULL << f->p2l_shift), f->nr_lpages);

	for (; lpn < end; lpn++)
		if (READ_ONCE(f->l2p[lpn]) == slot)
			return lpn;
	return VFF_INVALID;
}

/**
 * vff_heat_decay() - halve the read heat of the two pages of a heat byte
 * @f: the device
 * @i: the byte's index
 */
void vff_heat_decay(struct vflash_flash *f, u64 i)
{
	u8 *p = &f->heat[i];
	u8 old = READ_ONCE(*p), seen;

	while (old) {
		seen = cmpxchg(p, old, (old >> 1) & 0x77);
		if (seen == old)
			break;
		old = seen;
	}
}
