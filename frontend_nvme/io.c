// SPDX-License-Identifier: GPL-2.0
/*
 * NVM commands. The backend works in 4 KiB pages, so a partial-page write
 * programs the whole page, as a drive's read-modify-write does.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

enum move { TO_HOST, FROM_HOST, COMPARE };

/* Zeroing checks the host's CC and Bus Master every 2 MiB. */
#define ZERO_STEP_PAGES		512

/* A block range [start, end), as Dataset Management ranges are merged. */
struct vfn_blocks {
	u64 start;
	u64 end;
};

/* Return: false if COMPARE found a difference. */
static __always_inline bool move_data(struct vfn_ctrl *c, u64 pos,
				      enum move how)
{
	struct vflash_backing *b = &c->vdev->backing;
	pgoff_t pg = pos >> VFLASH_LPAGE_SHIFT;
	u32 i;

	/* The common case, one whole page: one copy of a known size. */
	if (how != COMPARE && c->buf.nr == 1 &&
	    c->buf.seg[0].len == VFLASH_LPAGE_SIZE &&
	    !(pos & (VFLASH_LPAGE_SIZE - 1))) {
		u8 *host = c->buf.seg[0].kva, *dev;

		if (how == TO_HOST) {
			memcpy(host, vflash_store_read_page(b, pg),
			       VFLASH_LPAGE_SIZE);
			return true;
		}
		dev = vflash_store_write_page(b, pg, GFP_KERNEL);
		if (!IS_ERR_OR_NULL(dev))
			memcpy(dev, host, VFLASH_LPAGE_SIZE);
		return true;
	}
	for (i = 0; i < c->buf.nr; i++) {
		u8 *host = c->buf.seg[i].kva;
		u32 left = c->buf.seg[i].len;

		while (left) {
			u32 in = pos & (VFLASH_LPAGE_SIZE - 1);
			u32 n = min(left, VFLASH_LPAGE_SIZE - in);
			u8 *dev;

			pg = pos >> VFLASH_LPAGE_SHIFT;

			if (how == FROM_HOST) {
				/* Memory was taken by store_pages(); none: NULL. */
				dev = vflash_store_write_page(b, pg, GFP_KERNEL);
				if (!IS_ERR_OR_NULL(dev))
					memcpy(dev + in, host, n);
			} else {
				const u8 *src = vflash_store_read_page(b, pg);

				if (how == TO_HOST)
					memcpy(host, src + in, n);
				else if (memcmp(host, src + in, n))
					return false;
			}
			host += n;
			pos += n;
			left -= n;
		}
	}
	return true;
}

/*
 * Zero in steps, with a look at CC and Bus Master between them (unless
 * @always: the device's own doing). Return: false if the host turned DMA
 * off meanwhile.
 */
static bool zero_bytes(struct vfn_ctrl *c, u64 pos, u64 len, bool always)
{
	u64 n_pages = 0;

	while (len) {
		u32 in = pos & (VFLASH_LPAGE_SIZE - 1);
		u32 n = min_t(u64, len, VFLASH_LPAGE_SIZE - in);

		vflash_store_zero(&c->vdev->backing, pos >> VFLASH_LPAGE_SHIFT,
				  in, n);
		pos += n;
		len -= n;
		if (!(++n_pages % ZERO_STEP_PAGES)) {
			if (!always && !vfn_host_allows_dma(c))
				return false;
			cond_resched();
		}
	}
	return true;
}

/*
 * Allocate every page of a write first (store=sparse), so that a write
 * stores all its data or none. Return: false if memory ran out.
 */
static __always_inline bool store_pages(struct vfn_ctrl *c,
					const struct vfn_io_req *r)
{
	u32 i;

	if (!vflash_store_allocates(&c->vdev->backing))
		return true;
	for (i = 0; i < r->nr_lpages; i++)
		if (IS_ERR(vflash_store_write_page(&c->vdev->backing, r->lpn + i,
						   GFP_KERNEL |
						   __GFP_RETRY_MAYFAIL)))
			return false;
	return true;
}

/* The device blocks of @r (vfn_uncor's unit): every namespace's format. */
static __always_inline u64 dev_block(const struct vfn_ctrl *c,
				     const struct vfn_io_req *r)
{
	return r->pos_bytes >> c->nst.lba_shift;
}

static __always_inline bool read_fails(struct vfn_ctrl *c,
				       const struct vfn_io_req *r)
{
	return vfn_uncor_any(&c->nst.uncor, dev_block(c, r),
			     r->len_bytes >> c->nst.lba_shift) ||
	       vflash_fault(&c->vdev->faults, VFLASH_FAULT_READ_ERROR, r->lpn,
			    r->nr_lpages);
}

static __always_inline u64 submit(struct vfn_ctrl *c, enum vflash_io op,
				  u64 lpn, u64 count, u64 now)
{
	return vflash_flash_submit_tagged(c->vdev->flash, VFLASH_FE_NVME, op,
					  lpn, count, now, NULL, &c->tag);
}

/*
 * Time a read or write of @count pages from @lpn (docs/dual.md): pages
 * resident in a device DRAM cache are hits at the firmware's overhead, the
 * rest go to flash. A device without a CXL frontend skips the cache's SRCU
 * read section (a full barrier at each end).
 */
static __always_inline u64 submit_cached(struct vfn_ctrl *c, enum vflash_io op,
					 u64 lpn, u64 count, u64 now)
{
	struct vflash_flash *f = c->vdev->flash;
	bool write = op == VFLASH_IO_WRITE;
	u64 i, run = 0, due = now;
	struct vflash_cache *cache;
	int idx;

	/* Only a CXL frontend on the same device gives it a cache. */
	if (c->vdev->cfg.nr_fe == 1)
		return submit(c, op, lpn, count, now);
	cache = vflash_cache_ctl_begin(&c->vdev->cache_ctl, &idx);
	for (i = 0; cache && i < count; i++) {
		if (!vflash_cache_block_access(cache, lpn + i, write)) {
			run++;
			continue;
		}
		due = max(due, now + vflash_flash_knob(f,
						       VFLASH_KNOB_FW_OVERHEAD_NS));
		if (run)
			due = max(due, submit(c, op, lpn + i - run, run, now));
		run = 0;
	}
	vflash_cache_ctl_end(idx);
	if (!cache)
		return submit(c, op, lpn, count, now);
	if (run)
		due = max(due, submit(c, op, lpn + count - run, run, now));
	return due;
}

