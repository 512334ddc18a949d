/* SPDX-License-Identifier: GPL-2.0 */
/* The policies built into vflash; policy/builtin.c registers them. */
#ifndef VFLASH_POLICY_BUILTIN_H
#define VFLASH_POLICY_BUILTIN_H

#include "policy/policy.h"

#define VFLASH_NR_GC_POLICIES		3
#define VFLASH_NR_PLACEMENT_POLICIES	3
#define VFLASH_NR_MIGRATION_POLICIES	2
#define VFLASH_NR_MAINTENANCE_POLICIES	3
#define VFLASH_NR_EVICTION_POLICIES	6
#define VFLASH_NR_PREFETCH_POLICIES	3

extern struct vflash_policy vflash_gc_policies[VFLASH_NR_GC_POLICIES];
extern struct vflash_policy
	vflash_placement_policies[VFLASH_NR_PLACEMENT_POLICIES];
extern struct vflash_policy
	vflash_migration_policies[VFLASH_NR_MIGRATION_POLICIES];
extern struct vflash_policy
	vflash_maintenance_policies[VFLASH_NR_MAINTENANCE_POLICIES];
extern struct vflash_policy
	vflash_eviction_policies[VFLASH_NR_EVICTION_POLICIES];
extern struct vflash_policy
	vflash_prefetch_policies[VFLASH_NR_PREFETCH_POLICIES];

#endif /* VFLASH_POLICY_BUILTIN_H */
