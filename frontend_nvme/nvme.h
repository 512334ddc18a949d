/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NVMe frontend: a virtual PCIe NVMe controller that the kernel's own
 * nvme driver binds to. docs/nvme-design.md is the plan, docs/nvme.md what
 * is built. Everything device-side runs in one dispatcher thread, which
 * owns the controller state; only the PCI config space is shared with the
 * PCI core, under cfg_lock.
 */
#ifndef VFLASH_NVME_H
#define VFLASH_NVME_H

#include <linux/nvme.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct vflash_dev;

#define VFN_VENDOR_ID		0x1234
#define VFN_DEVICE_ID		0x5646
#define VFN_BAR_ORDER		2		/* 16 KiB */
#define VFN_BAR_SIZE		(PAGE_SIZE << VFN_BAR_ORDER)
#define VFN_DB_OFF		0x1000
#define VFN_MSIX_TBL_OFF	0x2000
#define VFN_MSIX_PBA_OFF	0x3000
#define VFN_MAX_IOQ		64
#define VFN_NR_VEC		(VFN_MAX_IOQ + 1)
#define VFN_MQES		1023		/* CAP.MQES, 0's based */
#define VFN_MDTS		7		/* 2^7 x 4 KiB = 512 KiB */
#define VFN_MAX_XFER_PAGES	BIT(VFN_MDTS)
#define VFN_INFLIGHT		4096		/* commands awaiting completion */
#define VFN_CFG_SIZE		256

/**
 * struct vfn_queue - a submission or completion queue
 * @kva: its entries, in host memory (physically contiguous)
 * @size: entries
 * @head: SQ: next entry to fetch; CQ: host's head, as last read
 * @tail: CQ: next entry to fill
 * @phase: CQ: phase tag of the next entry
 * @cqid: SQ: its completion queue
 * @vector: CQ: MSI-X vector
 * @irq_enabled: CQ: raise @vector when posting
 * @live: created and not deleted
 */
struct vfn_queue {
	void *kva;
	u32 size;
	u32 head;
	u32 tail;
	u8 phase;
	u16 cqid;
	u16 vector;
	bool irq_enabled;
	bool live;
};

/**
 * struct vfn_seg - a piece of a host buffer, mapped
 * @kva: where it is
 * @len: its length
 */
struct vfn_seg {
	void *kva;
	u32 len;
};

/**
 * struct vfn_cmd - a command whose completion is due later
 * @due_ns: when the model says it completes
 * @cqe: result and command id of the completion entry to post
 * @sc: its status code (with DNR), host order, without the phase tag
 * @sqid: its submission queue
 * @cqid: the completion queue it goes to
 */
struct vfn_cmd {
	u64 due_ns;
	struct nvme_completion cqe;
	u16 sc;
	u16 sqid;
	u16 cqid;
};

/**
 * struct vfn_ctrl - one virtual controller
 * @vdev: the vflash device it exposes
 * @bar: BAR0, in reserved pages we allocated (device side: direct map)
 * @bar_page: its first page
 * @cfg: PCI configuration space image
 * @cfg_wmask: writable bits of @cfg
 * @cfg_lock: protects @cfg and @bar_sizing against the PCI core's
 *	lockless config accessors
 * @bar_sizing: BAR0 dword(s) in the sizing step (bit 0 low, bit 1 high)
 * @sysdata: x86 PCI host bridge data (domain)
 * @bus: our root bus
 * @pdev: the function on it
 * @thread: the dispatcher
 * @enabled: CC.EN as last seen by the dispatcher
 * @shutdown: CC.SHN acted on
 * @sq: submission queues, 0 = admin
 * @cq: completion queues, 0 = admin
 * @granted_ioq: I/O queue pairs granted by Set Features, 0 before
 * @heap: commands awaiting their due time, a min-heap on due_ns
 * @nr_heap: entries in @heap
 * @last_busy_ns: when the dispatcher last had work
 * @poll_idle_ns: idle time after which it sleeps between polls
 * @wce: volatile write cache enabled (Set Features 0x06)
 * @host_read_cmds: Read and Compare commands completed, for SMART
 * @host_write_cmds: Write commands completed, for SMART
 * @nr_aer: asynchronous event requests held
 * @ident: scratch page for Identify and log data
 * @segs: scratch list of a command's mapped host buffer
 * @nr_segs: entries in @segs
 * @ctrl_id: instance number, for serial and NQN
 */
struct vfn_ctrl {
	struct vflash_dev *vdev;
	void *bar;
	struct page *bar_page;
	u8 cfg[VFN_CFG_SIZE];
	u8 cfg_wmask[VFN_CFG_SIZE];
	raw_spinlock_t cfg_lock;	/* see the kernel-doc above */
	u8 bar_sizing;
	struct pci_sysdata sysdata;
	struct pci_bus *bus;
	struct pci_dev *pdev;
	struct task_struct *thread;
	bool enabled;
	bool shutdown;
	struct vfn_queue sq[VFN_MAX_IOQ + 1];
	struct vfn_queue cq[VFN_MAX_IOQ + 1];
	u32 granted_ioq;
	struct vfn_cmd *heap;
	u32 nr_heap;
	u64 last_busy_ns;
	u64 poll_idle_ns;
	bool wce;
	u64 host_read_cmds;
	u64 host_write_cmds;
	u32 nr_aer;
	void *ident;
	struct vfn_seg segs[VFN_MAX_XFER_PAGES + 1];
	u32 nr_segs;
	int ctrl_id;
};

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

/* pci.c */
int vfn_bar_alloc(struct vfn_ctrl *c);
int vfn_pci_create(struct vfn_ctrl *c);
void vfn_pci_stop(struct vfn_ctrl *c);
void vfn_pci_remove(struct vfn_ctrl *c);
void vfn_bar_free(struct vfn_ctrl *c);
void vfn_raise_irq(struct vfn_ctrl *c, u16 vector);

/* hostmem.c */
void *vfn_host_kva(struct vfn_ctrl *c, u64 addr, u32 len);
u16 vfn_prp_map(struct vfn_ctrl *c, u64 prp1, u64 prp2, u32 len);
void vfn_segs_copy(struct vfn_ctrl *c, void *buf, bool to_host);

/* admin.c */
void vfn_admin(struct vfn_ctrl *c, const struct nvme_command *cmd,
	       struct vfn_cmd *out);

/* io.c */
void vfn_io(struct vfn_ctrl *c, const struct nvme_command *cmd,
	    struct vfn_cmd *out, u64 now);

/* dispatch.c */
int vfn_dispatch_start(struct vfn_ctrl *c);
void vfn_dispatch_stop(struct vfn_ctrl *c);

/* frontend.c */
int vflash_nvme_register(void);
void vflash_nvme_unregister(void);

#endif /* VFLASH_NVME_H */
