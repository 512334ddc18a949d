/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flash backend's interface: the one header frontends include.
 * docs/design/backend.md describes the model.
 */
#ifndef VFLASH_FLASH_H
#define VFLASH_FLASH_H

#include <linux/bits.h>
#include <linux/types.h>

#include "policy/policy.h"

struct vflash_fault_rule;
struct vflash_flash;
struct vflash_profile;

#define VFLASH_LPAGE_SHIFT	12
#define VFLASH_LPAGE_SIZE	BIT(VFLASH_LPAGE_SHIFT)

/**
 * enum vflash_io - what a frontend asks of the flash
 * @VFLASH_IO_READ: read logical pages
 * @VFLASH_IO_WRITE: write logical pages
 * @VFLASH_IO_TRIM: deallocate logical pages
 * @VFLASH_IO_FLUSH: make every completed write durable (no pages)
 */
enum vflash_io {
	VFLASH_IO_READ,
	VFLASH_IO_WRITE,
	VFLASH_IO_TRIM,
	VFLASH_IO_FLUSH,
};

/**
 * enum vflash_fe - who submits a request, for trace events
 * @VFLASH_FE_NONE: the device itself (preconditioning, self-tests)
 * @VFLASH_FE_NVME: the NVMe frontend
 * @VFLASH_FE_CXL: the CXL frontend (its device DRAM cache)
 */
enum vflash_fe {
	VFLASH_FE_NONE,
	VFLASH_FE_NVME,
	VFLASH_FE_CXL,
};

/**
 * enum vflash_work - whose work a die operation is (trace events)
 * @VFLASH_WORK_HOST: a host request's
 * @VFLASH_WORK_GC: garbage collection within a region
 * @VFLASH_WORK_MIGRATE: migration between the SLC and the main region
 */
enum vflash_work {
	VFLASH_WORK_HOST,
	VFLASH_WORK_GC,
	VFLASH_WORK_MIGRATE,
};

/**
 * enum vflash_nand_op - an operation of a die (trace events)
 * @VFLASH_NAND_READ: an array read
 * @VFLASH_NAND_PROGRAM: a program (of a program unit)
 * @VFLASH_NAND_ERASE: a block erase
 */
enum vflash_nand_op {
	VFLASH_NAND_READ,
	VFLASH_NAND_PROGRAM,
	VFLASH_NAND_ERASE,
};

/**
 * struct vflash_req_tag - who a request is, for the trace events
 * @id: the device's request id (vflash_flash_new_req_id()); 0: the
 *	submit takes the next one and stores it here
 * @doorbell_ns: when the frontend saw the request submitted (NVMe: the
 *	poll that found the SQ tail doorbell past it), or 0
 * @polled_ns: the poll before, which had not found it, or 0
 * @qid: the frontend's queue (NVMe: the SQ id), or 0
 * @cid: the frontend's command id (NVMe: the CID), or 0
 * @ph: a write's placement handle (NVMe FDP), 0 for the default one
 * @sync: a write completes only once durable (enum vflash_sync)
 * @local: the data stay inside the device (NVMe Copy): no host-link
 *	transfer
 *
 * One host command that submits several requests (a write and a flush)
 * passes the same tag to each: they share its id, as does its completion.
 */
struct vflash_req_tag {
	u64 id;
	u64 doorbell_ns;
	u64 polled_ns;
	u16 qid;
	u16 cid;
	u16 ph;
	u8 sync;
	bool local;
};

/**
 * enum vflash_sync - how durable a write is at its completion
 * @VFLASH_SYNC_NONE: in the write buffer (a later flush makes it durable)
 * @VFLASH_SYNC_PAGES: its own pages on flash (the dies the write placed
 *	them on program their buffered host data)
 * @VFLASH_SYNC_STREAM: as @VFLASH_SYNC_PAGES, and every page buffered in
 *	its placement handle's open blocks (a zone is durable as a prefix)
 */
enum vflash_sync {
	VFLASH_SYNC_NONE,
	VFLASH_SYNC_PAGES,
	VFLASH_SYNC_STREAM,
};

