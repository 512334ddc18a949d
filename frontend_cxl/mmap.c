// SPDX-License-Identifier: GPL-2.0
/* /dev/vflash<N>: mmap, faults, unmapping (one i_mmap tree), Accessed bits. */
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/pfn_t.h>
#include <linux/pgtable.h>
#include <linux/rbtree.h>
#include <linux/sched/signal.h>

#include "backend_flash/cache/ctl.h"
#include "backend_flash/flash.h"
#include "backend_flash/trace.h"
#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_cxl/cxl.h"

static struct vfc_file *vfc_file_of(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

/* The access stream of a fault, for prefetch: the mapping it hit. */
static u64 vfc_stream(struct vm_area_struct *vma)
{
	return (u64)(unsigned long)vma->vm_mm ^ vma->vm_start;
}

/*
 * A fatal signal cut the wait short: as filemap_fault(), VM_FAULT_RETRY
 * with the fault's lock dropped, else SIGBUS. Not VM_FAULT_NOPAGE: a
 * kernel-mode access would refault until all its NAND reads completed.
 */
static vm_fault_t vfc_fault_killed(struct vm_fault *vmf)
{
	if ((vmf->flags & (FAULT_FLAG_ALLOW_RETRY | FAULT_FLAG_RETRY_NOWAIT)) ==
	    FAULT_FLAG_ALLOW_RETRY) {
		vflash_release_fault_lock(vmf);
		return VM_FAULT_RETRY;
	}
	return VM_FAULT_SIGBUS;
}

/*
 * SIGBUS with BUS_MCEERR_AR, as for a memory error; queued first, so the
 * arch handler's plain SIGBUS is dropped as a duplicate.
 */
static vm_fault_t vfc_poisoned(struct vm_fault *vmf)
{
	if (vmf->flags & FAULT_FLAG_USER)
		send_sig_mceerr(BUS_MCEERR_AR,
				(void __user *)(vmf->address & PAGE_MASK),
				PAGE_SHIFT, current);
	return VM_FAULT_SIGBUS;
}

/* What a page-table callback looks for, and what it found. */
struct vfc_pte_match {
	struct vm_area_struct *vma;
	unsigned long pfn;
	struct vfc_dev *d;
	u64 lpn;
	bool write;	/* vfc_insert(): map it writable and dirty */
	bool young;	/* the PTE maps it, Accessed bit set (vfc_vma_young()) */
};

/*
 * Under the PTE lock: an empty PTE gets @m->pfn as special; for a write,
 * one mapping @m->pfn becomes writable and dirty.
 */
static int vfc_pte_set_one(pte_t *ptep, unsigned long addr, void *data)
{
	struct vfc_pte_match *m = data;
	pte_t pte = ptep_get(ptep);

	if (pte_none(pte))
		pte = pte_mkspecial(pfn_pte(m->pfn, m->vma->vm_page_prot));
	else if (!m->write || !pte_present(pte) || pte_pfn(pte) != m->pfn)
		return 0;
	/* Permissions only grow: no TLB flush. */
	if (m->write)
		pte = pte_mkdirty(vflash_pte_mkwrite(pte_mkyoung(pte)));
	set_pte_at(m->vma->vm_mm, addr, ptep, pte);
	update_mmu_cache(m->vma, addr, ptep);
	return 0;
}

/*
 * Map @pfn, writable and dirty if @write (the caller holds it pinned).
 * Not vmf_insert_mixed(): its PAT lookup costs ~380 instructions a miss
 * (docs/performance.md) for RAM we know is write-back.
 */
static vm_fault_t vfc_insert(struct vm_fault *vmf, unsigned long pfn,
			     bool write)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vfc_pte_match m = { .vma = vma, .pfn = pfn, .write = write };
	int err;

	if (vflash_pte_apply(vma->vm_mm, vmf->pmd, vmf->address,
			     vfc_pte_set_one, &m))
		return VM_FAULT_NOPAGE;
	err = apply_to_page_range(vma->vm_mm, vmf->address, PAGE_SIZE,
				  vfc_pte_set_one, &m);
	if (err == -ENOMEM)
		return VM_FAULT_OOM;
	return err ? VM_FAULT_SIGBUS : VM_FAULT_NOPAGE;
}

