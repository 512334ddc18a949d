// SPDX-License-Identifier: GPL-2.0
/* frontend=cxl: attach, /dev/vflash<N> open/release, the evictor thread. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/flash.h"
#include "core/vflash.h"
#include "frontend_cxl/cxl.h"

/* "vfcx": the pseudo filesystem that owns the devices' address_spaces. */
#define VFC_FS_MAGIC	0x76666378

#define VFC_DEFAULT_CACHE_PCT	5

static char *cache_size;
module_param(cache_size, charp, 0444);
MODULE_PARM_DESC(cache_size,
		 "CXL: device DRAM cache size, memparse syntax, a multiple of 4K (default 5% of the device)");

/* Protects vfc_dev.nr_open, vfc_dev.closed and the fe_priv slot's writes. */
static DEFINE_MUTEX(vfc_open_lock);

/* Fills kept out of the eviction policy (docs/design/cxl.md). */
static u32 vfc_young(void)
{
	return max(16U, 4 * nr_cpu_ids);
}

static int parse_cache_bytes(const char *val, u64 *bytes)
{
	char *end;

	*bytes = memparse(val, &end);
	if (*end == '\n')
		end++;
	if (*end || !*bytes || *bytes % VFLASH_LPAGE_SIZE) {
		pr_err("cache_size=%s: not a non-zero multiple of 4K\n", val);
		return -EINVAL;
	}
	return 0;
}

static int cxl_check_arg(enum vflash_fe_arg arg, const char *val)
{
	u64 bytes;

	if (arg != VFLASH_ARG_CACHE_SIZE)
		return 0;
	return parse_cache_bytes(val, &bytes);
}

/* The cache's slots: configfs cache_size, else the parameter, else 5 %. */
static int parse_cache_size(const struct vflash_config *cfg, u32 *nr_slots)
{
	const char *val = vflash_config_arg(cfg, VFLASH_ARG_CACHE_SIZE);
	u64 nr_pages = cfg->size_bytes / VFLASH_LPAGE_SIZE;
	u64 min = vfc_young() + 8, max, bytes;
	int ret;

	max = min_t(u64, nr_pages, VFLASH_CACHE_MAX_SLOTS);
	if (!val && cache_size && *cache_size)
		val = cache_size;
	if (!val) {
		bytes = max_t(u64, nr_pages * VFC_DEFAULT_CACHE_PCT / 100, min);
		if (bytes > max) {
			pr_err("cache_size: a device of %llu pages is too small for a cache of %llu\n",
			       nr_pages, min);
			return -EINVAL;
		}
		*nr_slots = bytes;
		return 0;
	}
	ret = parse_cache_bytes(val, &bytes);
	if (ret)
		return ret;
	if (bytes / VFLASH_LPAGE_SIZE < min ||
	    bytes / VFLASH_LPAGE_SIZE > max) {
		pr_err("cache_size=%s: must be %llu to %llu bytes\n",
		       val, min * VFLASH_LPAGE_SIZE,
		       max * VFLASH_LPAGE_SIZE);
		return -EINVAL;
	}
	*nr_slots = bytes / VFLASH_LPAGE_SIZE;
	return 0;
}

static void vfc_kick(void *priv)
{
	struct vfc_dev *d = priv;

	/* Read first: faulting CPUs share the cacheline, not bounce it. */
	if (!test_bit(0, &d->kicked) && !test_and_set_bit(0, &d->kicked))
		wake_up(&d->evictor_wq);
}

static int vfc_wait_until(void *priv, u64 deadline_ns)
{
	struct vfc_dev *d = priv;
	u64 spin_ns;

	spin_ns = vflash_cache_ctl_knob(d->ctl, VFLASH_CACHE_KNOB_WAIT_SPIN_NS);
	return vflash_cache_wait_until(deadline_ns, spin_ns);
}

static const struct vflash_cache_host vfc_host = {
	.unmap = vfc_unmap,
	.test_clear_young = vfc_test_clear_young,
	.kick = vfc_kick,
	.wait_until = vfc_wait_until,
	.written_back = vfc_written_back,
};

/* Refills the free pool when kicked; samples Accessed bits periodically. */
static int vfc_evictor(void *data)
{
	struct vfc_dev *d = data;
	unsigned long next_sample = jiffies;

	while (!kthread_should_stop()) {
		u64 ms = vflash_cache_ctl_knob(d->ctl,
					       VFLASH_CACHE_KNOB_SAMPLE_PERIOD_MS);
		unsigned long period = msecs_to_jiffies(ms) ?: 1;

		wait_event_interruptible_timeout(d->evictor_wq,
						 test_bit(0, &d->kicked) ||
						 kthread_should_stop(),
						 period);
		clear_bit(0, &d->kicked);
		vflash_cache_reclaim(d->cache);
		if (time_after_eq(jiffies, next_sample)) {
			u64 batch = vflash_cache_ctl_knob(d->ctl,
							  VFLASH_CACHE_KNOB_SAMPLE_BATCH);

			vflash_cache_sample(d->cache, batch);
			next_sample = jiffies + period;
		}
		cond_resched();
	}
	return 0;
}