/*
 * Drop each page from the device DRAM cache (@drop), or only its CXL
 * mappings so that its next access faults: under the power-loss log, that
 * orders a CXL store to a page logged here after the log's copy of it
 * (docs/design/faults.md).
 */
static void uncache(struct vfn_ctrl *c, u64 lpn, u64 count, bool drop)
{
	struct vflash_cache *cache;
	u64 i;
	int idx;

	cache = vflash_cache_ctl_begin(&c->vdev->cache_ctl, &idx);
	for (i = 0; cache && i < count; i++) {
		if (drop)
			vflash_cache_invalidate(cache, lpn + i);
		else
			vflash_cache_unmap(cache, lpn + i);
		if (!((i + 1) % ZERO_STEP_PAGES))
			cond_resched();
	}
	vflash_cache_ctl_end(idx);
}

/*
 * Under the power-loss log, keep each logged page's uncorrectable marks
 * this write clears: a cut that takes the write back restores them.
 */
static void keep_marks(struct vfn_ctrl *c, const struct vfn_io_req *r)
{
	u32 shift = VFLASH_LPAGE_SHIFT - c->nst.lba_shift, i, b;

	for (i = 0; i < r->nr_lpages; i++) {
		u64 first = (r->lpn + i) << shift;
		u8 marks = 0;

		for (b = 0; b < BIT(shift); b++)
			if (vfn_uncor_test(&c->nst.uncor, first + b, 1))
				marks |= BIT(b);
		vflash_pl_keep_marks(&c->vdev->faults.pl, i, marks);
	}
}

/*
 * Store a write's data (@store) and time it; under the power-loss log the
 * old contents are logged first. A write that must be durable at
 * completion (FUA, or the write cache off) completes once programmed.
 * Return: 0, VFN_SC_ABANDONED if @store was cut short, or Internal Error
 * if the log had no memory (nothing stored).
 */
static __always_inline u16 store_write(struct vfn_ctrl *c,
				       const struct vfn_nsd *nd,
				       const struct vfn_io_req *r,
				       bool (*store)(struct vfn_ctrl *c,
						     const struct vfn_io_req *r),
				       u64 now, u64 *due_ns)
{
	struct vflash_powerloss *pl = &c->vdev->faults.pl;
	struct vflash_undo *const *undo = NULL;
	bool sync = r->fua || !READ_ONCE(c->wce);
	bool logged = false;
	u16 sc = 0;

	if (static_branch_unlikely(&vflash_faults_armed))
		logged = vflash_pl_lock(pl);
	if (logged) {
		uncache(c, r->lpn, r->nr_lpages, false);
		undo = vflash_pl_log(pl, r->lpn, r->nr_lpages,
				     r->pos_bytes & (VFLASH_LPAGE_SIZE - 1));
		if (!undo) {
			dev_warn_ratelimited(&c->vdev->dev,
					     "power-loss log: no memory for a write of %llu pages at page %llu\n",
					     r->nr_lpages, r->lpn);
			sc = VFN_SC(NVME_SC_INTERNAL);
			goto out;
		}
		if (unlikely(c->nst.uncor.nr))
			keep_marks(c, r);
	}
	if (!store(c, r)) {
		sc = VFN_SC_ABANDONED;
		goto out;
	}
	/* Only a write nobody must find durable may stay in the DRAM cache. */
	if (!logged && !sync && !r->ph) {
		*due_ns = submit_cached(c, VFLASH_IO_WRITE, r->lpn,
					r->nr_lpages, now);
	} else {
		/*
		 * Complete once the pages' dies programmed them (under the
		 * log's lock: a cut cannot come between); in a zone, with
		 * every earlier write: a zone is durable as a prefix.
		 */
		if (sync)
			c->tag.sync = nd->ns.zoned ? VFLASH_SYNC_STREAM :
						     VFLASH_SYNC_PAGES;
		*due_ns = vflash_flash_submit_tagged(c->vdev->flash,
						     VFLASH_FE_NVME,
						     VFLASH_IO_WRITE, r->lpn,
						     r->nr_lpages, now, undo,
						     &c->tag);
		c->tag.sync = VFLASH_SYNC_NONE;
	}
	/*
	 * No die had room: the device is read-only from now on and this
	 * write failed; its log records were never attached, so a cut
	 * takes the pages back.
	 */
	if (unlikely(vflash_flash_out_of_room(c->vdev->flash)))
		sc = VFN_SC(NVME_SC_WRITE_FAULT);
out:
	if (logged)
		vflash_pl_unlock(pl);
	return sc;
}

static __always_inline bool store_data(struct vfn_ctrl *c,
				       const struct vfn_io_req *r)
{
	return move_data(c, r->pos_bytes, FROM_HOST);
}

static bool store_zeroes(struct vfn_ctrl *c, const struct vfn_io_req *r)
{
	return zero_bytes(c, r->pos_bytes, r->len_bytes, false);
}

static __always_inline u16 store_zoned(struct vfn_ctrl *c,
				       const struct vfn_nsd *nd,
				       const struct vfn_io_req *r,
				       bool (*store)(struct vfn_ctrl *c,
						     const struct vfn_io_req *r),
				       u64 now, u64 *due_ns)
{
	if (unlikely(r->zrwa))
		return vfn_zrwa_hold(c, r, store, now, due_ns);
	return store_write(c, nd, r, store, now, due_ns);
}

static bool store_none(struct vfn_ctrl *c, const struct vfn_io_req *r)
{
	return true;
}

