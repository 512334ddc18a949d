// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatcher: one kernel thread that owns the controller. It watches
 * CC, fetches commands from every live SQ when its tail doorbell moves,
 * executes them (data moves at once), and posts each completion when the
 * flash model says it is done, then raises the CQ's MSI-X vector. It
 * spins while there is work or a completion is near, sleeps in short
 * steps until a distant one, and after poll_idle_us without work sleeps
 * between polls, each sleep twice the last up to IDLE_SLEEP_MAX_US, so an
 * idle device costs next to no CPU.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define FETCH_BURST	32
#define IDLE_SLEEP_US	100
#define IDLE_SLEEP_MAX_US	1000
#define SPIN_NS		20000

/* CAP: MQES 1023, CQR, TO 10 s, CSS NVM, MPSMIN = MPSMAX = 4 KiB. */
#define CAP_LO		(VFN_MQES | BIT(16) | 0x14 << 24)
#define CAP_HI		BIT(37 - 32)
#define VS_1_4		0x00010400

static void heap_swap(struct vfn_cmd *a, struct vfn_cmd *b)
{
	struct vfn_cmd t = *a;

	*a = *b;
	*b = t;
}

static void heap_push(struct vfn_ctrl *c, const struct vfn_cmd *cmd)
{
	u32 i = c->nr_heap++;

	c->heap[i] = *cmd;
	while (i && c->heap[(i - 1) / 2].due_ns > c->heap[i].due_ns) {
		heap_swap(&c->heap[(i - 1) / 2], &c->heap[i]);
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct vfn_ctrl *c)
{
	u32 i = 0;

	c->heap[0] = c->heap[--c->nr_heap];
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = i;

		if (l < c->nr_heap && c->heap[l].due_ns < c->heap[m].due_ns)
			m = l;
		if (r < c->nr_heap && c->heap[r].due_ns < c->heap[m].due_ns)
			m = r;
		if (m == i)
			return;
		heap_swap(&c->heap[i], &c->heap[m]);
		i = m;
	}
}

static u32 *doorbell(struct vfn_ctrl *c, u32 qid, bool cq)
{
	return c->bar + VFN_DB_OFF + (2 * qid + cq) * 4;
}

/*
 * Post a completion; false if its CQ is full (try again later). A
 * completion for a deleted CQ is dropped.
 */
static bool post(struct vfn_ctrl *c, struct vfn_cmd *cmd, unsigned long *raise)
{
	struct vfn_queue *cq = &c->cq[cmd->cqid];
	struct nvme_completion *e;
	u32 head;

	if (!cq->live)
		return true;
	head = READ_ONCE(*doorbell(c, cmd->cqid, true));
	if (head < cq->size)
		cq->head = head;
	if ((cq->tail + 1) % cq->size == cq->head)
		return false;
	e = cq->kva + cq->tail * sizeof(*e);
	e->result = cmd->cqe.result;
	e->sq_head = cpu_to_le16(c->sq[cmd->sqid].head);
	e->sq_id = cpu_to_le16(cmd->sqid);
	e->command_id = cmd->cqe.command_id;
	dma_wmb();
	WRITE_ONCE(e->status, cpu_to_le16(cmd->sc << 1 | cq->phase));
	if (++cq->tail == cq->size) {
		cq->tail = 0;
		cq->phase ^= 1;
	}
	if (cq->irq_enabled)
		__set_bit(cmd->cqid, raise);
	return true;
}

static void reset(struct vfn_ctrl *c)
{
	u32 q;

	for (q = 0; q <= VFN_MAX_IOQ; q++) {
		c->sq[q].live = false;
		c->cq[q].live = false;
		WRITE_ONCE(*doorbell(c, q, false), 0);
		WRITE_ONCE(*doorbell(c, q, true), 0);
	}
	c->nr_heap = 0;
	c->granted_ioq = 0;
	c->nr_aer = 0;
	c->enabled = false;
	c->shutdown = false;
	vfn_set_reg32(c, NVME_REG_CSTS, 0);
}

static void enable(struct vfn_ctrl *c, u32 cc)
{
	u32 aqa = vfn_reg32(c, NVME_REG_AQA);
	u32 sqs = (aqa & 0xfff) + 1, cqs = ((aqa >> 16) & 0xfff) + 1;
	u64 asq = vfn_reg64(c, NVME_REG_ASQ), acq = vfn_reg64(c, NVME_REG_ACQ);
	void *sq = NULL, *cq = NULL;

	c->enabled = true;
	/* 4 KiB pages, NVM command set, round robin; else a fatal status. */
	if (!(cc & (0xf << NVME_CC_MPS_SHIFT | 7 << NVME_CC_CSS_SHIFT |
		    7 << NVME_CC_AMS_SHIFT)) && sqs > 1 && cqs > 1 &&
	    !(asq & (PAGE_SIZE - 1)) && !(acq & (PAGE_SIZE - 1))) {
		sq = vfn_host_kva(c, asq, sqs * sizeof(struct nvme_command));
		cq = vfn_host_kva(c, acq, cqs * sizeof(struct nvme_completion));
	}
	if (!sq || !cq) {
		vfn_set_reg32(c, NVME_REG_CSTS, NVME_CSTS_CFS);
		return;
	}
	c->sq[0] = (struct vfn_queue) { .kva = sq, .size = sqs, .live = true };
	c->cq[0] = (struct vfn_queue) {
		.kva = cq, .size = cqs, .phase = 1, .irq_enabled = true,
		.live = true,
	};
	vfn_set_reg32(c, NVME_REG_CSTS, NVME_CSTS_RDY);
}

