// SPDX-License-Identifier: GPL-2.0
/*
 * Backing memory: either a physical range reserved at boot with memmap=,
 * which vflash checks and claims, or memory that vflash allocates itself in
 * chunks. Either way it is zeroed before any frontend can expose it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "core/vflash.h"

/* Zero the memmap range this much at a time, rescheduling in between. */
#define ZERO_STEP_BYTES	(2UL << 20)

/* The chunk that holds page @pgoff, and the page's index inside it. */
static inline const struct vflash_chunk *
chunk_of(const struct vflash_backing *b, pgoff_t pgoff, unsigned long *idx)
{
	*idx = pgoff & (VFLASH_CHUNK_PAGES - 1);
	return &b->chunks[pgoff >> VFLASH_CHUNK_ORDER];
}

/**
 * vflash_backing_page() - the page holding one logical page's data
 * @b: backing memory of allocated (not memmap) kind
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 *
 * Return: the page.
 */
struct page *vflash_backing_page(const struct vflash_backing *b,
				 pgoff_t pgoff)
{
	unsigned long idx;
	const struct vflash_chunk *c = chunk_of(b, pgoff, &idx);

	return c->block ? c->block + idx : c->pages[idx];
}

/**
 * vflash_backing_pfn() - the page frame holding one logical page's data
 * @b: backing memory
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 *
 * Return: the page frame number.
 */
unsigned long vflash_backing_pfn(const struct vflash_backing *b,
				 pgoff_t pgoff)
{
	if (b->res)
		return PHYS_PFN(b->res->start) + pgoff;
	return page_to_pfn(vflash_backing_page(b, pgoff));
}

/**
 * vflash_backing_kaddr() - a kernel address of one logical page's data
 * @b: backing memory
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 *
 * Return: a write-back mapped address valid until the device is destroyed.
 */
void *vflash_backing_kaddr(const struct vflash_backing *b, pgoff_t pgoff)
{
	if (b->res)
		return b->kaddr + ((size_t)pgoff << PAGE_SHIFT);
	return page_address(vflash_backing_page(b, pgoff));
}

/* Sums the bytes of [start, end] that a walked resource covers. */
static int add_coverage(struct resource *res, void *arg)
{
	u64 *covered = arg;

	*covered += resource_size(res);
	return 0;
}

static int claim_memmap(struct vflash_backing *b, phys_addr_t start,
			u64 size)
{
	phys_addr_t end = start + size - 1;
	u64 covered = 0;
	size_t off;

	if (region_intersects(start, size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("memmap_start=%pa: range of %llu bytes overlaps System RAM; reserve it at boot with memmap=SIZE$START\n",
		       &start, size);
		return -EINVAL;
	}

	/*
	 * memmap=SIZE$START makes a "reserved" range; memmap=SIZE!START a
	 * legacy persistent-memory one. The walk clips each match to
	 * [start, end] and skips nested resources, so the sum is the part of
	 * the range that boot-reserved memory covers.
	 */
	walk_iomem_res_desc(IORES_DESC_RESERVED, IORESOURCE_MEM, start, end,
			    &covered, add_coverage);
	walk_iomem_res_desc(IORES_DESC_PERSISTENT_MEMORY_LEGACY,
			    IORESOURCE_MEM, start, end, &covered,
			    add_coverage);
	if (covered != size) {
		pr_err("memmap_start=%pa: range of %llu bytes is not (entirely) memory reserved with memmap=\n",
		       &start, size);
		return -EINVAL;
	}

	b->res = request_mem_region(start, size, VFLASH_NAME);
	if (!b->res) {
		pr_err("memmap_start=%pa: range of %llu bytes is already claimed by another driver (see /proc/iomem)\n",
		       &start, size);
		return -EINVAL;
	}

	b->kaddr = memremap(start, size, MEMREMAP_WB);
	if (!b->kaddr) {
		pr_err("memmap_start=%pa: cannot map %llu bytes write-back\n",
		       &start, size);
		release_mem_region(start, size);
		b->res = NULL;
		return -ENOMEM;
	}

	for (off = 0; off < size; off += ZERO_STEP_BYTES) {
		memset(b->kaddr + off, 0, min_t(u64, size - off,
						ZERO_STEP_BYTES));
		cond_resched();
	}
	b->size_bytes = size;
	return 0;
}

static void free_chunk(struct vflash_chunk *c)
{
	unsigned long i;

	if (c->block) {
		__free_pages(c->block, VFLASH_CHUNK_ORDER);
		return;
	}
	for (i = 0; i < VFLASH_CHUNK_PAGES && c->pages[i]; i++)
		__free_page(c->pages[i]);
	kvfree(c->pages);
}

/* Fills @c with @nr_pages zeroed pages, contiguous if possible. */
static int alloc_chunk(struct vflash_chunk *c, unsigned long nr_pages)
{
	unsigned long i;

	if (nr_pages == VFLASH_CHUNK_PAGES) {
		c->block = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
				       __GFP_NORETRY, VFLASH_CHUNK_ORDER);
		if (c->block)
			return 0;
	}

	/* Zeroed, so that free_chunk() stops at the first missing page. */
	c->pages = kvcalloc(VFLASH_CHUNK_PAGES, sizeof(*c->pages),
			    GFP_KERNEL | __GFP_NOWARN);
	if (!c->pages)
		return -ENOMEM;
	for (i = 0; i < nr_pages; i++) {
		c->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO |
					 __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
		if (!c->pages[i]) {
			free_chunk(c);
			return -ENOMEM;
		}
	}
	return 0;
}

