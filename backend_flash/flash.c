// SPDX-License-Identifier: GPL-2.0
/* Creating and destroying a flash device; its knobs and policies. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "backend_flash/ftl.h"

#define SEC_NS		NSEC_PER_SEC
/* Largest write buffer: the per-die FIFOs are sized for it. */
#define WB_MAX_BYTES	(64ULL << 20)
#define WB_DEFAULT_BYTES (4ULL << 20)
/* Rated endurance, typical of data sheets: SLC (and SLC mode), TLC, QLC. */
#define SLC_PE_CYCLES	30000
#define MLC_PE_CYCLES	10000
#define TLC_PE_CYCLES	3000
#define QLC_PE_CYCLES	1000
#define MAX_PE_CYCLES	1000000

/* Read retries: at most 255 per read, coefficients up to 1000 retries. */
#define RETRY_MAX		255
#define RETRY_DEFAULT_MAX	16
#define RETRY_K_MAX		1000000
#define RETRY_AGE_UNIT_MAX_MS	(24ULL * 3600 * 1000)
#define RETRY_AGE_UNIT_DEFAULT_MS 1000

/* Host link: PCIe 3.0 x4 as NVMeVirt models it, 3.36 GB/s. */
#define HOST_XFER_NS	1219

static const struct vflash_knob_range knobs[VFLASH_KNOB_NR] = {
	[VFLASH_KNOB_SLC_READ_NS] = { "slc_read_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_QLC_READ_L_NS] = { "qlc_read_l_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_QLC_READ_CL_NS] = { "qlc_read_cl_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_QLC_READ_CU_NS] = { "qlc_read_cu_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_QLC_READ_U_NS] = { "qlc_read_u_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_MAIN_READ_NS] = { "main_read_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_SLC_PROG_NS] = { "slc_prog_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_MAIN_PROG_NS] = { "main_prog_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_SLC_ERASE_NS] = { "slc_erase_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_MAIN_ERASE_NS] = { "main_erase_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_CHANNEL_XFER_NS] = { "channel_xfer_ns", 0, SEC_NS },
	[VFLASH_KNOB_HOST_XFER_NS] = { "host_xfer_ns", 0, SEC_NS },
	[VFLASH_KNOB_FW_OVERHEAD_NS] = { "fw_overhead_ns", 0, SEC_NS },
	[VFLASH_KNOB_WRITE_BUFFER_BYTES] = { "write_buffer_bytes", 0,
					     WB_MAX_BYTES },
	[VFLASH_KNOB_GC_LOW_PCT] = { "gc_low_pct", 1, 50 },
	[VFLASH_KNOB_GC_HIGH_PCT] = { "gc_high_pct", 1, 99 },
	[VFLASH_KNOB_MIGRATE_HOT_READS] = { "migrate_hot_reads", 1,
					    VFF_HEAT_MAX },
	[VFLASH_KNOB_MAX_DEFER_NS] = { "max_defer_ns", 0, 10 * SEC_NS },
	[VFLASH_KNOB_SLC_PE_CYCLES] = { "slc_pe_cycles", 1, MAX_PE_CYCLES },
	[VFLASH_KNOB_MAIN_PE_CYCLES] = { "main_pe_cycles", 1, MAX_PE_CYCLES },
	[VFLASH_KNOB_HOST_OVERHEAD_NS] = { "host_overhead_ns", 0,
					   NSEC_PER_MSEC },
	[VFLASH_KNOB_PRECONDITION] = { "precondition", 0, 1 },
	[VFLASH_KNOB_READ_RETRY_MAX] = { "read_retry_max", 0, RETRY_MAX },
	[VFLASH_KNOB_READ_RETRY_PE_MILLI] = { "read_retry_pe_milli", 0,
					      RETRY_K_MAX },
	[VFLASH_KNOB_READ_RETRY_AGE_MILLI] = { "read_retry_age_milli", 0,
					       RETRY_K_MAX },
	[VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS] = { "read_retry_age_unit_ms", 1,
						 RETRY_AGE_UNIT_MAX_MS },
	[VFLASH_KNOB_ZONE_DIES] = { "zone_dies", 0, U32_MAX },
};

/**
 * vflash_flash_set_id() - give the device the number trace events carry
 * @f: the device
 * @id: its number N, as in vflashN
 */
void vflash_flash_set_id(struct vflash_flash *f, u32 id)
{
	f->id = id;
}

