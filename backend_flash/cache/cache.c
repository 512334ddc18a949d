// SPDX-License-Identifier: GPL-2.0
/*
 * The device DRAM cache (docs/design/cxl.md). Data never moves: a page is
 * resident when its user may map the backing page. Per logical page one
 * atomic word (state, "was resident before", slot); every transition is a
 * cmpxchg, so concurrent misses on one page cost one NAND read.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>

#include "backend_flash/cache/cache.h"
#include "backend_flash/flash.h"
#include "backend_flash/trace.h"
#include "policy/sets.h"

#define VFD_STATE_SHIFT	30
#define VFD_EVER		BIT(29)
#define VFD_SLOT_MASK	(BIT(29) - 1)
#define VFD_MAX_SLOTS	VFD_SLOT_MASK
#define VFD_NO_SLOT	U32_MAX
#define VFD_TRANSIT	(U32_MAX - 1)	/* vfd_claim_invalidate(): try again */

/* Slots a policy switch moves per hold of policy_lock. */
#define VFD_SWITCH_BATCH	1024

/* Waits shorter than this are spun; longer ones sleep until this is left. */
#define VFD_SPIN_NS	(20 * NSEC_PER_USEC)

/* Slot flags (atomic bitops). */
enum {
	VFD_DIRTY,	/* written since it was loaded */
	VFD_PREFETCHED,	/* loaded by prefetch, not used yet */
	VFD_FRESH,	/* not sampled since it was loaded */
	VFD_YOUNG,	/* in the young ring, not in the policy */
	VFD_REF,		/* referenced while young */
	VFD_LISTED,	/* in the young ring or the eviction policy; under policy_lock */
};

/**
 * struct vfd_slot - one cache slot
 * @lpn: the page it holds
 * @ready_ns: when its NAND read completes; U64_MAX while being issued
 * @pins: mappers between their state check and their PTE insert
 * @gen: bumped on every fill, so a stale observation is detected
 * @flags: VFD_DIRTY, ...
 */
struct vfd_slot {
	u64 lpn;
	u64 ready_ns;
	atomic_t pins;
	u32 gen;
	unsigned long flags;
};

/**
 * struct vfd_sets - the sets of a set-associative cache; all of it under
 *	the cache's policy_lock
 * @nr_sets: sets (more than 1)
 * @ways: the ways it was made for
 * @used: per set, its pages listed in the young ring or the policy
 * @over: sets whose @used exceeds their capacity
 * @trim_hand: the next set vflash_cache_evict_one() looks at in @over
 */
struct vfd_sets {
	u32 nr_sets;
	u32 ways;
	u32 *used;
	unsigned long *over;
	u32 trim_hand;
};

/**
 * struct vfd_stats - one CPU's share of the cache's counters
 * @v: per enum vflash_cache_stat
 */
struct vfd_stats {
	u64 v[VFLASH_CACHE_STAT_NR];
};

/**
 * struct vflash_cache - the cache of one device
 * @f: the backend, for NAND reads and writebacks
 * @p: its shape and user
 * @state: per logical page, the state word
 * @slots: the slots
 * @free_lock: protects @free and @nr_free
 * @free: stack of free slots
 * @nr_free: entries in @free; read without the lock for watermark checks
 * @free_low: below this many free slots, the user is kicked to reclaim
 * @free_high: reclaim stops at this many free slots
 * @policy_lock: protects @ev_ops, @ev, @ev_old_ops, @ev_old,
 *	@ev_old_counted, @sets and what it points to, @young_ring,
 *	@young_head, @young_len and the slots' VFD_LISTED bits; a resident
 *	page leaves it (RESIDENT -> EVICTING) only under it, so an eviction
 *	and an invalidation never claim one page both. Innermost.
 * @ev_ops: the eviction policy
 * @ev: its instance
 * @ev_old_ops: during a switch, the policy being drained into @ev
 * @ev_old: its instance (victims come from it first), or NULL
 * @ev_old_counted: @ev_old's pages are counted in @sets (same geometry)
 * @sets: the sets, or NULL when fully associative; under policy_lock
 *	(a miss tests it for NULL without the lock, see vfd_claim_slot())
 * @nr_over: sets over their capacity (bits of @sets' over); written
 *	under policy_lock, read without it to decide whether to kick
 * @young_ring: the last filled slots, oldest at @young_head
 * @young_head: index of the oldest entry
 * @young_len: entries in the ring
 * @pf_lock: protects @pf_ops and @pf against a switch (@pf_ops is
 *	also read unlocked, for its @demand_only; see vfd_prefetch())
 * @pf_ops: the prefetch policy
 * @pf: its instance (the policy locks it itself)
 * @pf_degree: pages a prefetch may propose
 * @sample_hand: the next slot vflash_cache_sample() looks at
 * @stats: counters, per CPU; summed when read
 */
struct vflash_cache {
	struct vflash_flash *f;
	struct vflash_cache_params p;
	atomic_t *state;
	struct vfd_slot *slots;

	spinlock_t free_lock;	/* see above */
	u32 *free;
	u32 nr_free;
	u32 free_low;
	u32 free_high;

	spinlock_t policy_lock;	/* see above */
	const struct vflash_eviction_ops *ev_ops;
	void *ev;
	const struct vflash_eviction_ops *ev_old_ops;
	void *ev_old;
	bool ev_old_counted;
	struct vfd_sets *sets;
	u32 nr_over;
	u32 *young_ring;
	u32 young_head;
	u32 young_len;

	spinlock_t pf_lock;	/* see above */
	const struct vflash_prefetch_ops *pf_ops;
	void *pf;
	u32 pf_degree;

	u32 sample_hand;
	struct vfd_stats __percpu *stats;
};

/* All but LOADING have been resident (an evicted page is ABSENT | VFD_EVER). */
static u32 vfd_word(enum vflash_cache_page st, u32 slot)
{
	u32 w = ((u32)st << VFD_STATE_SHIFT) | slot;

	return st == VFLASH_PAGE_LOADING ? w : w | VFD_EVER;
}

static enum vflash_cache_page vfd_state(u32 w)
{
	return w >> VFD_STATE_SHIFT;
}

static u32 vfd_slot_of(u32 w)
{
	return w & VFD_SLOT_MASK;
}

static void vfd_count(struct vflash_cache *c, enum vflash_cache_stat s)
{
	this_cpu_inc(c->stats->v[s]);
}

static u64 vfd_now(struct vflash_cache *c)
{
	const struct vflash_cache_host *h = c->p.host;

	return h && h->now_ns ? h->now_ns(c->p.priv) : ktime_get_ns();
}

/**
 * vflash_cache_now() - the cache's clock
 * @c: the cache
 *
 * Return: the time on the clock of vflash_cache_get_at()'s @now_ns.
 */
u64 vflash_cache_now(struct vflash_cache *c)
{
	return vfd_now(c);
}

/**
 * vflash_cache_wait_until() - wait for a point in time
 * @deadline_ns: on the ktime_get_ns() clock
 * @spin_ns: spin for this much at the end, sleep before
 *
 * Return: 0, or -EINTR if a fatal signal ended the wait early.
 */
