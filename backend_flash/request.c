// SPDX-License-Identifier: GPL-2.0
/* The request path: host reads, writes, trims and flushes. */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "backend_flash/timing.h"
#include "backend_flash/trace.h"

static __always_inline u32 host_slot(struct vflash_flash *f,
				     struct vff_die *die, u32 d,
				     enum vff_stream stream, u64 *t)
{
	const struct vflash_maintenance_ops *m =
		vff_ops(f, VFLASH_POLICY_MAINTENANCE);
	enum vff_region r = f->hybrid ? VFF_SLC : VFF_MAIN;
	u32 slot, rounds;

	/* A zone's blocks are main-region blocks: no SLC cache, no migration. */
	if (vff_is_zone_stream(f, stream))
		r = VFF_MAIN;
	for (; r < VFF_NR_REGIONS; r++) {
		if (!m->background) {
			for (rounds = f->blocks_per_die;
			     rounds && die->nr_free[r] < vff_free_low(f, r) &&
			     vff_clean(f, die, d, r, t); rounds--)
				;
		}
		slot = vff_alloc_slot_inline(f, die, d, stream, r, t);
		for (rounds = f->blocks_per_die;
		     rounds && slot == VFF_INVALID &&
		     vff_clean(f, die, d, r, t);
		     rounds--)
			slot = vff_alloc_slot(f, die, d, stream, r, t);
		if (slot != VFF_INVALID)
			return slot;
	}
	return VFF_INVALID;
}

/* Dies a synchronous write remembers in a bitmap; beyond, it flushes all. */
#define VFF_SYNC_DIES	256

/*
 * One host page on die @d from @t: a slot (cleaning if needed), the write
 * buffer, the program of a filled unit. Returns false, nothing changed, if
 * the die has no slot; else *@at is when the write buffer took the page
 * and *@clean_ns how much of that wait went to cleaning.
 */
static __always_inline bool write_on_die(struct vflash_flash *f, u32 d,
					 u64 lpn, u64 t, u64 *at_out,
					 u64 *clean_ns, struct vflash_undo *u,
					 u64 id, u32 ph, unsigned long *dies)
{
	struct vff_die *die = &f->dies[d];
	u64 at = t;
	u32 slot, old, b;

	spin_lock(&die->lock);
	die->trace_req = id;
	slot = host_slot(f, die, d, vff_host_stream(ph), &at);
	if (slot == VFF_INVALID) {
		die->trace_req = 0;
		spin_unlock(&die->lock);
		return false;
	}
	*clean_ns = at - t;
	at = vff_wb_admit(f, die, at);
	b = vff_block_of(f, slot);
	vff_p2l_set(f, slot, lpn);
	atomic_inc(&f->blocks[b].valid);
	old = xchg(&f->l2p[lpn], slot);
	if (old != VFF_INVALID)
		vff_invalidate(f, old);
	if (u)
		vff_undo_attach(f, d, slot, u);
	if (dies && d < VFF_SYNC_DIES)
		__set_bit(d, dies);
	if (unlikely(vff_program_fails(f, lpn))) {
		vff_program_failed(f, die, d, b, at);
	} else if (f->blocks[b].wp % f->unit[vff_region_of(f, b)] == 0) {
		u32 n = f->unit[vff_region_of(f, b)];
		u64 end = vff_program(f, die, b, at, VFLASH_WORK_HOST);

		vff_undo_programmed(f, d, b, end);
		vff_wb_push(f, die, end, n);
	}
	die->trace_req = 0;
	spin_unlock(&die->lock);
	*at_out = at;
	return true;
}