/**
 * vflash_flash_set_fault_rules() - the fault rules the backend injects from
 * @f: the device
 * @program_fail: the rule of program failures, or NULL for none
 * @erase_fail: the rule of erase failures, or NULL for none
 *
 * Called while no request runs; the rules must outlive every request after
 * the call.
 */
void vflash_flash_set_fault_rules(struct vflash_flash *f,
				  struct vflash_fault_rule *program_fail,
				  struct vflash_fault_rule *erase_fail)
{
	WRITE_ONCE(f->program_fail, program_fail);
	WRITE_ONCE(f->erase_fail, erase_fail);
}

/**
 * vflash_flash_id() - the device's number
 * @f: the device
 *
 * Return: what vflash_flash_set_id() set, else 0.
 */
u32 vflash_flash_id(const struct vflash_flash *f)
{
	return f->id;
}

/**
 * vflash_flash_knob_name() - the config/ file name of a knob
 * @knob: the knob
 *
 * Return: its name, or NULL for an invalid knob.
 */
const char *vflash_flash_knob_name(enum vflash_knob knob)
{
	return knob < VFLASH_KNOB_NR ? knobs[knob].name : NULL;
}

/**
 * vff_knob_range() - a knob's name and range
 * @knob: the knob, below VFLASH_KNOB_NR
 *
 * Return: its entry.
 */
const struct vflash_knob_range *vff_knob_range(enum vflash_knob knob)
{
	return &knobs[knob];
}

/**
 * vflash_knob_in_range() - is a value within a config/ knob's range?
 * @k: the knob's name and range
 * @id: the device's number N (vflashN), for the dmesg line
 * @val: the value
 *
 * Return: true if @k->min <= @val <= @k->max; else false, after one dmesg
 * line naming the knob.
 */
bool vflash_knob_in_range(const struct vflash_knob_range *k, u32 id, u64 val)
{
	if (val >= k->min && val <= k->max)
		return true;
	pr_err("vflash%u: config/%s=%llu: not in %llu-%llu\n", id, k->name, val,
	       k->min, k->max);
	return false;
}

/**
 * vflash_flash_knob() - a knob's current value
 * @f: the device
 * @knob: the knob
 *
 * Return: the value.
 */
u64 vflash_flash_knob(const struct vflash_flash *f, enum vflash_knob knob)
{
	return vff_knob(f, knob);
}

/* Pages written per backend call while preconditioning. */
#define PRECONDITION_BATCH	256

/* So that no page reads as an unwritten page for free; data untouched. */
static void precondition(struct vflash_flash *f)
{
	u64 lpn, n;

	for (lpn = 0; lpn < f->nr_lpages; lpn += n) {
		n = min_t(u64, PRECONDITION_BATCH, f->nr_lpages - lpn);
		vflash_flash_submit(f, VFLASH_IO_WRITE, lpn, n, ktime_get_ns());
		cond_resched();
	}
	vflash_flash_submit(f, VFLASH_IO_FLUSH, 0, 0, ktime_get_ns());
}

/**
 * vflash_flash_set_knob() - change a knob at run time
 * @f: the device
 * @knob: the knob
 * @val: its new value
 *
 * Takes effect for the next request.
 *
 * Return: 0, or -EINVAL (nothing changed, one dmesg line naming the knob)
 * if @val is out of range.
 */
int vflash_flash_set_knob(struct vflash_flash *f, enum vflash_knob knob,
			  u64 val)
{
	if (knob >= VFLASH_KNOB_NR ||
	    !vflash_knob_in_range(&knobs[knob], f->id, val))
		return -EINVAL;
	if ((knob == VFLASH_KNOB_GC_LOW_PCT &&
	     val > vff_knob(f, VFLASH_KNOB_GC_HIGH_PCT)) ||
	    (knob == VFLASH_KNOB_GC_HIGH_PCT &&
	     val < vff_knob(f, VFLASH_KNOB_GC_LOW_PCT))) {
		pr_err("vflash%u: config/%s=%llu: gc_low_pct would be above gc_high_pct\n",
		       f->id, knobs[knob].name, val);
		return -EINVAL;
	}
	if (knob == VFLASH_KNOB_ZONE_DIES && val > f->nr_dies) {
		pr_err("vflash%u: config/%s=%llu: more than the %u dies\n",
		       f->id, knobs[knob].name, val, f->nr_dies);
		return -EINVAL;
	}
	if (knob == VFLASH_KNOB_PRECONDITION && val)
		precondition(f);
	WRITE_ONCE(f->knob[knob], val);
	return 0;
}

