/* SPDX-License-Identifier: GPL-2.0 */
/* The timing model's inline fast path and timing.c's declarations. */
#ifndef VFLASH_TIMING_H
#define VFLASH_TIMING_H

#include <linux/tracepoint-defs.h>

#include "backend_flash/ftl.h"

u64 vff_die_read(struct vflash_flash *f, struct vff_die *die, u32 slot,
		 u64 now, enum vflash_work work, struct vflash_latency *lat);
u64 vff_program(struct vflash_flash *f, struct vff_die *die, u32 blk,
		u64 now, enum vflash_work work);
u64 vff_erase(struct vflash_flash *f, struct vff_die *die, u32 blk, u64 now,
	      enum vflash_work work);
void vff_wb_push(struct vflash_flash *f, struct vff_die *die, u64 end,
		 u32 slots);
u32 __vff_read_retries(const struct vflash_flash *f, u32 blk, u64 now,
		       u64 k_pe, u64 k_age);
void vff_bg_note(struct vff_die *die, u64 start, u64 end);
void vff_bg_shift(struct vff_die *die, u64 start, u64 t);
u64 vff_bg_wait(const struct vff_die *die, u64 from, u64 to);
void vff_trace_die_read(struct vflash_flash *f, struct vff_die *die, u32 blk,
			enum vflash_work work, u64 start, u64 end);
DECLARE_TRACEPOINT(vflash_nand);

u64 vff_link_book(struct vff_link *l, u64 now, u64 t, u64 dur);

/**
 * vff_channel_xfer() - book a channel for 4 KiB transfers
 * @f: the device
 * @ch: the channel
 * @now: the current time (no transfer is booked before it)
 * @t: when the data is ready to move, not before @now
 * @n: 4 KiB transfers
 * @wait_ns: receives how long the transfer waited for the channel, or NULL
 * @xfer_ns: receives the transfer's own time, or NULL
 *
 * Return: when the transfer ends.
 */
static inline u64 vff_channel_xfer(struct vflash_flash *f, u32 ch, u64 now,
				   u64 t, u32 n, u64 *wait_ns, u64 *xfer_ns)
{
	u64 dur = n * vff_knob(f, VFLASH_KNOB_CHANNEL_XFER_NS);
	u64 end = vff_link_book(&f->channels[ch].link, now, t, dur);

	if (wait_ns)
		*wait_ns = end - dur - t;
	if (xfer_ns)
		*xfer_ns = dur;
	return end;
}

/**
 * vff_host_xfer() - book the host link for 4 KiB transfers
 * @f: the device
 * @now: the current time (no transfer is booked before it)
 * @t: when the data is ready to move, not before @now
 * @n: 4 KiB transfers
 * @wait_ns: receives how long the transfer waited for the link, or NULL
 * @xfer_ns: receives the transfer's own time, or NULL
 *
 * Return: when the transfer ends.
 */
static inline u64 vff_host_xfer(struct vflash_flash *f, u64 now, u64 t,
				u32 n, u64 *wait_ns, u64 *xfer_ns)
{
	u64 dur = n * vff_knob(f, VFLASH_KNOB_HOST_XFER_NS);
	u64 end = vff_link_book(&f->host, now, t, dur);

	if (wait_ns)
		*wait_ns = end - dur - t;
	if (xfer_ns)
		*xfer_ns = dur;
	return end;
}

/**
 * vff_wb_retire() - drop programs that ended by @t from the write buffer
 * @f: the device
 * @die: the die, locked
 * @t: the time
 */
static __always_inline void vff_wb_retire(struct vflash_flash *f,
					  struct vff_die *die, u64 t)
{
	while (die->wb_count && die->wb_end_ns[die->wb_head] <= t) {
		die->wb_used -= die->wb_slots[die->wb_head];
		die->wb_head = (die->wb_head + 1) % f->wb_fifo_len;
		die->wb_count--;
	}
}

/**
 * vff_wb_admit() - admit one host page into the die's write-buffer share
 * @f: the device
 * @die: the die, locked
 * @t: when the page is ready
 *
 * Return: @t, or, if the share is full, when enough programs have ended.
 */
