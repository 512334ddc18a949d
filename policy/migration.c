// SPDX-License-Identifier: GPL-2.0
/* SLC-to-QLC migration policies. */
#include <linux/kernel.h>

#include "policy/builtin.h"

/* read-heat: pages read at least threshold times are hot and stay in SLC. */
static bool read_heat_stays(u32 heat, u32 threshold)
{
	return heat >= threshold;
}

/* off: no background migration; a full SLC region spills everything. */
static bool off_stays(u32 heat, u32 threshold)
{
	return false;
}

static const struct vflash_migration_ops read_heat_ops = {
	.background = true,
	.stays_in_slc = read_heat_stays,
};

static const struct vflash_migration_ops off_ops = {
	.background = false,
	.stays_in_slc = off_stays,
};

struct vflash_policy vflash_migration_policies[VFLASH_NR_MIGRATION_POLICIES] = {
	{ .name = "read-heat", .kind = VFLASH_POLICY_MIGRATION,
	  .ops = &read_heat_ops },
	{ .name = "off", .kind = VFLASH_POLICY_MIGRATION, .ops = &off_ops },
};
