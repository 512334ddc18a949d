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

static char *ns1_size;
module_param(ns1_size, charp, 0444);
MODULE_PARM_DESC(ns1_size,
		 "NVMe: size of namespace 1 at load in bytes (K, M, G suffixes), a multiple of 4K, 0 for no namespace; the rest of the device is left to Namespace Management (default: the whole device)");

static char *cpus;
module_param(cpus, charp, 0444);
MODULE_PARM_DESC(cpus,
		 "NVMe: CPU list the dispatcher and completion workers are bound to, one thread per CPU round-robin (default: not bound)");

static unsigned int workers = 1;
module_param(workers, uint, 0444);
MODULE_PARM_DESC(workers,
		 "NVMe: completion workers, 0 (the dispatcher completes) to 8 (default 1)");

struct vfn_params {
	unsigned int lba_size;
	unsigned int workers;
	unsigned int poll_idle_us;
	unsigned int spin_us;
	unsigned int nap_max_us;
	const char *cpus;
	const char *ns1_size;
	struct vfn_zns_params zns;
	struct vfn_fdp_params fdp;
};

/* Where parameter @arg of @p goes; false if it is not this frontend's. */
static bool find_arg(struct vfn_params *p, enum vflash_fe_arg arg,
		     struct vfn_arg *a)
{
	switch (arg) {
	case VFLASH_ARG_LBA_SIZE:
		return vfn_arg_uint(a, "lba_size", &p->lba_size);
	case VFLASH_ARG_WORKERS:
		return vfn_arg_uint(a, "workers", &p->workers);
	case VFLASH_ARG_POLL_IDLE_US:
		return vfn_arg_uint(a, "poll_idle_us", &p->poll_idle_us);
	case VFLASH_ARG_SPIN_US:
		return vfn_arg_uint(a, "spin_us", &p->spin_us);
	case VFLASH_ARG_NAP_MAX_US:
		return vfn_arg_uint(a, "nap_max_us", &p->nap_max_us);
	case VFLASH_ARG_CPUS:
		return vfn_arg_str(a, "cpus", &p->cpus);
	case VFLASH_ARG_NS1_SIZE:
		return vfn_arg_str(a, "ns1_size", &p->ns1_size);
	default:
		return vfn_zns_arg(&p->zns, arg, a) ||
		       vfn_fdp_arg(&p->fdp, arg, a);
	}
}

/* Parameter @arg of @p from the string @val; one dmesg line if junk. */
static int parse_arg(struct vfn_params *p, enum vflash_fe_arg arg,
		     const char *val)
{
	struct vfn_arg a;

	if (!find_arg(p, arg, &a))
		return 0;
	if (!a.uint) {
		*a.str = val;
		return 0;
	}
	if (kstrtouint(val, 0, a.uint)) {
		pr_err("%s=%s: not an unsigned number\n", a.name, val);
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
	default:
		return vfn_zns_check_arg(&p->zns, arg) ?:
		       vfn_fdp_check_arg(&p->fdp, arg);
	}
}