/**
 * struct vflash_latency - where the model's latency of one request went
 * @die_wait_ns: reads: waiting for the die; writes: until admitted into
 *	the write buffer; flushes: waiting for the buffered data's programs
 * @bg_wait_ns: the part of @die_wait_ns spent behind background work (GC,
 *	migration, erases)
 * @array_ns: the array read (tR)
 * @chan_wait_ns: waiting for the channel
 * @chan_ns: the channel transfer
 * @host_wait_ns: waiting for the host link
 * @host_ns: the host-link transfer
 * @fw_ns: the controller's firmware overhead
 *
 * For several pages, the die and channel parts are the last page's. The
 * parts add up to the completion time, before host_overhead_ns is taken
 * off, minus the arrival time.
 */
struct vflash_latency {
	u64 die_wait_ns;
	u64 bg_wait_ns;
	u64 array_ns;
	u64 chan_wait_ns;
	u64 chan_ns;
	u64 host_wait_ns;
	u64 host_ns;
	u64 fw_ns;
};

/**
 * vflash_latency_total() - the model's latency a breakdown adds up to
 * @lat: the breakdown
 *
 * Return: the sum of its parts (@bg_wait_ns is within @die_wait_ns).
 */
static inline u64 vflash_latency_total(const struct vflash_latency *lat)
{
	return lat->die_wait_ns + lat->array_ns + lat->chan_wait_ns +
	       lat->chan_ns + lat->host_wait_ns + lat->host_ns + lat->fw_ns;
}

/**
 * enum vflash_stat - counters in stats/
 * @VFLASH_STAT_HOST_READ_PAGES: logical pages read by the host
 * @VFLASH_STAT_HOST_WRITE_PAGES: logical pages written by the host
 * @VFLASH_STAT_HOST_TRIM_PAGES: logical pages trimmed by the host
 * @VFLASH_STAT_NAND_READ_PAGES: logical pages read from the array
 * @VFLASH_STAT_NAND_PROGRAM_PAGES: logical-page slots programmed,
 *	padding included
 * @VFLASH_STAT_NAND_ERASE_BLOCKS: blocks erased
 * @VFLASH_STAT_GC_RUNS: blocks cleaned by GC or migration
 * @VFLASH_STAT_GC_COPIED_PAGES: valid pages GC moved within a region
 * @VFLASH_STAT_MIGRATED_PAGES: pages moved from SLC to QLC
 * @VFLASH_STAT_REPROMOTED_PAGES: pages moved from QLC back to SLC
 * @VFLASH_STAT_WB_STALLS: host writes that waited for write-buffer space
 * @VFLASH_STAT_READ_PREEMPTS: host reads that passed background work
 * @VFLASH_STAT_EARLY_COMPLETIONS: requests completed before the model's due
 *	time (a bug if not zero)
 * @VFLASH_STAT_FAULT_READ_ERRORS: injected read errors (core/faults.c)
 * @VFLASH_STAT_FAULT_WRITE_FAULTS: injected write faults
 * @VFLASH_STAT_FAULT_TIMEOUTS: commands never completed, by injection
 * @VFLASH_STAT_FAULT_DELAYS: completions delayed by injection
 * @VFLASH_STAT_FAULT_POISON_SIGNALS: accesses to poisoned pages (SIGBUS)
 * @VFLASH_STAT_FAULT_READ_ONLY_WRITES: writes refused by a read-only rule
 * @VFLASH_STAT_FAULT_FATAL: controller fatal statuses injected
 * @VFLASH_STAT_FAULT_POWER_CUTS: power cuts
 * @VFLASH_STAT_POWER_CUT_LOST_WRITES: page writes the power cuts took back
 * @VFLASH_STAT_READ_RETRIES: extra array reads the retry model charged
 * @VFLASH_STAT_FAULT_PROGRAM_FAILS: injected program failures
 * @VFLASH_STAT_FAULT_ERASE_FAILS: injected erase failures
 * @VFLASH_STAT_WORN_OUT_WRITES: host writes refused for lack of spare blocks
 * @VFLASH_STAT_BAD_BLOCKS: not a counter: blocks retired so far; stats/reset
 *	leaves it alone
 * @VFLASH_STAT_SPARE_BLOCKS: not a counter: struct vflash_health's
 *	@spare_blocks
 * @VFLASH_STAT_ZONE_APPENDS: Zone Append commands that wrote (this and the
 *	zone counters below are counted by the frontend)
 * @VFLASH_STAT_ZONE_IMPLICIT_OPENS: writes that opened a zone
 * @VFLASH_STAT_ZONE_IMPLICIT_CLOSES: zones closed to free an open resource
 * @VFLASH_STAT_ZONE_OPENS: zones an Open action opened
 * @VFLASH_STAT_ZONE_CLOSES: zones a Close action closed
 * @VFLASH_STAT_ZONE_FINISHES: zones a Finish action filled
 * @VFLASH_STAT_ZONE_RESETS: zones a Reset action emptied
 * @VFLASH_STAT_ZONE_READ_ONLY: zones that went Read Only
 * @VFLASH_STAT_ZONE_HOST_PAGES: not a counter: host pages written through
 *	the zone handles
 * @VFLASH_STAT_ZONE_MEDIA_PAGES: not a counter: media pages written
 *	because of the zone handles
 * @VFLASH_STAT_ZONE_ERASE_BLOCKS: blocks vflash_flash_zone_reset() erased
 * @VFLASH_STAT_HOST_XFER_PAGES: 4 KiB transfers over the host link
 * @VFLASH_STAT_NR: number of counters
 */
