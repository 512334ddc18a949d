// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the eviction policies (policy/eviction.c) on crafted
 * traces: the policies alone, and driven by a small simulated cache.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "core/compat.h"
#include "policy/policy.h"
#include "policy/sets.h"

static const struct vflash_eviction_ops *ops_of(struct kunit *test,
						const char *name)
{
	const struct vflash_policy *p =
		vflash_policy_find(VFLASH_POLICY_EVICTION, name);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p->ops;
}

/* An instance that KUnit frees at the end of the test. */
struct inst {
	const struct vflash_eviction_ops *ops;
	void *st;
};

static int inst_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void inst_free(struct kunit_resource *res)
{
	struct inst *in = res->data;

	in->ops->free(in->st);
}

static struct inst *mk_sets(struct kunit *test, const char *name,
			    u32 nr_slots, u32 nr_sets)
{
	struct inst *in = kunit_kzalloc(test, sizeof(*in), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, in);
	in->ops = ops_of(test, name);
	in->st = in->ops->alloc(nr_slots, nr_sets, 42, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in->st);
	if (!kunit_alloc_resource(test, inst_init, inst_free, GFP_KERNEL, in)) {
		in->ops->free(in->st);
		KUNIT_FAIL_AND_ABORT(test, "no memory for a KUnit resource");
	}
	return in;
}

static struct inst *mk(struct kunit *test, const char *name, u32 nr_slots)
{
	return mk_sets(test, name, nr_slots, 1);
}

static u32 victim(struct kunit *test, struct inst *in)
{
	u32 slot = 12345;

	KUNIT_EXPECT_TRUE(test, in->ops->evict(in->st, 0, &slot));
	return slot;
}

static void empty(struct kunit *test, struct inst *in)
{
	u32 slot;

	KUNIT_EXPECT_FALSE(test, in->ops->evict(in->st, 0, &slot));
}

static void fifo_and_lifo_order(struct kunit *test)
{
	struct inst *fifo = mk(test, "fifo", 8), *lifo = mk(test, "lifo", 8);
	static const u32 order[] = { 5, 1, 7, 0, 3 };
	int i;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		fifo->ops->insert(fifo->st, order[i], 100 + i);
		lifo->ops->insert(lifo->st, order[i], 100 + i);
	}
	/* References change nothing for either. */
	fifo->ops->access(fifo->st, 5);
	lifo->ops->access(lifo->st, 3);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		KUNIT_EXPECT_EQ(test, victim(test, fifo), order[i]);
		KUNIT_EXPECT_EQ(test, victim(test, lifo),
				order[ARRAY_SIZE(order) - 1 - i]);
	}
	empty(test, fifo);
	empty(test, lifo);

	/* Removal anywhere keeps the order of the rest. */
	for (i = 0; i < ARRAY_SIZE(order); i++)
		fifo->ops->insert(fifo->st, order[i], 100 + i);
	fifo->ops->remove(fifo->st, 7);
	fifo->ops->remove(fifo->st, 5);
	fifo->ops->remove(fifo->st, 5);	/* not in it: ignored */
	KUNIT_EXPECT_EQ(test, victim(test, fifo), 1U);
	KUNIT_EXPECT_EQ(test, victim(test, fifo), 0U);
	KUNIT_EXPECT_EQ(test, victim(test, fifo), 3U);
	empty(test, fifo);
}

static void clock_second_chance(struct kunit *test)
{
	struct inst *c = mk(test, "clock", 4);
	u32 s;

	KUNIT_EXPECT_TRUE(test, c->ops->uses_referenced);
	for (s = 0; s < 4; s++)
		c->ops->insert(c->st, s, s);
	c->ops->access(c->st, 0);
	c->ops->access(c->st, 2);
	/* 0 is referenced: it loses its bit and goes behind 3; 1 leaves. */
	KUNIT_EXPECT_EQ(test, victim(test, c), 1U);
	/* Queue: 2(ref) 3 0: 2 gets its second chance, 3 leaves. */
	KUNIT_EXPECT_EQ(test, victim(test, c), 3U);
	/* 0 and 2 used their chance: in queue order now. */
	KUNIT_EXPECT_EQ(test, victim(test, c), 0U);
	KUNIT_EXPECT_EQ(test, victim(test, c), 2U);
	empty(test, c);

	/* Everything referenced: one sweep clears the bits, then fifo. */
	for (s = 0; s < 4; s++) {
		c->ops->insert(c->st, s, s);
		c->ops->access(c->st, s);
	}
	KUNIT_EXPECT_EQ(test, victim(test, c), 0U);
	KUNIT_EXPECT_EQ(test, victim(test, c), 1U);
}

