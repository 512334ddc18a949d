/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NVMe frontend (docs/design/nvme.md, docs/nvme.md). The dispatcher
 * thread owns the controller state; only the PCI config space is shared
 * with the PCI core, under cfg_lock.
 */
#ifndef VFLASH_NVME_H
#define VFLASH_NVME_H

#include <linux/cpumask.h>
#include <linux/irqdomain.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/notifier.h>
#include <linux/nvme.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "backend_flash/flash.h"
#include "frontend_nvme/fdp.h"
#include "frontend_nvme/ns.h"
#include "frontend_nvme/proto.h"
#include "frontend_nvme/zns.h"

struct vflash_dev;
struct vfn_ctrl;

#define VFN_VENDOR_ID		0x1234
#define VFN_DEVICE_ID		0x5646
#define VFN_BAR_ORDER		2		/* 16 KiB */
#define VFN_BAR_SIZE		(PAGE_SIZE << VFN_BAR_ORDER)
#define VFN_DB_OFF		0x1000
#define VFN_MSIX_TBL_OFF	0x2000
#define VFN_MSIX_PBA_OFF	0x3000
#define VFN_INFLIGHT		4096		/* per completion heap */
#define VFN_CFG_SIZE		256
#define VFN_MAX_WORKERS		8
#define VFN_AERL		3		/* AERs held: AERL + 1 */
#define VFN_AEN_QUEUE		8		/* events kept for later AERs */
#define VFN_AEC_ZONE_CHANGED	BIT(27)
#define VFN_AER_ZONE_CHANGED	0xef

/**
 * struct vfn_features - the Set Features values a controller holds
 * @arbitration: FID 01h CDW11: AB, LPW, MPW, HPW
 * @power_mgmt: FID 02h: PS (always 0: NPSS = 0) and WH
 * @temp_over: FID 04h: composite temperature over threshold, kelvin
 * @temp_under: FID 04h: its under threshold
 * @err_recovery: FID 05h: TLER (DULBE is not supported)
 * @wce: FID 06h: volatile write cache enabled
 * @irq_coalesce: FID 08h: THR and TIME
 * @irq_cd: FID 09h: Coalescing Disable, per interrupt vector
 * @write_atomic: FID 0Ah: DN
 * @async_event: FID 0Bh: the SMART critical warnings to report
 *
 * Reset to vfn_features_default() at every controller reset; nothing is
 * saveable.
 */
struct vfn_features {
	u32 arbitration;
	u32 power_mgmt;
	u16 temp_over;
	u16 temp_under;
	u32 err_recovery;
	bool wce;
	u32 irq_coalesce;
	DECLARE_BITMAP(irq_cd, VFN_NR_VEC);
	u32 write_atomic;
	u32 async_event;
};

/**
 * struct vfn_cmd - a command whose completion is due later
 * @id: an I/O command's request id (its trace events'), else 0
 * @due_ns: when it is to be posted; pushed back while its CQ is full
 * @model_due_ns: the model's completion time, kept for the lateness
 * @lpn: first logical page of an I/O command (trace events)
 * @cqe: result, SQ id and command id of the completion entry to post
 * @sc: its status code (with DNR), host order, without the phase tag
 * @cqid: the completion queue it goes to
 * @gen: that queue's generation when the command was fetched
 * @count: the I/O command's logical pages
 * @op: the backend operation of an I/O command (enum vflash_io)
 * @timed: an I/O command the model timed: its lateness is counted
 * @wait_sq: a Delete I/O SQ's completion: the SQ it deleted, whose
 *	executed commands are all posted before it; else 0
 */
struct vfn_cmd {
	u64 id;
	u64 due_ns;
	u64 model_due_ns;
	u64 lpn;
	struct nvme_completion cqe;
	u16 sc;
	u16 cqid;
	u32 gen;
	u32 count;
	u8 op;
	bool timed;
	u16 wait_sq;
};

/**
 * struct vfn_heap - completions awaiting their due time
 * @lock: protects @cmd and @nr (the dispatcher pushes, the owner pops)
 * @cmd: a min-heap on due_ns, VFN_INFLIGHT entries
 * @nr: entries used
 * @task: the thread that posts them: a completion worker, or the
 *	dispatcher for heap 0
 * @ctrl: the controller
 */
