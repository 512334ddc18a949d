/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flash backend's internals, for backend_flash/ only. Locking is in
 * docs/design/backend.md and at each field.
 */
#ifndef VFLASH_FTL_H
#define VFLASH_FTL_H

#include <linux/atomic.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "backend_flash/fault_rule.h"
#include "backend_flash/flash.h"
#include "backend_flash/hist.h"
#include "backend_flash/profile.h"

#define VFF_INVALID	U32_MAX

/*
 * A p2l entry is 3 bytes: the group of the logical page that filled the
 * slot (lpn >> f->p2l_shift), not the page itself; see vff_p2l_owner().
 */
#define VFF_P2L_BYTES	3
#define VFF_P2L_BITS	(8 * VFF_P2L_BYTES)

/* Read heat: a 4-bit saturating counter per logical page, two per byte. */
#define VFF_HEAT_MAX	15

/* Regions of a die. Profiles without an SLC cache have no SLC blocks. */
enum vff_region { VFF_SLC, VFF_MAIN, VFF_NR_REGIONS };

/* Write streams, each with its own open block per die and region. */
enum vff_stream {
	VFF_HOST,
	VFF_GC,
	VFF_MIGRATE,
	VFF_PH1,
	VFF_NR_STREAMS = VFF_PH1 + VFLASH_FLASH_MAX_PLACEMENT - 1,
};

/*
 * A bad block (retired after a program or erase failure) never returns to
 * a free list; the pages still valid on it are moved off (gc.c).
 */
enum vff_block_state { VFF_BLK_FREE, VFF_BLK_OPEN, VFF_BLK_FULL, VFF_BLK_VICTIM,
		       VFF_BLK_BAD };

/* SLC region of hybrid profiles: 1/VFF_SLC_FRACTION of the capacity. */
#define VFF_SLC_FRACTION		16
/* Free blocks per die and region that only GC may take. */
#define VFF_GC_RESERVE		1
/* Streams in use on a device of @ph placement handles: GC, migration, @ph. */
static inline u32 vff_streams(u32 ph)
{
	return VFF_PH1 - 1 + ph;
}

/* An open block for every stream in use, GC's reserve, and room to clean. */
static inline u32 vff_min_blocks(u32 ph)
{
	return vff_streams(ph) + VFF_GC_RESERVE + 4;
}

static inline enum vff_stream vff_host_stream(u32 ph)
{
	return ph ? VFF_PH1 + ph - 1 : VFF_HOST;
}

static inline bool vff_is_host_stream(u32 s)
{
	return s == VFF_HOST || s >= VFF_PH1;
}

static inline u32 vff_stream_handle(u32 s)
{
	return s == VFF_HOST ? 0 : s - VFF_PH1 + 1;
}

/* The GC worker sleeps 1-2 periods between passes. */
#define VFF_WORKER_PERIOD_US	5000

/* Background spans a die remembers, to tell a read what it waited for. */
#define VFF_BG_SPANS		4

/**
 * struct vff_block - one erase block
 * @valid: valid slots (see docs/design/backend.md); atomic, displaced pages are
 *	counted down by whoever displaces them, without the die lock
 * @wp: next slot to fill; die lock
 * @state: enum vff_block_state; die lock
 * @stream: the stream it is open for; die lock
 * @next: next block on its die's free list; die lock
 * @erase_count: times erased; die lock
 * @seal_seq: device-wide order in which blocks became full; die lock
 * @seal_ns: when it became full, on the device's age clock
 *	(vff_age_clock()); die lock
 */
struct vff_block {
	atomic_t valid;
	u32 wp;
	u8 state;
	u8 stream;
	u32 next;
	u32 erase_count;
	u64 seal_seq;
	u64 seal_ns;
};

