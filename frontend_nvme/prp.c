// SPDX-License-Identifier: GPL-2.0
/*
 * PRP walking. The transfer length comes from the command, never from the
 * PRPs; every entry is read once and checked before any data moves, so a
 * malformed command fails without touching memory outside its buffers.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "frontend_nvme/proto.h"

#define PRP_OFFSET_BAD	VFN_SC(NVME_SC_PRP_INVALID_OFFSET)

/**
 * vfn_host_map() - the kernel address of a host address the device uses
 * @hm: the host memory
 * @addr: a host (physical) address
 * @dev_writes: the device would write there (else only read)
 *
 * Return: the kernel address of @addr, valid to the end of its 4 KiB
 * page, or NULL if vfn_host_page_ok() refuses the page.
 */
void *vfn_host_map(const struct vfn_hostmem *hm, u64 addr, bool dev_writes)
{
	return __vfn_host_map(hm, addr, dev_writes);
}

static __always_inline u16 add_seg(const struct vfn_hostmem *hm,
				   struct vfn_buf *buf, u64 addr, u32 len,
				   bool dev_writes)
{
	void *kva = __vfn_host_map(hm, addr, dev_writes);

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
 * vfn_prp_walk_full() - map a PRP-described host buffer
 * @hm: the host memory the device may use
 * @prp1: PRP entry 1: the first data pointer, at any dword offset
 * @prp2: PRP entry 2: the second page, or a PRP list pointer when more
 *	than two pages are involved
 * @len: transfer length from the command, at most VFN_MAX_XFER_BYTES
 * @dev_writes: the device writes the data pages (a transfer to the host);
 *	list pages are only ever read
 * @buf: filled with the mapped segments; @buf->nr is 0 on error
 *
 * Every list page visited yields at least one data entry, so the walk
 * reads at most one list page per data page: no chain, circular or not,
 * makes it loop.
 *
 * Return: 0, or an NVMe status: PRP Offset Invalid for a misaligned entry
 * or a list page with no room for data entries, Data Transfer Error for
 * an entry the device may not touch (vfn_host_page_ok()), Invalid Field
 * for a transfer longer than VFN_MAX_XFER_BYTES.
 */
u16 vfn_prp_walk_full(const struct vfn_hostmem *hm, u64 prp1, u64 prp2,
		      u32 len, bool dev_writes, struct vfn_buf *buf)
{
	u32 first, rest, n, i, lists = 0;
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
	sc = add_seg(hm, buf, prp1, first, dev_writes);
	rest = len - first;
	if (sc || !rest)
		goto out;
	if (rest <= VFN_HOST_PAGE) {
		sc = prp2 & (VFN_HOST_PAGE - 1) ? PRP_OFFSET_BAD :
		     add_seg(hm, buf, prp2, rest, dev_writes);
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
		const __le64 *ent;

		/*
		 * Room for the chain pointer only: no progress, and a
		 * self-pointer would loop. The second test cannot trip.
		 */
		if (!take || ++lists > VFN_MAX_SEGS) {
			sc = PRP_OFFSET_BAD;
			goto out;
		}
		ent = __vfn_host_map(hm, list, false);
		if (!ent) {
			sc = NVME_SC_DATA_XFER_ERROR;
			goto out;
		}
		for (i = 0; i < take; i++) {
			u64 addr = le64_to_cpu(READ_ONCE(ent[i]));
			u32 seg = min(rest, VFN_HOST_PAGE);

			sc = addr & (VFN_HOST_PAGE - 1) ? PRP_OFFSET_BAD :
			     add_seg(hm, buf, addr, seg, dev_writes);
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

/**
 * vfn_buf_to_host() - copy data to mapped segments, zero-filling the rest
 * @buf: segments mapped by vfn_prp_walk()
 * @src: the data
 * @src_len: its length; the segments past it get zeros
 */
void vfn_buf_to_host(const struct vfn_buf *buf, const void *src, u32 src_len)
{
	u32 i, n;

	for (i = 0; i < buf->nr; i++) {
		n = min(src_len, buf->seg[i].len);
		memcpy(buf->seg[i].kva, src, n);
		memset(buf->seg[i].kva + n, 0, buf->seg[i].len - n);
		src += n;
		src_len -= n;
	}
}