/*
 * With the power-loss log on, a CXL store is never undone by a cut: settle
 * the page, and hold the log's lock until the PTE is in, so that an NVMe
 * write logged meanwhile drops this mapping (io.c).
 */
static vm_fault_t vfc_insert_writable(struct vfc_dev *d,
				      struct vm_fault *vmf, unsigned long pfn)
{
	struct vflash_powerloss *pl = &d->vdev->faults.pl;
	bool logged = false;
	vm_fault_t ret;

	if (static_branch_unlikely(&vflash_faults_armed))
		logged = vflash_pl_lock(pl);
	if (logged)
		vflash_pl_settle(pl, vmf->pgoff, 1);
	ret = vfc_insert(vmf, pfn, true);
	if (logged)
		vflash_pl_unlock(pl);
	return ret;
}

/* store=sparse out of memory: SIGBUS; VM_FAULT_OOM would wake the OOM killer. */
static vm_fault_t vfc_no_memory(struct vfc_dev *d, struct vm_fault *vmf)
{
	dev_warn_ratelimited(&d->vdev->dev,
			     "store: no memory for page %lu, SIGBUS\n",
			     vmf->pgoff);
	return VM_FAULT_SIGBUS;
}

/*
 * Was the poison rule armed since the fault looked? Arming unmaps the
 * range, but a fault asleep on its NAND read maps later. With a barrier
 * here and in vfc_faults_armed(), this look sees the rule or the unmap
 * sees the PTE; the caller then zaps it and the access refaults.
 */
static bool vfc_poisoned_since(struct vfc_dev *d, struct vm_fault *vmf,
			       bool was_armed)
{
	/* The PTE before the rule; pairs with vfc_faults_armed(). */
	smp_mb();
	return !was_armed &&
	       vflash_fault_covers(&d->vdev->faults, VFLASH_FAULT_POISON,
				   vmf->pgoff);
}

static vm_fault_t vfc_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vfc_file *vf = vfc_file_of(vma);
	struct vfc_dev *d = vf->d;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	struct vflash_cache_pin pin;
	u64 start = vflash_cache_now(d->cache);
	unsigned long pfn;
	vm_fault_t ret;
	bool was_armed, poisoned;

	if (vmf->pgoff >= d->nr_pages || !vfc_file_owns(vf, vmf->pgoff))
		return VM_FAULT_SIGBUS;
	/* A rule armed after this look is checked again once mapped. */
	was_armed = vflash_fault_armed(&d->vdev->faults, VFLASH_FAULT_POISON);
	if (vflash_fault(&d->vdev->faults, VFLASH_FAULT_POISON, vmf->pgoff, 1))
		return vfc_poisoned(vmf);
	if (vflash_cache_get_at(d->cache, vmf->pgoff, write, vfc_stream(vma),
				start, &pin))
		return vfc_fault_killed(vmf);
	if (vflash_store_pfn(&d->vdev->backing, vmf->pgoff, write, &pfn)) {
		vflash_cache_put(d->cache, &pin);
		return vfc_no_memory(d, vmf);
	}
	if (write)
		ret = vfc_insert_writable(d, vmf, pfn);
	else
		ret = vfc_insert(vmf, pfn, false);
	poisoned = ret == VM_FAULT_NOPAGE &&
		   vfc_poisoned_since(d, vmf, was_armed);
	vflash_cache_put(d->cache, &pin);
	if (poisoned) {
		vfc_unmap(d, vmf->pgoff);
		return VM_FAULT_NOPAGE;
	}
	/*
	 * A region freed meanwhile disowns, then unmaps; the barrier in
	 * vfc_poisoned_since() orders our PTE before this look.
	 */
	if (ret == VM_FAULT_NOPAGE && !vfc_file_owns(vf, vmf->pgoff)) {
		vfc_unmap(d, vmf->pgoff);
		return VM_FAULT_SIGBUS;
	}
	if (pin.missed) {
		u64 done = vflash_cache_now(d->cache);

		this_cpu_inc(*vf->misses);
		vflash_cache_ctl_record_miss(d->ctl, done - start);
		/* A miss is a request: the page is mapped when its read is due. */
		vflash_flash_record_lateness(d->flash, pin.due_ns, done);
		trace_vflash_request_complete(vflash_flash_id(d->flash),
					      VFLASH_FE_CXL, VFLASH_IO_READ,
					      vmf->pgoff, 1, pin.due_ns, done,
					      pin.req_id, 0, 0);
	}
	return ret;
}