/**
 * vff_flash_kind() - does the flash model run policies of this kind?
 * @kind: the kind
 *
 * Return: true for GC, placement, migration and maintenance; false for
 * the others, which are its users' (the DRAM cache's).
 */
bool vff_flash_kind(enum vflash_policy_kind kind)
{
	switch (kind) {
	case VFLASH_POLICY_GC:
	case VFLASH_POLICY_PLACEMENT:
	case VFLASH_POLICY_MIGRATION:
	case VFLASH_POLICY_MAINTENANCE:
		return true;
	default:
		return false;
	}
}

/**
 * vflash_flash_policy() - a device's current policy of a kind
 * @f: the device
 * @kind: the kind
 *
 * Return: the policy, or NULL for a kind the flash model does not run
 * (eviction, prefetch: the device DRAM cache's).
 */
const struct vflash_policy *vflash_flash_policy(const struct vflash_flash *f,
						enum vflash_policy_kind kind)
{
	return vff_flash_kind(kind) ? READ_ONCE(f->policy[kind]) : NULL;
}

/**
 * vflash_flash_set_policy() - switch a device's policy of one kind
 * @f: the device
 * @pol: a registered policy
 *
 * Safe under load: requests in flight finish with the policy they read.
 *
 * Return: 0, or -EINVAL for a policy of a kind the flash model does not
 * run.
 */
int vflash_flash_set_policy(struct vflash_flash *f,
			    const struct vflash_policy *pol)
{
	if (!pol || !vff_flash_kind(pol->kind))
		return -EINVAL;
	WRITE_ONCE(f->policy[pol->kind], pol);
	return 0;
}

/**
 * vflash_flash_nr_lpages() - the device's capacity
 * @f: the device
 *
 * Return: logical (4 KiB) pages.
 */
u64 vflash_flash_nr_lpages(const struct vflash_flash *f)
{
	return f->nr_lpages;
}

static u64 main_pe_cycles(enum vflash_cell cell)
{
	switch (cell) {
	case VFLASH_CELL_SLC:
		return SLC_PE_CYCLES;
	case VFLASH_CELL_MLC:
		return MLC_PE_CYCLES;
	case VFLASH_CELL_TLC:
		return TLC_PE_CYCLES;
	default:
		return QLC_PE_CYCLES;
	}
}

static void init_knobs(struct vflash_flash *f)
{
	const struct vflash_profile *p = f->prof;
	unsigned int t;

	f->knob[VFLASH_KNOB_SLC_READ_NS] = p->read_ns;
	for (t = 0; t < 4; t++)
		f->knob[VFLASH_KNOB_QLC_READ_L_NS + t] =
			p->qlc_read_ns[t] ? p->qlc_read_ns[t] : p->read_ns;
	f->knob[VFLASH_KNOB_MAIN_READ_NS] = p->read_ns;
	f->knob[VFLASH_KNOB_SLC_PROG_NS] = p->slc_prog_ns;
	f->knob[VFLASH_KNOB_MAIN_PROG_NS] = p->prog_ns;
	f->knob[VFLASH_KNOB_SLC_ERASE_NS] = p->slc_erase_ns;
	f->knob[VFLASH_KNOB_MAIN_ERASE_NS] = p->erase_ns;
	f->knob[VFLASH_KNOB_CHANNEL_XFER_NS] = p->xfer_ns_per_4k;
	f->knob[VFLASH_KNOB_HOST_XFER_NS] = HOST_XFER_NS;
	f->knob[VFLASH_KNOB_FW_OVERHEAD_NS] = p->fw_overhead_ns;
	f->knob[VFLASH_KNOB_WRITE_BUFFER_BYTES] = p->write_buffer_bytes ?
		min(p->write_buffer_bytes, WB_MAX_BYTES) : WB_DEFAULT_BYTES;
	f->knob[VFLASH_KNOB_GC_LOW_PCT] = 5;
	f->knob[VFLASH_KNOB_GC_HIGH_PCT] = 15;
	f->knob[VFLASH_KNOB_MIGRATE_HOT_READS] = 4;
	f->knob[VFLASH_KNOB_MAX_DEFER_NS] = 10ULL * NSEC_PER_MSEC;
	f->knob[VFLASH_KNOB_SLC_PE_CYCLES] = SLC_PE_CYCLES;
	f->knob[VFLASH_KNOB_MAIN_PE_CYCLES] = main_pe_cycles(p->cell);
	f->knob[VFLASH_KNOB_HOST_OVERHEAD_NS] = 0;
	f->knob[VFLASH_KNOB_READ_RETRY_MAX] = RETRY_DEFAULT_MAX;
	f->knob[VFLASH_KNOB_READ_RETRY_AGE_UNIT_MS] = RETRY_AGE_UNIT_DEFAULT_MS;
}

