// SPDX-License-Identifier: GPL-2.0
/* Cleaning (GC, SLC-to-QLC migration), its worker, and bad-block retirement. */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "backend_flash/timing.h"
#include "backend_flash/trace.h"

#define HEAT_DECAY_NS		(1000ULL * NSEC_PER_MSEC)

static u32 region_blocks(const struct vflash_flash *f, enum vff_region r)
{
	return r == VFF_SLC ? f->slc_per_die : f->blocks_per_die - f->slc_per_die;
}

static u32 watermark(const struct vflash_flash *f, enum vff_region r,
		     enum vflash_knob k)
{
	u32 wm = div_u64((u64)region_blocks(f, r) * vff_knob(f, k), 100);

	return max_t(u32, wm, VFF_GC_RESERVE + 1);
}

/**
 * vff_free_low() - free blocks per die below which the write path cleans
 * @f: the device
 * @r: the region
 *
 * Return: the low watermark, in blocks.
 */
u32 vff_free_low(const struct vflash_flash *f, enum vff_region r)
{
	return watermark(f, r, VFLASH_KNOB_GC_LOW_PCT);
}

/**
 * vff_free_high() - free blocks per die below which the worker cleans
 * @f: the device
 * @r: the region
 *
 * Return: the high watermark, in blocks.
 */
u32 vff_free_high(const struct vflash_flash *f, enum vff_region r)
{
	return watermark(f, r, VFLASH_KNOB_GC_HIGH_PCT);
}

/* Zone handles' blocks holding valid pages only if @zones: resets free them. */
static u32 pick_among(struct vflash_flash *f, u32 d, enum vff_region r,
		      u64 now, bool zones)
{
	const struct vflash_gc_ops *gc = vff_ops(f, VFLASH_POLICY_GC);
	u32 first = d * f->blocks_per_die + (r == VFF_SLC ? 0 : f->slc_per_die);
	u32 end = first + region_blocks(f, r);
	u32 b, best = VFF_INVALID;
	u64 best_cost = U64_MAX;

	for (b = first; b < end; b++) {
		struct vff_block *blk = &f->blocks[b];
		struct vflash_gc_candidate c;
		u64 cost;

		/* Pages left on a bad block (no room then): move them first. */
		if (blk->state == VFF_BLK_BAD && atomic_read(&blk->valid))
			return b;
		if (blk->state != VFF_BLK_FULL)
			continue;
		/* A zone's block with valid pages: only as a last resort. */
		if (!zones && vff_is_zone_stream(f, blk->stream) &&
		    atomic_read(&blk->valid))
			continue;
		c.valid = atomic_read(&blk->valid);
		c.slots = f->slots[r];
		/* Cleaning a full block within its region gains nothing. */
		if (r == VFF_MAIN && c.valid >= c.slots)
			continue;
		c.seal_seq = blk->seal_seq;
		c.age_ns = vff_age_clock(f, now) > blk->seal_ns ?
			   vff_age_clock(f, now) - blk->seal_ns : 0;
		cost = gc->cost(&c);
		if (best == VFF_INVALID || cost < best_cost) {
			best = b;
			best_cost = cost;
		}
	}
	return best;
}

/*
 * A zone's block only when there is no other, so that cleaning never runs
 * out of victims (zones that do not fill whole blocks leave sealed blocks).
 */
static u32 pick_victim(struct vflash_flash *f, u32 d, enum vff_region r,
		       u64 now)
{
	u32 b = pick_among(f, d, r, now, false);

	if (b == VFF_INVALID && READ_ONCE(f->zone_ph))
		b = pick_among(f, d, r, now, true);
	return b;
}

/* A bad block is never opened or freed again; its valid pages stay readable. */
static void retire_block(struct vflash_flash *f, struct vff_die *die, u32 b,
			 u64 now)
{
	struct vff_block *blk = &f->blocks[b];
	enum vff_region r = vff_region_of(f, b);

	if (blk->state == VFF_BLK_OPEN && die->open[blk->stream][r] == b) {
		die->open[blk->stream][r] = VFF_INVALID;
		/* A host stream's next write opens another: a new unit. */
		if (vff_is_host_stream(blk->stream))
			atomic64_inc(&f->ph_retired[vff_stream_handle(blk->stream)]);
	}
	if (blk->state == VFF_BLK_OPEN)
		blk->seal_ns = vff_age_clock(f, now);	/* its data's age runs from here */
	blk->state = VFF_BLK_BAD;
	atomic_inc(&f->nr_bad[r]);
}

