// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters and histograms, summed when read; a reset racing with
 * requests may miss the increments made during it.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "backend_flash/ftl.h"

static const char * const stat_names[VFLASH_STAT_NR] = {
	[VFLASH_STAT_HOST_READ_PAGES] = "host_read_pages",
	[VFLASH_STAT_HOST_WRITE_PAGES] = "host_write_pages",
	[VFLASH_STAT_HOST_TRIM_PAGES] = "host_trim_pages",
	[VFLASH_STAT_NAND_READ_PAGES] = "nand_read_pages",
	[VFLASH_STAT_NAND_PROGRAM_PAGES] = "nand_program_pages",
	[VFLASH_STAT_NAND_ERASE_BLOCKS] = "nand_erase_blocks",
	[VFLASH_STAT_GC_RUNS] = "gc_runs",
	[VFLASH_STAT_GC_COPIED_PAGES] = "gc_copied_pages",
	[VFLASH_STAT_MIGRATED_PAGES] = "migrated_pages",
	[VFLASH_STAT_REPROMOTED_PAGES] = "repromoted_pages",
	[VFLASH_STAT_WB_STALLS] = "write_buffer_stalls",
	[VFLASH_STAT_READ_PREEMPTS] = "read_preempts",
	[VFLASH_STAT_EARLY_COMPLETIONS] = "early_completions",
	[VFLASH_STAT_FAULT_READ_ERRORS] = "fault_read_errors",
	[VFLASH_STAT_FAULT_WRITE_FAULTS] = "fault_write_faults",
	[VFLASH_STAT_FAULT_TIMEOUTS] = "fault_timeouts",
	[VFLASH_STAT_FAULT_DELAYS] = "fault_delays",
	[VFLASH_STAT_FAULT_POISON_SIGNALS] = "fault_poison_signals",
	[VFLASH_STAT_FAULT_READ_ONLY_WRITES] = "fault_read_only_writes",
	[VFLASH_STAT_FAULT_FATAL] = "fault_fatal",
	[VFLASH_STAT_FAULT_POWER_CUTS] = "fault_power_cuts",
	[VFLASH_STAT_POWER_CUT_LOST_WRITES] = "power_cut_lost_writes",
	[VFLASH_STAT_READ_RETRIES] = "read_retries",
	[VFLASH_STAT_FAULT_PROGRAM_FAILS] = "fault_program_fails",
	[VFLASH_STAT_FAULT_ERASE_FAILS] = "fault_erase_fails",
	[VFLASH_STAT_WORN_OUT_WRITES] = "worn_out_writes",
	[VFLASH_STAT_BAD_BLOCKS] = "bad_blocks",
	[VFLASH_STAT_SPARE_BLOCKS] = "spare_blocks",
	[VFLASH_STAT_ZONE_APPENDS] = "zone_appends",
	[VFLASH_STAT_ZONE_IMPLICIT_OPENS] = "zone_implicit_opens",
	[VFLASH_STAT_ZONE_IMPLICIT_CLOSES] = "zone_implicit_closes",
	[VFLASH_STAT_ZONE_OPENS] = "zone_opens",
	[VFLASH_STAT_ZONE_CLOSES] = "zone_closes",
	[VFLASH_STAT_ZONE_FINISHES] = "zone_finishes",
	[VFLASH_STAT_ZONE_RESETS] = "zone_resets",
	[VFLASH_STAT_ZONE_READ_ONLY] = "zone_read_only",
	[VFLASH_STAT_ZONE_HOST_PAGES] = "zone_host_pages",
	[VFLASH_STAT_ZONE_MEDIA_PAGES] = "zone_media_pages",
	[VFLASH_STAT_ZONE_ERASE_BLOCKS] = "zone_erase_blocks",
	[VFLASH_STAT_HOST_XFER_PAGES] = "host_xfer_pages",
};