/**
 * struct vff_die - one die (LUN) and the blocks it owns
 * @lock: protects every field below and the die's blocks' metadata
 * @busy_until_ns: when all work queued on the die is done
 * @fg_busy_until_ns: when the host work queued on it is done
 * @deferred_ns: background time pushed back by host reads since idle
 * @free_head: free-list heads per region (block numbers)
 * @nr_free: free-list lengths per region; read without the lock for stats
 * @open: open block per stream and region, or VFF_INVALID
 * @wb_end_ns: FIFO of end times of programs holding write-buffer space
 * @wb_slots: slots each of those programs holds
 * @wb_head: oldest FIFO entry
 * @wb_count: FIFO entries
 * @wb_used: slots held by programs in the FIFO
 * @wb_pending: host slots filled but not yet programmed
 * @durable_ns: when the host pages moved after a failed program are
 *	durable; a flush of the die waits for it
 * @bg_start_ns: the most recent spans of background work, a ring
 * @bg_end_ns: their ends
 * @bg_last: the ring's newest entry
 * @channel: the channel it sits on
 * @undo_used: a power-loss log record was ever attached to one of its slots
 * @trace_req: the request id whose submit holds @lock (0: background work),
 *	for the vflash_nand events
 */
struct vff_die {
	spinlock_t lock;	/* see the kernel-doc above */
	u64 trace_req;
	u64 busy_until_ns;
	u64 fg_busy_until_ns;
	u64 deferred_ns;
	u32 free_head[VFF_NR_REGIONS];
	u32 nr_free[VFF_NR_REGIONS];
	u32 open[VFF_NR_STREAMS][VFF_NR_REGIONS];
	u64 *wb_end_ns;
	u32 *wb_slots;
	u32 wb_head;
	u32 wb_count;
	u32 wb_used;
	u32 wb_pending;
	u64 durable_ns;
	u64 bg_start_ns[VFF_BG_SPANS];
	u64 bg_end_ns[VFF_BG_SPANS];
	u32 bg_last;
	u32 channel;
	bool undo_used;
};

/*
 * Future busy spans a link keeps (struct vff_link): a read queued on a
 * die books one on its channel and one on the host link, so about one
 * per command in flight before gaps start to be filled.
 */
#define VFF_LINK_SPANS	64

/**
 * struct vff_link - a transfer link (a channel, or the host link), booked
 *	in time order
 * @lock: protects the rest
 * @nr: spans booked
 * @floor_ns: the link counts as busy before this time: spans that ended
 *	by a caller's now, or an image's busy time
 * @start_ns: the spans' starts, ascending
 * @end_ns: their ends; spans are disjoint and do not touch (touching ones
 *	merge), all at or after @floor_ns
 *
 * A transfer takes the first gap at or after its data is ready that is
 * long enough, so a transfer for an idle die never waits behind one a
 * busy die will make later (vff_link_book()). Nothing booked ever moves:
 * a due time handed out stays true. With every slot taken, the smallest
 * gap between two spans is filled (counts as busy).
 */
struct vff_link {
	spinlock_t lock;	/* protects nr, floor_ns, start_ns, end_ns */
	u32 nr;
	u64 floor_ns;
	u64 start_ns[VFF_LINK_SPANS];
	u64 end_ns[VFF_LINK_SPANS];
};

/**
 * vff_link_reset() - a link free from a time on, nothing booked
 * @l: the link, not in use (device setup, a held device)
 * @t: busy before this
 */
static inline void vff_link_reset(struct vff_link *l, u64 t)
{
	l->nr = 0;
	l->floor_ns = t;
}

/**
 * vff_link_busy_until() - when the last transfer booked on a link ends
 * @l: the link, not in use
 *
 * Return: that end, or the link's floor when nothing is booked.
 */
static inline u64 vff_link_busy_until(const struct vff_link *l)
{
	return l->nr ? l->end_ns[l->nr - 1] : l->floor_ns;
}

/**
 * struct vff_channel - one channel
 * @link: its transfers
 */
struct vff_channel {
	struct vff_link link;
};

/**
 * struct vff_stats - per-CPU counters and latency histograms
 * @count: enum vflash_stat counters
 * @read_hist: host read latencies, see vff_hist_bucket()
 * @late_hist: how late frontends completed requests against the model
 * @late_max_ns: the latest of those
 * @ph_host_pages: host pages written per placement handle
 * @ph_media_pages: media pages written because of each placement handle
 * @erased_slots: slots of the blocks erased (NVMe FDP's media bytes erased)
 */
struct vff_stats {
	u64 count[VFLASH_STAT_NR];
	u64 ph_host_pages[VFLASH_FLASH_MAX_PLACEMENT];
	u64 ph_media_pages[VFLASH_FLASH_MAX_PLACEMENT];
	u64 erased_slots;
	u64 read_hist[VFF_HIST_BUCKETS];
	u64 late_hist[VFF_HIST_BUCKETS];
	u64 late_max_ns;
};