int vflash_cache_wait_until(u64 deadline_ns, u64 spin_ns)
{
	u64 now = ktime_get_ns();

	/* An unset deadline (U64_MAX) is a caller's bug: never wait on it. */
	if (WARN_ON_ONCE(deadline_ns > KTIME_MAX))
		return 0;

	while (now + spin_ns < deadline_ns) {
		ktime_t wake = ns_to_ktime(deadline_ns - spin_ns);

		set_current_state(TASK_KILLABLE);
		schedule_hrtimeout_range(&wake, 0, HRTIMER_MODE_ABS);
		if (fatal_signal_pending(current))
			return -EINTR;
		now = ktime_get_ns();
	}
	while (now < deadline_ns) {
		if (fatal_signal_pending(current))
			return -EINTR;
		cpu_relax();
		now = ktime_get_ns();
	}
	return 0;
}

static void vfd_probe(struct vflash_cache *c, enum vflash_cache_probe where,
		      u64 lpn)
{
	const struct vflash_cache_host *h = c->p.host;

	if (h && h->probe)
		h->probe(c->p.priv, where, lpn);
}

static int vfd_wait(struct vflash_cache *c, u64 deadline_ns)
{
	const struct vflash_cache_host *h = c->p.host;

	if (h && h->wait_until)
		return h->wait_until(c->p.priv, deadline_ns);
	return vflash_cache_wait_until(deadline_ns, VFD_SPIN_NS);
}

static u32 vfd_take_free(struct vflash_cache *c)
{
	u32 slot = VFD_NO_SLOT;

	spin_lock(&c->free_lock);
	if (c->nr_free) {
		slot = c->free[--c->nr_free];
		WRITE_ONCE(c->nr_free, c->nr_free);
	}
	spin_unlock(&c->free_lock);
	return slot;
}

static void vfd_put_free(struct vflash_cache *c, u32 slot)
{
	spin_lock(&c->free_lock);
	c->free[c->nr_free] = slot;
	WRITE_ONCE(c->nr_free, c->nr_free + 1);
	spin_unlock(&c->free_lock);
}

static void vfd_sets_free(struct vfd_sets *sets)
{
	if (!sets)
		return;
	bitmap_free(sets->over);
	kvfree(sets->used);
	kfree(sets);
}

static struct vfd_sets *vfd_sets_alloc(u32 nr_sets, u32 ways)
{
	struct vfd_sets *sets = kzalloc(sizeof(*sets), GFP_KERNEL);

	if (!sets)
		return NULL;
	sets->nr_sets = nr_sets;
	sets->ways = ways;
	sets->used = kvcalloc(nr_sets, sizeof(*sets->used), GFP_KERNEL);
	sets->over = bitmap_zalloc(nr_sets, GFP_KERNEL);
	if (!sets->used || !sets->over) {
		vfd_sets_free(sets);
		return NULL;
	}
	return sets;
}

static u32 vfd_capacity(struct vflash_cache *c, u32 set)
{
	return vflash_set_capacity(c->p.nr_slots, c->sets->nr_sets, set);
}

/* Under policy_lock. */
static void vfd_set_count(struct vflash_cache *c, u32 slot, int delta)
{
	struct vfd_sets *sets = c->sets;
	u32 set;

	if (!sets)
		return;
	set = vflash_set_of(c->slots[slot].lpn, sets->nr_sets);
	if (WARN_ON_ONCE(delta < 0 && !sets->used[set]))
		return;
	sets->used[set] += delta;
	if (sets->used[set] > vfd_capacity(c, set)) {
		if (!__test_and_set_bit(set, sets->over))
			WRITE_ONCE(c->nr_over, c->nr_over + 1);
	} else if (__test_and_clear_bit(set, sets->over)) {
		WRITE_ONCE(c->nr_over, c->nr_over - 1);
	}
}

/* Under policy_lock; each policy ignores a slot it does not hold. */
static void vfd_access_locked(struct vflash_cache *c, u32 slot)
{
	c->ev_ops->access(c->ev, slot);
	if (c->ev_old)
		c->ev_old_ops->access(c->ev_old, slot);
}

static void vfd_reference(struct vflash_cache *c, u32 slot)
{
	spin_lock(&c->policy_lock);
	if (test_bit(VFD_YOUNG, &c->slots[slot].flags))
		set_bit(VFD_REF, &c->slots[slot].flags);
	else
		vfd_access_locked(c, slot);
	spin_unlock(&c->policy_lock);
}

static void vfd_young_push(struct vflash_cache *c, u32 slot)
{
	u32 old = VFD_NO_SLOT, young = c->p.young;

	set_bit(VFD_YOUNG, &c->slots[slot].flags);
	spin_lock(&c->policy_lock);
	if (!young) {
		old = slot;
	} else {
		if (c->young_len == young) {
			old = c->young_ring[c->young_head];
			c->young_head = (c->young_head + 1) % young;
			c->young_len--;
		}
		c->young_ring[(c->young_head + c->young_len++) % young] = slot;
	}
	set_bit(VFD_LISTED, &c->slots[slot].flags);
	vfd_set_count(c, slot, 1);
	if (old != VFD_NO_SLOT) {
		clear_bit(VFD_YOUNG, &c->slots[old].flags);
		c->ev_ops->insert(c->ev, old, c->slots[old].lpn);
		if (test_and_clear_bit(VFD_REF, &c->slots[old].flags))
			vfd_access_locked(c, old);
	}
	spin_unlock(&c->policy_lock);
}

/*
 * Free slots a demand miss leaves for its prefetches: without them, a scan
 * larger than the cache gives every freed slot to the next demand miss and
 * prefetch (free slots only) never runs again.
 */
static u32 vfd_prefetch_reserve(struct vflash_cache *c)
{
	if (READ_ONCE(c->pf_ops)->demand_only)
		return 0;
	return min(READ_ONCE(c->pf_degree), READ_ONCE(c->free_high));
}

static bool vfd_set_has_room(struct vflash_cache *c, u64 lpn)
{
	struct vfd_sets *sets;
	bool room = true;
	u32 set;

	if (!READ_ONCE(c->sets))
		return true;
	spin_lock(&c->policy_lock);
	sets = c->sets;
	if (sets) {
		set = vflash_set_of(lpn, sets->nr_sets);
		room = sets->used[set] < vfd_capacity(c, set);
	}
	spin_unlock(&c->policy_lock);
	return room;
}

static u32 vfd_choose(struct vflash_cache *c, u64 lpn, bool *conflict);
static void vfd_evict_slot(struct vflash_cache *c, u32 slot);

/* vfd_choose(): a victim of any set, from the sets' hand. */
#define VFD_ANY_SET	(U64_MAX - 1)

static bool vfd_borrow(struct vflash_cache *c)
{
	u32 slot = vfd_choose(c, VFD_ANY_SET, NULL);

	if (slot == VFD_NO_SLOT)
		return false;
	vfd_evict_slot(c, slot);
	return true;
}

/* Most pages one miss evicts from its own set (normally one). */
#define VFD_SET_EVICT_MAX	(2 * VFLASH_CACHE_MAX_WAYS)

