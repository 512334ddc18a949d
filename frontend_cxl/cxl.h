/* SPDX-License-Identifier: GPL-2.0 */
/* frontend=cxl: /dev/vflash<N>, mmap'd; misses fault into the DRAM cache. */
#ifndef VFLASH_CXL_H
#define VFLASH_CXL_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "frontend_cxl/ranges.h"

struct vflash_cache;
struct vflash_cache_ctl;
struct vflash_dev;
struct vflash_flash;
struct task_struct;
struct vfsmount;
struct dentry;
struct vm_area_struct;

/**
 * struct vfc_dev - the CXL frontend's state for one device
 * @vdev: the device
 * @flash: its flash model
 * @cache: its DRAM cache
 * @ctl: &vflash_dev.cache_ctl, which @cache is attached to
 * @nr_pages: logical pages of the device
 * @cdev: the class device's dev_t; cdev_alloc()'d, as an open file may
 *	hold it past cdev_del()
 * @mnt: the pseudo filesystem that holds @inode
 * @inode: owns the address_space every mapping of the device shares
 * @evictor: the thread that reclaims free slots and samples Accessed bits
 * @evictor_wq: where @evictor sleeps
 * @kicked: set by faults below the low watermark, cleared by @evictor
 * @nr_open: open files (a mapping holds its file); vfc_open_lock
 * @closed: quiesced for a destroy: opens fail; vfc_open_lock
 * @ranges: which granules private regions hold, and whose
 * @files_lock: protects @files
 * @files: every open file's struct vfc_file (for debugfs procs)
 * @procs: debugfs procs, or NULL/an error
 *
 * The pointers are set by attach, then only read.
 */
struct vfc_dev {
	struct vflash_dev *vdev;
	struct vflash_flash *flash;
	struct vflash_cache *cache;
	struct vflash_cache_ctl *ctl;
	u64 nr_pages;
	struct cdev *cdev;
	struct vfsmount *mnt;
	struct inode *inode;
	struct task_struct *evictor;
	wait_queue_head_t evictor_wq;
	unsigned long kicked;
	unsigned int nr_open;
	bool closed;
	struct vfc_ranges ranges;
	struct mutex files_lock;	/* protects @files */
	struct list_head files;
	struct dentry *procs;
};

/**
 * struct vfc_file - an open file of /dev/vflash<N> (its private_data)
 * @d: the device
 * @lock: protects @regions, @nr_granules, @mapped_whole, @pid, @comm and
 *	the writes of @private; taken before vfc_ranges.lock, after
 *	vfc_dev.files_lock
 * @regions: its private regions (struct vfc_region)
 * @nr_granules: granules they hold
 * @private: it allocated a region: maps only its regions (read
 *	locklessly by the fault path)
 * @mapped_whole: it mapped the device without regions: allocates none
 * @misses: faults through its mappings that read the NAND, per CPU
 * @writebacks: dirty pages of its regions the cache wrote back
 * @pid: the process that last allocated or mapped through it
 * @comm: that process's name
 * @node: in vfc_dev.files
 * @rcu: frees it after vfc_written_back() readers
 */
struct vfc_file {
	struct vfc_dev *d;
	struct mutex lock;	/* see @lock above */
	struct list_head regions;
	u64 nr_granules;
	bool private;
	bool mapped_whole;
	u64 __percpu *misses;
	atomic64_t writebacks;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	struct list_head node;
	struct rcu_head rcu;
};

int vfc_mmap(struct file *filp, struct vm_area_struct *vma);
void vfc_unmap(void *priv, u64 lpn);
void vfc_faults_armed(void *priv, enum vflash_fault fault, u64 first, u64 last);
bool vfc_test_clear_young(void *priv, u64 lpn);

struct vfc_file *vfc_file_alloc(struct vfc_dev *d);
void vfc_file_free(struct vfc_file *vf);
bool vfc_file_owns(struct vfc_file *vf, u64 lpn);
int vfc_file_mmap(struct vfc_file *vf, struct vm_area_struct *vma);
long vfc_ioctl(struct file *filp, unsigned int cmd, unsigned long uarg);
void vfc_written_back(void *priv, u64 lpn);
void vfc_procs_add(struct vfc_dev *d);

extern struct vflash_frontend vflash_cxl_frontend;

#endif /* VFLASH_CXL_H */
