/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernel lines vflash supports (6.1, 6.12;
 * docs/develop/kernels.md). Every version test in the module lives here.
 */
#ifndef VFLASH_COMPAT_H
#define VFLASH_COMPAT_H

#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irqdomain.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/pgtable.h>
#include <linux/version.h>
#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/irqdomain.h>
#include <asm/smp.h>
#endif

/* get_unaligned_le16() and friends: linux/unaligned.h since 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* vma->vm_flags is read-only since 6.3: flags are set with vm_flags_set(). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * vflash_pte_mkwrite() - @pte with write permission, for a VMA that is no
 * shadow stack. Since 6.6 pte_mkwrite() takes the VMA and, on x86, is not
 * exported; pte_mkwrite_novma() is the inline it is built on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
static inline pte_t vflash_pte_mkwrite(pte_t pte)
{
	return pte_mkwrite_novma(pte);
}
#else
static inline pte_t vflash_pte_mkwrite(pte_t pte)
{
	return pte_mkwrite(pte);
}
#endif

/**
 * vflash_pte_apply() - call @fn on the PTE of @addr in the page table @pmd
 *	points to, under the PTE's lock, for a fault handler holding mmap_lock
 * @mm: the mm
 * @pmd: the fault's PMD (vmf->pmd)
 * @addr: the address
 * @fn: called as apply_to_page_range() calls it
 * @data: its argument
 *
 * apply_to_page_range() on one page, without the walk from the PGD; safe
 * on 6.1, where a page table of our VMA is freed only under mmap_lock for
 * write (khugepaged skips VM_MIXEDMAP).
 *
 * Return: true if @fn ran; false if there is no PTE table yet, or always
 * since 6.5 (__pte_offset_map_lock() is not exported): the caller then
 * uses apply_to_page_range().
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
static inline bool vflash_pte_apply(struct mm_struct *mm, pmd_t *pmd,
				    unsigned long addr, pte_fn_t fn, void *data)
{
	pmd_t pmdval = READ_ONCE(*pmd);
	spinlock_t *ptl;	/* the PTE's */
	pte_t *pte;

	if (pmd_none(pmdval) || pmd_trans_huge(pmdval) || pmd_bad(pmdval))
		return false;
	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	fn(pte, addr, data);
	pte_unmap_unlock(pte, ptl);
	return true;
}
#else
static inline bool vflash_pte_apply(struct mm_struct *mm, pmd_t *pmd,
				    unsigned long addr, pte_fn_t fn, void *data)
{
	return false;
}
#endif

/*
 * 6.12 calls ->fault under the VMA lock only if the ops have ->map_pages
 * (vmf_can_call_fault()), else refaults under mmap_lock. 6.1 has no
 * per-VMA locks. vflash_release_fault_lock() drops the one held.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define vflash_map_pages(fn)	(fn)
static inline void vflash_release_fault_lock(struct vm_fault *vmf)
{
	release_fault_lock(vmf);
}
#else
#define vflash_map_pages(fn)	NULL
static inline void vflash_release_fault_lock(struct vm_fault *vmf)
{
	mmap_read_unlock(vmf->vma->vm_mm);
}
#endif

/* The NVMe frontend's interrupts (frontend_nvme/pci.c), x86 only. */
#ifdef CONFIG_X86
/*
 * vflash_msi_direct() - whether MSIs of domain @d reach the x86 vector
 * domain with no remapping. Since the MSI parent rework (6.2) the device's
 * domain is the parent itself, before it was a child of it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
static inline bool vflash_msi_direct(struct irq_domain *d)
{
	return d && d == x86_vector_domain;
}
#else
static inline bool vflash_msi_direct(struct irq_domain *d)
{
	return d && d->parent == x86_vector_domain;
}
#endif

/*
 * vflash_msi_inject() - deliver the MSI of one MSI-X entry of a function
 * @domain: the function's MSI domain, as it was when the function was added
 * @hwirq: the entry's hardware interrupt number in @domain
 * @addr_lo: the message address the host wrote into the entry
 * @data: the message data it wrote there
 *
 * Call under rcu_read_lock(), with the entry known to be unmasked.
 *
 * On 6.1 the x86 PCI/MSI domain's map outlives every driver. On 6.12 a
 * function's domain comes and goes with its driver's vectors, so the
 * message's vector is sent to the CPU of its physical APIC ID (a logical
 * destination is not decoded: lost, with one dmesg line).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
static inline void vflash_msi_inject(struct irq_domain *domain,
				     irq_hw_number_t hwirq, u32 addr_lo,
				     u32 data)
{
	/* Destination ID bits 0-7 at 12-19, 8-14 at 5-11 (extended ID). */
	u32 apicid = ((addr_lo >> 12) & 0xff) | ((addr_lo >> 5) & 0x7f) << 8;
	unsigned int cpu;

	if (addr_lo & BIT(2)) {
		pr_warn_once("an MSI with a logical destination is not delivered\n");
		return;
	}
	for_each_online_cpu(cpu) {
		if (per_cpu(x86_cpu_to_apicid, cpu) == apicid) {
			apic->send_IPI(cpu, data & 0xff);
			return;
		}
	}
}
#else
static inline void vflash_msi_inject(struct irq_domain *domain,
				     irq_hw_number_t hwirq, u32 addr_lo,
				     u32 data)
{
	unsigned int irq = irq_find_mapping(domain, hwirq);

	if (irq)
		irq_inject_interrupt(irq);
}
#endif
#endif /* CONFIG_X86 */

/*
 * KUnit: KUNIT_ASSERT_FAILURE() was renamed KUNIT_FAIL_AND_ABORT() between
 * 6.1 and 6.12. For the KUnit suites, which include <kunit/test.h> first.
 */
#if defined(KUNIT_ASSERT_FAILURE) && !defined(KUNIT_FAIL_AND_ABORT)
#define KUNIT_FAIL_AND_ABORT(test, fmt, ...) \
	KUNIT_ASSERT_FAILURE(test, fmt, ##__VA_ARGS__)
#endif

#endif /* VFLASH_COMPAT_H */
