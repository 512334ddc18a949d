// SPDX-License-Identifier: GPL-2.0
/*
 * frontend=nvme: attach a virtual NVMe controller to a vflash device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "backend_flash/profile.h"
#include "core/compat.h"
#include "core/params.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define MAX_WAIT_US	USEC_PER_SEC
#define MIN_NAP_US	100

static unsigned int poll_idle_us = 1000;
module_param(poll_idle_us, uint, 0444);
MODULE_PARM_DESC(poll_idle_us,
		 "NVMe: microseconds without commands after which the dispatcher sleeps between polls, 0 to 1000000 (default 1000)");

static unsigned int spin_us = 20;
module_param(spin_us, uint, 0444);
MODULE_PARM_DESC(spin_us,
		 "NVMe: a completion due within this many microseconds is waited for by spinning, a later one by sleeping until then, 0 to 1000000 (default 20)");

static unsigned int nap_max_us = 20000;
module_param(nap_max_us, uint, 0444);
MODULE_PARM_DESC(nap_max_us,
		 "NVMe: longest nap between doorbell polls once the device has been idle for 250 ms (the first command after a pause waits up to this long to be fetched), 100 to 1000000 (default 20000)");

static unsigned int lba_size = 4096;
module_param(lba_size, uint, 0444);
MODULE_PARM_DESC(lba_size, "NVMe: logical block size, 512 or 4096 (default 4096)");

static unsigned int zoned;
module_param(zoned, uint, 0444);
MODULE_PARM_DESC(zoned,
		 "NVMe: 1 makes namespace 1 a zoned namespace (NVMe ZNS), 0 a conventional one (default 0)");

static char *zone_size;
module_param(zone_size, charp, 0444);
MODULE_PARM_DESC(zone_size,
		 "NVMe, zoned namespaces (zoned=1, Namespace Management): zone size in bytes (K, M, G suffixes), a power of two from 64K (default 16M)");

static char *zone_cap;
module_param(zone_cap, charp, 0444);
MODULE_PARM_DESC(zone_cap,
		 "NVMe, zoned namespaces: writable bytes of each zone, a multiple of the block size up to zone_size (default zone_size)");

static unsigned int zone_max_open;
module_param(zone_max_open, uint, 0444);
MODULE_PARM_DESC(zone_max_open,
		 "NVMe, zoned namespaces: most zones open at once, 0 for no limit (default 0; with zone_max_active, at most that)");

static unsigned int zone_max_active;
module_param(zone_max_active, uint, 0444);
MODULE_PARM_DESC(zone_max_active,
		 "NVMe, zoned namespaces: most zones open or closed at once, 0 for no limit (default 0)");

static unsigned int zone_ext_bytes;
module_param(zone_ext_bytes, uint, 0444);
MODULE_PARM_DESC(zone_ext_bytes,
		 "NVMe, zoned namespaces: zone descriptor extension size in bytes (ZDES), a multiple of 64 up to 16320, 0 for none (default 0)");

static unsigned int zone_frl_s;
module_param(zone_frl_s, uint, 0444);
MODULE_PARM_DESC(zone_frl_s,
		 "NVMe, zoned namespaces: Finish Recommended Limit in seconds (FRL): an open or closed zone that old gets Finish Zone Recommended, 0 for none (default 0)");

static unsigned int zone_rrl_s;
module_param(zone_rrl_s, uint, 0444);
MODULE_PARM_DESC(zone_rrl_s,
		 "NVMe, zoned namespaces: Reset Recommended Limit in seconds (RRL): an open, closed or full zone that old gets Reset Zone Recommended, 0 for none (default 0)");
static unsigned int zone_zrwa;
module_param(zone_zrwa, uint, 0444);
MODULE_PARM_DESC(zone_zrwa,
		 "NVMe, zoned namespaces: 1 gives them a Zone Random Write Area (ZRWA: Open with ZRWAA, writes anywhere in a window, flushes), 0 none (default 0)");

static char *zone_zrwa_size;
module_param(zone_zrwa_size, charp, 0444);
MODULE_PARM_DESC(zone_zrwa_size,
		 "NVMe, zone_zrwa=1: the ZRWA window (ZRWAS) in bytes (K, M suffixes), a multiple of zone_zrwa_fg up to zone_cap and 65535 blocks (default 64K)");

static char *zone_zrwa_fg;
module_param(zone_zrwa_fg, charp, 0444);
MODULE_PARM_DESC(zone_zrwa_fg,
		 "NVMe, zone_zrwa=1: the ZRWA flush granularity (ZRWAFG) in bytes (K suffix), a multiple of the block size (default 16K)");

static unsigned int zone_zrwa_nr;
module_param(zone_zrwa_nr, uint, 0444);
MODULE_PARM_DESC(zone_zrwa_nr,
		 "NVMe, zone_zrwa=1: ZRWA resources per zoned namespace (NUMZRWA + 1), at most zone_max_active; 0 for the active limit, 16 without one (default 0)");

static char *ns1_size;
module_param(ns1_size, charp, 0444);
MODULE_PARM_DESC(ns1_size,
		 "NVMe: size of namespace 1 at load in bytes (K, M, G suffixes), a multiple of 4K, 0 for no namespace; the rest of the device is left to Namespace Management (default: the whole device)");

static unsigned int fdp;
module_param(fdp, uint, 0444);
MODULE_PARM_DESC(fdp,
		 "NVMe: 1 gives namespace 1 (every handle) and namespaces created later (their placement handle lists) Flexible Data Placement (NVMe FDP, enabled), 0 none (default 0)");

static unsigned int fdp_ruhs = VFN_FDP_DEFAULT_RUH;
module_param(fdp_ruhs, uint, 0444);
MODULE_PARM_DESC(fdp_ruhs,
		 "NVMe, fdp=1: reclaim unit handles (placement handles), 1 to 16 (default 8)");

static char *cpus;
module_param(cpus, charp, 0444);
MODULE_PARM_DESC(cpus,
		 "NVMe: CPU list the dispatcher and completion workers are bound to, one thread per CPU round-robin (default: not bound)");

static unsigned int workers = 1;
module_param(workers, uint, 0444);
MODULE_PARM_DESC(workers,
		 "NVMe: completion workers, 0 (the dispatcher completes) to 8 (default 1)");

/* Values of this frontend's parameters for one device. */
struct vfn_params {
	unsigned int lba_size;
	unsigned int workers;
	unsigned int poll_idle_us;
	unsigned int spin_us;
	unsigned int nap_max_us;
	const char *cpus;
	unsigned int zoned;
	const char *zone_size;
	const char *zone_cap;
	unsigned int zone_max_open;
	unsigned int zone_max_active;
	unsigned int zone_ext_bytes;
	unsigned int zone_frl_s;
	unsigned int zone_rrl_s;
	unsigned int fdp;
	unsigned int fdp_ruhs;
	const char *ns1_size;
	unsigned int zone_zrwa;
	const char *zone_zrwa_size;
	const char *zone_zrwa_fg;
	unsigned int zone_zrwa_nr;
};

