/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flash backend's internals, shared by the backend_flash/ sources only.
 * Locking is described in docs/design/backend.md and at each field.
 */
#ifndef VFLASH_FTL_H
#define VFLASH_FTL_H

#include <linux/atomic.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/tracepoint-defs.h>
#include <linux/types.h>

#include "backend_flash/fault_rule.h"
#include "backend_flash/flash.h"
#include "backend_flash/hist.h"
#include "backend_flash/profile.h"

#define VF_INVALID	U32_MAX

/*
 * A p2l entry is 3 bytes: the group of the logical page that filled the
 * slot (lpn >> f->p2l_shift), not the page itself; see vf_p2l_owner().
 */
#define VF_P2L_BYTES	3
#define VF_P2L_BITS	(8 * VF_P2L_BYTES)

/* Read heat: a 4-bit saturating counter per logical page, two per byte. */
#define VF_HEAT_MAX	15

/* Regions of a die. Profiles without an SLC cache have no SLC blocks. */
enum vf_region { VF_SLC, VF_MAIN, VF_NR_REGIONS };

/*
 * Write streams, each with its own open block per die and region: the
 * host's placement handle 0 (VF_HOST), GC, migration, then the host's
 * placement handles 1 and up (VF_PH1 + h - 1; NVMe FDP, docs/design/fdp.md).
 */
enum vf_stream {
	VF_HOST,
	VF_GC,
	VF_MIGRATE,
	VF_PH1,
	VF_NR_STREAMS = VF_PH1 + VFLASH_FLASH_MAX_PLACEMENT - 1,
};

/*
 * A bad block (retired after a program or erase failure) never returns to
 * a free list; the pages still valid on it are moved off (gc.c).
 */
enum vf_block_state { VF_BLK_FREE, VF_BLK_OPEN, VF_BLK_FULL, VF_BLK_VICTIM,
		      VF_BLK_BAD };

/* SLC region of hybrid profiles: 1/VF_SLC_FRACTION of the capacity. */
#define VF_SLC_FRACTION		16
/* Free blocks per die and region that only GC may take. */
#define VF_GC_RESERVE		1
/* Streams in use on a device of @ph placement handles: GC, migration, @ph. */
static inline u32 vf_streams(u32 ph)
{
	return VF_PH1 - 1 + ph;
}

/*
 * Smallest region on a die of a device of @ph placement handles: an open
 * block for every stream in use, GC's reserve, and room to clean.
 */
static inline u32 vf_min_blocks(u32 ph)
{
	return vf_streams(ph) + VF_GC_RESERVE + 4;
}

/* The stream of host placement handle @ph. */
static inline enum vf_stream vf_host_stream(u32 ph)
{
	return ph ? VF_PH1 + ph - 1 : VF_HOST;
}

/* Is @s a host stream (some placement handle's)? */
static inline bool vf_is_host_stream(u32 s)
{
	return s == VF_HOST || s >= VF_PH1;
}

/* The placement handle of host stream @s. */
static inline u32 vf_stream_handle(u32 s)
{
	return s == VF_HOST ? 0 : s - VF_PH1 + 1;
}

/* Background spans a die remembers, to tell a read what it waited for. */
#define VF_BG_SPANS		4

/**
 * struct vf_block - one erase block
 * @valid: valid slots (see docs/design/backend.md); atomic, displaced pages are
 *	counted down by whoever displaces them, without the die lock
 * @wp: next slot to fill; die lock
 * @state: enum vf_block_state; die lock
 * @stream: the stream it is open for; die lock
 * @next: next block on its die's free list; die lock
 * @erase_count: times erased; die lock
 * @seal_seq: device-wide order in which blocks became full; die lock
 * @seal_ns: when it became full; die lock
 */