static void vfd_make_room_in_set(struct vflash_cache *c, u64 lpn)
{
	bool conflict = false;
	u32 slot, n;

	for (n = 0; n < VFD_SET_EVICT_MAX; n++) {
		slot = vfd_choose(c, lpn, &conflict);
		if (slot == VFD_NO_SLOT)
			break;
		vfd_evict_slot(c, slot);
		vfd_count(c, VFLASH_CACHE_DIRECT_EVICTIONS);
	}
	if (conflict)
		vfd_count(c, VFLASH_CACHE_CONFLICT_MISSES);
}

/*
 * A prefetch takes free slots only. VFD_NO_SLOT if a prefetch finds the
 * pool empty, or a fatal signal is pending while nothing is evictable.
 */
static __always_inline u32 vfd_claim_slot(struct vflash_cache *c, u64 lpn,
					  bool demand)
{
	const struct vflash_cache_host *h = c->p.host;
	u32 reserve = demand ? vfd_prefetch_reserve(c) : 0;
	u32 slot;

	/*
	 * A racing switch of ways leaves at most this fill beyond its set's
	 * capacity, which its next miss or vflash_cache_evict_one() repairs.
	 */
	if (demand && READ_ONCE(c->sets))
		vfd_make_room_in_set(c, lpn);
	for (;;) {
		slot = VFD_NO_SLOT;
		if (READ_ONCE(c->nr_free) > reserve)
			slot = vfd_take_free(c);
		if (slot != VFD_NO_SLOT || !demand)
			break;
		/* Nothing evictable: every other slot is in transit. */
		if (vflash_cache_evict_one(c)) {
			vfd_count(c, VFLASH_CACHE_DIRECT_EVICTIONS);
		} else {
			slot = vfd_take_free(c);
			if (slot != VFD_NO_SLOT)
				break;
			/*
			 * Our set holds only young pages and no set is over
			 * its ways: borrow from another set, or no fill would
			 * ever age them (docs/design/cxl.md).
			 */
			if (READ_ONCE(c->sets) && vfd_borrow(c)) {
				vfd_count(c, VFLASH_CACHE_DIRECT_EVICTIONS);
				continue;
			}
			if (fatal_signal_pending(current))
				return VFD_NO_SLOT;
			cond_resched();
		}
	}
	/* Set-associative, the evictor only trims sets over their capacity. */
	if (READ_ONCE(c->nr_free) < c->free_low && h && h->kick &&
	    (!READ_ONCE(c->sets) || READ_ONCE(c->nr_over)))
		h->kick(c->p.priv);
	return slot;
}

static void vfd_policy_insert(struct vflash_cache *c, u32 slot)
{
	spin_lock(&c->policy_lock);
	c->ev_ops->insert(c->ev, slot, c->slots[slot].lpn);
	set_bit(VFD_LISTED, &c->slots[slot].flags);
	vfd_set_count(c, slot, 1);
	spin_unlock(&c->policy_lock);
}

/*
 * The full barrier orders the store before wake_up_var()'s unlocked check
 * of the wait queue; it pairs with the waiter's set_current_state() in
 * prepare_to_wait_event(): either the waiter sees the new word or the
 * waker sees the waiter.
 */
static void vfd_publish(struct vflash_cache *c, u64 lpn, u32 w)
{
	atomic_set(&c->state[lpn], w);
	/* Store, then look at the queue; see above. */
	smp_mb();
	wake_up_var(&c->state[lpn]);
}

/*
 * A demand fill returns with the slot pinned, so the page stays the
 * loader's until it is mapped. Returns false, with the slot back in the
 * pool (its old deadline restored, so a stale reader never sees an unset
 * one), if another fill won the page.
 */
static __always_inline bool vfd_fill(struct vflash_cache *c, u64 lpn, u32 w,
				     u32 slot, bool prefetch, u64 now,
				     u64 *ready_ns, u64 *req_id)
{
	struct vflash_req_tag tag = { };
	struct vfd_slot *s = &c->slots[slot];
	u64 ready, old_ready = READ_ONCE(s->ready_ns);
	u32 dev = vflash_flash_id(c->f);

	WRITE_ONCE(s->lpn, lpn);
	WRITE_ONCE(s->ready_ns, U64_MAX);
	WRITE_ONCE(s->gen, s->gen + 1);
	WRITE_ONCE(s->flags,
		   BIT(VFD_FRESH) | (prefetch ? BIT(VFD_PREFETCHED) : 0));
	if (!prefetch)
		atomic_inc(&s->pins);
	/* The cmpxchg orders the slot's fields and pin before the claim. */
	if (atomic_cmpxchg(&c->state[lpn], w,
			   vfd_word(VFLASH_PAGE_LOADING, slot) |
			   (w & VFD_EVER)) != w) {
		if (!prefetch)
			atomic_dec(&s->pins);
		/* Pairs with the acquire in vflash_cache_get(). */
		smp_store_release(&s->ready_ns, old_ready);
		vfd_put_free(c, slot);
		return false;
	}
	ready = vflash_flash_submit_tagged(c->f, VFLASH_FE_CXL, VFLASH_IO_READ,
					   lpn, 1, now, NULL, &tag);
	*req_id = tag.id;
	/* Pairs with the acquire in vflash_cache_get(). */
	smp_store_release(&s->ready_ns, ready);
	trace_vflash_cxl_fill(dev, lpn, slot, prefetch, now, ready);
	if (prefetch) {
		trace_vflash_cxl_prefetch_issue(dev, lpn, slot);
		vfd_count(c, VFLASH_CACHE_PREFETCH_ISSUED);
	} else {
		trace_vflash_cxl_miss(dev, lpn, slot);
		vfd_count(c, VFLASH_CACHE_MISSES);
		if (w & VFD_EVER)
			vfd_count(c, VFLASH_CACHE_REFAULTS);
	}
	/*
	 * Nobody waits on a LOADING word (a fault on it yields), so no
	 * wake-up. Pairs with the acquire in vflash_cache_get().
	 */
	atomic_set_release(&c->state[lpn],
			   vfd_word(VFLASH_PAGE_RESIDENT, slot));
	if (prefetch)
		vfd_policy_insert(c, slot);
	else
		vfd_young_push(c, slot);
	*ready_ns = ready;
	return true;
}

/* @now, a lower bound of the clock, spares a clock read when @ready is past. */
static int vfd_wait_ready(struct vflash_cache *c, u64 ready, u64 *now,
			  u64 *waited)
{
	u64 t;
	int ret;

	if (ready <= *now)
		return 0;
	t = vfd_now(c);
	*now = t;
	if (ready <= t)
		return 0;
	ret = vfd_wait(c, ready);
	if (ret)
		return ret;
	*waited += vfd_now(c) - t;
	return 0;
}

static void vfd_prefetch(struct vflash_cache *c, u64 stream, u64 lpn, u64 now)
{
	u64 out[VFLASH_PREFETCH_MAX], ready, id;
	u32 n, i;

	/*
	 * The ops tables are static: a stale one read unlocked during a
	 * switch only skips or makes one miss's prediction.
	 */
	spin_lock(&c->pf_lock);
	n = c->pf_ops->predict(c->pf, stream, lpn, READ_ONCE(c->pf_degree),
			       c->p.nr_pages, out, ARRAY_SIZE(out));
	spin_unlock(&c->pf_lock);
	for (i = 0; i < n; i++) {
		u32 w = atomic_read(&c->state[out[i]]), slot;

		if (vfd_state(w) != VFLASH_PAGE_ABSENT ||
		    !vfd_set_has_room(c, out[i]))
			continue;
		slot = vfd_claim_slot(c, out[i], false);
		if (slot == VFD_NO_SLOT)
			break;
		vfd_fill(c, out[i], w, slot, true, now, &ready, &id);
	}
}

