// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction policies of the device DRAM cache. An instance's queues are per
 * set (policy/sets.h); a slot remembers the set of the page it was inserted
 * with.
 */
#include <linux/bug.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "policy/builtin.h"
#include "policy/sets.h"
#include "policy/slotq.h"

enum {
	EV_OUT,		/* not in the instance */
	EV_MAIN,	/* q[EV_Q_MAIN]: the only queue, or s3fifo's main */
	EV_SMALL,	/* q[EV_Q_SMALL]: s3fifo's small queue */
	EV_IN_SET,	/* random: in set[] */
};

enum { EV_Q_MAIN, EV_Q_SMALL, EV_NR_Q };

/* s3fifo: saturating access frequency, and the share of the small queue. */
#define S3FIFO_FREQ_MAX		3
#define S3FIFO_SMALL_PCT	10
#define GHOST_EMPTY		U64_MAX

/**
 * struct ghost - s3fifo's ghost queue: the logical pages most recently
 *	evicted from the small queue, without their data
 * @cap: entries in the ring; the oldest is forgotten when it is full
 * @hand: next ring entry to overwrite
 * @lpn: the ring, GHOST_EMPTY where unused
 * @chain: next entry in the same hash bucket, or VFLASH_SLOT_NONE
 * @bucket: first entry of each bucket, or VFLASH_SLOT_NONE
 * @bits: log2 of the number of buckets
 */
struct ghost {
	u32 cap;
	u32 hand;
	u64 *lpn;
	u32 *chain;
	u32 *bucket;
	unsigned int bits;
};

/**
 * struct ev - one instance of an eviction policy
 * @nr_slots: slots of the cache
 * @nr_sets: sets of the cache (1: fully associative)
 * @where: per slot, EV_OUT, EV_MAIN, EV_SMALL or EV_IN_SET
 * @ref: per slot, clock's referenced bit or s3fifo's frequency
 * @link: per slot, its neighbours in its queue
 * @setof: per slot, its set; NULL with one set
 * @q: the queues, EV_NR_Q per set
 * @lpn: s3fifo: per slot, the logical page it holds
 * @small_target: s3fifo: the small queue's share of one set's slots
 * @ghost: s3fifo's ghost queue (one for all sets: it is keyed by page)
 * @set: random, one set: the slots in the instance, in no order
 * @pos: random, one set: per slot, its index in @set
 * @set_len: random, one set: entries in @set
 * @rng: random: generator state
 */
struct ev {
	u32 nr_slots;
	u32 nr_sets;
	u8 *where;
	u8 *ref;
	struct vflash_slot_link *link;
	u32 *setof;
	struct vflash_slotq *q;
	u64 *lpn;
	u32 small_target;
	struct ghost ghost;
	u32 *set;
	u32 *pos;
	u32 set_len;
	u64 rng;
};

enum {
	EV_NEED_LINK = BIT(0),
	EV_NEED_REF = BIT(1),
	EV_NEED_S3 = BIT(2),
	EV_NEED_SET = BIT(3),
};

static void ev_free(void *st)
{
	struct ev *ev = st;

	if (!ev)
		return;
	kvfree(ev->where);
	kvfree(ev->ref);
	kvfree(ev->link);
	kvfree(ev->setof);
	kvfree(ev->q);
	kvfree(ev->lpn);
	kvfree(ev->ghost.lpn);
	kvfree(ev->ghost.chain);
	kvfree(ev->ghost.bucket);
	kvfree(ev->set);
	kvfree(ev->pos);
	kfree(ev);
}