/* The die the placement policy (or a bound zone's layout) starts from. */
static __always_inline u32 first_die(struct vflash_flash *f, u64 lpn, u32 ph)
{
	const struct vflash_placement_ops *pl =
		vff_ops(f, VFLASH_POLICY_PLACEMENT);
	bool hot = vff_heat(f, lpn) >=
		   vff_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS);
	const struct vff_zone_map *zm = &f->zmap[ph];

	/* A bound zone's pages go round its dies, in order. */
	if (ph && zm->width && lpn >= zm->first_lpn &&
	    vff_is_zone_stream(f, vff_host_stream(ph)))
		return (zm->first_die +
			(u32)((lpn - zm->first_lpn) % zm->width)) % f->nr_dies;
	return pl->pick_die(lpn, hot, f->nr_dies, &f->cursor);
}

/*
 * Returns when the write buffer took the page; *@clean_ns is how much of
 * that wait went to cleaning.
 */
static __always_inline u64 write_page(struct vflash_flash *f, u64 lpn, u64 t,
				      u64 *clean_ns, struct vflash_undo *u,
				      u64 id, u32 ph, unsigned long *dies)
{
	u32 d0 = first_die(f, lpn, ph), i;
	u64 at;

	for (i = 0; i < f->nr_dies; i++)
		if (write_on_die(f, (d0 + i) % f->nr_dies, lpn, t, &at,
				 clean_ns, u, id, ph, dies))
			return at;
	/*
	 * Over-provisioning guarantees a slot: only a bug or bad blocks get
	 * here, and the device goes read-only as a real drive would.
	 */
	WARN_ONCE(!vff_bad_blocks(f),
		  "vflash: no free slot on any die for page %llu\n", lpn);
	WRITE_ONCE(f->no_room, true);
	*clean_ns = 0;
	return t;
}

/**
 * vff_host_write() - one host page through the write path, for callers
 *	that keep their own clock (precondition.c)
 * @f: the device, quiescent but for the caller
 * @lpn: the logical page
 * @d: the die to write it on, or VFF_INVALID: where the placement policy
 *	puts it (the dies after it if it has no room), as a host write; set
 *	to the die written
 * @t: when the page is ready; set to when the write buffer took it
 *
 * The host link and the host counters are the caller's; placement handle
 * 0, no power-loss record.
 *
 * Return: false, nothing written, if no die (or die @d) had a slot.
 */
bool vff_host_write(struct vflash_flash *f, u64 lpn, u32 *d, u64 *t)
{
	u64 clean;
	u32 d0, i;

	if (*d != VFF_INVALID)
		return write_on_die(f, *d, lpn, *t, t, &clean, NULL, 0, 0,
				    NULL);
	d0 = first_die(f, lpn, 0);
	for (i = 0; i < f->nr_dies; i++) {
		*d = (d0 + i) % f->nr_dies;
		if (write_on_die(f, *d, lpn, *t, t, &clean, NULL, 0, 0, NULL))
			return true;
	}
	return false;
}

/* Re-promote a hot QLC page to the SLC region of its die, if there is room. */
static void repromote(struct vflash_flash *f, struct vff_die *die, u32 d,
		      u64 lpn, u32 slot, u64 t)
{
	u32 ns, b;

	if (die->nr_free[VFF_SLC] <= VFF_GC_RESERVE &&
	    die->open[VFF_MIGRATE][VFF_SLC] == VFF_INVALID)
		return;
	ns = vff_alloc_slot(f, die, d, VFF_MIGRATE, VFF_SLC, &t);
	if (ns == VFF_INVALID)
		return;
	b = vff_block_of(f, ns);
	vff_p2l_set(f, ns, lpn);
	atomic_inc(&f->blocks[b].valid);
	if (cmpxchg(&f->l2p[lpn], slot, ns) == slot) {
		vff_invalidate(f, slot);
		vff_count(f, VFLASH_STAT_REPROMOTED_PAGES, 1);
	} else {
		vff_invalidate(f, ns);
	}
	if (f->blocks[b].wp % f->unit[VFF_SLC] == 0)
		vff_program(f, die, b, t, VFLASH_WORK_MIGRATE);
}

static __always_inline u64 read_page(struct vflash_flash *f, u64 lpn, u64 now,
				     struct vflash_latency *lat, u64 id)
{
	u32 slot = READ_ONCE(f->l2p[lpn]);
	u32 heat = vff_heat_bump(f, lpn);
	struct vff_die *die;
	u64 ready;
	u32 d;