/**
 * vff_erase_block() - erase a block and free it
 * @f: the device
 * @die: its die, locked
 * @b: a block whose pages have all been displaced (a victim, or a full
 *	block whose valid count is 0)
 * @work: whose work the erase is
 * @now: the earliest start; set to when the erase ends
 *
 * Return: true if the block was freed.
 */
bool vff_erase_block(struct vflash_flash *f, struct vff_die *die, u32 b,
		     enum vflash_work work, u64 *now)
{
	struct vff_block *blk = &f->blocks[b];
	enum vff_region r = vff_region_of(f, b);

	/*
	 * Hosts that displaced a page here finish with preemption off. p2l
	 * is left: a slot's entry is rewritten before it is published again.
	 */
	while (atomic_read_acquire(&blk->valid))
		cpu_relax();

	*now = vff_erase(f, die, b, *now, work);
	blk->erase_count++;
	if (vff_fault(f, &f->erase_fail, VFLASH_STAT_FAULT_ERASE_FAILS, 0)) {
		retire_block(f, die, b, *now);
		return false;
	}
	blk->wp = 0;
	blk->state = VFF_BLK_FREE;
	blk->next = die->free_head[r];
	die->free_head[r] = b;
	die->nr_free[r]++;
	return true;
}

/* Returns false if no destination slot could be had. */
static bool move_page(struct vflash_flash *f, struct vff_die *die, u32 d,
		      u32 slot, u32 lpn, enum vff_region to, u64 *now)
{
	enum vff_stream stream = vff_region_of(f, vff_block_of(f, slot)) == to ?
				VFF_GC : VFF_MIGRATE;
	enum vflash_work work = stream == VFF_GC ? VFLASH_WORK_GC : VFLASH_WORK_MIGRATE;
	u32 ns, b;

	ns = vff_alloc_slot(f, die, d, stream, to, now);
	if (ns == VFF_INVALID && stream == VFF_MIGRATE && to == VFF_MAIN) {
		/* Migration needs room in the main region: clean it first. */
		if (vff_clean(f, die, d, VFF_MAIN, now))
			ns = vff_alloc_slot(f, die, d, stream, to, now);
	}
	if (ns == VFF_INVALID)
		return false;

	*now = vff_die_read(f, die, slot, *now, work, NULL);
	b = vff_block_of(f, ns);
	vff_p2l_set(f, ns, lpn);
	atomic_inc(&f->blocks[b].valid);
	if (cmpxchg(&f->l2p[lpn], slot, ns) == slot) {
		u32 from = f->blocks[vff_block_of(f, slot)].stream;

		vff_invalidate(f, slot);
		vff_count(f, stream == VFF_GC ? VFLASH_STAT_GC_COPIED_PAGES :
					      VFLASH_STAT_MIGRATED_PAGES, 1);
		/* A move out of a host block is that placement handle's. */
		if (vff_is_host_stream(from)) {
			u32 ph = vff_stream_handle(from);

			this_cpu_inc(f->stats->ph_media_pages[ph]);
			WRITE_ONCE(f->ph_moved_lpn[ph], lpn);
			/*
			 * The page before the count: pairs with the
			 * smp_rmb() of vflash_flash_placement_events().
			 */
			smp_mb__before_atomic();
			atomic64_inc(&f->ph_moved[ph]);
		}
	} else {
		/* The host rewrote or trimmed it meanwhile. */
		vff_invalidate(f, ns);
	}
	if (f->blocks[b].wp % f->unit[to] == 0)
		vff_program(f, die, b, *now, work);
	return true;
}