enum vflash_stat {
	VFLASH_STAT_HOST_READ_PAGES,
	VFLASH_STAT_HOST_WRITE_PAGES,
	VFLASH_STAT_HOST_TRIM_PAGES,
	VFLASH_STAT_NAND_READ_PAGES,
	VFLASH_STAT_NAND_PROGRAM_PAGES,
	VFLASH_STAT_NAND_ERASE_BLOCKS,
	VFLASH_STAT_GC_RUNS,
	VFLASH_STAT_GC_COPIED_PAGES,
	VFLASH_STAT_MIGRATED_PAGES,
	VFLASH_STAT_REPROMOTED_PAGES,
	VFLASH_STAT_WB_STALLS,
	VFLASH_STAT_READ_PREEMPTS,
	VFLASH_STAT_EARLY_COMPLETIONS,
	VFLASH_STAT_FAULT_READ_ERRORS,
	VFLASH_STAT_FAULT_WRITE_FAULTS,
	VFLASH_STAT_FAULT_TIMEOUTS,
	VFLASH_STAT_FAULT_DELAYS,
	VFLASH_STAT_FAULT_POISON_SIGNALS,
	VFLASH_STAT_FAULT_READ_ONLY_WRITES,
	VFLASH_STAT_FAULT_FATAL,
	VFLASH_STAT_FAULT_POWER_CUTS,
	VFLASH_STAT_POWER_CUT_LOST_WRITES,
	VFLASH_STAT_READ_RETRIES,
	VFLASH_STAT_FAULT_PROGRAM_FAILS,
	VFLASH_STAT_FAULT_ERASE_FAILS,
	VFLASH_STAT_WORN_OUT_WRITES,
	VFLASH_STAT_BAD_BLOCKS,
	VFLASH_STAT_SPARE_BLOCKS,
	VFLASH_STAT_ZONE_APPENDS,
	VFLASH_STAT_ZONE_IMPLICIT_OPENS,
	VFLASH_STAT_ZONE_IMPLICIT_CLOSES,
	VFLASH_STAT_ZONE_OPENS,
	VFLASH_STAT_ZONE_CLOSES,
	VFLASH_STAT_ZONE_FINISHES,
	VFLASH_STAT_ZONE_RESETS,
	VFLASH_STAT_ZONE_READ_ONLY,
	VFLASH_STAT_ZONE_HOST_PAGES,
	VFLASH_STAT_ZONE_MEDIA_PAGES,
	VFLASH_STAT_ZONE_ERASE_BLOCKS,
	VFLASH_STAT_HOST_XFER_PAGES,
	VFLASH_STAT_NR,
};

