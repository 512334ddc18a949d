// SPDX-License-Identifier: GPL-2.0
/*
 * frontend=nvme: attach a virtual NVMe controller to a vflash device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define MAX_WAIT_US	USEC_PER_SEC

static unsigned int poll_idle_us = 1000;
module_param(poll_idle_us, uint, 0444);
MODULE_PARM_DESC(poll_idle_us,
		 "NVMe: microseconds without commands after which the dispatcher sleeps between polls, 0 to 1000000 (default 1000)");

static unsigned int spin_us = 20;
module_param(spin_us, uint, 0444);
MODULE_PARM_DESC(spin_us,
		 "NVMe: a completion due within this many microseconds is waited for by spinning, a later one by sleeping until then, 0 to 1000000 (default 20)");

static unsigned int lba_size = 4096;
module_param(lba_size, uint, 0444);
MODULE_PARM_DESC(lba_size, "NVMe: logical block size, 512 or 4096 (default 4096)");

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
	const char *cpus;
};

static const char *const arg_names[] = {
	[VFLASH_ARG_LBA_SIZE] = "lba_size",
	[VFLASH_ARG_WORKERS] = "workers",
	[VFLASH_ARG_POLL_IDLE_US] = "poll_idle_us",
	[VFLASH_ARG_SPIN_US] = "spin_us",
	[VFLASH_ARG_CPUS] = "cpus",
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
	default:
		return NULL;
	}
}

/* Parameter @arg of @p from the string @val; one dmesg line if junk. */
static int parse_arg(struct vfn_params *p, enum vflash_fe_arg arg,
		     const char *val)
{
	unsigned int *field = uint_field(p, arg);

	if (!field) {
		p->cpus = val;
		return 0;
	}
	if (kstrtouint(val, 0, field)) {
		pr_err("%s=%s: not an unsigned number\n", arg_names[arg], val);
		return -EINVAL;
	}
	return 0;
}

/* Check parameter @arg of @p; one dmesg line naming it if it is bad. */
static int check_arg(const struct vfn_params *p, enum vflash_fe_arg arg,
		     struct cpumask *mask)
{
	unsigned int cpu;
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

/*
 * This frontend's parameters for @c's device: its own values (configfs),
 * else the module parameters. One dmesg line for the first bad one.
 */
static int parse_params(struct vfn_ctrl *c)
{
	const struct vflash_config *cfg = &c->vdev->cfg;
	struct vfn_params p = {
		.lba_size = lba_size,
		.workers = workers,
		.poll_idle_us = poll_idle_us,
		.spin_us = spin_us,
		.cpus = cpus,
	};
	enum vflash_fe_arg arg;
	int ret;

	for (arg = 0; arg < ARRAY_SIZE(arg_names); arg++) {
		const char *val = vflash_config_arg(cfg, arg);

		if (!is_nvme_arg(arg) || !val)
			continue;
		ret = parse_arg(&p, arg, val);
		if (ret)
			return ret;
	}
	for (arg = 0; arg < ARRAY_SIZE(arg_names); arg++) {
		if (!is_nvme_arg(arg))
			continue;
		ret = check_arg(&p, arg, c->cpus);
		if (ret)
			return ret;
	}
	c->ns.lba_shift = ilog2(p.lba_size);
	c->nr_workers = p.workers;
	c->poll_idle_ns = (u64)p.poll_idle_us * NSEC_PER_USEC;
	c->spin_ns = (u64)p.spin_us * NSEC_PER_USEC;
	return 0;
}

/* What dispatch.c runs: this folder's calls go one way (nvme.h). */
static const struct vfn_ctrl_ops vfn_ops = {
	.admin = vfn_admin,
	.admin_reset = vfn_admin_reset,
	.io = vfn_io,
	.raise_irq = vfn_raise_irq,
};

static void free_ctrl(struct vfn_ctrl *c)
{
	u32 k;

	for (k = 0; k <= VFN_MAX_WORKERS; k++)
		kvfree(c->heap[k].cmd);
	free_cpumask_var(c->cpus);
	free_page((unsigned long)c->ident);
	kfree(c);
}

static int alloc_ctrl(struct vflash_dev *vdev, struct vfn_ctrl **out)
{
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
	ret = parse_params(c);
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
	c->ns.nsze = vdev->cfg.size_bytes >> c->ns.lba_shift;
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
		 pci_name(c->pdev), 1U << c->ns.lba_shift);
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
};
