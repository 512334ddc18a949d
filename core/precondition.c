// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/vflash/vflashN/precondition: instant preconditioning of a held
 * device (docs/design/precondition.md); the backend does the work.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"

/*
 * Reads and writes take vflash_devices_lock without waiting, as state and
 * image do: it serialises a run with holds, runs, saves, restores and
 * destroys, and the backend's record of the last run with its readers.
 */
static ssize_t precondition_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct vflash_dev *vdev = to_vflash_dev(dev);
	ssize_t ret;

	if (!mutex_trylock(&vflash_devices_lock))
		return vflash_busy_restart();
	ret = vflash_flash_precondition_show(vdev->flash, buf, PAGE_SIZE);
	mutex_unlock(&vflash_devices_lock);
	return ret;
}

static ssize_t precondition_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct vflash_dev *vdev = to_vflash_dev(dev);
	struct vflash_precondition p;
	u64 got, total;
	int ret;

	/* A bad line is refused before anything else, the lock included. */
	ret = vflash_flash_precondition_parse(vdev->flash, buf, &p);
	if (ret)
		return ret;
	if (!mutex_trylock(&vflash_devices_lock))
		return vflash_busy_restart();
	if (!vdev->held) {
		dev_err(dev, "precondition: the device is running: hold it first (state=held)\n");
		ret = -EBUSY;
	} else if (vflash_image_incomplete(vdev, &got, &total)) {
		dev_err(dev, "precondition: an image's restore is under way\n");
		ret = -EBUSY;
	} else {
		/* A save under way would mix two states: it ends. */
		vflash_image_drop(vdev, true);
		ret = vflash_flash_precondition(vdev->flash, &p,
						ktime_get_ns());
	}
	mutex_unlock(&vflash_devices_lock);
	return ret ?: count;
}
DEVICE_ATTR_RW(precondition);