/**
 * enum vflash_knob - the flash model's run-time tunables in config/
 * @VFLASH_KNOB_SLC_READ_NS: SLC array read time
 * @VFLASH_KNOB_QLC_READ_L_NS: QLC lower-page read time
 * @VFLASH_KNOB_QLC_READ_CL_NS: QLC centre-lower-page read time
 * @VFLASH_KNOB_QLC_READ_CU_NS: QLC centre-upper-page read time
 * @VFLASH_KNOB_QLC_READ_U_NS: QLC upper-page read time
 * @VFLASH_KNOB_MAIN_READ_NS: read time of a main-region page (non-QLC)
 * @VFLASH_KNOB_SLC_PROG_NS: SLC page program time
 * @VFLASH_KNOB_MAIN_PROG_NS: main-region program time (QLC: a wordline)
 * @VFLASH_KNOB_SLC_ERASE_NS: SLC block erase time
 * @VFLASH_KNOB_MAIN_ERASE_NS: main-region block erase time
 * @VFLASH_KNOB_CHANNEL_XFER_NS: channel transfer time of 4 KiB
 * @VFLASH_KNOB_HOST_XFER_NS: host-link transfer time of 4 KiB
 * @VFLASH_KNOB_FW_OVERHEAD_NS: controller time added to every command
 * @VFLASH_KNOB_WRITE_BUFFER_BYTES: DRAM write buffer size
 * @VFLASH_KNOB_GC_LOW_PCT: free blocks (%) below which the write path cleans
 * @VFLASH_KNOB_GC_HIGH_PCT: free blocks below which the worker cleans
 * @VFLASH_KNOB_MIGRATE_HOT_READS: reads that make a page hot (1..15)
 * @VFLASH_KNOB_MAX_DEFER_NS: how long host reads may hold back background
 *	work on a die
 * @VFLASH_KNOB_SLC_PE_CYCLES: rated P/E cycles of an SLC-region block
 * @VFLASH_KNOB_MAIN_PE_CYCLES: rated P/E cycles of a main-region block
 * @VFLASH_KNOB_HOST_OVERHEAD_NS: the host's own I/O-stack time per
 *	request, taken off every completion time
 * @VFLASH_KNOB_PRECONDITION: 1 once every page was written (writing 1
 *	does it)
 * @VFLASH_KNOB_READ_RETRY_MAX: most read retries one array read takes
 * @VFLASH_KNOB_READ_RETRY_PE_MILLI: retries (in thousandths) of a read of
 *	a block at its rated P/E cycles; grows with the square of the wear
 * @VFLASH_KNOB_READ_RETRY_AGE_MILLI: retries (in thousandths) per
 *	doubling of 1 + the data's age in age units
 * @VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS: the age unit
 * @VFLASH_KNOB_ZONE_DIES: dies a zone's writes stripe over (0: as many as
 *	it needs blocks); taken when a zone is bound
 * @VFLASH_KNOB_NR: number of knobs
 */
enum vflash_knob {
	VFLASH_KNOB_SLC_READ_NS,
	VFLASH_KNOB_QLC_READ_L_NS,
	VFLASH_KNOB_QLC_READ_CL_NS,
	VFLASH_KNOB_QLC_READ_CU_NS,
	VFLASH_KNOB_QLC_READ_U_NS,
	VFLASH_KNOB_MAIN_READ_NS,
	VFLASH_KNOB_SLC_PROG_NS,
	VFLASH_KNOB_MAIN_PROG_NS,
	VFLASH_KNOB_SLC_ERASE_NS,
	VFLASH_KNOB_MAIN_ERASE_NS,
	VFLASH_KNOB_CHANNEL_XFER_NS,
	VFLASH_KNOB_HOST_XFER_NS,
	VFLASH_KNOB_FW_OVERHEAD_NS,
	VFLASH_KNOB_WRITE_BUFFER_BYTES,
	VFLASH_KNOB_GC_LOW_PCT,
	VFLASH_KNOB_GC_HIGH_PCT,
	VFLASH_KNOB_MIGRATE_HOT_READS,
	VFLASH_KNOB_MAX_DEFER_NS,
	VFLASH_KNOB_SLC_PE_CYCLES,
	VFLASH_KNOB_MAIN_PE_CYCLES,
	VFLASH_KNOB_HOST_OVERHEAD_NS,
	VFLASH_KNOB_PRECONDITION,
	VFLASH_KNOB_READ_RETRY_MAX,
	VFLASH_KNOB_READ_RETRY_PE_MILLI,
	VFLASH_KNOB_READ_RETRY_AGE_MILLI,
	VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS,
	VFLASH_KNOB_ZONE_DIES,
	VFLASH_KNOB_NR,
};

