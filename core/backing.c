// SPDX-License-Identifier: GPL-2.0
/*
 * The store: a device's data (store=). full: a memmap= range, or chunks
 * allocated at load; sparse: pages allocated on first write, freed when
 * trimmed whole; none: writes dropped, reads zero. Every byte reads as
 * zero before a frontend exposes it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmstat.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"

/* Zero the memmap range this much at a time, rescheduling in between. */
#define ZERO_STEP_BYTES	(2UL << 20)

/* store=sparse leaves 1/2^RESERVE_RAM_SHIFT of RAM to the rest of the system. */
#define RESERVE_RAM_SHIFT	5

#define CHUNK_ARRAY_BYTES	(VFLASH_CHUNK_PAGES * sizeof(struct page *))

/* The chunk that holds page @pgoff, and the page's index inside it. */
static inline struct vflash_chunk *chunk_of(const struct vflash_backing *b,
					    pgoff_t pgoff, unsigned long *idx)
{
	*idx = pgoff & (VFLASH_CHUNK_PAGES - 1);
	return &b->chunks[pgoff >> VFLASH_CHUNK_ORDER];
}

/* The page holding @pgoff's data, or NULL (sparse: no memory yet). */
static struct page *page_of(const struct vflash_backing *b, pgoff_t pgoff)
{
	unsigned long idx;
	struct vflash_chunk *c = chunk_of(b, pgoff, &idx);
	struct page **pages;

	if (c->block)
		return c->block + idx;
	/* Acquire: pairs with the cmpxchg_release()es that publish both. */
	pages = smp_load_acquire(&c->pages);
	/* Acquire: as above, the page's zeroes before its pointer. */
	return pages ? smp_load_acquire(&pages[idx]) : NULL;
}

static void *zero_kaddr(void)
{
	return page_address(ZERO_PAGE(0));
}

/**
 * vflash_store_read_page() - where to read one logical page's data from
 * @b: the store
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 *
 * Return: a kernel address of the page's data, or of the shared zero page
 * if the page holds none (sparse: never written or trimmed; none). Valid
 * until the page is next trimmed or the device is destroyed; never write
 * through it.
 */
const void *vflash_store_read_page(const struct vflash_backing *b,
				   pgoff_t pgoff)
{
	struct page *page;

	if (b->res)
		return b->kaddr + ((size_t)pgoff << PAGE_SHIFT);
	if (b->mode == VFLASH_STORE_NONE)
		return zero_kaddr();
	page = page_of(b, pgoff);
	return page ? page_address(page) : zero_kaddr();
}

/* Whether store=sparse may take one more page without eating the reserve. */
static bool sparse_room(const struct vflash_backing *b)
{
	unsigned long reserve = READ_ONCE(b->reserve_pages);

	/* Cheap check first; the available figure only when memory is low. */
	if (global_zone_page_state(NR_FREE_PAGES) > 2 * reserve)
		return true;
	return si_mem_available() > (long)reserve;
}

/* store=sparse: the page array of @c, allocated if it has none yet. */
static struct page **sparse_array(struct vflash_backing *b,
				  struct vflash_chunk *c, gfp_t gfp)
{
	/* Acquire: pairs with the cmpxchg_release() below. */
	struct page **pages = smp_load_acquire(&c->pages);
	struct page **old;

	if (pages)
		return pages;
	pages = kvcalloc(VFLASH_CHUNK_PAGES, sizeof(*pages),
			 gfp | __GFP_NOWARN);
	if (!pages)
		return NULL;
	/* Release: the zeroed array before the pointer to it. */
	old = cmpxchg_release(&c->pages, NULL, pages);
	if (old) {
		kvfree(pages);
		/* A failed cmpxchg orders nothing: pairs with the winner's. */
		smp_rmb();
		return old;
	}
	atomic_long_add(CHUNK_ARRAY_BYTES, &b->bytes);
	return pages;
}

