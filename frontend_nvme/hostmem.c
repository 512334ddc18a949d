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
#include <linux/string.h>

#include "frontend_nvme/nvme.h"

#define HOST_PAGE	4096U

/* A kernel address of one host page, or NULL if it is not plain RAM. */
static void *host_page(struct vfn_ctrl *c, u64 addr)
{
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
		if (!host_page(c, a))
			return NULL;
	return host_page(c, addr);
}

static u16 add_seg(struct vfn_ctrl *c, u64 addr, u32 len)
{
	void *kva = host_page(c, addr);

	if (!kva)
		return NVME_SC_DATA_XFER_ERROR;
	if (c->nr_segs == ARRAY_SIZE(c->segs))
		return NVME_SC_INVALID_FIELD | NVME_STATUS_DNR;
	c->segs[c->nr_segs].kva = kva;
	c->segs[c->nr_segs].len = len;
	c->nr_segs++;
	return 0;
}

/**
 * vfn_prp_map() - map a command's PRP-described buffer into c->segs
 * @c: the controller
 * @prp1: PRP entry 1
 * @prp2: PRP entry 2: a data pointer or a list pointer
 * @len: transfer length from the command (never from the PRPs), at most
 *	VFN_MAX_XFER_PAGES * 4 KiB
 *
 * Every entry is read once and checked before any data moves.
 *
 * Return: 0, or an NVMe status code (with DNR where it applies).
 */
u16 vfn_prp_map(struct vfn_ctrl *c, u64 prp1, u64 prp2, u32 len)
{
	u32 first, rest, n, i;
	u64 list;
	u16 sc;

	c->nr_segs = 0;
	if (!len)
		return 0;
	if (prp1 & 3)
		return NVME_SC_PRP_INVALID_OFFSET | NVME_STATUS_DNR;
	first = min(len, HOST_PAGE - (u32)(prp1 & (HOST_PAGE - 1)));
	sc = add_seg(c, prp1, first);
	rest = len - first;
	if (sc || !rest)
		return sc;
	if (rest <= HOST_PAGE) {
		if (prp2 & (HOST_PAGE - 1))
			return NVME_SC_PRP_INVALID_OFFSET | NVME_STATUS_DNR;
		return add_seg(c, prp2, rest);
	}

	/* PRP2 points to a list; a full list page chains in its last slot. */
	if (prp2 & 7)
		return NVME_SC_PRP_INVALID_OFFSET | NVME_STATUS_DNR;
	n = DIV_ROUND_UP(rest, HOST_PAGE);
	list = prp2;
	while (n) {
		u32 cap = (HOST_PAGE - (u32)(list & (HOST_PAGE - 1))) / 8;
		u32 take = n <= cap ? n : cap - 1;
		__le64 *ent = host_page(c, list);

		if (!ent)
			return NVME_SC_DATA_XFER_ERROR;
		for (i = 0; i < take; i++) {
			u64 addr = le64_to_cpu(READ_ONCE(ent[i]));
			u32 seg = min(rest, HOST_PAGE);

			if (addr & (HOST_PAGE - 1))
				return NVME_SC_PRP_INVALID_OFFSET | NVME_STATUS_DNR;
			sc = add_seg(c, addr, seg);
			if (sc)
				return sc;
			rest -= seg;
		}
		n -= take;
		if (n) {
			list = le64_to_cpu(READ_ONCE(ent[cap - 1]));
			if (list & 7)
				return NVME_SC_PRP_INVALID_OFFSET | NVME_STATUS_DNR;
		}
	}
	return 0;
}

/**
 * vfn_segs_copy() - copy between c->segs and a linear kernel buffer
 * @c: the controller, segments mapped by vfn_prp_map()
 * @buf: the buffer, as long as the segments together
 * @to_host: direction
 */
void vfn_segs_copy(struct vfn_ctrl *c, void *buf, bool to_host)
{
	u32 i;

	for (i = 0; i < c->nr_segs; i++) {
		if (to_host)
			memcpy(c->segs[i].kva, buf, c->segs[i].len);
		else
			memcpy(buf, c->segs[i].kva, c->segs[i].len);
		buf += c->segs[i].len;
	}
}
