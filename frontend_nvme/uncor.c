// SPDX-License-Identifier: GPL-2.0
/*
 * Write Uncorrectable's marks (NVM Command Set 1.0c, 3.3.7): a sparse
 * bitmap of device blocks in an xarray, so a device with no mark costs
 * nothing.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "frontend_nvme/uncor.h"

#define CHUNK_BYTES	(VFN_UNCOR_CHUNK_BLOCKS / 8)

/**
 * vfn_uncor_init() - no block marked
 * @u: the marks
 */
void vfn_uncor_init(struct vfn_uncor *u)
{
	xa_init(&u->chunks);
	u->nr = 0;
	u->nr_chunks = 0;
}

/**
 * vfn_uncor_exit() - forget every mark, free the chunks
 * @u: the marks (vfn_uncor_init() done, or zero filled)
 */
void vfn_uncor_exit(struct vfn_uncor *u)
{
	unsigned long idx;
	void *map;

	/* Zero filled and never used: nothing, and no lock to take. */
	if (!u->nr_chunks)
		return;
	xa_for_each(&u->chunks, idx, map)
		kfree(map);
	xa_destroy(&u->chunks);
	u->nr = 0;
	u->nr_chunks = 0;
}

static u32 weight(const unsigned long *map, u32 s, u32 e)
{
	u32 n = 0;

	for (s = find_next_bit(map, e, s); s < e;
	     s = find_next_bit(map, e, s + 1))
		n++;
	return n;
}

static void drop_if_empty(struct vfn_uncor *u, unsigned long idx,
			  unsigned long *map)
{
	if (find_first_bit(map, VFN_UNCOR_CHUNK_BLOCKS) <
	    VFN_UNCOR_CHUNK_BLOCKS)
		return;
	xa_erase(&u->chunks, idx);
	kfree(map);
	u->nr_chunks--;
}

/*
 * The chunk holding block @pos, and the bits [*@s, *@e) of it that
 * [@pos, @end) covers; the next block to look at is @idx's base + *@e.
 */
static unsigned long span(u64 pos, u64 end, u32 *s, u32 *e)
{
	unsigned long idx = pos / VFN_UNCOR_CHUNK_BLOCKS;
	u64 base = (u64)idx * VFN_UNCOR_CHUNK_BLOCKS;

	*s = pos - base;
	*e = min_t(u64, end - base, VFN_UNCOR_CHUNK_BLOCKS);
	return idx;
}

/*
 * Walk the chunks of [@first, @first + @count): @fn on each present one
 * (with @alloc, each missing one allocated first). Return: -ENOMEM if a
 * chunk could not be had (earlier ones stay, unmarked, for the caller).
 */
static int walk(struct vfn_uncor *u, u64 first, u64 count, bool alloc,
		void (*fn)(struct vfn_uncor *u, unsigned long idx,
			   unsigned long *map, u32 s, u32 e))
{
	u64 pos = first, end = first + count;

	while (pos < end) {
		u32 s, e;
		unsigned long idx = span(pos, end, &s, &e);
		unsigned long *map = xa_load(&u->chunks, idx);

		if (!map && alloc) {
			map = kzalloc(CHUNK_BYTES, GFP_KERNEL);
			if (!map)
				return -ENOMEM;
			if (xa_err(xa_store(&u->chunks, idx, map, GFP_KERNEL))) {
				kfree(map);
				return -ENOMEM;
			}
			u->nr_chunks++;
		}
		if (map && fn)
			fn(u, idx, map, s, e);
		pos = (u64)idx * VFN_UNCOR_CHUNK_BLOCKS + e;
	}
	return 0;
}

static void set_fn(struct vfn_uncor *u, unsigned long idx,
		   unsigned long *map, u32 s, u32 e)
{
	u->nr += (e - s) - weight(map, s, e);
	bitmap_set(map, s, e - s);
}

static void drop_fn(struct vfn_uncor *u, unsigned long idx,
		    unsigned long *map, u32 s, u32 e)
{
	drop_if_empty(u, idx, map);
}

static void clear_fn(struct vfn_uncor *u, unsigned long idx,
		     unsigned long *map, u32 s, u32 e)
{
	u->nr -= weight(map, s, e);
	bitmap_clear(map, s, e - s);
	drop_if_empty(u, idx, map);
}

/**
 * vfn_uncor_mark() - mark blocks uncorrectable
 * @u: the marks
 * @first: first device block
 * @count: blocks
 *
 * All or nothing: every chunk the range needs is allocated before a bit
 * is set.
 *
 * Return: 0, or -ENOMEM with nothing marked.
 */
int vfn_uncor_mark(struct vfn_uncor *u, u64 first, u64 count)
{
	if (walk(u, first, count, true, NULL)) {
		walk(u, first, count, false, drop_fn);
		return -ENOMEM;
	}
	walk(u, first, count, false, set_fn);
	return 0;
}

/**
 * vfn_uncor_clear() - the blocks were written or deallocated
 * @u: the marks
 * @first: first device block
 * @count: blocks
 *
 * A chunk left without a mark is freed.
 */
void vfn_uncor_clear(struct vfn_uncor *u, u64 first, u64 count)
{
	if (u->nr_chunks)
		walk(u, first, count, false, clear_fn);
}

/**
 * vfn_uncor_test() - vfn_uncor_any() without its shortcut
 * @u: the marks
 * @first: first device block
 * @count: blocks
 *
 * Return: true if a block of the range is marked.
 */
bool vfn_uncor_test(const struct vfn_uncor *u, u64 first, u64 count)
{
	u64 pos = first, end = first + count;

	while (pos < end) {
		u32 s, e;
		unsigned long idx = span(pos, end, &s, &e);
		/* xa_load() only reads, under RCU; it takes no const. */
		const unsigned long *map = xa_load((struct xarray *)&u->chunks,
						   idx);

		if (map && find_next_bit(map, e, s) < e)
			return true;
		pos = (u64)idx * VFN_UNCOR_CHUNK_BLOCKS + e;
	}
	return false;
}

/**
 * vfn_uncor_next() - the next run of marked blocks
 * @u: the marks
 * @pos: where to look from; receives the run's first block
 * @count: receives its length (a run ends at a chunk's end at the latest)
 *
 * Return: false if no block at or after @pos is marked.
 */
bool vfn_uncor_next(const struct vfn_uncor *u, u64 *pos, u64 *count)
{
	unsigned long idx = *pos / VFN_UNCOR_CHUNK_BLOCKS, first = idx;
	const unsigned long *map;
	u32 s, e;

	if (!u->nr_chunks)
		return false;
	for (;;) {
		/* xa_find() only reads, under RCU; it takes no const. */
		map = xa_find((struct xarray *)&u->chunks, &idx, ULONG_MAX,
			      XA_PRESENT);
		if (!map)
			return false;
		s = idx == first ? *pos % VFN_UNCOR_CHUNK_BLOCKS : 0;
		s = find_next_bit(map, VFN_UNCOR_CHUNK_BLOCKS, s);
		if (s < VFN_UNCOR_CHUNK_BLOCKS)
			break;
		if (idx == ULONG_MAX)
			return false;
		idx++;
	}
	e = find_next_zero_bit(map, VFN_UNCOR_CHUNK_BLOCKS, s);
	*pos = (u64)idx * VFN_UNCOR_CHUNK_BLOCKS + s;
	*count = e - s;
	return true;
}