/* store=sparse: the page of @pgoff, allocated (zeroed) if it has none. */
static struct page *sparse_page(struct vflash_backing *b, pgoff_t pgoff,
				gfp_t gfp)
{
	unsigned long idx;
	struct vflash_chunk *c = chunk_of(b, pgoff, &idx);
	struct page **pages, *page, *old;

	page = page_of(b, pgoff);
	if (page)
		return page;
	if (!sparse_room(b))
		return NULL;
	pages = sparse_array(b, c, gfp);
	if (!pages)
		return NULL;
	page = alloc_page(gfp | __GFP_ZERO | __GFP_NOWARN);
	if (!page)
		return NULL;
	/* Release: the zeroed page before the pointer to it. */
	old = cmpxchg_release(&pages[idx], NULL, page);
	if (old) {
		__free_page(page);
		/* A failed cmpxchg orders nothing: pairs with the winner's. */
		smp_rmb();
		return old;
	}
	atomic_long_add(PAGE_SIZE, &b->bytes);
	return page;
}

/**
 * vflash_store_write_page() - where to write one logical page's data to
 * @b: the store
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 * @gfp: how to allocate a page that has no memory yet (store=sparse)
 *
 * With store=sparse the allocation fails, rather than invoke the OOM
 * killer, when it would eat into the 1/32 of RAM left to the system.
 *
 * Return: a kernel address of the page's data; NULL with store=none (drop
 * the data); ERR_PTR(-ENOMEM) if no memory was to be had.
 */
void *vflash_store_write_page(struct vflash_backing *b, pgoff_t pgoff,
			      gfp_t gfp)
{
	struct page *page;

	if (b->res)
		return b->kaddr + ((size_t)pgoff << PAGE_SHIFT);
	switch (b->mode) {
	case VFLASH_STORE_NONE:
		return NULL;
	case VFLASH_STORE_SPARSE:
		page = sparse_page(b, pgoff, gfp);
		return page ? page_address(page) : ERR_PTR(-ENOMEM);
	default:
		return page_address(page_of(b, pgoff));
	}
}

/**
 * vflash_store_pfn() - the page frame to map for one logical page
 * @b: the store
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 * @write: the mapping is to be writable
 * @pfn: the frame
 *
 * store=none gives the device's own zero page for reads (6.12 refuses
 * the shared one with pfn_mkwrite) and its scratch page for writes.
 *
 * Return: 0, or -ENOMEM (store=sparse, see vflash_store_write_page()).
 */
int vflash_store_pfn(struct vflash_backing *b, pgoff_t pgoff, bool write,
		     unsigned long *pfn)
{
	struct page *page;

	if (b->res) {
		*pfn = PHYS_PFN(b->res->start) + pgoff;
		return 0;
	}
	switch (b->mode) {
	case VFLASH_STORE_NONE:
		page = write ? b->scratch : b->zeros;
		break;
	case VFLASH_STORE_SPARSE:
		page = sparse_page(b, pgoff, GFP_KERNEL | __GFP_RETRY_MAYFAIL);
		if (!page)
			return -ENOMEM;
		break;
	default:
		page = page_of(b, pgoff);
		break;
	}
	*pfn = page_to_pfn(page);
	return 0;
}

/**
 * vflash_store_maps_pfn() - whether a frame is one the store maps for a page
 * @b: the store
 * @pgoff: logical page
 * @pfn: the frame a PTE of that page holds
 *
 * Return: true if vflash_store_pfn() may have given @pfn for @pgoff.
 */
bool vflash_store_maps_pfn(const struct vflash_backing *b, pgoff_t pgoff,
			   unsigned long pfn)
{
	struct page *page;

	if (b->res)
		return pfn == PHYS_PFN(b->res->start) + pgoff;
	if (b->mode == VFLASH_STORE_NONE)
		return pfn == page_to_pfn(b->scratch) ||
		       pfn == page_to_pfn(b->zeros);
	page = page_of(b, pgoff);
	return page && pfn == page_to_pfn(page);
}

/**
 * vflash_store_zero() - make part of a page read as zeros
 * @b: the store
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 * @offset: first byte in the page
 * @len: bytes, @offset + @len <= PAGE_SIZE
 *
 * Never allocates. With store=sparse a page zeroed whole loses its memory,
 * unless a frontend may map it (&vflash_backing.keep_pages); the caller
 * then must be the only one that reaches the page's data meanwhile.
 */