static __always_inline u64 vff_wb_admit(struct vflash_flash *f,
					struct vff_die *die, u64 t)
{
	u64 cap64 = vff_knob(f, VFLASH_KNOB_WRITE_BUFFER_BYTES) /
		    VFLASH_LPAGE_SIZE / f->nr_dies;
	u32 cap = max_t(u64, cap64, 2 * f->unit[VFF_MAIN]);

	vff_wb_retire(f, die, t);
	if (unlikely(die->wb_used + die->wb_pending + 1 > cap)) {
		vff_count(f, VFLASH_STAT_WB_STALLS, 1);
		while (die->wb_count &&
		       die->wb_used + die->wb_pending + 1 > cap) {
			t = max(t, die->wb_end_ns[die->wb_head]);
			vff_wb_retire(f, die, t);
		}
	}
	die->wb_pending++;
	return t;
}

static inline u32 vff_die_index(const struct vflash_flash *f,
				const struct vff_die *die)
{
	return die - f->dies;
}

/**
 * vff_read_time() - array read time of the page in a slot
 * @f: the device
 * @slot: the slot
 *
 * Return: tR in ns, by region, cell type and (QLC) page type.
 */
static __always_inline u64 vff_read_time(const struct vflash_flash *f,
					 u32 slot)
{
	u32 blk = vff_block_of(f, slot);

	if (vff_region_of(f, blk) == VFF_SLC)
		return vff_knob(f, VFLASH_KNOB_SLC_READ_NS);
	if (f->prof->cell == VFLASH_CELL_QLC) {
		u32 type = (slot % f->stride / f->lpp) % 4;

		return vff_knob(f, VFLASH_KNOB_QLC_READ_L_NS + type);
	}
	return vff_knob(f, VFLASH_KNOB_MAIN_READ_NS);
}

/**
 * vff_read_retries() - the read retries a block's wear and data age cost
 * @f: the device
 * @blk: the block read; its die is locked
 * @now: when the read starts
 *
 * Return: the retries (__vff_read_retries()); one test while both
 * coefficients are 0.
 */
static __always_inline u32 vff_read_retries(const struct vflash_flash *f,
					    u32 blk, u64 now)
{
	u64 k_pe = vff_knob(f, VFLASH_KNOB_READ_RETRY_PE_MILLI);
	u64 k_age = vff_knob(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI);

	if (!k_pe && !k_age)
		return 0;
	return __vff_read_retries(f, blk, now, k_pe, k_age);
}

static __always_inline u64 vff_die_read_inline(struct vflash_flash *f,
					       struct vff_die *die, u32 slot,
					       u64 now, enum vflash_work work,
					       struct vflash_latency *lat)
{
	const struct vflash_maintenance_ops *m =
		vff_ops(f, VFLASH_POLICY_MAINTENANCE);
	bool host = work == VFLASH_WORK_HOST;
	u32 retries = vff_read_retries(f, vff_block_of(f, slot), now);
	u64 t = vff_read_time(f, slot) * (1 + retries);
	u64 start;

	if (retries)
		vff_count(f, VFLASH_STAT_READ_RETRIES, retries);
	if (die->busy_until_ns <= now)
		die->deferred_ns = 0;
	if (host && m->read_priority &&
	    die->busy_until_ns > max(now, die->fg_busy_until_ns) &&
	    die->deferred_ns < vff_knob(f, VFLASH_KNOB_MAX_DEFER_NS)) {
		start = max(now, die->fg_busy_until_ns);
		die->busy_until_ns += t;
		die->deferred_ns += t;
		vff_bg_shift(die, start, t);
		vff_count(f, VFLASH_STAT_READ_PREEMPTS, 1);
	} else {
		start = max(now, die->busy_until_ns);
		die->busy_until_ns = start + t;
	}
	if (host)
		die->fg_busy_until_ns = max(die->fg_busy_until_ns, start + t);
	else
		vff_bg_note(die, start, start + t);
	if (lat) {
		lat->die_wait_ns = start - now;
		lat->bg_wait_ns = vff_bg_wait(die, now, start);
		lat->array_ns = t;
	}
	vff_count(f, VFLASH_STAT_NAND_READ_PAGES, 1);
	/* Untraced, one branch: the event's arguments only behind it. */
	if (tracepoint_enabled(vflash_nand))
		vff_trace_die_read(f, die, vff_block_of(f, slot), work, start,
				   start + t);
	return start + t;
}

#endif /* VFLASH_TIMING_H */