/* frontend->check_arg: the syntax and range of one value. */
static int nvme_check_arg(enum vflash_fe_arg arg, const char *val)
{
	struct vfn_params p = { 0 };
	cpumask_var_t mask;
	struct vfn_arg a;
	int ret;

	if (!find_arg(&p, arg, &a))
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

	for (arg = 0; arg < VFLASH_NR_ARGS; arg++) {
		const char *val = vflash_config_arg(cfg, arg);

		if (!val)
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
	struct vfn_params p = { 0 };

	vfn_zns_params_load(&p.zns);
	vfn_fdp_params_load(&p.fdp);
	if (parse_given(cfg, &p))
		return 0;
	return p.fdp.fdp ? vfn_fdp_write_streams(&p.fdp) :
			   vfn_zns_write_streams(&p.zns);
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
		.ns1_size = ns1_size,
	};
	enum vflash_fe_arg arg;
	int ret;

	vfn_zns_params_load(&p.zns);
	vfn_fdp_params_load(&p.fdp);
	ret = parse_given(cfg, &p);
	if (ret)
		return ret;
	for (arg = 0; arg < VFLASH_NR_ARGS; arg++) {
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
	if (p->fdp.fdp) {
		ret = vfn_fdp_setup(c, &p->fdp, p->zns.zoned);
		if (ret < 0)
			return ret;
		nr_ph = ret;
	} else {
		ret = vfn_zns_setup(c, &p->zns, shift, ns1, size, &zg);
		if (ret)
			return ret;
	}
	vfn_nstab_init(&c->nst, size >> VFLASH_LPAGE_SHIFT, shift, nr_ph, &zg);
	if (!ns1) {
		clear_pages(c, 0);
		return 0;
	}
	spec.csi = p->zns.zoned ? NVME_CSI_ZNS : NVME_CSI_NVM;
	spec.nsze = ns1 >> shift;
	if (p->zns.zoned) {
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
	clear_pages(c, p->zns.zoned ? 0 : c->nst.nsd[0].pages);
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

/* Free what a detach frees: all but the first VFN_KEPT_BYTES. */
static void stop_ctrl(struct vfn_ctrl *c)
{
	u32 k;

	for (k = 0; k <= VFN_MAX_WORKERS; k++) {
		kvfree(c->heap[k].cmd);
		c->heap[k].cmd = NULL;
	}
	free_cpumask_var(c->cpus);
	free_page((unsigned long)c->ident);
	c->ident = NULL;
}

/* Free a stopped controller: what it kept, and itself. */
static void free_kept(struct vfn_ctrl *c)
{
	kvfree(c->zreport);
	vfn_nstab_exit(&c->nst);
	kfree(c);
}

static void free_ctrl(struct vfn_ctrl *c)
{
	stop_ctrl(c);
	free_kept(c);
}

/*
 * The controller of @vdev's next attach: the one an earlier attach left
 * (held, what it keeps intact and the rest zeroed: VFN_KEPT_BYTES), or a new one whose
 * namespaces are made from the configuration (*@fresh).
 */
static int alloc_ctrl(struct vflash_dev *vdev, struct vfn_ctrl **out,
		      bool *fresh)
{
	struct vfn_ctrl *c = *vflash_frontend_priv(vdev, &vflash_nvme_frontend);
	struct vfn_params p;
	u32 k;
	int ret;

	*fresh = !c;
	if (c)
		memset((u8 *)c + VFN_KEPT_BYTES, 0,
		       sizeof(*c) - VFN_KEPT_BYTES);
	else
		c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	ret = -ENOMEM;
	if (!zalloc_cpumask_var(&c->cpus, GFP_KERNEL))
		goto err;
	c->vdev = vdev;
	c->ops = &vfn_ops;
	ret = parse_params(c, &p);
	if (ret)
		goto err;
	if (*fresh) {
		ret = setup_ns(c, &p);
		if (ret)
			goto err;
	} else {
		/* A hold and a run: the host sees a power cycle. */
		c->power_cycles++;
		c->fdp.next_sync_ns = 0;
	}
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
	if (*fresh)
		free_ctrl(c);
	else
		stop_ctrl(c);
	return ret;
}

static int nvme_attach(struct vflash_dev *vdev)
{
	struct vfn_ctrl *c;
	bool fresh;
	int ret;

	ret = alloc_ctrl(vdev, &c, &fresh);
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
	if (fresh)
		free_ctrl(c);
	else
		stop_ctrl(c);
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
	c->powered_ns += ktime_get_ns() - c->attach_ns;
	/* What it keeps stays, for the next attach or nvme_release(). */
	stop_ctrl(c);
}

/*
 * frontend->release: the device is destroyed (or a restore refused): free
 * the controller an attach left.
 */
static void nvme_release(struct vflash_dev *vdev)
{
	void **slot = vflash_frontend_priv(vdev, &vflash_nvme_frontend);

	if (*slot)
		free_kept(*slot);
	*slot = NULL;
}

/*
 * frontend->img_save: what a held device's controller keeps; nothing if
 * it never attached (the configuration makes it again).
 */
static ssize_t nvme_img_save(struct vflash_dev *vdev, void **blob)
{
	struct vfn_ctrl *c = *vflash_frontend_priv(vdev, &vflash_nvme_frontend);

	return c ? vfn_img_save(c, ktime_get_ns(), blob) : 0;
}

/*
 * frontend->img_load: a controller built from the configuration, not
 * attached, takes what the image kept; the next attach starts from it.
 */
static int nvme_img_load(struct vflash_dev *vdev, const void *blob,
			 size_t len)
{
	struct vfn_ctrl *c;
	bool fresh;
	int ret;

	nvme_release(vdev);
	ret = alloc_ctrl(vdev, &c, &fresh);
	if (ret)
		return ret;
	stop_ctrl(c);
	ret = vfn_img_load(c, blob, len, ktime_get_ns());
	if (ret) {
		free_kept(c);
		return ret;
	}
	*vflash_frontend_priv(vdev, &vflash_nvme_frontend) = c;
	return 0;
}

/*
 * frontend->hold: the host has shut the controller down (or never enabled
 * it). Everything a real drive keeps across a power cycle stays in
 * the controller for the next attach: the namespaces and their formats, zones,
 * FDP, Write Uncorrectable marks, SMART's counters.
 */
static int nvme_hold(struct vflash_dev *vdev)
{
	struct vfn_ctrl *c = *vflash_frontend_priv(vdev, &vflash_nvme_frontend);

	if (READ_ONCE(c->enabled) && !READ_ONCE(c->shut_clean)) {
		dev_err(&vdev->dev, "state=held: its NVMe controller is in use (enabled, not shut down): unbind the nvme driver from %s first\n",
			pci_name(c->pdev));
		return -EBUSY;
	}
	return 0;
}

/* Registered by the core's table of built-in frontends (core/main.c). */
struct vflash_frontend vflash_nvme_frontend = {
	.name = "nvme",
	.hold = nvme_hold,
	.attach = nvme_attach,
	.detach = nvme_detach,
	.release = nvme_release,
	.img_save = nvme_img_save,
	.img_load = nvme_img_load,
	.check_arg = nvme_check_arg,
	.placement_handles = nvme_placement_handles,
};
