// SPDX-License-Identifier: GPL-2.0
/*
 * PRP walking: turn a command's PRP entries into mapped segments of host
 * memory. The transfer length comes from the command, never from the
 * PRPs; every entry is read once and checked before any data moves, so a
 * malformed command fails without touching memory outside its buffers.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "frontend_nvme/proto.h"

#define PRP_OFFSET_BAD	VFN_SC(NVME_SC_PRP_INVALID_OFFSET)

static u16 add_seg(const struct vfn_hostmem *hm, struct vfn_buf *buf,
		   u64 addr, u32 len)
{
	void *kva = hm->page(hm, addr);

	if (!kva)
		return NVME_SC_DATA_XFER_ERROR;
	if (buf->nr == ARRAY_SIZE(buf->seg))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	buf->seg[buf->nr].kva = kva;
	buf->seg[buf->nr].len = len;
	buf->nr++;
	return 0;
}

/**
 * vfn_prp_walk() - map a PRP-described host buffer
 * @hm: the host memory the device may use
 * @prp1: PRP entry 1: the first data pointer, at any dword offset
 * @prp2: PRP entry 2: the second page, or a PRP list pointer when more
 *	than two pages are involved
 * @len: transfer length from the command, at most VFN_MAX_XFER_BYTES
 * @buf: filled with the mapped segments; @buf->nr is 0 on error
 *
 * Data pointers after the first must be page-aligned; list pointers
 * qword-aligned; a list that fills the rest of its page chains through its
 * last entry. The walk ends when @len is covered, so a circular chain
 * cannot make it loop.
 *
 * Return: 0, or an NVMe status: PRP Offset Invalid for a misaligned entry,
 * Data Transfer Error for an entry the device may not touch, Invalid
 * Field for a transfer longer than VFN_MAX_XFER_BYTES.
 */
u16 vfn_prp_walk(const struct vfn_hostmem *hm, u64 prp1, u64 prp2, u32 len,
		 struct vfn_buf *buf)
{
	u32 first, rest, n, i;
	u64 list;
	u16 sc;

	buf->nr = 0;
	if (!len)
		return 0;
	if (len > VFN_MAX_XFER_BYTES)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (prp1 & 3)
		return PRP_OFFSET_BAD;
	first = min(len, VFN_HOST_PAGE - (u32)(prp1 & (VFN_HOST_PAGE - 1)));
	sc = add_seg(hm, buf, prp1, first);
	rest = len - first;
	if (sc || !rest)
		goto out;
	if (rest <= VFN_HOST_PAGE) {
		sc = prp2 & (VFN_HOST_PAGE - 1) ? PRP_OFFSET_BAD :
		     add_seg(hm, buf, prp2, rest);
		goto out;
	}

	if (prp2 & 7) {
		sc = PRP_OFFSET_BAD;
		goto out;
	}
	n = DIV_ROUND_UP(rest, VFN_HOST_PAGE);
	list = prp2;
	while (n) {
		u32 cap = (VFN_HOST_PAGE - (u32)(list & (VFN_HOST_PAGE - 1))) / 8;
		u32 take = n <= cap ? n : cap - 1;
		const __le64 *ent = hm->page(hm, list);

		if (!ent) {
			sc = NVME_SC_DATA_XFER_ERROR;
			goto out;
		}
		for (i = 0; i < take; i++) {
			u64 addr = le64_to_cpu(READ_ONCE(ent[i]));
			u32 seg = min(rest, VFN_HOST_PAGE);

			sc = addr & (VFN_HOST_PAGE - 1) ? PRP_OFFSET_BAD :
			     add_seg(hm, buf, addr, seg);
			if (sc)
				goto out;
			rest -= seg;
		}
		n -= take;
		if (n) {
			list = le64_to_cpu(READ_ONCE(ent[cap - 1]));
			if (list & 7) {
				sc = PRP_OFFSET_BAD;
				goto out;
			}
		}
	}
out:
	if (sc)
		buf->nr = 0;
	return sc;
}

/**
 * vfn_buf_copy() - copy between mapped segments and a linear buffer
 * @buf: segments mapped by vfn_prp_walk()
 * @lin: the linear buffer, as long as the segments together
 * @to_host: copy @lin into the segments (else the segments into @lin)
 */
void vfn_buf_copy(const struct vfn_buf *buf, void *lin, bool to_host)
{
	u32 i;

	for (i = 0; i < buf->nr; i++) {
		if (to_host)
			memcpy(buf->seg[i].kva, lin, buf->seg[i].len);
		else
			memcpy(lin, buf->seg[i].kva, buf->seg[i].len);
		lin += buf->seg[i].len;
	}
}