struct vfn_heap {
	spinlock_t lock;	/* see the kernel-doc above */
	struct vfn_cmd *cmd;
	u32 nr;
	struct task_struct *task;
	struct vfn_ctrl *ctrl;
};

/**
 * struct vfn_ctrl_ops - the pieces of a controller that dispatch.c runs
 * @admin: execute one admin command (admin.c: vfn_admin())
 * @admin_reset: return the admin command set's state to its defaults at
 *	a controller reset (admin.c: vfn_admin_reset())
 * @io: execute one NVM command (io.c: vfn_io())
 * @raise_irq: signal a completion queue's MSI-X vector (pci.c:
 *	vfn_raise_irq())
 * @tick: the dispatcher's housekeeping, once per pass while enabled; cheap
 *	unless due; may be NULL
 * @power_cut: at a power cut, take back what was not durable; returns
 *	the page writes taken back
 * @discard: deallocate a block range (vfn_io_discard())
 * @program: program blocks the store holds already (vfn_io_program())
 *
 * The core calls the folder's other files only through this table, as the
 * nvme host driver's core.c calls pci.c: calls run one way
 * (docs/design/architecture.md).
 */
struct vfn_ctrl_ops {
	void (*admin)(struct vfn_ctrl *c, const struct nvme_command *cmd,
		      struct vfn_cmd *out);
	void (*admin_reset)(struct vfn_ctrl *c);
	void (*io)(struct vfn_ctrl *c, const struct nvme_command *cmd,
		   struct vfn_cmd *out, u64 now);
	void (*raise_irq)(struct vfn_ctrl *c, u16 vector);
	void (*tick)(struct vfn_ctrl *c, u64 now);
	u64 (*power_cut)(struct vfn_ctrl *c, u64 now);
	bool (*discard)(struct vfn_ctrl *c, const struct vfn_io_req *r,
			u64 now, u64 *due_ns, bool zone, bool always);
	u16 (*program)(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		       const struct vfn_io_req *r, u64 now, u64 *due_ns);
};

