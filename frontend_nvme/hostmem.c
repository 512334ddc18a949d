// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory as the device sees it. With no IOMMU (checked at attach), a
 * DMA address is a physical address; online RAM is in the direct map.
 * Anything else (holes, MMIO, our own BAR0) is refused, so a malformed
 * command cannot make the device touch memory outside its buffers.
 */
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/overflow.h>

#include "frontend_nvme/nvme.h"

/* A kernel address of one host page, or NULL if it is not plain RAM. */
static void *host_page(const struct vfn_hostmem *hm, u64 addr)
{
	const struct vfn_ctrl *c = container_of(hm, struct vfn_ctrl, hm);
	unsigned long pfn = addr >> PAGE_SHIFT;
	unsigned long bar = page_to_pfn(c->bar_page);
	struct page *page;

	if (pfn >= bar && pfn < bar + (1 << VFN_BAR_ORDER))
		return NULL;
	page = pfn_to_online_page(pfn);
	if (!page)
		return NULL;
	return page_address(page) + (addr & ~PAGE_MASK);
}

/**
 * vfn_hostmem_init() - set up the controller's view of host memory
 * @c: the controller, BAR0 allocated
 */
void vfn_hostmem_init(struct vfn_ctrl *c)
{
	c->hm.page = host_page;
}

/**
 * vfn_host_kva() - map a physically contiguous host range
 * @c: the controller
 * @addr: its start, a host (physical) address
 * @len: its length
 *
 * Return: the kernel address of @addr, or NULL if any page of the range is
 * not RAM the device may use.
 */
void *vfn_host_kva(struct vfn_ctrl *c, u64 addr, u32 len)
{
	u64 end, a;

	if (!len || check_add_overflow(addr, (u64)len - 1, &end))
		return NULL;
	for (a = addr & PAGE_MASK; a <= end; a += PAGE_SIZE)
		if (!host_page(&c->hm, a))
			return NULL;
	return host_page(&c->hm, addr);
}

/**
 * vfn_map_data() - map a command's data buffer into c->buf
 * @c: the controller
 * @cmd: the command; its PRP entries describe the buffer
 * @len: transfer length, from the command's own fields
 *
 * Return: 0 or the NVMe status of vfn_prp_walk().
 */
u16 vfn_map_data(struct vfn_ctrl *c, const struct nvme_command *cmd, u32 len)
{
	return vfn_prp_walk(&c->hm, le64_to_cpu(cmd->common.dptr.prp1),
			    le64_to_cpu(cmd->common.dptr.prp2), len, &c->buf);
}
