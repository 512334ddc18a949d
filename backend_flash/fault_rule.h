/* SPDX-License-Identifier: GPL-2.0 */
/* A fault rule: when one kind of injected fault fires (docs/faults.md). */
#ifndef VFLASH_FAULT_RULE_H
#define VFLASH_FAULT_RULE_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#define VFLASH_FAULT_PPM	1000000U

/**
 * struct vflash_fault_rule - when a fault fires
 * @armed: the rule is checked; set last (release) when arming, so that a
 *	reader that sees it set (acquire) sees the fields below
 * @first: first logical page of the range
 * @last: last logical page of the range (inclusive)
 * @ppm: probability per million matching commands
 * @after: matching commands let through before the first injection
 * @times: injections before the rule disarms itself (0: no limit)
 * @delay_ns: VFLASH_FAULT_DELAY's extra completion time
 * @matched: commands that touched the range while armed
 * @injected: injections since the rule was last armed
 *
 * The fields from @first to @delay_ns change only while the rule is
 * disarmed, under the lock of the rules it belongs to
 * (&vflash_faults.lock); @matched and @injected are atomics, reset when
 * the rule is armed.
 */
struct vflash_fault_rule {
	bool armed;
	u64 first;
	u64 last;
	u32 ppm;
	u64 after;
	u64 times;
	u64 delay_ns;
	atomic64_t matched;
	atomic64_t injected;
};

/* Enabled while any rule of any device is armed (core/faults.c). */
DECLARE_STATIC_KEY_FALSE(vflash_faults_armed);

bool vflash_fault_rule_fires(struct vflash_fault_rule *r, u64 lpn, u64 count,
			     u32 rnd);
bool vflash_fault_rule_check(struct vflash_fault_rule *r, u64 lpn, u64 count);

/* Whether @r is armed (a state, for SMART and the backend's reserve). */
static inline bool vflash_fault_rule_armed(const struct vflash_fault_rule *r)
{
	return READ_ONCE(r->armed);
}

#endif /* VFLASH_FAULT_RULE_H */
