// SPDX-License-Identifier: GPL-2.0
/*
 * The threads. One dispatcher owns the controller: it watches CC, fetches
 * commands from every live SQ when its tail doorbell moves and executes
 * them (data moves at once). Each completion then waits in a min-heap for
 * the time the flash model gave it: admin completions in the dispatcher's
 * own heap, I/O completions in the heap of the completion worker that
 * owns their CQ (or the dispatcher's when workers=0). Whoever owns a heap
 * posts its entries when they fall due and raises the CQ's MSI-X vector.
 *
 * A thread spins for a completion due within spin_us and sleeps (an
 * hrtimer) until spin_us before a later one. The dispatcher polls the
 * doorbells without sleeping for poll_idle_us after its last command,
 * then sleeps between polls, each sleep twice the last up to
 * IDLE_SLEEP_MAX_US, so an idle device costs next to no CPU.
 *
 * Posting always happens under the CQ's lock, after checking that the CQ
 * is live and of the generation the command was fetched for: a CQ that
 * was deleted or reset in the meantime gets nothing, so no thread writes
 * to host memory the driver has taken back.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define FETCH_BURST		32
#define POST_BATCH		32
#define IDLE_SLEEP_US		100
#define IDLE_SLEEP_MAX_US	1000
#define SLACK_NS		5000
#define CQ_FULL_RETRY_NS	2000

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

/* Add @cmd; true if it became the earliest. Caller holds h->lock. */
static bool heap_push(struct vfn_heap *h, const struct vfn_cmd *cmd)
{
	u32 i = h->nr++;

	h->cmd[i] = *cmd;
	while (i && h->cmd[(i - 1) / 2].due_ns > h->cmd[i].due_ns) {
		heap_swap(&h->cmd[(i - 1) / 2], &h->cmd[i]);
		i = (i - 1) / 2;
	}
	return !i;
}

/* Remove the earliest entry. Caller holds h->lock. */
static void heap_pop(struct vfn_heap *h)
{
	u32 i = 0;

	h->cmd[0] = h->cmd[--h->nr];
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->nr && h->cmd[l].due_ns < h->cmd[m].due_ns)
			m = l;
		if (r < h->nr && h->cmd[r].due_ns < h->cmd[m].due_ns)
			m = r;
		if (m == i)
			return;
		heap_swap(&h->cmd[i], &h->cmd[m]);
		i = m;
	}
}

static u32 *doorbell(struct vfn_ctrl *c, u32 qid, bool cq)
{
	return c->bar + VFN_DB_OFF + (2 * qid + cq) * 4;
}

static struct vfn_heap *heap_of(struct vfn_ctrl *c, u16 cqid)
{
	if (!cqid || !c->nr_workers)
		return &c->heap[0];
	return &c->heap[1 + (cqid - 1) % c->nr_workers];
}

/*
 * Post one completion; false if its CQ is full (try again later). A
 * completion for a CQ deleted or reset since its command was fetched is
 * dropped.
 */
static bool post(struct vfn_ctrl *c, const struct vfn_cmd *cmd,
		 unsigned long *raise)
{
	struct vfn_queue *cq = &c->cq[cmd->cqid];
	struct nvme_completion e = cmd->cqe;
	bool ok = true;

	spin_lock(&c->cq_lock[cmd->cqid]);
	if (cq->live && cq->gen == cmd->gen) {
		e.sq_head = cpu_to_le16(READ_ONCE(c->sq[le16_to_cpu(e.sq_id)].head));
		ok = vfn_cq_post(cq, READ_ONCE(*doorbell(c, cmd->cqid, true)),
				 &e, cmd->sc);
		if (ok && cq->irq_enabled)
			__set_bit(cmd->cqid, raise);
	}
	spin_unlock(&c->cq_lock[cmd->cqid]);
	return ok;
}

static void raise_irqs(struct vfn_ctrl *c, unsigned long *raise)
{
	u32 q;

	for_each_set_bit(q, raise, VFN_MAX_IOQ + 1)
		vfn_raise_irq(c, READ_ONCE(c->cq[q].vector));
	bitmap_zero(raise, VFN_MAX_IOQ + 1);
}

