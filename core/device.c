// SPDX-License-Identifier: GPL-2.0
/*
 * The device object: its class device under /sys/class/vflash, its backing
 * memory and the frontends attached to it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/vflash.h"

struct class vflash_class = {
	.name = VFLASH_NAME,
};

/*
 * Serialises creating and destroying every device (configfs power and
 * rmdir, and the module's own device at load and unload), holding and
 * running one, its image, and protects every vflash_cfs_dev's @val and
 * @vdev (core/configfs.c).
 */
DEFINE_MUTEX(vflash_devices_lock);

/* Instance numbers of live devices; the IDA has its own lock. */
static DEFINE_IDA(vflash_ida);

/* Minor N is /dev/vflash<N>; set before any device exists. */
static dev_t vflash_devt_base;

static ssize_t frontend_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	char names[VFLASH_MAX_FRONTENDS * 16];

	vflash_frontend_list(&to_vflash_dev(dev)->cfg, names, sizeof(names));
	return sysfs_emit(buf, "%s\n", names);
}
static DEVICE_ATTR_RO(frontend);

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_vflash_dev(dev)->cfg.size_bytes);
}
static DEVICE_ATTR_RO(size);

static ssize_t profile_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", to_vflash_dev(dev)->cfg.profile->name);
}
static DEVICE_ATTR_RO(profile);

/* store: what holds the data, as configured (store=; full with memmap=) */
static ssize_t store_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  vflash_store_mode_name(to_vflash_dev(dev)->cfg.store));
}
static DEVICE_ATTR_RO(store);

/* geometry/: the flash model in force, the profile's with the overrides. */
#define VFLASH_GEOM_ATTR(_name, _field)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%u\n",					\
			  to_vflash_dev(dev)->cfg.model._field);	\
}									\
static DEVICE_ATTR_RO(_name)

VFLASH_GEOM_ATTR(channels, channels);
VFLASH_GEOM_ATTR(dies_per_channel, dies_per_channel);
VFLASH_GEOM_ATTR(page_size, flash_page_bytes);
VFLASH_GEOM_ATTR(pages_per_block, pages_per_block);
VFLASH_GEOM_ATTR(op_percent, op_pct);

static struct attribute *vflash_geom_attrs[] = {
	&dev_attr_channels.attr,
	&dev_attr_dies_per_channel.attr,
	&dev_attr_page_size.attr,
	&dev_attr_pages_per_block.attr,
	&dev_attr_op_percent.attr,
	NULL,
};

static const struct attribute_group vflash_geom_group = {
	.name = "geometry",
	.attrs = vflash_geom_attrs,
};

static int dev_set_running(struct vflash_dev *vdev);
static int dev_set_held(struct vflash_dev *vdev);

/**
 * vflash_busy_restart() - vflash_devices_lock is taken (a create, destroy,
 *	hold, restore or precondition under way): the system call is
 *	restarted after a pause of 5-10 ms, as lock_device_hotplug_sysfs()
 *	does, rather than spin
 *
 * Return: what a sysfs callback returns to restart its call.
 */
int vflash_busy_restart(void)
{
	usleep_range(5000, 10000);
	return restart_syscall();
}

/*
 * state: held or running (docs/design/image.md). Writes, and the image's
 * reads and writes, take vflash_devices_lock without waiting: a destroy
 * holds it while it removes these files, which waits for them.
 */
static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", READ_ONCE(to_vflash_dev(dev)->held) ?
			  "held" : "running");
}