	if (lat)
		memset(lat, 0, sizeof(*lat));
	if (slot == VFF_INVALID)
		return now;	/* never written: no array read */

	d = vff_die_of_block(f, vff_block_of(f, slot));
	die = &f->dies[d];
	spin_lock(&die->lock);
	die->trace_req = id;
	ready = vff_die_read_inline(f, die, slot, now, VFLASH_WORK_HOST, lat);
	if (f->hybrid && vff_region_of(f, vff_block_of(f, slot)) == VFF_MAIN) {
		const struct vflash_migration_ops *mig =
			vff_ops(f, VFLASH_POLICY_MIGRATION);

		if (mig->background &&
		    mig->stays_in_slc(heat,
				      vff_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS)))
			repromote(f, die, d, lpn, slot, ready);
	}
	die->trace_req = 0;
	spin_unlock(&die->lock);
	return vff_channel_xfer(f, die->channel, now, ready, 1,
				lat ? &lat->chan_wait_ns : NULL,
				lat ? &lat->chan_ns : NULL);
}

static void trim_page(struct vflash_flash *f, u64 lpn)
{
	u32 old;

	/* GC spins on a victim's count: no preemption between the two. */
	preempt_disable();
	old = xchg(&f->l2p[lpn], VFF_INVALID);
	if (old != VFF_INVALID)
		vff_invalidate(f, old);
	preempt_enable();
	vff_heat_clear(f, lpn);
}

/* Die @d locked. */
static bool pad_host_unit(struct vflash_flash *f, struct vff_die *die, u32 d,
			  enum vff_stream s, enum vff_region r, u64 now)
{
	u32 b = die->open[s][r];
	u32 pad;
	u64 end;

	if (b == VFF_INVALID)
		return false;
	pad = vff_pad_unit(f, b, r);
	if (!pad)
		return false;
	die->wb_pending += pad;
	vff_seal_if_full(f, die, b, s, r, now);
	end = vff_program(f, die, b, now, VFLASH_WORK_HOST);
	vff_undo_programmed(f, d, b, end);
	vff_wb_push(f, die, end, f->unit[r]);
	return true;
}

/* Returns when all host data buffered on die @d is on flash. */
static u64 flush_die(struct vflash_flash *f, u32 d, u64 now, u64 id)
{
	struct vff_die *die = &f->dies[d];
	u64 done = now;
	u32 r, ph;

	spin_lock(&die->lock);
	die->trace_req = id;
	for (ph = 0; ph < f->nr_ph; ph++)
		for (r = 0; r < VFF_NR_REGIONS; r++)
			pad_host_unit(f, die, d, vff_host_stream(ph), r, now);
	vff_wb_retire(f, die, now);
	if (die->wb_count) {
		u32 last = (die->wb_head + die->wb_count - 1) % f->wb_fifo_len;

		done = max(done, die->wb_end_ns[last]);
	}
	/* Pages moved after a failed program: durable when their moves end. */
	done = max(done, die->durable_ns);
	die->trace_req = 0;
	spin_unlock(&die->lock);
	return done;
}

/* Flush every die; returns when all buffered host data is on flash. */
static u64 flush(struct vflash_flash *f, u64 now, u64 id)
{
	u64 done = now;
	u32 d;

	for (d = 0; d < f->nr_dies; d++)
		done = max(done, flush_die(f, d, now, id));
	return done;
}

/**
 * vflash_flash_sync_pages() - make written pages durable (FUA)
 * @f: the device
 * @lpn: first logical page, written
 * @count: logical pages
 * @now_ns: when the write's data are in the write buffer
 * @req_id: the write's request id, or 0
 *
 * Return: when every die holding one of the pages has programmed all it
 * buffered (then the pages are durable), never before @now_ns.
 */