#define DEFAULT_ZONE_SIZE	"16M"
#define MIN_ZONE_BYTES		(64U << 10)

static const char *const arg_names[] = {
	[VFLASH_ARG_LBA_SIZE] = "lba_size",
	[VFLASH_ARG_WORKERS] = "workers",
	[VFLASH_ARG_POLL_IDLE_US] = "poll_idle_us",
	[VFLASH_ARG_SPIN_US] = "spin_us",
	[VFLASH_ARG_CPUS] = "cpus",
	[VFLASH_ARG_ZONED] = "zoned",
	[VFLASH_ARG_ZONE_SIZE] = "zone_size",
	[VFLASH_ARG_ZONE_CAP] = "zone_cap",
	[VFLASH_ARG_ZONE_MAX_OPEN] = "zone_max_open",
	[VFLASH_ARG_ZONE_MAX_ACTIVE] = "zone_max_active",
	[VFLASH_ARG_NAP_MAX_US] = "nap_max_us",
	[VFLASH_ARG_FDP] = "fdp",
	[VFLASH_ARG_FDP_RUHS] = "fdp_ruhs",
	[VFLASH_ARG_NS1_SIZE] = "ns1_size",
	[VFLASH_ARG_ZONE_EXT_BYTES] = "zone_ext_bytes",
	[VFLASH_ARG_ZONE_FRL_S] = "zone_frl_s",
	[VFLASH_ARG_ZONE_RRL_S] = "zone_rrl_s",
	[VFLASH_ARG_ZONE_ZRWA] = "zone_zrwa",
	[VFLASH_ARG_ZONE_ZRWA_SIZE] = "zone_zrwa_size",
	[VFLASH_ARG_ZONE_ZRWA_FG] = "zone_zrwa_fg",
	[VFLASH_ARG_ZONE_ZRWA_NR] = "zone_zrwa_nr",
};

static bool is_nvme_arg(enum vflash_fe_arg arg)
{
	return arg < ARRAY_SIZE(arg_names) && arg_names[arg];
}