/* Returns false if no destination slot could be had (moves stay done). */
static bool move_valid(struct vflash_flash *f, struct vff_die *die, u32 d,
		       u32 b, u64 *now, u32 *moved, u32 *stayed)
{
	const struct vflash_migration_ops *mig =
		vff_ops(f, VFLASH_POLICY_MIGRATION);
	u32 hot = vff_knob(f, VFLASH_KNOB_MIGRATE_HOT_READS);
	enum vff_region r = vff_region_of(f, b);
	u32 i;

	for (i = 0; i < f->slots[r]; i++) {
		u32 slot = b * f->stride + i;
		u32 lpn = vff_p2l_owner(f, slot);
		enum vff_region to = r;

		if (lpn == VFF_INVALID)
			continue;
		if (r == VFF_SLC && !mig->stays_in_slc(vff_heat(f, lpn), hot))
			to = VFF_MAIN;
		if (!move_page(f, die, d, slot, lpn, to, now))
			return false;
		(*moved)++;
		*stayed += to == r;
	}
	return true;
}

/**
 * vff_clean() - clean one block of a die's region
 * @f: the device
 * @die: the die, locked
 * @d: its number
 * @r: the region
 * @now: when cleaning starts; advanced as its reads run
 *
 * Return: true on progress (a block freed or a bad block emptied, and less
 * than a block's worth of pages stayed in the region); false if there was
 * nothing to do, no room, or the erase failed.
 */
bool vff_clean(struct vflash_flash *f, struct vff_die *die, u32 d,
	       enum vff_region r, u64 *now)
{
	enum vflash_work work = r == VFF_SLC ? VFLASH_WORK_MIGRATE : VFLASH_WORK_GC;
	u32 b = pick_victim(f, d, r, *now);
	u32 moved = 0, stayed = 0;
	struct vff_block *blk;
	bool bad, freed;
	u64 start;

	if (b == VFF_INVALID)
		return false;
	start = max(*now, die->busy_until_ns);
	blk = &f->blocks[b];
	bad = blk->state == VFF_BLK_BAD;
	if (!bad)
		blk->state = VFF_BLK_VICTIM;
	if (!move_valid(f, die, d, b, now, &moved, &stayed)) {
		/* Out of room: what was moved stays moved. */
		if (!bad)
			blk->state = VFF_BLK_FULL;
		trace_vflash_clean(f->id, d, work, b, start, *now, moved, false);
		return false;
	}
	if (bad) {
		trace_vflash_clean(f->id, d, work, b, start, *now, moved, false);
		return stayed < f->slots[r];
	}
	freed = vff_erase_block(f, die, b, work, now);
	vff_count(f, VFLASH_STAT_GC_RUNS, 1);
	trace_vflash_clean(f->id, d, work, b, start, *now, moved, freed);
	return freed && stayed < f->slots[r];
}

static void program_partial_units(struct vflash_flash *f, struct vff_die *die,
				  u64 now)
{
	enum vff_stream s;
	enum vff_region r;

	for (s = VFF_GC; s <= VFF_MIGRATE; s++) {
		for (r = 0; r < VFF_NR_REGIONS; r++) {
			u32 ob = die->open[s][r];

			if (ob == VFF_INVALID || !vff_pad_unit(f, ob, r))
				continue;
			vff_seal_if_full(f, die, ob, s, r, now);
			vff_program(f, die, ob, now, s == VFF_GC ? VFLASH_WORK_GC :
					      VFLASH_WORK_MIGRATE);
		}
	}
}

/**
 * vff_program_failed() - the program of a host block's unit fails
 * @f: the device
 * @die: the block's die, locked
 * @d: its number
 * @b: the host's open block, whose last slot was just filled
 * @now: when the slot's data is in the write buffer
 *
 * The block is retired and its valid pages moved off; pages with no room
 * left stay on it, readable, until GC moves them.
 */
void vff_program_failed(struct vflash_flash *f, struct vff_die *die, u32 d,
			u32 b, u64 now)
{
	struct vff_block *blk = &f->blocks[b];
	enum vff_region r = vff_region_of(f, b);
	u32 pad = (f->unit[r] - blk->wp % f->unit[r]) % f->unit[r];
	u32 moved = 0, stayed = 0;
	u64 t;

	blk->wp += pad;
	die->wb_pending += pad;
	t = vff_program(f, die, b, now, VFLASH_WORK_HOST);
	vff_wb_push(f, die, t, f->unit[r]);
	retire_block(f, die, b, t);
	move_valid(f, die, d, b, &t, &moved, &stayed);
	trace_vflash_clean(f->id, d, VFLASH_WORK_GC, b, now, t, moved, false);
	/* The failed unit's pages are durable once their new units are. */
	program_partial_units(f, die, t);
	vff_undo_programmed(f, d, b, die->busy_until_ns);
	/*
	 * The moves' programs hold no write-buffer slot, so the FIFO does
	 * not know their end: a flush of the die must wait for it too.
	 */
	die->durable_ns = max(die->durable_ns, die->busy_until_ns);
}

