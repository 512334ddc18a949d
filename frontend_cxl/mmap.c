// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/vflash<N>: mmap, the fault path and what the cache asks of
 * it (unmapping a page from every mapping, the Accessed bits of its PTEs).
 * Every mapping of the device, from any process, sits in the i_mmap tree
 * of one address_space (the pseudo-fs inode's), so a page is unmapped
 * everywhere with one unmap_mapping_range() and no table of mmaps is kept.
 */
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
 * A fatal signal cut a wait short (vflash_cache_get() fails only so). As
 * filemap_fault() does: if the fault may be retried, drop the fault's lock
 * (mmap_lock, or on 6.12 its VMA's: vfc_map_pages()) and return
 * VM_FAULT_RETRY, which the arch fault handler turns into "signal
 * pending" (no retry; a kernel-mode access gets -EFAULT); else SIGBUS.
 * Not VM_FAULT_NOPAGE: a kernel-mode access (copy_from_user() from the
 * mapping) would refault at once, and only leave that loop when the NAND
 * reads of every page it touches had completed.
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
 * An access to a poisoned page: SIGBUS with BUS_MCEERR_AR and the page's
 * address, as the kernel sends for a memory error (queued first, so the
 * arch fault handler's plain SIGBUS for VM_FAULT_SIGBUS, a second
 * instance of a pending signal, is dropped; its forcing unblocks it). A
 * kernel-mode access (copy_from_user()) just fails with -EFAULT.
 */
static vm_fault_t vfc_poisoned(struct vm_fault *vmf)
{
	if (vmf->flags & FAULT_FLAG_USER)
		send_sig_mceerr(BUS_MCEERR_AR,
				(void __user *)(vmf->address & PAGE_MASK),
				PAGE_SHIFT, current);
	return VM_FAULT_SIGBUS;
}

/*
 * The PTE a page-table callback looks for, and what it found there: the
 * pfn it must map (vfc_insert()), or the page whose store it must map
 * (vfc_vma_young(): the page's memory, or under store=none its page of
 * zeros or its scratch page).
 */
struct vfc_pte_match {
	struct vm_area_struct *vma;
	unsigned long pfn;
	struct vfc_dev *d;
	u64 lpn;
	bool write;	/* vfc_insert(): map it writable and dirty */
	bool young;	/* the PTE maps it, Accessed bit set (vfc_vma_young()) */
};

/*
 * apply_to_page_range() callback, under the PTE's lock: the PTE
 * vfc_insert() makes. An empty one gets @m->pfn, special (no struct page
 * is refcounted; vm_normal_page() gives none in a VM_MIXEDMAP VMA),
 * read-only through vm_page_prot, or writable and dirty for a write. A
 * present one mapping @m->pfn is made writable and dirty for a write;
 * any other present one is left alone (another fault's, or under
 * store=none the page of zeros a read mapped: the access faults again,
 * through vfc_pfn_mkwrite()).
 */
static int vfc_pte_set_one(pte_t *ptep, unsigned long addr, void *data)
{
	struct vfc_pte_match *m = data;
	pte_t pte = ptep_get(ptep);

	if (pte_none(pte))
		pte = pte_mkspecial(pfn_pte(m->pfn, m->vma->vm_page_prot));
	else if (!m->write || !pte_present(pte) || pte_pfn(pte) != m->pfn)
		return 0;
	/*
	 * Permissions only grow: no TLB flush (a stale read-only entry
	 * takes a spurious fault, which the core fixes up).
	 */
	if (m->write)
		pte = pte_mkdirty(vflash_pte_mkwrite(pte_mkyoung(pte)));
	set_pte_at(m->vma->vm_mm, addr, ptep, pte);
	update_mmu_cache(m->vma, addr, ptep);
	return 0;
}

/*
 * vfc_insert() - map @pfn at @vmf's address, writable if @write
 *
 * vm_page_prot of a writable shared mapping is read-only (we have
 * pfn_mkwrite): a read maps read-only and the first write then goes
 * through vfc_pfn_mkwrite(). A write (a write fault, or that first write)
 * makes the PTE writable and dirty, while the caller holds the page
 * pinned in the cache (vflash_cache_mkwrite() says why).
 *
 * The PTE is written here, as the core's insert_pfn() would, rather than
 * through vmf_insert_mixed(): that adds the PAT memtype lookup of the pfn
 * (track_pfn_insert(), a walk of the iomem resources to learn the pfn is
 * RAM, about 380 instructions, as many as the rest of a zero-time miss
 * costs vflash; docs/performance.md), whose answer is known for a page
 * of ours: RAM the module allocated and never changed the memtype of, so
 * write-back, vm_page_prot's cache mode (vfc_mmap() leaves it as mmap()
 * made it). A write is also saved a second walk (the kernel has no
 * exported call that maps a RAM pfn writable into a mixed mapping on
 * every line we support: vmf_insert_mixed_prot() and
 * vmf_insert_mixed_mkwrite() are gone or unexported by 6.12). The PTE is
 * reached from the fault's PMD where the kernel line allows it
 * (vflash_pte_apply()), else by apply_to_page_range().
 *
 * Return: VM_FAULT_NOPAGE when done (or when the PTE was zapped before it
 * could be made writable: the access faults again), VM_FAULT_OOM if a
 * page table could not be allocated.
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
 * Map a page writable on a device whose power-loss log is on (a dual
 * device with power_cut armed): a CXL store is never taken back by a cut
 * (docs/faults.md), so the page is settled first, and the log's lock is
 * held until the PTE is in: an NVMe write logged meanwhile drops this
 * mapping (io.c), so no store can land after its copy unseen.
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

/*
 * No memory for a page's data (store=sparse): SIGBUS, as for a device
 * that cannot serve the access; never VM_FAULT_OOM, which would have the
 * OOM killer free memory on the device's behalf.
 */
static vm_fault_t vfc_no_memory(struct vfc_dev *d, struct vm_fault *vmf)
{
	dev_warn_ratelimited(&d->vdev->dev,
			     "store: no memory for page %lu, SIGBUS\n",
			     vmf->pgoff);
	return VM_FAULT_SIGBUS;
}

/*
 * A page just mapped (or made writable) by a fault that did not see the
 * poison rule armed when it looked: was the rule armed since? Arming
 * unmaps the range (vfc_faults_armed()), but a fault that was sleeping on
 * the page's NAND read inserts its PTE afterwards. So the PTE is made,
 * then the rule looked at: with the full barriers here and in
 * vfc_faults_armed() (a store, a barrier, a load on either side), either
 * this look sees the rule armed or the arming's unmap sees the PTE. If
 * armed, the caller zaps the PTE and returns VM_FAULT_NOPAGE: the access
 * faults again and meets the poison (counted there, with SIGBUS).
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
	/*
	 * A rule armed when we look, whether it fires or lets this access
	 * through (after, probability), has had its say; one armed later
	 * is looked for again once the page is mapped.
	 */
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
	 * A region freed meanwhile: its free zeroes the pages after taking
	 * the owner (a barrier between), so either it unmaps this PTE or
	 * this look sees the owner gone (the barrier in vfc_poisoned_since()
	 * orders the PTE before it).
	 */
	if (ret == VM_FAULT_NOPAGE && !vfc_file_owns(vf, vmf->pgoff)) {
		vfc_unmap(d, vmf->pgoff);
		return VM_FAULT_SIGBUS;
	}
	if (pin.missed) {
		/* On the clock of @start and of the read's due time. */
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
 * The first write through a read-only PTE. The PTE is made writable here,
 * with the page pinned and already marked dirty, rather than by the core
 * after we return (finish_mkwrite_fault()), when an eviction could come
 * between; see vflash_cache_mkwrite().
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
	/*
	 * store=none: the read-only PTE maps the page of zeros, which a write
	 * must not reach; drop it, and the access faults again as a write
	 * (vfc_fault() maps the scratch page).
	 */
	if (!vflash_store_has_data(&d->vdev->backing)) {
		vflash_cache_put(d->cache, &pin);
		vfc_unmap(d, vmf->pgoff);
		return VM_FAULT_NOPAGE;
	}
	if (vflash_store_pfn(&d->vdev->backing, vmf->pgoff, true, &pfn)) {
		vflash_cache_put(d->cache, &pin);
		return vfc_no_memory(d, vmf);
	}
	/* Upgrades the read-only PTE in place (or maps it, if zapped). */
	ret = vfc_insert_writable(d, vmf, pfn);
	poisoned = ret == VM_FAULT_NOPAGE &&
		   vfc_poisoned_since(d, vmf, was_armed);
	vflash_cache_put(d->cache, &pin);
	if (poisoned)
		vfc_unmap(d, vmf->pgoff);
	return ret;
}

/*
 * Nothing to release: a mapping holds no state of ours. But on 6.1
 * mremap() grows a VM_MIXEDMAP (VM_SPECIAL) VMA in place only through
 * vma_adjust(), which mm/mremap.c takes for a VMA with ->close; without
 * one it tries vma_merge(), which refuses VM_SPECIAL, and in-place growth
 * fails with -ENOMEM. (6.12 merges no VM_SPECIAL VMA on any path: there
 * a growing mremap() must be allowed to move; docs/kernels.md.)
 */
static void vfc_close(struct vm_area_struct *vma)
{
}

/*
 * Fault-around maps nothing: every page is mapped by its own fault, which
 * the cache counts (a hit is a reference the eviction policy hears). The
 * callback is there for what its presence does on 6.12: vfc_fault() and
 * vfc_pfn_mkwrite() are then called under the VMA's lock, where without
 * it the core retries every fault under mmap_lock, about 740 instructions
 * more a miss (docs/kernels.md); and a fault that waits its NAND read
 * holds no lock of the whole mm.
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
 * vfc_mmap() - map /dev/vflash<N> (its file_operations' mmap)
 * @filp: the open file
 * @vma: the new mapping
 *
 * Return: 0, or -EINVAL for a private mapping or one beyond the device,
 * or vfc_file_mmap()'s error.
 */
int vfc_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct vfc_file *vf = filp->private_data;
	struct vfc_dev *d = vf->d;
	unsigned long pages = vma_pages(vma);
	int ret;

	/*
	 * VM_MAYSHARE, as devdax tests it: do_mmap() clears VM_SHARED of a
	 * MAP_SHARED mapping of a file opened read-only.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff >= d->nr_pages || pages > d->nr_pages - vma->vm_pgoff)
		return -EINVAL;
	/* Within one of its regions, if the file has any. */
	ret = vfc_file_mmap(vf, vma);
	if (ret)
		return ret;
	/*
	 * VM_MIXEDMAP, not VM_PFNMAP: mremap() may grow a mixed mapping,
	 * like a mapping of /dev/daxX.Y, and a page that growth puts beyond
	 * the device faults to SIGBUS (vfc_fault()). The PTEs are special
	 * either way (x86 has pte_special), so no struct page is refcounted
	 * and fork copies them.
	 */
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
 *
 * Its resident pages lose their PTEs, so that their next access faults
 * and meets the poison.
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
	/*
	 * The CPU sets the bit without the PTE lock: clear it atomically,
	 * as ptep_test_and_clear_young() does; no TLB flush, as
	 * ptep_clear_flush_young() on x86 explains.
	 */
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
 * Tests and clears the Accessed bit of the page's PTE in every mapping of
 * the device. A mapping whose mm is busy (its mmap_lock taken for write)
 * is skipped this time.
 *
 * Return: whether any of them had it set.
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
