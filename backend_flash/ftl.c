// SPDX-License-Identifier: GPL-2.0
/*
 * The request path: host reads, writes, trims and flushes, slot
 * allocation, and the die/channel/host-link timing they are charged.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/preempt.h>

#include "backend_flash/ftl.h"

/**
 * vf_read_time() - array read time of the page in a slot
 * @f: the device
 * @slot: the slot
 *
 * Return: tR in ns, by region, cell type and (QLC) page type.
 */
u64 vf_read_time(const struct vflash_flash *f, u32 slot)
{
	u32 blk = vf_block_of(f, slot);

	if (vf_region_of(f, blk) == VF_SLC)
		return vf_knob(f, VFLASH_KNOB_SLC_READ_NS);
	if (f->prof->cell == VFLASH_CELL_QLC) {
		u32 type = (slot % f->stride / f->lpp) % 4;

		return vf_knob(f, VFLASH_KNOB_QLC_READ_L_NS + type);
	}
	return vf_knob(f, VFLASH_KNOB_MAIN_READ_NS);
}

/**
 * vf_die_read() - charge an array read to a die
 * @f: the device
 * @die: the die, locked
 * @slot: the slot read
 * @now: when the read arrives
 * @host: a host read (else GC or migration)
 *
 * Under the read-priority maintenance policy a host read passes
 * background work queued on the die, pushing it back by its own time,
 * until that work has been deferred by max_defer_ns.
 *
 * Return: when the data is in the die's page register.
 */
u64 vf_die_read(struct vflash_flash *f, struct vf_die *die, u32 slot,
		u64 now, bool host)
{
	const struct vflash_maintenance_ops *m =
		vf_ops(f, VFLASH_POLICY_MAINTENANCE);
	u64 t = vf_read_time(f, slot);
	u64 start;

	if (die->busy_until_ns <= now)
		die->deferred_ns = 0;
	if (host && m->read_priority &&
	    die->busy_until_ns > max(now, die->fg_busy_until_ns) &&
	    die->deferred_ns < vf_knob(f, VFLASH_KNOB_MAX_DEFER_NS)) {
		start = max(now, die->fg_busy_until_ns);
		die->busy_until_ns += t;
		die->deferred_ns += t;
		vf_count(f, VFLASH_STAT_READ_PREEMPTS, 1);
	} else {
		start = max(now, die->busy_until_ns);
		die->busy_until_ns = start + t;
	}
	if (host)
		die->fg_busy_until_ns = max(die->fg_busy_until_ns, start + t);
	vf_count(f, VFLASH_STAT_NAND_READ_PAGES, 1);
	return start + t;
}

/*
 * Reserve a link (a channel or the host link) whose queue ends at *@busy,
 * under @lock, for @dur ns from @t on; returns when the transfer ends.
 */
static u64 link_xfer(spinlock_t *lock, u64 *busy, u64 t, u64 dur)
{
	u64 end;

	spin_lock(lock);
	end = max(t, *busy) + dur;
	*busy = end;
	spin_unlock(lock);
	return end;
}

/* Reserve a channel for @n 4 KiB transfers from @t on; returns the end. */
static u64 channel_xfer(struct vflash_flash *f, u32 ch, u64 t, u32 n)
{
	struct vf_channel *c = &f->channels[ch];

	return link_xfer(&c->lock, &c->busy_until_ns, t,
			 n * vf_knob(f, VFLASH_KNOB_CHANNEL_XFER_NS));
}

/* Reserve the host link for @n 4 KiB transfers from @t on. */
static u64 host_xfer(struct vflash_flash *f, u64 t, u32 n)
{
	return link_xfer(&f->host_lock, &f->host_busy_until_ns, t,
			 n * vf_knob(f, VFLASH_KNOB_HOST_XFER_NS));
}

/**
 * vf_program() - charge the program of a block's last filled unit
 * @f: the device
 * @die: the block's die, locked
 * @blk: the block; its write pointer is at a unit boundary
 * @now: when the unit's data is complete
 * @host: host data, which crosses the channel first (GC and migration
 *	copy back inside the die)
 *
 * Return: when the program ends.
 */