static __always_inline u16 zone_write(struct vfn_ctrl *c, struct vfn_nsd *nd,
				      struct vfn_io_req *r, struct vfn_cmd *out)
{
	return nd->ns.zoned ? vfn_zns_write(c, nd, r, out) : 0;
}

static __always_inline u16 rw(struct vfn_ctrl *c, struct vfn_nsd *nd,
			      const struct nvme_command *cmd,
			      struct vfn_io_req *r, struct vfn_cmd *out,
			      u64 now)
{
	bool write = r->opcode == nvme_cmd_write ||
		     r->opcode == nvme_cmd_zone_append;
	u16 sc = vfn_map_data(c, cmd, r->len_bytes);

	if (sc)
		return sc;
	out->op = write ? VFLASH_IO_WRITE : VFLASH_IO_READ;
	if (write) {
		sc = zone_write(c, nd, r, out);
		if (sc)
			return sc;
		c->host_write_cmds++;
		c->host_write_units += r->len_bytes >> 9;
		/* An injected Write Fault: the program is charged, the data lost. */
		if (vflash_fault(&c->vdev->faults, VFLASH_FAULT_WRITE_FAULT,
				 r->lpn, r->nr_lpages)) {
			out->due_ns = submit(c, VFLASH_IO_WRITE, r->lpn,
					     r->nr_lpages, now);
			return VFN_SC(NVME_SC_WRITE_FAULT);
		}
		if (!store_pages(c, r)) {
			dev_warn_ratelimited(&c->vdev->dev,
					     "store: no memory for a write at page %llu\n",
					     r->lpn);
			return VFN_SC(NVME_SC_CAP_EXCEEDED);
		}
		return store_zoned(c, nd, r, store_data, now, &out->due_ns);
	}
	c->host_read_cmds++;
	c->host_read_units += r->len_bytes >> 9;
	/* A ZRWA window's blocks are in device DRAM: no NAND read. */
	if (unlikely(nd->ns.zoned) &&
	    vfn_zone_in_zrwa(&nd->zns, r->slba, r->nlb))
		out->due_ns = now + vflash_flash_knob(c->vdev->flash,
						      VFLASH_KNOB_FW_OVERHEAD_NS);
	else
		out->due_ns = submit_cached(c, VFLASH_IO_READ, r->lpn,
					    r->nr_lpages, now);
	/*
	 * A marked block, or an injected read error, fails when the read
	 * would have completed; nothing moves.
	 */
	if (read_fails(c, r))
		return VFN_SC(NVME_SC_READ_ERROR);
	if (r->opcode == nvme_cmd_read) {
		move_data(c, r->pos_bytes, TO_HOST);
		return 0;
	}
	return move_data(c, r->pos_bytes, COMPARE) ? 0 :
	       VFN_SC(NVME_SC_COMPARE_FAILED);
}

/*
 * Deallocate: the range reads as zeros, the backend forgets the pages it
 * covers wholly; for a zone's reset (@zone) the emptied blocks are erased
 * at once. Durable at once: under the power-loss log the touched pages are
 * settled, so a cut never brings their data back (docs/faults.md).
 */
static bool discard(struct vfn_ctrl *c, const struct vfn_io_req *r,
		    u64 now, u64 *due_ns, bool zone, bool always)
{
	struct vflash_powerloss *pl = &c->vdev->faults.pl;
	bool logged = false, ok;

	/*
	 * Unmapped from CXL first, so no eviction writes the pages back;
	 * before the log's lock, as the invalidation waits for CXL faults
	 * that may be waiting for that lock.
	 */
	if (r->nr_full)
		uncache(c, r->full_lpn, r->nr_full, true);
	if (static_branch_unlikely(&vflash_faults_armed))
		logged = vflash_pl_lock(pl);
	ok = zero_bytes(c, r->pos_bytes, r->len_bytes, always);
	if (ok)
		vfn_uncor_clear(&c->nst.uncor, dev_block(c, r),
				r->len_bytes >> c->nst.lba_shift);
	/* Cut short: what was zeroed stays zeroed, settle it all. */
	if (logged) {
		vflash_pl_settle(pl, r->lpn, r->nr_lpages);
		vflash_pl_unlock(pl);
	}
	if (!ok)
		return false;
	if (r->nr_full && zone)
		*due_ns = max(*due_ns,
			      vflash_flash_zone_reset(c->vdev->flash,
						      r->full_lpn, r->nr_full,
						      now));
	else if (r->nr_full)
		*due_ns = max(*due_ns, submit(c, VFLASH_IO_TRIM, r->full_lpn,
					      r->nr_full, now));
	return true;
}

static bool deallocate(struct vfn_ctrl *c, const struct vfn_io_req *r,
		       u64 now, u64 *due_ns)
{
	return discard(c, r, now, due_ns, false, false);
}

/**
 * vfn_io_discard() - deallocate a block range (struct vfn_ctrl_ops.discard)
 * @c: the controller
 * @r: the range (bytes and pages as vfn_lba_range() gives them)
 * @now: when, on the backend's clock
 * @due_ns: moved to the end of the backend's work
 * @zone: a zone's reset: the blocks it empties are erased at once
 * @always: the device's own doing, which the host's DMA going off does
 *	not cut short
 *
 * The range reads as zeros, its marks are cleared, the backend forgets
 * its whole pages; durable at once under the power-loss log.
 *
 * Return: false if the host took DMA back meanwhile.
 */
bool vfn_io_discard(struct vfn_ctrl *c, const struct vfn_io_req *r, u64 now,
		    u64 *due_ns, bool zone, bool always)
{
	return discard(c, r, now, due_ns, zone, always);
}

/**
 * vfn_io_program() - program blocks whose data the store holds already
 *	(struct vfn_ctrl_ops.program)
 * @c: the controller
 * @nd: their namespace
 * @r: the blocks, and the placement handle they go to (@r->ph)
 * @now: when, on the backend's clock
 * @due_ns: set to when the program ends
 *
 * The power-loss log, FUA and the write cache apply as to any write.
 *
 * Return: 0, or the NVMe status of a write that failed.
 */
