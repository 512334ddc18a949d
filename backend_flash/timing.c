// SPDX-License-Identifier: GPL-2.0
/*
 * The timing model: die, channel and host-link timelines. Callers hold the
 * die's lock where a die is passed.
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "backend_flash/timing.h"
#include "backend_flash/trace.h"

/* Wear beyond this many times the rated cycles counts as this much. */
#define RETRY_WEAR_CAP		64
/* Ages beyond 2^53 ns (104 days) count as that: the fixed point fits. */
#define RETRY_AGE_CAP_NS	BIT_ULL(53)
#define LOG2_FRAC_BITS		10

/* 1000 * log2(1 + @age / @unit): exact at powers of two, linear between. */
static u64 log2_1p_milli(u64 age, u64 unit)
{
	u64 v = div64_u64(min(age, RETRY_AGE_CAP_NS) << LOG2_FRAC_BITS, unit) +
		BIT_ULL(LOG2_FRAC_BITS);
	u32 i = ilog2(v);	/* >= LOG2_FRAC_BITS */
	u64 frac = (v - BIT_ULL(i)) >> (i - LOG2_FRAC_BITS);

	return (i - LOG2_FRAC_BITS) * 1000ULL +
	       ((frac * 1000) >> LOG2_FRAC_BITS);
}

/**
 * __vff_read_retries() - the read retries a block's wear and data age cost
 * @f: the device
 * @blk: the block read; its die is locked
 * @now: when the read starts
 * @k_pe: the read_retry_pe_milli knob
 * @k_age: the read_retry_age_milli knob (one of the two is not 0)
 *
 * Return: min(read_retry_max, k_pe * (pe / rated)^2 + k_age * log2(1 +
 * age / age_unit)), the k in thousandths (docs/design/faults.md).
 */
u32 __vff_read_retries(const struct vflash_flash *f, u32 blk, u64 now,
		       u64 k_pe, u64 k_age)
{
	const struct vff_block *b = &f->blocks[blk];
	u64 milli = 0, rated, wear, ac = vff_age_clock(f, now);

	if (k_pe) {
		rated = vff_knob(f, vff_region_of(f, blk) == VFF_SLC ?
				   VFLASH_KNOB_SLC_PE_CYCLES :
				   VFLASH_KNOB_MAIN_PE_CYCLES);
		/* Wear in thousandths of the rated cycles. */
		wear = min_t(u64, div64_u64((u64)b->erase_count * 1000, rated),
			     RETRY_WEAR_CAP * 1000);
		milli += div64_u64(k_pe * wear * wear, 1000000);
	}
	if (k_age && b->state != VFF_BLK_OPEN && ac > b->seal_ns)
		milli += div64_u64(k_age *
				   log2_1p_milli(ac - b->seal_ns,
						 vff_knob(f, VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS) *
						 NSEC_PER_MSEC), 1000);
	return min_t(u64, div64_u64(milli, 1000),
		     vff_knob(f, VFLASH_KNOB_READ_RETRY_MAX));
}

/* Remove span @i of @l (it ended, or merged into its neighbour). */
static void link_remove(struct vff_link *l, u32 i)
{
	l->nr--;
	memmove(&l->start_ns[i], &l->start_ns[i + 1],
		(l->nr - i) * sizeof(l->start_ns[0]));
	memmove(&l->end_ns[i], &l->end_ns[i + 1],
		(l->nr - i) * sizeof(l->end_ns[0]));
}

/*
 * Every span slot taken: fill the smallest gap between two spans (the
 * link counts as busy there), which loses the least time any later
 * transfer could have used.
 */
static void link_fold(struct vff_link *l)
{
	u64 gap, best = U64_MAX;
	u32 i, at = 1;

	for (i = 1; i < l->nr; i++) {
		gap = l->start_ns[i] - l->end_ns[i - 1];
		if (gap < best) {
			best = gap;
			at = i;
		}
	}
	l->end_ns[at - 1] = l->end_ns[at];
	link_remove(l, at);
}