/*
 * First write through a read-only PTE: made writable here with the page
 * pinned and dirty, not by the core after we return, when an eviction
 * could come between (vflash_cache_mkwrite()).
 */
static vm_fault_t vfc_pfn_mkwrite(struct vm_fault *vmf)
{
	struct vfc_file *vf = vfc_file_of(vmf->vma);
	struct vfc_dev *d = vf->d;
	struct vflash_cache_pin pin;
	unsigned long pfn;
	vm_fault_t ret;
	bool was_armed, poisoned;

	if (vmf->pgoff >= d->nr_pages || !vfc_file_owns(vf, vmf->pgoff))
		return VM_FAULT_SIGBUS;
	/* A write is an access: a poisoned page mapped read-only gets none. */
	was_armed = vflash_fault_armed(&d->vdev->faults, VFLASH_FAULT_POISON);
	if (vflash_fault(&d->vdev->faults, VFLASH_FAULT_POISON, vmf->pgoff, 1))
		return vfc_poisoned(vmf);
	/* Evicted meanwhile: the access faults again and reloads it. */
	if (vflash_cache_mkwrite(d->cache, vmf->pgoff, &pin))
		return VM_FAULT_NOPAGE;
	/* store=none: the read-only PTE maps the zero page; refault as a write. */
	if (!vflash_store_has_data(&d->vdev->backing)) {
		vflash_cache_put(d->cache, &pin);
		vfc_unmap(d, vmf->pgoff);
		return VM_FAULT_NOPAGE;
	}
	if (vflash_store_pfn(&d->vdev->backing, vmf->pgoff, true, &pfn)) {
		vflash_cache_put(d->cache, &pin);
		return vfc_no_memory(d, vmf);
	}
	ret = vfc_insert_writable(d, vmf, pfn);
	poisoned = ret == VM_FAULT_NOPAGE &&
		   vfc_poisoned_since(d, vmf, was_armed);
	vflash_cache_put(d->cache, &pin);
	if (poisoned)
		vfc_unmap(d, vmf->pgoff);
	return ret;
}

/*
 * Empty, but on 6.1 mremap() grows a VM_SPECIAL VMA in place only if it
 * has ->close (docs/develop/kernels.md).
 */
static void vfc_close(struct vm_area_struct *vma)
{
}

/*
 * Maps nothing: each page's own fault is a reference the cache counts.
 * Present so that 6.12 faults under the VMA lock, not mmap_lock
 * (docs/develop/kernels.md).
 */
static vm_fault_t __maybe_unused vfc_map_pages(struct vm_fault *vmf,
					       pgoff_t start_pgoff,
					       pgoff_t end_pgoff)
{
	return 0;
}

static const struct vm_operations_struct vfc_vm_ops = {
	.close = vfc_close,
	.fault = vfc_fault,
	.map_pages = vflash_map_pages(vfc_map_pages),
	.pfn_mkwrite = vfc_pfn_mkwrite,
};

/**
 * vfc_mmap() - the mmap of /dev/vflash<N>
 * @filp: the open file
 * @vma: the new mapping
 *
 * Return: 0 or a negative errno.
 */
int vfc_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct vfc_file *vf = filp->private_data;
	struct vfc_dev *d = vf->d;
	unsigned long pages = vma_pages(vma);
	int ret;

	/* Not VM_SHARED: do_mmap() clears it for a read-only file. */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff >= d->nr_pages || pages > d->nr_pages - vma->vm_pgoff)
		return -EINVAL;
	ret = vfc_file_mmap(vf, vma);
	if (ret)
		return ret;
	/* VM_MIXEDMAP, not VM_PFNMAP: mremap() may grow it, as devdax's. */
	vm_flags_set(vma, VM_MIXEDMAP | VM_DONTDUMP);
	vma->vm_ops = &vfc_vm_ops;
	return 0;
}

