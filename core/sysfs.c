// SPDX-License-Identifier: GPL-2.0
/*
 * The backend's sysfs directories policy/, stats/, config/, placement/,
 * generated from the backend's and the cache's tables of names.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/flash.h"
#include "core/vflash.h"

/**
 * struct vflash_attr - a generated attribute
 * @dattr: the device attribute
 * @index: policy kind, counter or knob number (the flash model's knobs,
 *	then the cache's); or one of the derived statistics below
 */
struct vflash_attr {
	struct device_attribute dattr;
	int index;
};

#define to_vflash_attr(a) container_of(a, struct vflash_attr, dattr)

/* Statistics derived from the counters, numbered after them. */
enum {
	STAT_FREE_BLOCKS_SLC = VFLASH_STAT_NR,
	STAT_FREE_BLOCKS_QLC,
	STAT_WRITE_AMPLIFICATION,
	STAT_READ_P50,
	STAT_READ_P99,
	STAT_READ_P999,
	STAT_MODEL_READ,
	STAT_MISSES,
	STAT_REFAULTS,
	STAT_EVICTIONS,
	STAT_DIRTY_WRITEBACKS,
	STAT_PREFETCH_ISSUED,
	STAT_PREFETCH_HITS,
	STAT_BLOCK_READ_HITS,
	STAT_BLOCK_WRITE_HITS,
	STAT_INVALIDATIONS,
	STAT_CONFLICT_MISSES,
	STAT_DIRECT_EVICTIONS,
	STAT_RESIDENT_PAGES,
	STAT_MISS_P50,
	STAT_MISS_P99,
	STAT_MISS_P999,
	STAT_LATE_P50,
	STAT_LATE_P99,
	STAT_LATE_P999,
	STAT_LATE_MAX,
	STAT_STORE_BYTES,
	STAT_RESET,
	STAT_NR_FILES,
};

static const char * const derived_names[] = {
	[STAT_FREE_BLOCKS_SLC - VFLASH_STAT_NR] = "free_blocks_slc",
	[STAT_FREE_BLOCKS_QLC - VFLASH_STAT_NR] = "free_blocks_qlc",
	[STAT_WRITE_AMPLIFICATION - VFLASH_STAT_NR] = "write_amplification",
	[STAT_READ_P50 - VFLASH_STAT_NR] = "read_latency_p50_ns",
	[STAT_READ_P99 - VFLASH_STAT_NR] = "read_latency_p99_ns",
	[STAT_READ_P999 - VFLASH_STAT_NR] = "read_latency_p999_ns",
	[STAT_MODEL_READ - VFLASH_STAT_NR] = "model_read_latency_ns",
	[STAT_MISSES - VFLASH_STAT_NR] = "misses",
	[STAT_REFAULTS - VFLASH_STAT_NR] = "refaults",
	[STAT_EVICTIONS - VFLASH_STAT_NR] = "evictions",
	[STAT_DIRTY_WRITEBACKS - VFLASH_STAT_NR] = "dirty_writebacks",
	[STAT_PREFETCH_ISSUED - VFLASH_STAT_NR] = "prefetch_issued",
	[STAT_PREFETCH_HITS - VFLASH_STAT_NR] = "prefetch_hits",
	[STAT_BLOCK_READ_HITS - VFLASH_STAT_NR] = "block_read_hits",
	[STAT_BLOCK_WRITE_HITS - VFLASH_STAT_NR] = "block_write_hits",
	[STAT_INVALIDATIONS - VFLASH_STAT_NR] = "cache_invalidations",
	[STAT_CONFLICT_MISSES - VFLASH_STAT_NR] = "conflict_misses",
	[STAT_DIRECT_EVICTIONS - VFLASH_STAT_NR] = "direct_evictions",
	[STAT_RESIDENT_PAGES - VFLASH_STAT_NR] = "resident_pages",
	[STAT_MISS_P50 - VFLASH_STAT_NR] = "miss_latency_p50_ns",
	[STAT_MISS_P99 - VFLASH_STAT_NR] = "miss_latency_p99_ns",
	[STAT_MISS_P999 - VFLASH_STAT_NR] = "miss_latency_p999_ns",
	[STAT_LATE_P50 - VFLASH_STAT_NR] = "lateness_p50_ns",
	[STAT_LATE_P99 - VFLASH_STAT_NR] = "lateness_p99_ns",
	[STAT_LATE_P999 - VFLASH_STAT_NR] = "lateness_p999_ns",
	[STAT_LATE_MAX - VFLASH_STAT_NR] = "lateness_max_ns",
	[STAT_STORE_BYTES - VFLASH_STAT_NR] = "store_bytes",
	[STAT_RESET - VFLASH_STAT_NR] = "reset",
};

static struct vflash_flash *flash_of(struct device *dev)
{
	return to_vflash_dev(dev)->flash;
}

static struct vflash_cache_ctl *cache_of(struct device *dev)
{
	return &to_vflash_dev(dev)->cache_ctl;
}

