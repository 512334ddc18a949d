/* SPDX-License-Identifier: GPL-2.0 */
/* Write Uncorrectable's marks (uncor.c). */
#ifndef VFN_UNCOR_H
#define VFN_UNCOR_H

#include <linux/types.h>
#include <linux/xarray.h>

/* Blocks per chunk of marks: one 4 KiB bitmap. */
#define VFN_UNCOR_CHUNK_BLOCKS	(4096 * 8)

/**
 * struct vfn_uncor - the marked blocks of a controller
 * @chunks: chunk index to a bitmap of VFN_UNCOR_CHUNK_BLOCKS bits, present
 *	only while a block of it is marked
 * @nr: blocks marked; 0 lets the I/O path skip every look-up
 * @nr_chunks: chunks allocated
 *
 * Blocks are counted on the device (every namespace has the one LBA
 * format), so one structure serves every namespace. Owned by the NVMe
 * dispatcher: no lock of its own (the xarray's internal lock covers its
 * stores and erases).
 */
struct vfn_uncor {
	struct xarray chunks;
	u64 nr;
	u64 nr_chunks;
};

void vfn_uncor_init(struct vfn_uncor *u);
void vfn_uncor_exit(struct vfn_uncor *u);
int vfn_uncor_mark(struct vfn_uncor *u, u64 first, u64 count);
void vfn_uncor_clear(struct vfn_uncor *u, u64 first, u64 count);
bool vfn_uncor_test(const struct vfn_uncor *u, u64 first, u64 count);
bool vfn_uncor_next(const struct vfn_uncor *u, u64 *pos, u64 *count);

/**
 * vfn_uncor_any() - is a block of [@first, @first + @count) marked?
 * @u: the marks
 * @first: first device block
 * @count: blocks
 *
 * Inline for the read path: with no mark anywhere, one load.
 *
 * Return: true if one is.
 */
static inline bool vfn_uncor_any(const struct vfn_uncor *u, u64 first,
				 u64 count)
{
	return u->nr && vfn_uncor_test(u, first, count);
}

#endif /* VFN_UNCOR_H */