struct vf_block {
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
 * struct vf_die - one die (LUN) and the blocks it owns
 * @lock: protects every field below and the die's blocks' metadata
 * @busy_until_ns: when all work queued on the die is done
 * @fg_busy_until_ns: when the host work queued on it is done
 * @deferred_ns: background time pushed back by host reads since the die
 *	last went idle (read-priority)
 * @free_head: free-list heads per region (block numbers)
 * @nr_free: free-list lengths per region; read without the lock for stats
 * @open: open block per stream and region, or VF_INVALID
 * @wb_end_ns: FIFO of end times of programs holding write-buffer space
 * @wb_slots: slots each of those programs holds
 * @wb_head: oldest FIFO entry
 * @wb_count: FIFO entries
 * @wb_used: slots held by programs in the FIFO
 * @wb_pending: host slots filled but not yet programmed
 * @durable_ns: when the host pages moved after a failed program are
 *	durable (their new units' programs end); a flush of the die waits
 *	for it as for the write-buffer FIFO (vf_program_failed())
 * @bg_start_ns: the most recent spans of background work on the die's
 *	timeline (merged when contiguous), a ring; see vf_bg_wait()
 * @bg_end_ns: their ends
 * @bg_last: the ring's newest entry
 * @channel: the channel it sits on
 * @undo_used: a power-loss log record was ever attached to one of its
 *	slots (undo.c): until then no program has one to stamp
 * @trace_req: the request id whose submit holds @lock, 0 while background
 *	work does: the id of the vflash_nand events charged meanwhile
 */
struct vf_die {
	spinlock_t lock;	/* see the kernel-doc above */
	u64 trace_req;
	u64 busy_until_ns;
	u64 fg_busy_until_ns;
	u64 deferred_ns;
	u32 free_head[VF_NR_REGIONS];
	u32 nr_free[VF_NR_REGIONS];
	u32 open[VF_NR_STREAMS][VF_NR_REGIONS];
	u64 *wb_end_ns;
	u32 *wb_slots;
	u32 wb_head;
	u32 wb_count;
	u32 wb_used;
	u32 wb_pending;
	u64 durable_ns;
	u64 bg_start_ns[VF_BG_SPANS];
	u64 bg_end_ns[VF_BG_SPANS];
	u32 bg_last;
	u32 channel;
	bool undo_used;
};

/**
 * struct vf_channel - one channel
 * @lock: protects @busy_until_ns
 * @busy_until_ns: when the last transfer queued on it ends
 */
struct vf_channel {
	spinlock_t lock;	/* protects busy_until_ns */
	u64 busy_until_ns;
};

/**
 * struct vf_stats - per-CPU counters and latency histograms
 * @count: enum vflash_stat counters
 * @read_hist: host read latencies, see vf_hist_bucket()
 * @late_hist: how late frontends completed requests against the model
 * @late_max_ns: the latest of those
 * @ph_host_pages: host pages written per placement handle
 * @ph_media_pages: media pages written because of each placement handle:
 *	slots programmed in its blocks (padding included) and pages GC or
 *	migration moved out of them
 * @erased_slots: slots of the blocks erased (NVMe FDP's media bytes erased)
 */
struct vf_stats {
	u64 count[VFLASH_STAT_NR];
	u64 ph_host_pages[VFLASH_FLASH_MAX_PLACEMENT];
	u64 ph_media_pages[VFLASH_FLASH_MAX_PLACEMENT];
	u64 erased_slots;
	u64 read_hist[VF_HIST_BUCKETS];
	u64 late_hist[VF_HIST_BUCKETS];
	u64 late_max_ns;
};

/**
 * struct vf_zone_map - where a zone handle's writes go
 * @first_lpn: the zone's first logical page
 * @first_die: the die of its first page
 * @width: the dies its pages go round over, from @first_die; 0: none
 */
struct vf_zone_map {
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
 * @stride: slot-number stride of a block (= @slots[VF_MAIN]); slot numbers
 *	of SLC blocks have holes, p2l's index has none (vf_p2l_index())
 * @blocks_per_die: blocks per die, SLC ones first
 * @slc_per_die: SLC blocks per die
 * @nr_blocks: blocks in all
 * @wb_cap: write-buffer slots per die
 * @wb_fifo_len: FIFO entries per die
 * @p2l_per_die: p2l entries of a die: its SLC blocks', then its main ones'
 * @p2l_shift: a p2l entry holds lpn >> @p2l_shift, so that it fits
 *	VF_P2L_BITS (0 for devices up to 64 GiB)
 * @l2p: logical page -> slot; atomics only
 * @p2l: slot -> group of the logical page that filled it, VF_P2L_BYTES per
 *	slot (vf_p2l_set(), vf_p2l_owner()); written under the slot's die
 *	lock before the slot is published in @l2p, never cleared: whether a
 *	slot is valid is always decided against @l2p
 * @heat: read count per logical page, 4 bits saturating at VF_HEAT_MAX,
 *	two pages per byte; updated with cmpxchg on the byte (vf_heat_bump())
 * @blocks: every block
 * @dies: every die
 * @channels: every channel
 * @host_lock: protects @host_busy_until_ns
 * @host_busy_until_ns: when the host link is free
 * @seal_seq: source of vf_block.seal_seq
 * @cursor: round-robin counter of placement policies
 * @req_id: the last request id given (vflash_flash_new_req_id())
 * @knob: run-time tunables; read with READ_ONCE, written by sysfs
 * @policy: current policy per kind the flash model runs (NULL for the
 *	others); READ_ONCE/WRITE_ONCE
 * @stats: per-CPU counters
 * @maint_lock: held by the worker for each maintenance pass, so that a
 *	quiescent check (torture) can hold it off
 * @worker: the GC/migration thread, or NULL
 * @undo_wait: per die, host placement handle and region, the log records
 *	of host pages whose unit is still filling (undo.c); under the die's
 *	lock
 * @program_fail: the device's program_fail rule, or NULL; READ_ONCE, set
 *	by the fault registry (core/faults.c) while no request runs
 * @erase_fail: its erase_fail rule, or NULL; the same
 * @nr_bad: bad blocks per region; atomics, incremented under the die lock
 *	of the block that went bad, read without it
 * @spare_new: spare blocks of the new device (struct vflash_health)
 * @no_room: set once a host write found no slot on any die (bad blocks
 *	left GC no room): the device refuses writes from then on; READ_ONCE
 * @ph_moved: per placement handle, the valid pages GC, migration or a
 *	block's retirement moved out of its blocks since creation (never
 *	reset); atomics, incremented after @ph_moved_lpn is written
 * @ph_moved_lpn: per placement handle, the logical page it last had
 *	moved; WRITE_ONCE/READ_ONCE
 * @ph_retired: per placement handle, its open blocks the device retired
 *	(a failed program) since creation: its reclaim unit changed without
 *	the host asking; atomics
 * @zmap: per zone handle, the zone bound to it (vflash_flash_zone_bind()):
 *	its first logical page, first die and width (dies; 0: none bound,
 *	the placement policy picks); written by the frontend while no write
 *	of the handle is in flight, read by those writes
 * @zone_ph: placement handles 1 and up are zone handles (NVMe ZNS,
 *	docs/design/zns.md): their writes go to the main region, and GC
 *	takes their blocks as victims only when no other block is one; set
 *	by vflash_flash_set_zone_handles() before any write, READ_ONCE
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
	u32 slots[VF_NR_REGIONS];
	u32 unit[VF_NR_REGIONS];
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
	struct vf_block *blocks;
	struct vf_die *dies;
	struct vf_channel *channels;
	spinlock_t host_lock;	/* protects host_busy_until_ns */
	u64 host_busy_until_ns;
	atomic64_t seal_seq;
	atomic64_t cursor;
	atomic64_t req_id;
	u64 knob[VFLASH_KNOB_NR];
	const struct vflash_policy *policy[VFLASH_POLICY_NR];
	struct vf_stats __percpu *stats;
	struct mutex maint_lock;	/* see the kernel-doc above */
	struct task_struct *worker;
	struct vflash_undo **undo_wait;
	struct vflash_fault_rule *program_fail;
	struct vflash_fault_rule *erase_fail;
	atomic_t nr_bad[VF_NR_REGIONS];
	u32 spare_new;
	bool no_room;
	atomic64_t ph_moved[VFLASH_FLASH_MAX_PLACEMENT];
	u64 ph_moved_lpn[VFLASH_FLASH_MAX_PLACEMENT];
	atomic64_t ph_retired[VFLASH_FLASH_MAX_PLACEMENT];
	struct vf_zone_map zmap[VFLASH_FLASH_MAX_PLACEMENT];
	bool zone_ph;
};

/* Is @s a zone handle's stream on device @f (vflash_flash.zone_ph)? */
static inline bool vf_is_zone_stream(const struct vflash_flash *f, u32 s)
{
	return s >= VF_PH1 && READ_ONCE(f->zone_ph);
}

static inline u64 vf_knob(const struct vflash_flash *f, enum vflash_knob k)
{
	return READ_ONCE(f->knob[k]);
}

static inline const void *vf_ops(const struct vflash_flash *f,
				 enum vflash_policy_kind kind)
{
	return READ_ONCE(f->policy[kind])->ops;
}

static inline u32 vf_block_of(const struct vflash_flash *f, u32 slot)
{
	return slot / f->stride;
}

static inline u32 vf_die_of_block(const struct vflash_flash *f, u32 blk)
{
	return blk / f->blocks_per_die;
}

static inline enum vf_region vf_region_of(const struct vflash_flash *f,
					  u32 blk)
{
	return blk % f->blocks_per_die < f->slc_per_die ? VF_SLC : VF_MAIN;
}

/*
 * The index of @slot's p2l entry. Slot numbers step by the main region's
 * stride, SLC blocks included; p2l holds per die the SLC blocks' slots,
 * then the main blocks', each at its own region's size, without holes.
 */
static inline u64 vf_p2l_index(const struct vflash_flash *f, u32 slot)
{
	u32 b = vf_block_of(f, slot);
	u32 off = slot - b * f->stride;
	u32 d = vf_die_of_block(f, b);
	u32 i = b - d * f->blocks_per_die;
	u64 idx = (u64)d * f->p2l_per_die + off;

	if (i < f->slc_per_die)
		return idx + (u64)i * f->slots[VF_SLC];
	return idx + (u64)f->slc_per_die * f->slots[VF_SLC] +
	       (u64)(i - f->slc_per_die) * f->slots[VF_MAIN];
}

/*
 * Record that logical page @lpn fills @slot: under the slot's die lock,
 * before @slot is published in l2p.
 */
static inline void vf_p2l_set(struct vflash_flash *f, u32 slot, u64 lpn)
{
	u8 *e = f->p2l + VF_P2L_BYTES * vf_p2l_index(f, slot);
	u32 g = lpn >> f->p2l_shift;

	e[0] = g;
	e[1] = g >> 8;
	e[2] = g >> 16;
}

/* The group @slot's p2l entry holds (stale once the slot is displaced). */
static inline u32 vf_p2l_group(const struct vflash_flash *f, u32 slot)
{
	const u8 *e = f->p2l + VF_P2L_BYTES * vf_p2l_index(f, slot);

	return e[0] | e[1] << 8 | (u32)e[2] << 16;
}

/*
 * The logical page whose valid copy is @slot, or VF_INVALID: the one page
 * of @slot's p2l group that l2p maps to @slot (l2p maps no two pages to
 * one slot). At most 1 << p2l_shift l2p entries, one cache line at 1 TiB.
 * A stale entry (the page displaced since) finds none. Callers hold the
 * slot's die lock, so that the entry is not being rewritten, or see a
 * quiescent device; l2p may change under them (a host displacing the
 * page), as it may right after any lookup.
 */
static inline u32 vf_p2l_owner(const struct vflash_flash *f, u32 slot)
{
	u64 lpn = (u64)vf_p2l_group(f, slot) << f->p2l_shift;
	u64 end = min(lpn + (1ULL << f->p2l_shift), f->nr_lpages);

	for (; lpn < end; lpn++)
		if (READ_ONCE(f->l2p[lpn]) == slot)
			return lpn;
	return VF_INVALID;
}

/* Page @lpn's read heat. */
static inline u32 vf_heat(const struct vflash_flash *f, u64 lpn)
{
	return READ_ONCE(f->heat[lpn / 2]) >> (lpn % 2 * 4) & VF_HEAT_MAX;
}

/*
 * Count one read of page @lpn, saturating at VF_HEAT_MAX; the byte is
 * shared with a neighbour page, hence cmpxchg. Returns the new heat.
 */
static inline u32 vf_heat_bump(struct vflash_flash *f, u64 lpn)
{
	u8 *p = &f->heat[lpn / 2];
	u32 sh = lpn % 2 * 4;
	u8 old = READ_ONCE(*p), seen;

	for (;;) {
		u32 h = old >> sh & VF_HEAT_MAX;

		if (h == VF_HEAT_MAX)
			return h;
		seen = cmpxchg(p, old, old + (1 << sh));
		if (seen == old)
			return h + 1;
		old = seen;
	}
}

/* Forget page @lpn's heat (trimmed), keeping its neighbour's. */
static inline void vf_heat_clear(struct vflash_flash *f, u64 lpn)
{
	u8 *p = &f->heat[lpn / 2];
	u8 mask = VF_HEAT_MAX << (lpn % 2 * 4);
	u8 old = READ_ONCE(*p), seen;

	while (old & mask) {
		seen = cmpxchg(p, old, old & ~mask);
		if (seen == old)
			break;
		old = seen;
	}
}

/* Halve the heat of the two pages of heat byte @i. */
static inline void vf_heat_decay(struct vflash_flash *f, u64 i)
{
	u8 *p = &f->heat[i];
	u8 old = READ_ONCE(*p), seen;

	while (old) {
		seen = cmpxchg(p, old, (old >> 1) & 0x77);
		if (seen == old)
			break;
		old = seen;
	}
}

/* Bytes of the heat table of a device of @nr_lpages pages. */
static inline u64 vf_heat_bytes(u64 nr_lpages)
{
	return DIV_ROUND_UP_ULL(nr_lpages, 2);
}

static inline void vf_count(struct vflash_flash *f, enum vflash_stat s,
			    u64 n)
{
	this_cpu_add(f->stats->count[s], n);
}

/*
 * Does flash fault rule @rp (program_fail, erase_fail) fire for page @lpn?
 * Counted in @stat if it does. One static branch while no rule of any
 * device is armed.
 */
static inline bool vf_fault(struct vflash_flash *f,
			    struct vflash_fault_rule *const *rp,
			    enum vflash_stat stat, u64 lpn)
{
	struct vflash_fault_rule *r;