u64 vf_program(struct vflash_flash *f, struct vf_die *die, u32 blk,
	       u64 now, bool host)
{
	enum vf_region r = vf_region_of(f, blk);
	u64 start = now, end;

	if (host)
		start = channel_xfer(f, die->channel, now, f->unit[r]);
	start = max(start, die->busy_until_ns);
	end = start + vf_knob(f, r == VF_SLC ? VFLASH_KNOB_SLC_PROG_NS :
					       VFLASH_KNOB_MAIN_PROG_NS);
	die->busy_until_ns = end;
	if (host)
		die->fg_busy_until_ns = max(die->fg_busy_until_ns, end);
	vf_count(f, VFLASH_STAT_NAND_PROGRAM_PAGES, f->unit[r]);
	return end;
}

/**
 * vf_invalidate() - a slot's page has been displaced
 * @f: the device
 * @slot: the slot whose logical page now lives elsewhere (or nowhere)
 *
 * Called by whoever displaced it from l2p, without the slot's die lock,
 * with preemption disabled: GC waits for a victim's count to reach zero.
 */
void vf_invalidate(struct vflash_flash *f, u32 slot)
{
	WRITE_ONCE(f->p2l[slot], VF_INVALID);
	/* GC reuses the block once the count is zero: clear p2l first. */
	smp_mb__before_atomic();
	atomic_dec(&f->blocks[vf_block_of(f, slot)].valid);
}

/* A stream's open block that just filled up becomes a GC candidate. */
static void seal_if_full(struct vflash_flash *f, struct vf_die *die, u32 b,
			 enum vf_stream stream, enum vf_region r, u64 now)
{
	struct vf_block *blk = &f->blocks[b];

	if (blk->wp < f->slots[r])
		return;
	blk->state = VF_BLK_FULL;
	blk->seal_seq = atomic64_inc_return(&f->seal_seq);
	blk->seal_ns = now;
	die->open[stream][r] = VF_INVALID;
}

/**
 * vf_alloc_slot() - take the next slot of a stream's open block
 * @f: the device
 * @die: the die, locked
 * @d: its number
 * @stream: the write stream
 * @r: the region
 * @now: the current time, for sealing
 *
 * Opens a free block when needed; only the GC stream may take the die's
 * last VF_GC_RESERVE free blocks of the region.
 *
 * Return: the slot, or VF_INVALID if no block is to be had.
 */
u32 vf_alloc_slot(struct vflash_flash *f, struct vf_die *die, u32 d,
		  enum vf_stream stream, enum vf_region r, u64 *now)
{
	u32 b = die->open[stream][r];
	struct vf_block *blk;
	u32 slot;

	if (b == VF_INVALID) {
		u32 reserve = stream == VF_GC ? 0 : VF_GC_RESERVE;

		if (die->nr_free[r] <= reserve)
			return VF_INVALID;
		b = die->free_head[r];
		blk = &f->blocks[b];
		die->free_head[r] = blk->next;
		die->nr_free[r]--;
		blk->next = VF_INVALID;
		blk->state = VF_BLK_OPEN;
		blk->stream = stream;
		blk->wp = 0;
		die->open[stream][r] = b;
	}
	blk = &f->blocks[b];
	slot = b * f->stride + blk->wp++;
	seal_if_full(f, die, b, stream, r, *now);
	return slot;
}

/* Drop programs that ended by @t from a die's write-buffer FIFO. */
static void wb_retire(struct vflash_flash *f, struct vf_die *die, u64 t)
{
	while (die->wb_count && die->wb_end_ns[die->wb_head] <= t) {
		die->wb_used -= die->wb_slots[die->wb_head];
		die->wb_head = (die->wb_head + 1) % f->wb_fifo_len;
		die->wb_count--;
	}
}

