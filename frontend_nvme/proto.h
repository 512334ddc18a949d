/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the NVMe frontend's files share: limits, statuses, queue rings, PRP
 * walking, a namespace's format and a decoded I/O command. No PCI, MMIO or
 * thread here: KUnit runs it under UML.
 */
#ifndef VFLASH_NVME_PROTO_H
#define VFLASH_NVME_PROTO_H

#include <asm/barrier.h>
#include <asm/byteorder.h>
#include <linux/bitmap.h>
#include <linux/compiler.h>
#include <linux/math.h>
#include <linux/nvme.h>
#include <linux/string.h>
#include <linux/types.h>

#include "backend_flash/flash.h"

#define VFN_MAX_IOQ		64
#define VFN_NR_VEC		(VFN_MAX_IOQ + 1)
#define VFN_MQES		1023		/* CAP.MQES, 0's based */
#define VFN_HOST_PAGE		4096U		/* CC.MPS = 0 */
#define VFN_HOST_PAGE_SHIFT	12
#define VFN_MDTS		7		/* 2^7 x 4 KiB = 512 KiB */
#define VFN_MAX_XFER_BYTES	(VFN_HOST_PAGE << VFN_MDTS)
#define VFN_MAX_SEGS		(VFN_MAX_XFER_BYTES / VFN_HOST_PAGE + 1)
#define VFN_ERR_LOG_BYTES	64U		/* ELPE = 0: one entry */
#define VFN_SMART_LOG_BYTES	512U
#define VFN_FW_LOG_BYTES	512U
#define VFN_WCTEMP_K		0x157		/* Identify WCTEMP, kelvin */
#define VFN_TEMP_K		323		/* what SMART reports */
#define VFN_ID_CNS_IOCS		0x1c		/* I/O Command Set data */
#define VFN_EFFECTS_LOG_BYTES	4096U
#define VFN_ZONE_LOG_BYTES	4096U		/* Changed Zone List */
#define VFN_LOG_CHANGED_ZONES	0xbf
/* Supported Log Pages (NVMe Base 2.0, 5.16.1.1): a dword per log id. */
#define VFN_LOG_SUPPORTED	0x00
#define VFN_SUPPORTED_LOG_BYTES	1024
/* Command specific status: Invalid I/O Command Set (NVMe Base 2.0). */
#define VFN_SC_INVALID_IOCS	0x12c
#define VFN_NS_LIST_BYTES	4096U		/* Changed Namespace List */
/* Get Log Page CDW10 bit 15: Retain Asynchronous Event. */
#define VFN_LOG_RAE		BIT(15)

/* NSIDs 1 to VFN_MAX_NS; this controller is the subsystem's only one. */
#define VFN_MAX_NS		32
#define VFN_CNTLID		1
#define VFN_ID_CNS_CS_NS_ACTIVE_LIST	0x07
#define VFN_ID_CNS_CS_NS_ALLOC_LIST	0x1a
#define VFN_ID_CNS_CS_NS_ALLOC		0x1b
#define VFN_SC_IOCS_NOT_SUPPORTED	0x129
#define VFN_SC_IOCS_NOT_ENABLED		0x12a
#define VFN_SC_IOCS_COMBINATION_REJECTED	0x12b
/* Get Features SEL 3, the capabilities: changeable (none is saveable). */
#define VFN_FEAT_CHANGEABLE		BIT(2)
/* Feature 19h: I/O Command Set Profile (the IOCS combination index). */
#define VFN_FEAT_IOCS_PROFILE		0x19

/* VS and VER: 2.1, for the command sets (2.0: ZNS, CSI, CNS 1Ch) and FDP. */
#define VFN_VERSION		0x00020100

/*
 * Copy (NVM Command Set 1.0c, 3.3.1), Verify and Write Uncorrectable: the
 * opcode Linux 6.1's header lacks; MSSRL and MCL in bytes here, in blocks
 * in Identify Namespace.
 */
#define VFN_CMD_COPY			0x19
#define VFN_ONCS_VERIFY			BIT(7)
#define VFN_ONCS_COPY			BIT(8)
#define VFN_COPY_DESC_BYTES		32	/* Source Range Entry, format 0 */
#define VFN_COPY_MSRC			127	/* 128 ranges: one 4 KiB list */
#define VFN_COPY_MSSRL_BYTES		BIT(20)
#define VFN_COPY_MCL_BYTES		BIT(22)
#define VFN_SC_CMD_SIZE_LIMIT		0x183
/* Identify Namespace (NVM): MSSRL, MCL and MSRC; Controller: OCFS. */
#define VFN_ID_NS_MSSRL			74
#define VFN_ID_NS_MCL			76
#define VFN_ID_NS_MSRC			80
#define VFN_ID_CTRL_OCFS		534