u64 vflash_flash_sync_pages(struct vflash_flash *f, u64 lpn, u32 count,
			    u64 now_ns, u64 req_id)
{
	u32 i, d, prev = VFF_INVALID;
	u64 done = now_ns;

	for (i = 0; i < count; i++) {
		u32 slot = READ_ONCE(f->l2p[lpn + i]);

		if (slot == VFF_INVALID)
			continue;
		d = vff_die_of_block(f, vff_block_of(f, slot));
		if (d == prev)
			continue;
		done = max(done, flush_die(f, d, now_ns, req_id));
		prev = d;
	}
	return done;
}

/* @local: the data stay in the device (NVMe Copy). */
static __always_inline u64 link_xfer(struct vflash_flash *f, u64 now,
				     u64 t, u32 count, bool local,
				     struct vflash_latency *lat)
{
	if (local)
		return t;
	vff_count(f, VFLASH_STAT_HOST_XFER_PAGES, count);
	return vff_host_xfer(f, now, t, count,
			     lat ? &lat->host_wait_ns : NULL,
			     lat ? &lat->host_ns : NULL);
}

/* @lat: the breakdown of the slowest page, or NULL. */
static __always_inline u64 read_pages(struct vflash_flash *f, u64 lpn,
				      u32 count, u64 now,
				      struct vflash_latency *lat, u64 id,
				      bool local)
{
	struct vflash_latency page;
	u64 done = now, end;
	u32 i;

	for (i = 0; i < count; i++) {
		end = read_page(f, lpn + i, now, lat ? &page : NULL, id);
		if (!i || end > done) {
			done = end;
			if (lat)
				*lat = page;
		}
	}
	done = link_xfer(f, now, done, count, local, lat);
	vff_count(f, VFLASH_STAT_HOST_READ_PAGES, count);
	return done;
}

static __always_inline u64 write_pages(struct vflash_flash *f, u64 lpn,
				       u32 count, u64 now,
				       struct vflash_latency *lat,
				       struct vflash_undo *const *undo, u64 id,
				       u32 ph, unsigned long *dies, bool local)
{
	u64 t = link_xfer(f, now, now, count, local, lat);
	u64 done = t, end, clean_ns;
	u32 i;

	for (i = 0; i < count; i++) {
		end = write_page(f, lpn + i, t, &clean_ns,
				 undo ? undo[i] : NULL, id, ph, dies);
		if (end > done || !i) {
			done = max(done, end);
			if (lat)
				lat->bg_wait_ns = clean_ns;
		}
	}
	if (lat)
		lat->die_wait_ns = done - t;
	vff_count(f, VFLASH_STAT_HOST_WRITE_PAGES, count);
	this_cpu_add(f->stats->ph_host_pages[ph], count);
	return done;
}

/*
 * The dies flushed are those the write placed its pages on, not where the
 * pages are by then: a write in between (a CXL write-back) may have moved
 * them.
 */
static noinline u64 write_sync(struct vflash_flash *f, u64 lpn, u32 count,
			       u64 now, struct vflash_latency *lat,
			       struct vflash_undo *const *undo, u64 id, u32 ph,
			       u8 sync, bool local, u64 *data_ns)
{
	enum vff_stream s = vff_host_stream(ph);
	DECLARE_BITMAP(dies, VFF_SYNC_DIES);
	u64 t, done;
	u32 d, r;

	bitmap_zero(dies, VFF_SYNC_DIES);
	t = write_pages(f, lpn, count, now, lat, undo, id, ph, dies, local);
	done = t;
	for (d = 0; d < f->nr_dies; d++) {
		bool want = d >= VFF_SYNC_DIES || test_bit(d, dies);

		for (r = 0; !want && sync == VFLASH_SYNC_STREAM &&
		     r < VFF_NR_REGIONS; r++)
			want = READ_ONCE(f->dies[d].open[s][r]) != VFF_INVALID;
		if (want)
			done = max(done, flush_die(f, d, t, id));
	}
	if (lat)
		lat->die_wait_ns += done - t;
	*data_ns = t;
	return done;
}