/**
 * struct vfn_ctrl - one virtual controller
 * @vdev: the vflash device it exposes
 * @ops: its command sets and interrupt line, immutable
 * @bar: BAR0, in reserved pages we allocated (device side: direct map)
 * @bar_page: its first page
 * @cfg: PCI configuration space image
 * @cfg_wmask: writable bits of @cfg
 * @cfg_lock: protects @cfg and @bar_sizing against the PCI core's
 *	lockless config accessors
 * @bar_sizing: BAR0 dword(s) in the sizing step (bit 0 low, bit 1 high)
 * @irq_gate: Bus Master and MSI-X enabled, the function not masked, as
 *	@cfg says: written under @cfg_lock with every change of @cfg, read
 *	without it (vfn_raise_irq())
 * @sysdata: x86 PCI host bridge data (domain)
 * @bus: our root bus
 * @pdev: the function on it
 * @hm: host memory as the device may touch it (not BAR0, not holes)
 * @nst: the namespaces (Namespace Management), their formats, places
 *	and zones; dispatcher only
 * @zreport: a Report Zones buffer of VFN_MAX_XFER_BYTES; dispatcher only
 * @nr_zph: with zoned=1 the backend's placement handles, else 0; handles
 *	1 to @nr_zph - 1 are lent to active zones
 * @zph: per handle, the zone it is lent to, or NULL; dispatcher only
 * @fdp: Flexible Data Placement (off: @fdp.nruh 0); dispatcher only
 * @enabled: CC.EN as last seen by the dispatcher
 * @bad_enable: an enable refused with CSTS.CFS and the registers it had:
 *	polling BAR0 sees a CC.EN 1 -> 0 -> 1 only as new registers
 * @iocs: CC.CSS selected every I/O command set (110b) at the enable
 * @shutdown: CC.SHN acted on: nothing more is fetched
 * @shn_done_ns: while a shutdown is processing (SHST 01b), when its
 *	programs end; 0 otherwise
 * @shut_clean: a shutdown completed since the last enable: a power cut
 *	now is not an unsafe shutdown
 * @sq: submission queues, 0 = admin; dispatcher only (the head is read
 *	by the posting threads with READ_ONCE)
 * @cq: completion queues, 0 = admin; each under its @cq_lock
 * @cq_lock: protects the matching @cq's tail, phase, head, live and gen
 *	against the dispatcher (create, delete, reset) and whichever thread
 *	posts to it
 * @sq_scan: one past the highest SQ id created since the last reset
 *	(dispatcher only)
 * @granted_ioq: VFN_MAX_IOQ once Set Features Number of Queues was
 *	accepted, 0 before
 * @heap: completion heaps: 0 for the dispatcher (admin, and I/O when
 *	there are no workers), 1..@nr_workers for the completion workers
 * @nr_workers: completion workers
 * @cq_heap: per CQ id, the index in @heap of the thread that posts to it
 * @cpus: CPUs the threads are bound to, round-robin; empty: unbound
 * @last_busy_ns: when a command was last fetched or a completion posted;
 *	READ_ONCE and WRITE_ONCE: the dispatcher and the workers write it
 * @poll_idle_ns: idle time after which it sleeps between polls
 * @nap_max_us: its longest nap between polls once long idle
 * @napping: the dispatcher is in an idle nap: whoever posts wakes it
 * @spin_ns: a completion due sooner than this is waited for by spinning
 * @wce: a copy of @feat.wce for the I/O path
 * @feat: the Set Features values; dispatcher only
 * @feat_gen: the admin CQ generation @feat was last reset for
 * @host_read_cmds: Read and Compare commands executed, for SMART
 * @host_write_cmds: Write commands executed, for SMART
 * @host_read_units: 512-byte units those Reads and Compares moved
 * @host_write_units: 512-byte units those Writes moved
 * @attach_ns: when the controller came up, for SMART power-on hours
 * @powered_ns: how long it was up before that, over earlier attaches
 * @nr_aer: asynchronous event requests held
 * @aer_cid: their command ids, completed (aborted) at shutdown
 * @aen_queue: events no request was held for (completion dword 0),
 *	oldest first; one of each kind at most, masked until the host reads
 *	its log, so none is lost
 * @aen_nr: events in @aen_queue
 * @zone_aen_masked: a Zone Descriptor Changed event is unread
 * @ns_aen_masked: a Namespace Attribute Changed event is unread
 * @zrec_next_ns: when the tick next looks for Finish or Reset Recommended
 * @zrec_next_ns: when the dispatcher's tick next looks for zones due a
 *	Finish or Reset Recommended attribute (vfn_zones_recommend())
 * @ident: scratch page for Identify and log data
 * @buf: the current command's mapped host buffer
 * @ctrl_id: instance number, for serial and NQN
 * @pci_nb: watches the PCI bus for our function being (re)added
 * @msi_domain: the PCI-MSI interrupt domain of our function
 * @hwirq_base: its hardware interrupt number for MSI-X entry 0 there
 * @raise: dispatcher only: CQs whose vector it owes an interrupt
 * @unpowered: the power is cut (dispatcher writes; read by the power
 *	work and the config accessors): nothing is fetched or posted
 * @absent: the function is gone from the bus while @unpowered: config
 *	reads return all ones; READ_ONCE/WRITE_ONCE
 * @dying: the device is being detached: no new power cut
 * @cut_state: a power cut asked of the dispatcher (enum vfn_cut_state),
 *	changed with cmpxchg(): the cut hook moves it from NONE to REQUESTED
 *	(or back, withdrawing a request not taken in time), the dispatcher
 *	from REQUESTED to TAKEN, and to NONE (release, @power_wq woken)
 *	once the power is cut
 * @power_wq: where the cut hook waits for @cut_state to return to NONE
 * @cut_clock: NULL, or a KUnit seam a power cut reads its instant from
 * @power_work: removes the function as a surprise removal would, powers
 *	the controller up again and rescans the bus
 * @power_cycles: power-ups after the first, for SMART (power work)
 * @unsafe_shutdowns: power cuts without a completed shutdown before them,
 *	for SMART (dispatcher)
 * @cq_backoff_ns: under the matching @cq_lock: how long a completion that
 *	found the CQ full waits before the next try (0 after a success)
 * @sq_db: per SQ, when the dispatcher first saw its commands (trace
 *	only); dispatcher only, cleared at Create I/O SQ
 * @tag: the I/O command being executed: its request id, queue, command
 *	id and doorbell times, for its submits (io.c); dispatcher only
 */