/**
 * struct vflash_knob_range - a config/ knob's file name and range
 * @name: the file name
 * @min: the smallest value
 * @max: the largest value
 */
struct vflash_knob_range {
	const char *name;
	u64 min, max;
};

bool vflash_knob_in_range(const struct vflash_knob_range *k, u32 id, u64 val);

/**
 * struct vflash_undo - the backend's part of a page write a power cut may
 *	take back (core/powerloss.c)
 * @end_ns: when the program that makes the page durable ends; U64_MAX
 *	while it waits in the write buffer. Written under a die lock, read
 *	with READ_ONCE.
 * @die: the die whose write buffer holds the page, U32_MAX until parked
 * @slot: the page's slot on that die; @die and @slot are written under
 *	the die's lock while the owner holds the record's log, and read by
 *	vflash_flash_undo_detach() under the same lock
 * @wait: its place among the die's waiting records; written and read as
 *	@slot is
 */
struct vflash_undo {
	u64 end_ns;
	u32 die;
	u32 slot;
	u32 wait;
};

/*
 * Blocks per die and region the FTL needs whatever the capacity (open
 * blocks, GC's reserve, room to clean); a smaller geometry is -E2BIG.
 */
#define VFLASH_FLASH_MIN_BLOCKS_PER_DIE	8

/*
 * Host placement handles (NVMe FDP) the FTL can keep apart; each beyond the
 * first costs a block per die and region (docs/design/fdp.md).
 */
#define VFLASH_FLASH_MAX_PLACEMENT	16

struct vflash_flash *vflash_flash_create(const struct vflash_profile *prof,
					 u64 size_bytes);
void vflash_flash_destroy(struct vflash_flash *f);
int vflash_flash_metadata_bytes(const struct vflash_profile *prof,
				u64 size_bytes, u64 *bytes);
void vflash_flash_set_id(struct vflash_flash *f, u32 id);
void vflash_flash_set_fault_rules(struct vflash_flash *f,
				  struct vflash_fault_rule *program_fail,
				  struct vflash_fault_rule *erase_fail);
u32 vflash_flash_id(const struct vflash_flash *f);
u64 vflash_flash_submit(struct vflash_flash *f, enum vflash_io op, u64 lpn,
			u32 count, u64 now_ns);
u64 vflash_flash_submit_lat(struct vflash_flash *f, enum vflash_io op,
			    u64 lpn, u32 count, u64 now_ns,
			    struct vflash_latency *lat);
u64 vflash_flash_submit_from(struct vflash_flash *f, enum vflash_fe fe,
			     enum vflash_io op, u64 lpn, u32 count, u64 now_ns);
u64 vflash_flash_submit_undo(struct vflash_flash *f, enum vflash_fe fe,
			     u64 lpn, u32 count, u64 now_ns,
			     struct vflash_undo *const *undo);
u64 vflash_flash_submit_tagged(struct vflash_flash *f, enum vflash_fe fe,
			       enum vflash_io op, u64 lpn, u32 count,
			       u64 now_ns, struct vflash_undo *const *undo,
			       struct vflash_req_tag *tag);
