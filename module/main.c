// SPDX-License-Identifier: GPL-2.0
/*
 * vflash: an emulated flash SSD with a CXL.mem or an NVMe frontend.
 *
 * Module entry points: read the parameters, create the device they
 * describe (vflash0) if they describe one, open configfs for more, tear
 * it all down. Everything a failed load did is undone before init returns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "core/params.h"
#include "policy/policy.h"
#include "core/vflash.h"
#include "frontend_cxl/cxl.h"
#include "frontend_nvme/nvme.h"

static char *frontend;
module_param(frontend, charp, 0444);
MODULE_PARM_DESC(frontend,
		 "Host interface(s), comma-separated: nvme, cxl or none (without it and size/memmap/profile/geometry: no device at load, configfs only)");

static char *size;
module_param(size, charp, 0444);
MODULE_PARM_DESC(size,
		 "Capacity of memory vflash allocates itself, memparse syntax (default "
		 VFLASH_DEFAULT_SIZE ")");

static char *memmap_start;
module_param(memmap_start, charp, 0444);
MODULE_PARM_DESC(memmap_start,
		 "Start of a range reserved at boot with memmap= (with memmap_size)");

static char *memmap_size;
module_param(memmap_size, charp, 0444);
MODULE_PARM_DESC(memmap_size,
		 "Length of that range, memparse syntax (with memmap_start)");

static char *profile;
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile,
		 "Flash model: qlc-hybrid, znand, cylon, tlc, samsung-970pro, optane, cxdvirt-znand, zn540 (default "
		 VFLASH_DEFAULT_PROFILE ")");

static char *channels;
module_param(channels, charp, 0444);
MODULE_PARM_DESC(channels,
		 "Geometry: flash channels, 1-64 (default: the profile's)");

static char *dies_per_channel;
module_param(dies_per_channel, charp, 0444);
MODULE_PARM_DESC(dies_per_channel,
		 "Geometry: dies on each channel, 1-64 (default: the profile's)");

/* page_size() is the kernel's: the variable has another name. */
static char *flash_page_size;
module_param_named(page_size, flash_page_size, charp, 0444);
MODULE_PARM_DESC(page_size,
		 "Geometry: flash page bytes, a power of two from 4K to 64K (default: the profile's)");

static char *pages_per_block;
module_param(pages_per_block, charp, 0444);
MODULE_PARM_DESC(pages_per_block,
		 "Geometry: flash pages in an erase block, 4-4096 (default: the profile's)");

static char *op_percent;
module_param(op_percent, charp, 0444);
MODULE_PARM_DESC(op_percent,
		 "Geometry: over-provisioning in percent of the capacity, 1-100 (default: the profile's)");

static char *store;
module_param(store, charp, 0444);
MODULE_PARM_DESC(store,
		 "What holds the data: full (every page in memory), sparse (written pages only) or none (timing only) (default "
		 VFLASH_DEFAULT_STORE ")");

static char *hold;
module_param(hold, charp, 0444);
MODULE_PARM_DESC(hold,
		 "1: create the device held, no frontend attached, for an image to restore; its sysfs state=running starts it (default 0)");

/* The frontends built into the module, registered in this order. */
static struct vflash_frontend *const builtin_frontends[] = {
	&vflash_nvme_frontend,
	&vflash_cxl_frontend,
};

/*
 * The device of the module parameters, or NULL; written only by init and
 * exit, which never overlap, under vflash_devices_lock.
 */
static struct vflash_dev *vflash_dev;

/* Whether the parameters describe a device: any of its own is given. */
static bool wants_device(const struct vflash_param_strings *in)
{
	return in->frontend || in->size || in->memmap_start ||
	       in->memmap_size || in->profile || in->channels ||
	       in->dies_per_channel || in->page_size || in->pages_per_block ||
	       in->op_percent;
}

static int __init vflash_init(void)
{
	const struct vflash_param_strings in = {
		.frontend = frontend,
		.size = size,
		.memmap_start = memmap_start,
		.memmap_size = memmap_size,
		.profile = profile,
		.store = store,
		.channels = channels,
		.dies_per_channel = dies_per_channel,
		.page_size = flash_page_size,
		.pages_per_block = pages_per_block,
		.op_percent = op_percent,
		.hold = hold,
	};
	struct vflash_param_error err;
	/* On the heap: the config is too large for an init frame (KASAN). */
	struct vflash_config *cfg = NULL;
	int ret;

	ret = vflash_policies_init();
	if (ret) {
		pr_err("cannot register the built-in policies (%d)\n", ret);
		return ret;
	}
	ret = vflash_sysfs_init();
	if (ret) {
		pr_err("cannot build the sysfs attributes (%d)\n", ret);
		goto err_policies;
	}
	ret = vflash_frontends_init(builtin_frontends,
				    ARRAY_SIZE(builtin_frontends));
	if (ret) {
		pr_err("cannot register the built-in frontends (%d)\n", ret);
		goto err_sysfs;
	}

	if (wants_device(&in)) {
		cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
		if (!cfg) {
			ret = -ENOMEM;
			goto err_frontends;
		}
		ret = vflash_parse_config(&in, cfg, &err);
		if (ret) {
			if (err.value)
				pr_err("%s=%s: %s\n", err.param, err.value,
				       err.why);
			else
				pr_err("%s: %s\n", err.param, err.why);
			goto err_frontends;
		}
	}

	vflash_debugfs_init();
	ret = class_register(&vflash_class);
	if (ret) {
		pr_err("cannot register the " VFLASH_NAME " class (%d)\n", ret);
		goto err_debugfs;
	}
	ret = vflash_devices_init();
	if (ret)
		goto err_class;

	if (cfg) {
		mutex_lock(&vflash_devices_lock);
		vflash_dev = vflash_dev_create(cfg, NULL);
		mutex_unlock(&vflash_devices_lock);
		if (IS_ERR(vflash_dev)) {
			ret = PTR_ERR(vflash_dev);
			vflash_dev = NULL;
			goto err_devices;
		}
	}

	ret = vflash_configfs_init();
	if (ret)
		goto err_dev;
	kfree(cfg);
	return 0;

err_dev:
	if (vflash_dev) {
		mutex_lock(&vflash_devices_lock);
		vflash_dev_destroy(vflash_dev);
		vflash_dev = NULL;
		mutex_unlock(&vflash_devices_lock);
	}
err_devices:
	vflash_devices_exit();
err_class:
	class_unregister(&vflash_class);
err_debugfs:
	vflash_debugfs_exit();
err_frontends:
	kfree(cfg);
	vflash_frontends_exit();
err_sysfs:
	vflash_sysfs_exit();
err_policies:
	vflash_policies_exit();
	return ret;
}

static void __exit vflash_exit(void)
{
	/* Its directories hold the module: none is left. */
	vflash_configfs_exit();
	mutex_lock(&vflash_devices_lock);
	if (vflash_dev)
		vflash_dev_destroy(vflash_dev);
	vflash_dev = NULL;
	mutex_unlock(&vflash_devices_lock);
	vflash_devices_exit();
	class_unregister(&vflash_class);
	vflash_debugfs_exit();
	vflash_frontends_exit();
	vflash_sysfs_exit();
	vflash_policies_exit();
}

module_init(vflash_init);
module_exit(vflash_exit);

MODULE_DESCRIPTION("vflash: flash SSD emulator with CXL.mem and NVMe frontends");
MODULE_AUTHOR("The vflash developers");
MODULE_LICENSE("GPL");