static u32 wb_capacity(const struct vflash_flash *f)
{
	u64 cap = vf_knob(f, VFLASH_KNOB_WRITE_BUFFER_BYTES) /
		  VFLASH_LPAGE_SIZE / f->nr_dies;

	return max_t(u64, cap, 2 * f->unit[VF_MAIN]);
}

/*
 * Admit one host page into the die's write-buffer share at @t or, if it
 * is full, when enough programs have ended. Returns the admission time.
 */
static u64 wb_admit(struct vflash_flash *f, struct vf_die *die, u64 t)
{
	u32 cap = wb_capacity(f);

	wb_retire(f, die, t);
	if (die->wb_used + die->wb_pending + 1 > cap) {
		vf_count(f, VFLASH_STAT_WB_STALLS, 1);
		while (die->wb_count && die->wb_used + die->wb_pending + 1 > cap) {
			t = max(t, die->wb_end_ns[die->wb_head]);
			wb_retire(f, die, t);
		}
	}
	die->wb_pending++;
	return t;
}

/* A program of @slots buffered host slots ends at @end. */
static void wb_push(struct vflash_flash *f, struct vf_die *die, u64 end,
		    u32 slots)
{
	u32 tail;

	/* Sized for the largest buffer: only a bug can overflow it. */
	if (WARN_ON_ONCE(die->wb_count == f->wb_fifo_len))
		wb_retire(f, die, die->wb_end_ns[die->wb_head]);
	tail = (die->wb_head + die->wb_count) % f->wb_fifo_len;
	die->wb_end_ns[tail] = end;
	die->wb_slots[tail] = slots;
	die->wb_count++;
	die->wb_used += slots;
	die->wb_pending -= min(die->wb_pending, slots);
}

/*
 * A host slot on a die: clean on the write path when the maintenance
 * policy says so or when there is no free block; spill a full SLC region
 * to QLC; fall back to the main region.
 */
static u32 host_slot(struct vflash_flash *f, struct vf_die *die, u32 d,
		     u64 *t)
{
	const struct vflash_maintenance_ops *m =
		vf_ops(f, VFLASH_POLICY_MAINTENANCE);
	enum vf_region r = f->hybrid ? VF_SLC : VF_MAIN;
	u32 slot, rounds;

	for (; r < VF_NR_REGIONS; r++) {
		if (!m->background) {
			for (rounds = f->blocks_per_die;
			     rounds && die->nr_free[r] < vf_free_low(f, r) &&
			     vf_clean(f, die, d, r, t); rounds--)
				;
		}
		slot = vf_alloc_slot(f, die, d, VF_HOST, r, t);
		for (rounds = f->blocks_per_die;
		     rounds && slot == VF_INVALID && vf_clean(f, die, d, r, t);
		     rounds--)
			slot = vf_alloc_slot(f, die, d, VF_HOST, r, t);
		if (slot != VF_INVALID)
			return slot;
	}
	return VF_INVALID;
}

/* Write one logical page whose data crossed the host link at @t. */
static u64 write_page(struct vflash_flash *f, u64 lpn, u64 t)
{
	const struct vflash_placement_ops *pl =
		vf_ops(f, VFLASH_POLICY_PLACEMENT);
	bool hot = READ_ONCE(f->heat[lpn]) >=
		   vf_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS);
	u32 d0 = pl->pick_die(lpn, hot, f->nr_dies, &f->cursor);
	u32 i;

	for (i = 0; i < f->nr_dies; i++) {
		u32 d = (d0 + i) % f->nr_dies;
		struct vf_die *die = &f->dies[d];
		u64 at = t;
		u32 slot, old, b;

		spin_lock(&die->lock);
		slot = host_slot(f, die, d, &at);
		if (slot == VF_INVALID) {
			spin_unlock(&die->lock);
			continue;
		}
		at = wb_admit(f, die, at);
		b = vf_block_of(f, slot);
		f->p2l[slot] = (u32)lpn;
		atomic_inc(&f->blocks[b].valid);
		old = xchg(&f->l2p[lpn], slot);
		if (old != VF_INVALID)
			vf_invalidate(f, old);
		if (f->blocks[b].wp % f->unit[vf_region_of(f, b)] == 0) {
			u32 n = f->unit[vf_region_of(f, b)];

			wb_push(f, die, vf_program(f, die, b, at, true), n);
		}
		spin_unlock(&die->lock);
		return at;
	}
	/* Over-provisioning guarantees a slot somewhere: only a bug gets here. */
	WARN_ONCE(1, "vflash: no free slot on any die for page %llu\n", lpn);
	return t;
}