/* The field of @p that holds unsigned parameter @arg, or NULL. */
static unsigned int *uint_field(struct vfn_params *p, enum vflash_fe_arg arg)
{
	switch (arg) {
	case VFLASH_ARG_LBA_SIZE:
		return &p->lba_size;
	case VFLASH_ARG_WORKERS:
		return &p->workers;
	case VFLASH_ARG_POLL_IDLE_US:
		return &p->poll_idle_us;
	case VFLASH_ARG_SPIN_US:
		return &p->spin_us;
	case VFLASH_ARG_ZONED:
		return &p->zoned;
	case VFLASH_ARG_ZONE_MAX_OPEN:
		return &p->zone_max_open;
	case VFLASH_ARG_ZONE_MAX_ACTIVE:
		return &p->zone_max_active;
	case VFLASH_ARG_NAP_MAX_US:
		return &p->nap_max_us;
	case VFLASH_ARG_FDP:
		return &p->fdp;
	case VFLASH_ARG_FDP_RUHS:
		return &p->fdp_ruhs;
	case VFLASH_ARG_ZONE_EXT_BYTES:
		return &p->zone_ext_bytes;
	case VFLASH_ARG_ZONE_FRL_S:
		return &p->zone_frl_s;
	case VFLASH_ARG_ZONE_RRL_S:
		return &p->zone_rrl_s;
	case VFLASH_ARG_ZONE_ZRWA:
		return &p->zone_zrwa;
	case VFLASH_ARG_ZONE_ZRWA_NR:
		return &p->zone_zrwa_nr;
	default:
		return NULL;
	}
}

/* The field of @p that holds string parameter @arg. */
static const char **str_field(struct vfn_params *p, enum vflash_fe_arg arg)
{
	switch (arg) {
	case VFLASH_ARG_ZONE_SIZE:
		return &p->zone_size;
	case VFLASH_ARG_ZONE_CAP:
		return &p->zone_cap;
	case VFLASH_ARG_NS1_SIZE:
		return &p->ns1_size;
	case VFLASH_ARG_ZONE_ZRWA_SIZE:
		return &p->zone_zrwa_size;
	case VFLASH_ARG_ZONE_ZRWA_FG:
		return &p->zone_zrwa_fg;
	default:
		return &p->cpus;
	}
}

/* Parameter @arg of @p from the string @val; one dmesg line if junk. */
static int parse_arg(struct vfn_params *p, enum vflash_fe_arg arg,
		     const char *val)
{
	unsigned int *field = uint_field(p, arg);

	if (!field) {
		*str_field(p, arg) = val;
		return 0;
	}
	if (kstrtouint(val, 0, field)) {
		pr_err("%s=%s: not an unsigned number\n", arg_names[arg], val);
		return -EINVAL;
	}
	return 0;
}

/* A ZRWA size parameter, if given: a size in bytes, not 0. */
static int check_zrwa_bytes(const char *name, const char *val)
{
	u64 bytes;

	if (!val || !*val)
		return 0;
	if (vflash_parse_bytes(val, &bytes) || !bytes) {
		pr_err("%s=%s: not a size in bytes\n", name, val);
		return -EINVAL;
	}
	return 0;
}

/* Check parameter @arg of @p; one dmesg line naming it if it is bad. */
static int check_arg(const struct vfn_params *p, enum vflash_fe_arg arg,
		     struct cpumask *mask)
{
	unsigned int cpu;
	u64 bytes;
	int ret;

