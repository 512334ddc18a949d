/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device DRAM cache (docs/design/cxl.md): pure bookkeeping; its user
 * maps and unmaps pages itself, through struct vflash_cache_host.
 */
#ifndef VFLASH_CACHE_H
#define VFLASH_CACHE_H

#include <linux/bits.h>
#include <linux/types.h>

#include "policy/policy.h"

struct vflash_cache;
struct vflash_flash;

/* The most slots a cache can have (29 bits of slot index). */
#define VFLASH_CACHE_MAX_SLOTS	(BIT(29) - 1)

/**
 * enum vflash_cache_stat - the cache's counters
 * @VFLASH_CACHE_MISSES: NAND reads for demand misses
 * @VFLASH_CACHE_REFAULTS: misses on pages that were resident before
 * @VFLASH_CACHE_EVICTIONS: pages evicted
 * @VFLASH_CACHE_DIRTY_WRITEBACKS: evicted pages written back to flash
 * @VFLASH_CACHE_PREFETCH_ISSUED: NAND reads for prefetches
 * @VFLASH_CACHE_PREFETCH_HITS: prefetched pages used before eviction
 * @VFLASH_CACHE_BLOCK_READ_HITS: pages a block read found resident
 * @VFLASH_CACHE_BLOCK_WRITE_HITS: pages a block write found resident
 * @VFLASH_CACHE_INVALIDATIONS: resident pages dropped without a writeback
 * @VFLASH_CACHE_CONFLICT_MISSES: demand misses that evicted a page of
 *	their full set while the free pool had slots
 * @VFLASH_CACHE_DIRECT_EVICTIONS: pages a demand miss evicted itself, in
 *	its fault
 * @VFLASH_CACHE_STAT_NR: number of counters
 */
enum vflash_cache_stat {
	VFLASH_CACHE_MISSES,
	VFLASH_CACHE_REFAULTS,
	VFLASH_CACHE_EVICTIONS,
	VFLASH_CACHE_DIRTY_WRITEBACKS,
	VFLASH_CACHE_PREFETCH_ISSUED,
	VFLASH_CACHE_PREFETCH_HITS,
	VFLASH_CACHE_BLOCK_READ_HITS,
	VFLASH_CACHE_BLOCK_WRITE_HITS,
	VFLASH_CACHE_INVALIDATIONS,
	VFLASH_CACHE_CONFLICT_MISSES,
	VFLASH_CACHE_DIRECT_EVICTIONS,
	VFLASH_CACHE_STAT_NR,
};

/**
 * enum vflash_cache_page - what the cache knows of a logical page
 * @VFLASH_PAGE_ABSENT: not in the cache
 * @VFLASH_PAGE_LOADING: a slot is claimed, its NAND read being issued
 * @VFLASH_PAGE_RESIDENT: in the cache (its read may still be in flight)
 * @VFLASH_PAGE_EVICTING: being unmapped and written back
 */
enum vflash_cache_page {
	VFLASH_PAGE_ABSENT,
	VFLASH_PAGE_LOADING,
	VFLASH_PAGE_RESIDENT,
	VFLASH_PAGE_EVICTING,
};

/**
 * enum vflash_cache_probe - points of the fault path where a race test
 *	makes another thread act (struct vflash_cache_host.probe)
 * @VFLASH_PROBE_GET_WORD: vflash_cache_get() read a resident word, not
 *	yet its slot's fields
 */
enum vflash_cache_probe {
	VFLASH_PROBE_GET_WORD,
};

/**
 * struct vflash_cache_host - what the cache asks of its user; any may be NULL
 * @unmap: remove every mapping of @lpn, before its slot is reused
 * @test_clear_young: whether @lpn was accessed since the last call (cleared)
 * @kick: run vflash_cache_reclaim() soon, outside the caller's context
 * @now_ns: the clock (default ktime_get_ns())
 * @wait_until: wait until @deadline_ns on that clock; 0, or -EINTR on a
 *	fatal signal (default vflash_cache_wait_until())
 * @written_back: a dirty @lpn was written back by an eviction; must not
 *	sleep
 * @probe: for race tests only: called at @where, on @lpn
 */