u16 vfn_io_program(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		   const struct vfn_io_req *r, u64 now, u64 *due_ns)
{
	return store_write(c, nd, r, store_none, now, due_ns);
}

static u16 write_zeroes(struct vfn_ctrl *c, struct vfn_nsd *nd,
			struct vfn_io_req *r, struct vfn_cmd *out, u64 now)
{
	u64 last;
	u16 sc = zone_write(c, nd, r, out);

	if (sc)
		return sc;
	/* Zeros written as data: logged, FUA and the write cache apply. */
	if (!r->deallocate)
		return store_zoned(c, nd, r, store_zeroes, now, &out->due_ns);
	if (!deallocate(c, r, now, &out->due_ns))
		return VFN_SC_ABANDONED;
	/* Partly covered pages, at most one at each end, are rewritten. */
	if (r->lpn < r->full_lpn || !r->nr_full)
		out->due_ns = max(out->due_ns,
				  submit(c, VFLASH_IO_WRITE, r->lpn, 1, now));
	last = r->lpn + r->nr_lpages - 1;
	if (last > r->lpn && last >= r->full_lpn + r->nr_full)
		out->due_ns = max(out->due_ns,
				  submit(c, VFLASH_IO_WRITE, last, 1, now));
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct vfn_blocks *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/*
 * Dataset Management, Deallocate: ranges sorted and merged so that a
 * command zeroes each block once, however many ranges overlap.
 */
static u16 dsm(struct vfn_ctrl *c, const struct vfn_nsd *nd,
	       const struct nvme_command *cmd, const struct vfn_io_req *r,
	       struct vfn_cmd *out, u64 now)
{
	struct nvme_dsm_range *range = c->ident;
	struct vfn_blocks *blk = c->ident;
	struct vfn_io_req one;
	u32 i, n, nr = 0;
	u16 sc;

	BUILD_BUG_ON(sizeof(*blk) != sizeof(*range));
	if (!r->deallocate)
		return 0;	/* hints only */
	sc = vfn_map_data(c, cmd, r->nr_ranges * sizeof(*range));
	if (sc)
		return sc;
	vfn_buf_copy(&c->buf, range, false);
	for (i = 0; i < r->nr_ranges; i++) {
		u64 slba = le64_to_cpu(range[i].slba);
		u32 nlb = le32_to_cpu(range[i].nlb);

		if (!nlb)
			continue;
		sc = vfn_lba_range(&nd->ns, slba, nlb, &one);
		if (sc)
			return sc;
		/* In place: entry nr <= i was read already. */
		blk[nr++] = (struct vfn_blocks) { slba, slba + nlb };
	}
	sort(blk, nr, sizeof(*blk), range_cmp, NULL);
	/* Merge in place, then refuse all if one range is write-protected. */
	for (i = 0, n = 0; i < nr; n++) {
		u64 start = blk[i].start, end = blk[i].end;

		for (i++; i < nr && blk[i].start <= end; i++)
			end = max(end, blk[i].end);
		blk[n] = (struct vfn_blocks) { start, end };
	}
	for (i = 0; i < n; i++) {
		vfn_lba_range(&nd->ns, blk[i].start, blk[i].end - blk[i].start,
			      &one);
		if (vflash_fault(&c->vdev->faults, VFLASH_FAULT_READ_ONLY,
				 one.lpn, one.nr_lpages))
			return VFN_SC(NVME_SC_NS_WRITE_PROTECTED);
	}
	for (i = 0; i < n; i++) {
		vfn_lba_range(&nd->ns, blk[i].start, blk[i].end - blk[i].start,
			      &one);
		if (!deallocate(c, &one, now, &out->due_ns))
			return VFN_SC_ABANDONED;
	}
	return 0;
}

/* A zoned namespace's zone goes Read Only; elsewhere Write Protected. */
static u16 write_protected(struct vfn_ctrl *c, struct vfn_nsd *nd,
			   const struct vfn_io_req *r)
{
	if (!nd->ns.zoned)
		return VFN_SC(NVME_SC_NS_WRITE_PROTECTED);
	return vfn_zns_read_only(c, nd, r->slba);
}

/* Verify: a flash read with no host transfer; SMART counts no data units. */
static u16 verify(struct vfn_ctrl *c, const struct vfn_io_req *r,
		  struct vfn_cmd *out, u64 now)
{
	out->op = VFLASH_IO_READ;
	c->host_read_cmds++;
	c->tag.local = true;
	out->due_ns = submit_cached(c, VFLASH_IO_READ, r->lpn, r->nr_lpages,
				    now);
	c->tag.local = false;
	return read_fails(c, r) ? VFN_SC(NVME_SC_READ_ERROR) : 0;
}

/*
 * Write Uncorrectable: reads of the blocks fail until written again; no
 * NAND operation, and a zone's write pointer stays. Durable at completion
 * as a Deallocate (docs/faults.md). Return: 0, or Internal Error (nothing
 * marked) if memory for the marks ran out.
 */
static u16 write_uncor(struct vfn_ctrl *c, const struct vfn_io_req *r,
		       struct vfn_cmd *out, u64 now)
{
	struct vflash_powerloss *pl = &c->vdev->faults.pl;
	bool logged = false;
	int err;