	switch (arg) {
	case VFLASH_ARG_LBA_SIZE:
		if (p->lba_size == 512 || p->lba_size == 4096)
			return 0;
		pr_err("lba_size=%u: must be 512 or 4096\n", p->lba_size);
		return -EINVAL;
	case VFLASH_ARG_WORKERS:
		if (p->workers <= VFN_MAX_WORKERS)
			return 0;
		pr_err("workers=%u: must be 0 to %u\n", p->workers,
		       VFN_MAX_WORKERS);
		return -EINVAL;
	case VFLASH_ARG_POLL_IDLE_US:
		if (p->poll_idle_us <= MAX_WAIT_US)
			return 0;
		pr_err("poll_idle_us=%u: must be at most %lu\n",
		       p->poll_idle_us, MAX_WAIT_US);
		return -EINVAL;
	case VFLASH_ARG_SPIN_US:
		if (p->spin_us <= MAX_WAIT_US)
			return 0;
		pr_err("spin_us=%u: must be at most %lu\n", p->spin_us,
		       MAX_WAIT_US);
		return -EINVAL;
	case VFLASH_ARG_CPUS:
		cpumask_clear(mask);
		if (!p->cpus || !*p->cpus)
			return 0;
		ret = cpulist_parse(p->cpus, mask);
		if (ret || cpumask_empty(mask)) {
			pr_err("cpus=%s: not a CPU list\n", p->cpus);
			return -EINVAL;
		}
		for_each_cpu(cpu, mask) {
			if (!cpu_online(cpu)) {
				pr_err("cpus=%s: CPU %u is not online\n",
				       p->cpus, cpu);
				return -EINVAL;
			}
		}
		return 0;
	case VFLASH_ARG_NAP_MAX_US:
		if (p->nap_max_us >= MIN_NAP_US && p->nap_max_us <= MAX_WAIT_US)
			return 0;
		pr_err("nap_max_us=%u: must be %u to %lu\n", p->nap_max_us,
		       MIN_NAP_US, MAX_WAIT_US);
		return -EINVAL;
	case VFLASH_ARG_ZONED:
		if (p->zoned <= 1)
			return 0;
		pr_err("zoned=%u: must be 0 or 1\n", p->zoned);
		return -EINVAL;
	case VFLASH_ARG_ZONE_SIZE:
		if (!p->zone_size || !*p->zone_size)
			return 0;
		if (vflash_parse_bytes(p->zone_size, &bytes) ||
		    bytes < MIN_ZONE_BYTES || !is_power_of_2(bytes)) {
			pr_err("zone_size=%s: must be a power of two from 64K\n",
			       p->zone_size);
			return -EINVAL;
		}
		return 0;
	case VFLASH_ARG_ZONE_CAP:
		if (!p->zone_cap || !*p->zone_cap)
			return 0;
		if (vflash_parse_bytes(p->zone_cap, &bytes) || !bytes) {
			pr_err("zone_cap=%s: not a size in bytes\n", p->zone_cap);
			return -EINVAL;
		}
		return 0;
	case VFLASH_ARG_NS1_SIZE:
		if (!p->ns1_size || !*p->ns1_size)
			return 0;
		if (vflash_parse_bytes(p->ns1_size, &bytes) ||
		    bytes & (VFLASH_LPAGE_SIZE - 1)) {
			pr_err("ns1_size=%s: must be a multiple of 4K\n",
			       p->ns1_size);
			return -EINVAL;
		}
		return 0;
	case VFLASH_ARG_FDP:
		if (p->fdp <= 1)
			return 0;
		pr_err("fdp=%u: must be 0 or 1\n", p->fdp);
		return -EINVAL;
	case VFLASH_ARG_FDP_RUHS:
		if (p->fdp_ruhs >= 1 && p->fdp_ruhs <= VFN_FDP_MAX_RUH)
			return 0;
		pr_err("fdp_ruhs=%u: must be 1 to %u\n", p->fdp_ruhs,
		       VFN_FDP_MAX_RUH);
		return -EINVAL;
	case VFLASH_ARG_ZONE_EXT_BYTES:
		if (!(p->zone_ext_bytes % VFN_ZONE_EXT_UNIT) &&
		    p->zone_ext_bytes <= VFN_ZONE_EXT_MAX)
			return 0;
		pr_err("zone_ext_bytes=%u: must be a multiple of %u up to %u\n",
		       p->zone_ext_bytes, VFN_ZONE_EXT_UNIT, VFN_ZONE_EXT_MAX);
		return -EINVAL;
	case VFLASH_ARG_ZONE_ZRWA:
		if (p->zone_zrwa <= 1)
			return 0;
		pr_err("zone_zrwa=%u: must be 0 or 1\n", p->zone_zrwa);
		return -EINVAL;
	case VFLASH_ARG_ZONE_ZRWA_SIZE:
		return check_zrwa_bytes("zone_zrwa_size", p->zone_zrwa_size);
	case VFLASH_ARG_ZONE_ZRWA_FG:
		return check_zrwa_bytes("zone_zrwa_fg", p->zone_zrwa_fg);
	default:
		return 0;
	}
}

/* frontend->check_arg: the syntax and range of one value. */
static int nvme_check_arg(enum vflash_fe_arg arg, const char *val)
{
	struct vfn_params p = { 0 };
	cpumask_var_t mask;
	int ret;

	if (!is_nvme_arg(arg))
		return 0;
	ret = parse_arg(&p, arg, val);
	if (ret)
		return ret;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = check_arg(&p, arg, mask);
	free_cpumask_var(mask);
	return ret;
}