/*
 * Post the completions of @h due by @now. One that finds its CQ full is
 * retried a little later, unless @final (shutdown), when it is dropped.
 * Return: the due time of the earliest one left, or U64_MAX.
 */
static u64 drain(struct vfn_ctrl *c, struct vfn_heap *h, u64 now,
		 bool final, unsigned long *raise)
{
	struct vfn_cmd batch[POST_BATCH];
	u64 next;
	u32 n, i;

	do {
		n = 0;
		spin_lock(&h->lock);
		while (h->nr && h->cmd[0].due_ns <= now && n < POST_BATCH) {
			batch[n++] = h->cmd[0];
			heap_pop(h);
		}
		next = h->nr ? h->cmd[0].due_ns : U64_MAX;
		spin_unlock(&h->lock);
		for (i = 0; i < n; i++) {
			if (post(c, &batch[i], raise) || final)
				continue;
			/* Room: fetch() leaves POST_BATCH entries free. */
			batch[i].due_ns = ktime_get_ns() + CQ_FULL_RETRY_NS;
			spin_lock(&h->lock);
			heap_push(h, &batch[i]);
			spin_unlock(&h->lock);
			next = min(next, batch[i].due_ns);
		}
	} while (n == POST_BATCH);
	return next;
}

/* Make every CQ dead for the threads that post, and forget all pending. */
static void kill_queues(struct vfn_ctrl *c)
{
	u32 q;

	for (q = 0; q <= VFN_MAX_IOQ; q++) {
		spin_lock(&c->cq_lock[q]);
		c->cq[q].live = false;
		c->cq[q].gen++;
		spin_unlock(&c->cq_lock[q]);
		c->sq[q].live = false;
	}
	for (q = 0; q <= c->nr_workers; q++) {
		spin_lock(&c->heap[q].lock);
		c->heap[q].nr = 0;
		spin_unlock(&c->heap[q].lock);
	}
}

static void reset(struct vfn_ctrl *c)
{
	u32 q;

	kill_queues(c);
	for (q = 0; q <= VFN_MAX_IOQ; q++) {
		WRITE_ONCE(*doorbell(c, q, false), 0);
		WRITE_ONCE(*doorbell(c, q, true), 0);
	}
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
	spin_lock(&c->cq_lock[0]);
	c->cq[0] = (struct vfn_queue) {
		.kva = cq, .size = cqs, .phase = 1, .irq_enabled = true,
		.live = true, .gen = c->cq[0].gen + 1,
	};
	spin_unlock(&c->cq_lock[0]);
	vfn_set_reg32(c, NVME_REG_CSTS, NVME_CSTS_RDY);
}

/* Complete the held Asynchronous Event Requests with Abort Requested. */
static void abort_aers(struct vfn_ctrl *c)
{
	struct vfn_cmd rec = { .due_ns = 0, .sc = NVME_SC_ABORT_REQ,
			       .gen = c->cq[0].gen };

	while (c->nr_aer) {
		rec.cqe.command_id = c->aer_cid[--c->nr_aer];
		spin_lock(&c->heap[0].lock);
		heap_push(&c->heap[0], &rec);
		spin_unlock(&c->heap[0].lock);
	}
}

/* Act on CC; returns true if the controller takes commands. */
static bool handle_cc(struct vfn_ctrl *c, unsigned long *raise)
{
	u32 cc = vfn_reg32(c, NVME_REG_CC), q;

	if ((cc & NVME_CC_ENABLE) && !c->enabled)
		enable(c, cc);
	else if (!(cc & NVME_CC_ENABLE) && c->enabled)
		reset(c);
	if (c->enabled && (cc & NVME_CC_SHN_MASK) && !c->shutdown) {
		/*
		 * Complete what is in flight, the held AERs as aborted, then
		 * report shutdown done.
		 */
		abort_aers(c);
		for (q = 0; q <= c->nr_workers; q++)
			drain(c, &c->heap[q], U64_MAX, true, raise);
		raise_irqs(c, raise);
		kill_queues(c);
		c->shutdown = true;
		vfn_set_reg32(c, NVME_REG_CSTS,
			      vfn_reg32(c, NVME_REG_CSTS) | NVME_CSTS_SHST_CMPLT);
	}
	return c->enabled && !c->shutdown &&
	       !(vfn_reg32(c, NVME_REG_CSTS) & NVME_CSTS_CFS);
}