/* Invalid Placement Handle List (NVMe Base 2.1, TP4146). */
#define VFN_SC_INVALID_PHNDL_LIST	0x2a

/* A status code that retrying cannot fix: Do Not Retry set. */
#define VFN_SC(x)		((x) | NVME_STATUS_DNR)

/**
 * struct vfn_queue - a submission or completion queue
 * @kva: its entries, in host memory (physically contiguous)
 * @size: entries
 * @head: SQ: next entry to fetch; CQ: the host's head, as last read
 * @tail: CQ: next entry to fill
 * @phase: CQ: phase tag of the next entry
 * @cqid: SQ: its completion queue
 * @vector: CQ: MSI-X vector
 * @irq_enabled: CQ: raise @vector when posting
 * @live: created and not deleted
 * @gen: CQ: bumped at every create, delete and reset, so that a
 *	completion computed for an older incarnation is dropped
 */
struct vfn_queue {
	void *kva;
	u32 size;
	u32 head;
	u32 tail;
	u8 phase;
	u16 cqid;
	u16 vector;
	bool irq_enabled;
	bool live;
	u32 gen;
};

#define VFN_DB_MARKS		8

/**
 * struct vfn_db_marks - when the dispatcher first saw an SQ's commands
 * @seq: commands taken from the SQ since the marks were last cleared
 * @seen: commands covered by a mark so far (@seq plus the backlog)
 * @looked_ns: the dispatcher's last look at the SQ's tail doorbell
 * @end: per mark, the command count (as @seq) up to which a look found
 *	the tail doorbell
 * @gap_ns: per mark, the time since the look before (capped at U32_MAX)
 * @seen_ns: per mark, when that look was
 * @first: the oldest mark
 * @nr: marks in use
 *
 * Kept only while the submit trace event is on. With every mark in use a
 * look extends the newest one (its commands then show an earlier doorbell).
 */
struct vfn_db_marks {
	u32 seq;
	u32 seen;
	u64 looked_ns;
	u32 end[VFN_DB_MARKS];
	u32 gap_ns[VFN_DB_MARKS];
	u64 seen_ns[VFN_DB_MARKS];
	u8 first;
	u8 nr;
};

/* The slot after @i in a ring of @size slots. */
static inline u32 vfn_ring_next(u32 i, u32 size)
{
	return i + 1 == size ? 0 : i + 1;
}

/**
 * vfn_sq_avail() - commands the host has submitted but we have not fetched
 * @sq: the submission queue
 * @tail: the value of its tail doorbell
 *
 * Return: entries from @sq->head up to @tail; 0 for a tail doorbell
 * outside the queue, which the device ignores.
 */
static inline u32 vfn_sq_avail(const struct vfn_queue *sq, u32 tail)
{
	if (tail >= sq->size)
		return 0;
	return tail >= sq->head ? tail - sq->head : sq->size - sq->head + tail;
}

/**
 * vfn_cq_post() - write one completion entry
 * @cq: the completion queue
 * @head: the value of its head doorbell; a value outside the queue is
 *	ignored and the last valid one kept
 * @cqe: the entry: result, SQ head, SQ id and command id are copied
 * @status: status field without the phase tag, host order
 *
 * The entry's status word (with the phase tag) is written last, after a
 * barrier, so the host never sees the new phase with stale contents.
 *
 * Return: true if posted, false if the queue is full.
 */
static inline bool vfn_cq_post(struct vfn_queue *cq, u32 head,
			       const struct nvme_completion *cqe,
			       u16 status)
{
	struct nvme_completion *e;

	if (head < cq->size)
		cq->head = head;
	if (vfn_ring_next(cq->tail, cq->size) == cq->head)
		return false;
	e = (struct nvme_completion *)cq->kva + cq->tail;
	e->result = cqe->result;
	e->sq_head = cqe->sq_head;
	e->sq_id = cqe->sq_id;
	e->command_id = cqe->command_id;
	dma_wmb();
	WRITE_ONCE(e->status, cpu_to_le16(status << 1 | cq->phase));
	cq->tail = vfn_ring_next(cq->tail, cq->size);
	if (!cq->tail)
		cq->phase ^= 1;
	return true;
}

void vfn_db_look(struct vfn_db_marks *m, u32 avail, u64 now_ns);
bool vfn_db_take(struct vfn_db_marks *m, u64 *seen_ns, u64 *polled_ns);