/**
 * vflash_flash_stat_name() - the stats/ file name of a counter
 * @stat: the counter
 *
 * Return: its name, or NULL.
 */
const char *vflash_flash_stat_name(enum vflash_stat stat)
{
	return stat < VFLASH_STAT_NR ? stat_names[stat] : NULL;
}

static u32 spare_blocks(struct vflash_flash *f)
{
	u32 bad = atomic_read(&f->nr_bad[VFF_MAIN]);

	return f->spare_new > bad ? f->spare_new - bad : 0;
}

static u64 zone_pages(struct vflash_flash *f, bool media)
{
	u64 sum = 0;
	u32 ph;
	int cpu;

	if (!vflash_flash_zone_handles(f))
		return 0;
	for_each_possible_cpu(cpu) {
		const struct vff_stats *st = per_cpu_ptr(f->stats, cpu);

		for (ph = 1; ph < f->nr_ph; ph++)
			sum += media ? st->ph_media_pages[ph] :
				       st->ph_host_pages[ph];
	}
	return sum;
}

/**
 * vflash_flash_stat() - a counter's value
 * @f: the device
 * @stat: the counter
 *
 * Return: the sum over all CPUs (the "not a counter" ones: the current
 * figure).
 */
u64 vflash_flash_stat(struct vflash_flash *f, enum vflash_stat stat)
{
	u64 sum = 0;
	int cpu;

	if (stat == VFLASH_STAT_BAD_BLOCKS)
		return vff_bad_blocks(f);
	if (stat == VFLASH_STAT_SPARE_BLOCKS)
		return spare_blocks(f);
	if (stat == VFLASH_STAT_ZONE_HOST_PAGES ||
	    stat == VFLASH_STAT_ZONE_MEDIA_PAGES)
		return zone_pages(f, stat == VFLASH_STAT_ZONE_MEDIA_PAGES);

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(f->stats, cpu)->count[stat];
	return sum;
}

/**
 * vflash_flash_count() - add to a counter from outside the backend
 * @f: the device
 * @stat: the counter
 * @n: how much
 */
void vflash_flash_count(struct vflash_flash *f, enum vflash_stat stat, u64 n)
{
	vff_count(f, stat, n);
}

/**
 * vflash_flash_free_blocks() - free blocks of a region, all dies
 * @f: the device
 * @slc: the SLC region (else the main one)
 *
 * Return: the number, read without locks.
 */
u64 vflash_flash_free_blocks(struct vflash_flash *f, bool slc)
{
	u64 sum = 0;
	u32 d;

	for (d = 0; d < f->nr_dies; d++)
		sum += READ_ONCE(f->dies[d].nr_free[slc ? VFF_SLC : VFF_MAIN]);
	return sum;
}

/**
 * vflash_flash_out_of_room() - did a write find no room on any die?
 * @f: the device
 *
 * The frontend fails that write and every later one. Lock-free, counts
 * nothing.
 *
 * Return: true from the first such write on.
 */
bool vflash_flash_out_of_room(const struct vflash_flash *f)
{
	return READ_ONCE(f->no_room);
}

/**
 * vflash_flash_write_refused() - is a host write to be refused?
 * @f: the device
 *
 * Frontends ask before each write. Lock-free; a refusal is counted
 * (worn_out_writes).
 *
 * Return: true if the write is to be refused.
 */
bool vflash_flash_write_refused(struct vflash_flash *f)
{
	if (spare_blocks(f) && !READ_ONCE(f->no_room))
		return false;
	vff_count(f, VFLASH_STAT_WORN_OUT_WRITES, 1);
	return true;
}

/**
 * vflash_flash_health() - wear and spare, as a drive reports them
 * @f: the device
 * @h: filled in
 *
 * A snapshot without locks, which may be a moment old.
 */
