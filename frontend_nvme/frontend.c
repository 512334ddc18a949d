// SPDX-License-Identifier: GPL-2.0
/*
 * frontend=nvme: attach a virtual NVMe controller to a vflash device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

static unsigned int poll_idle_us = 1000;
module_param(poll_idle_us, uint, 0444);
MODULE_PARM_DESC(poll_idle_us,
		 "NVMe: microseconds without commands after which the dispatcher sleeps between polls (default 1000)");

static struct vflash_frontend nvme_frontend;

static void **priv_slot(struct vflash_dev *vdev)
{
	unsigned int i;

	for (i = 0; i < vdev->cfg.nr_fe; i++)
		if (vdev->cfg.fe[i] == &nvme_frontend)
			return &vdev->fe_priv[i];
	return NULL;
}

static void free_ctrl(struct vfn_ctrl *c)
{
	kvfree(c->heap);
	free_page((unsigned long)c->ident);
	kfree(c);
}

static int nvme_attach(struct vflash_dev *vdev)
{
	struct vfn_ctrl *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->vdev = vdev;
	c->ctrl_id = vdev->id;
	c->poll_idle_ns = (u64)poll_idle_us * NSEC_PER_USEC;
	c->ident = (void *)get_zeroed_page(GFP_KERNEL);
	c->heap = kvcalloc(VFN_INFLIGHT, sizeof(*c->heap), GFP_KERNEL);
	if (!c->ident || !c->heap) {
		free_ctrl(c);
		return -ENOMEM;
	}
	ret = vfn_bar_alloc(c);
	if (ret)
		goto err_free;
	ret = vfn_dispatch_start(c);
	if (ret) {
		pr_err("frontend=nvme: cannot start the dispatcher (%d)\n", ret);
		goto err_bar;
	}
	ret = vfn_pci_create(c);
	if (ret)
		goto err_thread;
	*priv_slot(vdev) = c;
	dev_info(&vdev->dev, "NVMe controller at %s\n", pci_name(c->pdev));
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
	void **slot = priv_slot(vdev);
	struct vfn_ctrl *c = *slot;

	/* The driver's removal-time commands need the dispatcher. */
	vfn_pci_stop(c);
	vfn_dispatch_stop(c);
	vfn_pci_remove(c);
	vfn_bar_free(c);
	free_ctrl(c);
	*slot = NULL;
}

static struct vflash_frontend nvme_frontend = {
	.name = "nvme",
	.attach = nvme_attach,
	.detach = nvme_detach,
};

/**
 * vflash_nvme_register() - make frontend=nvme available
 *
 * Return: 0 or a negative errno.
 */
int vflash_nvme_register(void)
{
	return vflash_frontend_register(&nvme_frontend);
}

/**
 * vflash_nvme_unregister() - undo vflash_nvme_register()
 */
void vflash_nvme_unregister(void)
{
	vflash_frontend_unregister(&nvme_frontend);
}