static void clock_without_references_is_fifo(struct kunit *test)
{
	struct inst *c = mk(test, "clock", 16), *f = mk(test, "fifo", 16);
	u32 s;

	for (s = 0; s < 16; s++) {
		c->ops->insert(c->st, (s * 7) % 16, s);
		f->ops->insert(f->st, (s * 7) % 16, s);
	}
	for (s = 0; s < 16; s++)
		KUNIT_EXPECT_EQ(test, victim(test, c), victim(test, f));
}

static void lru_recency(struct kunit *test)
{
	struct inst *l = mk(test, "lru", 8);
	u32 s;

	KUNIT_EXPECT_TRUE(test, l->ops->uses_referenced);
	for (s = 0; s < 5; s++)
		l->ops->insert(l->st, s, s);
	/* Recency order after these: 1 3 4 2 0 (least recent first). */
	l->ops->access(l->st, 2);
	l->ops->access(l->st, 0);
	l->ops->access(l->st, 7);	/* not in it: ignored */
	KUNIT_EXPECT_EQ(test, victim(test, l), 1U);
	l->ops->access(l->st, 3);
	KUNIT_EXPECT_EQ(test, victim(test, l), 4U);
	KUNIT_EXPECT_EQ(test, victim(test, l), 2U);
	KUNIT_EXPECT_EQ(test, victim(test, l), 0U);
	KUNIT_EXPECT_EQ(test, victim(test, l), 3U);
	empty(test, l);
}

static void random_stays_within_the_set(struct kunit *test)
{
	struct inst *r = mk(test, "random", 64);
	DECLARE_BITMAP(in, 64);
	u32 s, n = 0;
	u64 first[2];
	int round;

	KUNIT_EXPECT_FALSE(test, r->ops->uses_referenced);
	bitmap_zero(in, 64);
	for (s = 3; s < 64; s += 5) {
		r->ops->insert(r->st, s, s);
		__set_bit(s, in);
		n++;
	}
	r->ops->remove(r->st, 8);
	__clear_bit(8, in);
	n--;
	while (n--) {
		s = victim(test, r);
		KUNIT_ASSERT_LT(test, s, 64U);
		KUNIT_EXPECT_TRUE_MSG(test, test_bit(s, in), "slot %u", s);
		__clear_bit(s, in);
	}
	empty(test, r);

	/* Not just the insertion order: two instances, two seeds, differ. */
	for (round = 0; round < 2; round++) {
		void *st = r->ops->alloc(64, 1, round, GFP_KERNEL);
		u64 v = 0;
		u32 i;

		KUNIT_ASSERT_NOT_NULL(test, st);
		for (s = 0; s < 64; s++)
			r->ops->insert(st, s, s);
		for (i = 0; i < 8; i++) {
			KUNIT_EXPECT_TRUE(test, r->ops->evict(st, 0, &s));
			v = v * 64 + s;
		}
		first[round] = v;
		r->ops->free(st);
	}
	KUNIT_EXPECT_NE(test, first[0], first[1]);
}

/*
 * A simulated cache of nr_slots slots over pages 0 .. nr_pages - 1: a
 * reference to a resident page is reported with access(), a miss takes a
 * free slot or the policy's victim and inserts the page.
 */
struct sim {
	struct inst *in;
	u32 nr_slots, nr_pages, used;
	u32 *slot_of;	/* per page, or U32_MAX */
	u64 *page_of;	/* per slot */
	u32 misses;
	/* With sets: their number, resident pages per set, the last victim. */
	u32 nr_sets;
	u32 *in_set;
	u64 last_victim;
};