/* The state of the device @inode opens, or NULL while detached. */
static struct vfc_dev *vfc_dev_of_inode(struct inode *inode)
{
	struct device *dev = kobj_to_dev(inode->i_cdev->kobj.parent);
	void **slot = vflash_frontend_priv(to_vflash_dev(dev), &vflash_cxl_frontend);

	return slot ? READ_ONCE(*slot) : NULL;
}

static int vfc_open(struct inode *inode, struct file *filp)
{
	struct device *dev = kobj_to_dev(inode->i_cdev->kobj.parent);
	struct vflash_dev *vdev = to_vflash_dev(dev);
	struct vfc_file *vf;
	struct vfc_dev *d;
	int ret;

	ret = vflash_dev_hold(vdev);
	if (ret)
		return -ENODEV;
	mutex_lock(&vfc_open_lock);
	d = vfc_dev_of_inode(inode);
	if (!d || d->closed) {
		mutex_unlock(&vfc_open_lock);
		vflash_dev_unhold(vdev);
		return -ENODEV;
	}
	d->nr_open++;
	mutex_unlock(&vfc_open_lock);
	vf = vfc_file_alloc(d);
	if (!vf) {
		mutex_lock(&vfc_open_lock);
		d->nr_open--;
		mutex_unlock(&vfc_open_lock);
		vflash_dev_unhold(vdev);
		return -ENOMEM;
	}
	filp->private_data = vf;
	/* One i_mmap tree for all; the node's own inode may outlive us. */
	filp->f_mapping = d->inode->i_mapping;
	return 0;
}

static int vfc_release(struct inode *inode, struct file *filp)
{
	struct vfc_file *vf = filp->private_data;
	struct vfc_dev *d = vf->d;
	struct vflash_dev *vdev = d->vdev;

	vfc_file_free(vf);
	mutex_lock(&vfc_open_lock);
	d->nr_open--;
	mutex_unlock(&vfc_open_lock);
	/* @d may be gone; @vdev's memory stays while the cdev holds it. */
	vflash_dev_unhold(vdev);
	return 0;
}

/* The device's size, so tools that seek to the end (fio) find it. */
static loff_t vfc_llseek(struct file *filp, loff_t offset, int whence)
{
	struct vfc_dev *d = ((struct vfc_file *)filp->private_data)->d;

	return fixed_size_llseek(filp, offset, whence,
				 d->nr_pages << PAGE_SHIFT);
}