/**
 * struct vfn_seg - a piece of a host buffer, mapped
 * @kva: where it is
 * @len: its length
 */
struct vfn_seg {
	void *kva;
	u32 len;
};

/**
 * struct vfn_buf - a command's host buffer, as mapped segments
 * @seg: the segments, in transfer order
 * @nr: segments used
 */
struct vfn_buf {
	struct vfn_seg seg[VFN_MAX_SEGS];
	u32 nr;
};

/**
 * struct vfn_page_info - what the device may learn about one host page
 * @kva: its kernel address (direct map), or NULL if the page has no
 *	online struct page (a hole, MMIO, ZONE_DEVICE, beyond memory)
 * @reserved: PageReserved: the kernel image (text, rodata, data), firmware
 *	and memblock reservations, the zero page, our own BAR0
 * @ram: System RAM (only looked up for reserved pages: every page the
 *	buddy allocator manages is RAM)
 * @bar: one of this controller's own BAR0 pages
 */
struct vfn_page_info {
	void *kva;
	bool reserved;
	bool ram;
	bool bar;
};

/**
 * vfn_host_page_ok() - may the device touch this host page?
 * @pfn: the host page frame (4 KiB)
 * @pi: what the host memory reported about it
 * @dev_writes: the device would write to it (else only read it)
 *
 * There is no IOMMU, and the direct map has addresses that would oops or
 * corrupt what no real device's DMA could. Refused: page frame 0 (a zero
 * PRP), pages with no online struct page, our own BAR0, non-RAM, and
 * writes to reserved pages. Reading a reserved RAM page is allowed: the
 * block layer writes from the zero page, swiotlb buffers are reserved.
 *
 * Return: true if the access is allowed.
 */
static inline bool vfn_host_page_ok(u64 pfn, const struct vfn_page_info *pi,
				    bool dev_writes)
{
	if (!pfn || !pi->kva || pi->bar || !pi->ram)
		return false;
	return !(pi->reserved && dev_writes);
}

/**
 * struct vfn_hostmem - how the device reaches host memory
 * @probe: fill @pi for host page frame @pfn; only reports: the decision
 *	is vfn_host_page_ok()'s, for the kernel and KUnit's fake alike.
 */
struct vfn_hostmem {
	void (*probe)(const struct vfn_hostmem *hm, u64 pfn,
		      struct vfn_page_info *pi);
};

/* vfn_host_map(), inline for the PRP walk. */
static inline void *__vfn_host_map(const struct vfn_hostmem *hm, u64 addr,
				   bool dev_writes)
{
	struct vfn_page_info pi = { };
	u64 pfn = addr >> VFN_HOST_PAGE_SHIFT;

	hm->probe(hm, pfn, &pi);
	if (!vfn_host_page_ok(pfn, &pi, dev_writes))
		return NULL;
	return pi.kva + (addr & (VFN_HOST_PAGE - 1));
}

void *vfn_host_map(const struct vfn_hostmem *hm, u64 addr, bool dev_writes);

u16 vfn_prp_walk_full(const struct vfn_hostmem *hm, u64 prp1, u64 prp2,
		      u32 len, bool dev_writes, struct vfn_buf *buf);

/**
 * vfn_prp_walk() - map a PRP-described host buffer
 * @hm: the host memory the device may use
 * @prp1: PRP entry 1
 * @prp2: PRP entry 2
 * @len: transfer length from the command
 * @dev_writes: the device writes the data pages
 * @buf: filled with the mapped segments; @buf->nr is 0 on error
 *
 * Return: 0 or an NVMe status, as vfn_prp_walk_full().
 */
static inline u16 vfn_prp_walk(const struct vfn_hostmem *hm, u64 prp1,
			       u64 prp2, u32 len, bool dev_writes,
			       struct vfn_buf *buf)
{
	void *kva;

	if (!len || (prp1 & 3) ||
	    len > VFN_HOST_PAGE - (u32)(prp1 & (VFN_HOST_PAGE - 1)))
		return vfn_prp_walk_full(hm, prp1, prp2, len, dev_writes, buf);
	kva = __vfn_host_map(hm, prp1, dev_writes);
	if (!kva) {
		buf->nr = 0;
		return NVME_SC_DATA_XFER_ERROR;
	}
	buf->seg[0].kva = kva;
	buf->seg[0].len = len;
	buf->nr = 1;
	return 0;
}

void vfn_buf_copy(const struct vfn_buf *buf, void *lin, bool to_host);
void vfn_buf_to_host(const struct vfn_buf *buf, const void *src, u32 src_len);

