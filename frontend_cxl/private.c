// SPDX-License-Identifier: GPL-2.0
/*
 * Private regions of /dev/vflash<N> (docs/design/apps.md): allocated by
 * ioctl, the only pages their file maps, zeroed on release; debugfs procs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "backend_flash/cache/cache.h"
#include "backend_flash/flash.h"
#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_cxl/cxl.h"
#include "frontend_cxl/ranges.h"

/* A private region of an open file: @nr granules from @first. */
struct vfc_region {
	struct list_head node;
	u64 first;
	u64 nr;
};

/* Remember the task that last allocated or mapped through @vf. */
static void vfc_file_touch(struct vfc_file *vf)
{
	vf->pid = task_tgid_nr(current);
	get_task_comm(vf->comm, current);
}

/**
 * vfc_file_alloc() - the state of a newly opened file of a device
 * @d: the device
 *
 * Return: it, listed in the device's files, or NULL.
 */
struct vfc_file *vfc_file_alloc(struct vfc_dev *d)
{
	struct vfc_file *vf = kzalloc(sizeof(*vf), GFP_KERNEL);

	if (!vf)
		return NULL;
	vf->misses = alloc_percpu(u64);
	if (!vf->misses) {
		kfree(vf);
		return NULL;
	}
	vf->d = d;
	mutex_init(&vf->lock);
	INIT_LIST_HEAD(&vf->regions);
	atomic64_set(&vf->writebacks, 0);
	vfc_file_touch(vf);
	mutex_lock(&d->files_lock);
	list_add_tail(&vf->node, &d->files);
	mutex_unlock(&d->files_lock);
	return vf;
}

/* Drop @nr pages' data unwritten: uncached, unmapped, zeroed, trimmed. */
static void vfc_zero_pages(struct vfc_dev *d, u64 lpn, u64 nr)
{
	u64 i;

	for (i = 0; i < nr; i++) {
		vflash_cache_invalidate(d->cache, lpn + i);
		vflash_store_zero(&d->vdev->backing, lpn + i, 0, PAGE_SIZE);
		if (!((i + 1) % 256))
			cond_resched();
	}
	/* A PTE a racing fault inserted before it saw the owner gone. */
	unmap_mapping_range(d->inode->i_mapping, (loff_t)lpn << PAGE_SHIFT,
			    (loff_t)nr << PAGE_SHIFT, 1);
	vflash_flash_submit(d->flash, VFLASH_IO_TRIM, lpn, nr, ktime_get_ns());
}

/* Take @r from @vf (under vf->lock), drop its data, free its granules. */
static void vfc_region_drop(struct vfc_file *vf, struct vfc_region *r)
{
	struct vfc_dev *d = vf->d;

	list_del(&r->node);
	vf->nr_granules -= r->nr;
	WARN_ON(vfc_ranges_disown(&d->ranges, r->first, r->nr, vf));
	/* The owner gone, then the PTEs; pairs with vfc_file_owns(). */
	smp_mb();
	vfc_zero_pages(d, r->first * VFC_GRANULE_PAGES,
		       r->nr * VFC_GRANULE_PAGES);
	vfc_ranges_release(&d->ranges, r->first, r->nr);
	kfree(r);
}

/**
 * vfc_file_free() - an open file's last reference is gone
 * @vf: its state
 *
 * Frees its regions; its memory goes after an RCU grace period.
 */
void vfc_file_free(struct vfc_file *vf)
{
	struct vfc_dev *d = vf->d;
	struct vfc_region *r, *tmp;

	mutex_lock(&vf->lock);
	list_for_each_entry_safe(r, tmp, &vf->regions, node)
		vfc_region_drop(vf, r);
	mutex_unlock(&vf->lock);
	mutex_lock(&d->files_lock);
	list_del(&vf->node);
	mutex_unlock(&d->files_lock);
	free_percpu(vf->misses);
	kfree_rcu(vf, rcu);
}

/**
 * vfc_file_owns() - may a mapping of this file reach this page
 * @vf: the file
 * @lpn: the page
 *
 * Return: true for its own regions' pages, or any page if it has none.
 */
bool vfc_file_owns(struct vfc_file *vf, u64 lpn)
{
	return !READ_ONCE(vf->private) ||
	       vfc_ranges_owner(&vf->d->ranges, lpn) == vf;
}