/**
 * struct vff_zone_map - where a zone handle's writes go
 * @first_lpn: the zone's first logical page
 * @first_die: the die of its first page
 * @width: the dies its pages go round over, from @first_die; 0: none
 */
struct vff_zone_map {
	u64 first_lpn;
	u32 first_die;
	u32 width;
};

/**
 * struct vflash_flash - one emulated flash device
 * @prof: its profile (figures copied into @knob at creation)
 * @id: the device number trace events carry (vflashN)
 * @hybrid: SLC region in front of the main region
 * @nr_ph: host placement handles (write streams of the host), 1 or more
 * @nr_lpages: logical pages
 * @nr_dies: dies
 * @nr_channels: channels
 * @lpp: logical pages per flash page
 * @slots: slots a block of each region holds
 * @unit: slots one program writes, per region (QLC: a wordline)
 * @stride: slot-number stride of a block (= @slots[VFF_MAIN])
 * @blocks_per_die: blocks per die, SLC ones first
 * @slc_per_die: SLC blocks per die
 * @nr_blocks: blocks in all
 * @wb_cap: write-buffer slots per die
 * @wb_fifo_len: FIFO entries per die
 * @p2l_per_die: p2l entries of a die: its SLC blocks', then its main ones'
 * @p2l_shift: a p2l entry holds lpn >> @p2l_shift, to fit VFF_P2L_BITS
 * @l2p: logical page -> slot; atomics only
 * @p2l: slot -> group of the logical page that filled it; written under
 *	the slot's die lock before the slot is published in @l2p, never
 *	cleared: validity is always decided against @l2p
 * @heat: read count per logical page, 4 bits, two pages per byte; cmpxchg
 * @blocks: every block
 * @dies: every die
 * @channels: every channel
 * @host: the host link's transfers
 * @seal_seq: source of vff_block.seal_seq
 * @cursor: round-robin counter of placement policies
 * @req_id: the last request id given (vflash_flash_new_req_id())
 * @knob: run-time tunables; read with READ_ONCE, written by sysfs
 * @policy: current policy per kind the flash model runs (NULL for the
 *	others); READ_ONCE/WRITE_ONCE
 * @stats: per-CPU counters
 * @maint_lock: held by the worker for each maintenance pass, so that a
 *	quiescent check (torture) can hold it off
 * @worker: the GC/migration thread, or NULL
 * @undo_wait: per die, handle and region, the log records of host pages
 *	whose unit is still filling; under the die's lock
 * @program_fail: the device's program_fail rule, or NULL; READ_ONCE, set
 *	by the fault registry (core/faults.c) while no request runs
 * @erase_fail: its erase_fail rule, or NULL; the same
 * @nr_bad: bad blocks per region; atomics, incremented under the die lock
 *	of the block that went bad, read without it
 * @spare_new: spare blocks of the new device (struct vflash_health)
 * @no_room: a host write found no slot on any die: writes are refused
 *	from then on; READ_ONCE
 * @ph_moved: per placement handle, valid pages the device moved out of its
 *	blocks (never reset); atomics, incremented after @ph_moved_lpn
 * @ph_moved_lpn: per placement handle, the page it last moved; *_ONCE
 * @ph_retired: per placement handle, its open blocks retired; atomics
 * @zmap: per zone handle, the zone bound to it; written by the frontend
 *	while no write of the handle is in flight
 * @zone_ph: placement handles 1 and up are zone handles; set before any
 *	write, READ_ONCE
 * @age_base_ns: what the age clock runs ahead of ktime_get_ns(), so that a
 *	restored block's data can be older than the host's uptime; set by a
 *	restore before any request (docs/design/image.md)
 * @img_now_ns: the moment a save or restore measures times from; the
 *	image's caller serialises saves and restores
 * @img_oldest_ns: the oldest data's age at that moment
 * @img_state_in: a restore has taken the FLASH_STATE section
 * @img_in: per section, the elements a restore has taken (in order)
 * @pre_last: the last instant preconditioning's request (precondition.c);
 *	its caller serialises runs and reads
 * @pre_res: what it did, valid if @pre_res.done
 */