static int ghost_init(struct ghost *g, u32 cap, gfp_t gfp)
{
	u32 i, nr_buckets;

	g->cap = max(cap, 1U);
	g->bits = order_base_2(g->cap);
	nr_buckets = 1U << g->bits;
	g->hand = 0;
	g->lpn = kvmalloc_array(g->cap, sizeof(*g->lpn), gfp);
	g->chain = kvmalloc_array(g->cap, sizeof(*g->chain), gfp);
	g->bucket = kvmalloc_array(nr_buckets, sizeof(*g->bucket), gfp);
	if (!g->lpn || !g->chain || !g->bucket)
		return -ENOMEM;
	for (i = 0; i < g->cap; i++)
		g->lpn[i] = GHOST_EMPTY;
	for (i = 0; i < nr_buckets; i++)
		g->bucket[i] = VFLASH_SLOT_NONE;
	return 0;
}

static void *ev_alloc(u32 nr_slots, u32 nr_sets, u64 seed, gfp_t gfp,
		      unsigned int need)
{
	struct ev *ev;
	u32 i;

	if (!nr_slots || nr_slots == VFLASH_SLOT_NONE || !nr_sets ||
	    nr_sets > nr_slots)
		return NULL;
	ev = kzalloc(sizeof(*ev), gfp);
	if (!ev)
		return NULL;
	ev->nr_slots = nr_slots;
	ev->nr_sets = nr_sets;
	ev->q = kvmalloc_array((size_t)nr_sets * EV_NR_Q, sizeof(*ev->q), gfp);
	if (!ev->q)
		goto err;
	for (i = 0; i < nr_sets * EV_NR_Q; i++)
		vflash_slotq_init(&ev->q[i]);
	if (nr_sets > 1) {
		ev->setof = kvmalloc_array(nr_slots, sizeof(*ev->setof), gfp);
		if (!ev->setof)
			goto err;
	}
	ev->where = kvcalloc(nr_slots, sizeof(*ev->where), gfp);
	if (!ev->where)
		goto err;
	if (need & EV_NEED_LINK) {
		ev->link = kvmalloc_array(nr_slots, sizeof(*ev->link), gfp);
		if (!ev->link)
			goto err;
	}
	if (need & EV_NEED_REF) {
		ev->ref = kvcalloc(nr_slots, sizeof(*ev->ref), gfp);
		if (!ev->ref)
			goto err;
	}
	if (need & EV_NEED_S3) {
		ev->small_target =
			max(vflash_set_capacity(nr_slots, nr_sets, 0) /
			    (100 / S3FIFO_SMALL_PCT), 1U);
		ev->lpn = kvmalloc_array(nr_slots, sizeof(*ev->lpn), gfp);
		/* The ghost remembers as many pages as the main queue holds. */
		if (!ev->lpn ||
		    ghost_init(&ev->ghost, nr_slots -
			       min(ev->small_target * nr_sets, nr_slots - 1),
			       gfp))
			goto err;
	}
	if ((need & EV_NEED_SET) && nr_sets == 1) {
		ev->set = kvmalloc_array(nr_slots, sizeof(*ev->set), gfp);
		ev->pos = kvmalloc_array(nr_slots, sizeof(*ev->pos), gfp);
		if (!ev->set || !ev->pos)
			goto err;
	}
	return ev;
err:
	ev_free(ev);
	return NULL;
}

static bool ev_can_insert(struct ev *ev, u32 slot)
{
	return !WARN_ON_ONCE(slot >= ev->nr_slots || ev->where[slot] != EV_OUT);
}

static bool ev_has(struct ev *ev, u32 slot)
{
	return slot < ev->nr_slots && ev->where[slot] != EV_OUT;
}

static struct vflash_slotq *ev_q(struct ev *ev, u32 set, unsigned int q)
{
	return &ev->q[set * EV_NR_Q + q];
}

static u32 ev_set(struct ev *ev, u32 slot)
{
	return ev->setof ? ev->setof[slot] : 0;
}

static void ev_enter(struct ev *ev, u32 slot, u64 lpn)
{
	if (ev->setof)
		ev->setof[slot] = vflash_set_of(lpn, ev->nr_sets);
}

static void q_insert(struct ev *ev, u32 slot, unsigned int q, u8 where)
{
	vflash_slotq_push(ev_q(ev, ev_set(ev, slot), q), ev->link, slot);
	ev->where[slot] = where;
}