	out->lpn = 0;
	out->count = 0;
	if (static_branch_unlikely(&vflash_faults_armed))
		logged = vflash_pl_lock(pl);
	err = vfn_uncor_mark(&c->nst.uncor, dev_block(c, r), r->nlb);
	if (logged) {
		if (!err)
			vflash_pl_settle(pl, r->lpn, r->nr_lpages);
		vflash_pl_unlock(pl);
	}
	if (err)
		return VFN_SC(NVME_SC_INTERNAL);
	out->due_ns = now + vflash_flash_knob(c->vdev->flash,
					      VFLASH_KNOB_FW_OVERHEAD_NS);
	return 0;
}

static void bytes_out(struct vfn_ctrl *c, u64 pos, u64 len, u8 *to)
{
	while (len) {
		u32 in = pos & (VFLASH_LPAGE_SIZE - 1);
		u32 n = min_t(u64, len, VFLASH_LPAGE_SIZE - in);

		memcpy(to, vflash_store_read_page(&c->vdev->backing,
						  pos >> VFLASH_LPAGE_SHIFT) + in,
		       n);
		to += n;
		pos += n;
		len -= n;
	}
}

/* The caller has stored the pages (store_pages()): none is missed. */
static void bytes_in(struct vfn_ctrl *c, u64 pos, u64 len, const u8 *from)
{
	while (len) {
		u32 in = pos & (VFLASH_LPAGE_SIZE - 1);
		u32 n = min_t(u64, len, VFLASH_LPAGE_SIZE - in);
		u8 *dev = vflash_store_write_page(&c->vdev->backing,
						  pos >> VFLASH_LPAGE_SHIFT,
						  GFP_KERNEL);

		if (!IS_ERR_OR_NULL(dev))
			memcpy(dev + in, from, n);
		from += n;
		pos += n;
		len -= n;
	}
}

/*
 * Marks count outside [@w_start, @w_end): a range reads what the copy's
 * earlier ranges wrote there.
 */
static bool copy_read_fails(struct vfn_ctrl *c, const struct vfn_io_req *one,
			    u64 w_start, u64 w_end)
{
	u64 s = one->pos_bytes, e = s + one->len_bytes;
	u64 lo = clamp(w_start, s, e), hi = clamp(w_end, lo, e);
	u8 sh = c->nst.lba_shift;

	return vfn_uncor_any(&c->nst.uncor, s >> sh, (lo - s) >> sh) ||
	       vfn_uncor_any(&c->nst.uncor, hi >> sh, (e - hi) >> sh) ||
	       vflash_fault(&c->vdev->faults, VFLASH_FAULT_READ_ERROR,
			    one->lpn, one->nr_lpages);
}

/*
 * Copy the source ranges one after another through @r->bounce: a range
 * reads the destination as its own turn finds it.
 */
static bool store_copy(struct vfn_ctrl *c, const struct vfn_io_req *r)
{
	const struct vfn_blocks *src = c->ident;
	u64 to = r->pos_bytes;
	u32 i;

	for (i = 0; i < r->nr_ranges; i++) {
		u64 len = src[i].end - src[i].start;

		bytes_out(c, src[i].start, len, r->bounce);
		bytes_in(c, to, len, r->bounce);
		to += len;
	}
	return true;
}

/* Write Zeroes: Deallocate, CDW12 bit 25 (bit 9 of the control field). */
#define WZ_DEAC			BIT(9)

/* Copy: CDW12 bits 7:0 NR (0's based), 11:8 the descriptor format, 30 FUA. */
#define COPY_NR(cdw12)		(((cdw12) & 0xff) + 1)
#define COPY_DESFMT(cdw12)	(((cdw12) >> 8) & 0xf)
#define COPY_FUA		BIT(30)

/*
 * Copy (NVM Command Set 1.0c, 3.3.1): descriptor format 0 only, at most
 * MSRC + 1 ranges; vfn_copy_check() checks the ranges once read.
 */
static u16 decode_copy(const struct nvme_command *cmd,
		       const struct vfn_ns *ns, struct vfn_io_req *req)
{
	u32 cdw12 = vfn_cdw(cmd, 12);
	u64 sdlba = vfn_cdw(cmd, 10) | (u64)vfn_cdw(cmd, 11) << 32;
	u16 sc;

	if (COPY_DESFMT(cdw12))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	req->nr_ranges = COPY_NR(cdw12);
	if (req->nr_ranges > VFN_COPY_MSRC + 1)
		return VFN_SC(VFN_SC_CMD_SIZE_LIMIT);
	req->xfer_bytes = req->nr_ranges * VFN_COPY_DESC_BYTES;
	req->fua = cdw12 & COPY_FUA;
	sc = vfn_fdp_decode_directive(cmd, ns, req);
	if (sc)
		return sc;
	return __vfn_lba_range(ns, sdlba, 1, req);
}

/**
 * vfn_copy_check() - check a Copy's source ranges against the limits
 * @ns: the namespace
 * @sdlba: the destination's first block (in the namespace: decoded)
 * @desc: the Source Range Entries (format 0), as read from the host
 * @nr: how many
 * @total: receives the blocks to copy, the ranges' sum
 *
 * Checked in order: each range's length and place, their sum, the
 * destination.
 *
 * Return: 0 or the NVMe status to complete the Copy with.
 */
u16 vfn_copy_check(const struct vfn_ns *ns, u64 sdlba,
		   const struct vfn_copy_desc *desc, u32 nr, u64 *total)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < nr; i++) {
		u64 slba = le64_to_cpu(desc[i].slba);
		u32 nlb = le16_to_cpu(desc[i].nlb) + 1;

		if (nlb > vfn_copy_mssrl(ns))
			return VFN_SC(VFN_SC_CMD_SIZE_LIMIT);
		if (slba >= ns->nsze || nlb > ns->nsze - slba)
			return VFN_SC(NVME_SC_LBA_RANGE);
		sum += nlb;
	}
	if (sum > vfn_copy_mcl(ns))
		return VFN_SC(VFN_SC_CMD_SIZE_LIMIT);
	if (sdlba >= ns->nsze || sum > ns->nsze - sdlba)
		return VFN_SC(NVME_SC_LBA_RANGE);
	*total = sum;
	return 0;
}

/*
 * Copy: everything is checked before anything moves, a refusal changes
 * nothing. A source range that cannot be read ends the copy before it:
 * Unrecovered Read Error with that range's number in dword 0 (the
 * specification's partial progress); a zone keeps what was copied.
 */
