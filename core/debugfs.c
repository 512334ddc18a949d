// SPDX-License-Identifier: GPL-2.0
/*
 * Test hooks in debugfs (not a stable interface): vflash<N>/torture runs
 * the backend's torture test ("THREADS OPS"; -EUCLEAN if an FTL invariant
 * broke).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"

static struct dentry *vflash_debugfs_root;
/* Serialises torture runs and protects every vflash_dev.torture_result. */
static DEFINE_MUTEX(torture_lock);

static ssize_t torture_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct vflash_dev *vdev = file_inode(file)->i_private;
	char buf[64], why[160] = "";
	unsigned int threads;
	unsigned long long ops;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%u %llu", &threads, &ops) != 2)
		return -EINVAL;
	/* Its requests would change a model a held image must keep. */
	if (READ_ONCE(vdev->held)) {
		dev_err(&vdev->dev, "torture: the device is held\n");
		return -EBUSY;
	}

	mutex_lock(&torture_lock);
	ret = vflash_flash_torture(vdev->flash, threads, ops, why, sizeof(why));
	if (!ret)
		scnprintf(vdev->torture_result, sizeof(vdev->torture_result),
			  "ok %u threads x %llu requests\n", threads, ops);
	else
		scnprintf(vdev->torture_result, sizeof(vdev->torture_result),
			  "FAIL (%d) %s\n", ret, why);
	mutex_unlock(&torture_lock);
	if (ret == -EUCLEAN)
		dev_err(&vdev->dev, "torture: FTL invariant broken: %s\n", why);
	return ret ? ret : count;
}

static ssize_t torture_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct vflash_dev *vdev = file_inode(file)->i_private;
	char buf[sizeof(vdev->torture_result)];
	size_t len;

	mutex_lock(&torture_lock);
	len = scnprintf(buf, sizeof(buf), "%s", vdev->torture_result[0] ?
			vdev->torture_result : "not run\n");
	mutex_unlock(&torture_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations torture_fops = {
	.owner = THIS_MODULE,
	.write = torture_write,
	.read = torture_read,
	.llseek = default_llseek,
};

/**
 * vflash_debugfs_add() - a device's debugfs directory
 * @vdev: the device, registered
 *
 * Failures are ignored: debugfs is optional.
 */
void vflash_debugfs_add(struct vflash_dev *vdev)
{
	vdev->debugfs = debugfs_create_dir(dev_name(&vdev->dev),
					   vflash_debugfs_root);
	debugfs_create_file("torture", 0600, vdev->debugfs, vdev,
			    &torture_fops);
	vflash_faults_add_debugfs(&vdev->faults, vdev->debugfs);
	/* store=sparse's reserve (docs/store.md): tests raise it. */
	debugfs_create_ulong("store_reserve_pages", 0600, vdev->debugfs,
			     &vdev->backing.reserve_pages);
}

/**
 * vflash_debugfs_remove() - remove a device's debugfs directory
 * @vdev: the device
 *
 * Waits for a torture run in progress on it to finish.
 */
void vflash_debugfs_remove(struct vflash_dev *vdev)
{
	debugfs_remove_recursive(vdev->debugfs);
	vdev->debugfs = NULL;
}

/**
 * vflash_debugfs_init() - create /sys/kernel/debug/vflash
 */
void vflash_debugfs_init(void)
{
	vflash_debugfs_root = debugfs_create_dir(VFLASH_NAME, NULL);
}

/**
 * vflash_debugfs_exit() - remove /sys/kernel/debug/vflash
 */
void vflash_debugfs_exit(void)
{
	debugfs_remove_recursive(vflash_debugfs_root);
	vflash_debugfs_root = NULL;
}