static u64 submit(struct vflash_flash *f, enum vflash_io op, u64 lpn,
		  u32 count, u64 now_ns, struct vflash_latency *lat,
		  struct vflash_undo *const *undo, u64 id, u32 ph, u8 sync,
		  bool local);

/**
 * vflash_flash_submit_lat() - run one request through the flash model
 * @f: the device
 * @op: what to do
 * @lpn: first logical page
 * @count: logical pages (ignored for a flush)
 * @now_ns: when the request arrives
 * @lat: receives where the model's latency went, or NULL
 *
 * The frontend has checked the range. Safe from any number of CPUs at once;
 * never sleeps. The completion is the model's less host_overhead_ns, never
 * before @now_ns, and a flush's never before its programs end; the parts
 * of @lat add up to the model's completion time minus @now_ns.
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit_lat(struct vflash_flash *f, enum vflash_io op,
			    u64 lpn, u32 count, u64 now_ns,
			    struct vflash_latency *lat)
{
	return submit(f, op, lpn, count, now_ns, lat, NULL, 0, 0, 0, false);
}

static __always_inline u64 submit(struct vflash_flash *f, enum vflash_io op,
				  u64 lpn, u32 count, u64 now_ns,
				  struct vflash_latency *lat,
				  struct vflash_undo *const *undo, u64 id,
				  u32 ph, u8 sync, bool local)
{
	u64 fw = vff_knob(f, VFLASH_KNOB_FW_OVERHEAD_NS);
	u64 oh = vff_knob(f, VFLASH_KNOB_HOST_OVERHEAD_NS);
	u64 done = now_ns, durable = now_ns;
	u32 i;

	/* The breakdown costs time: computed only when asked for. */
	if (lat)
		memset(lat, 0, sizeof(*lat));
	if (WARN_ON_ONCE(op != VFLASH_IO_FLUSH &&
			 (lpn >= f->nr_lpages || count > f->nr_lpages - lpn)))
		return now_ns;

	switch (op) {
	case VFLASH_IO_READ:
		done = read_pages(f, lpn, count, now_ns, lat, id, local);
		vff_record_read_latency(f, done + fw - now_ns);
		break;
	case VFLASH_IO_WRITE:
		if (ph >= f->nr_ph)
			ph = 0;
		if (likely(!sync)) {
			done = write_pages(f, lpn, count, now_ns, lat, undo, id,
					   ph, NULL, local);
			break;
		}
		/* Durable at completion: never earlier, whatever the overhead. */
		durable = write_sync(f, lpn, count, now_ns, lat, undo, id, ph,
				     sync, local, &done);
		done = durable;
		break;
	case VFLASH_IO_TRIM:
		for (i = 0; i < count; i++)
			trim_page(f, lpn + i);
		vff_count(f, VFLASH_STAT_HOST_TRIM_PAGES, count);
		break;
	case VFLASH_IO_FLUSH:
		durable = flush(f, now_ns, id);
		done = durable;
		if (lat)
			lat->die_wait_ns = done - now_ns;
		break;
	}
	if (lat)
		lat->fw_ns = fw;
	done += fw;
	/* A flush completes only once its data are durable. */
	return max(durable, done - min(oh, done - now_ns));
}

/**
 * vflash_flash_new_req_id() - the next request id of a device
 * @f: the device
 *
 * Return: the id; ids start at 1 and increase by one per call, from any CPU.
 */
u64 vflash_flash_new_req_id(struct vflash_flash *f)
{
	return atomic64_inc_return(&f->req_id);
}

static noinline u64 submit_untagged(struct vflash_flash *f, enum vflash_fe fe,
				    enum vflash_io op, u64 lpn, u32 count,
				    u64 now_ns,
				    struct vflash_undo *const *undo)
{
	struct vflash_req_tag none = { };

	return vflash_flash_submit_tagged(f, fe, op, lpn, count, now_ns, undo,
					  &none);
}