/* The values @cfg gives (configfs) over those already in @p. */
static int parse_given(const struct vflash_config *cfg, struct vfn_params *p)
{
	enum vflash_fe_arg arg;
	int ret;

	for (arg = 0; arg < ARRAY_SIZE(arg_names); arg++) {
		const char *val = vflash_config_arg(cfg, arg);

		if (!is_nvme_arg(arg) || !val)
			continue;
		ret = parse_arg(p, arg, val);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * frontend->placement_handles: the FDP reclaim unit handles of a device of
 * @cfg, each a write stream of the FTL, or with zoned=1 the zone handles
 * (docs/design/zns.md); 0 without either or for a bad value (which the
 * attach refuses with its dmesg line).
 */
static u32 nvme_placement_handles(const struct vflash_config *cfg)
{
	struct vfn_params p = { .fdp = fdp, .fdp_ruhs = fdp_ruhs,
				.zoned = zoned };

	if (parse_given(cfg, &p))
		return 0;
	/* A zoned device: handle 0 and one for each of 15 active zones. */
	if (p.zoned == 1 && !p.fdp)
		return VFLASH_FLASH_MAX_PLACEMENT;
	if (p.fdp != 1 || !p.fdp_ruhs || p.fdp_ruhs > VFN_FDP_MAX_RUH)
		return 0;
	return p.fdp_ruhs;
}

/*
 * This frontend's parameters for @c's device: its own values (configfs),
 * else the module parameters. One dmesg line for the first bad one.
 */
static int parse_params(struct vfn_ctrl *c, struct vfn_params *out)
{
	const struct vflash_config *cfg = &c->vdev->cfg;
	struct vfn_params p = {
		.lba_size = lba_size,
		.workers = workers,
		.poll_idle_us = poll_idle_us,
		.spin_us = spin_us,
		.nap_max_us = nap_max_us,
		.cpus = cpus,
		.zoned = zoned,
		.zone_size = zone_size,
		.zone_cap = zone_cap,
		.zone_max_open = zone_max_open,
		.zone_max_active = zone_max_active,
		.zone_ext_bytes = zone_ext_bytes,
		.zone_frl_s = zone_frl_s,
		.zone_rrl_s = zone_rrl_s,
		.fdp = fdp,
		.fdp_ruhs = fdp_ruhs,
		.ns1_size = ns1_size,
		.zone_zrwa = zone_zrwa,
		.zone_zrwa_size = zone_zrwa_size,
		.zone_zrwa_fg = zone_zrwa_fg,
		.zone_zrwa_nr = zone_zrwa_nr,
	};
	enum vflash_fe_arg arg;
	int ret;

	ret = parse_given(cfg, &p);
	if (ret)
		return ret;
	for (arg = 0; arg < ARRAY_SIZE(arg_names); arg++) {
		if (!is_nvme_arg(arg))
			continue;
		ret = check_arg(&p, arg, c->cpus);
		if (ret)
			return ret;
	}
	c->nr_workers = p.workers;
	c->poll_idle_ns = (u64)p.poll_idle_us * NSEC_PER_USEC;
	c->spin_ns = (u64)p.spin_us * NSEC_PER_USEC;
	c->nap_max_us = p.nap_max_us;
	*out = p;
	return 0;
}

/*
 * With a memmap= range, which keeps what an earlier load wrote, the
 * device's pages from @first on are cleared: a zoned namespace's empty
 * zones and the capacity no namespace holds read as zeros, as a
 * namespace created there later must (allocated memory starts zeroed).
 */
static void clear_pages(struct vfn_ctrl *c, u64 first)
{
	struct vflash_backing *b = &c->vdev->backing;
	pgoff_t pg;

	if (!b->res)
		return;
	for (pg = first; pg < c->nst.cap_pages; pg++) {
		vflash_store_zero(b, pg, 0, PAGE_SIZE);
		if (!(pg % 512))
			cond_resched();
	}
}

/* Descriptor extensions and recommendation limits of every zoned namespace. */
static void zone_recs(const struct vfn_params *p, struct vfn_zone_geo *zg)
{
	zg->ext_bytes = p->zone_ext_bytes;
	zg->frl_s = p->zone_frl_s;
	zg->rrl_s = p->zone_rrl_s;
}

#define DEFAULT_ZRWA_SIZE	"64K"
#define DEFAULT_ZRWA_FG		"16K"
#define DEFAULT_ZRWA_NR		16U

/*
 * The ZRWA of every zoned namespace (zone_zrwa=1): zone_zrwa_size=,
 * zone_zrwa_fg= and zone_zrwa_nr= checked against the block size, the
 * zone capacity, the 16-bit ZRWAS and ZRWAFG and the active limit (one
 * dmesg line naming the parameter at fault). Without zone_zrwa=1 they are
 * not looked at.
 */
static int zrwa_geometry(const struct vfn_params *p, u8 shift,
			 struct vfn_zone_geo *zg)
{
	u64 size, fg, blk = 1ULL << shift;
	u32 nr = p->zone_zrwa_nr;

	if (!p->zone_zrwa)
		return 0;
	vflash_parse_bytes(p->zone_zrwa_size && *p->zone_zrwa_size ?
			   p->zone_zrwa_size : DEFAULT_ZRWA_SIZE, &size);
	vflash_parse_bytes(p->zone_zrwa_fg && *p->zone_zrwa_fg ?
			   p->zone_zrwa_fg : DEFAULT_ZRWA_FG, &fg);
	if (fg & (blk - 1) || fg >> shift > U16_MAX) {
		pr_err("zone_zrwa_fg=%llu: must be a multiple of the %llu-byte block, at most 65535 blocks\n",
		       fg, blk);
		return -EINVAL;
	}
	if (size % fg || size >> shift > U16_MAX || size >> shift > zg->zcap) {
		pr_err("zone_zrwa_size=%llu: must be a multiple of zone_zrwa_fg (%llu), at most zone_cap (%llu) and 65535 blocks\n",
		       size, fg, zg->zcap << shift);
		return -EINVAL;
	}
	if (!nr)
		nr = zg->max_active ? zg->max_active : DEFAULT_ZRWA_NR;
	if (zg->max_active && nr > zg->max_active) {
		pr_err("zone_zrwa_nr=%u: more than zone_max_active (%u)\n",
		       nr, zg->max_active);
		return -EINVAL;
	}
	zg->zrwas = size >> shift;
	zg->zrwafg = fg >> shift;
	zg->nr_zrwa = nr;
	return 0;
}

/*
 * The zones of every zoned namespace (zoned=1's namespace 1, and any
 * Namespace Management makes): zone_size=, zone_cap=, zone_max_open= and
 * zone_max_active=, or the profile's, checked against the block size and
 * each other (one dmesg line naming the parameter at fault).
 */
static int zone_geometry(struct vfn_ctrl *c, const struct vfn_params *p,
			 u8 shift, struct vfn_zone_geo *zg)
{
	const struct vflash_profile *prof = c->vdev->cfg.profile;
	u32 max_active = p->zone_max_active;
	u32 max_open = p->zone_max_open;
	u64 zsze = 0, zcap = 0;

	/* A ZNS drive's profile gives its zones' geometry as defaults. */
	if (p->zone_size && *p->zone_size)
		vflash_parse_bytes(p->zone_size, &zsze);
	else if (prof->zone_bytes)
		zsze = prof->zone_bytes;
	else
		vflash_parse_bytes(DEFAULT_ZONE_SIZE, &zsze);
	if (p->zone_cap && *p->zone_cap)
		vflash_parse_bytes(p->zone_cap, &zcap);
	else if (prof->zone_cap_bytes && zsze == prof->zone_bytes)
		zcap = prof->zone_cap_bytes;
	if (!zcap)
		zcap = zsze;
	if (!max_active)
		max_active = prof->zone_max_active;
	if (zcap > zsze || zcap & ((1ULL << shift) - 1)) {
		pr_err("zone_cap=%llu: must be a multiple of the %u-byte block, at most zone_size (%llu)\n",
		       zcap, 1U << shift, zsze);
		return -EINVAL;
	}
	if (max_active && max_open > max_active) {
		pr_err("zone_max_open=%u: more than zone_max_active (%u)\n",
		       max_open, max_active);
		return -EINVAL;
	}
	/* MOR may not exceed MAR: no open limit of its own, the active one. */
	if (!max_open)
		max_open = max_active;
	*zg = (struct vfn_zone_geo) {
		.zsze = zsze >> shift, .zcap = zcap >> shift,
		.max_active = max_active, .max_open = max_open,
	};
	zone_recs(p, zg);
	return zrwa_geometry(p, shift, zg);
}

/*
 * The namespace table: the device's capacity for Namespace Management,
 * and namespace 1 over ns1_size= of it (default: all of it), attached, a
 * zoned namespace of whole zones with zoned=1. One dmesg line names the
 * parameter at fault.
 */
static int setup_ns(struct vfn_ctrl *c, const struct vfn_params *p)
{
	u64 size = c->vdev->cfg.size_bytes, ns1 = size;
	struct vfn_zone_geo zg = { 0 };
	u8 shift = ilog2(p->lba_size), list[4];
	__le16 phndl[VFN_FDP_MAX_RUH];
	struct vfn_ns_spec spec = { 0 };
	u16 nr_ph = 0;
	u32 nsid, i;
	int ret;

	if (p->ns1_size && *p->ns1_size)
		vflash_parse_bytes(p->ns1_size, &ns1);
	if (ns1 > size) {
		pr_err("ns1_size=%llu: larger than the device (%llu bytes)\n",
		       ns1, size);
		return -EINVAL;
	}
	if (p->fdp) {
		struct vflash_flash *f = c->vdev->flash;

		if (p->zoned) {
			pr_err("fdp=1: not with zoned=1 (a zoned namespace places data by zone)\n");
			return -EINVAL;
		}
		/* The FTL was made with a write stream per handle. */
		if (vflash_flash_placement_handles(f) < p->fdp_ruhs) {
			pr_err("fdp_ruhs=%u: the flash model has %u write streams\n",
			       p->fdp_ruhs, vflash_flash_placement_handles(f));
			return -EINVAL;
		}
		vfn_fdp_init(&c->fdp, p->fdp_ruhs,
			     vflash_flash_placement_ru_bytes(f));
		nr_ph = p->fdp_ruhs;
	} else {
		ret = zone_geometry(c, p, shift, &zg);
		if (ret)
			return ret;
		/* Handles 1 and up are lent to active zones. */
		if (p->zoned) {
			vflash_flash_set_zone_handles(c->vdev->flash, true);
			if (vflash_flash_zone_handles(c->vdev->flash))
				c->nr_zph = vflash_flash_placement_handles(c->vdev->flash);
		}
	}
	if (p->zoned && zg.zsze << shift > ns1) {
		pr_err("zone_size=%llu: larger than the %s (%llu bytes)\n",
		       zg.zsze << shift, ns1 == size ? "device" : "namespace",
		       ns1);
		return -EINVAL;
	}
	vfn_nstab_init(&c->nst, size >> VFLASH_LPAGE_SHIFT, shift, nr_ph, &zg);
	if (!ns1) {
		clear_pages(c, 0);
		return 0;
	}
	spec.csi = p->zoned ? NVME_CSI_ZNS : NVME_CSI_NVM;
	spec.nsze = ns1 >> shift;
	if (p->zoned) {
		/* A zoned namespace holds whole zones only. */
		spec.nsze = div64_u64(ns1, zg.zsze << shift) * zg.zsze;
		c->zreport = kvmalloc(VFN_MAX_XFER_BYTES, GFP_KERNEL);
		if (!c->zreport)
			return -ENOMEM;
	}
	spec.ncap = spec.nsze;
	/*
	 * FDP: namespace 1 of the load, as the factory made it, has every
	 * reclaim unit handle, placement handle i naming handle i.
	 */
	for (i = 0; i < nr_ph; i++)
		phndl[i] = cpu_to_le16(i);
	spec.nphndls = nr_ph;
	spec.phndl = phndl;
	if (vfn_ns_create(&c->nst, &spec, &nsid))
		return -ENOMEM;
	put_unaligned_le16(1, list);
	put_unaligned_le16(VFN_CNTLID, list + 2);
	vfn_ns_attach(&c->nst, nsid, true, list, true);
	/* Attached from the start: no change to report. */
	bitmap_zero(c->nst.changed, VFN_MAX_NS + 1);
	clear_pages(c, p->zoned ? 0 : c->nst.nsd[0].pages);
	return 0;
}

/* What dispatch.c runs: this folder's calls go one way (nvme.h). */
static const struct vfn_ctrl_ops vfn_ops = {
	.admin = vfn_admin,
	.admin_reset = vfn_admin_reset,
	.io = vfn_io,
	.power_cut = vfn_io_power_cut,
	.raise_irq = vfn_raise_irq,
	.tick = vfn_admin_tick,
	.discard = vfn_io_discard,
	.program = vfn_io_program,
};

static void free_ctrl(struct vfn_ctrl *c)
{
	u32 k;

	for (k = 0; k <= VFN_MAX_WORKERS; k++)
		kvfree(c->heap[k].cmd);
	kvfree(c->zreport);
	vfn_nstab_exit(&c->nst);
	free_cpumask_var(c->cpus);
	free_page((unsigned long)c->ident);
	kfree(c);
}

static int alloc_ctrl(struct vflash_dev *vdev, struct vfn_ctrl **out)
{
	struct vfn_params p;
	struct vfn_ctrl *c;
	u32 k;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&c->cpus, GFP_KERNEL)) {
		kfree(c);
		return -ENOMEM;
	}
	c->vdev = vdev;
	c->ops = &vfn_ops;
	ret = parse_params(c, &p);
	if (ret)
		goto err;
	ret = setup_ns(c, &p);
	if (ret)
		goto err;
	ret = -ENOMEM;
	c->ident = (void *)get_zeroed_page(GFP_KERNEL);
	if (!c->ident)
		goto err;
	for (k = 0; k <= c->nr_workers; k++) {
		c->heap[k].cmd = kvcalloc(VFN_INFLIGHT, sizeof(struct vfn_cmd),
					  GFP_KERNEL);
		if (!c->heap[k].cmd)
			goto err;
		spin_lock_init(&c->heap[k].lock);
		c->heap[k].ctrl = c;
	}
	for (k = 0; k <= VFN_MAX_IOQ; k++)
		spin_lock_init(&c->cq_lock[k]);
	c->ctrl_id = vdev->id;
	c->attach_ns = ktime_get_ns();
	*out = c;
	return 0;
err:
	free_ctrl(c);
	return ret;
}