/**
 * vflash_cache_get_at() - make a page resident, wait for it, and pin it
 * @c: the cache
 * @lpn: the page, below the device's size
 * @write: the access writes: the page becomes dirty
 * @stream: the access stream, for prefetch (the faulting mapping)
 * @now_ns: when the access arrived, on vflash_cache_now()'s clock (the
 *	fault's entry)
 * @pin: receives the page's slot; vflash_cache_put() releases it
 *
 * Returns once the page's NAND read has completed. A miss's read arrives at
 * @now_ns, so the time vflash spends before it overlaps the modelled read.
 * While pinned, the page cannot be evicted: map it, then put it. Sleeps.
 *
 * Return: 0, or -EINTR if a fatal signal ended a wait (nothing pinned).
 */
int vflash_cache_get_at(struct vflash_cache *c, u64 lpn, bool write,
			u64 stream, u64 now_ns, struct vflash_cache_pin *pin)
{
	u64 waited = 0, now = now_ns, ready, id = 0;
	bool missed = false;
	u32 w, slot, gen;
	struct vfd_slot *s;
	int ret;

	for (;;) {
		w = atomic_read_acquire(&c->state[lpn]);
		slot = vfd_slot_of(w);
		switch (vfd_state(w)) {
		case VFLASH_PAGE_ABSENT:
			slot = vfd_claim_slot(c, lpn, true);
			if (slot == VFD_NO_SLOT)
				return -EINTR;
			if (!vfd_fill(c, lpn, w, slot, false, now, &ready, &id))
				continue;
			missed = true;
			s = &c->slots[slot];
			/* Static ops tables: see vfd_prefetch(). */
			if (!READ_ONCE(c->pf_ops)->demand_only)
				vfd_prefetch(c, stream, lpn, now);
			ret = vfd_wait_ready(c, ready, &now, &waited);
			if (ret) {
				atomic_dec(&s->pins);
				return ret;
			}
			goto pinned;
		case VFLASH_PAGE_LOADING:
			/* Nanoseconds, unless the loader was preempted. */
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
			continue;
		case VFLASH_PAGE_EVICTING:
			/* vfd_publish() pairs with the waiter's barrier. */
			if (wait_var_event_killable(&c->state[lpn],
						    atomic_read(&c->state[lpn]) != w))
				return -EINTR;
			continue;
		case VFLASH_PAGE_RESIDENT:
			break;
		}
		vfd_probe(c, VFLASH_PROBE_GET_WORD, lpn);
		s = &c->slots[slot];
		gen = READ_ONCE(s->gen);
		/* Pairs with the release in vfd_fill(). */
		ready = smp_load_acquire(&s->ready_ns);
		/*
		 * The slot may be another fill's by now: trust its fields
		 * only if the word and the fill are still the ones we saw.
		 */
		smp_rmb();
		if (atomic_read(&c->state[lpn]) != w ||
		    READ_ONCE(s->gen) != gen || ready == U64_MAX) {
			cond_resched();
			continue;
		}
		ret = vfd_wait_ready(c, ready, &now, &waited);
		if (ret)
			return ret;
		atomic_inc(&s->pins);
		/* Pin before re-reading the word; see vflash_cache_evict_one(). */
		smp_mb__after_atomic();
		if (atomic_read(&c->state[lpn]) == w && READ_ONCE(s->gen) == gen)
			break;
		atomic_dec(&s->pins);
	}
pinned:
	if (write)
		set_bit(VFD_DIRTY, &s->flags);
	if (!missed) {
		if (test_and_clear_bit(VFD_PREFETCHED, &s->flags)) {
			trace_vflash_cxl_prefetch_hit(vflash_flash_id(c->f),
						      lpn, slot);
			vfd_count(c, VFLASH_CACHE_PREFETCH_HITS);
		}
		vfd_reference(c, slot);
	}
	pin->lpn = lpn;
	pin->slot = slot;
	pin->missed = missed;
	pin->waited_ns = waited;
	pin->due_ns = ready;
	pin->req_id = id;
	return 0;
}

/**
 * vflash_cache_put() - release a page vflash_cache_get() pinned
 * @c: the cache
 * @pin: what vflash_cache_get() filled in
 */
void vflash_cache_put(struct vflash_cache *c, struct vflash_cache_pin *pin)
{
	/* The mapping is in place before the evictor may see no pin. */
	smp_mb__before_atomic();
	atomic_dec(&c->slots[pin->slot].pins);
}

/* Return: 0, or -EAGAIN (nothing pinned). */
static int vfd_pin_ready(struct vflash_cache *c, u64 lpn, u32 *slotp)
{
	u32 w = atomic_read_acquire(&c->state[lpn]);
	u32 slot = vfd_slot_of(w), gen;
	struct vfd_slot *s = &c->slots[slot];
	u64 ready;

	if (vfd_state(w) != VFLASH_PAGE_RESIDENT)
		return -EAGAIN;
	gen = READ_ONCE(s->gen);
	atomic_inc(&s->pins);
	/* Pin before re-reading the word; see vflash_cache_evict_one(). */
	smp_mb__after_atomic();
	if (atomic_read(&c->state[lpn]) != w || READ_ONCE(s->gen) != gen)
		goto again;
	/* Pairs with the release in vfd_fill(). */
	ready = smp_load_acquire(&s->ready_ns);
	if (ready == U64_MAX || ready > vfd_now(c))
		goto again;
	*slotp = slot;
	return 0;
again:
	atomic_dec(&s->pins);
	return -EAGAIN;
}

/**
 * vflash_cache_mkwrite() - a mapped page is about to be written
 * @c: the cache
 * @lpn: the page
 * @pin: filled in on success; release it with vflash_cache_put()
 *
 * Marks the page dirty and returns with it pinned: the caller makes its
 * PTE writable before the put, or an eviction and refill in between would
 * leave a writable PTE (same pfn) on a clean residency.
 *
 * Return: 0, or -EAGAIN (nothing pinned; the access must fault again).
 */
int vflash_cache_mkwrite(struct vflash_cache *c, u64 lpn,
			 struct vflash_cache_pin *pin)
{
	u32 slot;

	if (vfd_pin_ready(c, lpn, &slot))
		return -EAGAIN;
	set_bit(VFD_DIRTY, &c->slots[slot].flags);
	pin->lpn = lpn;
	pin->slot = slot;
	pin->missed = false;
	pin->waited_ns = 0;
	pin->req_id = 0;
	return 0;
}

/**
 * vflash_cache_block_access() - a block frontend's access to one page
 * @c: the cache
 * @lpn: the page, below the device's size
 * @write: the access writes the page
 *
 * A hit (resident, read completed) counts as a reference and a write
 * dirties the page; a miss changes nothing: block accesses do not fill
 * the cache (docs/dual.md).
 *
 * Return: whether it was a hit.
 */