u64 vflash_flash_new_req_id(struct vflash_flash *f);
u64 vflash_flash_submit_placed(struct vflash_flash *f, enum vflash_fe fe,
			       u64 lpn, u32 count, u64 now_ns,
			       struct vflash_undo *const *undo, u32 ph);
u32 vflash_flash_placement_handles(const struct vflash_flash *f);
bool vflash_flash_placement_update(struct vflash_flash *f, u32 ph,
				   u64 now_ns);
u64 vflash_flash_placement_room(struct vflash_flash *f, u32 ph);
u64 vflash_flash_placement_ru_bytes(const struct vflash_flash *f);
void vflash_flash_placement_stat(struct vflash_flash *f, u32 ph,
				 u64 *host_pages, u64 *media_pages);

/**
 * struct vflash_placement_events - what the device did on its own to a
 *	placement handle (NVMe FDP controller events)
 * @moved_pages: valid pages the device moved out of the handle's blocks
 * @moved_lpn: the logical page it last moved (if @moved_pages)
 * @units_retired: the handle's open blocks retired after a failed program
 */
struct vflash_placement_events {
	u64 moved_pages;
	u64 moved_lpn;
	u64 units_retired;
};

void vflash_flash_placement_events(struct vflash_flash *f, u32 ph,
				   struct vflash_placement_events *ev);
u64 vflash_flash_erased_bytes(struct vflash_flash *f);
void vflash_flash_set_zone_handles(struct vflash_flash *f, bool on);
bool vflash_flash_zone_handles(const struct vflash_flash *f);
void vflash_flash_zone_bind(struct vflash_flash *f, u32 ph, u64 lpn,
			    u64 count, u32 zone);
u64 vflash_flash_zone_reset(struct vflash_flash *f, u64 lpn, u32 count,
			    u64 now_ns);
void vflash_flash_undo_forget(struct vflash_flash *f);
void vflash_flash_undo_detach(struct vflash_flash *f, struct vflash_undo *u);
u64 vflash_flash_sync_pages(struct vflash_flash *f, u64 lpn, u32 count,
			    u64 now_ns, u64 req_id);
void vflash_flash_maintain(struct vflash_flash *f, u64 now_ns);
int vflash_flash_start_worker(struct vflash_flash *f, const char *name);
void vflash_flash_stop_worker(struct vflash_flash *f);

u64 vflash_flash_nr_lpages(const struct vflash_flash *f);
u64 vflash_flash_stat(struct vflash_flash *f, enum vflash_stat stat);
void vflash_flash_count(struct vflash_flash *f, enum vflash_stat stat, u64 n);
const char *vflash_flash_stat_name(enum vflash_stat stat);
u64 vflash_flash_free_blocks(struct vflash_flash *f, bool slc);
u64 vflash_flash_write_amplification(struct vflash_flash *f);

/**
 * struct vflash_health - what a drive reports about its own wear
 * @life_used_pct: erases as a % of the rated ones, most worn region (may
 *	exceed 100)
 * @spare_pct: spare blocks left, % of new (rounded up: 0 once none left)
 * @spare_blocks: good main-region blocks beyond what the capacity and the
 *	FTL's working blocks need
 * @bad_blocks: blocks retired after a program or erase failure
 * @read_only: no spare block is left, or a host write found no room on
 *	any die: host writes are refused
 */
struct vflash_health {
	u32 life_used_pct;
	u32 spare_pct;
	u32 spare_blocks;
	u32 bad_blocks;
	bool read_only;
};

void vflash_flash_health(struct vflash_flash *f, struct vflash_health *h);
bool vflash_flash_write_refused(struct vflash_flash *f);
bool vflash_flash_out_of_room(const struct vflash_flash *f);
u64 vflash_flash_read_latency_pct(struct vflash_flash *f, u32 per_mille);
u64 vflash_flash_model_read_ns(const struct vflash_flash *f);
void vflash_flash_reset_stats(struct vflash_flash *f);

u64 vflash_flash_knob(const struct vflash_flash *f, enum vflash_knob knob);
int vflash_flash_set_knob(struct vflash_flash *f, enum vflash_knob knob,
			  u64 val);