	if (!static_branch_unlikely(&vflash_faults_armed))
		return false;
	r = READ_ONCE(*rp);
	if (!r || !vflash_fault_rule_check(r, lpn, 1))
		return false;
	vf_count(f, stat, 1);
	return true;
}

/*
 * Can blocks go bad: a program_fail or erase_fail rule armed, or a bad
 * block already? Then the host leaves GC one more free block per die and
 * region, so that a failure while GC cleans does not leave it without
 * room (ftl.c).
 */
static inline bool vf_failures_possible(struct vflash_flash *f)
{
	struct vflash_fault_rule *pf, *ef;

	if (atomic_read(&f->nr_bad[VF_SLC]) || atomic_read(&f->nr_bad[VF_MAIN]))
		return true;
	if (!static_branch_unlikely(&vflash_faults_armed))
		return false;
	pf = READ_ONCE(f->program_fail);
	ef = READ_ONCE(f->erase_fail);
	return (pf && vflash_fault_rule_armed(pf)) ||
	       (ef && vflash_fault_rule_armed(ef));
}

/* Count one host read's latency (completion minus arrival). */
static inline void vf_record_read_latency(struct vflash_flash *f, u64 ns)
{
	this_cpu_inc(f->stats->read_hist[vf_hist_bucket(ns)]);
}

/*
 * Reserve a link (a channel or the host link) whose queue ends at *@busy,
 * under @lock, for @dur ns from @t on; returns when the transfer ends.
 * With the two below, timing.c's, inline: every host request runs them.
 */
static inline u64 vf_link_xfer(spinlock_t *lock, u64 *busy, u64 t, u64 dur)
{
	u64 end;

	spin_lock(lock);
	end = max(t, *busy) + dur;
	*busy = end;
	spin_unlock(lock);
	return end;
}

/**
 * vf_channel_xfer() - reserve a channel for 4 KiB transfers
 * @f: the device
 * @ch: the channel
 * @t: when the data is ready to move
 * @n: 4 KiB transfers
 * @wait_ns: receives how long the transfer waited for the channel, or NULL
 * @xfer_ns: receives the transfer's own time, or NULL
 *
 * Return: when the transfer ends.
 */
static inline u64 vf_channel_xfer(struct vflash_flash *f, u32 ch, u64 t,
				  u32 n, u64 *wait_ns, u64 *xfer_ns)
{
	struct vf_channel *c = &f->channels[ch];
	u64 dur = n * vf_knob(f, VFLASH_KNOB_CHANNEL_XFER_NS);
	u64 end = vf_link_xfer(&c->lock, &c->busy_until_ns, t, dur);

	if (wait_ns)
		*wait_ns = end - dur - t;
	if (xfer_ns)
		*xfer_ns = dur;
	return end;
}

/**
 * vf_host_xfer() - reserve the host link for 4 KiB transfers
 * @f: the device
 * @t: when the data is ready to move
 * @n: 4 KiB transfers
 * @wait_ns: receives how long the transfer waited for the link, or NULL
 * @xfer_ns: receives the transfer's own time, or NULL
 *
 * Return: when the transfer ends.
 */
static inline u64 vf_host_xfer(struct vflash_flash *f, u64 t, u32 n,
			       u64 *wait_ns, u64 *xfer_ns)
{
	u64 dur = n * vf_knob(f, VFLASH_KNOB_HOST_XFER_NS);
	u64 end = vf_link_xfer(&f->host_lock, &f->host_busy_until_ns, t, dur);

	if (wait_ns)
		*wait_ns = end - dur - t;
	if (xfer_ns)
		*xfer_ns = dur;
	return end;
}

/*
 * The mapping's and the write buffer's steps of a host page write, inline:
 * every write runs them (ftl.c and timing.c keep the rest).
 */

/**
 * vf_invalidate() - a slot's page has been displaced
 * @f: the device
 * @slot: the slot whose logical page now lives elsewhere (or nowhere)
 *
 * Called by whoever displaced it from l2p, without the slot's die lock,
 * with preemption disabled: GC waits for a victim's count to reach zero.
 * The slot's p2l entry stays as it is: no page of its group maps to the
 * slot any more, which is what makes it invalid (vf_p2l_owner()).
 */
static __always_inline void vf_invalidate(struct vflash_flash *f, u32 slot)
{
	atomic_dec(&f->blocks[vf_block_of(f, slot)].valid);
}

/**
 * vf_seal_if_full() - a stream's open block that filled up becomes a GC
 *	candidate
 * @f: the device
 * @die: the block's die, locked
 * @b: the block
 * @stream: the stream it is open for
 * @r: its region
 * @now: the current time, its seal time
 */
static __always_inline void vf_seal_if_full(struct vflash_flash *f,
					    struct vf_die *die, u32 b,
					    enum vf_stream stream,
					    enum vf_region r, u64 now)
{
	struct vf_block *blk = &f->blocks[b];

