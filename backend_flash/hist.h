/* SPDX-License-Identifier: GPL-2.0 */
/* Log-linear latency histograms; inline, so the request path skips stats.c. */
#ifndef VFLASH_HIST_H
#define VFLASH_HIST_H

#include <linux/bitops.h>
#include <linux/compiler_types.h>
#include <linux/types.h>

/* 64 powers of two, each split in 16 linear steps. */
#define VFF_HIST_SUB_SHIFT	4
#define VFF_HIST_BUCKETS		(64 << VFF_HIST_SUB_SHIFT)

/**
 * vff_hist_bucket() - the histogram bucket of a latency
 * @ns: the latency
 *
 * Return: the bucket, below VFF_HIST_BUCKETS; at most 1/16 relative error.
 */
static inline u32 vff_hist_bucket(u64 ns)
{
	u32 msb;

	if (ns < (1U << VFF_HIST_SUB_SHIFT))
		return ns;
	msb = fls64(ns) - 1;
	return ((msb - VFF_HIST_SUB_SHIFT + 1) << VFF_HIST_SUB_SHIFT) +
	       ((ns >> (msb - VFF_HIST_SUB_SHIFT)) &
		((1U << VFF_HIST_SUB_SHIFT) - 1));
}

/**
 * vff_hist_upper() - the largest latency a bucket holds
 * @bucket: the bucket
 *
 * Return: its upper bound in ns.
 */
static inline u64 vff_hist_upper(u32 bucket)
{
	u32 group = bucket >> VFF_HIST_SUB_SHIFT;
	u32 sub = bucket & ((1U << VFF_HIST_SUB_SHIFT) - 1);
	u32 shift;

	if (!group)
		return bucket;
	shift = group - 1;
	return (((u64)(1U << VFF_HIST_SUB_SHIFT) + sub + 1) << shift) - 1;
}

u64 vflash_hist_pct(const u64 __percpu *hist, u32 per_mille);

#endif /* VFLASH_HIST_H */