const char *vflash_flash_knob_name(enum vflash_knob knob);

const struct vflash_policy *vflash_flash_policy(const struct vflash_flash *f,
						enum vflash_policy_kind kind);
int vflash_flash_set_policy(struct vflash_flash *f,
			    const struct vflash_policy *pol);

void vflash_flash_record_lateness(struct vflash_flash *f, u64 due_ns,
				  u64 actual_ns);
u64 vflash_flash_lateness_pct(struct vflash_flash *f, u32 per_mille);
u64 vflash_flash_lateness_max(struct vflash_flash *f);

int vflash_flash_check(struct vflash_flash *f, char *why, size_t size);

/**
 * struct vflash_model - what the model predicts for a profile
 *	(backend_flash/model.c, docs/design/model.md)
 * @read_lat_ns: an idle 4 KiB read
 * @write_lat_ns: an idle 4 KiB write
 * @randread_qd1_iops: 4 KiB random reads, one at a time
 * @randread_sat_iops: the same at @sat_qd
 * @randwrite_qd1_iops: 4 KiB random writes on a new device, one at a time
 * @randwrite_sat_iops: the same at @sat_qd
 * @seqread_mbps: 128 KiB sequential reads at QD 32, 10^6 bytes a second
 * @seqwrite_mbps: 128 KiB sequential writes at QD 32 on a new device
 * @steady_write_iops: 4 KiB random writes at @sat_qd after instant
 *	preconditioning to steady state (GC-bound)
 * @steady_waf_milli: their write amplification, in thousandths
 * @sat_qd: the saturating queue depth (32 a die)
 * @bytes: the scratch model's logical capacity
 */
struct vflash_model {
	u64 read_lat_ns;
	u64 write_lat_ns;
	u64 randread_qd1_iops;
	u64 randread_sat_iops;
	u64 randwrite_qd1_iops;
	u64 randwrite_sat_iops;
	u64 seqread_mbps;
	u64 seqwrite_mbps;
	u64 steady_write_iops;
	u64 steady_waf_milli;
	u32 sat_qd;
	u64 bytes;
};

int vflash_flash_model_predict(const struct vflash_profile *prof,
			       const struct vflash_flash *like,
			       struct vflash_model *m);
int vflash_flash_model_show(const struct vflash_model *m, char *buf,
			    size_t size);

/**
 * enum vflash_img_sect - the flash model's sections of a device image
 * @VFLASH_IMG_FLASH_STATE: geometry, counters, knobs, policies and the
 *	model's other state; one element, before every other section
 * @VFLASH_IMG_L2P: the logical-to-physical table
 * @VFLASH_IMG_P2L: the physical-to-logical table
 * @VFLASH_IMG_HEAT: the read-heat counters
 * @VFLASH_IMG_BLOCKS: every block
 * @VFLASH_IMG_DIES: every die's free lists, open blocks and queues
 * @VFLASH_IMG_FLASH_NR: number of sections
 *
 * docs/design/image.md has the layout of each.
 */
enum vflash_img_sect {
	VFLASH_IMG_FLASH_STATE,
	VFLASH_IMG_L2P,
	VFLASH_IMG_P2L,
	VFLASH_IMG_HEAT,
	VFLASH_IMG_BLOCKS,
	VFLASH_IMG_DIES,
	VFLASH_IMG_FLASH_NR,
};

u32 vflash_flash_img_elem_bytes(struct vflash_flash *f,
				enum vflash_img_sect s);
u64 vflash_flash_img_elems(const struct vflash_flash *f,
			   enum vflash_img_sect s);
int vflash_flash_img_save_begin(struct vflash_flash *f, u64 now_ns);
int vflash_flash_img_get(struct vflash_flash *f, enum vflash_img_sect s,
			 u64 first, u32 nr, void *buf);
int vflash_flash_img_load_begin(struct vflash_flash *f, u64 now_ns);
int vflash_flash_img_put(struct vflash_flash *f, enum vflash_img_sect s,
			 u64 first, u32 nr, const void *buf);