/**
 * struct vfn_ns - a namespace's format and place
 * @nsze: size in logical blocks
 * @base: its first block's backend page (its own range of pages, ns.c)
 * @id: its NSID
 * @lba_shift: log2 of the logical block size (9 or 12)
 * @zoned: a zoned namespace (Zoned Namespace Command Set, CSI 02h)
 * @nr_ph: placement handles (Flexible Data Placement), 0 without FDP
 * @ruh: FDP: placement handle i is reclaim unit handle @ruh[i]
 * @ruh_ctrl: FDP: the controller chose @ruh (a create without a list)
 */
struct vfn_ns {
	u64 nsze;
	u64 base;
	u32 id;
	u8 lba_shift;
	bool zoned;
	u16 nr_ph;
	u8 ruh[VFLASH_FLASH_MAX_PLACEMENT];
	bool ruh_ctrl;
};

/**
 * vfn_nsid_valid() - is @nsid a valid NSID (allocated or not)?
 * @nsid: a command's NSID
 *
 * Return: true for 1 to VFN_MAX_NS; false for 0, the broadcast value
 * FFFFFFFFh and everything above NN (NVMe Base 2.0c, 3.2.1.2).
 */
static inline bool vfn_nsid_valid(u32 nsid)
{
	return nsid && nsid <= VFN_MAX_NS;
}

/**
 * struct vfn_io_req - a decoded, validated NVM command
 * @opcode: the NVM opcode
 * @fua: Write, Write Zeroes: Force Unit Access
 * @deallocate: Write Zeroes: deallocate the blocks (DEAC)
 * @slba: first logical block
 * @nlb: logical blocks (1-based)
 * @pos_bytes: device byte offset of @slba
 * @len_bytes: bytes covered
 * @lpn: first backend page touched
 * @nr_lpages: backend pages touched (partly or wholly)
 * @full_lpn: first backend page wholly covered
 * @nr_full: backend pages wholly covered (0 if none)
 * @nr_ranges: Dataset Management: ranges in the host buffer (1-based)
 * @zsa: Zone Management Send: the action; Receive: the receive action
 * @zrasf: Zone Management Receive: the state filter
 * @select_all: Zone Management Send: Select All
 * @partial: Zone Management Receive: Partial Report
 * @xfer_bytes: Zone Management Receive: bytes of the report buffer; I/O
 *	Management Receive and Send: bytes of the data buffer
 * @placed: Write, Write Zeroes: a placement directive (DTYPE 2h, FDP)
 * @pid: its placement identifier (DSPEC), not yet checked
 * @ph: the placement handle the write's pages go to (set by the I/O path)
 * @nr_pids: I/O Management Send (RUH Update): identifiers in the buffer
 * @zone_took: a write to a zone was given its place (the write pointer
 *	moved); if it fails later, vfn_zone_write_undo() puts it back
 * @bounce: Copy: a buffer for one source range's bytes (io.c)
 * @zone_was: its zone's state before
 * @zone_lba: its first block
 * @zrwaa: Zone Management Send, Open: ZRWAA (allocate a ZRWA)
 * @zrwa: a write to a zone with a ZRWA: its data stays in device DRAM
 * @zrwa_wp: that zone's write pointer before the write
 */
struct vfn_io_req {
	u8 opcode;
	bool fua;
	bool deallocate;
	u64 slba;
	u64 nlb;
	u64 pos_bytes;
	u64 len_bytes;
	u64 lpn;
	u64 nr_lpages;
	u64 full_lpn;
	u64 nr_full;
	u32 nr_ranges;
	u8 zsa;
	u8 zrasf;
	bool select_all;
	bool partial;
	u32 xfer_bytes;
	bool placed;
	u16 pid;
	u16 ph;
	u32 nr_pids;
	bool zone_took;
	u8 zone_was;
	u64 zone_lba;
	u8 *bounce;
	bool zrwaa;
	bool zrwa;
	u64 zrwa_wp;
};

/**
 * struct vfn_copy_desc - a Copy Source Range Entry, descriptor format 0
 * @rsvd0: reserved
 * @slba: first source block
 * @nlb: source blocks, 0's based
 * @rsvd18: reserved
 * @eilbrt: expected initial logical block reference tag (no PI: unused)
 * @elbatm: expected logical block application tag mask (unused)
 * @elbat: expected logical block application tag (unused)
 */
struct vfn_copy_desc {
	__le64 rsvd0;
	__le64 slba;
	__le16 nlb;
	u8 rsvd18[6];
	__le32 eilbrt;
	__le16 elbatm;
	__le16 elbat;
};