static int plan_geometry(struct vflash_flash *f, u64 size_bytes)
{
	const struct vflash_profile *p = f->prof;
	u64 main_blocks, main_pd, slc_pd = 0, total, need;
	u32 op_pct = p->op_pct ? p->op_pct : VFLASH_DEFAULT_OP_PCT;
	u32 streams;

	if (!p->channels || !p->dies_per_channel || !p->pages_per_block ||
	    !p->flash_page_bytes || p->flash_page_bytes % VFLASH_LPAGE_SIZE)
		return -EINVAL;
	f->nr_lpages = size_bytes >> VFLASH_LPAGE_SHIFT;
	if (!f->nr_lpages || p->placement_handles > VFLASH_FLASH_MAX_PLACEMENT)
		return -EINVAL;
	f->nr_ph = max(p->placement_handles, 1U);
	streams = vff_streams(f->nr_ph);
	f->nr_channels = p->channels;
	f->nr_dies = p->channels * p->dies_per_channel;
	f->lpp = p->flash_page_bytes / VFLASH_LPAGE_SIZE;
	f->hybrid = p->slc_cache;
	f->slots[VFF_MAIN] = p->pages_per_block * f->lpp;
	f->unit[VFF_MAIN] = f->lpp * (p->cell == VFLASH_CELL_QLC ? 4 : 1);
	if (f->slots[VFF_MAIN] % f->unit[VFF_MAIN])
		return -EINVAL;
	f->stride = f->slots[VFF_MAIN];
	f->unit[VFF_SLC] = f->lpp;
	/* An SLC-mode block stores one bit per cell: a quarter of QLC's. */
	f->slots[VFF_SLC] = f->hybrid ?
		max(f->lpp, rounddown(f->slots[VFF_MAIN] / 4, f->lpp)) : 0;

	main_blocks = DIV_ROUND_UP(f->nr_lpages * (100 + op_pct),
				   100ULL * f->slots[VFF_MAIN]);
	/*
	 * The open blocks of every stream come on top of the capacity's
	 * share: docs/design/fdp.md argues why GC then always finds a victim.
	 */
	main_pd = DIV_ROUND_UP(main_blocks, f->nr_dies) + streams +
		  VFF_GC_RESERVE;
	main_pd = max_t(u64, main_pd, vff_min_blocks(f->nr_ph));
	/* At least one spare block (spare_new), whatever the rounding. */
	need = DIV_ROUND_UP_ULL(f->nr_lpages, f->slots[VFF_MAIN]);
	main_pd = max_t(u64, main_pd, DIV_ROUND_UP(need + 1, f->nr_dies) +
			streams + VFF_GC_RESERVE);
	if (f->hybrid) {
		slc_pd = DIV_ROUND_UP(DIV_ROUND_UP(f->nr_lpages, VFF_SLC_FRACTION),
				      (u64)f->slots[VFF_SLC] * f->nr_dies);
		slc_pd = max_t(u64, slc_pd, vff_min_blocks(f->nr_ph));
	}
	total = (main_pd + slc_pd) * f->nr_dies;
	/* Slot numbers are u32, VFF_INVALID excluded. */
	if (total * f->stride >= U32_MAX || f->nr_lpages >= U32_MAX)
		return -E2BIG;
	f->slc_per_die = slc_pd;
	f->blocks_per_die = main_pd + slc_pd;
	f->nr_blocks = total;
	f->p2l_per_die = slc_pd * f->slots[VFF_SLC] + main_pd * f->slots[VFF_MAIN];
	/* A p2l entry holds the page's group: lpn >> p2l_shift. */
	f->p2l_shift = max_t(int, fls64(f->nr_lpages - 1) - VFF_P2L_BITS, 0);
	/* Main-region blocks beyond the capacity's and the FTL's working set. */
	f->spare_new = main_pd * f->nr_dies - need -
		       (u64)f->nr_dies * (streams + VFF_GC_RESERVE);

	f->wb_cap = div_u64(WB_MAX_BYTES, VFLASH_LPAGE_SIZE * f->nr_dies);
	f->wb_cap = max(f->wb_cap, 2 * f->unit[VFF_MAIN]);
	f->wb_fifo_len = f->wb_cap / f->lpp + 2;
	return 0;
}