void vflash_store_zero(struct vflash_backing *b, pgoff_t pgoff,
		       unsigned int offset, unsigned int len)
{
	unsigned long idx;
	struct vflash_chunk *c;
	struct page **pages, *page;

	if (b->res) {
		memset(b->kaddr + ((size_t)pgoff << PAGE_SHIFT) + offset, 0,
		       len);
		return;
	}
	if (b->mode == VFLASH_STORE_NONE)
		return;
	page = page_of(b, pgoff);
	if (!page)
		return;
	if (b->mode != VFLASH_STORE_SPARSE || b->keep_pages ||
	    len < PAGE_SIZE) {
		memset(page_address(page) + offset, 0, len);
		return;
	}
	c = chunk_of(b, pgoff, &idx);
	pages = READ_ONCE(c->pages);
	page = xchg(&pages[idx], NULL);
	if (page) {
		__free_page(page);
		atomic_long_sub(PAGE_SIZE, &b->bytes);
	}
}

/**
 * vflash_store_adopt_page() - make a logical page hold @page's contents
 * @b: the store
 * @pgoff: logical page, below size_bytes / PAGE_SIZE
 * @page: a page of data, allocated by the caller
 *
 * Without memory for the page (store=sparse), @page becomes it; else the
 * data are copied. The caller must be the only one reaching the page.
 *
 * Return: true if the store took @page; false if it copied it or could not.
 */
bool vflash_store_adopt_page(struct vflash_backing *b, pgoff_t pgoff,
			     struct page *page)
{
	struct vflash_chunk *c;
	struct page **pages;
	unsigned long idx;
	void *dst;

	if (b->res || b->mode != VFLASH_STORE_SPARSE) {
		dst = vflash_store_write_page(b, pgoff, GFP_NOWAIT);
		if (!IS_ERR_OR_NULL(dst))
			copy_page(dst, page_address(page));
		return false;
	}
	c = chunk_of(b, pgoff, &idx);
	pages = sparse_array(b, c, GFP_NOWAIT);
	if (!pages)
		return false;
	/* Release: the page's data before the pointer to it. */
	if (cmpxchg_release(&pages[idx], NULL, page)) {
		/* A failed cmpxchg orders nothing: as sparse_page(). */
		smp_rmb();
		copy_page(page_address(READ_ONCE(pages[idx])),
			  page_address(page));
		return false;
	}
	atomic_long_add(PAGE_SIZE, &b->bytes);
	return true;
}

/**
 * vflash_store_memory_for() - may the device take @n more pages of RAM?
 * @b: the store
 * @n: pages
 *
 * Return: true if @n pages fit above the reserve.
 */
bool vflash_store_memory_for(const struct vflash_backing *b, unsigned long n)
{
	unsigned long reserve = READ_ONCE(b->reserve_pages);

	if (!reserve)
		reserve = totalram_pages() >> RESERVE_RAM_SHIFT;
	if (global_zone_page_state(NR_FREE_PAGES) > 2 * reserve + n)
		return true;
	return si_mem_available() > (long)(reserve + n);
}

/**
 * vflash_store_bytes() - memory the store holds
 * @b: the store
 *
 * Return: bytes of data pages, page arrays and chunk table (full: the
 * whole capacity; none: the scratch page).
 */
u64 vflash_store_bytes(const struct vflash_backing *b)
{
	return atomic_long_read(&b->bytes);
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

	/* memmap=SIZE$START is "reserved", memmap=SIZE!START legacy pmem. */
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
	if (!c->pages)
		return;
	/* Full stops at the first missing page; sparse may have holes. */
	for (i = 0; i < VFLASH_CHUNK_PAGES; i++)
		if (c->pages[i])
			__free_page(c->pages[i]);
	kvfree(c->pages);
	c->pages = NULL;
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
	while (b->nr_chunks) {
		free_chunk(&b->chunks[--b->nr_chunks]);
		cond_resched();
	}
	kvfree(b->chunks);
	b->chunks = NULL;
}

