/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear latency histograms: recording is inline here, so that the
 * request path never calls into stats.c, which only reads them
 * (vflash_hist_pct()).
 */
#ifndef VFLASH_HIST_H
#define VFLASH_HIST_H

#include <linux/bitops.h>
#include <linux/compiler_types.h>
#include <linux/types.h>

/* 64 powers of two, each split in 16 linear steps. */
#define VF_HIST_SUB_SHIFT	4
#define VF_HIST_BUCKETS		(64 << VF_HIST_SUB_SHIFT)

/**
 * vf_hist_bucket() - the histogram bucket of a latency
 * @ns: the latency
 *
 * Values below 16 have their own bucket; above, each power of two is
 * split into 16 equal steps (at most 1/16 relative error).
 *
 * Return: the bucket, below VF_HIST_BUCKETS.
 */
static inline u32 vf_hist_bucket(u64 ns)
{
	u32 msb;

	if (ns < (1U << VF_HIST_SUB_SHIFT))
		return ns;
	msb = fls64(ns) - 1;
	return ((msb - VF_HIST_SUB_SHIFT + 1) << VF_HIST_SUB_SHIFT) +
	       ((ns >> (msb - VF_HIST_SUB_SHIFT)) &
		((1U << VF_HIST_SUB_SHIFT) - 1));
}

/**
 * vf_hist_upper() - the largest latency a bucket holds
 * @bucket: the bucket
 *
 * Return: its upper bound in ns.
 */
static inline u64 vf_hist_upper(u32 bucket)
{
	u32 group = bucket >> VF_HIST_SUB_SHIFT;
	u32 sub = bucket & ((1U << VF_HIST_SUB_SHIFT) - 1);
	u32 shift;

	if (!group)
		return bucket;
	shift = group - 1;
	return (((u64)(1U << VF_HIST_SUB_SHIFT) + sub + 1) << shift) - 1;
}

u64 vflash_hist_pct(const u64 __percpu *hist, u32 per_mille);

#endif /* VFLASH_HIST_H */