static u64 l2p_bytes(const struct vflash_flash *f)
{
	return f->nr_lpages * sizeof(*f->l2p);
}

static u64 p2l_bytes(const struct vflash_flash *f)
{
	return (u64)f->nr_dies * f->p2l_per_die * VFF_P2L_BYTES;
}

static u64 heat_bytes(const struct vflash_flash *f)
{
	return vff_heat_bytes(f->nr_lpages);
}

static u64 blocks_bytes(const struct vflash_flash *f)
{
	return (u64)f->nr_blocks * sizeof(*f->blocks);
}

static u64 table_bytes(const struct vflash_flash *f)
{
	return l2p_bytes(f) + p2l_bytes(f) + heat_bytes(f) + blocks_bytes(f);
}

/**
 * vflash_flash_metadata_bytes() - host memory the FTL's tables take
 * @prof: the flash model
 * @size_bytes: the capacity
 * @bytes: the tables' size
 *
 * Return: 0, or what vflash_flash_create() would fail with for this
 * capacity (-EINVAL, -E2BIG, -ENOMEM).
 */
int vflash_flash_metadata_bytes(const struct vflash_profile *prof,
				u64 size_bytes, u64 *bytes)
{
	struct vflash_flash *f = kzalloc(sizeof(*f), GFP_KERNEL);
	int ret;

	if (!f)
		return -ENOMEM;
	f->prof = prof;
	ret = plan_geometry(f, size_bytes);
	if (!ret)
		*bytes = table_bytes(f);
	kfree(f);
	return ret;
}

/* Tables of a large device are filled this much at a time. */
#define FILL_STEP_BYTES	(4UL << 20)

/*
 * A large table, not zeroed by the allocator: vflash never waits for the
 * OOM killer at load, and fills it itself in steps (fill_table()).
 */