	if (blk->wp < f->slots[r])
		return;
	blk->state = VF_BLK_FULL;
	blk->seal_seq = atomic64_inc_return(&f->seal_seq);
	blk->seal_ns = now;
	die->open[stream][r] = VF_INVALID;
}

/* vf_alloc_slot() (ftl.c), inline for the host write path. */
static __always_inline u32 vf_alloc_slot_inline(struct vflash_flash *f,
						struct vf_die *die, u32 d,
						enum vf_stream stream,
						enum vf_region r, u64 *now)
{
	u32 b = die->open[stream][r];
	struct vf_block *blk;
	u32 slot;

	if (b == VF_INVALID) {
		u32 reserve = stream == VF_GC ? 0 : VF_GC_RESERVE +
					vf_failures_possible(f);

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
	vf_seal_if_full(f, die, b, stream, r, *now);
	return slot;
}

/**
 * vf_wb_retire() - drop programs that ended by @t from the write buffer
 * @f: the device
 * @die: the die, locked
 * @t: the time
 */
static __always_inline void vf_wb_retire(struct vflash_flash *f,
					 struct vf_die *die, u64 t)
{
	while (die->wb_count && die->wb_end_ns[die->wb_head] <= t) {
		die->wb_used -= die->wb_slots[die->wb_head];
		die->wb_head = (die->wb_head + 1) % f->wb_fifo_len;
		die->wb_count--;
	}
}

/**
 * vf_wb_admit() - admit one host page into the die's write-buffer share
 * @f: the device
 * @die: the die, locked
 * @t: when the page is ready
 *
 * Return: @t, or, if the share is full, when enough programs have ended.
 */
static __always_inline u64 vf_wb_admit(struct vflash_flash *f,
				       struct vf_die *die, u64 t)
{
	u64 cap64 = vf_knob(f, VFLASH_KNOB_WRITE_BUFFER_BYTES) /
		    VFLASH_LPAGE_SIZE / f->nr_dies;
	u32 cap = max_t(u64, cap64, 2 * f->unit[VF_MAIN]);

