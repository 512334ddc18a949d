// SPDX-License-Identifier: GPL-2.0
/* Maintenance policies: the seed study's V1/V2/V3 variants. */
#include <linux/kernel.h>

#include "policy/builtin.h"

/* background: the worker keeps free space above the high watermark. */
static const struct vflash_maintenance_ops background_ops = {
	.background = true,
};

/* inline: cleaning only on the write path, below the low watermark. */
static const struct vflash_maintenance_ops inline_ops = {
	.background = false,
};

/* read-priority: background, but host reads pass it (bounded deferral). */
static const struct vflash_maintenance_ops read_priority_ops = {
	.background = true,
	.read_priority = true,
};

struct vflash_policy vflash_maintenance_policies[VFLASH_NR_MAINTENANCE_POLICIES] = {
	{ .name = "background", .kind = VFLASH_POLICY_MAINTENANCE,
	  .ops = &background_ops },
	{ .name = "inline", .kind = VFLASH_POLICY_MAINTENANCE,
	  .ops = &inline_ops },
	{ .name = "read-priority", .kind = VFLASH_POLICY_MAINTENANCE,
	  .ops = &read_priority_ops },
};
