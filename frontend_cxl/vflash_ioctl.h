/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The ioctls of /dev/vflash<N> (frontend=cxl): per-open-file private
 * regions (docs/design/apps.md). Included by user space too (the
 * LD_PRELOAD shim, scripts/shim/), so only UAPI types.
 */
#ifndef VFLASH_IOCTL_H
#define VFLASH_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Regions are whole granules of this many bytes (64 KiB). */
#define VFLASH_REGION_GRANULE	65536

/**
 * struct vflash_region - a private region of an open file
 * @offset: its first byte on the device (the mmap offset); set by ALLOC
 * @len: its length in bytes; ALLOC rounds it up to a granule
 */
struct vflash_region {
	__u64 offset;
	__u64 len;
};

/* Allocate a region owned by this open file: zeroed, not resident. */
#define VFLASH_IOC_ALLOC	_IOWR('v', 1, struct vflash_region)
/* Free a whole region (its data is zeroed, its cache pages dropped). */
#define VFLASH_IOC_FREE		_IOW('v', 2, struct vflash_region)
/* Zero a part of a region and drop its cache pages unwritten. */
#define VFLASH_IOC_ZERO		_IOW('v', 3, struct vflash_region)

#endif /* VFLASH_IOCTL_H */