bool vflash_cache_block_access(struct vflash_cache *c, u64 lpn, bool write)
{
	struct vfd_slot *s;
	u32 slot;

	if (vfd_pin_ready(c, lpn, &slot))
		return false;
	s = &c->slots[slot];
	if (write)
		set_bit(VFD_DIRTY, &s->flags);
	if (test_and_clear_bit(VFD_PREFETCHED, &s->flags))
		vfd_count(c, VFLASH_CACHE_PREFETCH_HITS);
	vfd_reference(c, slot);
	vfd_count(c, write ? VFLASH_CACHE_BLOCK_WRITE_HITS :
		 VFLASH_CACHE_BLOCK_READ_HITS);
	/* The dirty bit is set before the evictor may see no pin. */
	smp_mb__before_atomic();
	atomic_dec(&s->pins);
	return true;
}

/* Under policy_lock. */
static void vfd_young_remove_locked(struct vflash_cache *c, u32 slot)
{
	u32 young = c->p.young, i, n = 0;

	for (i = 0; i < c->young_len; i++) {
		u32 y = c->young_ring[(c->young_head + i) % young];

		if (y != slot)
			c->young_ring[(c->young_head + n++) % young] = y;
	}
	c->young_len = n;
	clear_bit(VFD_YOUNG, &c->slots[slot].flags);
	clear_bit(VFD_REF, &c->slots[slot].flags);
}

/*
 * Return: the claimed slot, VFD_NO_SLOT if @lpn is absent, or VFD_TRANSIT
 * if it is in transit (the caller waits, retries).
 */
static u32 vfd_claim_invalidate(struct vflash_cache *c, u64 lpn, u32 *w)
{
	u32 slot = VFD_TRANSIT;
	struct vfd_slot *s;

	*w = atomic_read_acquire(&c->state[lpn]);
	switch (vfd_state(*w)) {
	case VFLASH_PAGE_ABSENT:
		return VFD_NO_SLOT;
	case VFLASH_PAGE_LOADING:
	case VFLASH_PAGE_EVICTING:
		return VFD_TRANSIT;
	case VFLASH_PAGE_RESIDENT:
		break;
	}
	s = &c->slots[vfd_slot_of(*w)];
	spin_lock(&c->policy_lock);
	/* Not listed yet: its fill is about to list it. */
	if (test_bit(VFD_LISTED, &s->flags) &&
	    atomic_cmpxchg(&c->state[lpn], *w,
			   vfd_word(VFLASH_PAGE_EVICTING, vfd_slot_of(*w))) == *w) {
		slot = vfd_slot_of(*w);
		clear_bit(VFD_LISTED, &s->flags);
		if (test_bit(VFD_YOUNG, &s->flags)) {
			vfd_young_remove_locked(c, slot);
			vfd_set_count(c, slot, -1);
		} else if (c->ev_ops->remove(c->ev, slot) ||
			   (c->ev_old &&
			    c->ev_old_ops->remove(c->ev_old, slot) &&
			    c->ev_old_counted)) {
			vfd_set_count(c, slot, -1);
		}
	}
	spin_unlock(&c->policy_lock);
	return slot;
}

/*
 * Claims @lpn's page (RESIDENT -> EVICTING, out of the policy), waiting
 * out a fill or an eviction under way. Return: its slot, or VFD_NO_SLOT
 * if the page is not in the cache.
 */
static u32 vfd_claim_page(struct vflash_cache *c, u64 lpn)
{
	u32 slot, w;

	for (;;) {
		slot = vfd_claim_invalidate(c, lpn, &w);
		if (slot != VFD_TRANSIT)
			return slot;
		if (vfd_state(w) == VFLASH_PAGE_EVICTING)
			/* vfd_publish() pairs with the waiter's barrier. */
			wait_var_event(&c->state[lpn],
				       atomic_read(&c->state[lpn]) != w);
		else
			cond_resched();
	}
}

/**
 * vflash_cache_invalidate() - drop a page from the cache, unwritten
 * @c: the cache
 * @lpn: the page, below the device's size
 *
 * For a block Deallocate: no later eviction programs the page. A page in
 * transit is waited for first. Sleeps; the caller holds no cache pin.
 *
 * Return: whether the page was resident.
 */
bool vflash_cache_invalidate(struct vflash_cache *c, u64 lpn)
{
	const struct vflash_cache_host *h = c->p.host;
	struct vfd_slot *s;
	u32 slot;

	slot = vfd_claim_page(c, lpn);
	if (slot == VFD_NO_SLOT)
		return false;
	s = &c->slots[slot];
	/* Mappers and block accesses in flight; as vflash_cache_evict_one(). */
	while (atomic_read(&s->pins))
		cond_resched();
	/* No pin seen: every mapper's PTE is visible to the unmap now. */
	smp_mb();
	if (h && h->unmap)
		h->unmap(c->p.priv, lpn);
	vfd_count(c, VFLASH_CACHE_INVALIDATIONS);
	vfd_publish(c, lpn, vfd_word(VFLASH_PAGE_ABSENT, 0));
	vfd_put_free(c, slot);
	return true;
}

/**
 * vflash_cache_unmap() - drop the user's mappings of one page
 * @c: the cache
 * @lpn: logical page
 *
 * The page keeps its place and state in the cache. May sleep.
 */
void vflash_cache_unmap(struct vflash_cache *c, u64 lpn)
{
	const struct vflash_cache_host *h = c->p.host;

	if (h && h->unmap)
		h->unmap(c->p.priv, lpn);
}

/* Under policy_lock. */
static bool vfd_pick_locked(struct vflash_cache *c, u32 set, u32 *slot)
{
	if (!(c->ev_old && c->ev_old_counted &&
	      c->ev_old_ops->evict(c->ev_old, set, slot)) &&
	    !c->ev_ops->evict(c->ev, set, slot))
		return false;
	vfd_set_count(c, *slot, -1);
	return true;
}

/* Under policy_lock. */
static bool vfd_pick_over_locked(struct vflash_cache *c, u32 *slot)
{
	struct vfd_sets *sets = c->sets;
	u32 set, tries;

	for (tries = 0; tries < 64; tries++) {
		set = find_next_bit(sets->over, sets->nr_sets, sets->trim_hand);
		if (set >= sets->nr_sets)
			set = find_first_bit(sets->over, sets->nr_sets);
		if (set >= sets->nr_sets)
			return false;
		sets->trim_hand = set + 1 < sets->nr_sets ? set + 1 : 0;
		if (vfd_pick_locked(c, set, slot))
			return true;
	}
	return false;
}

/* Under policy_lock. */
static bool vfd_pick_any_locked(struct vflash_cache *c, u32 *slot)
{
	struct vfd_sets *sets = c->sets;
	u32 set, tries;

	for (tries = 0; tries < 64; tries++) {
		set = sets->trim_hand;
		sets->trim_hand = set + 1 < sets->nr_sets ? set + 1 : 0;
		if (vfd_pick_locked(c, set, slot))
			return true;
	}
	return false;
}