	vf_wb_retire(f, die, t);
	if (unlikely(die->wb_used + die->wb_pending + 1 > cap)) {
		vf_count(f, VFLASH_STAT_WB_STALLS, 1);
		while (die->wb_count &&
		       die->wb_used + die->wb_pending + 1 > cap) {
			t = max(t, die->wb_end_ns[die->wb_head]);
			vf_wb_retire(f, die, t);
		}
	}
	die->wb_pending++;
	return t;
}

/*
 * vf_program_fails() - is the program of a host page to fail?
 * @f: the device
 * @lpn: the logical page the host writes
 *
 * Asks the program_fail rule (counted per page written); one static
 * branch while no rule is armed. True if the program of the unit the page
 * is written into fails.
 */
static __always_inline bool vf_program_fails(struct vflash_flash *f, u64 lpn)
{
	return vf_fault(f, &f->program_fail, VFLASH_STAT_FAULT_PROGRAM_FAILS,
			lpn);
}

/* timing.c, for the inline die read below */
u32 __vf_read_retries(const struct vflash_flash *f, u32 blk, u64 now,
		      u64 k_pe, u64 k_age);
void vf_bg_note(struct vf_die *die, u64 start, u64 end);
void vf_bg_shift(struct vf_die *die, u64 start, u64 t);
u64 vf_bg_wait(const struct vf_die *die, u64 from, u64 to);
void vf_trace_die_read(struct vflash_flash *f, struct vf_die *die, u32 blk,
		       enum vflash_work work, u64 start, u64 end);
DECLARE_TRACEPOINT(vflash_nand);

/* @die's number on @f. */
static inline u32 vf_die_index(const struct vflash_flash *f,
			       const struct vf_die *die)
{
	return die - f->dies;
}

/**
 * vf_read_time() - array read time of the page in a slot
 * @f: the device
 * @slot: the slot
 *
 * Return: tR in ns, by region, cell type and (QLC) page type.
 */
static __always_inline u64 vf_read_time(const struct vflash_flash *f,
					u32 slot)
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
 * vf_read_retries() - the read retries a block's wear and data age cost
 * @f: the device
 * @blk: the block read; its die is locked
 * @now: when the read starts
 *
 * See __vf_read_retries() (timing.c); inline, one test while both of its
 * coefficients are 0 (the default).
 *
 * Return: the retries; 0 while both coefficients are 0.
 */
static __always_inline u32 vf_read_retries(const struct vflash_flash *f,
					   u32 blk, u64 now)
{
	u64 k_pe = vf_knob(f, VFLASH_KNOB_READ_RETRY_PE_MILLI);
	u64 k_age = vf_knob(f, VFLASH_KNOB_READ_RETRY_AGE_MILLI);

	if (!k_pe && !k_age)
		return 0;
	return __vf_read_retries(f, blk, now, k_pe, k_age);
}

/* vf_die_read() (timing.c), inline for the host read path. */
static __always_inline u64 vf_die_read_inline(struct vflash_flash *f,
					      struct vf_die *die, u32 slot,
					      u64 now, enum vflash_work work,
					      struct vflash_latency *lat)
{
	const struct vflash_maintenance_ops *m =
		vf_ops(f, VFLASH_POLICY_MAINTENANCE);
	bool host = work == VFLASH_WORK_HOST;
	u32 retries = vf_read_retries(f, vf_block_of(f, slot), now);
	u64 t = vf_read_time(f, slot) * (1 + retries);
	u64 start;