void vflash_flash_health(struct vflash_flash *f, struct vflash_health *h)
{
	u64 erases[VFF_NR_REGIONS] = { 0 }, blocks[VFF_NR_REGIONS] = { 0 };
	u64 pe[VFF_NR_REGIONS];
	u32 d, b, r;

	pe[VFF_SLC] = vff_knob(f, VFLASH_KNOB_SLC_PE_CYCLES);
	pe[VFF_MAIN] = vff_knob(f, VFLASH_KNOB_MAIN_PE_CYCLES);
	for (d = 0; d < f->nr_dies; d++) {
		for (b = 0; b < f->blocks_per_die; b++) {
			r = b < f->slc_per_die ? VFF_SLC : VFF_MAIN;
			erases[r] += READ_ONCE(f->blocks[d * f->blocks_per_die +
							 b].erase_count);
			blocks[r]++;
		}
	}
	h->life_used_pct = 0;
	for (r = 0; r < VFF_NR_REGIONS; r++) {
		u64 pct;

		if (!blocks[r])
			continue;
		pct = DIV_ROUND_UP_ULL(erases[r] * 100, blocks[r] * pe[r]);
		h->life_used_pct = max_t(u64, h->life_used_pct, pct);
	}

	h->bad_blocks = vff_bad_blocks(f);
	h->spare_blocks = spare_blocks(f);
	/* Rounded up: 0 % only once nothing is left, when writes stop. */
	h->spare_pct = DIV_ROUND_UP_ULL((u64)h->spare_blocks * 100,
					f->spare_new);
	h->read_only = !h->spare_blocks || READ_ONCE(f->no_room);
}

/**
 * vflash_flash_write_amplification() - NAND programs per host write
 * @f: the device
 *
 * Return: slots programmed * 1000 / host pages written, 0 before any write.
 */
u64 vflash_flash_write_amplification(struct vflash_flash *f)
{
	u64 host = vflash_flash_stat(f, VFLASH_STAT_HOST_WRITE_PAGES);

	if (!host)
		return 0;
	return div64_u64(vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES) *
			 1000, host);
}

/**
 * vflash_hist_pct() - a percentile of a per-CPU latency histogram
 * @hist: VFF_HIST_BUCKETS counters per CPU (backend_flash/hist.h)
 * @per_mille: 500 for the median, 990 for p99, 999 for p99.9
 *
 * Return: the smallest bucket bound under which at least that share of
 * the latencies counted fell, in ns (within 1/16); 0 before any.
 */
u64 vflash_hist_pct(const u64 __percpu *hist, u32 per_mille)
{
	u64 total = 0, seen = 0, want;
	u32 b;
	int cpu;

	for (b = 0; b < VFF_HIST_BUCKETS; b++)
		for_each_possible_cpu(cpu)
			total += per_cpu_ptr(hist, cpu)[b];
	if (!total)
		return 0;
	want = DIV_ROUND_UP_ULL(total * min(per_mille, 1000U), 1000);
	for (b = 0; b < VFF_HIST_BUCKETS; b++) {
		for_each_possible_cpu(cpu)
			seen += per_cpu_ptr(hist, cpu)[b];
		if (seen >= want)
			return vff_hist_upper(b);
	}
	return vff_hist_upper(VFF_HIST_BUCKETS - 1);
}

/**
 * vflash_flash_read_latency_pct() - a read-latency percentile
 * @f: the device
 * @per_mille: 500 for the median, 990 for p99, 999 for p99.9
 *
 * Return: the smallest bucket bound under which at least that share of
 * host reads completed, in ns (within 1/16); 0 before any read.
 */
u64 vflash_flash_read_latency_pct(struct vflash_flash *f, u32 per_mille)
{
	return vflash_hist_pct(f->stats->read_hist, per_mille);
}

/**
 * vflash_flash_record_lateness() - count how late a request completed
 * @f: the device
 * @due_ns: when the model said it completes (vflash_flash_submit())
 * @actual_ns: when the frontend completed it, on the same clock
 *
 * Lock-free. An early completion is counted apart (EARLY_COMPLETIONS).
 */