/**
 * vfc_file_mmap() - may a file map this range
 * @vf: the file
 * @vma: the new mapping
 *
 * A file with regions maps within one, and fork() does not copy it.
 *
 * Return: 0, or -EACCES.
 */
int vfc_file_mmap(struct vfc_file *vf, struct vm_area_struct *vma)
{
	u64 first = vma->vm_pgoff, nr = vma_pages(vma);
	struct vfc_region *r;
	int ret = -EACCES;

	mutex_lock(&vf->lock);
	if (!vf->private) {
		vf->mapped_whole = true;
		mutex_unlock(&vf->lock);
		return 0;
	}
	list_for_each_entry(r, &vf->regions, node) {
		u64 start = r->first * VFC_GRANULE_PAGES;
		u64 end = (r->first + r->nr) * VFC_GRANULE_PAGES;

		if (first >= start && first < end && nr <= end - first) {
			ret = 0;
			break;
		}
	}
	if (!ret) {
		vfc_file_touch(vf);
		vm_flags_set(vma, VM_DONTCOPY);
	}
	mutex_unlock(&vf->lock);
	return ret;
}

/* The region of @vf that starts at byte @offset (under vf->lock). */
static struct vfc_region *vfc_region_at(struct vfc_file *vf, u64 offset)
{
	struct vfc_region *r;

	list_for_each_entry(r, &vf->regions, node)
		if ((u64)r->first * VFLASH_REGION_GRANULE == offset)
			return r;
	return NULL;
}

static long vfc_ioc_alloc(struct vfc_file *vf, struct vflash_region *arg)
{
	struct vfc_dev *d = vf->d;
	struct vfc_region *r;
	u64 nr;
	int ret;

	if (!arg->len || arg->len > d->nr_pages * PAGE_SIZE) {
		dev_info_ratelimited(&d->vdev->dev,
				     "VFLASH_IOC_ALLOC: len %llu: not 1 to %llu bytes\n",
				     arg->len, d->nr_pages * PAGE_SIZE);
		return -EINVAL;
	}
	nr = DIV_ROUND_UP(arg->len, VFLASH_REGION_GRANULE);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	mutex_lock(&vf->lock);
	if (vf->mapped_whole) {
		mutex_unlock(&vf->lock);
		kfree(r);
		dev_info_ratelimited(&d->vdev->dev,
				     "VFLASH_IOC_ALLOC: this file maps the whole device already\n");
		return -EBUSY;
	}
	ret = vfc_ranges_alloc(&d->ranges, nr, vf, &r->first);
	if (ret) {
		mutex_unlock(&vf->lock);
		kfree(r);
		return ret;
	}
	r->nr = nr;
	/* A whole-device user may have left data there: start from zeros. */
	vfc_zero_pages(d, r->first * VFC_GRANULE_PAGES, nr * VFC_GRANULE_PAGES);
	list_add_tail(&r->node, &vf->regions);
	vf->nr_granules += nr;
	WRITE_ONCE(vf->private, true);
	vfc_file_touch(vf);
	mutex_unlock(&vf->lock);
	arg->offset = r->first * VFLASH_REGION_GRANULE;
	arg->len = nr * VFLASH_REGION_GRANULE;
	return 0;
}

static long vfc_ioc_free(struct vfc_file *vf, const struct vflash_region *arg)
{
	struct vfc_region *r;

	mutex_lock(&vf->lock);
	r = vfc_region_at(vf, arg->offset);
	if (!r) {
		mutex_unlock(&vf->lock);
		dev_info_ratelimited(&vf->d->vdev->dev,
				     "VFLASH_IOC_FREE: offset %llu: no region of this file starts there\n",
				     arg->offset);
		return -EINVAL;
	}
	vfc_region_drop(vf, r);
	mutex_unlock(&vf->lock);
	return 0;
}

static long vfc_ioc_zero(struct vfc_file *vf, const struct vflash_region *arg)
{
	u64 first = arg->offset >> PAGE_SHIFT, nr = arg->len >> PAGE_SHIFT;
	struct vfc_region *r;
	long ret = -EINVAL;

	if (!nr || (arg->offset | arg->len) & ~PAGE_MASK)
		goto bad;
	mutex_lock(&vf->lock);
	list_for_each_entry(r, &vf->regions, node) {
		u64 start = r->first * VFC_GRANULE_PAGES;
		u64 end = (r->first + r->nr) * VFC_GRANULE_PAGES;

		if (first >= start && first < end && nr <= end - first) {
			vfc_zero_pages(vf->d, first, nr);
			ret = 0;
			break;
		}
	}
	mutex_unlock(&vf->lock);
	if (!ret)
		return 0;
bad:
	dev_info_ratelimited(&vf->d->vdev->dev,
			     "VFLASH_IOC_ZERO: offset %llu len %llu: not whole pages of one region of this file\n",
			     arg->offset, arg->len);
	return ret;
}