struct vflash_flash {
	const struct vflash_profile *prof;
	u32 id;
	bool hybrid;
	u32 nr_ph;
	u64 nr_lpages;
	u32 nr_dies;
	u32 nr_channels;
	u32 lpp;
	u32 slots[VFF_NR_REGIONS];
	u32 unit[VFF_NR_REGIONS];
	u32 stride;
	u32 blocks_per_die;
	u32 slc_per_die;
	u32 nr_blocks;
	u32 wb_cap;
	u32 wb_fifo_len;
	u32 p2l_per_die;
	u32 p2l_shift;
	u32 *l2p;
	u8 *p2l;
	u8 *heat;
	struct vff_block *blocks;
	struct vff_die *dies;
	struct vff_channel *channels;
	struct vff_link host;
	atomic64_t seal_seq;
	atomic64_t cursor;
	atomic64_t req_id;
	u64 knob[VFLASH_KNOB_NR];
	const struct vflash_policy *policy[VFLASH_POLICY_NR];
	struct vff_stats __percpu *stats;
	struct mutex maint_lock;	/* see the kernel-doc above */
	struct task_struct *worker;
	struct vflash_undo **undo_wait;
	struct vflash_fault_rule *program_fail;
	struct vflash_fault_rule *erase_fail;
	atomic_t nr_bad[VFF_NR_REGIONS];
	u32 spare_new;
	bool no_room;
	atomic64_t ph_moved[VFLASH_FLASH_MAX_PLACEMENT];
	u64 ph_moved_lpn[VFLASH_FLASH_MAX_PLACEMENT];
	atomic64_t ph_retired[VFLASH_FLASH_MAX_PLACEMENT];
	struct vff_zone_map zmap[VFLASH_FLASH_MAX_PLACEMENT];
	bool zone_ph;
	u64 age_base_ns;
	u64 img_now_ns;
	u64 img_oldest_ns;
	bool img_state_in;
	u64 img_in[VFLASH_IMG_FLASH_NR];
	struct vflash_precondition pre_last;
	struct vflash_precondition_result pre_res;
};

/* The clock data ages run on: seal times and the ages read from them. */
static inline u64 vff_age_clock(const struct vflash_flash *f, u64 now)
{
	return now + f->age_base_ns;
}

/* Is @s a zone handle's stream on device @f (vflash_flash.zone_ph)? */
static inline bool vff_is_zone_stream(const struct vflash_flash *f, u32 s)
{
	return s >= VFF_PH1 && READ_ONCE(f->zone_ph);
}

static inline u64 vff_knob(const struct vflash_flash *f, enum vflash_knob k)
{
	return READ_ONCE(f->knob[k]);
}

static inline const void *vff_ops(const struct vflash_flash *f,
				  enum vflash_policy_kind kind)
{
	return READ_ONCE(f->policy[kind])->ops;
}

static inline u32 vff_block_of(const struct vflash_flash *f, u32 slot)
{
	return slot / f->stride;
}

static inline u32 vff_die_of_block(const struct vflash_flash *f, u32 blk)
{
	return blk / f->blocks_per_die;
}

static inline enum vff_region vff_region_of(const struct vflash_flash *f,
					    u32 blk)
{
	return blk % f->blocks_per_die < f->slc_per_die ? VFF_SLC : VFF_MAIN;
}

/* Slot numbers of SLC blocks have holes; p2l's index has none. */
static inline u64 vff_p2l_index(const struct vflash_flash *f, u32 slot)
{
	u32 b = vff_block_of(f, slot);
	u32 off = slot - b * f->stride;
	u32 d = vff_die_of_block(f, b);
	u32 i = b - d * f->blocks_per_die;
	u64 idx = (u64)d * f->p2l_per_die + off;

	if (i < f->slc_per_die)
		return idx + (u64)i * f->slots[VFF_SLC];
	return idx + (u64)f->slc_per_die * f->slots[VFF_SLC] +
	       (u64)(i - f->slc_per_die) * f->slots[VFF_MAIN];
}

/* Under the slot's die lock, before @slot is published in l2p. */
static inline void vff_p2l_set(struct vflash_flash *f, u32 slot, u64 lpn)
{
	u8 *e = f->p2l + VFF_P2L_BYTES * vff_p2l_index(f, slot);
	u32 g = lpn >> f->p2l_shift;

	e[0] = g;
	e[1] = g >> 8;
	e[2] = g >> 16;
}