/* MSSRL in logical blocks. */
static inline u32 vfn_copy_mssrl(const struct vfn_ns *ns)
{
	return VFN_COPY_MSSRL_BYTES >> ns->lba_shift;
}

/* MCL in logical blocks. */
static inline u32 vfn_copy_mcl(const struct vfn_ns *ns)
{
	return VFN_COPY_MCL_BYTES >> ns->lba_shift;
}

/* CDWn, @n 10 to 15, host order. */
static inline u32 vfn_cdw(const struct nvme_command *cmd, int n)
{
	const __le32 *w = &cmd->common.cdw10;

	return le32_to_cpu(w[n - 10]);
}

#define VFN_FLAGS_UNSUPPORTED	(NVME_CMD_FUSE_FIRST | NVME_CMD_FUSE_SECOND | \
				 NVME_CMD_SGL_ALL)
/* Write, Write Zeroes: CDW12 bits 23:20 directive type, CDW13 31:16 DSPEC. */
#define VFN_RW_DTYPE(cdw12)	(((cdw12) >> 20) & 0xf)
#define VFN_RW_DSPEC(cdw13)	((cdw13) >> 16)

/* A range's backend pages, from its device bytes. */
static __always_inline void vfn_range_pages(struct vfn_io_req *req)
{
	u64 end = req->pos_bytes + req->len_bytes, full_end;

	req->lpn = req->pos_bytes >> VFLASH_LPAGE_SHIFT;
	req->nr_lpages = DIV_ROUND_UP_ULL(end, VFLASH_LPAGE_SIZE) - req->lpn;
	req->full_lpn = DIV_ROUND_UP_ULL(req->pos_bytes, VFLASH_LPAGE_SIZE);
	full_end = end >> VFLASH_LPAGE_SHIFT;
	req->nr_full = full_end > req->full_lpn ? full_end - req->full_lpn : 0;
}

/* vfn_lba_range(), inline for the I/O path's decoding. */
static __always_inline u16 __vfn_lba_range(const struct vfn_ns *ns, u64 slba,
					   u64 nlb, struct vfn_io_req *req)
{
	if (!nlb || slba >= ns->nsze || nlb > ns->nsze - slba)
		return VFN_SC(NVME_SC_LBA_RANGE);
	req->slba = slba;
	req->nlb = nlb;
	req->pos_bytes = (ns->base << VFLASH_LPAGE_SHIFT) +
			 (slba << ns->lba_shift);
	req->len_bytes = nlb << ns->lba_shift;
	vfn_range_pages(req);
	return 0;
}

/**
 * vfn_lba_range() - check a block range and express it in bytes and pages
 * @ns: the namespace
 * @slba: first logical block
 * @nlb: logical blocks, 1-based
 * @req: its byte and backend-page fields are filled
 *
 * Return: 0, or LBA Out of Range if any block of the range is not in the
 * namespace (including an empty range).
 */
static inline u16 vfn_lba_range(const struct vfn_ns *ns, u64 slba, u64 nlb,
				struct vfn_io_req *req)
{
	return __vfn_lba_range(ns, slba, nlb, req);
}

/**
 * vfn_range_move() - a decoded range, moved to start at block @slba
 * @ns: its namespace
 * @req: the range, as vfn_lba_range() decoded it
 * @slba: its new first block; the range ends in the namespace there
 *
 * Not checked nor decoded again: its bytes and pages shift.
 */
static inline void vfn_range_move(const struct vfn_ns *ns,
				  struct vfn_io_req *req, u64 slba)
{
	req->pos_bytes += (slba << ns->lba_shift) -
			  (req->slba << ns->lba_shift);
	req->slba = slba;
	vfn_range_pages(req);
}

/**
 * struct vfn_arg - where the value of one frontend parameter goes
 * @name: the parameter's name, as module parameter and configfs attribute
 * @uint: its value if it is a number, else NULL
 * @str: its value if it is a string
 */
struct vfn_arg {
	const char *name;
	unsigned int *uint;
	const char **str;
};

static inline bool vfn_arg_uint(struct vfn_arg *a, const char *name,
				unsigned int *val)
{
	*a = (struct vfn_arg){ .name = name, .uint = val };
	return true;
}

static inline bool vfn_arg_str(struct vfn_arg *a, const char *name,
			       const char **val)
{
	*a = (struct vfn_arg){ .name = name, .str = val };
	return true;
}

#endif /* VFLASH_NVME_PROTO_H */