/**
 * vff_maintain_die() - the worker's pass over one die
 * @f: the device
 * @d: the die, not locked
 * @now_ns: the current time
 *
 * Cleans the die's main region, then (background migration) its SLC
 * region, up to the high watermark. Does nothing under a maintenance
 * policy that is not a background one.
 */
void vff_maintain_die(struct vflash_flash *f, u32 d, u64 now_ns)
{
	const struct vflash_maintenance_ops *m =
		vff_ops(f, VFLASH_POLICY_MAINTENANCE);
	const struct vflash_migration_ops *mig =
		vff_ops(f, VFLASH_POLICY_MIGRATION);
	struct vff_die *die = &f->dies[d];
	u32 rounds;
	int r;

	if (!m->background)
		return;
	for (r = VFF_MAIN; r >= (f->hybrid ? VFF_SLC : VFF_MAIN); r--) {
		u32 high = vff_free_high(f, r);
		u64 t = now_ns;

		if (r == VFF_SLC && !mig->background)
			continue;
		/*
		 * A die with enough free blocks (the usual case) is skipped
		 * without its lock: a stale count only moves its cleaning to
		 * the next pass.
		 */
		if (READ_ONCE(die->nr_free[r]) >= high)
			continue;
		spin_lock(&die->lock);
		for (rounds = f->blocks_per_die;
		     rounds && die->nr_free[r] < high &&
		     vff_clean(f, die, d, r, &t); rounds--)
			;
		spin_unlock(&die->lock);
		cond_resched();
	}
}

/**
 * vflash_flash_maintain() - background cleaning, once over every die
 * @f: the device
 * @now_ns: the current time
 *
 * What the worker runs; KUnit calls it with explicit times.
 */
void vflash_flash_maintain(struct vflash_flash *f, u64 now_ns)
{
	u32 d;

	for (d = 0; d < f->nr_dies; d++)
		vff_maintain_die(f, d, now_ns);
}

/* So that heat tracks recent reads. */
static void decay_heat(struct vflash_flash *f)
{
	u64 i, n = vff_heat_bytes(f->nr_lpages);

	for (i = 0; i < n; i++) {
		vff_heat_decay(f, i);
		if (!(i % 65536))
			cond_resched();
	}
}

static int worker_fn(void *data)
{
	struct vflash_flash *f = data;
	u64 last_decay = ktime_get_ns();

	while (!kthread_should_stop()) {
		u64 now = ktime_get_ns();

		mutex_lock(&f->maint_lock);
		vflash_flash_maintain(f, now);
		mutex_unlock(&f->maint_lock);
		if (now - last_decay >= HEAT_DECAY_NS) {
			decay_heat(f);
			last_decay = now;
		}
		/*
		 * Idle, not uninterruptible: a sleeping worker must not
		 * count as load nor look like a hung task.
		 */
		usleep_idle_range(VFF_WORKER_PERIOD_US, 2 * VFF_WORKER_PERIOD_US);
	}
	return 0;
}

/**
 * vflash_flash_start_worker() - start the background GC/migration thread
 * @f: the device
 * @name: thread name prefix
 *
 * Return: 0 or a negative errno.
 */
int vflash_flash_start_worker(struct vflash_flash *f, const char *name)
{
	struct task_struct *t = kthread_run(worker_fn, f, "%s-gc", name);

	if (IS_ERR(t))
		return PTR_ERR(t);
	f->worker = t;
	return 0;
}

/**
 * vflash_flash_stop_worker() - stop the worker, if running
 * @f: the device
 */
void vflash_flash_stop_worker(struct vflash_flash *f)
{
	if (f->worker) {
		kthread_stop(f->worker);
		f->worker = NULL;
	}
}