static inline u32 vff_heat(const struct vflash_flash *f, u64 lpn)
{
	return READ_ONCE(f->heat[lpn / 2]) >> (lpn % 2 * 4) & VFF_HEAT_MAX;
}

/* The byte is shared with a neighbour page, hence cmpxchg. */
static inline u32 vff_heat_bump(struct vflash_flash *f, u64 lpn)
{
	u8 *p = &f->heat[lpn / 2];
	u32 sh = lpn % 2 * 4;
	u8 old = READ_ONCE(*p), seen;

	for (;;) {
		u32 h = old >> sh & VFF_HEAT_MAX;

		if (h == VFF_HEAT_MAX)
			return h;
		seen = cmpxchg(p, old, old + (1 << sh));
		if (seen == old)
			return h + 1;
		old = seen;
	}
}

static inline void vff_heat_clear(struct vflash_flash *f, u64 lpn)
{
	u8 *p = &f->heat[lpn / 2];
	u8 mask = VFF_HEAT_MAX << (lpn % 2 * 4);
	u8 old = READ_ONCE(*p), seen;

	while (old & mask) {
		seen = cmpxchg(p, old, old & ~mask);
		if (seen == old)
			break;
		old = seen;
	}
}

static inline u64 vff_heat_bytes(u64 nr_lpages)
{
	return DIV_ROUND_UP_ULL(nr_lpages, 2);
}

static inline u32 vff_bad_blocks(struct vflash_flash *f)
{
	return atomic_read(&f->nr_bad[VFF_SLC]) +
	       atomic_read(&f->nr_bad[VFF_MAIN]);
}

static inline void vff_count(struct vflash_flash *f, enum vflash_stat s,
			     u64 n)
{
	this_cpu_add(f->stats->count[s], n);
}

/* One static branch while no rule of any device is armed. */
static inline bool vff_fault(struct vflash_flash *f,
			     struct vflash_fault_rule *const *rp,
			     enum vflash_stat stat, u64 lpn)
{
	struct vflash_fault_rule *r;

	if (!static_branch_unlikely(&vflash_faults_armed))
		return false;
	r = READ_ONCE(*rp);
	if (!r || !vflash_fault_rule_check(r, lpn, 1))
		return false;
	vff_count(f, stat, 1);
	return true;
}

/*
 * Then the host leaves GC one more free block per die and region, so that
 * a failure while GC cleans does not leave it without room.
 */
static inline bool vff_failures_possible(struct vflash_flash *f)
{
	struct vflash_fault_rule *pf, *ef;

	if (atomic_read(&f->nr_bad[VFF_SLC]) ||
	    atomic_read(&f->nr_bad[VFF_MAIN]))
		return true;
	if (!static_branch_unlikely(&vflash_faults_armed))
		return false;
	pf = READ_ONCE(f->program_fail);
	ef = READ_ONCE(f->erase_fail);
	return (pf && vflash_fault_rule_armed(pf)) ||
	       (ef && vflash_fault_rule_armed(ef));
}

static inline void vff_record_read_latency(struct vflash_flash *f, u64 ns)
{
	this_cpu_inc(f->stats->read_hist[vff_hist_bucket(ns)]);
}

/**
 * vff_invalidate() - a slot's page has been displaced
 * @f: the device
 * @slot: the slot whose logical page now lives elsewhere (or nowhere)
 *
 * Called without the slot's die lock, with preemption disabled: GC spins
 * until a victim's count reaches zero.
 */
static __always_inline void vff_invalidate(struct vflash_flash *f, u32 slot)
{
	atomic_dec(&f->blocks[vff_block_of(f, slot)].valid);
}

/**
 * vff_seal_if_full() - a stream's open block that filled up becomes a GC
 *	candidate
 * @f: the device
 * @die: the block's die, locked
 * @b: the block
 * @stream: the stream it is open for
 * @r: its region
 * @now: the current time, its seal time
 */
static __always_inline void vff_seal_if_full(struct vflash_flash *f,
					     struct vff_die *die, u32 b,
					     enum vff_stream stream,
					     enum vff_region r, u64 now)
{
	struct vff_block *blk = &f->blocks[b];