struct vflash_cache_host {
	void (*unmap)(void *priv, u64 lpn);
	bool (*test_clear_young)(void *priv, u64 lpn);
	void (*kick)(void *priv);
	u64 (*now_ns)(void *priv);
	int (*wait_until)(void *priv, u64 deadline_ns);
	void (*written_back)(void *priv, u64 lpn);
	void (*probe)(void *priv, enum vflash_cache_probe where, u64 lpn);
};

/**
 * struct vflash_cache_params - the shape of a cache
 * @nr_pages: logical pages of the device
 * @nr_slots: pages the cache holds
 * @young: fills that stay out of the eviction policy (a livelock guard);
 *	@nr_slots must exceed @young + 2
 * @seed: for the random policy
 * @host: the user's callbacks, or NULL
 * @priv: passed to them
 */
struct vflash_cache_params {
	u64 nr_pages;
	u32 nr_slots;
	u32 young;
	u64 seed;
	const struct vflash_cache_host *host;
	void *priv;
};

/**
 * struct vflash_cache_pin - a resident page held by vflash_cache_get()
 * @lpn: the page
 * @slot: its cache slot
 * @missed: this call issued its NAND read
 * @waited_ns: how long the call waited for the read
 * @due_ns: when the page's NAND read completes by the model
 * @req_id: the request id of that read if this call issued it, else 0
 */
struct vflash_cache_pin {
	u64 lpn;
	u32 slot;
	bool missed;
	u64 waited_ns;
	u64 due_ns;
	u64 req_id;
};

struct vflash_cache *vflash_cache_create(struct vflash_flash *f,
					 const struct vflash_cache_params *p);
void vflash_cache_destroy(struct vflash_cache *c);

u64 vflash_cache_now(struct vflash_cache *c);
int vflash_cache_get_at(struct vflash_cache *c, u64 lpn, bool write,
			u64 stream, u64 now_ns, struct vflash_cache_pin *pin);

static inline int vflash_cache_get(struct vflash_cache *c, u64 lpn, bool write,
				   u64 stream, struct vflash_cache_pin *pin)
{
	return vflash_cache_get_at(c, lpn, write, stream, vflash_cache_now(c),
				   pin);
}

void vflash_cache_put(struct vflash_cache *c, struct vflash_cache_pin *pin);
int vflash_cache_mkwrite(struct vflash_cache *c, u64 lpn,
			 struct vflash_cache_pin *pin);

bool vflash_cache_block_access(struct vflash_cache *c, u64 lpn, bool write);
bool vflash_cache_invalidate(struct vflash_cache *c, u64 lpn);
void vflash_cache_unmap(struct vflash_cache *c, u64 lpn);

bool vflash_cache_evict_one(struct vflash_cache *c);
u32 vflash_cache_reclaim(struct vflash_cache *c);
u32 vflash_cache_flush(struct vflash_cache *c);
u32 vflash_cache_sample(struct vflash_cache *c, u32 budget);
int vflash_cache_set_watermarks(struct vflash_cache *c, u32 low, u32 high);
int vflash_cache_set_eviction(struct vflash_cache *c,
			      const struct vflash_policy *pol);
int vflash_cache_set_ways(struct vflash_cache *c, u32 ways);
u32 vflash_cache_nr_sets(struct vflash_cache *c);
u32 vflash_cache_set_used(struct vflash_cache *c, u32 set);
int vflash_cache_set_prefetch(struct vflash_cache *c,
			      const struct vflash_policy *pol);
void vflash_cache_set_prefetch_degree(struct vflash_cache *c, u32 degree);

enum vflash_cache_page vflash_cache_page_state(struct vflash_cache *c,
					       u64 lpn);
u64 vflash_cache_stat(struct vflash_cache *c, enum vflash_cache_stat stat);
u32 vflash_cache_nr_free(struct vflash_cache *c);
u32 vflash_cache_nr_slots(struct vflash_cache *c);
void vflash_cache_reset_stats(struct vflash_cache *c);
u32 vflash_cache_resident(struct vflash_cache *c);
bool vflash_cache_needs_sampling(struct vflash_cache *c);

int vflash_cache_wait_until(u64 deadline_ns, u64 spin_ns);

#endif /* VFLASH_CACHE_H */
