/* SPDX-License-Identifier: GPL-2.0 */
/* The range allocator of the CXL frontend's private regions. */
#ifndef VFLASH_CXL_RANGES_H
#define VFLASH_CXL_RANGES_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "frontend_cxl/vflash_ioctl.h"

#define VFC_GRANULE_PAGES	(VFLASH_REGION_GRANULE / 4096)

/**
 * struct vfc_ranges - which granules of a device are private, and whose
 * @lock: serialises allocations and frees; protects @used, @nr_used,
 *	@hint and the writes of @owner
 * @used: a bit per granule, set while a region holds it
 * @owner: per granule, its owner or NULL; written under @lock, read
 *	locklessly (READ_ONCE) by vfc_ranges_owner()
 * @nr_granules: granules of the device
 * @nr_used: granules held by regions
 * @hint: where the next first-fit search starts
 */
struct vfc_ranges {
	struct mutex lock;	/* see @lock above */
	unsigned long *used;
	void **owner;
	u64 nr_granules;
	u64 nr_used;
	u64 hint;
};

int vfc_ranges_init(struct vfc_ranges *r, u64 nr_pages);
void vfc_ranges_destroy(struct vfc_ranges *r);
int vfc_ranges_alloc(struct vfc_ranges *r, u64 nr, void *owner, u64 *first);
int vfc_ranges_disown(struct vfc_ranges *r, u64 first, u64 nr, void *owner);
void vfc_ranges_release(struct vfc_ranges *r, u64 first, u64 nr);
int vfc_ranges_free(struct vfc_ranges *r, u64 first, u64 nr, void *owner);
void *vfc_ranges_owner(const struct vfc_ranges *r, u64 lpn);
u64 vfc_ranges_nr_free(struct vfc_ranges *r);

#endif /* VFLASH_CXL_RANGES_H */