struct vfn_ctrl {
	struct vfn_nstab nst;
	void *zreport;
	u32 nr_zph;
	struct vfn_zone *zph[VFLASH_FLASH_MAX_PLACEMENT];
	struct vfn_fdp fdp;
	u64 host_read_cmds;
	u64 host_write_cmds;
	u64 host_read_units;
	u64 host_write_units;
	u64 powered_ns;
	u64 power_cycles;
	u64 unsafe_shutdowns;
	struct vflash_dev *vdev;
	const struct vfn_ctrl_ops *ops;
	void *bar;
	struct page *bar_page;
	u8 cfg[VFN_CFG_SIZE];
	u8 cfg_wmask[VFN_CFG_SIZE];
	raw_spinlock_t cfg_lock;	/* see the kernel-doc above */
	u8 bar_sizing;
	bool irq_gate;
#ifdef CONFIG_X86	/* KUnit builds admin.c for UML, without pci.c */
	struct pci_sysdata sysdata;
#endif
	struct pci_bus *bus;
	struct pci_dev *pdev;
	struct vfn_hostmem hm;
	bool enabled;
	struct {
		bool refused;
		u32 cc, aqa;
		u64 asq, acq;
	} bad_enable;
	bool iocs;
	bool shutdown;
	u64 shn_done_ns;
	bool shut_clean;
	struct vfn_queue sq[VFN_MAX_IOQ + 1];
	struct vfn_queue cq[VFN_MAX_IOQ + 1];
	spinlock_t cq_lock[VFN_MAX_IOQ + 1];	/* see the kernel-doc above */
	u32 sq_scan;
	u32 granted_ioq;
	struct vfn_heap heap[VFN_MAX_WORKERS + 1];
	u32 nr_workers;
	u8 cq_heap[VFN_MAX_IOQ + 1];
	cpumask_var_t cpus;
	u64 last_busy_ns;
	u64 poll_idle_ns;
	u32 nap_max_us;
	u64 spin_ns;
	bool napping;
	bool wce;
	struct vfn_features feat;
	u32 feat_gen;
	u64 attach_ns;
	u32 nr_aer;
	__u16 aer_cid[VFN_AERL + 1];
	u32 aen_queue[VFN_AEN_QUEUE];
	u32 aen_nr;
	bool zone_aen_masked;
	bool ns_aen_masked;
	u64 zrec_next_ns;
	void *ident;
	struct vfn_buf buf;
	int ctrl_id;
	struct notifier_block pci_nb;
	struct irq_domain *msi_domain;
	irq_hw_number_t hwirq_base;
	DECLARE_BITMAP(raise, VFN_MAX_IOQ + 1);
	bool unpowered;
	bool absent;
	bool dying;
	int cut_state;
	wait_queue_head_t power_wq;
	u64 (*cut_clock)(struct vfn_ctrl *c);
	struct work_struct power_work;
	u64 cq_backoff_ns[VFN_MAX_IOQ + 1];
	struct vfn_db_marks sq_db[VFN_MAX_IOQ + 1];
	struct vflash_req_tag tag;
};

/*
 * What a real drive keeps across power cycles, which a hold keeps
 * (docs/design/image.md): the members of struct vfn_ctrl from @nst to
 * @unsafe_shutdowns, its first. A detach frees the rest; the next attach
 * zeroes the rest and builds it again over these.
 */
#define VFN_KEPT_BYTES	offsetofend(struct vfn_ctrl, unsafe_shutdowns)

/* vfn_ctrl.cut_state: a cut the cut hook asked of the dispatcher. */
enum vfn_cut_state {
	VFN_CUT_NONE,
	VFN_CUT_REQUESTED,
	VFN_CUT_TAKEN,
};