static u32 q_pop_head(struct ev *ev, u32 set, unsigned int q)
{
	u32 slot = vflash_slotq_pop_head(ev_q(ev, set, q), ev->link);

	if (slot != VFLASH_SLOT_NONE)
		ev->where[slot] = EV_OUT;
	return slot;
}

static unsigned int q_of(struct ev *ev, u32 slot)
{
	return ev->where[slot] == EV_SMALL ? EV_Q_SMALL : EV_Q_MAIN;
}

/* Queue policies (fifo, lifo, clock, lru): one queue, oldest at the head. */

static void *queue_alloc(u32 nr_slots, u32 nr_sets, u64 seed, gfp_t gfp)
{
	return ev_alloc(nr_slots, nr_sets, seed, gfp,
			EV_NEED_LINK | EV_NEED_REF);
}

static void queue_insert(void *st, u32 slot, u64 lpn)
{
	struct ev *ev = st;

	if (!ev_can_insert(ev, slot))
		return;
	ev->ref[slot] = 0;
	ev_enter(ev, slot, lpn);
	q_insert(ev, slot, EV_Q_MAIN, EV_MAIN);
}

static bool queue_remove(void *st, u32 slot)
{
	struct ev *ev = st;

	if (!ev_has(ev, slot))
		return false;
	vflash_slotq_del(ev_q(ev, ev_set(ev, slot), q_of(ev, slot)), ev->link,
			 slot);
	ev->where[slot] = EV_OUT;
	return true;
}

static bool ev_set_ok(struct ev *ev, u32 set)
{
	return !WARN_ON_ONCE(set >= ev->nr_sets);
}

static void ignore_access(void *st, u32 slot)
{
}

/* fifo: the page that entered first leaves first; references are ignored. */
static bool fifo_evict(void *st, u32 set, u32 *slot)
{
	if (!ev_set_ok(st, set))
		return false;
	*slot = q_pop_head(st, set, EV_Q_MAIN);
	return *slot != VFLASH_SLOT_NONE;
}

/* lifo: the page that entered last leaves first. */
static bool lifo_evict(void *st, u32 set, u32 *slot)
{
	struct ev *ev = st;

	if (!ev_set_ok(ev, set))
		return false;
	*slot = vflash_slotq_pop_tail(ev_q(ev, set, EV_Q_MAIN), ev->link);
	if (*slot == VFLASH_SLOT_NONE)
		return false;
	ev->where[*slot] = EV_OUT;
	return true;
}

/*
 * clock: FIFO with a second chance. Each requeue consumes one reported
 * reference, so eviction is amortised O(1).
 */
static void clock_access(void *st, u32 slot)
{
	struct ev *ev = st;

	if (ev_has(ev, slot))
		ev->ref[slot] = 1;
}

static bool clock_evict(void *st, u32 set, u32 *slot)
{
	struct ev *ev = st;
	u32 s;

	if (!ev_set_ok(ev, set))
		return false;
	while ((s = q_pop_head(ev, set, EV_Q_MAIN)) != VFLASH_SLOT_NONE) {
		if (!ev->ref[s]) {
			*slot = s;
			return true;
		}
		ev->ref[s] = 0;
		q_insert(ev, s, EV_Q_MAIN, EV_MAIN);
	}
	return false;
}

/* lru: a reference moves the page to the tail; the head is least recent. */
static void lru_access(void *st, u32 slot)
{
	struct ev *ev = st;

	struct vflash_slotq *q;

	if (!ev_has(ev, slot))
		return;
	q = ev_q(ev, ev_set(ev, slot), EV_Q_MAIN);
	vflash_slotq_del(q, ev->link, slot);
	vflash_slotq_push(q, ev->link, slot);
}

/*
 * s3fifo (Yang et al., SOSP'23): a small FIFO filters one-time scans, a
 * ghost queue remembers what it evicted, main is a FIFO with reinsertion.
 */
