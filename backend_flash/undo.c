// SPDX-License-Identifier: GPL-2.0
/*
 * When host pages become durable, for the power-loss log (core/powerloss.c):
 * a logged page write hands the backend a struct vflash_undo, which waits
 * on its die, beside the slot it was given, until the program of that
 * slot's unit is charged; the program's end time is then its durable time.
 * Until then (the unit is still filling in the write buffer) it reads
 * U64_MAX: a power cut loses it.
 *
 * Each die has, per region, one array of unit[r] pointers: a die has one
 * open host block per region, and only the unit being filled in it has
 * pages not yet programmed. The arrays are under the die's lock.
 */
#include <linux/slab.h>

#include "backend_flash/ftl.h"

/* The waiting pointer of @slot (a host slot of region @r on die @d). */
static struct vflash_undo **wait_of(struct vflash_flash *f, u32 d,
				    enum vf_region r, u32 slot)
{
	u32 base = d * (f->unit[VF_SLC] + f->unit[VF_MAIN]) +
		   (r == VF_MAIN ? f->unit[VF_SLC] : 0);

	return &f->undo_wait[base + slot % f->stride % f->unit[r]];
}

/**
 * vf_undo_alloc() - the waiting arrays of every die
 * @f: the device, geometry set
 *
 * Return: 0 or -ENOMEM.
 */
int vf_undo_alloc(struct vflash_flash *f)
{
	f->undo_wait = kcalloc((size_t)f->nr_dies *
			       (f->unit[VF_SLC] + f->unit[VF_MAIN]),
			       sizeof(*f->undo_wait), GFP_KERNEL);
	return f->undo_wait ? 0 : -ENOMEM;
}

/**
 * vf_undo_attach() - a logged page got a host slot
 * @f: the device
 * @d: the slot's die, locked
 * @slot: the slot, in the die's open host block
 * @u: the page's log record; its end time becomes U64_MAX
 */
void vf_undo_attach(struct vflash_flash *f, u32 d, u32 slot,
		    struct vflash_undo *u)
{
	enum vf_region r = vf_region_of(f, vf_block_of(f, slot));

	WRITE_ONCE(u->end_ns, U64_MAX);
	f->dies[d].undo_used = true;
	u->die = d;
	u->slot = slot;
	*wait_of(f, d, r, slot) = u;
}

/**
 * __vf_undo_programmed() - vf_undo_programmed() on a die that had records
 * @f: the device
 * @d: the block's die, locked
 * @blk: the block; its write pointer is at the end of the unit
 * @end_ns: when the program ends: the pages' durable time
 */
void __vf_undo_programmed(struct vflash_flash *f, u32 d, u32 blk,
			  u64 end_ns)
{
	enum vf_region r = vf_region_of(f, blk);
	struct vflash_undo **w = wait_of(f, d, r, blk * f->stride);
	u32 i;

	for (i = 0; i < f->unit[r]; i++) {
		if (!w[i])
			continue;
		WRITE_ONCE(w[i]->end_ns, end_ns);
		w[i] = NULL;
	}
}

/**
 * vflash_flash_undo_forget() - drop every reference to log records
 * @f: the device
 *
 * After it the backend holds no struct vflash_undo any more, so the log
 * may free them; records still waiting keep end time U64_MAX.
 */
void vflash_flash_undo_forget(struct vflash_flash *f)
{
	u32 per_die = f->unit[VF_SLC] + f->unit[VF_MAIN], d;

	for (d = 0; d < f->nr_dies; d++) {
		struct vf_die *die = &f->dies[d];

		spin_lock(&die->lock);
		memset(&f->undo_wait[d * per_die], 0,
		       per_die * sizeof(*f->undo_wait));
		spin_unlock(&die->lock);
	}
}

/**
 * vflash_flash_undo_detach() - forget one log record
 * @f: the device
 * @u: a record handed to vflash_flash_submit_undo(), or never handed
 *	(@u->die U32_MAX)
 *
 * After it the backend holds no pointer to @u, which may be freed; a
 * record still waiting for its program is never stamped.
 */
void vflash_flash_undo_detach(struct vflash_flash *f, struct vflash_undo *u)
{
	struct vflash_undo **w;
	struct vf_die *die;

	if (u->die >= f->nr_dies)
		return;
	die = &f->dies[u->die];
	spin_lock(&die->lock);
	w = wait_of(f, u->die, vf_region_of(f, vf_block_of(f, u->slot)),
		    u->slot);
	if (*w == u)
		*w = NULL;
	spin_unlock(&die->lock);
}