static void free_allocated(struct vflash_backing *b)
{
	while (b->nr_chunks)
		free_chunk(&b->chunks[--b->nr_chunks]);
	kvfree(b->chunks);
	b->chunks = NULL;
}

static int alloc_backing(struct vflash_backing *b, u64 size)
{
	unsigned long pages = size >> PAGE_SHIFT;
	unsigned long nr = DIV_ROUND_UP(pages, VFLASH_CHUNK_PAGES);
	long avail = si_mem_available();
	int ret = 0;

	if (avail < 0 || pages > (unsigned long)avail) {
		pr_err("size: %llu MiB exceeds the memory available for it (%lu MiB)\n",
		       size >> 20, avail > 0 ? (unsigned long)avail >>
		       (20 - PAGE_SHIFT) : 0);
		return -ENOMEM;
	}

	b->chunks = kvcalloc(nr, sizeof(*b->chunks), GFP_KERNEL | __GFP_NOWARN);
	if (!b->chunks) {
		pr_err("size=%llu: no memory for the chunk table\n", size);
		return -ENOMEM;
	}

	while (b->nr_chunks < nr) {
		unsigned long first = b->nr_chunks * VFLASH_CHUNK_PAGES;

		if (fatal_signal_pending(current)) {
			pr_err("size=%llu: interrupted while allocating\n",
			       size);
			ret = -EINTR;
			break;
		}
		ret = alloc_chunk(&b->chunks[b->nr_chunks],
				  min(pages - first, VFLASH_CHUNK_PAGES));
		if (ret) {
			pr_err("size=%llu: out of memory after %lu MiB\n",
			       size, first >> (20 - PAGE_SHIFT));
			break;
		}
		b->nr_chunks++;
		cond_resched();
	}
	if (ret) {
		free_allocated(b);
		return ret;
	}
	b->size_bytes = size;
	return 0;
}

/**
 * vflash_backing_init() - set up a device's backing memory
 * @b: zero-initialised backing to fill in
 * @cfg: the validated configuration
 *
 * Claims the memmap range of @cfg, or allocates @cfg->size_bytes. Either
 * way every byte is zero on return.
 *
 * Return: 0; or -EINVAL, -ENOMEM or -EINTR after printing one line that
 * names the parameter at fault, with nothing claimed or allocated.
 */
int vflash_backing_init(struct vflash_backing *b,
			const struct vflash_config *cfg)
{
	if (cfg->use_memmap)
		return claim_memmap(b, cfg->memmap_start, cfg->size_bytes);
	return alloc_backing(b, cfg->size_bytes);
}

/**
 * vflash_backing_exit() - release what vflash_backing_init() set up
 * @b: the backing; no frontend may use it any more
 */
void vflash_backing_exit(struct vflash_backing *b)
{
	if (b->res) {
		memunmap(b->kaddr);
		release_mem_region(b->res->start, resource_size(b->res));
		b->res = NULL;
	} else {
		free_allocated(b);
	}
	b->size_bytes = 0;
}