	if (blk->wp < f->slots[r])
		return;
	blk->state = VFF_BLK_FULL;
	blk->seal_seq = atomic64_inc_return(&f->seal_seq);
	blk->seal_ns = vff_age_clock(f, now);
	die->open[stream][r] = VFF_INVALID;
}

static __always_inline u32 vff_alloc_slot_inline(struct vflash_flash *f,
						 struct vff_die *die, u32 d,
						 enum vff_stream stream,
						 enum vff_region r, u64 *now)
{
	u32 b = die->open[stream][r];
	struct vff_block *blk;
	u32 slot;

	if (b == VFF_INVALID) {
		u32 reserve = stream == VFF_GC ? 0 : VFF_GC_RESERVE +
					vff_failures_possible(f);

		if (die->nr_free[r] <= reserve)
			return VFF_INVALID;
		b = die->free_head[r];
		blk = &f->blocks[b];
		die->free_head[r] = blk->next;
		die->nr_free[r]--;
		blk->next = VFF_INVALID;
		blk->state = VFF_BLK_OPEN;
		blk->stream = stream;
		blk->wp = 0;
		die->open[stream][r] = b;
	}
	blk = &f->blocks[b];
	slot = b * f->stride + blk->wp++;
	vff_seal_if_full(f, die, b, stream, r, *now);
	return slot;
}

/* One static branch while no rule is armed. */
static __always_inline bool vff_program_fails(struct vflash_flash *f, u64 lpn)
{
	return vff_fault(f, &f->program_fail, VFLASH_STAT_FAULT_PROGRAM_FAILS,
			 lpn);
}

/* The backend's files call bottom-up only (docs/design/backend.md). */

/* ftl.c */
u32 vff_p2l_group(const struct vflash_flash *f, u32 slot);
u32 vff_p2l_owner(const struct vflash_flash *f, u32 slot);
void vff_heat_decay(struct vflash_flash *f, u64 i);
u32 vff_alloc_slot(struct vflash_flash *f, struct vff_die *die, u32 d,
		   enum vff_stream stream, enum vff_region r, u64 *now);
u32 vff_pad_unit(struct vflash_flash *f, u32 b, enum vff_region r);

/* flash.c */
int vff_init_state(struct vflash_flash *f, bool intr);
void vff_init_die(struct vflash_flash *f, u32 d);
struct vflash_flash *vff_create_tile(const struct vflash_profile *prof,
				     u64 lpages, u32 main_pd, u32 slc_pd);
bool vff_flash_kind(enum vflash_policy_kind kind);
const struct vflash_knob_range *vff_knob_range(enum vflash_knob knob);

/* undo.c */
int vff_undo_alloc(struct vflash_flash *f);
bool vff_undo_waiting(const struct vflash_flash *f);
void vff_undo_attach(struct vflash_flash *f, u32 d, u32 slot,
		     struct vflash_undo *u);
void __vff_undo_programmed(struct vflash_flash *f, u32 d, u32 blk,
			   u64 end_ns);

/**
 * vff_undo_programmed() - the unit just filled in a host block is charged
 * @f: the device
 * @d: the block's die, locked
 * @blk: the block; its write pointer is at the end of the unit
 * @end_ns: when the program ends: the pages' durable time
 */
static __always_inline void vff_undo_programmed(struct vflash_flash *f, u32 d,
						u32 blk, u64 end_ns)
{
	if (unlikely(f->dies[d].undo_used))
		__vff_undo_programmed(f, d, blk, end_ns);
}

/* request.c */
bool vff_host_write(struct vflash_flash *f, u64 lpn, u32 *d, u64 *t);

/* gc.c */
void vff_maintain_die(struct vflash_flash *f, u32 d, u64 now_ns);
bool vff_clean(struct vflash_flash *f, struct vff_die *die, u32 d,
	       enum vff_region r, u64 *now);
u32 vff_free_low(const struct vflash_flash *f, enum vff_region r);
u32 vff_free_high(const struct vflash_flash *f, enum vff_region r);
bool vff_erase_block(struct vflash_flash *f, struct vff_die *die, u32 b,
		     enum vflash_work work, u64 *now);
void vff_program_failed(struct vflash_flash *f, struct vff_die *die, u32 d,
			u32 b, u64 now);

#endif /* VFLASH_FTL_H */