static ssize_t policy_show(struct device *dev, struct device_attribute *a,
			   char *buf)
{
	int kind = to_vflash_attr(a)->index;
	const struct vflash_policy *cur;

	if (vflash_cache_policy_kind(kind))
		cur = vflash_cache_ctl_policy(cache_of(dev), kind);
	else
		cur = vflash_flash_policy(flash_of(dev), kind);
	return vflash_policy_list(kind, cur, buf, PAGE_SIZE);
}

static ssize_t policy_store(struct device *dev, struct device_attribute *a,
			    const char *buf, size_t count)
{
	const struct vflash_policy *pol;
	int ret;

	pol = vflash_policy_find(to_vflash_attr(a)->index, buf);
	if (!pol)
		return -EINVAL;
	if (vflash_cache_policy_kind(pol->kind))
		ret = vflash_cache_ctl_set_policy(cache_of(dev), pol);
	else
		ret = vflash_flash_set_policy(flash_of(dev), pol);
	return ret ?: count;
}

/* The percentiles of each _p50/_p99/_p999 triple of stats, in that order. */
static const u32 per_mille[] = { 500, 990, 999 };

static ssize_t stat_show(struct device *dev, struct device_attribute *a,
			 char *buf)
{
	struct vflash_flash *f = flash_of(dev);
	int i = to_vflash_attr(a)->index;
	u64 val;
	u32 pm;

	switch (i) {
	case STAT_FREE_BLOCKS_SLC:
	case STAT_FREE_BLOCKS_QLC:
		val = vflash_flash_free_blocks(f, i == STAT_FREE_BLOCKS_SLC);
		break;
	case STAT_WRITE_AMPLIFICATION:
		val = vflash_flash_write_amplification(f);
		break;
	case STAT_READ_P50 ... STAT_READ_P999:
		pm = per_mille[i - STAT_READ_P50];
		val = vflash_flash_read_latency_pct(f, pm);
		break;
	case STAT_MODEL_READ:
		val = vflash_flash_model_read_ns(f);
		break;
	case STAT_MISSES ... STAT_DIRECT_EVICTIONS:
		val = vflash_cache_ctl_stat(cache_of(dev), VFLASH_CACHE_MISSES +
					    (i - STAT_MISSES));
		break;
	case STAT_RESIDENT_PAGES:
		val = vflash_cache_ctl_resident(cache_of(dev));
		break;
	case STAT_MISS_P50 ... STAT_MISS_P999:
		pm = per_mille[i - STAT_MISS_P50];
		val = vflash_cache_ctl_miss_latency_pct(cache_of(dev), pm);
		break;
	case STAT_LATE_P50 ... STAT_LATE_P999:
		pm = per_mille[i - STAT_LATE_P50];
		val = vflash_flash_lateness_pct(f, pm);
		break;
	case STAT_LATE_MAX:
		val = vflash_flash_lateness_max(f);
		break;
	case STAT_STORE_BYTES:
		val = vflash_store_bytes(&to_vflash_dev(dev)->backing);
		break;
	default:
		val = vflash_flash_stat(f, i);
		break;
	}
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t reset_store(struct device *dev, struct device_attribute *a,
			   const char *buf, size_t count)
{
	unsigned int val;

	if (kstrtouint(buf, 0, &val) || val)
		return -EINVAL;
	vflash_flash_reset_stats(flash_of(dev));
	vflash_cache_ctl_reset_stats(cache_of(dev));
	return count;
}

/* config/ numbers the flash model's knobs first, then the cache's. */
#define NR_KNOBS	(VFLASH_KNOB_NR + VFLASH_CACHE_KNOB_NR)

static ssize_t knob_show(struct device *dev, struct device_attribute *a,
			 char *buf)
{
	int i = to_vflash_attr(a)->index;
	u64 val;

	if (i < VFLASH_KNOB_NR)
		val = vflash_flash_knob(flash_of(dev), i);
	else
		val = vflash_cache_ctl_knob(cache_of(dev), i - VFLASH_KNOB_NR);
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t knob_store(struct device *dev, struct device_attribute *a,
			  const char *buf, size_t count)
{
	int i = to_vflash_attr(a)->index;
	u64 val;
	int ret;

	if (kstrtou64(buf, 0, &val))
		return -EINVAL;
	/* Preconditioning writes through the model a held image must keep. */
	if (i == VFLASH_KNOB_PRECONDITION && val &&
	    READ_ONCE(to_vflash_dev(dev)->held)) {
		dev_err(dev, "config/precondition=1: the device is held\n");
		return -EBUSY;
	}
	if (i < VFLASH_KNOB_NR)
		ret = vflash_flash_set_knob(flash_of(dev), i, val);
	else
		ret = vflash_cache_ctl_set_knob(cache_of(dev),
						i - VFLASH_KNOB_NR, val);
	return ret ?: count;
}

/* Per placement handle: host pages, media pages, write amplification. */
enum { PH_HOST, PH_MEDIA, PH_WAF, PH_NR };
#define PH_FILES	(VFLASH_FLASH_MAX_PLACEMENT * PH_NR)

static const char *const ph_suffix[PH_NR] = {
	"host_pages", "media_pages", "write_amplification",
};

/* Their names, "handle<N>_<suffix>", made by vflash_sysfs_init(). */
static char ph_names[PH_FILES][32];

static ssize_t placement_show(struct device *dev, struct device_attribute *a,
			      char *buf)
{
	int i = to_vflash_attr(a)->index;
	u64 host, media, val;

	vflash_flash_placement_stat(flash_of(dev), i / PH_NR, &host, &media);
	switch (i % PH_NR) {
	case PH_HOST:
		val = host;
		break;
	case PH_MEDIA:
		val = media;
		break;
	default:
		/* x 1000, as stats/write_amplification; 0 before a write. */
		val = host ? div64_u64(media * 1000, host) : 0;
		break;
	}
	return sysfs_emit(buf, "%llu\n", val);
}

/* placement/ shows the device's handles only, none on a one-stream device. */
static umode_t placement_visible(struct kobject *kobj, struct attribute *attr,
				 int n)
{
	struct vflash_flash *f = flash_of(kobj_to_dev(kobj));

	return n / PH_NR < vflash_flash_placement_handles(f) ? attr->mode : 0;
}

/* The generated attributes of each group, and the groups. */
static struct vflash_attr *gen_attrs[4];
static struct attribute **gen_ptrs[4];
static struct attribute_group gen_groups[4] = {
	{ .name = "policy" }, { .name = "stats" }, { .name = "config" },
	{ .name = "placement", .is_visible = placement_visible },
};

/* The groups for struct device.groups, set up by vflash_sysfs_init(). */
const struct attribute_group *vflash_backend_groups[5];

static int build_group(int g, unsigned int n,
		       const char *(*name)(unsigned int i), umode_t mode,
		       ssize_t (*show)(struct device *,
				       struct device_attribute *, char *),
		       ssize_t (*store)(struct device *,
					struct device_attribute *,
					const char *, size_t))
{
	unsigned int i;

	gen_attrs[g] = kcalloc(n, sizeof(*gen_attrs[g]), GFP_KERNEL);
	gen_ptrs[g] = kcalloc(n + 1, sizeof(*gen_ptrs[g]), GFP_KERNEL);
	if (!gen_attrs[g] || !gen_ptrs[g])
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct vflash_attr *va = &gen_attrs[g][i];

		sysfs_attr_init(&va->dattr.attr);
		va->dattr.attr.name = name(i);
		va->dattr.attr.mode = mode;
		va->dattr.show = show;
		va->dattr.store = store;
		va->index = i;
		gen_ptrs[g][i] = &va->dattr.attr;
	}
	gen_groups[g].attrs = gen_ptrs[g];
	vflash_backend_groups[g] = &gen_groups[g];
	return 0;
}

static const char *policy_name(unsigned int i)
{
	return vflash_policy_kind_name(i);
}

static const char *stat_name(unsigned int i)
{
	if (i < VFLASH_STAT_NR)
		return vflash_flash_stat_name(i);
	return derived_names[i - VFLASH_STAT_NR];
}

static const char *knob_name(unsigned int i)
{
	if (i < VFLASH_KNOB_NR)
		return vflash_flash_knob_name(i);
	return vflash_cache_ctl_knob_name(i - VFLASH_KNOB_NR);
}

static const char *placement_name(unsigned int i)
{
	return ph_names[i];
}

/**
 * vflash_sysfs_exit() - free what vflash_sysfs_init() built
 */
void vflash_sysfs_exit(void)
{
	int g;

	for (g = 0; g < ARRAY_SIZE(gen_groups); g++) {
		kfree(gen_ptrs[g]);
		kfree(gen_attrs[g]);
		gen_ptrs[g] = NULL;
		gen_attrs[g] = NULL;
		vflash_backend_groups[g] = NULL;
	}
}

/**
 * vflash_sysfs_init() - build the policy/, stats/, config/ and placement/
 *	groups
 *
 * Return: 0 or -ENOMEM, with nothing left allocated.
 */
int vflash_sysfs_init(void)
{
	int ret;

	ret = build_group(0, VFLASH_POLICY_NR, policy_name, 0644, policy_show,
			  policy_store);
	if (!ret)
		ret = build_group(1, STAT_NR_FILES, stat_name, 0444, stat_show,
				  NULL);
	if (!ret) {
		struct vflash_attr *reset = &gen_attrs[1][STAT_RESET];

		reset->dattr.attr.mode = 0200;
		reset->dattr.show = NULL;
		reset->dattr.store = reset_store;
		ret = build_group(2, NR_KNOBS, knob_name, 0644, knob_show,
				  knob_store);
	}
	if (!ret) {
		unsigned int i;

		for (i = 0; i < PH_FILES; i++)
			snprintf(ph_names[i], sizeof(ph_names[i]), "handle%u_%s",
				 i / PH_NR, ph_suffix[i % PH_NR]);
		ret = build_group(3, PH_FILES, placement_name, 0444,
				  placement_show, NULL);
	}
	if (ret)
		vflash_sysfs_exit();
	return ret;
}
