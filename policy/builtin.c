// SPDX-License-Identifier: GPL-2.0
/* The first built-in policy of each kind is the default. */
#include <linux/kernel.h>

#include "policy/builtin.h"

static const struct {
	struct vflash_policy *pols;
	unsigned int nr;
} builtin[] = {
	{ vflash_gc_policies, VFLASH_NR_GC_POLICIES },
	{ vflash_placement_policies, VFLASH_NR_PLACEMENT_POLICIES },
	{ vflash_migration_policies, VFLASH_NR_MIGRATION_POLICIES },
	{ vflash_maintenance_policies, VFLASH_NR_MAINTENANCE_POLICIES },
	{ vflash_eviction_policies, VFLASH_NR_EVICTION_POLICIES },
	{ vflash_prefetch_policies, VFLASH_NR_PREFETCH_POLICIES },
};

/**
 * vflash_policies_exit() - unregister every built-in policy
 */
void vflash_policies_exit(void)
{
	unsigned int k, i;

	for (k = 0; k < ARRAY_SIZE(builtin); k++)
		for (i = 0; i < builtin[k].nr; i++)
			if (!list_empty(&builtin[k].pols[i].list))
				vflash_policy_unregister(&builtin[k].pols[i]);
}

/**
 * vflash_policies_init() - register every built-in policy
 *
 * Return: 0, or a negative errno with nothing registered.
 */
int vflash_policies_init(void)
{
	unsigned int k, i;
	int ret;

	for (k = 0; k < ARRAY_SIZE(builtin); k++)
		for (i = 0; i < builtin[k].nr; i++)
			INIT_LIST_HEAD(&builtin[k].pols[i].list);
	for (k = 0; k < ARRAY_SIZE(builtin); k++) {
		for (i = 0; i < builtin[k].nr; i++) {
			ret = vflash_policy_register(&builtin[k].pols[i]);
			if (ret) {
				vflash_policies_exit();
				return ret;
			}
		}
	}
	return 0;
}
