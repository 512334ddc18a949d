/* SPDX-License-Identifier: GPL-2.0 */
/* The log of writes that a power cut takes back (docs/design/faults.md). */
#ifndef VFLASH_POWERLOSS_H
#define VFLASH_POWERLOSS_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "backend_flash/flash.h"

struct page;
struct vflash_backing;

/**
 * struct vflash_pl_rec - one logged write of one logical page
 * @u: the backend's part: when the page becomes durable
 * @older: the page's previous logged write, or NULL
 * @shadow: the page's contents before the write; NULL if they were all
 *	zeros or the device keeps no data
 * @off: the first byte of the page the write covers
 * @marks: the frontend's state of the page's blocks before the write
 *	(NVMe: the Write Uncorrectable marks it cleared)
 */
struct vflash_pl_rec {
	struct vflash_undo u;
	struct vflash_pl_rec *older;
	struct page *shadow;
	u32 off;
	u8 marks;
};

/**
 * struct vflash_powerloss - a device's power-loss log
 * @lock: protects every field below; a frontend holds it from logging a
 *	write until the backend has its records (vflash_pl_lock()), and the
 *	CXL frontend while it maps a page writable. Lock order: the faults'
 *	lock, then this one; a task's mmap lock, then this one.
 * @pages: logical page -> its newest logged write, linked to older ones
 * @undo: the records of the write being logged, for the backend; valid
 *	from vflash_pl_log() to vflash_pl_unlock()
 * @on: writes are logged (power_cut armed, power-loss protection off)
 * @since_prune: writes logged since records were last pruned
 * @nr_pages: records held
 * @flash: the backend
 * @backing: the device's memory, or NULL (KUnit: records without shadows)
 */
struct vflash_powerloss {
	struct mutex lock;	/* see the kernel-doc above */
	struct xarray pages;
	struct vflash_undo **undo;
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
struct vflash_undo *const *vflash_pl_log(struct vflash_powerloss *pl,
					 u64 lpn, u32 count, u32 first_off);
void vflash_pl_settle(struct vflash_powerloss *pl, u64 lpn, u64 count);
void vflash_pl_keep_marks(struct vflash_powerloss *pl, u32 i, u8 marks);
u64 vflash_pl_cut(struct vflash_powerloss *pl, u64 now_ns,
		  void (*taken)(void *arg, u64 lpn, u32 off, u8 marks),
		  void *arg);

#endif /* VFLASH_POWERLOSS_H */