/* Refuses a device whose store and metadata would not fit in memory. */
static int check_memory(const struct vflash_config *cfg, u64 table_bytes)
{
	u64 need = table_bytes, meta;
	long avail = si_mem_available();

	/* A capacity the FTL cannot map fails later, with its own line. */
	if (!vflash_flash_metadata_bytes(&cfg->model, cfg->size_bytes, &meta))
		need += meta;
	if (cfg->store == VFLASH_STORE_FULL)
		need += cfg->size_bytes;
	if (avail > 0 && need <= (u64)avail << PAGE_SHIFT)
		return 0;
	pr_err("size: %llu MiB exceeds the memory available for it (%lu MiB): store=%s needs %llu MiB\n",
	       cfg->size_bytes >> 20,
	       avail > 0 ? (unsigned long)avail >> (20 - PAGE_SHIFT) : 0,
	       vflash_store_mode_name(cfg->store), need >> 20);
	return -ENOMEM;
}

static int alloc_backing(struct vflash_backing *b,
			 const struct vflash_config *cfg)
{
	u64 size = cfg->size_bytes;
	unsigned long pages = size >> PAGE_SHIFT;
	unsigned long nr = DIV_ROUND_UP(pages, VFLASH_CHUNK_PAGES);
	u64 table = cfg->store == VFLASH_STORE_NONE ? 0 :
		    (u64)nr * sizeof(*b->chunks);
	int ret = 0;

	ret = check_memory(cfg, table);
	if (ret)
		return ret;

	if (cfg->store == VFLASH_STORE_NONE) {
		b->scratch = alloc_page(GFP_KERNEL | __GFP_ZERO);
		b->zeros = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!b->scratch || !b->zeros) {
			pr_err("store=none: no memory for the scratch and zero pages\n");
			if (b->scratch)
				__free_page(b->scratch);
			if (b->zeros)
				__free_page(b->zeros);
			b->scratch = NULL;
			b->zeros = NULL;
			return -ENOMEM;
		}
		atomic_long_set(&b->bytes, 2 * PAGE_SIZE);
		b->size_bytes = size;
		return 0;
	}

	b->chunks = kvcalloc(nr, sizeof(*b->chunks), GFP_KERNEL | __GFP_NOWARN);
	if (!b->chunks) {
		pr_err("size=%llu: no memory for the chunk table\n", size);
		return -ENOMEM;
	}
	atomic_long_set(&b->bytes, table);

	if (cfg->store == VFLASH_STORE_SPARSE) {
		b->nr_chunks = nr;
		b->reserve_pages = totalram_pages() >> RESERVE_RAM_SHIFT;
		b->size_bytes = size;
		return 0;
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
	atomic_long_add(size, &b->bytes);
	b->size_bytes = size;
	return 0;
}

/**
 * vflash_backing_init() - set up a device's store
 * @b: zero-initialised store to fill in
 * @cfg: the validated configuration
 *
 * Checks that the store and the FTL's metadata fit in memory first.
 *
 * Return: 0; or -EINVAL, -ENOMEM or -EINTR after one dmesg line naming
 * the parameter at fault, with nothing claimed or allocated.
 */
int vflash_backing_init(struct vflash_backing *b,
			const struct vflash_config *cfg)
{
	unsigned int i;
	int ret;

	b->mode = cfg->store;
	for (i = 0; i < cfg->nr_fe; i++)
		if (cfg->fe[i]->char_dev)
			b->keep_pages = true;
	if (cfg->use_memmap) {
		b->mode = VFLASH_STORE_FULL;
		ret = claim_memmap(b, cfg->memmap_start, cfg->size_bytes);
		if (!ret)
			atomic_long_set(&b->bytes, cfg->size_bytes);
		return ret;
	}
	return alloc_backing(b, cfg);
}

/**
 * vflash_backing_exit() - release what vflash_backing_init() set up
 * @b: the store; no frontend may use it any more
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
	if (b->scratch) {
		__free_page(b->scratch);
		b->scratch = NULL;
	}
	if (b->zeros) {
		__free_page(b->zeros);
		b->zeros = NULL;
	}
	atomic_long_set(&b->bytes, 0);
	b->size_bytes = 0;
}