	if (retries)
		vf_count(f, VFLASH_STAT_READ_RETRIES, retries);
	if (die->busy_until_ns <= now)
		die->deferred_ns = 0;
	if (host && m->read_priority &&
	    die->busy_until_ns > max(now, die->fg_busy_until_ns) &&
	    die->deferred_ns < vf_knob(f, VFLASH_KNOB_MAX_DEFER_NS)) {
		start = max(now, die->fg_busy_until_ns);
		die->busy_until_ns += t;
		die->deferred_ns += t;
		vf_bg_shift(die, start, t);
		vf_count(f, VFLASH_STAT_READ_PREEMPTS, 1);
	} else {
		start = max(now, die->busy_until_ns);
		die->busy_until_ns = start + t;
	}
	if (host)
		die->fg_busy_until_ns = max(die->fg_busy_until_ns, start + t);
	else
		vf_bg_note(die, start, start + t);
	if (lat) {
		lat->die_wait_ns = start - now;
		lat->bg_wait_ns = vf_bg_wait(die, now, start);
		lat->array_ns = t;
	}
	vf_count(f, VFLASH_STAT_NAND_READ_PAGES, 1);
	/* Untraced, one branch: the event's arguments only behind it. */
	if (tracepoint_enabled(vflash_nand))
		vf_trace_die_read(f, die, vf_block_of(f, slot), work, start,
				  start + t);
	return start + t;
}

/*
 * The backend's files call each other in one direction only, from the
 * bottom up: timing.c (die, channel and host-link timelines, the write
 * buffer) and ftl.c (the mapping) know nothing above them; gc.c cleans
 * with both; request.c runs host requests with all three; stats.c reads
 * everything and nothing reads it back (the histograms are recorded
 * through hist.h); flash.c creates and configures the whole. The device
 * DRAM cache is a layer above (backend_flash/cache/), a user of
 * flash.h like the frontends.
 */

/* timing.c */
u64 vf_die_read(struct vflash_flash *f, struct vf_die *die, u32 slot,
		u64 now, enum vflash_work work, struct vflash_latency *lat);
u64 vf_program(struct vflash_flash *f, struct vf_die *die, u32 blk,
	       u64 now, enum vflash_work work);
u64 vf_erase(struct vflash_flash *f, struct vf_die *die, u32 blk, u64 now,
	     enum vflash_work work);
void vf_wb_push(struct vflash_flash *f, struct vf_die *die, u64 end,
		u32 slots);

/* ftl.c */
u32 vf_alloc_slot(struct vflash_flash *f, struct vf_die *die, u32 d,
		  enum vf_stream stream, enum vf_region r, u64 *now);
u32 vf_pad_unit(struct vflash_flash *f, u32 b, enum vf_region r);

/* undo.c */
int vf_undo_alloc(struct vflash_flash *f);
void vf_undo_attach(struct vflash_flash *f, u32 d, u32 slot,
		    struct vflash_undo *u);
void __vf_undo_programmed(struct vflash_flash *f, u32 d, u32 blk,
			  u64 end_ns);

/**
 * vf_undo_programmed() - the unit just filled in a host block is charged
 * @f: the device
 * @d: the block's die, locked
 * @blk: the block; its write pointer is at the end of the unit
 * @end_ns: when the program ends: the pages' durable time
 *
 * One predictable branch on a die that never had a log record attached.
 */
static __always_inline void vf_undo_programmed(struct vflash_flash *f, u32 d,
					       u32 blk, u64 end_ns)
{
	if (unlikely(f->dies[d].undo_used))
		__vf_undo_programmed(f, d, blk, end_ns);
}

/* gc.c */
bool vf_clean(struct vflash_flash *f, struct vf_die *die, u32 d,
	      enum vf_region r, u64 *now);
u32 vf_free_low(const struct vflash_flash *f, enum vf_region r);
u32 vf_free_high(const struct vflash_flash *f, enum vf_region r);
void vf_stop_worker(struct vflash_flash *f);
bool vf_erase_block(struct vflash_flash *f, struct vf_die *die, u32 b,
		    enum vflash_work work, u64 *now);
void vf_program_failed(struct vflash_flash *f, struct vf_die *die, u32 d,
		       u32 b, u64 now);

#endif /* VFLASH_FTL_H */