#define VFN_CQ_BACKOFF_MIN_NS	2000
#define VFN_CQ_BACKOFF_MAX_NS	1000000

static inline u32 vfn_reg32(struct vfn_ctrl *c, u32 off)
{
	return READ_ONCE(*(u32 *)(c->bar + off));
}

static inline void vfn_set_reg32(struct vfn_ctrl *c, u32 off, u32 val)
{
	WRITE_ONCE(*(u32 *)(c->bar + off), val);
}

static inline u64 vfn_reg64(struct vfn_ctrl *c, u32 off)
{
	return vfn_reg32(c, off) | (u64)vfn_reg32(c, off + 4) << 32;
}

/**
 * vfn_host_allows_dma() - may the device touch host memory now?
 * @c: the controller
 *
 * True while CC.EN and Bus Master Enable are set; once either is cleared
 * the host may take back every queue and buffer. A config byte is written
 * whole under cfg_lock, so one READ_ONCE of it needs no lock.
 */
static inline bool vfn_host_allows_dma(struct vfn_ctrl *c)
{
	return (vfn_reg32(c, NVME_REG_CC) & NVME_CC_ENABLE) &&
	       (READ_ONCE(c->cfg[PCI_COMMAND]) & PCI_COMMAND_MASTER);
}

/* The controller's time for FDP events: milliseconds since it came up. */
static inline u64 vfn_ctrl_ms(const struct vfn_ctrl *c, u64 now)
{
	return div_u64(now - min(now, c->attach_ns), NSEC_PER_MSEC);
}

/* pci.c */
int vfn_bar_alloc(struct vfn_ctrl *c);
int vfn_pci_create(struct vfn_ctrl *c);
void vfn_pci_stop(struct vfn_ctrl *c);
void vfn_pci_remove(struct vfn_ctrl *c);
void vfn_bar_free(struct vfn_ctrl *c);
void vfn_raise_irq(struct vfn_ctrl *c, u16 vector);
void vfn_power_init(struct vfn_ctrl *c);
int vfn_cut_power(void *priv);

/* hostmem.c */
void vfn_hostmem_init(struct vfn_ctrl *c);
void *vfn_host_kva(struct vfn_ctrl *c, u64 addr, u32 len);

/**
 * vfn_map_data() - map a command's data buffer into c->buf
 * @c: the controller
 * @cmd: the command; its PRP entries describe the buffer
 * @len: transfer length, from the command's own fields
 *
 * The direction is the opcode's data transfer field (bits 1:0): with bit
 * 1 set the controller writes to the host.
 *
 * Return: 0 or the NVMe status of vfn_prp_walk().
 */
static inline u16 vfn_map_data(struct vfn_ctrl *c,
			       const struct nvme_command *cmd, u32 len)
{
	return vfn_prp_walk(&c->hm, le64_to_cpu(cmd->common.dptr.prp1),
			    le64_to_cpu(cmd->common.dptr.prp2), len,
			    cmd->common.opcode & 2, &c->buf);
}

/**
 * vfn_to_host() - answer an admin command from c->ident
 * @c: the controller
 * @cmd: the command; its PRP entries describe the host's buffer
 * @off: where in c->ident the answer starts
 * @avail: bytes of c->ident from @off to send
 * @len: the transfer length: past @avail, zeros
 *
 * Return: 0 or the NVMe status of vfn_map_data().
 */
static inline u16 vfn_to_host(struct vfn_ctrl *c,
			      const struct nvme_command *cmd, u32 off,
			      u32 avail, u32 len)
{
	u16 sc = vfn_map_data(c, cmd, len);

	if (!sc)
		vfn_buf_to_host(&c->buf, c->ident + off, avail);
	return sc;
}

/* A command abandoned because the host took DMA back while it ran. */
#define VFN_SC_ABANDONED	NVME_SC_ABORT_REQ

/* admin.c */
void vfn_features_default(struct vfn_features *f);
u16 vfn_feature_set(struct vfn_features *f, u8 fid, u32 cdw11);
u16 vfn_feature_get(const struct vfn_features *f, u8 fid, u32 cdw11,
		    u32 *result);