/* Act on CC; returns true if the controller takes commands. */
static bool handle_cc(struct vfn_ctrl *c, unsigned long *raise)
{
	u32 cc = vfn_reg32(c, NVME_REG_CC);

	if ((cc & NVME_CC_ENABLE) && !c->enabled)
		enable(c, cc);
	else if (!(cc & NVME_CC_ENABLE) && c->enabled)
		reset(c);
	if (c->enabled && (cc & NVME_CC_SHN_MASK) && !c->shutdown) {
		/* Complete what is in flight, then report shutdown done. */
		while (c->nr_heap) {
			post(c, &c->heap[0], raise);
			heap_pop(c);
		}
		c->shutdown = true;
		vfn_set_reg32(c, NVME_REG_CSTS,
			      vfn_reg32(c, NVME_REG_CSTS) | NVME_CSTS_SHST_CMPLT);
	}
	return c->enabled && !c->shutdown &&
	       !(vfn_reg32(c, NVME_REG_CSTS) & NVME_CSTS_CFS);
}

/* Fetch and execute up to a burst of one SQ's new commands. */
static bool fetch(struct vfn_ctrl *c, u32 qid, u64 now)
{
	struct vfn_queue *sq = &c->sq[qid];
	u32 tail = READ_ONCE(*doorbell(c, qid, false));
	u32 n = 0;

	if (tail >= sq->size)
		return false;
	while (sq->head != tail && n < FETCH_BURST &&
	       c->nr_heap < VFN_INFLIGHT) {
		struct nvme_command cmd;
		struct vfn_cmd rec = { .sqid = qid };

		dma_rmb();
		memcpy(&cmd, sq->kva + sq->head * sizeof(cmd), sizeof(cmd));
		sq->head = (sq->head + 1) % sq->size;
		rec.cqid = qid ? sq->cqid : 0;
		rec.cqe.command_id = cmd.common.command_id;
		if (qid) {
			vfn_io(c, &cmd, &rec, now);
		} else {
			rec.due_ns = now;
			vfn_admin(c, &cmd, &rec);
			if (rec.due_ns == U64_MAX)
				continue;	/* held (AER) */
		}
		heap_push(c, &rec);
		n++;
	}
	return n;
}

static int dispatch_fn(void *data)
{
	struct vfn_ctrl *c = data;
	DECLARE_BITMAP(raise, VFN_MAX_IOQ + 1);
	u32 q, idle_us = IDLE_SLEEP_US;

	c->last_busy_ns = ktime_get_ns();
	while (!kthread_should_stop()) {
		u64 now = ktime_get_ns();
		bool busy = false;

		bitmap_zero(raise, VFN_MAX_IOQ + 1);
		if (handle_cc(c, raise)) {
			for (q = 0; q <= VFN_MAX_IOQ; q++)
				if (c->sq[q].live)
					busy |= fetch(c, q, now);
		}
		now = ktime_get_ns();
		while (c->nr_heap && c->heap[0].due_ns <= now &&
		       post(c, &c->heap[0], raise))
			heap_pop(c);
		for_each_set_bit(q, raise, VFN_MAX_IOQ + 1)
			vfn_raise_irq(c, c->cq[q].vector);

		if (busy) {
			c->last_busy_ns = now;
			idle_us = IDLE_SLEEP_US;
		} else if (c->nr_heap) {
			u64 wait = c->heap[0].due_ns > now ?
				   c->heap[0].due_ns - now : 0;

			/* Sleep towards a distant completion, in short steps. */
			if (wait > SPIN_NS)
				usleep_range(min_t(u64, (wait - SPIN_NS) / 1000,
						   IDLE_SLEEP_US),
					     IDLE_SLEEP_US);
		} else if (now - c->last_busy_ns > c->poll_idle_ns) {
			usleep_range(idle_us, idle_us + idle_us / 4);
			idle_us = min(2 * idle_us, IDLE_SLEEP_MAX_US);
			continue;
		}
		cond_resched();
	}
	return 0;
}

/**
 * vfn_dispatch_start() - initialise the registers and start the dispatcher
 * @c: the controller, BAR0 allocated
 *
 * Return: 0 or a negative errno.
 */
int vfn_dispatch_start(struct vfn_ctrl *c)
{
	struct task_struct *t;

	vfn_set_reg32(c, NVME_REG_CAP, CAP_LO);
	vfn_set_reg32(c, NVME_REG_CAP + 4, CAP_HI);
	vfn_set_reg32(c, NVME_REG_VS, VS_1_4);
	reset(c);
	t = kthread_run(dispatch_fn, c, "%s-nvme", dev_name(&c->vdev->dev));
	if (IS_ERR(t))
		return PTR_ERR(t);
	c->thread = t;
	return 0;
}

/**
 * vfn_dispatch_stop() - stop the dispatcher
 * @c: the controller; the host driver must be gone
 */
void vfn_dispatch_stop(struct vfn_ctrl *c)
{
	kthread_stop(c->thread);
	c->thread = NULL;
}