/**
 * vfc_unmap() - remove a page from every mapping of the device
 * @priv: the device (struct vfc_dev)
 * @lpn: the page
 */
void vfc_unmap(void *priv, u64 lpn)
{
	struct vfc_dev *d = priv;

	unmap_mapping_range(d->inode->i_mapping, (loff_t)lpn << PAGE_SHIFT,
			    PAGE_SIZE, 1);
}

/**
 * vfc_faults_armed() - a fault rule was armed: unmap a poisoned range
 * @priv: the device (struct vfc_dev)
 * @fault: the rule's fault
 * @first: its first page
 * @last: its last page
 */
void vfc_faults_armed(void *priv, enum vflash_fault fault, u64 first, u64 last)
{
	struct vfc_dev *d = priv;

	if (fault != VFLASH_FAULT_POISON || first >= d->nr_pages)
		return;
	last = min(last, d->nr_pages - 1);
	/* The rule armed, then the PTEs; pairs with vfc_poisoned_since(). */
	smp_mb();
	unmap_mapping_range(d->inode->i_mapping, (loff_t)first << PAGE_SHIFT,
			    (loff_t)(last - first + 1) << PAGE_SHIFT, 1);
}

#ifdef CONFIG_X86
/* apply_to_existing_page_range() callback, under the PTE's lock. */
static int vfc_pte_young_one(pte_t *ptep, unsigned long addr, void *data)
{
	struct vfc_pte_match *m = data;
	pte_t pte = ptep_get(ptep);

	if (!pte_present(pte) ||
	    !vflash_store_maps_pfn(&m->d->vdev->backing, m->lpn, pte_pfn(pte)))
		return 0;
	/* The CPU sets it without the PTE lock; no flush, as on x86. */
	m->young = test_and_clear_bit(_PAGE_BIT_ACCESSED,
				      (unsigned long *)&ptep->pte);
	return 0;
}

/* Test and clear the Accessed bit of @lpn's PTE in @vma, if it maps it. */
static bool vfc_vma_young(struct vfc_dev *d, struct vm_area_struct *vma,
			  u64 lpn)
{
	struct vfc_pte_match m = { .vma = vma, .d = d, .lpn = lpn };
	unsigned long addr;

	addr = vma->vm_start + ((lpn - vma->vm_pgoff) << PAGE_SHIFT);
	/* Lock order mmap_lock -> i_mmap_rwsem: never wait for it here. */
	if (!mmap_read_trylock(vma->vm_mm))
		return false;
	apply_to_existing_page_range(vma->vm_mm, addr, PAGE_SIZE,
				     vfc_pte_young_one, &m);
	mmap_read_unlock(vma->vm_mm);
	return m.young;
}

/**
 * vfc_test_clear_young() - whether a page was accessed since the last call
 * @priv: the device (struct vfc_dev)
 * @lpn: the page
 *
 * Skips a mapping whose mm is busy.
 *
 * Return: whether any mapping's PTE had its Accessed bit set.
 */
bool vfc_test_clear_young(void *priv, u64 lpn)
{
	struct vfc_dev *d = priv;
	struct address_space *mapping = d->inode->i_mapping;
	struct rb_node *node;
	bool young = false;

	/* Keeps every VMA of the tree, and its page tables, alive. */
	i_mmap_lock_read(mapping);
	for (node = rb_first_cached(&mapping->i_mmap); node;
	     node = rb_next(node)) {
		struct vm_area_struct *vma;

		vma = rb_entry(node, struct vm_area_struct, shared.rb);
		/* In order of vm_pgoff: the rest start beyond the page. */
		if (lpn < vma->vm_pgoff)
			break;
		if (lpn - vma->vm_pgoff >= vma_pages(vma))
			continue;
		if (vfc_vma_young(d, vma, lpn))
			young = true;
	}
	i_mmap_unlock_read(mapping);
	return young;
}
#else
bool vfc_test_clear_young(void *priv, u64 lpn)
{
	return false;
}
#endif