/* Out of line, so the untraced path neither reserves nor clears a breakdown. */
static noinline u64 submit_traced(struct vflash_flash *f, enum vflash_fe fe,
				  enum vflash_io op, u64 lpn, u32 count,
				  u64 now_ns, struct vflash_undo *const *undo,
				  struct vflash_req_tag *tag)
{
	struct vflash_latency lat;
	u64 due;

	due = submit(f, op, lpn, count, now_ns, &lat, undo, tag->id, tag->ph,
		     tag->sync, tag->local);
	trace_vflash_request_submit(f->id, fe, op, lpn, count, now_ns, due,
				    &lat, tag);
	return due;
}

/**
 * vflash_flash_submit_tagged() - a frontend's request through the flash model
 * @f: the device
 * @fe: the frontend that submits it
 * @op: what to do
 * @lpn: first logical page
 * @count: logical pages (ignored for a flush)
 * @now_ns: when the request arrives (NVMe: when its command was fetched)
 * @undo: NULL, or for a write one log record per page, which gets the end
 *	of the program that makes its page durable (U64_MAX until then); kept
 *	by the backend until vflash_flash_undo_forget()
 * @tag: who the request is (id 0: the next one, stored back; @tag->ph: the
 *	placement handle, an invalid one is 0), or NULL: a new id, handle 0
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit_tagged(struct vflash_flash *f, enum vflash_fe fe,
			       enum vflash_io op, u64 lpn, u32 count,
			       u64 now_ns, struct vflash_undo *const *undo,
			       struct vflash_req_tag *tag)
{
	if (unlikely(!tag))
		return submit_untagged(f, fe, op, lpn, count, now_ns, undo);
	if (!tag->id)
		tag->id = vflash_flash_new_req_id(f);
	/* The latency breakdown is the trace event's alone: only for it. */
	if (trace_vflash_request_submit_enabled())
		return submit_traced(f, fe, op, lpn, count, now_ns, undo, tag);
	return submit(f, op, lpn, count, now_ns, NULL, undo, tag->id,
		      tag->ph, tag->sync, tag->local);
}

/**
 * vflash_flash_submit_from() - a frontend's request through the flash model
 * @f: the device
 * @fe: the frontend that submits it
 * @op: what to do
 * @lpn: first logical page
 * @count: logical pages (ignored for a flush)
 * @now_ns: when the request arrives
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit_from(struct vflash_flash *f, enum vflash_fe fe,
			     enum vflash_io op, u64 lpn, u32 count, u64 now_ns)
{
	return vflash_flash_submit_tagged(f, fe, op, lpn, count, now_ns, NULL,
					  NULL);
}

/**
 * vflash_flash_submit_undo() - a frontend's logged write
 * @f: the device
 * @fe: the frontend that submits it
 * @lpn: first logical page
 * @count: logical pages
 * @now_ns: when the request arrives
 * @undo: one record per page (vflash_flash_submit_tagged())
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit_undo(struct vflash_flash *f, enum vflash_fe fe,
			     u64 lpn, u32 count, u64 now_ns,
			     struct vflash_undo *const *undo)
{
	return vflash_flash_submit_tagged(f, fe, VFLASH_IO_WRITE, lpn, count,
					  now_ns, undo, NULL);
}

/**
 * vflash_flash_submit_placed() - a frontend's write to a placement handle
 * @f: the device
 * @fe: the frontend that submits it
 * @lpn: first logical page
 * @count: logical pages
 * @now_ns: when the request arrives
 * @undo: NULL, or one log record per page (vflash_flash_submit_undo())
 * @ph: the placement handle (write stream) the pages go to, below
 *	vflash_flash_placement_handles(); any other is handle 0
 *
 * Pages of different handles never share an erase block (GC's copies aside).
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit_placed(struct vflash_flash *f, enum vflash_fe fe,
			       u64 lpn, u32 count, u64 now_ns,
			       struct vflash_undo *const *undo, u32 ph)
{
	struct vflash_req_tag tag = { .ph = ph };

	return vflash_flash_submit_tagged(f, fe, VFLASH_IO_WRITE, lpn, count,
					  now_ns, undo, &tag);
}

/**
 * vflash_flash_placement_handles() - placement handles the FTL keeps apart
 * @f: the device
 *
 * Return: 1 to VFLASH_FLASH_MAX_PLACEMENT.
 */