static struct sim *sim_mk_sets(struct kunit *test, const char *name,
			       u32 nr_slots, u32 nr_pages, u32 nr_sets)
{
	struct sim *sim = kunit_kzalloc(test, sizeof(*sim), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sim);
	sim->in = mk_sets(test, name, nr_slots, nr_sets);
	sim->nr_slots = nr_slots;
	sim->nr_pages = nr_pages;
	sim->nr_sets = nr_sets;
	sim->last_victim = U64_MAX;
	sim->in_set = kunit_kcalloc(test, nr_sets, sizeof(*sim->in_set),
				    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sim->in_set);
	sim->slot_of = kunit_kmalloc_array(test, nr_pages,
					   sizeof(*sim->slot_of), GFP_KERNEL);
	sim->page_of = kunit_kmalloc_array(test, nr_slots,
					   sizeof(*sim->page_of), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sim->slot_of);
	KUNIT_ASSERT_NOT_NULL(test, sim->page_of);
	for (i = 0; i < nr_pages; i++)
		sim->slot_of[i] = U32_MAX;
	return sim;
}

static struct sim *sim_mk(struct kunit *test, const char *name, u32 nr_slots,
			  u32 nr_pages)
{
	return sim_mk_sets(test, name, nr_slots, nr_pages, 1);
}

/*
 * A reference to @page: a miss takes a free slot while the page's set
 * is below its capacity (fully associative: while the cache is), else
 * the policy's victim in that set, which must be a page of the set.
 */
static void sim_ref(struct kunit *test, struct sim *sim, u32 page)
{
	u32 slot = sim->slot_of[page];
	u32 set = vflash_set_of(page, sim->nr_sets);

	if (slot != U32_MAX) {
		sim->in->ops->access(sim->in->st, slot);
		return;
	}
	sim->misses++;
	if (sim->in_set[set] <
	    vflash_set_capacity(sim->nr_slots, sim->nr_sets, set)) {
		slot = sim->used++;
		sim->in_set[set]++;
	} else {
		KUNIT_ASSERT_TRUE(test, sim->in->ops->evict(sim->in->st, set,
							    &slot));
		KUNIT_ASSERT_LT(test, slot, sim->nr_slots);
		KUNIT_ASSERT_EQ(test, sim->slot_of[sim->page_of[slot]], slot);
		KUNIT_ASSERT_EQ_MSG(test,
				    vflash_set_of(sim->page_of[slot],
						  sim->nr_sets), set,
				    "victim page %llu for page %u",
				    sim->page_of[slot], page);
		sim->last_victim = sim->page_of[slot];
		sim->slot_of[sim->page_of[slot]] = U32_MAX;
	}
	sim->slot_of[page] = slot;
	sim->page_of[slot] = page;
	sim->in->ops->insert(sim->in->st, slot, page);
}

static u32 sim_resident(struct sim *sim, u32 first, u32 n)
{
	u32 i, r = 0;

	for (i = first; i < first + n; i++)
		r += sim->slot_of[i] != U32_MAX;
	return r;
}

#define HOT	20
#define SLOTS	100
#define SCAN	1000

/* A hot set used a few times, then a long one-time scan. */
static u32 hot_after_scan(struct kunit *test, const char *name)
{
	struct sim *sim = sim_mk(test, name, SLOTS, HOT + SCAN);
	u32 i, pass;

	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < HOT; i++)
			sim_ref(test, sim, i);
	for (i = 0; i < SCAN; i++)
		sim_ref(test, sim, HOT + i);
	return sim_resident(sim, 0, HOT);
}

static void s3fifo_resists_a_scan(struct kunit *test)
{
	/* The referenced hot set moved from small to main and stays ... */
	KUNIT_EXPECT_EQ(test, hot_after_scan(test, "s3fifo"), (u32)HOT);
	/* ... where fifo, lru and clock lose all of it. */
	KUNIT_EXPECT_EQ(test, hot_after_scan(test, "fifo"), 0U);
	KUNIT_EXPECT_EQ(test, hot_after_scan(test, "lru"), 0U);
	KUNIT_EXPECT_EQ(test, hot_after_scan(test, "clock"), 0U);
}

