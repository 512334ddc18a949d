/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Power loss: the log of writes that a power cut takes back
 * (core/powerloss.c, docs/faults.md).
 */
#ifndef VFLASH_POWERLOSS_H
#define VFLASH_POWERLOSS_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "backend_flash/flash.h"

struct page;
struct vflash_backing;

/**
 * struct vflash_pl_page - one logged page
 * @u: the backend's part: when the page becomes durable
 * @lpn: the logical page
 * @shadow: its contents before the write, or NULL without backing memory
 */
struct vflash_pl_page {
	struct vflash_undo u;
	u64 lpn;
	struct page *shadow;
};

/**
 * struct vflash_pl_entry - one logged write command
 * @node: in vflash_powerloss.entries, oldest first
 * @count: its pages
 * @undo: @count pointers to the @page[].u, for the backend
 * @page: the pages
 */
struct vflash_pl_entry {
	struct list_head node;
	u32 count;
	struct vflash_undo **undo;
	struct vflash_pl_page page[];
};

/**
 * struct vflash_powerloss - a device's power-loss log
 * @lock: protects every field below; a frontend holds it from logging a
 *	write until the backend has its records (vflash_pl_lock()). Lock
 *	order: the faults' lock, then this one.
 * @entries: logged writes not yet known durable, oldest first
 * @on: writes are logged (power_cut armed, power-loss protection off)
 * @since_prune: writes logged since durable entries were last freed
 * @nr_pages: shadow pages held, for the prune's trigger
 * @flash: the backend
 * @backing: the device's memory, or NULL (KUnit: records without shadows)
 */
struct vflash_powerloss {
	struct mutex lock;	/* see the kernel-doc above */
	struct list_head entries;
	bool on;
	u32 since_prune;
	u64 nr_pages;
	struct vflash_flash *flash;
	struct vflash_backing *backing;
};

void vflash_pl_init(struct vflash_powerloss *pl, struct vflash_flash *flash,
		    struct vflash_backing *backing);
void vflash_pl_start(struct vflash_powerloss *pl);
void vflash_pl_stop(struct vflash_powerloss *pl);
bool vflash_pl_lock(struct vflash_powerloss *pl);
void vflash_pl_unlock(struct vflash_powerloss *pl);
struct vflash_pl_entry *vflash_pl_log(struct vflash_powerloss *pl, u64 lpn,
				      u32 count);
u64 vflash_pl_cut(struct vflash_powerloss *pl, u64 now_ns);

#endif /* VFLASH_POWERLOSS_H */