u32 vflash_flash_placement_handles(const struct vflash_flash *f)
{
	return f->nr_ph;
}

/**
 * vflash_flash_placement_update() - give a placement handle new blocks
 * @f: the device
 * @ph: the placement handle, below vflash_flash_placement_handles()
 * @now_ns: the current time
 *
 * NVMe FDP's Reclaim Unit Handle Update: each open block of @ph is padded
 * and sealed; the handle's next write opens fresh blocks.
 *
 * Return: true if any of those blocks had been written (so was left not
 * fully written).
 */
bool vflash_flash_placement_update(struct vflash_flash *f, u32 ph,
				   u64 now_ns)
{
	enum vff_stream s = vff_host_stream(ph);
	bool partial = false;
	u32 d, r;

	if (ph >= f->nr_ph)
		return false;
	for (d = 0; d < f->nr_dies; d++) {
		struct vff_die *die = &f->dies[d];

		spin_lock(&die->lock);
		for (r = 0; r < VFF_NR_REGIONS; r++) {
			u32 b;

			pad_host_unit(f, die, d, s, r, now_ns);
			b = die->open[s][r];
			if (b == VFF_INVALID)
				continue;
			partial |= f->blocks[b].wp > 0;
			f->blocks[b].wp = f->slots[r];
			vff_seal_if_full(f, die, b, s, r, now_ns);
		}
		spin_unlock(&die->lock);
	}
	return partial;
}

/**
 * vflash_flash_placement_room() - slots a placement handle can take before
 *	it needs new blocks
 * @f: the device
 * @ph: the placement handle
 *
 * NVMe FDP's Reclaim Unit Available Media Writes. A snapshot, read without
 * locks.
 *
 * Return: the slots (4 KiB pages).
 */
u64 vflash_flash_placement_room(struct vflash_flash *f, u32 ph)
{
	enum vff_region r = f->hybrid ? VFF_SLC : VFF_MAIN;
	enum vff_stream s = vff_host_stream(ph < f->nr_ph ? ph : 0);
	u64 room = 0;
	u32 d;

	for (d = 0; d < f->nr_dies; d++) {
		u32 b = READ_ONCE(f->dies[d].open[s][r]);
		u32 wp = b == VFF_INVALID ? 0 : READ_ONCE(f->blocks[b].wp);

		room += f->slots[r] - min(wp, f->slots[r]);
	}
	return room;
}

/**
 * vflash_flash_placement_ru_bytes() - bytes of one set of a handle's open
 *	blocks: a block of the host writes' region on every die
 * @f: the device
 *
 * Return: NVMe FDP's Reclaim Unit Nominal Size.
 */
u64 vflash_flash_placement_ru_bytes(const struct vflash_flash *f)
{
	enum vff_region r = f->hybrid ? VFF_SLC : VFF_MAIN;

	return (u64)f->slots[r] * f->nr_dies * VFLASH_LPAGE_SIZE;
}

/**
 * vflash_flash_set_zone_handles() - make placement handles 1 and up zone
 *	handles
 * @f: the device, before its first write
 * @on: true for zone handles
 *
 * GC takes a zone handle's blocks as victims only when no other block is
 * one: the host's resets free them. Handle 0 stays an ordinary stream.
 */
void vflash_flash_set_zone_handles(struct vflash_flash *f, bool on)
{
	WRITE_ONCE(f->zone_ph, on && f->nr_ph > 1);
}

/**
 * vflash_flash_zone_handles() - does the device have zone handles?
 * @f: the device
 *
 * Return: true if placement handles 1 and up are zone handles.
 */