static u16 copy(struct vfn_ctrl *c, struct vfn_nsd *nd,
		const struct nvme_command *cmd, struct vfn_io_req *r,
		struct vfn_cmd *out, u64 now)
{
	struct vfn_copy_desc *desc = c->ident;
	struct vfn_blocks *src = c->ident;
	u32 nr = r->nr_ranges, good;
	u64 total, done = 0, max_len = 0, read_due = now, dst, written = 0;
	struct vfn_io_req one;
	u16 sc;

	BUILD_BUG_ON(sizeof(*desc) != VFN_COPY_DESC_BYTES);
	BUILD_BUG_ON((VFN_COPY_MSRC + 1) * VFN_COPY_DESC_BYTES > 4096);
	out->op = VFLASH_IO_WRITE;
	sc = vfn_map_data(c, cmd, r->xfer_bytes);
	if (sc)
		return sc;
	vfn_buf_copy(&c->buf, desc, false);
	sc = vfn_copy_check(&nd->ns, r->slba, desc, nr, &total);
	if (sc)
		return sc;
	vfn_lba_range(&nd->ns, r->slba, total, &one);
	dst = one.pos_bytes;
	if (vflash_fault(&c->vdev->faults, VFLASH_FAULT_READ_ONLY, one.lpn,
			 one.nr_lpages))
		return write_protected(c, nd, &one);
	if (vflash_flash_write_refused(c->vdev->flash))
		return VFN_SC(NVME_SC_NS_WRITE_PROTECTED);
	/* The whole copy must fit its zone: else refused, nothing moved. */
	if (nd->ns.zoned) {
		sc = vfn_zns_write_check(c, nd, r->slba, total);
		if (sc)
			return sc;
	}
	/* Sources: in place, entry i becomes device bytes (entry i read first). */
	for (good = 0; good < nr; good++) {
		u64 slba = le64_to_cpu(desc[good].slba);
		u32 nlb = le16_to_cpu(desc[good].nlb) + 1;

		if (nd->ns.zoned) {
			sc = vfn_zone_read(&nd->zns, slba, nlb);
			if (sc)
				return sc;
		}
		vfn_lba_range(&nd->ns, slba, nlb, &one);
		src[good] = (struct vfn_blocks) { one.pos_bytes,
						  one.pos_bytes + one.len_bytes };
	}
	for (good = 0; good < nr; good++) {
		one = (struct vfn_io_req) {
			.pos_bytes = src[good].start,
			.len_bytes = src[good].end - src[good].start,
			.lpn = src[good].start >> VFLASH_LPAGE_SHIFT,
		};
		one.nr_lpages = DIV_ROUND_UP_ULL(src[good].end,
						 VFLASH_LPAGE_SIZE) - one.lpn;
		c->tag.local = true;
		read_due = max(read_due, submit_cached(c, VFLASH_IO_READ,
						       one.lpn, one.nr_lpages,
						       now));
		c->tag.local = false;
		if (copy_read_fails(c, &one, dst, dst + written))
			break;
		written += one.len_bytes;
		done += one.len_bytes >> nd->ns.lba_shift;
		max_len = max(max_len, one.len_bytes);
	}
	out->cqe.result.u32 = cpu_to_le32(good);
	out->due_ns = read_due;
	if (!good)
		return VFN_SC(NVME_SC_READ_ERROR);
	vfn_lba_range(&nd->ns, r->slba, done, r);
	r->nr_ranges = good;
	out->lpn = r->lpn;
	out->count = r->nr_lpages;
	r->bounce = kvmalloc(max_len, GFP_KERNEL);
	if (!r->bounce)
		return VFN_SC(NVME_SC_INTERNAL);
	sc = zone_write(c, nd, r, out);
	/* An injected Write Fault: the program is charged, the data lost. */
	if (!sc && vflash_fault(&c->vdev->faults, VFLASH_FAULT_WRITE_FAULT,
				r->lpn, r->nr_lpages)) {
		c->tag.local = true;
		out->due_ns = submit(c, VFLASH_IO_WRITE, r->lpn, r->nr_lpages,
				     read_due);
		c->tag.local = false;
		sc = VFN_SC(NVME_SC_WRITE_FAULT);
	}
	if (!sc && !store_pages(c, r))
		sc = VFN_SC(NVME_SC_CAP_EXCEEDED);
	if (!sc) {
		c->tag.local = true;
		sc = store_zoned(c, nd, r, store_copy, read_due, &out->due_ns);
		c->tag.local = false;
	}
	kvfree(r->bounce);
	r->bounce = NULL;
	if (sc)
		return sc;
	vfn_uncor_clear(&c->nst.uncor, dev_block(c, r), r->nlb);
	if (good == nr) {
		out->cqe.result.u32 = 0;
		return 0;
	}
	/* Partly done, as dword 0 says: the zone keeps what was copied. */
	r->zone_took = false;
	return VFN_SC(NVME_SC_READ_ERROR);
}

/*
 * The cut took back page @lpn's writes from byte @off on: the marks they
 * cleared come back with the data; the zone is durable up to there at
 * most.
 */
static void cut_taken(void *arg, u64 lpn, u32 off, u8 marks)
{
	struct vfn_ctrl *c = arg;
	u32 shift = VFLASH_LPAGE_SHIFT - c->nst.lba_shift;
	u64 pos = (lpn << VFLASH_LPAGE_SHIFT) + off;
	u32 i;

	for (i = 0; marks && i < BIT(shift); i++)
		if ((marks & BIT(i)) &&
		    vfn_uncor_mark(&c->nst.uncor, (lpn << shift) + i, 1))
			dev_err_ratelimited(&c->vdev->dev,
					    "power cut: no memory to mark block %llu uncorrectable again\n",
					    (lpn << shift) + i);
	if (vfn_nstab_zoned(&c->nst))
		vfn_zns_lost(c, pos);
}