/* Re-promote a hot QLC page to the SLC region of its die, if there is room. */
static void repromote(struct vflash_flash *f, struct vf_die *die, u32 d,
		      u64 lpn, u32 slot, u64 t)
{
	u32 ns, b;

	if (die->nr_free[VF_SLC] <= VF_GC_RESERVE &&
	    die->open[VF_MIGRATE][VF_SLC] == VF_INVALID)
		return;
	ns = vf_alloc_slot(f, die, d, VF_MIGRATE, VF_SLC, &t);
	if (ns == VF_INVALID)
		return;
	b = vf_block_of(f, ns);
	f->p2l[ns] = (u32)lpn;
	atomic_inc(&f->blocks[b].valid);
	if (cmpxchg(&f->l2p[lpn], slot, ns) == slot) {
		vf_invalidate(f, slot);
		vf_count(f, VFLASH_STAT_REPROMOTED_PAGES, 1);
	} else {
		vf_invalidate(f, ns);
	}
	if (f->blocks[b].wp % f->unit[VF_SLC] == 0)
		vf_program(f, die, b, t, false);
}

/* Read one logical page at @now; returns when its data left the channel. */
static u64 read_page(struct vflash_flash *f, u64 lpn, u64 now)
{
	u32 slot = READ_ONCE(f->l2p[lpn]);
	u32 heat = READ_ONCE(f->heat[lpn]);
	struct vf_die *die;
	u64 ready;
	u32 d;

	if (heat < U8_MAX)
		WRITE_ONCE(f->heat[lpn], heat + 1);
	if (slot == VF_INVALID)
		return now;	/* never written: no array read */

	d = vf_die_of_block(f, vf_block_of(f, slot));
	die = &f->dies[d];
	spin_lock(&die->lock);
	ready = vf_die_read(f, die, slot, now, true);
	if (f->hybrid && vf_region_of(f, vf_block_of(f, slot)) == VF_MAIN) {
		const struct vflash_migration_ops *mig =
			vf_ops(f, VFLASH_POLICY_MIGRATION);

		if (mig->background &&
		    mig->stays_in_slc(heat + 1,
				      vf_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS)))
			repromote(f, die, d, lpn, slot, ready);
	}
	spin_unlock(&die->lock);
	return channel_xfer(f, die->channel, ready, 1);
}

static void trim_page(struct vflash_flash *f, u64 lpn)
{
	u32 old;

	/* GC spins on a victim's count: no preemption between the two. */
	preempt_disable();
	old = xchg(&f->l2p[lpn], VF_INVALID);
	if (old != VF_INVALID)
		vf_invalidate(f, old);
	preempt_enable();
	WRITE_ONCE(f->heat[lpn], 0);
}

/* Program every partly filled host unit, padding it; returns when all
 * buffered host data is on flash.
 */
static u64 flush(struct vflash_flash *f, u64 now)
{
	u64 done = now;
	u32 d, r;

	for (d = 0; d < f->nr_dies; d++) {
		struct vf_die *die = &f->dies[d];

		spin_lock(&die->lock);
		for (r = 0; r < VF_NR_REGIONS; r++) {
			u32 b = die->open[VF_HOST][r];
			struct vf_block *blk;
			u32 pad;

			if (b == VF_INVALID)
				continue;
			blk = &f->blocks[b];
			pad = (f->unit[r] - blk->wp % f->unit[r]) % f->unit[r];
			if (!pad)
				continue;
			blk->wp += pad;
			die->wb_pending += pad;
			seal_if_full(f, die, b, VF_HOST, r, now);
			wb_push(f, die, vf_program(f, die, b, now, true),
				f->unit[r]);
		}
		wb_retire(f, die, now);
		if (die->wb_count) {
			u32 last = (die->wb_head + die->wb_count - 1) %
				   f->wb_fifo_len;

			done = max(done, die->wb_end_ns[last]);
		}
		spin_unlock(&die->lock);
	}
	return done;
}