/**
 * vfc_ioctl() - VFLASH_IOC_ALLOC, VFLASH_IOC_FREE, VFLASH_IOC_ZERO
 * @filp: an open /dev/vflash<N>
 * @cmd: which
 * @uarg: its struct vflash_region
 *
 * Return: 0, -EFAULT, -EINVAL, -EBUSY, -ENOMEM or -ENOTTY.
 */
long vfc_ioctl(struct file *filp, unsigned int cmd, unsigned long uarg)
{
	struct vfc_file *vf = filp->private_data;
	void __user *up = (void __user *)uarg;
	struct vflash_region arg;
	long ret;

	switch (cmd) {
	case VFLASH_IOC_ALLOC:
	case VFLASH_IOC_FREE:
	case VFLASH_IOC_ZERO:
		break;
	default:
		return -ENOTTY;
	}
	if (copy_from_user(&arg, up, sizeof(arg)))
		return -EFAULT;
	if (cmd == VFLASH_IOC_FREE)
		return vfc_ioc_free(vf, &arg);
	if (cmd == VFLASH_IOC_ZERO)
		return vfc_ioc_zero(vf, &arg);
	ret = vfc_ioc_alloc(vf, &arg);
	if (ret)
		return ret;
	if (copy_to_user(up, &arg, sizeof(arg))) {
		/* Nobody learnt of it: free it again. */
		vfc_ioc_free(vf, &arg);
		return -EFAULT;
	}
	return 0;
}

/**
 * vfc_written_back() - count a written-back page to its region's owner
 * @priv: the device (struct vfc_dev)
 * @lpn: the page
 */
void vfc_written_back(void *priv, u64 lpn)
{
	struct vfc_dev *d = priv;
	struct vfc_file *vf;

	rcu_read_lock();
	vf = vfc_ranges_owner(&d->ranges, lpn);
	if (vf)
		atomic64_inc(&vf->writebacks);
	rcu_read_unlock();
}

/* Resident pages of @vf's regions (under vf->lock). */
static u64 vfc_file_resident(struct vfc_file *vf)
{
	struct vfc_region *r;
	u64 n = 0, i;

	list_for_each_entry(r, &vf->regions, node) {
		u64 lpn = r->first * VFC_GRANULE_PAGES;

		for (i = 0; i < r->nr * VFC_GRANULE_PAGES; i++)
			if (vflash_cache_page_state(vf->d->cache, lpn + i) !=
			    VFLASH_PAGE_ABSENT)
				n++;
	}
	return n;
}

/* The misses through @vf's mappings, summed over the CPUs. */
static u64 vfc_file_misses(struct vfc_file *vf)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(vf->misses, cpu));
	return sum;
}

/* debugfs procs: a line per open file, and the free granules. */
static int vfc_procs_show(struct seq_file *m, void *v)
{
	struct vfc_dev *d = m->private;
	struct vfc_file *vf;

	seq_puts(m, "pid comm mode region_pages resident misses writebacks\n");
	mutex_lock(&d->files_lock);
	list_for_each_entry(vf, &d->files, node) {
		mutex_lock(&vf->lock);
		seq_printf(m, "%d %s %s %llu %llu %lld %lld\n", vf->pid,
			   vf->comm, vf->private ? "private" : "device",
			   vf->nr_granules * VFC_GRANULE_PAGES,
			   vfc_file_resident(vf),
			   (s64)vfc_file_misses(vf),
			   (s64)atomic64_read(&vf->writebacks));
		mutex_unlock(&vf->lock);
	}
	mutex_unlock(&d->files_lock);
	seq_printf(m, "free_pages %llu\n",
		   vfc_ranges_nr_free(&d->ranges) * VFC_GRANULE_PAGES);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vfc_procs);

/**
 * vfc_procs_add() - debugfs vflash<N>/procs (optional: failures ignored)
 * @d: the device
 */
void vfc_procs_add(struct vfc_dev *d)
{
	d->procs = debugfs_create_file("procs", 0444, d->vdev->debugfs, d,
				       &vfc_procs_fops);
}