/**
 * vfn_io_power_cut() - the power-loss log's cut, and the zones after it
 * @c: the controller, powered off: no command runs
 * @now: the instant of the cut, on the backend's clock
 *
 * Takes back every write not durable at @now, with the marks it cleared
 * (docs/faults.md); a zoned namespace is durable as a prefix of each zone
 * (vfn_zns_cut()). Dispatcher only.
 *
 * Return: the logged page writes taken back.
 */
u64 vfn_io_power_cut(struct vfn_ctrl *c, u64 now)
{
	u64 lost;

	vfn_zns_zrwa_cut(c, now);
	lost = vflash_pl_cut(&c->vdev->faults.pl, now, cut_taken, c);
	vfn_zns_cut(c, now);
	return lost;
}

/**
 * vfn_io_decode() - decode and validate an NVM command
 * @cmd: the command, copied out of its SQ
 * @ns: the active namespace its NSID names, or NULL if there is none
 * @req: the decoded command
 *
 * Checks the NSID as NVMe Base Specification 3.2.1.5 does (Invalid
 * Namespace or Format, or Invalid Field for an inactive one), the block
 * range and MDTS; Dataset Management and Copy ranges are in host memory,
 * for the caller to check (vfn_lba_range(), vfn_copy_check()).
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_io_decode(const struct nvme_command *cmd, const struct vfn_ns *ns,
		  struct vfn_io_req *req)
{
	u32 nsid = le32_to_cpu(cmd->common.nsid);
	u8 op = cmd->common.opcode;
	u16 sc;

	memset(req, 0, sizeof(*req));
	req->opcode = op;
	if (cmd->common.flags & VFN_FLAGS_UNSUPPORTED)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	switch (op) {
	case nvme_cmd_flush:
	case nvme_cmd_write:
	case nvme_cmd_read:
	case nvme_cmd_compare:
	case nvme_cmd_write_zeroes:
	case nvme_cmd_dsm:
	case nvme_cmd_write_uncor:
	case nvme_cmd_verify:
	case VFN_CMD_COPY:
		break;
	case nvme_cmd_zone_append:
	case nvme_cmd_zone_mgmt_send:
	case nvme_cmd_zone_mgmt_recv:
		/* No namespace: the NSID's status below. */
		if (!ns || ns->zoned)
			break;
		return VFN_SC(NVME_SC_INVALID_OPCODE);
	case VFN_CMD_IO_MGMT_RECV:
	case VFN_CMD_IO_MGMT_SEND:
		if (!ns || ns->nr_ph)
			break;
		fallthrough;
	default:
		return VFN_SC(NVME_SC_INVALID_OPCODE);
	}
	if (op == nvme_cmd_flush && nsid == NVME_NSID_ALL)
		return 0;
	if (!vfn_nsid_valid(nsid))
		return VFN_SC(NVME_SC_INVALID_NS);
	if (!ns || ns->id != nsid)
		return VFN_SC(NVME_SC_INVALID_FIELD);

	switch (op) {
	case nvme_cmd_write:
	case nvme_cmd_read:
	case nvme_cmd_compare:
	case nvme_cmd_zone_append:
		req->fua = le16_to_cpu(cmd->rw.control) & NVME_RW_FUA;
		sc = __vfn_lba_range(ns, le64_to_cpu(cmd->rw.slba),
				     le16_to_cpu(cmd->rw.length) + 1, req);
		if (!sc && req->len_bytes > VFN_MAX_XFER_BYTES)
			sc = VFN_SC(NVME_SC_INVALID_FIELD);
		if (!sc && op == nvme_cmd_write)
			sc = vfn_fdp_decode_directive(cmd, ns, req);
		return sc;
	case nvme_cmd_write_zeroes:
		req->fua = le16_to_cpu(cmd->write_zeroes.control) & NVME_RW_FUA;
		req->deallocate = le16_to_cpu(cmd->write_zeroes.control) &
				  WZ_DEAC;
		/* A zoned namespace's Write Zeroes writes zeros: no DEAC. */
		if (ns->zoned)
			req->deallocate = false;
		sc = vfn_fdp_decode_directive(cmd, ns, req);
		if (sc)
			return sc;
		return __vfn_lba_range(ns,
				       le64_to_cpu(cmd->write_zeroes.slba),
				       le16_to_cpu(cmd->write_zeroes.length) + 1,
				       req);
	case nvme_cmd_write_uncor:
	case nvme_cmd_verify:
		/* No data transfer: no MDTS; no VSL, no WUSL (CNS 06h). */
		return __vfn_lba_range(ns, le64_to_cpu(cmd->rw.slba),
				       le16_to_cpu(cmd->rw.length) + 1, req);
	case VFN_CMD_COPY:
		return decode_copy(cmd, ns, req);
	case nvme_cmd_dsm:
		req->nr_ranges = (le32_to_cpu(cmd->dsm.nr) & 0xff) + 1;
		req->deallocate = le32_to_cpu(cmd->dsm.attributes) &
				  NVME_DSMGMT_AD;
		return 0;
	case nvme_cmd_zone_mgmt_send:
	case nvme_cmd_zone_mgmt_recv:
		return vfn_zns_decode(cmd, ns, req);
	case VFN_CMD_IO_MGMT_RECV:
	case VFN_CMD_IO_MGMT_SEND:
		return vfn_fdp_decode(cmd, ns, req);
	default:
		return 0;	/* Flush */
	}
}

/* vfn_io_decode(), inline for a plain Read or Write; the same result. */
static __always_inline u16 decode(const struct nvme_command *cmd,
				  const struct vfn_ns *ns,
				  struct vfn_io_req *req)
{
	u8 op = cmd->common.opcode;
	u16 sc;

