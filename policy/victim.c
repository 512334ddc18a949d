// SPDX-License-Identifier: GPL-2.0
/* GC victim policies: the block of least cost is cleaned. */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "policy/builtin.h"

/* greedy: the fewest valid pages, so the least copying per freed block. */
static u64 greedy_cost(const struct vflash_gc_candidate *c)
{
	return c->valid;
}

/*
 * cost-benefit (Rosenblum and Ousterhout's LFS cleaner): maximise
 * age * (1 - u) / 2u with u = valid / slots. An empty block is free to
 * clean and always wins.
 */
static u64 cost_benefit_cost(const struct vflash_gc_candidate *c)
{
	u64 age_us = div_u64(c->age_ns, 1000) + 1;
	u64 benefit;

	if (!c->valid)
		return 0;
	if (c->valid >= c->slots)
		return U64_MAX;
	/* age_us * (slots - valid) / (2 * valid), scaled to keep precision */
	benefit = div_u64(age_us * (c->slots - c->valid) * 16, 2 * c->valid);
	return U64_MAX - benefit;
}

/* fifo: the block that became full first, whatever it holds. */
static u64 fifo_cost(const struct vflash_gc_candidate *c)
{
	return c->seal_seq;
}

static const struct vflash_gc_ops greedy_ops = { .cost = greedy_cost };

static const struct vflash_gc_ops cost_benefit_ops = {
	.cost = cost_benefit_cost,
};

static const struct vflash_gc_ops fifo_ops = { .cost = fifo_cost };

struct vflash_policy vflash_gc_policies[VFLASH_NR_GC_POLICIES] = {
	{ .name = "greedy", .kind = VFLASH_POLICY_GC, .ops = &greedy_ops },
	{ .name = "cost-benefit", .kind = VFLASH_POLICY_GC,
	  .ops = &cost_benefit_ops },
	{ .name = "fifo", .kind = VFLASH_POLICY_GC, .ops = &fifo_ops },
};