void vflash_flash_record_lateness(struct vflash_flash *f, u64 due_ns,
				  u64 actual_ns)
{
	struct vff_stats *s;
	u64 late;

	if (actual_ns < due_ns) {
		vff_count(f, VFLASH_STAT_EARLY_COMPLETIONS, 1);
		return;
	}
	late = actual_ns - due_ns;
	s = get_cpu_ptr(f->stats);
	s->late_hist[vff_hist_bucket(late)]++;
	if (late > s->late_max_ns)
		s->late_max_ns = late;
	put_cpu_ptr(f->stats);
}

/**
 * vflash_flash_lateness_pct() - a lateness percentile
 * @f: the device
 * @per_mille: 500 for the median, 990 for p99, 999 for p99.9
 *
 * Return: like vflash_flash_read_latency_pct(), never above
 * vflash_flash_lateness_max().
 */
u64 vflash_flash_lateness_pct(struct vflash_flash *f, u32 per_mille)
{
	return min(vflash_hist_pct(f->stats->late_hist, per_mille),
		   vflash_flash_lateness_max(f));
}

/**
 * vflash_flash_lateness_max() - the latest completion
 * @f: the device
 *
 * Return: the largest lateness counted since the last reset, exact, in ns.
 */
u64 vflash_flash_lateness_max(struct vflash_flash *f)
{
	u64 max = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		max = max(max, READ_ONCE(per_cpu_ptr(f->stats,
						     cpu)->late_max_ns));
	return max;
}

/**
 * vflash_flash_placement_stat() - a placement handle's writes
 * @f: the device
 * @ph: the placement handle, below vflash_flash_placement_handles()
 * @host_pages: receives the host pages written with it
 * @media_pages: receives the media pages written because of it
 *
 * Since creation or the last stats reset.
 */
void vflash_flash_placement_stat(struct vflash_flash *f, u32 ph,
				 u64 *host_pages, u64 *media_pages)
{
	int cpu;

	*host_pages = 0;
	*media_pages = 0;
	if (ph >= VFLASH_FLASH_MAX_PLACEMENT)
		return;
	for_each_possible_cpu(cpu) {
		const struct vff_stats *st = per_cpu_ptr(f->stats, cpu);

		*host_pages += st->ph_host_pages[ph];
		*media_pages += st->ph_media_pages[ph];
	}
}

/**
 * vflash_flash_placement_events() - what the device did on its own to a
 *	placement handle's data and reclaim unit
 * @f: the device
 * @ph: the placement handle, below vflash_flash_placement_handles()
 * @ev: receives the counts since creation (stats/reset leaves them)
 *
 * Lock-free, cheap enough to poll.
 */
void vflash_flash_placement_events(struct vflash_flash *f, u32 ph,
				   struct vflash_placement_events *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (ph >= VFLASH_FLASH_MAX_PLACEMENT)
		return;
	ev->moved_pages = atomic64_read(&f->ph_moved[ph]);
	/* Pairs with move_page()'s barrier: the page is at least as new. */
	smp_rmb();
	ev->moved_lpn = READ_ONCE(f->ph_moved_lpn[ph]);
	ev->units_retired = atomic64_read(&f->ph_retired[ph]);
}

/**
 * vflash_flash_erased_bytes() - bytes of the blocks erased
 * @f: the device
 *
 * Return: the bytes, since creation or the last stats reset.
 */
u64 vflash_flash_erased_bytes(struct vflash_flash *f)
{
	u64 slots = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		slots += per_cpu_ptr(f->stats, cpu)->erased_slots;
	return slots * VFLASH_LPAGE_SIZE;
}

/**
 * vflash_flash_reset_stats() - zero every counter and the histograms
 * @f: the device
 */
void vflash_flash_reset_stats(struct vflash_flash *f)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(f->stats, cpu), 0, sizeof(struct vff_stats));
}
