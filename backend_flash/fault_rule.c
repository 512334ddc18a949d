// SPDX-License-Identifier: GPL-2.0
/* Fault rules: whether a command gets a fault; armed via core/faults.c. */
#include <linux/random.h>

#include "backend_flash/fault_rule.h"

DEFINE_STATIC_KEY_FALSE(vflash_faults_armed);

/**
 * vflash_fault_rule_fires() - count a command against a rule
 * @r: the rule
 * @lpn: the command's first logical page
 * @count: its logical pages; 0 (no range: Flush) never matches
 * @rnd: a random u32, for the probability
 *
 * Return: true if the fault is to be injected into this command.
 */
bool vflash_fault_rule_fires(struct vflash_fault_rule *r, u64 lpn, u64 count,
			     u32 rnd)
{
	u64 n;

	/* Acquire: pairs with arming's release; the fields are the armed ones. */
	if (!smp_load_acquire(&r->armed) || !count ||
	    lpn > r->last || lpn + count - 1 < r->first)
		return false;
	if (atomic64_inc_return(&r->matched) <= r->after)
		return false;
	/* rnd scaled to [0, PPM): below ppm with probability ppm / PPM. */
	if (r->ppm < VFLASH_FAULT_PPM &&
	    (u32)(((u64)rnd * VFLASH_FAULT_PPM) >> 32) >= r->ppm)
		return false;
	n = atomic64_inc_return(&r->injected);
	if (r->times && n >= r->times) {
		WRITE_ONCE(r->armed, false);
		if (n > r->times) {
			/* Another command took the last injection. */
			atomic64_dec(&r->injected);
			return false;
		}
	}
	return true;
}

/**
 * vflash_fault_rule_check() - vflash_fault_rule_fires() with a random draw
 * @r: the rule
 * @lpn: the command's first logical page
 * @count: its logical pages
 *
 * Return: true if the fault is to be injected into this command; the
 * caller counts it in stats/.
 */
bool vflash_fault_rule_check(struct vflash_fault_rule *r, u64 lpn, u64 count)
{
	/* A disarmed rule, or one without a probability, draws nothing. */
	if (!READ_ONCE(r->armed))
		return false;
	return vflash_fault_rule_fires(r, lpn, count,
				       r->ppm < VFLASH_FAULT_PPM ?
				       get_random_u32() : 0);
}