/* .owner keeps the module loaded while a file or a mapping is open. */
static const struct file_operations vfc_fops = {
	.owner = THIS_MODULE,
	.open = vfc_open,
	.release = vfc_release,
	.mmap = vfc_mmap,
	.llseek = vfc_llseek,
	.unlocked_ioctl = vfc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static int vfc_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, VFC_FS_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type vfc_fs_type = {
	.name = "vflash",
	.init_fs_context = vfc_init_fs_context,
	.kill_sb = kill_anon_super,
};

static int cxl_attach(struct vflash_dev *vdev)
{
	struct vflash_cache_params p = { 0 };
	struct vfc_dev *d;
	u32 nr_slots;
	int ret;

	ret = parse_cache_size(&vdev->cfg, &nr_slots);
	if (ret)
		return ret;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->vdev = vdev;
	d->flash = vdev->flash;
	d->ctl = &vdev->cache_ctl;
	d->nr_pages = vdev->cfg.size_bytes / VFLASH_LPAGE_SIZE;
	init_waitqueue_head(&d->evictor_wq);
	mutex_init(&d->files_lock);
	INIT_LIST_HEAD(&d->files);
	ret = vfc_ranges_init(&d->ranges, d->nr_pages);
	if (ret) {
		pr_err("frontend=cxl: no memory for the region table\n");
		goto err_free;
	}

	p.nr_pages = d->nr_pages;
	p.nr_slots = nr_slots;
	p.young = vfc_young();
	p.seed = get_random_u64();
	p.host = &vfc_host;
	p.priv = d;
	d->cache = vflash_cache_create(vdev->flash, &p);
	if (IS_ERR(d->cache)) {
		ret = PTR_ERR(d->cache);
		pr_err("frontend=cxl: cannot create the cache (%d)\n", ret);
		goto err_ranges;
	}

	d->mnt = kern_mount(&vfc_fs_type);
	if (IS_ERR(d->mnt)) {
		ret = PTR_ERR(d->mnt);
		pr_err("frontend=cxl: cannot mount the pseudo filesystem (%d)\n",
		       ret);
		goto err_cache;
	}
	d->inode = alloc_anon_inode(d->mnt->mnt_sb);
	if (IS_ERR(d->inode)) {
		ret = PTR_ERR(d->inode);
		pr_err("frontend=cxl: cannot allocate an inode (%d)\n", ret);
		goto err_mnt;
	}

	d->evictor = kthread_run(vfc_evictor, d, "%s-evict",
				 dev_name(&vdev->dev));
	if (IS_ERR(d->evictor)) {
		ret = PTR_ERR(d->evictor);
		pr_err("frontend=cxl: cannot start the evictor (%d)\n", ret);
		goto err_inode;
	}

	ret = vflash_cache_ctl_attach(d->ctl, d->cache);
	if (ret) {
		pr_err("frontend=cxl: the cache knobs do not fit a cache of %u pages (%d)\n",
		       nr_slots, ret);
		goto err_thread;
	}

	/* Before cdev_add(): an open may come at once. */
	mutex_lock(&vfc_open_lock);
	WRITE_ONCE(*vflash_frontend_priv(vdev, &vflash_cxl_frontend), d);
	mutex_unlock(&vfc_open_lock);
	d->cdev = cdev_alloc();
	if (!d->cdev) {
		ret = -ENOMEM;
		pr_err("frontend=cxl: cannot allocate the character device\n");
		goto err_priv;
	}
	d->cdev->ops = &vfc_fops;
	d->cdev->owner = THIS_MODULE;
	cdev_set_parent(d->cdev, &vdev->dev.kobj);
	ret = cdev_add(d->cdev, vdev->dev.devt, 1);
	if (ret) {
		pr_err("frontend=cxl: cannot add the character device (%d)\n",
		       ret);
		kobject_put(&d->cdev->kobj);
		goto err_priv;
	}

	/* Arming poison unmaps the range (the inode lives until detach). */
	vflash_faults_set_hook(&vdev->faults, vfc_faults_armed, d);
	vfc_procs_add(d);
	dev_info(&vdev->dev, "/dev/%s, cache %u pages\n", dev_name(&vdev->dev),
		 nr_slots);
	return 0;

err_priv:
	mutex_lock(&vfc_open_lock);
	WRITE_ONCE(*vflash_frontend_priv(vdev, &vflash_cxl_frontend), NULL);
	mutex_unlock(&vfc_open_lock);
	vflash_cache_ctl_detach(d->ctl);
err_thread:
	kthread_stop(d->evictor);
err_inode:
	iput(d->inode);
err_mnt:
	kern_unmount(d->mnt);
err_cache:
	vflash_cache_destroy(d->cache);
err_ranges:
	vfc_ranges_destroy(&d->ranges);
err_free:
	kfree(d);
	return ret;
}

static void cxl_detach(struct vflash_dev *vdev)
{
	void **slot = vflash_frontend_priv(vdev, &vflash_cxl_frontend);
	struct vfc_dev *d = *slot;

	/* No file is open (module references, or cxl_quiesce()): no mapping. */
	vflash_faults_set_hook(&vdev->faults, NULL, NULL);
	debugfs_remove(d->procs);
	cdev_del(d->cdev);
	mutex_lock(&vfc_open_lock);
	WARN_ON(d->nr_open);
	WRITE_ONCE(*slot, NULL);
	mutex_unlock(&vfc_open_lock);
	vflash_cache_ctl_detach(d->ctl);
	kthread_stop(d->evictor);
	iput(d->inode);
	kern_unmount(d->mnt);
	vflash_cache_destroy(d->cache);
	vfc_ranges_destroy(&d->ranges);
	kfree(d);
}

/* frontend->quiesce: -EBUSY while /dev/vflash<N> is open or mapped. */
static int cxl_quiesce(struct vflash_dev *vdev)
{
	struct vfc_dev *d = *vflash_frontend_priv(vdev, &vflash_cxl_frontend);
	int ret = 0;

	mutex_lock(&vfc_open_lock);
	if (d->nr_open)
		ret = -EBUSY;
	else
		d->closed = true;
	mutex_unlock(&vfc_open_lock);
	return ret;
}

static void cxl_resume(struct vflash_dev *vdev)
{
	struct vfc_dev *d = *vflash_frontend_priv(vdev, &vflash_cxl_frontend);

	mutex_lock(&vfc_open_lock);
	d->closed = false;
	mutex_unlock(&vfc_open_lock);
}

/*
 * frontend->hold: as cxl_quiesce(), then a clean shutdown of the cache:
 * every resident page evicted, the dirty ones written back through the
 * flash model, so that a held device's model has every write. The cache
 * starts cold at the next attach.
 */
static int cxl_hold(struct vflash_dev *vdev)
{
	struct vfc_dev *d = *vflash_frontend_priv(vdev, &vflash_cxl_frontend);
	int ret = cxl_quiesce(vdev);

	if (ret) {
		dev_err(&vdev->dev, "state=held: /dev/%s is open or mapped\n",
			dev_name(&vdev->dev));
		return ret;
	}
	vflash_cache_flush(d->cache);
	return 0;
}

/* Registered by the table of built-in frontends (module/main.c). */
struct vflash_frontend vflash_cxl_frontend = {
	.name = "cxl",
	.attach = cxl_attach,
	.detach = cxl_detach,
	.char_dev = true,
	.check_arg = cxl_check_arg,
	.quiesce = cxl_quiesce,
	.resume = cxl_resume,
	.hold = cxl_hold,
};
