/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frontend=cxl: /dev/vflash<N>, mmap'd by applications; resident pages
 * run natively, misses fault into the device DRAM cache
 * (docs/cxl-design.md, docs/cxl.md).
 */
#ifndef VFLASH_CXL_H
#define VFLASH_CXL_H

#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/types.h>
#include <linux/wait.h>

struct vflash_cache;
struct vflash_dev;
struct vflash_flash;
struct task_struct;
struct vfsmount;

/**
 * struct vfc_dev - the CXL frontend's state for one device
 * @vdev: the device
 * @flash: its flash model
 * @cache: its DRAM cache
 * @nr_pages: logical pages of the device
 * @cdev: serves the class device's dev_t; allocated on its own
 *	(cdev_alloc()), as its kobject may outlive cdev_del() (an open
 *	file's reference), and freed by its last reference, not with this
 * @mnt: the pseudo filesystem that holds @inode
 * @inode: owns the address_space every mapping of the device shares
 * @evictor: the thread that reclaims free slots and samples Accessed bits
 * @evictor_wq: where @evictor sleeps
 * @kicked: the free pool fell below the low watermark; set by faults,
 *	cleared by @evictor
 * @nr_open: open files of /dev/vflash<N> (a mapping holds its file);
 *	vfc_open_lock
 * @closed: quiesced for a destroy: opens fail; vfc_open_lock
 *
 * Set up by attach and torn down by detach; everything else only reads
 * the pointers, and @kicked is an atomic flag.
 */
struct vfc_dev {
	struct vflash_dev *vdev;
	struct vflash_flash *flash;
	struct vflash_cache *cache;
	u64 nr_pages;
	struct cdev *cdev;
	struct vfsmount *mnt;
	struct inode *inode;
	struct task_struct *evictor;
	wait_queue_head_t evictor_wq;
	unsigned long kicked;
	unsigned int nr_open;
	bool closed;
};

extern struct mutex vfc_open_lock;

extern const struct file_operations vfc_fops;

struct vfc_dev *vfc_dev_of_inode(struct inode *inode);
void vfc_unmap(void *priv, u64 lpn);
void vfc_faults_armed(void *priv, enum vflash_fault fault, u64 first, u64 last);
bool vfc_test_clear_young(void *priv, u64 lpn);

extern struct vflash_frontend vflash_cxl_frontend;

#endif /* VFLASH_CXL_H */