/* Under policy_lock. */
static bool vfd_claim_victim_locked(struct vflash_cache *c, u32 slot)
{
	struct vfd_slot *s = &c->slots[slot];
	u32 w = vfd_word(VFLASH_PAGE_RESIDENT, slot);

	/*
	 * Claimed under policy_lock, so an invalidation never takes the page
	 * between the choice and the claim. A non-resident victim (a bug)
	 * goes back to the policy rather than leave the cache for good.
	 */
	if (atomic_cmpxchg(&c->state[s->lpn], w,
			   vfd_word(VFLASH_PAGE_EVICTING, slot)) != w) {
		c->ev_ops->insert(c->ev, slot, s->lpn);
		vfd_set_count(c, slot, 1);
		return false;
	}
	clear_bit(VFD_LISTED, &s->flags);
	return true;
}

/*
 * Claims a victim (RESIDENT -> EVICTING) under policy_lock. @lpn: a
 * missing page, whose full set gives the victim; U64_MAX: any victim of
 * vflash_cache_evict_one(); VFD_ANY_SET: one of a set over its capacity,
 * else of any set. Return: the victim's slot, or VFD_NO_SLOT.
 */
static u32 vfd_choose(struct vflash_cache *c, u64 lpn, bool *conflict)
{
	struct vfd_sets *sets;
	u32 slot, set;
	bool ok;

	spin_lock(&c->policy_lock);
	sets = c->sets;
	if (lpn == VFD_ANY_SET) {
		ok = sets && (vfd_pick_over_locked(c, &slot) ||
			      vfd_pick_any_locked(c, &slot));
	} else if (lpn != U64_MAX) {
		ok = false;
		if (sets) {
			set = vflash_set_of(lpn, sets->nr_sets);
			ok = sets->used[set] >= vfd_capacity(c, set) &&
			     vfd_pick_locked(c, set, &slot);
			if (ok && READ_ONCE(c->nr_free))
				*conflict = true;
		}
	} else if (!sets) {
		ok = vfd_pick_locked(c, 0, &slot);
	} else {
		ok = vfd_pick_over_locked(c, &slot);
	}
	if (!ok) {
		spin_unlock(&c->policy_lock);
		return VFD_NO_SLOT;
	}
	ok = vfd_claim_victim_locked(c, slot);
	spin_unlock(&c->policy_lock);
	if (WARN_ON_ONCE(!ok))
		return VFD_NO_SLOT;
	return slot;
}

static void vfd_evict_slot(struct vflash_cache *c, u32 slot)
{
	const struct vflash_cache_host *h = c->p.host;
	struct vfd_slot *s = &c->slots[slot];
	u32 dev = vflash_flash_id(c->f);
	bool dirty;

	/*
	 * Microseconds, unless a mapper sleeps allocating a page table, or a
	 * loader pushed out of the young ring waits for its NAND read.
	 */
	while (atomic_read(&s->pins))
		cond_resched();
	/* No pin seen: every mapper's PTE and dirty bit are visible now. */
	smp_mb();
	if (h && h->unmap)
		h->unmap(c->p.priv, s->lpn);
	dirty = test_bit(VFD_DIRTY, &s->flags);
	trace_vflash_cxl_evict(dev, s->lpn, slot, dirty);
	if (dirty) {
		u64 now = vfd_now(c), due;

		due = vflash_flash_submit_from(c->f, VFLASH_FE_CXL,
					       VFLASH_IO_WRITE, s->lpn, 1, now);
		trace_vflash_cxl_writeback(dev, s->lpn, now, due);
		vfd_count(c, VFLASH_CACHE_DIRTY_WRITEBACKS);
		if (h && h->written_back)
			h->written_back(c->p.priv, s->lpn);
	}
	vfd_count(c, VFLASH_CACHE_EVICTIONS);
	vfd_publish(c, s->lpn, vfd_word(VFLASH_PAGE_ABSENT, 0));
	vfd_put_free(c, slot);
}

/**
 * vflash_cache_evict_one() - evict the page the eviction policy chooses
 * @c: the cache
 *
 * Set-associative, only a set holding more than its ways gives a victim.
 *
 * Return: whether a page was evicted (false: nothing is evictable).
 */
bool vflash_cache_evict_one(struct vflash_cache *c)
{
	u32 slot = vfd_choose(c, U64_MAX, NULL);

	if (slot == VFD_NO_SLOT)
		return false;
	vfd_evict_slot(c, slot);
	return true;
}

/**
 * vflash_cache_flush() - evict every resident page, dirty ones written back
 * @c: the cache; no user maps its pages any more (a device being held)
 *
 * A clean shutdown: the flash model is charged each dirty page's write,
 * as an eviction would charge it. May sleep.
 *
 * Return: the pages evicted.
 */
u32 vflash_cache_flush(struct vflash_cache *c)
{
	u32 slot, n = 0;

	for (slot = 0; slot < c->p.nr_slots; slot++) {
		u64 lpn = READ_ONCE(c->slots[slot].lpn);
		u32 w, claimed;

		if (lpn >= c->p.nr_pages)
			continue;
		w = atomic_read(&c->state[lpn]);
		if (vfd_state(w) != VFLASH_PAGE_RESIDENT ||
		    vfd_slot_of(w) != slot)
			continue;
		claimed = vfd_claim_page(c, lpn);
		if (claimed == VFD_NO_SLOT)
			continue;
		vfd_evict_slot(c, claimed);
		n++;
		cond_resched();
	}
	return n;
}

/**
 * vflash_cache_reclaim() - evict until the high watermark of free slots
 * @c: the cache
 *
 * Return: the number of pages evicted.
 */
u32 vflash_cache_reclaim(struct vflash_cache *c)
{
	u32 n = 0;

	while (READ_ONCE(c->nr_free) < READ_ONCE(c->free_high) &&
	       vflash_cache_evict_one(c))
		n++;
	return n;
}

/**
 * vflash_cache_needs_sampling() - whether the policy uses references
 * @c: the cache
 *
 * Return: true if vflash_cache_sample() has anything to do.
 */
bool vflash_cache_needs_sampling(struct vflash_cache *c)
{
	const struct vflash_cache_host *h = c->p.host;

	return h && h->test_clear_young && READ_ONCE(c->ev_ops)->uses_referenced;
}

static void vfd_sample_slot(struct vflash_cache *c, u32 slot)
{
	struct vfd_slot *s = &c->slots[slot];
	u32 gen = READ_ONCE(s->gen);
	u64 lpn = READ_ONCE(s->lpn);
	bool young;

	if (lpn >= c->p.nr_pages ||
	    atomic_read(&c->state[lpn]) != vfd_word(VFLASH_PAGE_RESIDENT, slot))
		return;
	/* Pinned, the slot cannot be refilled while its flags are read. */
	atomic_inc(&s->pins);
	/* Pin before re-reading; see vflash_cache_evict_one(). */
	smp_mb__after_atomic();
	if (atomic_read(&c->state[lpn]) != vfd_word(VFLASH_PAGE_RESIDENT, slot) ||
	    READ_ONCE(s->gen) != gen)
		goto unpin;
	young = c->p.host->test_clear_young(c->p.priv, lpn);
	if (test_and_clear_bit(VFD_FRESH, &s->flags) || !young)
		goto unpin;
	vfd_reference(c, slot);
unpin:
	/* Our reads are done before the evictor may see no pin. */
	smp_mb__before_atomic();
	atomic_dec(&s->pins);
}