u16 vfn_admin_decode(const struct nvme_command *cmd);
u32 vfn_log_bytes(u8 lid);
u16 vfn_check_log(const struct nvme_command *cmd, u32 *off, u32 *len);
u16 vfn_decode_nr_queues(u32 cdw11, u32 *want);
u16 vfn_check_new_queue(const struct nvme_command *cmd, u32 nr_ioq,
			const struct vfn_queue *queues);
u16 vfn_check_new_cq(const struct nvme_command *cmd, u32 nr_vec);
u16 vfn_check_new_sq(const struct nvme_command *cmd,
		     const struct vfn_queue *cqs);
u16 vfn_check_delete(const struct nvme_command *cmd,
		     const struct vfn_queue *sqs, const struct vfn_queue *cqs);
void vfn_admin_reset(struct vfn_ctrl *c);
void vfn_admin_tick(struct vfn_ctrl *c, u64 now);
void vfn_admin(struct vfn_ctrl *c, const struct nvme_command *cmd,
	       struct vfn_cmd *out);

/* io.c */
void vfn_io(struct vfn_ctrl *c, const struct nvme_command *cmd,
	    struct vfn_cmd *out, u64 now);
u16 vfn_io_decode(const struct nvme_command *cmd, const struct vfn_ns *ns,
		  struct vfn_io_req *req);
u16 vfn_copy_check(const struct vfn_ns *ns, u64 sdlba,
		   const struct vfn_copy_desc *desc, u32 nr, u64 *total);
u64 vfn_io_power_cut(struct vfn_ctrl *c, u64 now);
bool vfn_io_discard(struct vfn_ctrl *c, const struct vfn_io_req *r, u64 now,
		    u64 *due_ns, bool zone, bool always);
u16 vfn_io_program(struct vfn_ctrl *c, const struct vfn_nsd *nd,
		   const struct vfn_io_req *r, u64 now, u64 *due_ns);

/* Zones get Finish or Reset Recommended: the tick must run (ns.h). */
static inline bool vfn_zone_recs(const struct vfn_ctrl *c)
{
	return c->nst.zgeo.frl_s || c->nst.zgeo.rrl_s;
}

/* ns.c: Namespace Management and Attachment */
u16 vfn_ns_check_cmd(const struct nvme_command *cmd);
bool vfn_ns_discard(struct vfn_ctrl *c, const struct vfn_nsd *nd, u64 now);
u16 vfn_ns_mgmt(struct vfn_ctrl *c, const struct nvme_command *cmd,
		u32 *result, u64 now);
u16 vfn_ns_attachment(struct vfn_ctrl *c, const struct nvme_command *cmd);

/* dispatch.c: the core; it calls the files above only through c->ops */
int vfn_dispatch_start(struct vfn_ctrl *c);
void vfn_dispatch_stop(struct vfn_ctrl *c);
void vfn_dispatch_init(struct vfn_ctrl *c);
bool vfn_dispatch_once(struct vfn_ctrl *c, u64 *next);
u64 vfn_drain(struct vfn_ctrl *c, struct vfn_heap *h, u64 now, bool final,
	      unsigned long *raise);
void vfn_raise_irqs(struct vfn_ctrl *c, unsigned long *raise);
u64 vfn_sq_delete(struct vfn_ctrl *c, u16 qid, u64 now);
void vfn_fatal(struct vfn_ctrl *c);
void vfn_power_off(struct vfn_ctrl *c);
int vfn_request_cut(struct vfn_ctrl *c, unsigned long timeout);
bool vfn_dispatch_sleep(struct vfn_ctrl *c, u64 until_ns, u64 slack_ns);
void vfn_aen(struct vfn_ctrl *c, u32 result);

/* image.c: what a controller keeps (VFN_KEPT_BYTES), in a device image */
ssize_t vfn_img_save(const struct vfn_ctrl *c, u64 now, void **blob);
int vfn_img_load(struct vfn_ctrl *c, const void *p, size_t len, u64 now);

/* main.c */
extern struct vflash_frontend vflash_nvme_frontend;

#endif /* VFLASH_NVME_H */
