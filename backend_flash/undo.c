// SPDX-License-Identifier: GPL-2.0
/*
 * When host pages become durable, for the power-loss log (core/powerloss.c).
 * A record waits on its die until its unit's program is charged. Per die,
 * host stream and region only the unit being filled has unprogrammed pages,
 * hence one array of unit[r] pointers each, under the die's lock.
 */
#include <linux/slab.h>

#include "backend_flash/ftl.h"

/* Waiting pointers of one die and placement handle: both regions' units. */
static u32 per_handle(const struct vflash_flash *f)
{
	return f->unit[VFF_SLC] + f->unit[VFF_MAIN];
}

static u32 wait_index(const struct vflash_flash *f, u32 d, u32 s,
		      enum vff_region r, u32 slot)
{
	u32 base = (d * f->nr_ph + vff_stream_handle(s)) * per_handle(f) +
		   (r == VFF_MAIN ? f->unit[VFF_SLC] : 0);

	return base + slot % f->stride % f->unit[r];
}

/**
 * vff_undo_alloc() - the waiting arrays of every die
 * @f: the device, geometry set
 *
 * Return: 0 or -ENOMEM.
 */
int vff_undo_alloc(struct vflash_flash *f)
{
	f->undo_wait = kcalloc((size_t)f->nr_dies * f->nr_ph * per_handle(f),
			       sizeof(*f->undo_wait), GFP_KERNEL);
	return f->undo_wait ? 0 : -ENOMEM;
}

/**
 * vff_undo_attach() - a logged page got a host slot
 * @f: the device
 * @d: the slot's die, locked
 * @slot: the slot, in the die's open block of a host stream
 * @u: the page's log record; its end time becomes U64_MAX
 */
void vff_undo_attach(struct vflash_flash *f, u32 d, u32 slot,
		     struct vflash_undo *u)
{
	u32 b = vff_block_of(f, slot);

	WRITE_ONCE(u->end_ns, U64_MAX);
	f->dies[d].undo_used = true;
	u->die = d;
	u->slot = slot;
	u->wait = wait_index(f, d, f->blocks[b].stream, vff_region_of(f, b),
			     slot);
	f->undo_wait[u->wait] = u;
}

/**
 * __vff_undo_programmed() - vff_undo_programmed() on a die that had records
 * @f: the device
 * @d: the block's die, locked
 * @blk: the block; its write pointer is at the end of the unit
 * @end_ns: when the program ends: the pages' durable time
 */
void __vff_undo_programmed(struct vflash_flash *f, u32 d, u32 blk,
			   u64 end_ns)
{
	enum vff_region r = vff_region_of(f, blk);
	struct vflash_undo **w;
	u32 i;

	/* Only a host stream's units hold logged pages. */
	if (!vff_is_host_stream(f->blocks[blk].stream))
		return;
	w = &f->undo_wait[wait_index(f, d, f->blocks[blk].stream, r,
				     blk * f->stride)];
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
 * After it the log may free its records; those still waiting keep end time
 * U64_MAX.
 */
void vflash_flash_undo_forget(struct vflash_flash *f)
{
	u32 per_die = f->nr_ph * per_handle(f), d;

	for (d = 0; d < f->nr_dies; d++) {
		struct vff_die *die = &f->dies[d];

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
 * After it @u may be freed; a record still waiting is never stamped.
 */
void vflash_flash_undo_detach(struct vflash_flash *f, struct vflash_undo *u)
{
	struct vff_die *die;

	if (u->die >= f->nr_dies)
		return;
	die = &f->dies[u->die];
	spin_lock(&die->lock);
	if (f->undo_wait[u->wait] == u)
		f->undo_wait[u->wait] = NULL;
	spin_unlock(&die->lock);
}

/**
 * vff_undo_waiting() - does a log record wait on an open unit?
 * @f: the device, quiescent
 *
 * Return: true if one does (a power cut armed without power-loss
 * protection, and a unit not yet filled).
 */
bool vff_undo_waiting(const struct vflash_flash *f)
{
	size_t i, n = (size_t)f->nr_dies * f->nr_ph * per_handle(f);

	for (i = 0; i < n; i++)
		if (f->undo_wait[i])
			return true;
	return false;
}
