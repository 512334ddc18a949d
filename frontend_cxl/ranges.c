// SPDX-License-Identifier: GPL-2.0
/*
 * The range allocator of private regions (docs/design/apps.md): a bit and
 * an owner per granule; owners are read locklessly under RCU.
 */
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "frontend_cxl/ranges.h"

/**
 * vfc_ranges_init() - an allocator of a device's granules, all free
 * @r: the allocator
 * @nr_pages: the device's pages (a tail short of a granule is unused)
 *
 * Return: 0 or -ENOMEM.
 */
int vfc_ranges_init(struct vfc_ranges *r, u64 nr_pages)
{
	mutex_init(&r->lock);
	r->nr_granules = nr_pages / VFC_GRANULE_PAGES;
	r->nr_used = 0;
	r->hint = 0;
	r->used = bitmap_zalloc(max_t(u64, r->nr_granules, 1), GFP_KERNEL);
	r->owner = kvcalloc(max_t(u64, r->nr_granules, 1), sizeof(*r->owner),
			    GFP_KERNEL);
	if (!r->used || !r->owner) {
		vfc_ranges_destroy(r);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vfc_ranges_destroy() - free an allocator's tables
 * @r: the allocator (every region freed, or nobody looks any more)
 */
void vfc_ranges_destroy(struct vfc_ranges *r)
{
	bitmap_free(r->used);
	kvfree(r->owner);
	r->used = NULL;
	r->owner = NULL;
}

/**
 * vfc_ranges_alloc() - hand out consecutive free granules to an owner
 * @r: the allocator
 * @nr: how many, at least one
 * @owner: who owns them (not NULL)
 * @first: the first granule, on success
 *
 * Return: 0, -EINVAL for @nr of 0, or -ENOMEM if no run of @nr is free.
 */
int vfc_ranges_alloc(struct vfc_ranges *r, u64 nr, void *owner, u64 *first)
{
	unsigned long at;
	u64 i;

	if (!nr || !owner)
		return -EINVAL;
	if (nr > r->nr_granules)
		return -ENOMEM;
	mutex_lock(&r->lock);
	at = bitmap_find_next_zero_area(r->used, r->nr_granules, r->hint,
					nr, 0);
	if (at >= r->nr_granules)
		at = bitmap_find_next_zero_area(r->used, r->nr_granules, 0,
						nr, 0);
	if (at >= r->nr_granules) {
		mutex_unlock(&r->lock);
		return -ENOMEM;
	}
	bitmap_set(r->used, at, nr);
	for (i = 0; i < nr; i++)
		WRITE_ONCE(r->owner[at + i], owner);
	r->nr_used += nr;
	r->hint = at + nr < r->nr_granules ? at + nr : 0;
	mutex_unlock(&r->lock);
	*first = at;
	return 0;
}

/**
 * vfc_ranges_disown() - take granules from their owner, still held
 * @r: the allocator
 * @first: the first granule
 * @nr: how many
 * @owner: who must own every one of them
 *
 * They read as unowned but stay used until vfc_ranges_release(), while
 * the caller drops their data.
 *
 * Return: 0, or -EINVAL (nothing changed) if a granule is not @owner's.
 */
int vfc_ranges_disown(struct vfc_ranges *r, u64 first, u64 nr, void *owner)
{
	u64 i;

	if (!nr || first >= r->nr_granules || nr > r->nr_granules - first)
		return -EINVAL;
	mutex_lock(&r->lock);
	for (i = 0; i < nr; i++) {
		if (r->owner[first + i] != owner) {
			mutex_unlock(&r->lock);
			return -EINVAL;
		}
	}
	for (i = 0; i < nr; i++)
		WRITE_ONCE(r->owner[first + i], NULL);
	mutex_unlock(&r->lock);
	return 0;
}

/**
 * vfc_ranges_release() - make disowned granules free
 * @r: the allocator
 * @first: the first granule
 * @nr: how many, all disowned by vfc_ranges_disown()
 */
void vfc_ranges_release(struct vfc_ranges *r, u64 first, u64 nr)
{
	mutex_lock(&r->lock);
	bitmap_clear(r->used, first, nr);
	r->nr_used -= nr;
	mutex_unlock(&r->lock);
}

/**
 * vfc_ranges_free() - give granules back at once
 * @r: the allocator
 * @first: the first granule
 * @nr: how many
 * @owner: who must own every one of them
 *
 * Return: 0, or -EINVAL (nothing freed) as vfc_ranges_disown().
 */
int vfc_ranges_free(struct vfc_ranges *r, u64 first, u64 nr, void *owner)
{
	int ret = vfc_ranges_disown(r, first, nr, owner);

	if (!ret)
		vfc_ranges_release(r, first, nr);
	return ret;
}

/**
 * vfc_ranges_owner() - who owns the granule of a page
 * @r: the allocator
 * @lpn: the page
 *
 * Lockless: the owner stays valid under RCU or a reference.
 *
 * Return: the owner, or NULL for a free granule or a page beyond them.
 */
void *vfc_ranges_owner(const struct vfc_ranges *r, u64 lpn)
{
	u64 g = lpn / VFC_GRANULE_PAGES;

	return g < r->nr_granules ? READ_ONCE(r->owner[g]) : NULL;
}

/**
 * vfc_ranges_nr_free() - free granules
 * @r: the allocator
 *
 * Return: how many, at the time of the call.
 */
u64 vfc_ranges_nr_free(struct vfc_ranges *r)
{
	u64 n;

	mutex_lock(&r->lock);
	n = r->nr_granules - r->nr_used;
	mutex_unlock(&r->lock);
	return n;
}