static void s3fifo_ghost_admits_to_main(struct kunit *test)
{
	struct sim *sim = sim_mk(test, "s3fifo", SLOTS, 4000);
	u32 i;

	/* Page 0 passes through small unreferenced: evicted to the ghost. */
	sim_ref(test, sim, 0);
	for (i = 0; i < SLOTS; i++)
		sim_ref(test, sim, 1000 + i);
	KUNIT_EXPECT_EQ(test, sim_resident(sim, 0, 1), 0U);
	/* It misses again: straight to main, where a scan cannot reach it. */
	sim_ref(test, sim, 0);
	sim_ref(test, sim, 1);	/* never seen: small */
	for (i = 0; i < 2 * SLOTS; i++)
		sim_ref(test, sim, 2000 + i);
	KUNIT_EXPECT_EQ(test, sim_resident(sim, 0, 1), 1U);
	KUNIT_EXPECT_EQ(test, sim_resident(sim, 1, 1), 0U);
}

static void s3fifo_ghost_is_bounded(struct kunit *test)
{
	struct sim *sim = sim_mk(test, "s3fifo", SLOTS, 4000);
	u32 i;

	sim_ref(test, sim, 0);
	for (i = 0; i < SLOTS; i++)
		sim_ref(test, sim, 1000 + i);
	/* Far more evictions than the ghost holds (90 pages) push 0 out. */
	for (i = 0; i < 2 * SLOTS; i++)
		sim_ref(test, sim, 2000 + i);
	sim_ref(test, sim, 0);
	for (i = 0; i < 2 * SLOTS; i++)
		sim_ref(test, sim, 3000 + i);
	/* Admitted to small, not main, so the scan evicted it. */
	KUNIT_EXPECT_EQ(test, sim_resident(sim, 0, 1), 0U);
}

static void s3fifo_main_decays(struct kunit *test)
{
	struct inst *s3 = mk(test, "s3fifo", 10);
	u32 s;

	/* Small target is 1 slot: slot 0 goes to main when referenced. */
	s3->ops->insert(s3->st, 0, 0);
	s3->ops->access(s3->st, 0);
	s3->ops->access(s3->st, 0);
	s3->ops->insert(s3->st, 1, 1);
	/* small: 0(f2) 1: 0 moves to main with f0, 1 is evicted. */
	KUNIT_EXPECT_EQ(test, victim(test, s3), 1U);
	/* Only main is left: 0 (frequency 0 after the move). */
	KUNIT_EXPECT_EQ(test, victim(test, s3), 0U);
	empty(test, s3);

	/*
	 * Two pages evicted from small go to the ghost; missing again, they
	 * enter main directly.
	 */
	s3->ops->insert(s3->st, 0, 100);
	s3->ops->insert(s3->st, 1, 101);
	KUNIT_EXPECT_EQ(test, victim(test, s3), 0U);
	KUNIT_EXPECT_EQ(test, victim(test, s3), 1U);
	s3->ops->insert(s3->st, 0, 100);
	s3->ops->insert(s3->st, 1, 101);
	/*
	 * main: 0 then 1. Frequency saturates at 3, so five references to 0
	 * and four to 1 are equal, and each pass through main costs one:
	 * 0 reaches zero first and leaves (unsaturated, 1 would).
	 */
	for (s = 0; s < 5; s++)
		s3->ops->access(s3->st, 0);
	for (s = 0; s < 4; s++)
		s3->ops->access(s3->st, 1);
	KUNIT_EXPECT_EQ(test, victim(test, s3), 0U);
	KUNIT_EXPECT_EQ(test, victim(test, s3), 1U);
	empty(test, s3);
}

/* With a hot set re-referenced between scans, clock and lru beat fifo. */
static void references_matter(struct kunit *test)
{
	static const char * const names[] = { "fifo", "clock", "lru", "s3fifo" };
	u32 misses[ARRAY_SIZE(names)];
	unsigned int p;

	for (p = 0; p < ARRAY_SIZE(names); p++) {
		struct sim *sim = sim_mk(test, names[p], SLOTS, 5000);
		u32 i, round;

		for (round = 0; round < 40; round++) {
			for (i = 0; i < HOT; i++)
				sim_ref(test, sim, i);
			for (i = 0; i < 50; i++)
				sim_ref(test, sim, HOT + round * 50 + i);
		}
		misses[p] = sim->misses;
	}
	KUNIT_EXPECT_LT(test, misses[1], misses[0]);
	KUNIT_EXPECT_LT(test, misses[2], misses[0]);
	KUNIT_EXPECT_LT(test, misses[3], misses[0]);
}

