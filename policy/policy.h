/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Policy plugins: a name plus an ops table of its kind, in a per-kind list.
 * Built in, never gone while vflash is loaded. Eviction and prefetch
 * policies keep per-device state; the others are stateless, so a device
 * switches by storing a pointer.
 */
#ifndef VFLASH_POLICY_H
#define VFLASH_POLICY_H

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/types.h>

/**
 * enum vflash_policy_kind - what a policy decides
 * @VFLASH_POLICY_GC: which block garbage collection cleans
 * @VFLASH_POLICY_PLACEMENT: which die a write goes to
 * @VFLASH_POLICY_MIGRATION: which SLC pages move to QLC in the background
 * @VFLASH_POLICY_MAINTENANCE: when GC and migration run
 * @VFLASH_POLICY_EVICTION: which page leaves the device DRAM cache
 * @VFLASH_POLICY_PREFETCH: which pages a cache miss also loads
 * @VFLASH_POLICY_NR: number of kinds
 */
enum vflash_policy_kind {
	VFLASH_POLICY_GC,
	VFLASH_POLICY_PLACEMENT,
	VFLASH_POLICY_MIGRATION,
	VFLASH_POLICY_MAINTENANCE,
	VFLASH_POLICY_EVICTION,
	VFLASH_POLICY_PREFETCH,
	VFLASH_POLICY_NR,
};

/**
 * struct vflash_gc_candidate - what a GC policy sees of a full block
 * @valid: valid logical pages in it
 * @slots: logical pages it holds when full
 * @seal_seq: order in which blocks became full (smaller is older)
 * @age_ns: time since it became full
 */
struct vflash_gc_candidate {
	u32 valid;
	u32 slots;
	u64 seal_seq;
	u64 age_ns;
};

/**
 * struct vflash_gc_ops - a GC victim policy
 * @cost: the candidate's cost; the block of least cost is cleaned
 */
struct vflash_gc_ops {
	u64 (*cost)(const struct vflash_gc_candidate *c);
};

/**
 * struct vflash_placement_ops - a placement policy
 * @pick_die: the die for a write of logical page @lpn, whose read heat is
 *	@hot (at or above the device's hot threshold); @cursor is the
 *	device's round-robin counter
 * @round_robin: writes go round robin over every die, whatever their page
 *	or heat (instant preconditioning may replay one die for all)
 * @lba_extent: if not 0, the die is the page's alone: pages
 *	[k * @lba_extent, (k + 1) * @lba_extent) go to die k % nr_dies
 */
struct vflash_placement_ops {
	u32 (*pick_die)(u64 lpn, bool hot, u32 nr_dies, atomic64_t *cursor);
	bool round_robin;
	u32 lba_extent;
};

/**
 * struct vflash_migration_ops - an SLC-to-QLC migration policy
 * @background: migrate in the background (else only when SLC is full)
 * @stays_in_slc: whether a page read @heat times stays in SLC (and a QLC
 *	page that hot is re-promoted)
 */
struct vflash_migration_ops {
	bool background;
	bool (*stays_in_slc)(u32 heat, u32 threshold);
};

/**
 * struct vflash_maintenance_ops - a maintenance scheduling policy
 * @background: the worker cleans whenever free space is below the high
 *	watermark (else cleaning happens on the write path, below the low one)
 * @read_priority: host reads pass queued background work on a die, with
 *	a bounded deferral
 */
struct vflash_maintenance_ops {
	bool background;
	bool read_priority;
};

/**
 * struct vflash_eviction_ops - a device DRAM cache eviction policy
 * @uses_referenced: the policy acts on @access, so the cache must sample
 *	the Accessed bits for it
 * @alloc: a new, empty instance for @nr_slots slots in @nr_sets sets (1:
 *	fully associative); @seed makes it reproducible. NULL on allocation
 *	failure or an impossible shape.
 * @free: frees an instance
 * @insert: @slot, holding logical page @lpn, becomes a candidate for
 *	eviction in the set of @lpn; it must not be in the instance already
 * @access: @slot was referenced since the last report; ignored if @slot
 *	is not in the instance
 * @remove: @slot leaves the cache without having been chosen. Returns
 *	whether it was in the instance (if not, nothing changes).
 * @evict: chooses a victim among the slots of set @set (below @nr_sets),
 *	removes it and stores it in @slot. Returns false if that set of the
 *	instance is empty.
 *
 * The caller serialises all calls on one instance. Every call is O(1) or
 * amortised O(1); memory is bounded by @nr_slots and @nr_sets.
 */
struct vflash_eviction_ops {
	bool uses_referenced;
	void *(*alloc)(u32 nr_slots, u32 nr_sets, u64 seed, gfp_t gfp);
	void (*free)(void *st);
	void (*insert)(void *st, u32 slot, u64 lpn);
	void (*access)(void *st, u32 slot);
	bool (*remove)(void *st, u32 slot);
	bool (*evict)(void *st, u32 set, u32 *slot);
};

/* Most pages a prefetch policy proposes after one miss. */
#define VFLASH_PREFETCH_MAX	64

/**
 * struct vflash_prefetch_ops - a prefetch policy
 * @alloc: a new instance, or NULL on allocation failure; NULL for a
 *	policy without state, whose instance is then NULL
 * @free: frees an instance; NULL if @alloc is
 * @predict: after a demand miss on @lpn of @stream (an opaque key), stores
 *	up to min(@degree, @max) pages below @nr_pages in @out; returns their
 *	number. Safe to call concurrently.
 * @demand_only: @predict always returns 0, so a miss need not call it
 */
struct vflash_prefetch_ops {
	void *(*alloc)(gfp_t gfp);
	void (*free)(void *st);
	u32 (*predict)(void *st, u64 stream, u64 lpn, u32 degree,
		       u64 nr_pages, u64 *out, u32 max);
	bool demand_only;
};

/**
 * struct vflash_policy - a registered policy
 * @name: unique within its kind; what sysfs shows and takes
 * @kind: its kind
 * @ops: the ops table of its kind (struct vflash_<kind>_ops)
 * @list: entry in its kind's registry list
 */
struct vflash_policy {
	const char *name;
	enum vflash_policy_kind kind;
	const void *ops;
	struct list_head list;
};

const char *vflash_policy_kind_name(enum vflash_policy_kind kind);
int vflash_policy_register(struct vflash_policy *pol);
void vflash_policy_unregister(struct vflash_policy *pol);
const struct vflash_policy *vflash_policy_find(enum vflash_policy_kind kind,
					       const char *name);
const struct vflash_policy *vflash_policy_default(enum vflash_policy_kind kind);
ssize_t vflash_policy_list(enum vflash_policy_kind kind,
			   const struct vflash_policy *current_pol, char *buf,
			   size_t size);

int vflash_policies_init(void);
void vflash_policies_exit(void);

#endif /* VFLASH_POLICY_H */