bool vflash_flash_zone_handles(const struct vflash_flash *f)
{
	return READ_ONCE(f->zone_ph);
}

/**
 * vflash_flash_zone_bind() - lay a zone out on a zone handle
 * @f: the device
 * @ph: the zone handle (1 and up), with no write in flight
 * @lpn: the zone's first logical page
 * @count: its writable pages (its capacity)
 * @zone: its number, to spread zones over the dies
 *
 * The zone-to-die layout of config/zone_dies (docs/design/zns.md). A zone
 * never shares a block with another zone's handle.
 */
void vflash_flash_zone_bind(struct vflash_flash *f, u32 ph, u64 lpn,
			    u64 count, u32 zone)
{
	u32 w = vff_knob(f, VFLASH_KNOB_ZONE_DIES);

	if (!ph || ph >= f->nr_ph)
		return;
	if (!w)
		w = clamp_t(u64, DIV_ROUND_UP_ULL(count, f->slots[VFF_MAIN]),
			    1, f->nr_dies);
	w = min(w, f->nr_dies);
	f->zmap[ph].first_lpn = lpn;
	f->zmap[ph].first_die = (u32)(((u64)zone * w) % f->nr_dies);
	f->zmap[ph].width = w;
}

static u64 reset_erase(struct vflash_flash *f, u32 b, u64 now, u64 id)
{
	struct vff_die *die = &f->dies[vff_die_of_block(f, b)];
	u64 t = now;

	spin_lock(&die->lock);
	if (f->blocks[b].state == VFF_BLK_FULL &&
	    !atomic_read(&f->blocks[b].valid)) {
		die->trace_req = id;
		vff_erase_block(f, die, b, VFLASH_WORK_HOST, &t);
		vff_count(f, VFLASH_STAT_ZONE_ERASE_BLOCKS, 1);
		die->trace_req = 0;
	}
	spin_unlock(&die->lock);
	return t;
}

/**
 * vflash_flash_zone_reset() - a zone's pages go, and its blocks are erased
 * @f: the device
 * @lpn: the zone's first logical page
 * @count: its pages that may hold data
 * @now_ns: when the reset arrives
 *
 * Deallocated as a trim; every sealed block left without a valid page is
 * erased at once, the rest is left to GC. The frontend has checked the
 * range.
 *
 * Return: when the last of those erases ends, @now_ns if there was none.
 */
u64 vflash_flash_zone_reset(struct vflash_flash *f, u64 lpn, u32 count,
			    u64 now_ns)
{
	u64 id, done = now_ns;
	u32 i;

	if (WARN_ON_ONCE(lpn >= f->nr_lpages || count > f->nr_lpages - lpn))
		return now_ns;
	id = vflash_flash_new_req_id(f);
	for (i = 0; i < count; i++) {
		u32 old;

		/* GC spins on a victim's count: no preemption between. */
		preempt_disable();
		old = xchg(&f->l2p[lpn + i], VFF_INVALID);
		if (old != VFF_INVALID)
			vff_invalidate(f, old);
		preempt_enable();
		vff_heat_clear(f, lpn + i);
		if (old != VFF_INVALID &&
		    !atomic_read(&f->blocks[vff_block_of(f, old)].valid))
			done = max(done, reset_erase(f, vff_block_of(f, old),
						     now_ns, id));
	}
	vff_count(f, VFLASH_STAT_HOST_TRIM_PAGES, count);
	return done;
}

/**
 * vflash_flash_submit() - run one request through the flash model
 * @f: the device
 * @op: what to do
 * @lpn: first logical page
 * @count: logical pages (ignored for a flush)
 * @now_ns: when the request arrives
 *
 * vflash_flash_submit_lat() without the breakdown.
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit(struct vflash_flash *f, enum vflash_io op, u64 lpn,
			u32 count, u64 now_ns)
{
	return vflash_flash_submit_lat(f, op, lpn, count, now_ns, NULL);
}