static void alloc_checks(struct kunit *test)
{
	const struct vflash_eviction_ops *o = ops_of(test, "fifo");

	KUNIT_EXPECT_NULL(test, o->alloc(0, 1, 0, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, ops_of(test, "s3fifo")->alloc(0, 1, 0,
							      GFP_KERNEL));
	/* One slot works for every policy. */
	{
		static const char * const all[] = {
			"fifo", "lifo", "clock", "lru", "s3fifo", "random",
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(all); i++) {
			struct inst *in = mk(test, all[i], 1);

			in->ops->insert(in->st, 0, 77);
			in->ops->access(in->st, 0);
			KUNIT_EXPECT_EQ_MSG(test, victim(test, in), 0U, "%s",
					    all[i]);
			empty(test, in);
		}
	}
}

/*
 * The set mapping: every page in one set below the number of sets, sets
 * balanced within one page, capacities adding up to the slots (every
 * slot usable) and at least the ways each.
 */
static void set_mapping(struct kunit *test)
{
	static const u32 slots[] = { 20, 64, 100, 1000, 4099 };
	static const u32 ways[] = { 0, 1, 2, 4, 8, 16 };
	u32 i, j, set, pages = 5000;

	for (i = 0; i < ARRAY_SIZE(slots); i++) {
		for (j = 0; j < ARRAY_SIZE(ways); j++) {
			u32 n = slots[i], w = ways[j];
			u32 nr = vflash_set_nr(n, w), lo = U32_MAX, hi = 0;
			u32 *per = kunit_kcalloc(test, nr, sizeof(*per),
						 GFP_KERNEL);
			u64 lpn, cap_sum = 0;

			KUNIT_ASSERT_NOT_NULL(test, per);
			KUNIT_EXPECT_EQ(test, nr, w ? max(n / w, 1U) : 1U);
			for (lpn = 0; lpn < pages; lpn++) {
				set = vflash_set_of(lpn, nr);
				KUNIT_ASSERT_LT(test, set, nr);
				/* The modulo: page + sets is in the same set. */
				KUNIT_EXPECT_EQ(test,
						vflash_set_of(lpn + nr, nr), set);
				per[set]++;
			}
			for (set = 0; set < nr; set++) {
				u32 cap = vflash_set_capacity(n, nr, set);

				lo = min(lo, per[set]);
				hi = max(hi, per[set]);
				cap_sum += cap;
				KUNIT_EXPECT_GE(test, cap, w);
				KUNIT_EXPECT_LE(test, cap, n / nr + 1);
				if (nr >= w && w)
					KUNIT_EXPECT_LE(test, cap, w + 1);
			}
			KUNIT_EXPECT_LE_MSG(test, hi - lo, 1U,
					    "%u slots, %u ways", n, w);
			KUNIT_EXPECT_EQ_MSG(test, cap_sum, (u64)n,
					    "%u slots, %u ways", n, w);
		}
	}
	/* A large page number, beyond 32 bits. */
	KUNIT_EXPECT_EQ(test, vflash_set_of(BIT_ULL(40) + 5, 7),
			(u32)((BIT_ULL(40) + 5) % 7));
}

static const char * const all_policies[] = {
	"fifo", "lifo", "clock", "lru", "s3fifo", "random",
};

/*
 * Every policy, per set: on a trace with a hot part and scans over 8
 * sets of 8 ways (and of 2 ways, and direct-mapped), each victim is a
 * page of the missing page's set (sim_ref() checks it), no set exceeds
 * its capacity, and an empty set gives no victim while others are full.
 */
static void every_policy_per_set(struct kunit *test)
{
	static const u32 ways[] = { 1, 2, 8 };
	u32 i, j, k, set;

	/* The list above is every registered policy. */
	for (i = 0; i < ARRAY_SIZE(all_policies); i++)
		KUNIT_ASSERT_NOT_NULL(test,
				      vflash_policy_find(VFLASH_POLICY_EVICTION,
							 all_policies[i]));
	KUNIT_EXPECT_NULL(test, vflash_policy_find(VFLASH_POLICY_EVICTION,
						   "no-such"));
	for (i = 0; i < ARRAY_SIZE(all_policies); i++) {
		for (j = 0; j < ARRAY_SIZE(ways); j++) {
			u32 nr_sets = vflash_set_nr(64, ways[j]);
			struct sim *sim = sim_mk_sets(test, all_policies[i], 64,
						      1024, nr_sets);
			struct inst *in;
			u32 slot;

			for (k = 0; k < 4000; k++) {
				/* Hot pages 0..31 every other time, a scan else. */
				u32 page = k % 2 ? (k / 2 * 7) % 32 :
					   32 + (k / 2 * 13) % 992;

				sim_ref(test, sim, page);
			}
			KUNIT_EXPECT_GT(test, sim->misses, 64U);
			for (set = 0; set < nr_sets; set++)
				KUNIT_EXPECT_EQ(test, sim->in_set[set],
						vflash_set_capacity(64, nr_sets,
								    set));
			/* Empty set 0, then it gives no victim. */
			if (nr_sets < 2)
				continue;
			while (sim->in->ops->evict(sim->in->st, 0, &slot))
				KUNIT_EXPECT_EQ(test,
						vflash_set_of(sim->page_of[slot],
							      nr_sets), 0U);
			in = sim->in;
			KUNIT_EXPECT_TRUE(test, in->ops->evict(in->st, 1, &slot));
			KUNIT_EXPECT_FALSE(test, in->ops->evict(in->st, 0, &slot));
		}
	}
}

/* Direct-mapped: every policy evicts exactly the page of the same set. */
static void direct_mapped_evicts_the_conflicting_page(struct kunit *test)
{
	u32 i, k;

	for (i = 0; i < ARRAY_SIZE(all_policies); i++) {
		struct sim *sim = sim_mk_sets(test, all_policies[i], 16, 256,
					      16);

		for (k = 0; k < 16; k++)
			sim_ref(test, sim, k);
		for (k = 16; k < 256; k++) {
			sim_ref(test, sim, k);
			KUNIT_EXPECT_EQ_MSG(test, sim->last_victim, (u64)k - 16,
					    "%s", all_policies[i]);
		}
	}
}

/* A fully associative instance (one set) refuses other sets. */
static void one_set_is_fully_associative(struct kunit *test)
{
	struct inst *in = mk(test, "fifo", 8);
	u32 slot;

	in->ops->insert(in->st, 3, 1000);
	in->ops->insert(in->st, 5, 7);
	KUNIT_EXPECT_FALSE(test, in->ops->evict(in->st, 1, &slot));
	KUNIT_EXPECT_EQ(test, victim(test, in), 3U);
	KUNIT_EXPECT_EQ(test, victim(test, in), 5U);
	/* More sets than slots, or none: no instance. */
	KUNIT_EXPECT_NULL(test, in->ops->alloc(8, 9, 1, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, in->ops->alloc(8, 0, 1, GFP_KERNEL));
}

static int eviction_test_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void eviction_test_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_case eviction_test_cases[] = {
	KUNIT_CASE(fifo_and_lifo_order),
	KUNIT_CASE(clock_second_chance),
	KUNIT_CASE(clock_without_references_is_fifo),
	KUNIT_CASE(lru_recency),
	KUNIT_CASE(random_stays_within_the_set),
	KUNIT_CASE(s3fifo_resists_a_scan),
	KUNIT_CASE(s3fifo_ghost_admits_to_main),
	KUNIT_CASE(s3fifo_ghost_is_bounded),
	KUNIT_CASE(s3fifo_main_decays),
	KUNIT_CASE(references_matter),
	KUNIT_CASE(alloc_checks),
	KUNIT_CASE(set_mapping),
	KUNIT_CASE(every_policy_per_set),
	KUNIT_CASE(direct_mapped_evicts_the_conflicting_page),
	KUNIT_CASE(one_set_is_fully_associative),
	{}
};

static struct kunit_suite eviction_test_suite = {
	.name = "vflash-eviction",
	.suite_init = eviction_test_init,
	.suite_exit = eviction_test_exit,
	.test_cases = eviction_test_cases,
};

kunit_test_suite(eviction_test_suite);