static ssize_t state_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct vflash_dev *vdev = to_vflash_dev(dev);
	bool hold;
	int ret = 0;

	if (sysfs_streq(buf, "held")) {
		hold = true;
	} else if (sysfs_streq(buf, "running")) {
		hold = false;
	} else {
		dev_err(dev, "state=%.*s: must be held or running\n",
			(int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	if (!mutex_trylock(&vflash_devices_lock))
		return vflash_busy_restart();
	if (hold != vdev->held)
		ret = hold ? dev_set_held(vdev) : dev_set_running(vdev);
	mutex_unlock(&vflash_devices_lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(state);

static ssize_t image_read(struct file *filp, struct kobject *kobj,
			  struct bin_attribute *attr, char *buf, loff_t pos,
			  size_t count)
{
	struct vflash_dev *vdev = to_vflash_dev(kobj_to_dev(kobj));
	ssize_t ret;

	if (!mutex_trylock(&vflash_devices_lock))
		return vflash_busy_restart();
	ret = vflash_image_read(vdev, buf, pos, count);
	mutex_unlock(&vflash_devices_lock);
	return ret;
}

static ssize_t image_write(struct file *filp, struct kobject *kobj,
			   struct bin_attribute *attr, char *buf, loff_t pos,
			   size_t count)
{
	struct vflash_dev *vdev = to_vflash_dev(kobj_to_dev(kobj));
	ssize_t ret;

	if (!mutex_trylock(&vflash_devices_lock))
		return vflash_busy_restart();
	ret = vflash_image_write(vdev, buf, pos, count);
	mutex_unlock(&vflash_devices_lock);
	return ret;
}

/* Size 0: no end but the image's own. */
static BIN_ATTR(image, 0600, image_read, image_write, 0);

static struct attribute *vflash_dev_attrs[] = {
	&dev_attr_frontend.attr,
	&dev_attr_size.attr,
	&dev_attr_profile.attr,
	&dev_attr_store.attr,
	&dev_attr_state.attr,
	&dev_attr_precondition.attr,
	&dev_attr_model.attr,
	NULL,
};

static struct bin_attribute *vflash_dev_bin_attrs[] = {
	&bin_attr_image,
	NULL,
};

static const struct attribute_group vflash_dev_group = {
	.attrs = vflash_dev_attrs,
	.bin_attrs = vflash_dev_bin_attrs,
};

/* The core's attributes and geometry/, then the backend's (sysfs.c). */
static const struct attribute_group *vflash_dev_groups[7];

static void vflash_dev_release(struct device *dev)
{
	struct vflash_dev *vdev = to_vflash_dev(dev);

	ida_free(&vflash_ida, vdev->id);
	kfree(vdev);
}

static void detach_frontends(struct vflash_dev *vdev)
{
	while (vdev->nr_attached) {
		const struct vflash_frontend *fe;

		fe = vdev->cfg.fe[--vdev->nr_attached];
		fe->detach(vdev);
	}
}

/* Whether a frontend of @cfg serves a character device. */
static bool wants_char_dev(const struct vflash_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_fe; i++)
		if (cfg->fe[i]->char_dev)
			return true;
	return false;
}

/**
 * vflash_devices_init() - reserve the devices' character device numbers
 *
 * Return: 0 or a negative errno after one dmesg line.
 */
int vflash_devices_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&vflash_devt_base, 0, VFLASH_MAX_DEVICES,
				  VFLASH_NAME);
	if (ret)
		pr_err("no character device numbers left (%d)\n", ret);
	return ret;
}

/**
 * vflash_devices_exit() - undo vflash_devices_init(); no device is left
 */
void vflash_devices_exit(void)
{
	unregister_chrdev_region(vflash_devt_base, VFLASH_MAX_DEVICES);
}

/**
 * vflash_dev_create() - create, register and expose one device
 * @cfg: a configuration that vflash_parse_config() accepted
 * @cfs_item: the configfs directory it is made for, or NULL
 *
 * Return: the device, or an ERR_PTR() after one dmesg line, with
 * everything undone.
 */
struct vflash_dev *vflash_dev_create(const struct vflash_config *cfg,
				     struct config_item *cfs_item)
{
	struct vflash_dev *vdev;
	char name[16];
	dev_t devt = 0;
	unsigned int i;
	int ret;

	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	if (!vdev)
		return ERR_PTR(-ENOMEM);
	vdev->cfg = *cfg;
	vdev->cfs_item = cfs_item;

	ret = ida_alloc_max(&vflash_ida, VFLASH_MAX_DEVICES - 1, GFP_KERNEL);
	if (ret < 0) {
		pr_err("no device number left: %d devices exist (%d)\n",
		       VFLASH_MAX_DEVICES, ret);
		kfree(vdev);
		return ERR_PTR(ret);
	}
	vdev->id = ret;

	ret = vflash_backing_init(&vdev->backing, cfg);
	if (ret)
		goto err_ida;

	/* The write streams its frontends place data into. */
	for (i = 0; i < cfg->nr_fe; i++)
		if (cfg->fe[i]->placement_handles)
			vdev->cfg.model.placement_handles =
				max(vdev->cfg.model.placement_handles,
				    cfg->fe[i]->placement_handles(cfg));
	/* The backend keeps the model: the device's own copy. */
	vdev->flash = vflash_flash_create(&vdev->cfg.model, cfg->size_bytes);
	if (IS_ERR(vdev->flash)) {
		ret = PTR_ERR(vdev->flash);
		if (ret == -E2BIG)
			pr_err("size: %llu bytes is more than the FTL can map\n",
			       cfg->size_bytes);
		else
			pr_err("profile=%s: cannot set up the flash model (%d)\n",
			       cfg->profile->name, ret);
		goto err_backing;
	}
	vflash_flash_set_id(vdev->flash, vdev->id);
	ret = vflash_cache_ctl_init(&vdev->cache_ctl, vdev->id);
	if (ret) {
		pr_err("cannot set up the DRAM cache control of " VFLASH_NAME "%d (%d)\n",
		       vdev->id, ret);
		goto err_ctl;
	}
	snprintf(name, sizeof(name), VFLASH_NAME "%d", vdev->id);
	ret = vflash_faults_init(&vdev->faults, vdev->flash,
				 cfg->size_bytes / VFLASH_LPAGE_SIZE, name);
	if (ret)
		goto err_ctl;
	/* A power cut restores pages of this memory. */
	vdev->faults.pl.backing = &vdev->backing;

	vflash_dev_groups[0] = &vflash_dev_group;
	vflash_dev_groups[1] = &vflash_geom_group;
	memcpy(&vflash_dev_groups[2], vflash_backend_groups,
	       4 * sizeof(vflash_dev_groups[0]));

	if (wants_char_dev(cfg))
		devt = MKDEV(MAJOR(vflash_devt_base), vdev->id);

	/* From here on, put_device() frees vdev and its id. */
	device_initialize(&vdev->dev);
	vdev->dev.devt = devt;
	vdev->dev.class = &vflash_class;
	vdev->dev.groups = vflash_dev_groups;
	vdev->dev.release = vflash_dev_release;
	ret = dev_set_name(&vdev->dev, VFLASH_NAME "%d", vdev->id);
	if (!ret)
		ret = device_add(&vdev->dev);
	if (ret) {
		pr_err("cannot register " VFLASH_NAME "%d in sysfs (%d)\n",
		       vdev->id, ret);
		goto err_put;
	}

	vflash_debugfs_add(vdev);
	ret = vflash_faults_add_sysfs(&vdev->faults, &vdev->dev.kobj);
	if (ret) {
		pr_err("cannot create the fault files of " VFLASH_NAME "%d (%d)\n",
		       vdev->id, ret);
		goto err_debugfs;
	}

	vdev->held = true;
	if (!cfg->hold) {
		ret = dev_set_running(vdev);
		if (ret)
			goto err_sysfs;
	}

	dev_info(&vdev->dev, "%llu bytes (%s), profile %s%s\n",
		 cfg->size_bytes, cfg->use_memmap ? "memmap range" : "allocated",
		 cfg->profile->name, vdev->held ? ", held" : "");
	return vdev;

err_sysfs:
	vflash_frontends_release(vdev);
	vflash_faults_remove_sysfs(&vdev->faults);
err_debugfs:
	vflash_debugfs_remove(vdev);
	device_del(&vdev->dev);
err_put:
	vflash_faults_destroy(&vdev->faults);
	vflash_cache_ctl_exit(&vdev->cache_ctl);
	vflash_flash_destroy(vdev->flash);
	vflash_backing_exit(&vdev->backing);
	put_device(&vdev->dev);
	return ERR_PTR(ret);

err_ctl:
	vflash_cache_ctl_exit(&vdev->cache_ctl);
	vflash_flash_destroy(vdev->flash);
err_backing:
	vflash_backing_exit(&vdev->backing);
err_ida:
	ida_free(&vflash_ida, vdev->id);
	kfree(vdev);
	return ERR_PTR(ret);
}

/**
 * vflash_dev_destroy() - undo vflash_dev_create()
 * @vdev: the device; frontends are detached first, so no user can reach
 *	the backing memory when it is released
 */
void vflash_dev_destroy(struct vflash_dev *vdev)
{
	detach_frontends(vdev);
	vflash_frontends_release(vdev);
	vflash_image_drop(vdev, false);
	vflash_faults_remove_sysfs(&vdev->faults);
	vflash_debugfs_remove(vdev);
	device_del(&vdev->dev);
	vflash_faults_destroy(&vdev->faults);
	vflash_cache_ctl_exit(&vdev->cache_ctl);
	vflash_flash_destroy(vdev->flash);
	vflash_backing_exit(&vdev->backing);
	put_device(&vdev->dev);
}

/*
 * A held device runs: the worker starts, the frontends attach. A restore
 * under way and not finished is refused; a save under way ends.
 */
static int dev_set_running(struct vflash_dev *vdev)
{
	u64 got, total;
	int ret;

	if (vflash_image_incomplete(vdev, &got, &total)) {
		dev_err(&vdev->dev, "state=running: the image's restore is not finished (%llu of %llu bytes): write the rest, or all of it again from offset 0\n",
			got, total);
		return -EINVAL;
	}
	vflash_image_drop(vdev, true);
	ret = vflash_flash_start_worker(vdev->flash, dev_name(&vdev->dev));
	if (ret) {
		dev_err(&vdev->dev, "cannot start the GC worker (%d)\n", ret);
		return ret;
	}
	for (; vdev->nr_attached < vdev->cfg.nr_fe; vdev->nr_attached++) {
		ret = vdev->cfg.fe[vdev->nr_attached]->attach(vdev);
		if (ret)
			goto err;
	}
	WRITE_ONCE(vdev->held, false);
	vdev->ran = true;
	return 0;
err:
	detach_frontends(vdev);
	vflash_flash_stop_worker(vdev->flash);
	return ret;
}

/*
 * A running device is held: its frontends agree (no user left, nothing
 * of theirs lost at the next attach) and detach, the worker stops; the
 * flash model and the store stay.
 */
static int dev_set_held(struct vflash_dev *vdev)
{
	unsigned int i = vdev->nr_attached;
	int ret = 0;

	while (i--) {
		const struct vflash_frontend *fe = vdev->cfg.fe[i];

		if (!fe->hold) {
			dev_err(&vdev->dev, "state=held: frontend %s cannot be held\n",
				fe->name);
			ret = -EOPNOTSUPP;
		} else {
			ret = fe->hold(vdev);
		}
		if (ret)
			goto err;
	}
	detach_frontends(vdev);
	vflash_flash_stop_worker(vdev->flash);
	WRITE_ONCE(vdev->held, true);
	return 0;
err:
	while (++i < vdev->nr_attached)
		if (vdev->cfg.fe[i]->resume)
			vdev->cfg.fe[i]->resume(vdev);
	return ret;
}

/**
 * vflash_dev_quiesce() - keep new users out before a run-time destroy
 * @vdev: the device
 *
 * On success no user holds it and none can come until
 * vflash_dev_destroy() or vflash_dev_resume().
 *
 * Return: 0, or -EBUSY with nothing changed.
 */
int vflash_dev_quiesce(struct vflash_dev *vdev)
{
	unsigned int i = vdev->nr_attached;
	int ret;

	while (i--) {
		const struct vflash_frontend *fe = vdev->cfg.fe[i];

		if (!fe->quiesce)
			continue;
		ret = fe->quiesce(vdev);
		if (ret)
			goto err;
	}
	return 0;
err:
	while (++i < vdev->nr_attached)
		if (vdev->cfg.fe[i]->resume)
			vdev->cfg.fe[i]->resume(vdev);
	return ret;
}

/**
 * vflash_dev_resume() - undo a successful vflash_dev_quiesce()
 * @vdev: the device
 */
void vflash_dev_resume(struct vflash_dev *vdev)
{
	unsigned int i;

	for (i = 0; i < vdev->nr_attached; i++)
		if (vdev->cfg.fe[i]->resume)
			vdev->cfg.fe[i]->resume(vdev);
}