static void *alloc_table(u64 bytes)
{
	if (bytes > SIZE_MAX)
		return NULL;
	return __vmalloc(max_t(u64, bytes, 1), GFP_KERNEL |
			 __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
}

/* @intr: a fatal signal stops it (a load that can be given up). */
static int fill_table(void *table, int c, u64 bytes, bool intr)
{
	u64 off;

	for (off = 0; off < bytes; off += FILL_STEP_BYTES) {
		memset(table + off, c, min_t(u64, bytes - off,
					     FILL_STEP_BYTES));
		if (intr && fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

static int alloc_tables(struct vflash_flash *f)
{
	u32 d;

	f->l2p = alloc_table(l2p_bytes(f));
	f->p2l = alloc_table(p2l_bytes(f));
	f->heat = alloc_table(heat_bytes(f));
	f->blocks = alloc_table(blocks_bytes(f));
	f->dies = kcalloc(f->nr_dies, sizeof(*f->dies), GFP_KERNEL);
	f->channels = kcalloc(f->nr_channels, sizeof(*f->channels),
			      GFP_KERNEL);
	f->stats = alloc_percpu(struct vff_stats);
	if (!f->l2p || !f->p2l || !f->heat || !f->blocks || !f->dies ||
	    !f->channels || !f->stats)
		return -ENOMEM;
	for (d = 0; d < f->nr_channels; d++)
		spin_lock_init(&f->channels[d].link.lock);
	for (d = 0; d < f->nr_dies; d++) {
		struct vff_die *die = &f->dies[d];

		spin_lock_init(&die->lock);
		die->wb_end_ns = kcalloc(f->wb_fifo_len,
					 sizeof(*die->wb_end_ns), GFP_KERNEL);
		die->wb_slots = kcalloc(f->wb_fifo_len,
					sizeof(*die->wb_slots), GFP_KERNEL);
		if (!die->wb_end_ns || !die->wb_slots)
			return -ENOMEM;
	}
	return 0;
}

/**
 * vff_init_die() - a die as a new device has it: every block free, nothing
 *	open or queued
 * @f: the device, quiescent
 * @d: the die
 *
 * Blocks' erase counts, valid counts and write pointers are left alone.
 */
void vff_init_die(struct vflash_flash *f, u32 d)
{
	struct vff_die *die = &f->dies[d];
	u32 s, r, b;

	die->trace_req = 0;
	die->busy_until_ns = 0;
	die->fg_busy_until_ns = 0;
	die->deferred_ns = 0;
	memset(die->wb_end_ns, 0, f->wb_fifo_len * sizeof(*die->wb_end_ns));
	memset(die->wb_slots, 0, f->wb_fifo_len * sizeof(*die->wb_slots));
	die->wb_head = 0;
	die->wb_count = 0;
	die->wb_used = 0;
	die->wb_pending = 0;
	die->durable_ns = 0;
	memset(die->bg_start_ns, 0, sizeof(die->bg_start_ns));
	memset(die->bg_end_ns, 0, sizeof(die->bg_end_ns));
	die->bg_last = 0;
	die->channel = d % f->nr_channels;
	die->undo_used = false;
	for (s = 0; s < VFF_NR_STREAMS; s++)
		for (r = 0; r < VFF_NR_REGIONS; r++)
			die->open[s][r] = VFF_INVALID;
	for (r = 0; r < VFF_NR_REGIONS; r++) {
		die->free_head[r] = VFF_INVALID;
		die->nr_free[r] = 0;
	}
	for (b = f->blocks_per_die; b-- > 0;) {
		u32 blk = d * f->blocks_per_die + b;

		r = vff_region_of(f, blk);
		f->blocks[blk].state = VFF_BLK_FREE;
		f->blocks[blk].next = die->free_head[r];
		die->free_head[r] = blk;
		die->nr_free[r]++;
	}
}

/* The default policies, all or none (a kind without one: -EINVAL). */
static int init_policies(struct vflash_flash *f)
{
	const struct vflash_policy *pol[VFLASH_POLICY_NR] = {};
	unsigned int k;

	for (k = 0; k < VFLASH_POLICY_NR; k++) {
		if (!vff_flash_kind(k))
			continue;
		pol[k] = vflash_policy_default(k);
		if (!pol[k])
			return -EINVAL;
	}
	memcpy(f->policy, pol, sizeof(pol));
	return 0;
}

/**
 * vff_init_state() - the state of a new device, over tables allocated
 * @f: the device; no request in flight, the worker stopped
 * @intr: a fatal signal may stop it (vflash_flash_create(): the load is
 *	given up); a refused restore's reset (image.c) always completes
 *
 * What vflash_flash_create() starts from, and how a refused restore
 * goes back to it.
 *
 * Return: 0, -EINTR (@intr: a fatal signal while filling a large table),
 * -EINVAL (a policy kind without its default).
 */
int vff_init_state(struct vflash_flash *f, bool intr)
{
	u64 start = ktime_get_ns(), ms;
	unsigned int k;
	int cpu, ret;
	u32 d;

	ret = fill_table(f->l2p, 0xff, l2p_bytes(f), intr);
	/* p2l needs no marker (vff_p2l_owner()); filled to be defined. */
	if (!ret)
		ret = fill_table(f->p2l, 0xff, p2l_bytes(f), intr);
	if (!ret)
		ret = fill_table(f->heat, 0, heat_bytes(f), intr);
	if (!ret)
		ret = fill_table(f->blocks, 0, blocks_bytes(f), intr);
	if (ret)
		return ret;
	ms = div_u64(ktime_get_ns() - start, NSEC_PER_MSEC);
	if (ms > MSEC_PER_SEC)
		pr_info("FTL tables of %llu MiB set up in %llu ms\n",
			table_bytes(f) >> 20, ms);

	for (d = 0; d < f->nr_channels; d++)
		vff_link_reset(&f->channels[d].link, 0);
	for (d = 0; d < f->nr_dies; d++)
		vff_init_die(f, d);
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(f->stats, cpu), 0, sizeof(*f->stats));
	vff_link_reset(&f->host, 0);
	atomic64_set(&f->seal_seq, 0);
	atomic64_set(&f->cursor, 0);
	atomic64_set(&f->req_id, 0);
	for (k = 0; k < VFF_NR_REGIONS; k++)
		atomic_set(&f->nr_bad[k], 0);
	f->no_room = false;
	for (k = 0; k < VFLASH_FLASH_MAX_PLACEMENT; k++) {
		atomic64_set(&f->ph_moved[k], 0);
		f->ph_moved_lpn[k] = 0;
		atomic64_set(&f->ph_retired[k], 0);
	}
	memset(f->zmap, 0, sizeof(f->zmap));
	f->zone_ph = false;
	f->age_base_ns = 0;
	f->img_state_in = false;
	init_knobs(f);
	return init_policies(f);
}

/**
 * vflash_flash_destroy() - free a device made by vflash_flash_create()
 * @f: the device, or NULL; no request may be in flight
 */
void vflash_flash_destroy(struct vflash_flash *f)
{
	u32 d;

	if (!f)
		return;
	vflash_flash_stop_worker(f);
	if (f->dies) {
		for (d = 0; d < f->nr_dies; d++) {
			kfree(f->dies[d].wb_end_ns);
			kfree(f->dies[d].wb_slots);
		}
	}
	kfree(f->undo_wait);
	free_percpu(f->stats);
	kfree(f->channels);
	kfree(f->dies);
	vfree(f->blocks);
	vfree(f->heat);
	vfree(f->p2l);
	vfree(f->l2p);
	kfree(f);
}

/*
 * A model of @prof with its locks and the geometry planned for
 * @size_bytes (*@ret: plan_geometry()'s result); NULL without memory.
 */
static struct vflash_flash *flash_alloc(const struct vflash_profile *prof,
					u64 size_bytes, int *ret)
{
	struct vflash_flash *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->prof = prof;
	spin_lock_init(&f->host.lock);
	mutex_init(&f->maint_lock);
	*ret = plan_geometry(f, size_bytes);
	return f;
}

/**
 * vff_create_tile() - a device of a profile's geometry but for its blocks
 *	per die, given
 * @prof: the flash model (its channels and dies give the tile's dies)
 * @lpages: logical pages
 * @main_pd: main-region blocks per die
 * @slc_pd: SLC blocks per die (0 without an SLC region)
 *
 * For instant preconditioning's tile (precondition.c): a device as
 * vflash_flash_create() makes it, with the block counts of a share of
 * another device's die. No worker.
 *
 * Return: the device, or an ERR_PTR().
 */
struct vflash_flash *vff_create_tile(const struct vflash_profile *prof,
				     u64 lpages, u32 main_pd, u32 slc_pd)
{
	struct vflash_flash *f;
	int ret;

	f = flash_alloc(prof, lpages << VFLASH_LPAGE_SHIFT, &ret);
	if (!f)
		return ERR_PTR(-ENOMEM);
	if (!ret && (main_pd < vff_min_blocks(f->nr_ph) ||
		     (f->hybrid && slc_pd < vff_min_blocks(f->nr_ph)) ||
		     (u64)(main_pd + slc_pd) * f->nr_dies * f->stride >= U32_MAX))
		ret = -EINVAL;
	if (!ret) {
		f->slc_per_die = f->hybrid ? slc_pd : 0;
		f->blocks_per_die = main_pd + f->slc_per_die;
		f->nr_blocks = f->blocks_per_die * f->nr_dies;
		f->p2l_per_die = f->slc_per_die * f->slots[VFF_SLC] +
				 main_pd * f->slots[VFF_MAIN];
		f->spare_new = 0;
		ret = alloc_tables(f);
	}
	if (!ret)
		ret = vff_init_state(f, true);
	if (!ret)
		ret = vff_undo_alloc(f);
	if (ret) {
		vflash_flash_destroy(f);
		return ERR_PTR(ret);
	}
	return f;
}

/**
 * vflash_flash_create() - a flash device of a profile and capacity
 * @prof: the flash model
 * @size_bytes: the capacity, a multiple of 4 KiB
 *
 * No worker runs until vflash_flash_start_worker().
 *
 * Return: the device, or ERR_PTR(-EINVAL) for an unusable profile,
 * ERR_PTR(-E2BIG) for a capacity the FTL cannot address, ERR_PTR(-ENOMEM).
 */
struct vflash_flash *vflash_flash_create(const struct vflash_profile *prof,
					 u64 size_bytes)
{
	struct vflash_flash *f;
	int ret;

	f = flash_alloc(prof, size_bytes, &ret);
	if (!f)
		return ERR_PTR(-ENOMEM);
	if (!ret)
		ret = alloc_tables(f);
	if (!ret)
		ret = vff_init_state(f, true);
	if (!ret)
		ret = vff_undo_alloc(f);
	if (ret)
		goto err;
	return f;
err:
	vflash_flash_destroy(f);
	return ERR_PTR(ret);
}