/* Hand a completion to the thread that posts to its CQ. */
static void complete_later(struct vfn_ctrl *c, const struct vfn_cmd *rec)
{
	struct vfn_heap *h = heap_of(c, rec->cqid);
	bool first;

	spin_lock(&h->lock);
	first = heap_push(h, rec);
	spin_unlock(&h->lock);
	if (first && h != &c->heap[0])
		wake_up_process(h->task);
}

/* Fetch and execute up to a burst of one SQ's new commands. */
static bool fetch(struct vfn_ctrl *c, u32 qid)
{
	struct vfn_queue *sq = &c->sq[qid];
	u32 n = vfn_sq_avail(sq, READ_ONCE(*doorbell(c, qid, false)));
	u16 cqid = qid ? sq->cqid : 0;
	struct vfn_heap *h = heap_of(c, cqid);
	u32 done = 0;

	n = min_t(u32, n, FETCH_BURST);
	/* Leave room for a batch that drain() may have to put back. */
	while (done < n && READ_ONCE(h->nr) < VFN_INFLIGHT - POST_BATCH) {
		struct vfn_cmd rec = { .cqid = cqid, .gen = c->cq[cqid].gen };
		struct nvme_command cmd;
		u64 now = ktime_get_ns();

		dma_rmb();
		memcpy(&cmd, (struct nvme_command *)sq->kva + sq->head,
		       sizeof(cmd));
		WRITE_ONCE(sq->head, vfn_ring_next(sq->head, sq->size));
		rec.cqe.command_id = cmd.common.command_id;
		rec.cqe.sq_id = cpu_to_le16(qid);
		done++;
		if (qid) {
			vfn_io(c, &cmd, &rec, now);
		} else {
			rec.due_ns = now;
			vfn_admin(c, &cmd, &rec);
			if (rec.due_ns == U64_MAX)
				continue;	/* held (AER) */
		}
		complete_later(c, &rec);
	}
	return done;
}