static u32 ghost_hash(struct ghost *g, u64 lpn)
{
	return g->bits ? hash_64(lpn, g->bits) : 0;
}

static void ghost_unlink(struct ghost *g, u32 e)
{
	u32 *p = &g->bucket[ghost_hash(g, g->lpn[e])];

	while (*p != e)
		p = &g->chain[*p];
	*p = g->chain[e];
	g->lpn[e] = GHOST_EMPTY;
}

static void ghost_add(struct ghost *g, u64 lpn)
{
	u32 e = g->hand, b;

	if (g->lpn[e] != GHOST_EMPTY)
		ghost_unlink(g, e);
	b = ghost_hash(g, lpn);
	g->lpn[e] = lpn;
	g->chain[e] = g->bucket[b];
	g->bucket[b] = e;
	g->hand = e + 1 == g->cap ? 0 : e + 1;
}

static bool ghost_take(struct ghost *g, u64 lpn)
{
	u32 e;

	for (e = g->bucket[ghost_hash(g, lpn)]; e != VFLASH_SLOT_NONE;
	     e = g->chain[e]) {
		if (g->lpn[e] == lpn) {
			ghost_unlink(g, e);
			return true;
		}
	}
	return false;
}

static void *s3fifo_alloc(u32 nr_slots, u32 nr_sets, u64 seed, gfp_t gfp)
{
	return ev_alloc(nr_slots, nr_sets, seed, gfp,
			EV_NEED_LINK | EV_NEED_REF | EV_NEED_S3);
}

static void s3fifo_insert(void *st, u32 slot, u64 lpn)
{
	struct ev *ev = st;

	if (!ev_can_insert(ev, slot))
		return;
	ev->ref[slot] = 0;
	ev->lpn[slot] = lpn;
	ev_enter(ev, slot, lpn);
	if (ghost_take(&ev->ghost, lpn))
		q_insert(ev, slot, EV_Q_MAIN, EV_MAIN);
	else
		q_insert(ev, slot, EV_Q_SMALL, EV_SMALL);
}

static void s3fifo_access(void *st, u32 slot)
{
	struct ev *ev = st;

	if (ev_has(ev, slot) && ev->ref[slot] < S3FIFO_FREQ_MAX)
		ev->ref[slot]++;
}

static bool s3fifo_evict(void *st, u32 set, u32 *slot)
{
	struct ev *ev = st;
	u32 s;

	if (!ev_set_ok(ev, set))
		return false;
	for (;;) {
		struct vflash_slotq *small = ev_q(ev, set, EV_Q_SMALL);

		if (small->len && (small->len >= ev->small_target ||
				   !ev_q(ev, set, EV_Q_MAIN)->len)) {
			s = q_pop_head(ev, set, EV_Q_SMALL);
			if (ev->ref[s]) {
				ev->ref[s] = 0;
				q_insert(ev, s, EV_Q_MAIN, EV_MAIN);
				continue;
			}
			ghost_add(&ev->ghost, ev->lpn[s]);
			*slot = s;
			return true;
		}
		s = q_pop_head(ev, set, EV_Q_MAIN);
		if (s == VFLASH_SLOT_NONE)
			return false;
		if (ev->ref[s]) {
			ev->ref[s]--;
			q_insert(ev, s, EV_Q_MAIN, EV_MAIN);
			continue;
		}
		*slot = s;
		return true;
	}
}

/*
 * random: a baseline. With several sets, each set is a list of about its
 * ways, walked to the drawn entry.
 */
static void *random_alloc(u32 nr_slots, u32 nr_sets, u64 seed, gfp_t gfp)
{
	struct ev *ev = ev_alloc(nr_slots, nr_sets, seed, gfp,
				 nr_sets > 1 ? EV_NEED_LINK : EV_NEED_SET);

	if (ev)
		ev->rng = seed;
	return ev;
}