/**
 * vflash_cache_sample() - report the pages accessed since they were last
 *	sampled
 * @c: the cache
 * @budget: the most slots to look at in this call
 *
 * Costs O(@budget) whatever the cache's size. The first answer after a
 * fill is discarded: the faulting access itself set it. Callers serialise.
 *
 * Return: the number of slots looked at.
 */
u32 vflash_cache_sample(struct vflash_cache *c, u32 budget)
{
	u32 slot = c->sample_hand, n;

	if (!vflash_cache_needs_sampling(c))
		return 0;
	budget = min(budget, c->p.nr_slots);
	for (n = 0; n < budget; n++) {
		if (!(n % 1024))
			cond_resched();
		vfd_sample_slot(c, slot);
		if (++slot == c->p.nr_slots)
			slot = 0;
	}
	c->sample_hand = slot;
	return budget;
}

/**
 * vflash_cache_set_watermarks() - the free-slot pool's watermarks
 * @c: the cache
 * @low: below this many free slots, the user is kicked
 * @high: reclaim stops here
 *
 * Return: 0, or -EINVAL (nothing changed) unless low <= high and the pool
 * leaves room for the young ring.
 */
int vflash_cache_set_watermarks(struct vflash_cache *c, u32 low, u32 high)
{
	if (low > high || high + c->p.young + 2 > c->p.nr_slots)
		return -EINVAL;
	WRITE_ONCE(c->free_low, low);
	WRITE_ONCE(c->free_high, high);
	return 0;
}

/* Frees @old when drained; @count: @old had another geometry. */
static void vfd_drain_old(struct vflash_cache *c,
			  const struct vflash_eviction_ops *old_ops, void *old,
			  u32 old_nr_sets, bool count)
{
	bool moved = false, done = false;
	u32 set = 0, slot, n;

	do {
		spin_lock(&c->policy_lock);
		for (n = 0; n < VFD_SWITCH_BATCH && !done; n++) {
			if (old_ops->evict(old, set, &slot)) {
				c->ev_ops->insert(c->ev, slot,
						  c->slots[slot].lpn);
				if (count)
					vfd_set_count(c, slot, 1);
				moved = true;
			}
			if (++set == old_nr_sets) {
				set = 0;
				done = !moved;
				moved = false;
			}
		}
		if (done) {
			c->ev_old = NULL;
			c->ev_old_ops = NULL;
		}
		spin_unlock(&c->policy_lock);
		cond_resched();
	} while (!done);
	old_ops->free(old);
}

static u32 vfd_nr_sets_locked(struct vflash_cache *c)
{
	return c->sets ? c->sets->nr_sets : 1;
}

/**
 * vflash_cache_set_eviction() - switch the eviction policy
 * @c: the cache
 * @pol: an eviction policy
 *
 * The resident pages move in the old policy's eviction order, in batches,
 * so policy_lock is never held long; safe under load. Callers serialise
 * switches (struct vflash_cache_ctl's lock).
 *
 * Return: 0, -EINVAL for a policy of another kind, -ENOMEM (nothing
 * changed).
 */
int vflash_cache_set_eviction(struct vflash_cache *c,
			      const struct vflash_policy *pol)
{
	const struct vflash_eviction_ops *ops, *old_ops;
	u32 nr_sets;
	void *ev, *old;

	if (!pol || pol->kind != VFLASH_POLICY_EVICTION)
		return -EINVAL;
	ops = pol->ops;
	/* Switches are serialised: the geometry cannot change meanwhile. */
	nr_sets = vflash_cache_nr_sets(c);
	ev = ops->alloc(c->p.nr_slots, nr_sets, c->p.seed, GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	spin_lock(&c->policy_lock);
	old_ops = c->ev_ops;
	old = c->ev;
	c->ev_old_ops = old_ops;
	c->ev_old = old;
	c->ev_old_counted = true;
	WRITE_ONCE(c->ev_ops, ops);
	c->ev = ev;
	spin_unlock(&c->policy_lock);
	vfd_drain_old(c, old_ops, old, nr_sets, false);
	return 0;
}

/**
 * vflash_cache_set_ways() - switch the cache's associativity
 * @c: the cache
 * @ways: 0 (fully associative), 1 (direct-mapped), 2, 4, 8 or 16
 *
 * No page is evicted by the switch; a set left beyond its capacity is
 * trimmed later. Safe under load. Callers serialise switches (struct
 * vflash_cache_ctl's lock).
 *
 * Return: 0, -EINVAL for another @ways, -ENOMEM (nothing changed).
 */
int vflash_cache_set_ways(struct vflash_cache *c, u32 ways)
{
	const struct vflash_eviction_ops *ops;
	struct vfd_sets *sets = NULL, *old_sets;
	u32 nr_sets, old_nr_sets, i;
	void *ev, *old;

	if (ways > VFLASH_CACHE_MAX_WAYS || (ways && !is_power_of_2(ways)))
		return -EINVAL;
	nr_sets = vflash_set_nr(c->p.nr_slots, ways);
	old_nr_sets = vflash_cache_nr_sets(c);
	if (nr_sets == old_nr_sets) {
		spin_lock(&c->policy_lock);
		if (c->sets)
			c->sets->ways = ways;
		spin_unlock(&c->policy_lock);
		return 0;
	}
	if (nr_sets > 1) {
		sets = vfd_sets_alloc(nr_sets, ways);
		if (!sets)
			return -ENOMEM;
	}
	ops = READ_ONCE(c->ev_ops);
	ev = ops->alloc(c->p.nr_slots, nr_sets, c->p.seed, GFP_KERNEL);
	if (!ev) {
		vfd_sets_free(sets);
		return -ENOMEM;
	}
	spin_lock(&c->policy_lock);
	old_sets = c->sets;
	old = c->ev;
	c->ev_old_ops = ops;
	c->ev_old = old;
	c->ev_old_counted = false;
	c->ev = ev;
	WRITE_ONCE(c->sets, sets);
	WRITE_ONCE(c->nr_over, 0);
	/* The young ring's pages, listed but in no instance: count them. */
	for (i = 0; i < c->young_len; i++)
		vfd_set_count(c, c->young_ring[(c->young_head + i) %
					      c->p.young], 1);
	spin_unlock(&c->policy_lock);
	vfd_drain_old(c, ops, old, old_nr_sets, true);
	vfd_sets_free(old_sets);
	return 0;
}

/**
 * vflash_cache_nr_sets() - the cache's sets
 * @c: the cache
 *
 * Return: its number of sets, 1 when fully associative.
 */
u32 vflash_cache_nr_sets(struct vflash_cache *c)
{
	u32 n;

	spin_lock(&c->policy_lock);
	n = vfd_nr_sets_locked(c);
	spin_unlock(&c->policy_lock);
	return n;
}

/**
 * vflash_cache_set_used() - pages of a set, for tests and debugging
 * @c: the cache
 * @set: a set
 *
 * Return: the pages of @set listed (0 for a set the cache does not have).
 */
u32 vflash_cache_set_used(struct vflash_cache *c, u32 set)
{
	u32 n = 0;

	spin_lock(&c->policy_lock);
	if (c->sets && set < c->sets->nr_sets)
		n = c->sets->used[set];
	spin_unlock(&c->policy_lock);
	return n;
}

/**
 * vflash_cache_set_prefetch() - switch the prefetch policy
 * @c: the cache
 * @pol: a prefetch policy
 *
 * Return: 0, -EINVAL for a policy of another kind, -ENOMEM (nothing
 * changed).
 */
int vflash_cache_set_prefetch(struct vflash_cache *c,
			      const struct vflash_policy *pol)
{
	const struct vflash_prefetch_ops *ops, *old_ops;
	void *pf = NULL, *old;

	if (!pol || pol->kind != VFLASH_POLICY_PREFETCH)
		return -EINVAL;
	ops = pol->ops;
	if (ops->alloc) {
		pf = ops->alloc(GFP_KERNEL);
		if (!pf)
			return -ENOMEM;
	}
	spin_lock(&c->pf_lock);
	old_ops = c->pf_ops;
	old = c->pf;
	WRITE_ONCE(c->pf_ops, ops);
	c->pf = pf;
	spin_unlock(&c->pf_lock);
	if (old_ops && old_ops->free)
		old_ops->free(old);
	return 0;
}

/**
 * vflash_cache_set_prefetch_degree() - pages a prefetch may propose
 * @c: the cache
 * @degree: 0 .. VFLASH_PREFETCH_MAX (larger values are capped)
 */
void vflash_cache_set_prefetch_degree(struct vflash_cache *c, u32 degree)
{
	WRITE_ONCE(c->pf_degree, min_t(u32, degree, VFLASH_PREFETCH_MAX));
}

/**
 * vflash_cache_page_state() - a page's state, for tests and debugging
 * @c: the cache
 * @lpn: the page
 *
 * Return: its state at the time of the call.
 */
enum vflash_cache_page vflash_cache_page_state(struct vflash_cache *c,
					       u64 lpn)
{
	return vfd_state(atomic_read(&c->state[lpn]));
}

/**
 * vflash_cache_stat() - a counter
 * @c: the cache
 * @stat: which
 *
 * Return: its value.
 */
u64 vflash_cache_stat(struct vflash_cache *c, enum vflash_cache_stat stat)
{
	u64 sum = 0;
	int cpu;

	if (stat >= VFLASH_CACHE_STAT_NR)
		return 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(c->stats, cpu)->v[stat]);
	return sum;
}