/**
 * vflash_flash_model_read_ns() - the model's latency of an idle 4 KiB read
 * @f: the device
 *
 * Computed from the live knobs: what vflash_flash_submit() charges a
 * one-page read of a written page on an idle device. The array read is
 * that of the region host writes land in (SLC on hybrid profiles, else
 * the main region; on QLC without an SLC region its lower page, the first
 * page of a block), then one channel transfer, one host-link transfer
 * and the firmware overhead. host_overhead_ns is not taken off: this is
 * the latency the host should observe.
 *
 * Return: the latency in ns.
 */
u64 vflash_flash_model_read_ns(const struct vflash_flash *f)
{
	enum vflash_knob tr = VFLASH_KNOB_MAIN_READ_NS;

	if (f->hybrid)
		tr = VFLASH_KNOB_SLC_READ_NS;
	else if (f->prof->cell == VFLASH_CELL_QLC)
		tr = VFLASH_KNOB_QLC_READ_L_NS;
	return vf_knob(f, tr) + vf_knob(f, VFLASH_KNOB_CHANNEL_XFER_NS) +
	       vf_knob(f, VFLASH_KNOB_HOST_XFER_NS) +
	       vf_knob(f, VFLASH_KNOB_FW_OVERHEAD_NS);
}

/**
 * vflash_flash_submit() - run one request through the flash model
 * @f: the device
 * @op: what to do
 * @lpn: first logical page
 * @count: logical pages (ignored for a flush)
 * @now_ns: when the request arrives
 *
 * The frontend has checked that [@lpn, @lpn + @count) is within the
 * device. Safe to call from any number of CPUs at once; never sleeps.
 *
 * The completion time is the model's, less host_overhead_ns (the host's
 * own I/O-stack time, which the host adds back when it measures), but
 * never before @now_ns. The die, channel and host-link timelines and the
 * read-latency statistics keep the model's times.
 *
 * Return: when the request completes, on the clock of @now_ns.
 */
u64 vflash_flash_submit(struct vflash_flash *f, enum vflash_io op, u64 lpn,
			u32 count, u64 now_ns)
{
	u64 fw = vf_knob(f, VFLASH_KNOB_FW_OVERHEAD_NS);
	u64 oh = vf_knob(f, VFLASH_KNOB_HOST_OVERHEAD_NS);
	u64 done = now_ns, t;
	u32 i;

	if (WARN_ON_ONCE(op != VFLASH_IO_FLUSH &&
			 (lpn >= f->nr_lpages || count > f->nr_lpages - lpn)))
		return now_ns;

	switch (op) {
	case VFLASH_IO_READ:
		for (i = 0; i < count; i++)
			done = max(done, read_page(f, lpn + i, now_ns));
		done = host_xfer(f, done, count) + fw;
		vf_count(f, VFLASH_STAT_HOST_READ_PAGES, count);
		vf_record_read_latency(f, done - now_ns);
		break;
	case VFLASH_IO_WRITE:
		t = host_xfer(f, now_ns, count);
		for (i = 0; i < count; i++)
			done = max(done, write_page(f, lpn + i, t));
		done += fw;
		vf_count(f, VFLASH_STAT_HOST_WRITE_PAGES, count);
		break;
	case VFLASH_IO_TRIM:
		for (i = 0; i < count; i++)
			trim_page(f, lpn + i);
		done = now_ns + fw;
		vf_count(f, VFLASH_STAT_HOST_TRIM_PAGES, count);
		break;
	case VFLASH_IO_FLUSH:
		done = flush(f, now_ns) + fw;
		break;
	}
	/* done >= now_ns: every case starts from it or later. */
	return done - min(oh, done - now_ns);
}
