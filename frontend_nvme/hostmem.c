// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory as the device sees it: with no IOMMU (checked at attach) a
 * DMA address is a physical address.
 */
#include <linux/ioport.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/overflow.h>

#include "frontend_nvme/nvme.h"

static void host_probe(const struct vfn_hostmem *hm, u64 pfn,
		       struct vfn_page_info *pi)
{
	const struct vfn_ctrl *c = container_of(hm, struct vfn_ctrl, hm);
	unsigned long bar = page_to_pfn(c->bar_page);
	struct page *page;

	BUILD_BUG_ON(PAGE_SIZE != VFN_HOST_PAGE);
	if (pfn > ULONG_MAX)
		return;
	page = pfn_to_online_page(pfn);
	if (!page)
		return;
	pi->kva = page_address(page);
	pi->bar = pfn >= bar && pfn < bar + (1 << VFN_BAR_ORDER);
	pi->reserved = PageReserved(page);
	/* Reserved pages include holes and firmware ranges: ask. */
	pi->ram = !pi->reserved || page_is_ram(pfn);
}

/**
 * vfn_hostmem_init() - set up the controller's view of host memory
 * @c: the controller, BAR0 allocated
 */
void vfn_hostmem_init(struct vfn_ctrl *c)
{
	c->hm.probe = host_probe;
}

/**
 * vfn_host_kva() - map a physically contiguous host range (a queue)
 * @c: the controller
 * @addr: its start, a host (physical) address
 * @len: its length
 *
 * The device both reads and writes queue memory, so every page must pass
 * vfn_host_page_ok() for writing.
 *
 * Return: the kernel address of @addr, or NULL if any page of the range is
 * not RAM the device may use.
 */
void *vfn_host_kva(struct vfn_ctrl *c, u64 addr, u32 len)
{
	u64 end, a;

	if (!len || check_add_overflow(addr, (u64)len - 1, &end))
		return NULL;
	/* Page by page up to the last one, which the loop stops at exactly. */
	for (a = addr & PAGE_MASK; ; a += PAGE_SIZE) {
		if (!vfn_host_map(&c->hm, a, true))
			return NULL;
		if (a == (end & PAGE_MASK))
			break;
	}
	return vfn_host_map(&c->hm, addr, true);
}