/**
 * vflash_cache_nr_free() - free slots
 * @c: the cache
 *
 * Return: slots in the free pool.
 */
u32 vflash_cache_nr_free(struct vflash_cache *c)
{
	return READ_ONCE(c->nr_free);
}

/**
 * vflash_cache_nr_slots() - the cache's size
 * @c: the cache
 *
 * Return: its slots.
 */
u32 vflash_cache_nr_slots(struct vflash_cache *c)
{
	return c->p.nr_slots;
}

/**
 * vflash_cache_reset_stats() - zero the counters
 * @c: the cache
 *
 * An increment racing with the reset may be lost or kept.
 */
void vflash_cache_reset_stats(struct vflash_cache *c)
{
	int cpu, i;

	for_each_possible_cpu(cpu)
		for (i = 0; i < VFLASH_CACHE_STAT_NR; i++)
			WRITE_ONCE(per_cpu_ptr(c->stats, cpu)->v[i], 0);
}

/**
 * vflash_cache_resident() - slots in use
 * @c: the cache
 *
 * Return: the slots not in the free pool (resident, loading or evicting).
 */
u32 vflash_cache_resident(struct vflash_cache *c)
{
	return c->p.nr_slots - READ_ONCE(c->nr_free);
}

/**
 * vflash_cache_destroy() - free a cache
 * @c: the cache, or NULL; nobody may use it any more
 */
void vflash_cache_destroy(struct vflash_cache *c)
{
	if (!c)
		return;
	if (c->ev)
		c->ev_ops->free(c->ev);
	vfd_sets_free(c->sets);
	if (c->pf_ops && c->pf_ops->free)
		c->pf_ops->free(c->pf);
	kvfree(c->young_ring);
	kvfree(c->free);
	kvfree(c->slots);
	kvfree(c->state);
	free_percpu(c->stats);
	kfree(c);
}

/**
 * vflash_cache_create() - an empty cache with the default policies
 * @f: the backend that times its reads and writebacks
 * @p: its shape; @p->host and @p->priv must outlive it
 *
 * Return: the cache, ERR_PTR(-EINVAL) for an impossible shape, or
 * ERR_PTR(-ENOMEM).
 */
struct vflash_cache *vflash_cache_create(struct vflash_flash *f,
					 const struct vflash_cache_params *p)
{
	const struct vflash_policy *ev_pol, *pf_pol;
	struct vflash_cache *c;
	u32 i, low, high;
	int ret = -ENOMEM;

	ev_pol = vflash_policy_default(VFLASH_POLICY_EVICTION);
	pf_pol = vflash_policy_default(VFLASH_POLICY_PREFETCH);
	if (!ev_pol || !pf_pol || !p->nr_pages || p->nr_pages > U32_MAX + 1ULL ||
	    p->nr_slots > VFD_MAX_SLOTS || p->nr_slots > p->nr_pages ||
	    p->nr_slots < p->young + 4)
		return ERR_PTR(-EINVAL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->f = f;
	c->p = *p;
	spin_lock_init(&c->free_lock);
	spin_lock_init(&c->policy_lock);
	spin_lock_init(&c->pf_lock);
	c->state = kvcalloc(p->nr_pages, sizeof(*c->state), GFP_KERNEL);
	c->slots = kvcalloc(p->nr_slots, sizeof(*c->slots), GFP_KERNEL);
	c->free = kvmalloc_array(p->nr_slots, sizeof(*c->free), GFP_KERNEL);
	c->young_ring = kvmalloc_array(max(p->young, 1U),
				       sizeof(*c->young_ring), GFP_KERNEL);
	c->stats = alloc_percpu(struct vfd_stats);
	if (!c->state || !c->slots || !c->free || !c->young_ring || !c->stats)
		goto err;
	for (i = 0; i < p->nr_slots; i++) {
		c->slots[i].lpn = U64_MAX;
		/* Popped from the top: slot 0 first. */
		c->free[i] = p->nr_slots - 1 - i;
	}
	c->nr_free = p->nr_slots;
	c->ev_ops = ev_pol->ops;
	c->ev = c->ev_ops->alloc(p->nr_slots, 1, p->seed, GFP_KERNEL);
	if (!c->ev)
		goto err;
	ret = vflash_cache_set_prefetch(c, pf_pol);
	if (ret)
		goto err;
	c->pf_degree = 4;
	high = max(p->nr_slots * 3 / 100, 2U);
	low = max(p->nr_slots / 100, 1U);
	ret = vflash_cache_set_watermarks(c, low, high);
	if (ret)
		ret = vflash_cache_set_watermarks(c, 0, 0);
	if (ret)
		goto err;
	return c;
err:
	vflash_cache_destroy(c);
	return ERR_PTR(ret);
}
