// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/vflash/vflashN/model: what the device's model predicts
 * (docs/design/model.md); the backend does the work.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"

/**
 * vflash_model_show() - a profile's predicted figures, "key value" lines
 * @prof: the profile, with its geometry
 * @like: a device whose knobs and flash policies to take, or NULL
 * @buf: receives the lines (PAGE_SIZE)
 *
 * Return: the length written, or a negative errno (one dmesg line).
 */
ssize_t vflash_model_show(const struct vflash_profile *prof,
			  const struct vflash_flash *like, char *buf)
{
	struct vflash_model *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = vflash_flash_model_predict(prof, like, m);
	if (!ret)
		ret = vflash_flash_model_show(m, buf, PAGE_SIZE);
	else if (ret != -EINTR)
		pr_err("model: profile %s: the scratch model failed (%d)\n",
		       prof->name, ret);
	kfree(m);
	return ret;
}

/*
 * No lock: the scratch model is private; the device's knobs and policy
 * pointers are read with READ_ONCE, as every reader does, and sysfs
 * keeps the device alive while the read runs.
 */
static ssize_t model_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vflash_dev *vdev = to_vflash_dev(dev);

	return vflash_model_show(&vdev->cfg.model, vdev->flash, buf);
}
DEVICE_ATTR_ADMIN_RO(model);