/* The first span of @l that ends after @t, or l->nr. */
static u32 link_first_after(const struct vff_link *l, u64 t)
{
	u32 lo = 0, hi = l->nr, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (l->end_ns[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * vff_link_book() - book a transfer on a link in time order
 * @l: the link
 * @now: the current time: spans that ended by it are dropped
 * @t: when the data is ready to move
 * @dur: the transfer's time
 *
 * The transfer takes the first gap at or after @t (and after the link's
 * floor) that holds @dur; what is booked never moves. A link booked in
 * the order requests arrive would make a read of an idle die wait for
 * every read queued on a busy one before it (issue 42; KUnit
 * vflash-flash.link_*). With every span slot taken, the smallest gap is
 * filled first (link_fold()): a transfer may then wait longer than it
 * must, never share the link. Takes @l->lock.
 *
 * Return: when the transfer ends; @t itself when @dur is 0.
 */
u64 vff_link_book(struct vff_link *l, u64 now, u64 t, u64 dur)
{
	u64 start, end;
	u32 i, k;

	if (!dur)
		return t;
	spin_lock(&l->lock);
	k = link_first_after(l, now);
	if (k) {
		l->floor_ns = max(l->floor_ns, l->end_ns[k - 1]);
		l->nr -= k;
		memmove(&l->start_ns[0], &l->start_ns[k],
			l->nr * sizeof(l->start_ns[0]));
		memmove(&l->end_ns[0], &l->end_ns[k],
			l->nr * sizeof(l->end_ns[0]));
	}
	if (l->nr == VFF_LINK_SPANS)
		link_fold(l);
	start = max(t, l->floor_ns);
	for (i = link_first_after(l, start);
	     i < l->nr && start + dur > l->start_ns[i]; i++)
		start = l->end_ns[i];
	end = start + dur;
	/* [start, end) goes before span i: merge with the spans it touches. */
	if (i && l->end_ns[i - 1] == start) {
		l->end_ns[i - 1] = end;
		if (i < l->nr && l->start_ns[i] == end) {
			l->end_ns[i - 1] = l->end_ns[i];
			link_remove(l, i);
		}
	} else if (i < l->nr && l->start_ns[i] == end) {
		l->start_ns[i] = start;
	} else {
		memmove(&l->start_ns[i + 1], &l->start_ns[i],
			(l->nr - i) * sizeof(l->start_ns[0]));
		memmove(&l->end_ns[i + 1], &l->end_ns[i],
			(l->nr - i) * sizeof(l->end_ns[0]));
		l->start_ns[i] = start;
		l->end_ns[i] = end;
		l->nr++;
	}
	spin_unlock(&l->lock);
	return end;
}

/* Spans that touch are merged, so a GC pass takes one entry. */
void vff_bg_note(struct vff_die *die, u64 start, u64 end)
{
	u32 i = die->bg_last;

	if (end <= start)
		return;
	if (start <= die->bg_end_ns[i] && start >= die->bg_start_ns[i]) {
		die->bg_end_ns[i] = max(die->bg_end_ns[i], end);
		return;
	}
	i = (i + 1) % VFF_BG_SPANS;
	die->bg_start_ns[i] = start;
	die->bg_end_ns[i] = end;
	die->bg_last = i;
}

/* A span that @start cuts is stretched rather than split (over by <= @t). */
void vff_bg_shift(struct vff_die *die, u64 start, u64 t)
{
	u32 i;

	for (i = 0; i < VFF_BG_SPANS; i++) {
		if (die->bg_end_ns[i] <= start)
			continue;
		if (die->bg_start_ns[i] >= start)
			die->bg_start_ns[i] += t;
		die->bg_end_ns[i] += t;
	}
}

u64 vff_bg_wait(const struct vff_die *die, u64 from, u64 to)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < VFF_BG_SPANS; i++) {
		u64 s = max(die->bg_start_ns[i], from);
		u64 e = min(die->bg_end_ns[i], to);

		if (e > s)
			sum += e - s;
	}
	return min(sum, to - from);
}

/**
 * vff_die_read() - charge an array read to a die
 * @f: the device
 * @die: the die, locked
 * @slot: the slot read
 * @now: when the read arrives
 * @work: whose read it is
 * @lat: for a host read, receives the die wait (and its background part)
 *	and the array time; may be NULL
 *
 * Return: when the data is in the die's page register.
 */
u64 vff_die_read(struct vflash_flash *f, struct vff_die *die, u32 slot,
		 u64 now, enum vflash_work work, struct vflash_latency *lat)
{
	return vff_die_read_inline(f, die, slot, now, work, lat);
}

void vff_trace_die_read(struct vflash_flash *f, struct vff_die *die, u32 blk,
			enum vflash_work work, u64 start, u64 end)
{
	trace_vflash_nand(f->id, vff_die_index(f, die), VFLASH_NAND_READ, work,
			  blk, start, end, die->trace_req);
}

/**
 * vff_program() - charge the program of a block's last filled unit
 * @f: the device
 * @die: the block's die, locked
 * @blk: the block; its write pointer is at a unit boundary
 * @now: when the unit's data is complete
 * @work: whose data: the host's crosses the channel first (GC and
 *	migration copy back inside the die)
 *
 * Return: when the program ends.
 */
u64 vff_program(struct vflash_flash *f, struct vff_die *die, u32 blk,
		u64 now, enum vflash_work work)
{
	enum vff_region r = vff_region_of(f, blk);
	bool host = work == VFLASH_WORK_HOST;
	u32 stream = f->blocks[blk].stream;
	u64 start = now, end;

	if (host)
		start = vff_channel_xfer(f, die->channel, now, now, f->unit[r],
					 NULL, NULL);
	start = max(start, die->busy_until_ns);
	end = start + vff_knob(f, r == VFF_SLC ? VFLASH_KNOB_SLC_PROG_NS :
					       VFLASH_KNOB_MAIN_PROG_NS);
	die->busy_until_ns = end;
	if (host)
		die->fg_busy_until_ns = max(die->fg_busy_until_ns, end);
	else
		vff_bg_note(die, start, end);
	vff_count(f, VFLASH_STAT_NAND_PROGRAM_PAGES, f->unit[r]);
	/* Padding included: the placement handle's media writes. */
	if (vff_is_host_stream(stream))
		this_cpu_add(f->stats->ph_media_pages[vff_stream_handle(stream)],
			     f->unit[r]);
	if (trace_vflash_nand_enabled())
		trace_vflash_nand(f->id, vff_die_index(f, die), VFLASH_NAND_PROGRAM,
				  work, blk, start, end, die->trace_req);
	return end;
}

/**
 * vff_erase() - charge a block erase to a die
 * @f: the device
 * @die: the block's die, locked
 * @blk: the block
 * @now: the earliest start
 * @work: the background work that erases it
 *
 * Return: when the erase ends.
 */
u64 vff_erase(struct vflash_flash *f, struct vff_die *die, u32 blk, u64 now,
	      enum vflash_work work)
{
	enum vff_region r = vff_region_of(f, blk);
	u64 start = max(now, die->busy_until_ns);
	u64 end = start + vff_knob(f, r == VFF_SLC ? VFLASH_KNOB_SLC_ERASE_NS :
						   VFLASH_KNOB_MAIN_ERASE_NS);

	die->busy_until_ns = end;
	vff_bg_note(die, start, end);
	vff_count(f, VFLASH_STAT_NAND_ERASE_BLOCKS, 1);
	this_cpu_add(f->stats->erased_slots, f->slots[r]);
	trace_vflash_nand(f->id, vff_die_index(f, die), VFLASH_NAND_ERASE, work,
			  blk, start, end, die->trace_req);
	return end;
}

/**
 * vff_wb_push() - a program of buffered host slots is charged
 * @f: the device
 * @die: the die, locked
 * @end: when the program ends (the slots are released then)
 * @slots: the slots it programs
 */
void vff_wb_push(struct vflash_flash *f, struct vff_die *die, u64 end,
		 u32 slots)
{
	u32 tail;

	/* Sized for the largest buffer: only a bug can overflow it. */
	if (WARN_ON_ONCE(die->wb_count == f->wb_fifo_len))
		vff_wb_retire(f, die, die->wb_end_ns[die->wb_head]);
	tail = (die->wb_head + die->wb_count) % f->wb_fifo_len;
	die->wb_end_ns[tail] = end;
	die->wb_slots[tail] = slots;
	die->wb_count++;
	die->wb_used += slots;
	die->wb_pending -= min(die->wb_pending, slots);
}

/**
 * vflash_flash_model_read_ns() - the model's latency of an idle 4 KiB read
 * @f: the device
 *
 * Return: the latency in ns the host should observe (host_overhead_ns not
 * taken off), from the live knobs.
 */
u64 vflash_flash_model_read_ns(const struct vflash_flash *f)
{
	enum vflash_knob tr = VFLASH_KNOB_MAIN_READ_NS;

	if (f->hybrid)
		tr = VFLASH_KNOB_SLC_READ_NS;
	else if (f->prof->cell == VFLASH_CELL_QLC)
		tr = VFLASH_KNOB_QLC_READ_L_NS;
	return vff_knob(f, tr) + vff_knob(f, VFLASH_KNOB_CHANNEL_XFER_NS) +
	       vff_knob(f, VFLASH_KNOB_HOST_XFER_NS) +
	       vff_knob(f, VFLASH_KNOB_FW_OVERHEAD_NS);
}