int vflash_flash_img_finish(struct vflash_flash *f, char *why, size_t size);
int vflash_flash_img_reset(struct vflash_flash *f);
int vflash_flash_torture(struct vflash_flash *f, unsigned int threads,
			 u64 ops, char *why, size_t size);

/**
 * enum vflash_pre_workload - what instant preconditioning replays
 * @VFLASH_PRE_SEQ: sequential writes over the filled LBAs, round and round
 * @VFLASH_PRE_RANDOM: uniform random overwrites of the filled LBAs
 * @VFLASH_PRE_HOTCOLD: skewed overwrites: the first hot_lba_pct % of the
 *	filled LBAs take hot_write_pct % of the writes
 * @VFLASH_PRE_NR: number of workloads
 */
enum vflash_pre_workload {
	VFLASH_PRE_SEQ,
	VFLASH_PRE_RANDOM,
	VFLASH_PRE_HOTCOLD,
	VFLASH_PRE_NR,
};

/**
 * enum vflash_pre_replay - how the workload is replayed
 * @VFLASH_PRE_AUTO: one die for all on large devices where it holds
 * @VFLASH_PRE_FULL: every page on the whole device (exact)
 * @VFLASH_PRE_DIE: one die's share on die 0, copied to the others
 * @VFLASH_PRE_TILE: a share of a die on a scratch die of as many fewer
 *	blocks, laid out again and again over every die
 * @VFLASH_PRE_REPLAY_NR: number of modes
 */
enum vflash_pre_replay {
	VFLASH_PRE_AUTO,
	VFLASH_PRE_FULL,
	VFLASH_PRE_DIE,
	VFLASH_PRE_TILE,
	VFLASH_PRE_REPLAY_NR,
};

/**
 * struct vflash_precondition - an instant preconditioning request
 *	(docs/design/precondition.md)
 * @workload: enum vflash_pre_workload
 * @fill_pct: LBAs [0, fill_pct % of the capacity) are written (1-100)
 * @written_pct: host pages written in all, % of the capacity, the first
 *	sequential pass over the filled LBAs included (fill_pct-10000)
 * @hot_lba_pct: hot/cold: the hot share of the filled LBAs (1-99)
 * @hot_write_pct: hot/cold: the writes that go to it (1-99)
 * @pe_cycles: P/E cycles added to every block
 * @age_s: seconds added to every sealed block's data age
 * @seed: the generator's seed
 * @replay: enum vflash_pre_replay
 */
struct vflash_precondition {
	u32 workload;
	u32 fill_pct;
	u32 written_pct;
	u32 hot_lba_pct;
	u32 hot_write_pct;
	u64 pe_cycles;
	u64 age_s;
	u64 seed;
	u32 replay;
};

/**
 * struct vflash_precondition_result - what an instant preconditioning did
 * @done: a run completed
 * @replay: the mode it ran (not VFLASH_PRE_AUTO)
 * @tiles: tiles per die (VFLASH_PRE_TILE), else 0
 * @host_pages: host pages the replay wrote (die: on die 0 alone)
 * @program_pages: slots it programmed
 * @copied_pages: pages GC and migration moved
 * @erased_blocks: blocks it erased
 * @replay_ns: time the replay took
 * @copy_ns: time the copy to the other dies took (die)
 * @check_ns: time the invariant check took
 */
struct vflash_precondition_result {
	bool done;
	u32 replay;
	u32 tiles;
	u64 host_pages;
	u64 program_pages;
	u64 copied_pages;
	u64 erased_blocks;
	u64 replay_ns;
	u64 copy_ns;
	u64 check_ns;
};

int vflash_flash_precondition_parse(struct vflash_flash *f, const char *line,
				    struct vflash_precondition *p);
int vflash_flash_precondition(struct vflash_flash *f,
			      const struct vflash_precondition *p, u64 now_ns);
int vflash_flash_precondition_show(struct vflash_flash *f, char *buf,
				   size_t size);

#endif /* VFLASH_FLASH_H */