static void random_insert(void *st, u32 slot, u64 lpn)
{
	struct ev *ev = st;

	if (!ev_can_insert(ev, slot))
		return;
	if (ev->nr_sets > 1) {
		ev_enter(ev, slot, lpn);
		q_insert(ev, slot, EV_Q_MAIN, EV_MAIN);
		return;
	}
	ev->pos[slot] = ev->set_len;
	ev->set[ev->set_len++] = slot;
	ev->where[slot] = EV_IN_SET;
}

static bool random_remove(void *st, u32 slot)
{
	struct ev *ev = st;
	u32 i, last;

	if (ev->nr_sets > 1)
		return queue_remove(st, slot);
	if (!ev_has(ev, slot))
		return false;
	i = ev->pos[slot];
	last = ev->set[--ev->set_len];
	ev->set[i] = last;
	ev->pos[last] = i;
	ev->where[slot] = EV_OUT;
	return true;
}

/* splitmix64: small, fast, and reproducible from the seed. */
static u64 random_next(struct ev *ev)
{
	u64 z = (ev->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u32 random_below(struct ev *ev, u32 n)
{
	return ((random_next(ev) >> 32) * n) >> 32;
}

static bool random_evict(void *st, u32 set, u32 *slot)
{
	struct ev *ev = st;
	struct vflash_slotq *q;
	u32 s, i;

	if (!ev_set_ok(ev, set))
		return false;
	if (ev->nr_sets == 1) {
		if (!ev->set_len)
			return false;
		*slot = ev->set[random_below(ev, ev->set_len)];
		random_remove(ev, *slot);
		return true;
	}
	q = ev_q(ev, set, EV_Q_MAIN);
	if (!q->len)
		return false;
	s = q->head;
	for (i = random_below(ev, q->len); i; i--)
		s = ev->link[s].next;
	queue_remove(ev, s);
	*slot = s;
	return true;
}

static const struct vflash_eviction_ops fifo_ops = {
	.alloc = queue_alloc, .free = ev_free, .insert = queue_insert,
	.access = ignore_access, .remove = queue_remove, .evict = fifo_evict,
};

static const struct vflash_eviction_ops lifo_ops = {
	.alloc = queue_alloc, .free = ev_free, .insert = queue_insert,
	.access = ignore_access, .remove = queue_remove, .evict = lifo_evict,
};

static const struct vflash_eviction_ops clock_ops = {
	.uses_referenced = true,
	.alloc = queue_alloc, .free = ev_free, .insert = queue_insert,
	.access = clock_access, .remove = queue_remove, .evict = clock_evict,
};

static const struct vflash_eviction_ops lru_ops = {
	.uses_referenced = true,
	.alloc = queue_alloc, .free = ev_free, .insert = queue_insert,
	.access = lru_access, .remove = queue_remove, .evict = fifo_evict,
};

static const struct vflash_eviction_ops s3fifo_ops = {
	.uses_referenced = true,
	.alloc = s3fifo_alloc, .free = ev_free, .insert = s3fifo_insert,
	.access = s3fifo_access, .remove = queue_remove,
	.evict = s3fifo_evict,
};

static const struct vflash_eviction_ops random_ops = {
	.alloc = random_alloc, .free = ev_free, .insert = random_insert,
	.access = ignore_access, .remove = random_remove,
	.evict = random_evict,
};

struct vflash_policy vflash_eviction_policies[VFLASH_NR_EVICTION_POLICIES] = {
	{ .name = "fifo", .kind = VFLASH_POLICY_EVICTION, .ops = &fifo_ops },
	{ .name = "lifo", .kind = VFLASH_POLICY_EVICTION, .ops = &lifo_ops },
	{ .name = "clock", .kind = VFLASH_POLICY_EVICTION, .ops = &clock_ops },
	{ .name = "lru", .kind = VFLASH_POLICY_EVICTION, .ops = &lru_ops },
	{ .name = "s3fifo", .kind = VFLASH_POLICY_EVICTION,
	  .ops = &s3fifo_ops },
	{ .name = "random", .kind = VFLASH_POLICY_EVICTION,
	  .ops = &random_ops },
};