/* Sleep until @until_ns (CLOCK_MONOTONIC), unless woken earlier. */
static void sleep_until(u64 until_ns)
{
	ktime_t until = ns_to_ktime(until_ns);

	set_current_state(TASK_INTERRUPTIBLE);
	schedule_hrtimeout_range(&until, SLACK_NS, HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
}

static int dispatch_fn(void *data)
{
	struct vfn_ctrl *c = data;
	DECLARE_BITMAP(raise, VFN_MAX_IOQ + 1);
	u32 q, idle_us = IDLE_SLEEP_US;

	bitmap_zero(raise, VFN_MAX_IOQ + 1);
	c->last_busy_ns = ktime_get_ns();
	while (!kthread_should_stop()) {
		bool busy = false;
		u64 now, next;

		if (handle_cc(c, raise)) {
			for (q = 0; q <= VFN_MAX_IOQ; q++)
				if (c->sq[q].live)
					busy |= fetch(c, q);
		}
		now = ktime_get_ns();
		next = drain(c, &c->heap[0], now, false, raise);
		raise_irqs(c, raise);

		if (busy) {
			c->last_busy_ns = now;
			idle_us = IDLE_SLEEP_US;
		} else if (now - c->last_busy_ns <= c->poll_idle_ns) {
			/* Recently busy: keep polling the doorbells. */
		} else if (next != U64_MAX) {
			/* Idle but for our own completions: sleep to the next. */
			if (next > now + c->spin_ns)
				sleep_until(next - c->spin_ns);
		} else {
			usleep_range(idle_us, idle_us + idle_us / 4);
			idle_us = min(2 * idle_us, IDLE_SLEEP_MAX_US);
			continue;
		}
		cond_resched();
	}
	return 0;
}

static int worker_fn(void *data)
{
	struct vfn_heap *h = data;
	struct vfn_ctrl *c = h->ctrl;
	DECLARE_BITMAP(raise, VFN_MAX_IOQ + 1);

	bitmap_zero(raise, VFN_MAX_IOQ + 1);
	while (!kthread_should_stop()) {
		u64 next = drain(c, h, ktime_get_ns(), false, raise);
		u64 now;
		ktime_t until;

		raise_irqs(c, raise);
		now = ktime_get_ns();
		if (next <= now + c->spin_ns) {
			if (next > now)
				cpu_relax();
			cond_resched();
			continue;
		}
		/* Sleep until a push makes a new earliest entry, or near it. */
		set_current_state(TASK_INTERRUPTIBLE);
		spin_lock(&h->lock);
		next = h->nr ? h->cmd[0].due_ns : U64_MAX;
		spin_unlock(&h->lock);
		if (kthread_should_stop() ||
		    next <= ktime_get_ns() + c->spin_ns) {
			__set_current_state(TASK_RUNNING);
			continue;
		}
		if (next == U64_MAX) {
			schedule();
		} else {
			until = ns_to_ktime(next - c->spin_ns);
			schedule_hrtimeout_range(&until, SLACK_NS,
						 HRTIMER_MODE_ABS);
		}
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* The k-th CPU of c->cpus, cyclically. */
static unsigned int nth_cpu(struct vfn_ctrl *c, unsigned int k)
{
	unsigned int cpu = cpumask_first(c->cpus);

	k %= cpumask_weight(c->cpus);
	while (k--)
		cpu = cpumask_next(cpu, c->cpus);
	return cpu;
}

static struct task_struct *vfn_thread_start(struct vfn_ctrl *c,
					    int (*fn)(void *), void *arg,
					    unsigned int k)
{
	struct task_struct *t;

	if (k)
		t = kthread_create(fn, arg, "%s-nvme-c%u",
				   dev_name(&c->vdev->dev), k);
	else
		t = kthread_create(fn, arg, "%s-nvme", dev_name(&c->vdev->dev));
	if (IS_ERR(t))
		return t;
	if (!cpumask_empty(c->cpus))
		set_cpus_allowed_ptr(t, cpumask_of(nth_cpu(c, k)));
	wake_up_process(t);
	return t;
}

static void stop_threads(struct vfn_ctrl *c)
{
	u32 k;

	for (k = 0; k <= c->nr_workers; k++) {
		if (c->heap[k].task)
			kthread_stop(c->heap[k].task);
		c->heap[k].task = NULL;
	}
}

/**
 * vfn_dispatch_start() - initialise the registers, start the threads
 * @c: the controller, BAR0, heaps, nr_workers and cpus set up
 *
 * Return: 0 or a negative errno (nothing left running).
 */
int vfn_dispatch_start(struct vfn_ctrl *c)
{
	struct task_struct *t;
	int k;

	vfn_set_reg32(c, NVME_REG_CAP, CAP_LO);
	vfn_set_reg32(c, NVME_REG_CAP + 4, CAP_HI);
	vfn_set_reg32(c, NVME_REG_VS, VS_1_4);
	reset(c);
	/* Workers first: the dispatcher wakes them. */
	for (k = c->nr_workers; k >= 0; k--) {
		t = vfn_thread_start(c, k ? worker_fn : dispatch_fn,
				     k ? (void *)&c->heap[k] : c, k);
		if (IS_ERR(t)) {
			stop_threads(c);
			return PTR_ERR(t);
		}
		c->heap[k].task = t;
	}
	return 0;
}

/**
 * vfn_dispatch_stop() - stop the dispatcher and the completion workers
 * @c: the controller; the host driver must be gone
 */
void vfn_dispatch_stop(struct vfn_ctrl *c)
{
	stop_threads(c);
}