static int nvme_attach(struct vflash_dev *vdev)
{
	struct vfn_ctrl *c;
	int ret;

	ret = alloc_ctrl(vdev, &c);
	if (ret)
		return ret;
	ret = vfn_bar_alloc(c);
	if (ret)
		goto err_free;
	vfn_hostmem_init(c);
	vfn_power_init(c);
	ret = vfn_dispatch_start(c);
	if (ret) {
		pr_err("frontend=nvme: cannot start the dispatcher (%d)\n", ret);
		goto err_bar;
	}
	ret = vfn_pci_create(c);
	if (ret)
		goto err_thread;
	*vflash_frontend_priv(vdev, &vflash_nvme_frontend) = c;
	vflash_faults_set_cut_hook(&vdev->faults, vfn_cut_power, c);
	dev_info(&vdev->dev, "NVMe controller at %s, %u-byte blocks\n",
		 pci_name(c->pdev), 1U << c->nst.lba_shift);
	if (!c->nst.nsd[0].allocated)
		dev_info(&vdev->dev, "no namespace yet (ns1_size=0)\n");
	else if (c->nst.nsd[0].pages < c->nst.cap_pages)
		dev_info(&vdev->dev,
			 "namespace 1: %llu blocks, %llu of %llu pages left for Namespace Management\n",
			 c->nst.nsd[0].ns.nsze,
			 vfn_nstab_free_pages(&c->nst), c->nst.cap_pages);
	if (c->nst.nsd[0].ns.zoned)
		dev_info(&vdev->dev,
			 "zoned namespace: %u zones of %llu blocks, capacity %llu\n",
			 c->nst.nsd[0].zns.nr_zones, c->nst.nsd[0].zns.zsze,
			 c->nst.nsd[0].zns.zcap);
	if (c->fdp.nruh)
		dev_info(&vdev->dev,
			 "flexible data placement: %u reclaim unit handles, reclaim units of %llu bytes\n",
			 c->fdp.nruh, c->fdp.runs_bytes);
	return 0;

err_thread:
	vfn_dispatch_stop(c);
err_bar:
	vfn_bar_free(c);
err_free:
	free_ctrl(c);
	return ret;
}

static void nvme_detach(struct vflash_dev *vdev)
{
	void **slot = vflash_frontend_priv(vdev, &vflash_nvme_frontend);
	struct vfn_ctrl *c = *slot;

	/* No power cut from now on; one in progress ends first. */
	WRITE_ONCE(c->dying, true);
	vflash_faults_set_cut_hook(&vdev->faults, NULL, NULL);
	flush_work(&c->power_work);
	/* The driver's removal-time commands need the dispatcher. */
	vfn_pci_stop(c);
	vfn_dispatch_stop(c);
	/* A cut the dispatcher fired before it saw @dying. */
	flush_work(&c->power_work);
	vfn_pci_remove(c);
	vfn_bar_free(c);
	free_ctrl(c);
	*slot = NULL;
}

/* Registered by the core's table of built-in frontends (core/main.c). */
struct vflash_frontend vflash_nvme_frontend = {
	.name = "nvme",
	.attach = nvme_attach,
	.detach = nvme_detach,
	.check_arg = nvme_check_arg,
	.placement_handles = nvme_placement_handles,
};