	if ((op != nvme_cmd_read && op != nvme_cmd_write) || !ns ||
	    ns->id != le32_to_cpu(cmd->common.nsid) ||
	    (cmd->common.flags & VFN_FLAGS_UNSUPPORTED) ||
	    (op == nvme_cmd_write && VFN_RW_DTYPE(vfn_cdw(cmd, 12))))
		return vfn_io_decode(cmd, ns, req);
	memset(req, 0, sizeof(*req));
	req->opcode = op;
	req->fua = le16_to_cpu(cmd->rw.control) & NVME_RW_FUA;
	sc = __vfn_lba_range(ns, le64_to_cpu(cmd->rw.slba),
			     le16_to_cpu(cmd->rw.length) + 1, req);
	if (!sc && req->len_bytes > VFN_MAX_XFER_BYTES)
		sc = VFN_SC(NVME_SC_INVALID_FIELD);
	return sc;
}

/**
 * vfn_io() - execute one NVM command
 * @c: the controller
 * @cmd: the command, copied out of its SQ
 * @out: its completion: status in sc, due time in due_ns (U64_MAX: never
 *	to be completed, an injected timeout)
 * @now: when it was fetched, on the backend's clock
 */
void vfn_io(struct vfn_ctrl *c, const struct nvme_command *cmd,
	    struct vfn_cmd *out, u64 now)
{
	struct vfn_nsd *nd = vfn_ns_find(&c->nst, le32_to_cpu(cmd->common.nsid),
					 true);
	struct vflash_faults *ft = &c->vdev->faults;
	struct vfn_io_req r;
	u16 sc = decode(cmd, nd ? &nd->ns : NULL, &r);

	/* An injected timeout swallows the command: no data, no model time. */
	if (!sc && vflash_fault(ft, VFLASH_FAULT_TIMEOUT, r.lpn, r.nr_lpages)) {
		out->due_ns = U64_MAX;
		return;
	}
	/* The controller fails, or the power goes, as the command arrives. */
	if (!sc && vflash_fault(ft, VFLASH_FAULT_FATAL, r.lpn, r.nr_lpages)) {
		vfn_fatal(c);
		out->due_ns = U64_MAX;
		return;
	}
	if (!sc && !READ_ONCE(c->dying) &&
	    vflash_fault(ft, VFLASH_FAULT_POWER_CUT, r.lpn, r.nr_lpages)) {
		vfn_power_off(c);
		out->due_ns = U64_MAX;
		return;
	}
	/* A write-protected range refuses writes at once, nothing charged. */
	if (!sc && (r.opcode == nvme_cmd_write ||
		    r.opcode == nvme_cmd_write_zeroes ||
		    r.opcode == nvme_cmd_write_uncor ||
		    r.opcode == nvme_cmd_zone_append)) {
		if (vflash_fault(ft, VFLASH_FAULT_READ_ONLY, r.lpn, r.nr_lpages))
			sc = write_protected(c, nd, &r);
		else if (vflash_flash_write_refused(c->vdev->flash))
			sc = VFN_SC(NVME_SC_NS_WRITE_PROTECTED);
	}
	/* An offline zone has nothing to read; the zones' clock. */
	if (nd && nd->ns.zoned)
		sc = vfn_zns_io_start(nd, &r, sc, now);
	out->due_ns = now;
	out->lpn = 0;
	out->count = 0;
	out->op = VFLASH_IO_FLUSH;
	if (!sc) {
		out->lpn = r.lpn;
		out->count = r.nr_lpages;
		vfn_fdp_place(c, nd, &r, now);
		c->tag.ph = r.ph;
		switch (r.opcode) {
		case nvme_cmd_read:
		case nvme_cmd_write:
		case nvme_cmd_compare:
		case nvme_cmd_zone_append:
			sc = rw(c, nd, cmd, &r, out, now);
			break;
		case nvme_cmd_write_zeroes:
			out->op = VFLASH_IO_WRITE;
			sc = write_zeroes(c, nd, &r, out, now);
			break;
		case nvme_cmd_dsm:
			out->op = VFLASH_IO_TRIM;
			sc = dsm(c, nd, cmd, &r, out, now);
			break;
		case nvme_cmd_verify:
			sc = verify(c, &r, out, now);
			break;
		case nvme_cmd_write_uncor:
			sc = write_uncor(c, &r, out, now);
			break;
		case VFN_CMD_COPY:
			sc = copy(c, nd, cmd, &r, out, now);
			break;
		case nvme_cmd_zone_mgmt_send:
			out->lpn = 0;
			out->count = 0;
			sc = vfn_zns_mgmt_send(c, nd, cmd, &r, out, now);
			break;
		case nvme_cmd_zone_mgmt_recv:
			out->lpn = 0;
			out->count = 0;
			sc = vfn_zns_mgmt_recv(c, nd, cmd, &r);
			break;
		case VFN_CMD_IO_MGMT_RECV:
			out->lpn = 0;
			out->count = 0;
			sc = vfn_fdp_mgmt_recv(c, nd, cmd, &r);
			break;
		case VFN_CMD_IO_MGMT_SEND:
			out->lpn = 0;
			out->count = 0;
			sc = vfn_fdp_mgmt_send(c, nd, cmd, &r, now);
			break;
		default:
			out->lpn = 0;
			out->count = 0;
			out->due_ns = submit(c, VFLASH_IO_FLUSH, 0, 0, now);
			break;
		}
	}
	/* Written blocks are no longer uncorrectable (Copy: its own). */
	if (unlikely(c->nst.uncor.nr) && !sc &&
	    (r.opcode == nvme_cmd_write || r.opcode == nvme_cmd_write_zeroes ||
	     r.opcode == nvme_cmd_zone_append))
		vfn_uncor_clear(&c->nst.uncor, dev_block(c, &r), r.nlb);
	if (nd && nd->ns.zoned)
		vfn_zns_io_end(c, nd, &r, out, sc, now);
	/* An injected delay moves the due time: it is not lateness. */
	if (!sc && vflash_fault(ft, VFLASH_FAULT_DELAY, r.lpn, r.nr_lpages))
		out->due_ns += ft->rule[VFLASH_FAULT_DELAY].delay_ns;
	out->sc = sc;
	out->model_due_ns = out->due_ns;
	out->timed = !sc;
}
